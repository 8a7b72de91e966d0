"""Checking an option-file reading of GCC against the binary, through the plugin.

The plugin's answer is the truth: the option table compiled into the binary, the
states GCC resolves, and the closures GCC's own option handling computes. The
database entry read from the option files predicts each of them; every difference
is a :class:`~flagdb.verify.Finding`. A reason says why the option files cannot
show what the binary does (a default decided in code, a variable shared with
another option, hand-written handler code); a difference with no such reason is a
real disagreement and fails verification.
"""
from __future__ import annotations

from analyzer.verify.gcc_q import absent_from_binary, entry_default, is_binary_entry
from flagdb.model import CompilerData, Flag
from flagdb.closure import Index, closure as edge_closure
from analyzer.verify.report import Finding

from analyzer.gccplugin import binary as gcc_binary
from analyzer.gccplugin import plugin as gcc_plugin
from analyzer.gccplugin.binary import LANGS, BinaryView, ClosureEntry, VIA_POST

#: The closures compared, as flag lists.
CLOSURES = [["-Wall"], ["-Wextra"], ["-Wextra", "-Wunused"], ["-Wall", "-Wextra"],
            ["-Wformat=2"], ["-Wpedantic"]]


def check_name(args: list[str]) -> str:
    """``['-Wextra', '-Wunused']`` → ``wextra-wunused``."""
    return "-".join(a.lstrip("-").lower().replace("=", "") for a in args)


def verify_with_plugin(data: CompilerData, counts: dict[str, int] | None = None
                       ) -> list[Finding]:
    """The entry's defaults and edges of ``data.compiler`` against its binary's states
    and closures, for C and C++. ``counts`` gets, per check, how many options it
    compared (the findings are only the differences)."""
    plugin = gcc_plugin.locate(data.compiler)
    bv = gcc_binary.view(plugin)
    findings: list[Finding] = []
    if plugin.version != data.version:
        findings.append(Finding("plugin-version", data.compiler, data.version, plugin.version,
                                None))
    for lang in LANGS:
        findings += compare_defaults(data, bv, lang, counts)
        for flags in CLOSURES:
            actual = gcc_binary.closure(plugin, flags, lang)
            findings += compare_closure(data, bv, lang, flags, actual, counts)
    return findings


def compare_with_binary_ingest(data: CompilerData) -> list[Finding]:
    """Everything a binary-only ingest can check of an option-file entry: the option
    table (names, aliases, arguments, markers, languages) besides defaults and edges."""
    bv = gcc_binary.view(gcc_plugin.locate(data.compiler))
    return compare_names(data, bv) + verify_with_plugin(data)


# ------------------------------------------------------------------ names

def compare_names(data: CompilerData, bv: BinaryView) -> list[Finding]:
    """Option names both ways, then the attributes of the options in both."""
    out = []
    source = {f.name: f for f in data.flags}
    for name in sorted(set(source) - set(bv.options)):
        f = source[name]
        out.append(Finding("plugin-names", name, "in option files", "not in binary",
                           absent_from_binary(f)))
    for name in sorted(set(bv.options) - set(source)):
        opt = bv.options[name]
        reason = None
        if not opt["warning"] and opt["alias_target"] in source:
            reason = (f"alias of {opt['alias_target']} without the Warning property: the "
                      "option files list it among the non-warning options")
        out.append(Finding("plugin-names", name, "not in option files", "in binary", reason))
    known_languages = {l for f in data.flags for l in f.languages}
    for name in sorted(set(source) & set(bv.options)):
        out += _compare_attributes(source[name], gcc_binary.binary_flag(bv, bv.options[name]),
                                   known_languages)
    return out


def _compare_attributes(f: Flag, b: Flag, known_languages: set[str]) -> list[Finding]:
    out = []
    for attr in ("alias_of", "takes_argument", "ignored", "removed"):
        expected, actual = getattr(f, attr), getattr(b, attr)
        if expected != actual:
            out.append(Finding(f"plugin-{attr.replace('_', '-')}", f.name, str(expected),
                               str(actual), None))
    # Sets of languages as they apply: Common covers every language.
    expected_langs = {"Common"} if "Common" in f.languages else set(f.languages)
    actual_langs = {"Common"} if "Common" in b.languages else set(b.languages)
    if expected_langs != actual_langs:
        reason = None
        extra = actual_langs - expected_langs
        if not expected_langs - actual_langs and extra and not extra & known_languages:
            reason = (f"the binary has a front end whose option files were not read "
                      f"({', '.join(sorted(extra))}; a distribution addition)")
        out.append(Finding("plugin-languages", f.name, " ".join(sorted(expected_langs)),
                           " ".join(sorted(actual_langs)), reason))
    return out


# ------------------------------------------------------------------ defaults

def _norm_default(value: str) -> str:
    return {"HOST_WIDE_INT_MAX": "9223372036854775807"}.get(value, value)


def compare_defaults(data: CompilerData, bv: BinaryView, lang: str,
                     counts: dict[str, int] | None = None) -> list[Finding]:
    """The entry's default of each option against the binary's resolved state: the
    option files' one default, or a binary entry's default for the language."""
    out = []
    label = LANGS[lang]
    check = f"plugin-default-{lang}"
    compared = 0
    for f in data.flags:
        opt = bv.options.get(f.name)
        if opt is None or opt["var_type"] is None or not bv.applies(f.name, lang):
            continue
        compared += 1
        states = bv.states[lang]
        init, handled, final = (gcc_binary.default_of(opt, states[k].get(f.name))
                                for k in ("init_states", "option_states", "states"))
        claimed = entry_default(f, label) if is_binary_entry(f) else f.default
        expected = _norm_default(claimed)
        if expected == final:
            continue
        out.append(Finding(check, f.name, claimed, final,
                           _default_reason(f, data, expected, init, handled, final, label)))
    if counts is not None:
        counts[check] = compared
    return out


def _default_reason(f: Flag, data: CompilerData, expected: str, init: str, handled: str,
                    final: str, label: str) -> str | None:
    """Why the option files' default is not the state the binary ends up with."""
    if expected == "code":
        where = ("once the command line is handled" if handled == final
                 else "after option parsing (c_common_post_options)")
        return f"Init(-1): decided in code {where}; in {label} it is {final}"
    if expected != init:
        return None  # the compiled-in Init disagrees with the reading of the files
    if handled != init:
        return (f"set by the {label} front end's own code before the command line is "
                "handled (c_common_init_options_struct), not by the option files")
    if final != handled and f.gcc.cpp:
        return ("a CPP() option: libcpp's own default, copied into GCC's options after "
                "option parsing (init_global_opts_from_cpp in c_common_post_options)")
    if final != handled:
        return f"set by {label}-specific code after option parsing (c_common_post_options)"
    return None


# ------------------------------------------------------------------ closures

def compare_closure(data: CompilerData, bv: BinaryView, lang: str, flags: list[str],
                    actual_entries: list[ClosureEntry],
                    counts: dict[str, int] | None = None) -> list[Finding]:
    """The closure predicted by the files' edges against GCC's own."""
    label = LANGS[lang]
    check = f"plugin-{check_name(flags)}-{lang}"
    index = Index(data)
    predicted = edge_closure(index, flags, label)
    requested = _requested(index, flags)
    expected = {n: _enum_string(index, n, v) for n, v in predicted.items()
                if n not in requested and v != "0"}
    actual = {e.name: e for e in actual_entries}
    if counts is not None:
        counts[check] = len(set(expected) | set(actual))
    out = []
    for name in sorted(set(expected) | set(actual)):
        exp = expected.get(name)
        act = actual.get(name)
        if exp is not None and act is not None and _same_value(name, exp, act.value):
            continue
        reason = _closure_reason(index, bv, lang, name, exp, act, expected, actual, requested)
        out.append(Finding(check, name, "off" if exp is None else exp,
                           "off" if act is None else act.value, reason))
    return out


def _requested(index: Index, flags: list[str]) -> set[str]:
    """The options the typed flags name, aliases followed (-Wformat=2 → -Wformat=)."""
    out = set()
    for typed in flags:
        hit = index.resolve(typed)
        while hit is not None and hit[0].name not in out:
            flag = hit[0]
            out.add(flag.name)
            hit = index.resolve(flag.alias_of) if flag.alias_of else None
    return out


def _enum_string(index: Index, name: str, value: str) -> str:
    """An enum option's value as the binary prints it: ``1`` of -Waligned-new= is ``global``."""
    f = index.flags.get(name)
    return f.gcc.enum_values.get(value, value) if f else value


def _same_value(name: str, expected: str, actual: str) -> bool:
    """Equal values; for a switch, "1" stands for any on state (-Wall sets -Wunknown-pragmas to 2)."""
    if expected == actual:
        return True
    return not name.endswith("=") and expected == "1" and actual not in ("0", "")


def _sharing(bv: BinaryView, name: str, others: dict) -> str | None:
    """Another option in ``others`` holding its state in the same variable as ``name``."""
    opt = bv.options.get(name)
    if opt is None or opt["var_offset"] is None:
        return None
    for other in others:
        o = bv.options.get(other)
        if other != name and o is not None and o["var_offset"] == opt["var_offset"]:
            return other
    return None


def _closure_reason(index: Index, bv: BinaryView, lang: str, name: str, exp: str | None,
                    act: ClosureEntry | None, expected: dict, actual: dict,
                    requested: set[str]) -> str | None:
    label = LANGS[lang]
    opt = bv.options.get(name)
    if act is not None and act.via == VIA_POST:
        return f"set by {label}-specific code after option parsing (c_common_post_options)"
    shared = _sharing(bv, name, {**expected, **actual, **{r: "1" for r in requested}})
    if shared:
        return f"shares its variable with {shared}: one state, two names"
    if act is None and opt is not None and not bv.applies(name, lang):
        return f"option not for {label}: the edge's languages include it, the option's do not"
    if act is None and opt is not None and opt["var_type"] is None:
        return "no variable of its own: its effect is the options it turns on"
    return None
