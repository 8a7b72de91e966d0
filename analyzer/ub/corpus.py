"""Finding the programs of a corpus and reading their metadata.

Any directory tree of ``.c``/``.cpp`` files is a corpus. A program may start with
a ``/* ub-case`` comment of ``key: value`` lines (see corpus/README); without one,
its category is its folder's name. Expected stdout comes from sibling files
``NAME.output`` or ``NAME.output1``, ``NAME.output2`` … (any one counts). A
program with no such file has no expectation: its cells are compared with each
other only, and ``exploited`` is left unknown.

Those are what a plain run prints on the host (x86-64). Where a plain run on another
architecture prints something else (``INT_MIN / -1`` traps on x86-64 and wraps on
aarch64), ``NAME.ARCH.output`` (``NAME.ARCH.output1`` …) replace them on that
architecture, ``ARCH`` being the first part of its target triple (:data:`ARCHES`).
A case whose own name is ``NAME.ARCH`` still owns ``NAME.ARCH.output``: a file is a
per-architecture output only when its ``NAME.ARCH`` is no program's name, ``NAME``
is one, and ``ARCH`` is a known architecture.
"""
from __future__ import annotations

import hashlib
import os
import posixpath
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from warnscope.errors import BadInput, NotInstalled, ParseError, UnsafeInput
from warnscope.extract import Refused, Tree, shown

SOURCE_SUFFIXES = {".c": "c", ".cpp": "c++", ".cc": "c++", ".cxx": "c++"}
#: the file name a program is compiled by (:mod:`analyzer.ub.compile`): any other (a bidi
#: control, a space, a leading dash) is refused here, named, and the others run
PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
REQUIRED = ("category", "standard", "summary", "ub")
KNOWN = set(REQUIRED) | {"std", "link", "args", "exit", "o0-exploited", "note",
                          "ub-line", "twin", "fixes", "fixed-line"}
STD_VALUES = {"c89", "c99", "c11", "c17", "c2x", "gnu89", "gnu99", "gnu11", "gnu17",
              "c++11", "c++14", "c++17", "c++20", "gnu++17", "gnu++20"}

#: What a corpus file's ``link:`` may add to the compiler command line. The corpus
#: is untrusted and the compiler driver can run anything (``-wrapper``, ``-B``,
#: ``-specs``, ``-fplugin``, ``@file``, ``-Wl,...``), so only flags of these
#: harmless kinds are accepted: libraries by name, macros, the standard, warnings
#: by name and code-generation switches.
_LINK_ALLOWED = re.compile(
    r"-l[A-Za-z0-9_][A-Za-z0-9_+.-]*"                 # -lm, -lstdc++ (not -l:path)
    r"|-pthread"
    r"|-[DU][A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.+-]*)?"   # -DNAME, -DNAME=1, -UNAME
    r"|-std=[a-z0-9+]+"
    r"|-W(no-)?[a-z][a-z0-9-]*(=[0-9]+)?"             # a warning by name: no -Wl, -Wa, -Wp
    r"|-f(no-)?(wrapv|trapv|strict-aliasing|strict-overflow|delete-null-pointer-checks"
    r"|builtin|common|signed-char|unsigned-char|omit-frame-pointer|inline|stack-protector"
    r"|stack-protector-strong|stack-protector-all|pic|PIC|pie|PIE|exceptions|rtti"
    r"|sanitize-recover|tree-vectorize|unroll-loops|math-errno|fast-math|finite-math-only"
    r"|signed-zeros|trapping-math|isolate-erroneous-paths-dereference|lifetime-dse"
    r"|aggressive-loop-optimizations|strict-enums|short-enums|char8_t)")

#: The architectures ``NAME.ARCH.output`` may name: the first part of a GNU target
#: triple (``aarch64-linux-gnu`` -> ``aarch64``), as GCC and Debian spell it.
ARCHES = frozenset({
    "x86_64", "i386", "i486", "i586", "i686", "aarch64", "aarch64_be", "arm", "armeb",
    "riscv32", "riscv64", "mips", "mipsel", "mips64", "mips64el", "mipsisa32r6",
    "mipsisa32r6el", "mipsisa64r6", "mipsisa64r6el", "powerpc", "powerpc64",
    "powerpc64le", "s390", "s390x", "sparc", "sparc64", "alpha", "hppa", "ia64", "m68k",
    "sh4", "loongarch64", "or1k", "microblaze", "microblazeel", "xtensa", "csky", "arc",
    "wasm32", "wasm64",
})


def target_arch(target: str) -> str:
    """The architecture of a target triple (``arm-linux-gnueabihf`` -> ``arm``); an
    architecture stays itself, and '' (the host) stays ''."""
    return target.split("-", 1)[0].lower()


@dataclass(frozen=True)
class Case:
    """One program of the corpus, with what we expect of it. ``source`` holds the
    program's bytes as read once, safely, when the corpus loaded: every later step
    (compile, libclang, the site) uses these, never the path again."""

    id: str                          # 'signed-integer-overflow/loop'
    path: Path
    language: str                    # 'c' | 'c++'
    category: str
    std: str
    standard: str = ""
    summary: str = ""
    ub: bool | None = None           # None: no metadata
    link: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    exit: int = 0
    o0_exploited: bool = False
    note: str = ""
    expected: tuple[bytes, ...] = ()  # empty: no expectation
    source_hash: str = ""            # sha256 of the source and the expected outputs
    meta: dict = field(default_factory=dict, compare=False)
    source: bytes = field(default=b"", compare=False, repr=False)
    #: the lines the defect is on (``ub-line:``, the first the main one); () when unmarked
    ub_lines: tuple[int, ...] = ()
    #: the id of this case's fixed twin (``twin:``), '' when it has none
    twin: str = ""
    #: for a fixed twin, the id of the case it fixes (``fixes:``); '' otherwise
    fixes: str = ""
    #: for a fixed twin, its lines where the case's defect was and is now fixed
    #: (``fixed-line:``, the first the main one); () when unmarked
    fixed_lines: tuple[int, ...] = ()
    #: the expected outputs on an architecture whose plain run prints something else
    #: (``NAME.aarch64.output``): ``{'aarch64': (b'-2147483648\n',)}``; they replace
    #: ``expected`` there (see :meth:`expected_on`); in ``source_hash`` too
    expected_by_arch: dict[str, tuple[bytes, ...]] = field(default_factory=dict, compare=False)

    def expected_on(self, arch: str = "") -> tuple[bytes, ...]:
        """What a plain run prints on ``arch`` (``aarch64``, or a whole target triple,
        ``aarch64-linux-gnu``): its own outputs where it has some, else the plain ones.
        '' is the host, whose outputs are the plain ones."""
        if not arch:
            return self.expected
        return self.expected_by_arch.get(target_arch(arch), self.expected)

    @property
    def is_twin(self) -> bool:
        """A program without UB written as the fixed version of a case."""
        return bool(self.fixes)


@dataclass
class Corpus:
    """The programs of a corpus directory, and the files it holds that warnscope
    refused to read (each a line for the user; the rest of the corpus runs)."""

    root: Path
    cases: list[Case]
    refused: list[Refused]
    #: lines about cases that run but lack part of their meaning (a twin that is missing)
    notes: list[str] = field(default_factory=list)


#: A corpus program or expected output larger than this is not a test case.
MAX_CORPUS_FILE = 1 << 20
_OUTPUT = re.compile(r"(?P<stem>.+)\.output(?P<n>[0-9]*)")


def load(corpus: str | Path) -> Corpus:
    """Every program under ``corpus`` that can be read safely, sorted by id, and the
    refused files. A file is read only if it is a regular file inside the corpus
    (:class:`warnscope.extract.Tree`): a link to ``/etc/shadow`` or a FIFO where an
    expected output should be is refused with its reason, never opened. A case whose
    expected output is refused is refused with it. A malformed metadata block is an
    error for the whole corpus (it names the file and line)."""
    tree = Tree(corpus, "corpus")
    names, refused = tree.walk(lambda n: Path(n).suffix in SOURCE_SUFFIXES
                               or _OUTPUT.fullmatch(n) is not None)
    sources = [n for n in names if Path(n).suffix in SOURCE_SUFFIXES]
    stems = [str(Path(n).with_suffix("")) for n in sources]
    known = set(stems)
    notes: list[str] = []
    outputs: dict[str, dict[str, list[str]]] = {}   # stem -> arch ('' plain) -> names
    for name in names:
        owner = _owner(name, known)
        if owner:
            outputs.setdefault(owner[0], {}).setdefault(owner[1], []).append(name)
            if owner[2]:
                notes.append(f"{tree.shown(name)}: not read: {owner[2]}")
    # an expectation that cannot be read leaves its case without a meaning: not run
    unreadable = {owner[0]: r for r in refused if (owner := _owner(r.rel, known))}
    cases = []
    for name, stem in zip(sources, stems):
        if not PLAIN_NAME.fullmatch(posixpath.basename(name)):
            refused.append(Refused(tree.shown(name), "not run: not a plain source file name (a "
                                   "compile names it on its command line: letters, digits and "
                                   "_ . + - only)", rel=name))
            continue
        if stem in unreadable:
            refused.append(Refused(tree.shown(name), f"not run: its expected output "
                                                      f"{unreadable[stem]}", rel=name))
            continue
        try:
            cases.append(_load(tree, name, outputs.get(stem, {}),
                               keep_suffix=stems.count(stem) > 1))
        except UnsafeInput as exc:
            refused.append(Refused(tree.shown(name), f"not run: {exc}", rel=name))
    cases = _link_twins(tree, cases, notes)
    if not cases:
        raise BadInput(f"{shown(str(corpus))}: no .c or .cpp programs in this corpus"
                       + (f" ({len(refused)} files refused)" if refused else ""))
    return Corpus(root=tree.root, cases=cases, refused=sorted(refused, key=lambda r: r.path),
                  notes=notes)


def _link_twins(tree: Tree, cases: list[Case], notes: list[str]) -> list[Case]:
    """Each case's ``twin:`` checked against the corpus: a twin that is missing, or that
    is itself a case with UB, is no twin (the case still runs; its false alarms cannot be
    counted, which a line says). A twin names the case it fixes even if its own
    ``fixes:`` is absent."""
    by_id = {c.id: c for c in cases}
    fixed_by: dict[str, str] = {}
    out = []
    for case in cases:
        if case.twin:
            twin = by_id.get(case.twin)
            why = ("is not in the corpus" if twin is None
                   else "has UB itself" if twin.ub is not False else "")
            if why:
                rel = case.path.relative_to(tree.given).as_posix()
                notes.append(f"{tree.shown(rel)}: its twin {shown(case.meta.get('twin', ''))!r} "
                             f"{why}: the case runs, its detectors' false alarms are not counted")
                case = replace(case, twin="")
            else:
                fixed_by[case.twin] = case.id
        out.append(case)
    return [replace(c, fixes=fixed_by[c.id]) if c.id in fixed_by else c for c in out]


def discover(corpus: str | Path) -> list[Case]:
    """Every program under ``corpus`` that can be read safely (see :func:`load`)."""
    return load(corpus).cases


def load_case(root: Path, path: Path, keep_suffix: bool = False) -> Case:
    """Read one program of the corpus at ``root`` (see :func:`load`)."""
    tree = Tree(root, "corpus")
    rel = Path(os.path.relpath(path, root)).as_posix()
    folder, stem = posixpath.dirname(rel), str(Path(rel).with_suffix(""))
    names, _ = tree.walk(lambda n: n.startswith(path.stem + "."), under=folder)
    here = [n for n in names if posixpath.dirname(n) == folder]
    # the programs beside it whose names start as its does (``a.aarch64.c`` owns
    # ``a.aarch64.output``, not ``a.c``)
    known = {str(Path(n).with_suffix("")) for n in here if Path(n).suffix in SOURCE_SUFFIXES}
    outputs: dict[str, list[str]] = {}
    for name in here:
        owner = _owner(name, known | {stem})
        if owner and owner[0] == stem:
            outputs.setdefault(owner[1], []).append(name)
    return _load(tree, rel, outputs, keep_suffix)


def _owner(name: str, stems: set[str]) -> tuple[str, str, str] | None:
    """Whose expected output the file ``name`` is: (the program's stem, the architecture
    ('' for the plain outputs), a problem to report or ''), or None when ``name`` is no
    output file. ``a.aarch64.output`` is the aarch64 output of ``a`` when there is a
    program ``a`` and none named ``a.aarch64``; a word that is no known architecture
    (``a.arm64.output``) is said, and the file belongs to no program."""
    m = _OUTPUT.fullmatch(name or "")
    if not m:
        return None
    stem = m["stem"]
    if stem in stems:
        return stem, "", ""
    prefix, dot, arch = stem.rpartition(".")
    if dot and prefix in stems and re.fullmatch(r"[a-z0-9_]+", arch):
        if arch in ARCHES:
            return prefix, arch, ""
        return stem, "", (f"no program is named {posixpath.basename(stem)}, and {arch!r} is "
                          f"no architecture (NAME.ARCH.output: the first part of a target "
                          f"triple, such as aarch64, arm, riscv64, x86_64)")
    return stem, "", ""


def _load(tree: Tree, rel: str, outputs: dict[str, list[str]], keep_suffix: bool) -> Case:
    """One program: metadata, expected outputs (``outputs``: their files by architecture,
    '' the plain ones), content hash.

    The id is the path under the corpus without extension; when a .c and a .cpp
    program share a name (``divide.c``, ``divide.cpp``), both ids keep their
    extension so that neither hides the other.
    """
    path = tree.given / rel
    case_id = (rel if keep_suffix else str(Path(rel).with_suffix(""))).replace(os.sep, "/")
    source = _read(tree, rel)
    language = SOURCE_SUFFIXES[path.suffix]
    meta = parse_metadata(path, source.decode("utf-8", errors="replace"))
    folder = Path(rel).parent.name
    expected = _expected_outputs(tree, outputs.get("", []))
    by_arch = {arch: _expected_outputs(tree, names)
               for arch, names in sorted(outputs.items()) if arch}
    digest = hashlib.sha256(source)
    for out in expected:
        digest.update(b"\0output\0" + out)
    for arch, outs in by_arch.items():   # none: the hash of before per-arch outputs
        for out in outs:
            digest.update(b"\0output@" + arch.encode() + b"\0" + out)
    if meta is None:
        return Case(id=case_id, path=path, language=language, category=folder,
                    std="c17" if language == "c" else "c++17", expected=expected,
                    expected_by_arch=by_arch, source_hash=digest.hexdigest(), source=source)
    if meta["category"] != folder:
        raise ParseError(str(path), None,
                         f"category {meta['category']!r} is not the folder name {folder!r}")
    std = meta.get("std", "c17" if language == "c" else "c++17")
    if std not in STD_VALUES:
        raise ParseError(str(path), None, f"unknown std: {std!r}")
    if meta.get("fixed-line") and meta["ub"] == "yes":
        raise ParseError(str(path), None, "fixed-line is a fixed twin's (ub: no), not a case's")
    try:
        exit_status = int(meta.get("exit", "0"))
    except ValueError:
        raise ParseError(str(path), None, f"exit is not a number: {meta['exit']!r}") from None
    return Case(
        ub_lines=_ub_lines(path, meta, source), twin=_sibling(path, case_id, meta, "twin"),
        fixes=_sibling(path, case_id, meta, "fixes"),
        fixed_lines=_ub_lines(path, meta, source, "fixed-line"),
        id=case_id, path=path, language=language, category=meta["category"], std=std,
        standard=meta["standard"], summary=meta["summary"], ub=_yes_no(path, meta, "ub"),
        link=tuple(meta.get("link", "").split()), args=tuple(meta.get("args", "").split()),
        exit=exit_status, o0_exploited=_yes_no(path, meta, "o0-exploited", "no"),
        note=meta.get("note", ""), expected=expected, expected_by_arch=by_arch,
        source_hash=digest.hexdigest(),
        meta=meta, source=source,
    )


def parse_metadata(path: Path, text: str) -> dict[str, str] | None:
    """The ``ub-case`` block of the first ``/* */`` comment, or None when there is none."""
    m = re.search(r"/\*(.*?)\*/", text, re.S)
    if not m:
        return None
    lines = [re.sub(r"^\s*\*? ?", "", l).rstrip() for l in m.group(1).splitlines()]
    lines = [l for l in lines if l.strip()]
    if not lines or lines[0].strip() != "ub-case":
        return None
    first_line = text[:m.start()].count("\n") + 1
    meta: dict[str, str] = {}
    for offset, line in enumerate(lines[1:], start=1):
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep or not re.fullmatch(r"[a-z0-9-]+", key):
            raise ParseError(str(path), first_line + offset, f"expected 'key: value', got {line!r}")
        if key not in KNOWN:
            raise ParseError(str(path), first_line + offset, f"unknown metadata key {key!r}")
        if key == "link":
            _check_link(path, first_line + offset, value)
        meta[key] = value.strip()
    missing = [k for k in REQUIRED if not meta.get(k)]
    if missing:
        raise ParseError(str(path), first_line, f"ub-case lacks {', '.join(missing)}")
    return meta


def _check_link(path: Path, line: int, value: str) -> None:
    """Refuse any ``link:`` word that is not of an allowed kind (see ``_LINK_ALLOWED``)."""
    for word in value.split():
        if word.startswith("-std=") and word[5:] not in STD_VALUES:
            raise ParseError(str(path), line, f"link: unknown standard {word!r}")
        if not _LINK_ALLOWED.fullmatch(word):
            raise ParseError(str(path), line,
                             f"link: {word!r} is not allowed (only -l<name>, -pthread, -D, -U, "
                             "-std=, -W<warning> and code-generation -f switches)")


def _ub_lines(path: Path, meta: dict[str, str], source: bytes, key: str = "ub-line"
              ) -> tuple[int, ...]:
    """``ub-line: 16`` or ``ub-line: 30, 21``: lines of the file, the first the main one
    (``key``: ``fixed-line``, a twin's lines, read alike)."""
    value = meta.get(key, "")
    if not value:
        return ()
    words = [w.strip() for w in value.split(",")]
    if not all(re.fullmatch(r"[1-9][0-9]{0,6}", w) for w in words):
        raise ParseError(str(path), None, f"{key} must be line numbers, not {value!r}")
    lines = tuple(int(w) for w in words)
    count = source.count(b"\n") + (0 if source.endswith(b"\n") else 1)
    if max(lines) > count:
        raise ParseError(str(path), None, f"{key} {max(lines)} is past the file's end "
                                          f"(line {count})")
    return lines


#: What ``twin:`` and ``fixes:`` may name: a program in the same folder, never a path.
_SIBLING = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*\.(c|cpp|cc|cxx)")


def _sibling(path: Path, case_id: str, meta: dict[str, str], key: str) -> str:
    """The case id that ``twin:``/``fixes:`` names ('' when absent): a file beside this one."""
    value = meta.get(key, "")
    if not value:
        return ""
    if not _SIBLING.fullmatch(value) or value == path.name:
        raise ParseError(str(path), None, f"{key}: {value!r} is not another program's "
                                          "file name in the same folder")
    return _sibling_id(case_id, value)


def _sibling_id(case_id: str, filename: str) -> str:
    """The id of the program ``filename`` beside case ``case_id``."""
    return posixpath.join(posixpath.dirname(case_id), posixpath.splitext(filename)[0])


def stored_marks(case_id: str, meta: dict) -> tuple[tuple[int, ...], str]:
    """A stored case's ``ub-line``s and the id its ``twin:`` names, read back from its
    metadata (``ub_case.meta``) as :func:`load` read them; what does not read counts as
    absent (the metadata was checked when the corpus was loaded). Whether the twin is one
    (stored, and without UB) is the caller's to check, as :func:`_link_twins` does."""
    twin = str(meta.get("twin", ""))
    return stored_lines(meta), _sibling_id(case_id, twin) if _SIBLING.fullmatch(twin) else ""


def stored_lines(meta: dict, key: str = "ub-line") -> tuple[int, ...]:
    """A stored program's ``ub-line``s (``key``: ``fixed-line``, a twin's) read back from
    its metadata; what does not read counts as absent."""
    words = [w.strip() for w in str(meta.get(key, "")).split(",") if w.strip()]
    return tuple(int(w) for w in words) if all(w.isdigit() for w in words) else ()


def _yes_no(path: Path, meta: dict[str, str], key: str, default: str | None = None) -> bool:
    value = meta.get(key, default)
    if value not in ("yes", "no"):
        raise ParseError(str(path), None, f"{key} must be yes or no, not {value!r}")
    return value == "yes"


def _expected_outputs(tree: Tree, names: list[str]) -> tuple[bytes, ...]:
    """``NAME.output`` then ``NAME.output1``, ``NAME.output2`` … in numeric order."""
    numbered = sorted((int(_OUTPUT.fullmatch(Path(n).name)["n"] or 0), n) for n in names)
    return tuple(_read(tree, n) for _, n in numbered)


def _read(tree: Tree, rel: str) -> bytes:
    """A file of the corpus; one that is not safe to read, or over the cap, is refused
    (:class:`UnsafeInput`: the case does not run, the rest of the corpus does)."""
    try:
        return tree.read(rel, MAX_CORPUS_FILE, max_line=MAX_CORPUS_FILE)
    except ParseError as exc:
        raise UnsafeInput(str(exc)) from None


def bundled_corpus() -> Path:
    """The corpus shipped with warnscope: installed beside this module as package data
    (``analyzer/ub/corpus``), or ``corpus/`` at the top of the source tree it runs from."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "corpus", here.parent.parent / "corpus"):
        if candidate.is_dir():
            return candidate
    raise NotInstalled("the bundled corpus is missing from this installation: "
                         "give one with --corpus DIR")
