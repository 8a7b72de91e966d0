"""Reading a compile database (``compile_commands.json``) that someone else wrote.

A compile database comes with a tree from anywhere, and each of its entries is a
command line that the compiler driver would run as it is: ``-wrapper``, ``-B``,
``-specs``, ``-fplugin`` and ``-Xclang -load`` run programs; ``@file``, ``-include`` and
the entry's ``directory`` read files; ``-MF`` writes one. warnscope often runs as root,
so an entry is read like a corpus file's ``link:`` line, by an allow-list
(:func:`arguments`): it may carry only what a compile needs, each path it names lying
inside the tree:

* include directories (``-I``, ``-iquote``, ``-isystem``, ``-idirafter``) inside the tree
  or under ``/usr``: the system's read-only header space, which the compiler searches
  anyway and which pkg-config's flags name (``/usr/include/glib-2.0``,
  ``/usr/lib/x86_64-linux-gnu/glib-2.0/include``);
* ``-include``/``-imacros`` files, ``-o`` and the ``-MF`` dependency file, and the input
  files, inside the tree; ``-MT``/``-MQ`` targets and ``-D``/``-U`` macros as text;
* switches by shape: ``-std=``, ``-O…``, ``-W<warning>`` (never ``-Wl,``, ``-Wa,``,
  ``-Wp,``: no comma), ``-g…``, ``-m…`` (never ``-mllvm``), ``-f…`` code-generation and
  language switches (never those that load a plugin, dump or cache files, or take a
  value other than the few listed in ``_F_VALUED``), ``-c``, ``-x LANG``, ``-l`` with a
  library's plain name (dropped: the replay never links), ``-pthread``,
  ``-pipe``, ``-w``, ``-pedantic…``, ``-ansi``, ``-MD``/``-MMD``/``-MP``, ``--param``.

Anything else (a response file, a driver option, a link or search-path option) refuses
the database with the entry's index, as does a ``directory`` or ``file`` outside the
tree. The tree is the directory the database was named in, resolved: a checked path
is resolved too, so a link leading out of the tree is refused like the path it leads
to. A malformed file (not UTF-8, not JSON, nested too deep, too many values, not a
list of entries with string fields) is one line, and so is a database of which no
entry compiles a source: nothing to replay. An entry that compiles several sources, or
compiles and links (``cc -o prog a.c b.c -lm``), is replayed as a compile of each
source alone (:func:`analyzer.projects.tus.from_commands`); its ``-l`` libraries (a
plain name) are dropped when it is read, and so are its other link inputs when it is
replayed.

The first argument (the compiler) is kept only for the TU's language: the compiler
under test replaces it. Options of two words are joined into one (``-I dir`` becomes
``-Idir``), so that after the check every word that does not start with ``-`` is an
input file of the tree. A ``-MF`` file, once checked, is dropped: the tree is read-only
in the build sandbox, so a replayed compile writes its dependency file (``-MD``)
beside its object, as it writes the object in place of ``-o``.

What this does not do: a source of the tree may still ``#include "/etc/shadow"``, and a
link inside an allowed include directory may lead anywhere; that is the build
sandbox's part (:mod:`analyzer.projects.sandbox`), in which the compiles run.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import stat
from dataclasses import dataclass
from pathlib import Path

from warnscope import extract
from warnscope.compilers import OPT_BARE, OPT_LEVELS
from warnscope.errors import ParseError, UnsafeInput

#: A compile database larger than this is not one warnscope can replay.
MAX_BYTES = 256 << 20
#: JSON values, counted as the bytes ``[``, ``{`` and ``,`` (those inside strings too: a
#: real entry holds a few, or a few dozen with ``arguments``). Bounds the memory the
#: parsed file takes, which a file of empty lists would make 20 times its size.
MAX_VALUES = 10_000_000

#: The suffixes of a source a TU compiles (as :func:`analyzer.projects.recipes.is_source`).
SOURCE_SUFFIXES = (".c", ".i", ".cc", ".cpp", ".cxx", ".c++", ".C", ".ii")

#: System headers: an include directory may lie here as well as in the tree.
SYSTEM_INCLUDE = "/usr"

#: Options that are complete in themselves.
_PLAIN = frozenset({"-c", "-pipe", "-w", "-W", "-pthread", "-pedantic", "-pedantic-errors", "-ansi",
                    "-MD", "-MMD", "-MP", "-nostdinc", "-nostdinc++", "-trigraphs"})

#: Switches of harmless kinds, by shape.
_SWITCH = re.compile(
    "|".join(re.escape(opt) for opt in (*OPT_LEVELS, OPT_BARE)) +   # the -O levels
    r"|-std=[A-Za-z0-9+:]+"                        # c17, gnu++20, iso9899:1999
    r"|-stdlib=(libc\+\+|libstdc\+\+)"
    r"|-W[A-Za-z0-9][A-Za-z0-9+=._:-]*"            # no comma: no -Wl, -Wa, -Wp,
    r"|-g[A-Za-z0-9-]*(=[A-Za-z0-9]+)?"            # -g, -g3, -ggdb, -gdwarf-4, -gz=zlib
    r"|-m[A-Za-z0-9][A-Za-z0-9_.,+=-]*")           # -m64, -march=x86-64-v2 (no paths)

#: Switches of those shapes that are refused all the same: arguments for LLVM itself,
#: clang's ``-gen-cdb-fragment-path DIR``, ``-gcc-toolchain DIR`` and ``-gmodules``.
_SWITCH_REFUSED = re.compile(r"-mllvm.*|-gen-.*|-gcc.*|-gmodules", re.S)

#: ``-f`` switches without a value: a name of option characters ...
_F_SWITCH = re.compile(r"-f(no-)?(?P<name>[A-Za-z0-9][A-Za-z0-9+_-]*)")
#: ... except those that load code, or read or write files of their own
_F_REFUSED = re.compile(r"plugin|pass-plugin|dump|opt-info|module|implicit-module|cxx-module"
                        r"|prebuilt-module|crash-diagnostics|offload|embed-offload"
                        r"|diagnostics-add-output|diagnostics-set-output|save-optimization-record")

_VALUE = r"[A-Za-z0-9_.,+:-]*"
#: The ``-f<name>=<value>`` switches an entry may carry, and what their value may be (no
#: ``/``: these never name a file).
_F_VALUED = {name: re.compile(_VALUE) for name in (
    "visibility", "sanitize", "no-sanitize", "sanitize-recover", "no-sanitize-recover",
    "sanitize-trap", "no-sanitize-trap", "sanitize-coverage", "sanitize-address-use-after-return",
    "sanitize-memory-track-origins", "diagnostics-color", "diagnostics-show-location",
    "diagnostics-column-unit", "diagnostics-urls", "message-length", "max-errors", "error-limit",
    "template-depth", "template-backtrace-limit", "constexpr-depth", "constexpr-steps",
    "constexpr-ops-limit", "constexpr-loop-limit", "constexpr-backtrace-limit", "macro-backtrace-limit",
    "bracket-depth", "max-include-depth", "exec-charset", "input-charset", "wide-exec-charset", "lto",
    "lto-partition", "fp-contract", "excess-precision", "permitted-flt-eval-methods", "cf-protection",
    "trivial-auto-var-init", "zero-call-used-regs", "strong-eval-order", "abi-version", "tls-model",
    "align-functions", "align-loops", "align-jumps", "align-labels", "pack-struct", "max-type-align",
    "ms-compatibility-version", "patchable-function-entry", "denormal-fp-math", "fp-model",
    "fp-exception-behavior", "fp-eval-method", "strict-flex-arrays", "debug-default-version",
    "inline-limit", "stack-reuse", "vect-cost-model", "simd-cost-model", "ira-region", "ira-algorithm",
    "live-patching", "sso-struct", "extend-arguments", "openmp-version", "hardened")}
#: ``-f`` maps of one path prefix to another (``OLD=NEW``): they only rewrite text.
for _name in ("debug-prefix-map", "macro-prefix-map", "file-prefix-map", "coverage-prefix-map"):
    _F_VALUED[_name] = re.compile(r"[^=]*=.*", re.S)

#: Options that take a value, joined (``-Idir``, ``--param=x=1``) or as the next word
#: (``-I dir``), and what the value is.
_VALUED = (("-idirafter", "include dir"), ("-isystem", "include dir"), ("-iquote", "include dir"),
           ("-imacros", "tree file"), ("-include", "tree file"), ("-I", "include dir"),
           ("-MF", "tree file"), ("-MT", "target"), ("-MQ", "target"), ("-o", "tree file"),
           ("-D", "macro"), ("-U", "macro name"), ("-x", "language"), ("--param", "param"))
_LANGUAGES = frozenset({"c", "c++", "c-header", "c++-header", "cpp-output", "c++-cpp-output", "none"})
_MACRO = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\(.*\))?(=.*)?", re.S)
_MACRO_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PARAM = re.compile(r"[a-z][a-z0-9-]*=[0-9a-z-]+")      # --param ssp-buffer-size=4

_ALLOWED = ("only include directories, -D, -U, -std=, -O, -f code-generation switches, "
            "-W<warning>, -g, -m, -c, -x, -l, -o and -M* files inside the tree")
#: a library an entry that links names (``-lm``, ``-lstdc++``, ``-lgtk-3``): dropped
_LIBRARY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")


@dataclass(frozen=True)
class Entry:
    """One checked entry: its directory resolved, inside the tree; its arguments with
    the driver first and options of two words joined (``-Idir``)."""

    directory: str
    file: str
    arguments: tuple[str, ...]
    compiles: bool          # compiles a source (one or several, or also links): TUs to replay


@dataclass(frozen=True)
class CompileDatabase:
    path: Path              # the file, resolved
    tree: Path              # the directory it was named in, resolved
    entries: tuple[Entry, ...]


def read(path_text: str) -> CompileDatabase:
    """The checked compile database at ``path_text``: :class:`ParseError` for a malformed
    file or entry, :class:`UnsafeInput` for an entry that names a path outside the tree
    or an option a compile does not need; both name the file and the entry's index."""
    tree = Path(os.path.realpath(os.path.dirname(path_text) or "."))
    # a regular file only (a FIFO would block the read for ever), of a bounded size
    raw = extract.read_regular(path_text, path_text, max_bytes=MAX_BYTES, max_line=MAX_BYTES)
    data = parse(raw, path_text)
    if not isinstance(data, list) or not data:
        raise ParseError(path_text, None, "expected a non-empty JSON list of compile commands")
    entries = tuple(entry(e, i, tree, path_text) for i, e in enumerate(data))
    if not any(e.compiles for e in entries):
        raise ParseError(path_text, None, "no entry compiles a source: nothing to replay")
    return CompileDatabase(Path(os.path.realpath(path_text)), tree, entries)


def parse(raw: bytes, display: str) -> object:
    """The JSON value of ``raw``, its number of values bounded before it is parsed;
    anything else is one :class:`ParseError` line.

    Nesting is bounded by the parser itself: CPython's JSON decoder counts each level
    against the interpreter's recursion limit, so a file nested 100,000 deep ends in a
    :class:`RecursionError` about a thousand levels down, with no deep C stack, and
    that is said in one line. (A scan before the parse that is exact, strings taken
    into account, costs as much as the parse on a real database, and many times more
    on a hostile one.)"""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ParseError(display, None, "not UTF-8 text") from None
    if raw.count(b",") + raw.count(b"[") + raw.count(b"{") > MAX_VALUES:
        raise ParseError(display, None, f"more than {MAX_VALUES} JSON values (not a compile database)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(display, exc.lineno, f"not JSON: {exc.msg}") from None
    except RecursionError:
        raise ParseError(display, None, "JSON nested too deep (not a compile database)") from None
    except ValueError:  # json's own errors are caught above: this is a number too long
        raise ParseError(display, None, "not JSON: a number of more digits than can be "
                                        "converted") from None


def entry(e: object, index: int, tree: Path, display: str) -> Entry:
    """Entry ``index`` of the database, checked (see the module's docstring)."""
    where = f"entry {index}"

    def malformed(why: str) -> ParseError:
        return ParseError(display, None, f"{where}: {why}")

    if not isinstance(e, dict):
        raise malformed("not a JSON object")
    for key in ("directory", "file"):
        if not isinstance(e.get(key), str):
            raise malformed("needs string 'directory' and 'file'")
    args = e.get("arguments")
    if args is None and isinstance(e.get("command"), str):
        try:
            args = shlex.split(e["command"])
        except ValueError as exc:
            raise malformed(f"command: {exc}") from None
    if not isinstance(args, list) or not args or not all(isinstance(a, str) for a in args):
        raise malformed("needs 'arguments' (list of strings) or 'command'")
    if "output" in e and not isinstance(e["output"], str):
        raise malformed("'output' is not a string")
    for text in (e["directory"], e["file"], *args):
        if "\0" in text or not _encodable(text):
            raise malformed(f"{_show(text)}: holds a NUL or a lone surrogate")
    refuse = _refuser(display, where)
    directory = _path(e["directory"], str(tree), tree, "directory", refuse)
    if not os.path.isdir(directory):
        raise refuse(f"directory {_show(e['directory'])} is not a directory")
    _path(e["file"], directory, tree, "file", refuse)
    checked, compiles = arguments(args, directory, tree, refuse)
    return Entry(directory, e["file"], tuple(checked), compiles)


def arguments(args: list[str], directory: str, tree: Path, refuse) -> tuple[list[str], bool]:
    """``args`` checked against the allow-list (``refuse(why)`` makes the error to raise),
    two-word options joined; and whether they compile exactly one source with ``-c``."""
    driver = args[0]
    if not driver or driver.startswith(("-", "@")):
        raise refuse(f"the first argument {_show(driver)} is not a compiler")
    out, sources, i = [driver], 0, 1
    while i < len(args):
        a = args[i]
        i += 1
        if a in _PLAIN:
            out.append(a)
        elif a.startswith("-l"):   # a library to link: dropped, each source is replayed alone
            name = a[2:]
            if not name:
                if i == len(args):
                    raise refuse("-l needs a value")
                name, i = args[i], i + 1
            if not _LIBRARY.fullmatch(name):
                raise refuse(f"-l {_show(name)}: not a library name")
        elif a.startswith("@"):
            raise refuse(f"response file {_show(a)} is not allowed (its options cannot be checked)")
        elif (valued := _valued(a)) is not None:
            opt, kind = valued
            value = a[len(opt):]
            if opt == "--param":
                value = value.removeprefix("=")
            if not value:
                if i == len(args):
                    raise refuse(f"{opt} needs a value")
                value, i = args[i], i + 1
            _check_value(opt, kind, value, directory, tree, refuse)
            if opt != "-MF":  # the replay's dependency file goes beside its object
                out.append(opt + ("=" if opt == "--param" else "") + value)
        elif a.startswith("-"):
            if not _switch_ok(a):
                raise refuse(f"{_show(a)} is not allowed ({_ALLOWED})")
            out.append(a)
        else:  # an input file
            real = _path(a, directory, tree, "input file", refuse)
            try:
                mode = os.stat(real).st_mode
            except OSError:
                mode = None  # missing: the compile says so
            if mode is not None and not stat.S_ISREG(mode):
                raise refuse(f"input file {_show(a)} is not a regular file")
            out.append(a)
            sources += a.endswith(SOURCE_SUFFIXES)
    # a compile of one source, of several, or one that also links (``cc -o prog a.c b.c``):
    # each source is replayed as its own compile (:func:`analyzer.projects.tus.from_commands`)
    return out, sources > 0 and not {"-E", "-M", "-MM", "-S", "-fsyntax-only"} & set(out)


def _valued(a: str) -> tuple[str, str] | None:
    for opt, kind in _VALUED:
        if a.startswith(opt):
            return opt, kind
    return None


def _check_value(opt: str, kind: str, value: str, directory: str, tree: Path, refuse) -> None:
    if kind in ("include dir", "tree file"):
        if value.startswith("-"):
            raise refuse(f"{opt} {_show(value)}: not a path")
        real = _path(value, directory, tree, opt, refuse, system=(kind == "include dir"))
        if kind == "tree file" and os.path.exists(real) and not os.path.isfile(real):
            raise refuse(f"{opt} {_show(value)}: not a regular file")
    elif kind == "macro":
        if not _MACRO.fullmatch(value):
            raise refuse(f"{opt} {_show(value)}: not a macro definition")
    elif kind == "macro name":
        if not _MACRO_NAME.fullmatch(value):
            raise refuse(f"{opt} {_show(value)}: not a macro name")
    elif kind == "param":
        if not _PARAM.fullmatch(value):
            raise refuse(f"--param {_show(value)}: not a parameter setting")
    elif kind == "language":
        if value not in _LANGUAGES:
            raise refuse(f"-x {_show(value)}: not a C or C++ language")
    elif value.startswith("-"):  # a target (-MT, -MQ): text, but never an option
        raise refuse(f"{opt} {_show(value)}: not a target")


def _switch_ok(a: str) -> bool:
    if a.startswith("-f"):
        name, eq, value = a[2:].partition("=")
        if eq:
            pattern = _F_VALUED.get(name)
            return pattern is not None and pattern.fullmatch(value) is not None
        m = _F_SWITCH.fullmatch(a)
        return m is not None and not _F_REFUSED.match(m["name"])
    return _SWITCH.fullmatch(a) is not None and not _SWITCH_REFUSED.fullmatch(a)


def _path(value: str, base: str, tree: Path, what: str, refuse, system: bool = False) -> str:
    """``value`` (relative to ``base``) resolved, refused unless it lies inside the tree
    (or, for an include directory, under ``/usr``)."""
    joined = os.path.join(base, value)
    real = os.path.realpath(joined)
    roots = [str(tree)] + ([os.path.realpath(SYSTEM_INCLUDE)] if system else [])
    if any(_inside(real, root) for root in roots):
        return real
    tree_text = extract.shown(str(tree))
    if any(_inside(os.path.normpath(joined), root) for root in roots):
        raise refuse(f"{what} {_show(value)} leads out of the tree {tree_text} "
                     "through a symbolic link")
    also = f" (or {SYSTEM_INCLUDE})" if system else ""
    raise refuse(f"{what} {_show(value)} lies outside the tree {tree_text}{also}")


def _inside(path: str, root: str) -> bool:
    return os.path.commonpath([path, root]) == root


def _refuser(display: str, where: str):
    return lambda why: UnsafeInput(f"{display}: {where}: {why}")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _show(text: str, limit: int = 200) -> str:
    """A value for an error line: shown as it can be printed, cut to ``limit``."""
    text = extract.shown(text)
    return repr(text if len(text) <= limit else text[:limit] + "…")
