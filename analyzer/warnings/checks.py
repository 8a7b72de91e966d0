"""The configure checks of a build, read from what its build system wrote, and the
macros of its generated configuration header.

Every build system logs its checks (autoconf's ``config.log``, CMake's cache and its error
log, Meson's ``meson-log.txt``) by the name the user sees, with the result and the
compiler's output of a failed check. These files come from an untrusted build tree: the
caller reads them through :class:`warnscope.extract.Tree` (regular files inside the tree,
size-capped) and hands the text here, which only parses it: lines are capped, nothing is
run, and a malformed log gives fewer checks, never an error.

* autoconf: ``configure:NNN: checking for X`` ... ``configure:NNN: result: yes`` (the
  cached ones ``result: yes (cached)``); the first ``error:`` line of the compiler between
  them is why a check failed;
* CMake: ``HAVE_X:INTERNAL=1`` (or empty: false) in ``CMakeCache.txt``, the variables the
  ``check_*`` modules set; the output of a failed one in ``CMakeFiles/CMakeError.log``
  (``Performing C SOURCE FILE Test HAVE_X failed with the following output:``) or, from
  CMake 3.26, ``CMakeConfigureLog.yaml``;
* Meson: ``Checking for function "x" : YES`` / ``Checking if "x" compiles: NO`` /
  ``Has header "x.h" : YES`` lines of ``meson-logs/meson-log.txt``, each after the
  compiler's output of that check.
"""
from __future__ import annotations

import re
from pathlib import Path

from warnscope.errors import BadInput
from warnscope.extract import Tree

from analyzer.warnings.results import Check

#: characters kept of one check's name and of its error
MAX_TEXT = 300


def _clip(text: str) -> str:
    """``text`` with each character that is not printable as a space, stripped, and cut
    to :data:`MAX_TEXT` characters; read only as far as the cut (a name can be a
    whole line of spaces and tabs)."""
    if text.isprintable():
        return text.strip()[:MAX_TEXT]
    kept: list[str] = []
    for c in text:
        c = c if c.isprintable() else " "
        if kept or not c.isspace():
            kept.append(c)
            if len(kept) == MAX_TEXT:
                return "".join(kept)
    return "".join(kept).rstrip()


def _error_line(line: str) -> str:
    """A compiler's error line without the scratch directory its file was in
    (``/tmp/…/TryCompile-8AmMfR/src.c:1:43: error: …`` -> ``src.c:1:43: error: …``)."""
    return _clip(re.sub(r"^\S*/(?=[^/\s:]+:\d+)", "", line.strip()))


_AC_CHECKING = re.compile(r"^configure:\d+: checking (?P<what>.+)$")
_AC_RESULT = re.compile(r"^configure:\d+: result: (?P<result>.*)$")
_ERROR = re.compile(r"(?:^|: )(?:fatal )?error: (?P<msg>.+)$")
#: configure's own line (``configure:4153: checking …``): a line number only, where a
#: compiler's error in a conftest whose ``#line`` names configure (Thomas Dickey's
#: autoconf: ``configure:4185:16: error: …``) has a column too
_AC_OWN_LINE = re.compile(r"^configure:\d+: ")


def autoconf_checks(text: str) -> list[Check]:
    """The checks of an autoconf ``config.log``, in order (a check asked twice: each)."""
    out: list[Check] = []
    name: str | None = None
    error = ""
    for line in text.splitlines():
        line = line[:2000]
        m = _AC_CHECKING.match(line)
        if m:
            name, error = _clip(m["what"]), ""
            continue
        if name is None:
            continue
        m = _AC_RESULT.match(line)
        if m:
            result = _clip(m["result"])
            result = result.removesuffix("(cached)").strip() if result.endswith("(cached)") else result
            out.append(Check("autoconf", name, result, error))
            name = None
            continue
        if not error and not line.startswith("|"):
            e = _ERROR.search(line)
            if e and not _AC_OWN_LINE.match(line):
                error = _error_line(line)
    return out


_CMAKE_ENTRY = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*):INTERNAL=(?P<value>.*)$")
#: what the check_* modules name their result variables
_CMAKE_CHECK = re.compile(r"^(HAVE_|CAN_|HAS_|COMPILER_|C_HAS_|CXX_HAS_|SUPPORTS_|"
                          r"[A-Z0-9_]*_(?:WORKS|COMPILES|RUNS|FOUND)$)")
_CMAKE_FAILED = re.compile(r"Performing (?:C|CXX|C\+\+) SOURCE FILE Test (?P<name>\S+) failed")


def cmake_checks(cache: str, error_log: str = "") -> list[Check]:
    """The check variables of a ``CMakeCache.txt`` (``HAVE_X:INTERNAL=1``; empty means
    false), with each failed one's first error from ``CMakeError.log`` or
    ``CMakeConfigureLog.yaml``."""
    errors = _cmake_errors(error_log)
    out = []
    for line in cache.splitlines():
        m = _CMAKE_ENTRY.match(line[:2000])
        if m and _CMAKE_CHECK.match(m["name"]):
            value = _clip(m["value"])
            out.append(Check("cmake", m["name"], value or "(false)",
                             errors.get(m["name"], "") if value in ("", "0") else ""))
    return out


def _cmake_errors(log: str) -> dict[str, str]:
    """name -> first error, from CMakeError.log's sections or CMakeConfigureLog.yaml's
    ``checks``/``variable`` entries."""
    found: dict[str, str] = {}
    current: str | None = None
    for line in log.splitlines():
        line = line[:2000]
        m = _CMAKE_FAILED.search(line)
        if m:
            current = m["name"]
            continue
        v = re.match(r"\s+variable: \"?(?P<name>[A-Za-z_][A-Za-z0-9_]*)\"?\s*$", line)
        if v:
            current = v["name"]
            continue
        if current and current not in found:
            e = _ERROR.search(line)
            if e:
                found[current] = _error_line(line)
    return found


#: a Meson check's line up to its first colon, and the result after it; what the check
#: says is then one of :data:`_MESON_WHAT` (two patterns, each linear in the line: the
#: one pattern with a lazy name before ``\s*:`` took time quadratic in a run of spaces)
_MESON_LINE = re.compile(r"^(?P<what>[^:]+):\s*(?P<result>\S.*)$")
_MESON_WHAT = re.compile(
    r"(?:Checking for (?:function|type|size of|alignment of) |Checking if |Has header |Header "
    r"|Compiler for \S+ supports \S+ |Library \S+ found)")


def _meson_check(what: str) -> bool:
    """``what`` (a line's text before its first colon) is a check Meson logs:
    ``Checking for function "x"``, ``Checking if "x" compiles``, ``Has header "x.h"``,
    ``Header "x.h" has symbol "y"``, ``Compiler for C supports arguments -Wx``,
    ``Library m found``, each naming something after its words."""
    m = _MESON_WHAT.match(what)
    if m is None:
        return False
    if what.startswith("Library "):
        return m.end() == len(what)
    rest = what[m.end():]
    if what.startswith("Header "):
        at = rest.find(" has symbol ")
        return at > 0 and at + len(" has symbol ") < len(rest)
    return bool(rest)


def meson_checks(text: str) -> list[Check]:
    """The checks of a ``meson-log.txt``: each result line, with the first error of the
    compiler output logged before it since the previous check."""
    out: list[Check] = []
    error = ""
    for line in text.splitlines():
        line = line[:2000]
        m = _MESON_LINE.match(line)
        if m and _meson_check(m["what"].rstrip()):
            result = _clip(re.sub(r"\x1b\[[0-9;]*m", "", m["result"]))
            result = result.removesuffix("(cached)").strip() if result.endswith("(cached)") else result
            word = result.split()[0] if result else ""
            out.append(Check("meson", _clip(m["what"].rstrip()), result,
                             error if word.upper() in ("NO", "FALSE") else ""))
            error = ""
            continue
        if not error:
            e = _ERROR.search(line)
            if e:
                error = _error_line(line)
    return out


#: (the value is stripped after the match: a lazy value before ``\s*$``, or two ``\s*``
#: side by side, took time quadratic in a run of spaces)
_DEFINE = re.compile(r"^\s*#\s*define\s+(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\s+(?P<value>.*))?$")
_UNDEF = re.compile(r"^\s*(?:/\*\s*)?#\s*undef\s+(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?:\*/\s*)?$")


def config_macros(text: str) -> dict[str, str | None]:
    """The macros of a generated configuration header: name -> value ('' for a bare
    ``#define X``), None for ``#undef X`` / ``/* #undef X */``. The last word wins."""
    out: dict[str, str | None] = {}
    for line in text.splitlines():
        line = line[:2000]
        m = _DEFINE.match(line)
        if m:
            out[m["name"]] = _clip((m["value"] or "").strip())
            continue
        m = _UNDEF.match(line)
        if m:
            out[m["name"]] = None
    return out


#: bytes read of one log or header: a config.log of a large project is a few MB
MAX_LOG = 32 << 20
#: how deep below the configured tree the logs and headers are looked for
MAX_DEPTH = 3


def configure_results(tree: Path, pristine: Path | None = None
                      ) -> tuple[list[Check], dict[str, dict[str, str | None]]]:
    """The configure checks and generated headers' macros of a configured tree, read as
    untrusted input (:class:`warnscope.extract.Tree`: regular files inside the tree, at
    most :data:`MAX_LOG` bytes each, decoded leniently): ``config.log``, a
    ``CMakeCache.txt`` with its ``CMakeFiles`` error log, ``meson-logs/meson-log.txt``,
    and every ``config.h`` the source tree (``pristine``) does not have. A file that is
    refused (a link out of the tree, too large) is a check of its own with result
    ``(unread)`` and the reason, so the report says what it could not compare."""
    t = Tree(tree, "build tree")
    wanted = {"config.log", "CMakeCache.txt", "CMakeError.log", "CMakeConfigureLog.yaml",
              "meson-log.txt", "config.h"}
    names, refused = t.walk(lambda n: Path(n).name in wanted and n.count("/") < MAX_DEPTH)
    checks: list[Check] = []
    macros: dict[str, dict[str, str | None]] = {}
    for r in refused:
        if Path(r.rel or r.path).name in wanted:
            checks.append(Check("files", r.rel or r.path, "(unread)", r.reason))

    def text(rel: str) -> str | None:
        try:
            return t.read(rel, MAX_LOG, max_line=MAX_LOG).decode("utf-8", "replace")
        except BadInput as exc:
            checks.append(Check("files", rel, "(unread)", str(exc)[:300]))
            return None

    by_name: dict[str, list[str]] = {}
    for rel in sorted(names, key=lambda n: (n.count("/"), n)):
        by_name.setdefault(Path(rel).name, []).append(rel)
    for rel in by_name.get("config.log", [])[:1]:
        if (found := text(rel)) is not None:
            checks += autoconf_checks(found)
    for rel in by_name.get("CMakeCache.txt", [])[:1]:
        cache = text(rel)
        base = Path(rel).parent / "CMakeFiles"
        logs = [text(str(base / n)) or "" for n in ("CMakeError.log", "CMakeConfigureLog.yaml")
                if str(base / n) in names]
        if cache is not None:
            checks += cmake_checks(cache, "\n".join(logs))
    for rel in by_name.get("meson-log.txt", [])[:1]:
        if Path(rel).parent.name == "meson-logs" and (found := text(rel)) is not None:
            checks += meson_checks(found)
    for rel in by_name.get("config.h", []):
        if pristine is not None and (pristine / rel).exists():
            continue   # the project's own header, not a generated one
        if (found := text(rel)) is not None:
            macros[rel] = config_macros(found)
    return checks, macros
