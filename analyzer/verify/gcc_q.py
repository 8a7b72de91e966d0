"""Checking a GCC entry of the database against the GCC binary itself.

``gcc-N -Q --help=warnings`` lists every warning option the binary knows and the
state of its variable, for C (the default) and, with ``-x c++ -fsyntax-only`` and
an empty input, for C++. We predict that listing from the database — defaults, then
the closure of ``-Wall`` or ``-Wextra`` applied to the options' variables — and
compare line by line. ``-Q`` is lossy in known ways; each has a rule here that
explains the difference. What no rule explains is a real disagreement.

An entry ingested from the binary (``--from-binary``) has no option files behind it:
its variables are known by their offset in ``struct gcc_options``, its defaults per
language as the plugin resolved them, and the plugin's recorded states before and
after the front end's post-option code stand in for ``Init``.
"""
from __future__ import annotations

import os
import re
import shlex
import tempfile
from contextlib import contextmanager
from pathlib import Path

from warnscope import tool
from warnscope.compilers import CompilerId
from warnscope.errors import NotInstalled, ToolFailed
from flagdb.model import CompilerData, Flag
from flagdb.closure import Index, closure
from analyzer.gccplugin.binary import default_of
from analyzer.runtime.toolchain import Toolchain, resolve
from analyzer.verify.report import Finding, VerifyReport

#: Symbolic ``Init()`` values of the option files and what they are on a 64-bit host.
SYMBOLIC_INIT = {"HOST_WIDE_INT_MAX": "9223372036854775807"}
#: seconds one ``-Q --help=warnings`` (or ``-###``, ``-dumpfullversion``) may take
QUERY_TIMEOUT = 60
SCENARIOS = {"default": [], "wall": ["-Wall"], "wextra": ["-Wextra"]}
LANGS = {"C": [], "C++": ["-x", "c++", "-fsyntax-only"]}


def binary_for(data: CompilerData) -> Toolchain:
    """The binary to ask: the host's, or a prepared root's (``toolchain add``). A vendor's
    GCC (``android-gcc-4.4``) has none warnscope can find: its drivers (an NDK's
    ``arm-linux-androideabi-gcc``) are identified as the GCC release they are built on."""
    try:
        cid = CompilerId.parse(data.compiler)
    except ValueError:
        cid = None
    if cid is not None and cid.profile.is_variant:
        raise NotInstalled(f"{data.compiler} is a vendor's GCC: warnscope finds no binary of it "
                           "to verify against (a driver of it is identified as upstream "
                           f"gcc-{cid.version}, whose data it is not)")
    try:
        return resolve(data.compiler)
    except NotInstalled as exc:
        if "@" in data.compiler:
            raise NotInstalled(f"{data.compiler} is not installed: verification needs the "
                               f"binary: {exc}") from None
        raise NotInstalled(
            f"{data.compiler} is not installed: verification needs the binary "
            f"(your distribution's GCC {data.compiler.removeprefix('gcc-')}, named by its path "
            f"or plain name; Debian: apt-get install {data.compiler}, or warnscope toolchain "
            f"add {data.compiler}): "
            f"{exc}") from None


def query(gcc: str | Toolchain, lang: str, flags: list[str]) -> dict[str, str]:
    """``-Q --help=warnings`` as {option name without its argument form: state text}.
    ``gcc``: a driver on PATH, or a Toolchain (run in its root if it has one)."""
    with lister(gcc) as ask:
        text = ask(lang, flags)
    states: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("  -"):
            continue
        head, _, state = line.strip().partition("\t")
        m = re.match(r"(-[^<\[\s]+)", head.strip())
        if m:
            states[m.group(1)] = state.strip()
    if not states:
        raise ToolFailed(f"{(gcc if isinstance(gcc, str) else gcc.c_driver)} -Q "
                         "--help=warnings printed no options")
    return states


@contextmanager
def lister(gcc: str | Toolchain):
    """``ask(lang, flags)``: the text of ``-Q --help=warnings`` of ``gcc`` for ``lang``
    (``C``, ``C++``) after ``flags``, asked as often as needed: the C++ command (an empty
    input of our own, the compiler proper where the driver does not run it) is made
    once."""
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.cc"
        empty.write_text("")
        wrap = (lambda a: a) if isinstance(gcc, str) else (lambda a: gcc.wrap(a, ro_binds=(tmp,)))
        driver = gcc if isinstance(gcc, str) else gcc.c_driver
        heads: dict[str, list[str]] = {}

        def head(lang: str) -> list[str]:
            if lang not in heads:
                cmd = [driver, *LANGS[lang], "-Q", "--help=warnings"]
                if LANGS[lang]:
                    # an empty input of our own: /dev/null is not to be trusted on a shared machine
                    cmd.insert(len(LANGS[lang]) + 1, str(empty))
                    cmd = _cxx_proper(cmd, wrap) or cmd
                heads[lang] = cmd
            return heads[lang]

        def ask(lang: str, flags: list[str]) -> str:
            cmd = [*head(lang), *flags]
            return tool.run(wrap(cmd), timeout=QUERY_TIMEOUT, what=tool.shown(cmd)).stdout

        yield ask


def _cxx_proper(cmd: list[str], wrap) -> list[str] | None:
    """The command that really lists C++'s states, where the driver's does not.

    Up to GCC 9 the driver answers ``--help=`` by running ``cc1`` on a dummy input
    whatever ``-x`` says (``gcc-9 -v -x c++ … --help=warnings`` shows
    ``cc1 … help-dummy``), so its "C++" listing is C's. There the compiler proper
    ``cc1plus`` is run directly with the arguments the driver gives ``cc1``; None
    where the driver already runs ``cc1plus`` (GCC 10 and later).
    """
    proc = tool.run(wrap([*cmd, "-###"]), timeout=QUERY_TIMEOUT, check=False,
                    what=tool.shown([*cmd, "-###"]))
    for line in proc.stderr.splitlines():
        try:
            argv = shlex.split(line)
        except ValueError:
            continue
        if argv and argv[0].endswith("/cc1"):
            asked = [cmd[0], "-print-prog-name=cc1plus"]
            cc1plus = tool.run(wrap(asked), timeout=QUERY_TIMEOUT, check=False,
                               what=tool.shown(asked)).stdout.strip()
            if not cc1plus.startswith("/"):
                raise ToolFailed(f"{cmd[0]} runs cc1 for C++'s --help= and has no cc1plus")
            return [cc1plus, *argv[1:]]
    return None


def normalize(name: str) -> str:
    """An option name or ``-Q`` state in the one spelling both sides are compared in:
    ``-`` for ``_``, where ``-Q`` and the option files may write either."""
    return name.replace("_", "-")


def predict(index: Index, lang: str, flags: list[str]) -> dict[str, str | None]:
    """What ``-Q`` should print for each option; None where the entry cannot tell."""
    return _predict(index, lang, flags)[0]


def _predict(index: Index, lang: str, flags: list[str]
             ) -> tuple[dict[str, str | None], set[str]]:
    """:func:`predict`, and the variables the flags' closure set (their state is not
    the default's, so no rule about defaults may explain a difference in them)."""
    on = closure(index, flags, lang) if flags else {}
    variables: dict[str, str | None] = {}
    # An ``Var(v, val)`` option (var_type ``equal``) says less of its variable than the
    # plain option sharing it: the plain one gives the default.
    for f in sorted(index.data.flags, key=lambda f: f.gcc.var_type == "equal"):
        var = variable_of(f)
        if var and var not in variables:
            variables[var] = _raw_default(f, lang)
    touched = set()
    for name, value in on.items():
        f = index.flags.get(name)
        var = variable_of(f) if f is not None else None
        if var:
            variables[var] = _raw_value(f, value)
            touched.add(var)
    out: dict[str, str | None] = {}
    major = int(index.data.version.split(".")[0])
    for f in index.data.flags:
        out[f.name] = _display(index, f, variables, major, lang)
    return out, touched


def variable_of(f: Flag) -> str | None:
    """The identity of the variable holding the option's state, None if it has none.

    The option files name it (``Var(warn_shadow)``); the binary's option table gives
    its offset in ``struct gcc_options`` instead: options at one offset share a state
    just as options naming one variable do.
    """
    if f.gcc.var:
        return f.gcc.var
    if f.gcc.var_offset is not None and f.gcc.var_type not in (None, "defer"):
        return f"offset {f.gcc.var_offset}"
    return None


def is_binary_entry(f: Flag) -> bool:
    """Was the flag read from the binary's option table (no option files behind it)?"""
    return f.origin == "binary"


def _raw_default(f: Flag, lang: str) -> str | None:
    """The variable's value before the front end's post-option code, as the entry says."""
    if is_binary_entry(f):
        return _binary_raw(f, entry_default(f, lang))
    init = f.gcc.init
    if init is None:
        return "0"
    if init == "-1":
        return None
    return SYMBOLIC_INIT.get(init, init)


def entry_default(f: Flag, lang: str) -> str:
    """A binary entry's default in ``lang``: per language in its facts; the flag's own
    ``default`` is the first language's (C's where the option is one of C)."""
    defaults = f.gcc.defaults
    main = "C" if "C" in defaults else "C++"
    if lang == main or lang not in defaults:
        return f.default
    return defaults[lang]


def _binary_raw(f: Flag, default: str) -> str:
    """A default in the database's terms (``on``, ``off``, ``code``, a level, an enum
    name, a size) as the value the variable holds."""
    vt = f.gcc.var_type
    if default == "code":
        return "-1"
    if default == "on":
        return f.gcc.var_value if vt == "equal" and f.gcc.var_value else "1"
    if default == "off":
        return "-1" if vt == "size" else "0"
    return default


def _state_raw(f: Flag, state: str) -> str:
    """A state the plugin recorded as the value the variable holds: an ``equal``
    option's state is whether the variable holds its value (GCC's option_enabled)."""
    if f.gcc.var_type == "equal" and f.gcc.var_value:
        return f.gcc.var_value if state == "1" else "0"
    return state


def _raw_value(f: Flag, value: str) -> str:
    """The variable's value after the option is set (``Var(v, val)`` stores val)."""
    if f.gcc.var_value is not None and value != "0":
        return f.gcc.var_value
    return value


def _display(index: Index, f: Flag, variables: dict[str, str | None],
             major: int, lang: str) -> str | None:
    if f.ignored:
        return "[ignored]"
    if f.alias_of:
        return f.alias_of if (not f.takes_argument or "=" in f.alias_of[:-1]) else ""
    var = variable_of(f)
    if var is None:
        # GCC's option_enabled (opts-common.cc) answers 0 for an option of other
        # languages before it looks for a variable, so -Q prints such an on/off option
        # without a variable as disabled (GCC 16's Modula-2 -Wstyle under -x c).
        if (not f.takes_argument and f.languages and "Common" not in f.languages
                and lang not in f.languages):
            return "[disabled]"
        return ""
    return _show_value(f, variables.get(var), major)


def _show_value(f: Flag, value: str | None, major: int = 10) -> str | None:
    """The option's state as ``-Q`` prints it, given its variable's value (``major``:
    the GCC version, where printing changed)."""
    if value is None:
        return None
    if f.takes_argument:
        if f.gcc.enum_values:
            return _enum_string(f, value)
        if f.gcc.byte_size and major <= 9:
            return _as_int32(value)
        if f.gcc.byte_size:
            return f"{value} bytes"
        return value
    if f.gcc.var_value is not None:
        return "[enabled]" if value == f.gcc.var_value else "[disabled]"
    try:
        number = int(value, 0)
    except ValueError:
        return None
    if number < 0 and f.gcc.var_type == "integer":
        # From GCC 12 (CLVC_INTEGER) option_enabled returns an int switch's value itself,
        # and -Q prints a state only for one >= 0: an unresolved -1 shows as nothing.
        # GCC 11's CLVC_BOOLEAN returns value != 0, so there -1 shows as enabled.
        return ""
    return "[enabled]" if number != 0 else "[disabled]"


def _as_int32(value: str) -> str:
    """A value as GCC 9's ``-Q`` prints a joined integer option: ``sprintf("%d",
    *(int *) flag_var)`` (opts.c, print_filtered_help), also for a ``Host_Wide_Int``
    variable, so a 64-bit ByteSize variable shows its low 32 bits as a signed int
    (``Init(HOST_WIDE_INT_MAX)`` prints ``-1``) and no ``bytes``. GCC 10 prints the
    whole value with ``bytes``."""
    try:
        low = int(value, 0) & 0xFFFFFFFF
    except ValueError:
        return value
    return str(low - (1 << 32) if low >= 1 << 31 else low)


def _enum_string(f: Flag, value: str) -> str:
    return f.gcc.enum_values.get(value, value)


def verify_gcc(data: CompilerData) -> VerifyReport:
    """Compare the database entry with the binary's own listing, for C and C++."""
    gcc = binary_for(data)
    report = VerifyReport(compiler=data.compiler)
    asked = [gcc.c_driver, "-dumpfullversion"]
    version = tool.run(gcc.wrap(asked), timeout=QUERY_TIMEOUT, check=False,
                       what=tool.shown(asked)).stdout.strip()
    report.compared["version"] = 1
    if version != data.version:
        report.findings.append(Finding("version", data.compiler, data.version, version, None))

    index = Index(data)
    languages_in_files = {l for f in data.flags for l in f.languages}
    results = {(lang, sc): query(gcc, lang, flags) for lang in LANGS for sc, flags in SCENARIOS.items()}
    predicted_with = {(lang, sc): _predict(index, lang, flags)
                      for lang in LANGS for sc, flags in SCENARIOS.items()}
    predictions = {key: p for key, (p, _) in predicted_with.items()}

    # Names: every option in the files should be in the binary and vice versa.
    binary_names = set(results[("C", "default")])
    db_names = {normalize(f.name): f for f in data.flags}
    report.compared["names"] = len(binary_names | set(db_names))
    for name in sorted(set(db_names) - {normalize(n) for n in binary_names}):
        f = db_names[name]
        reason = absent_from_binary(f)
        where = "in option table" if is_binary_entry(f) else "in option files"
        report.findings.append(Finding("names", f.name, where, "not in binary", reason))
    # Both sides normalised: gcc-14's -Wsuggest-attribute=returns_nonnull is spelt with
    # "_" in both, and must not count as missing from the entry.
    for name in sorted(n for n in binary_names if normalize(n) not in db_names):
        state = results[("C", "default")][name]
        reason = _foreign_language(state, languages_in_files)
        report.findings.append(Finding("names", name, "not in option files", state or "listed", reason))
    # Acceptance: every name of the entry is one the binary takes (-Q lists only the
    # options with the Warning property; the others are checked here).
    refused = rejected(gcc, [f.name for f in data.flags])
    report.compared["accepted"] = len(data.flags)
    for f in data.flags:
        if f.name in refused:
            report.findings.append(Finding("accepted", f.name, "a warning option",
                                           "unrecognized command-line option", not_built_in(f)))

    for (lang, scenario), states in results.items():
        check = f"{scenario}-{lang.lower()}"
        predicted = predictions[(lang, scenario)]
        other = "C++" if lang == "C" else "C"
        compared = 0
        for f in data.flags:
            name = f.name
            if name not in states:
                continue
            actual = states[name]
            compared += 1
            applies = index.applies(f, lang)
            if actual.startswith("[available in"):
                if not applies:
                    continue
                reason = _foreign_language(actual, languages_in_files)
                if reason is None:
                    reason = _named_languages_only(f, actual, lang)
                report.findings.append(Finding(check, name, "applies to " + lang, actual, reason))
                continue
            expected = predicted[name]
            if expected is not None and normalize(expected) == normalize(actual):
                continue
            if is_binary_entry(f):
                touched = predicted_with[(lang, scenario)][1]
                reason = _explain_binary(f, expected, actual, lang, variable_of(f) in touched)
            else:
                reason = _explain(f, expected, actual, lang, scenario, results, predictions,
                                  other)
            report.findings.append(Finding(check, name, _show(expected), actual or "(blank)", reason))
        report.compared[check] = compared
    return report


#: GCC's driver on an option it does not know: ``unrecognized command-line option
#: '-Wfoo'`` (``command line option "-Wfoo"`` in old releases; under LC_ALL=C, plain quotes)
_UNRECOGNIZED = re.compile(r"unrecognized command[- ]line option ['\"`]?(-[^'\"`\s;]+)")


def rejected(gcc: Toolchain, names: list[str]) -> set[str]:
    """The options of ``names`` the binary does not recognize, from one compile of an
    empty C file given all of them (GCC has no ``-Werror=unknown-warning-option``, but its
    driver names every option it does not know, each on a line of its own, before it
    stops). An option that wants an argument is given bare: GCC says "missing argument
    to" of an option it knows, never "unrecognized". A ``-Wno-`` spelling is never an
    error: GCC names one it does not know in a note once another diagnostic is given, so
    those go in a second compile of their own with ``-pedantic`` (an empty translation
    unit is a pedantic warning) and nothing the driver could stop at."""
    negative = [n for n in names if n.startswith("-Wno-")]
    batches = [[n for n in names if not n.startswith("-Wno-")]]
    if negative:
        batches.append(["-pedantic", *negative])
    found: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.c"
        empty.write_text("")
        for batch in batches:
            argv = [gcc.c_driver, "-fsyntax-only", "-x", "c", str(empty), *batch]
            proc = tool.run(gcc.wrap(argv, ro_binds=(tmp,)), timeout=QUERY_TIMEOUT, check=False,
                            env={**os.environ, "LC_ALL": "C"},
                            what=tool.shown(argv[:5]) + f" and {len(batch)} options of the entry")
            found |= set(_UNRECOGNIZED.findall(proc.stderr))
    return found & set(names)


def not_built_in(f: Flag) -> str | None:
    """Why an option of the files may rightly be unknown to a binary: another target's,
    or another front end's that this GCC was not built with. A C-family option the binary
    does not take has no such reason."""
    if f.c_family:
        return None
    return (f"option of another target or front end ({f.origin}): not built into this "
            "compiler")


def absent_from_binary(f: Flag) -> str | None:
    """Why an option of the files may rightly be missing from a binary's warning list.
    An option of a target's own files (in the entry's scope: ``c_family``, as for
    ``gcc-12@aarch64-linux-gnu``'s config/aarch64) is built in, so not among them."""
    if f.origin and not f.c_family and all(o.startswith("config/") for o in f.origin.split()):
        return f"option of another target ({f.origin}): not built into this compiler"
    if f.gcc.unlisted:
        return ("no Warning property in its record: GCC accepts it as a warning switch, "
                "but does not list it among its warning options")
    return None


def _show(value: str | None) -> str:
    return "(decided in code)" if value is None else (value or "(blank)")


def _foreign_language(state: str, known: set[str]) -> str | None:
    m = re.match(r"\[available in (.*)\]", state)
    if not m:
        return None
    langs = [l.strip() for l in m.group(1).split(",")]
    foreign = [l for l in langs if l not in known]
    if foreign:
        return (f"the binary has a front end whose option files were not ingested "
                f"({', '.join(foreign)}; a distribution addition), and -Q then lists the option "
                "as available in it only")
    return None


def _named_languages_only(f: Flag, state: str, lang: str) -> str | None:
    """A ``Common`` option that also names languages, none of them ``lang``: GCC's
    ``--help`` looks at the named languages only and lists it as available in them.
    From option files too: GCC 14's m2/lang.opt repeats ``Wunused-parameter`` for
    Modula-2, so gcc-14 -Q lists the common.opt option as "[available in Modula-2]"."""
    m = re.match(r"\[available in (.*)\]", state)
    named = set(f.languages) - {"Common"}
    if (m is None or "Common" not in f.languages or lang in named
            or {l.strip() for l in m.group(1).split(",")} != named):
        return None
    return (f"a Common option whose records also name {', '.join(sorted(named))}; "
            "-Q lists an option that names languages as available in those only, "
            f"though as a Common one it applies to {lang} too")


def _explain(f: Flag, expected: str | None, actual: str, lang: str, scenario: str,
             results: dict, predictions: dict, other: str) -> str | None:
    """The rule that explains a state difference, or None."""
    if expected is None:
        return ("Init(-1): the default is decided in code after option parsing; "
                "-Q prints the unresolved variable")
    if f.gcc.var is None and actual == "":
        return "no variable of its own: -Q shows no state"
    if actual == "" and f.alias_of and f.takes_argument:
        return "alias of a joined option without an argument: -Q shows no target"
    # A front end's code switched on an option the files leave off (-Wpointer-arith and
    # -Wwrite-strings in C++), and the other language agrees with the files. Only in that
    # direction: an option predicted on but off in the binary is a wrong edge or level.
    other_actual = results[(other, scenario)].get(f.name)
    other_expected = predictions[(other, scenario)].get(f.name)
    if (f.gcc.init is None and expected == "[disabled]" and actual == "[enabled]"
            and other_expected is not None and other_actual is not None
            and normalize(other_actual) == normalize(other_expected)):
        return (f"set by the {lang} front end's own code (the option files give no default; "
                f"in {other} the binary agrees with them)")
    return None


def _explain_binary(f: Flag, expected: str | None, actual: str, lang: str,
                    set_by_flags: bool) -> str | None:
    """The rule that explains a state difference of an entry read from the binary.

    Such an entry's default is the state at the start of the translation unit, after
    the front end's post-option code; ``-Q`` prints the state before that code runs.
    The plugin recorded both, so the difference is explained only where ``-Q`` shows
    exactly the recorded earlier state, the post-option code changed it, the flags
    given did not touch the variable, and the entry's default is the recorded later
    state. Anything else (a wrong default, a wrong edge) stays unexplained.
    """
    if variable_of(f) is None and actual == "":
        return "no variable of its own: -Q shows no state"
    if actual == "" and f.alias_of and f.takes_argument:
        return "alias of a joined option without an argument: -Q shows no target"
    recorded = f.gcc.states.get(lang) or {}
    before, after = recorded.get("option_states"), recorded.get("states")
    if set_by_flags or before is None or after is None or before == after:
        return None
    if _show_value(f, _state_raw(f, before)) != actual:
        return None
    table = {"var_type": f.gcc.var_type, "joined": f.takes_argument, "separate": False}
    if entry_default(f, lang) != default_of(table, after):
        return None
    return (f"binary entry: set by code after option parsing (for {lang}, "
            f"c_common_post_options): the plugin saw {before} once the command line was "
            f"handled and {after} at the start of the translation unit; -Q prints the "
            "earlier state")
