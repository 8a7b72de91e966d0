"""The warnscope GCC plugin, loaded into the real gcc-11 and gcc-12.

Every test here runs the real compiler with the real plugin (built by Meson into
``build/``, or by the fallback into the cache): the closures are GCC's own.
"""
from __future__ import annotations

import shutil

import pytest

from analyzer.gccplugin import binary as gcc_binary
from analyzer.gccplugin import plugin as gcc_plugin
from warnscope.errors import WarnscopeError


def names(entries) -> set[str]:
    return {e.name for e in entries}


@pytest.fixture(scope="module")
def plugin12():
    return gcc_plugin.locate("gcc-12")


@pytest.fixture(scope="module")
def plugin11():
    return gcc_plugin.locate("gcc-11")


@pytest.mark.parametrize("compiler", ["gcc-11", "gcc-12"])
def test_plugin_is_built_for_the_exact_gcc(compiler):
    plugin = gcc_plugin.locate(compiler)
    version = gcc_plugin.gcc_version(shutil.which(compiler))
    assert plugin.version == version
    assert gcc_plugin.built_for(plugin.path) == version
    report = gcc_plugin.run(plugin, "c")
    assert report["gcc_version"] == version
    assert report["frontend"].startswith("GNU C")


def test_meson_build_dir_has_both_plugins():
    """CI builds with Meson before testing: the build dir holds one plugin per GCC."""
    if not gcc_plugin.REPO_BUILD.is_dir():
        pytest.skip("no Meson build dir (run: meson setup build && meson compile -C build)")
    for major in ("11", "12"):
        path = gcc_plugin.REPO_BUILD / f"warnscope_gcc{major}.so"
        assert path.is_file(), path
        version = gcc_plugin.gcc_version(shutil.which(f"gcc-{major}"))
        assert gcc_plugin.built_for(path) == version


# ------------------------------------------------------------------ closures per language

def test_wall_differs_between_c_and_cxx(plugin12):
    c = names(gcc_binary.closure(plugin12, ["-Wall"], "c"))
    cxx = names(gcc_binary.closure(plugin12, ["-Wall"], "c++"))
    assert {"-Wimplicit-function-declaration", "-Wpointer-sign"} <= c
    assert not {"-Wreorder", "-Wnarrowing"} & c
    assert {"-Wreorder", "-Wnarrowing"} <= cxx
    assert not {"-Wimplicit-function-declaration", "-Wpointer-sign"} & cxx
    # Both share the language-independent part.
    assert {"-Wunused-variable", "-Wuninitialized", "-Wformat="} <= c & cxx


@pytest.mark.parametrize("lang", ["c", "c++"])
def test_unused_parameter_needs_wunused_and_wextra(plugin12, lang):
    alone = names(gcc_binary.closure(plugin12, ["-Wextra"], lang))
    assert "-Wunused-parameter" not in alone
    assert "-Wsign-compare" in alone or lang == "c"  # C++ gets it from -Wall too
    assert "-Wunused-parameter" in names(gcc_binary.closure(plugin12, ["-Wextra", "-Wunused"], lang))
    assert "-Wunused-parameter" in names(gcc_binary.closure(plugin12, ["-Wall", "-Wextra"], lang))
    assert "-Wunused-parameter" not in names(gcc_binary.closure(plugin12, ["-Wall"], lang))


def test_format_levels(plugin12):
    two = {e.name: e.value for e in gcc_binary.closure(plugin12, ["-Wformat=2"], "c")}
    one = {e.name: e.value for e in gcc_binary.closure(plugin12, ["-Wformat=1"], "c")}
    assert "-Wformat-security" in two and "-Wformat-nonliteral" in two
    assert "-Wformat-security" not in one and "-Wformat-zero-length" in one
    assert "-Wformat=" not in two  # the flag itself is not part of its closure
    assert names(gcc_binary.closure(plugin12, ["-Wshadow=local"], "c")) == {"-Wshadow=compatible-local"}
    wall = {e.name: e.value for e in gcc_binary.closure(plugin12, ["-Wall"], "c")}
    assert wall["-Wformat="] == "1" and wall["-Wstrict-aliasing="] == "3"


def test_post_option_code_is_seen_and_named(plugin12):
    """-Wextra turns on -Wshift-negative-value in C99 and later, in c_common_post_options."""
    entries = {e.name: e for e in gcc_binary.closure(plugin12, ["-Wextra"], "c")}
    assert entries["-Wshift-negative-value"].via == gcc_binary.VIA_POST
    assert entries["-Wmissing-field-initializers"].via == gcc_binary.VIA_HANDLING


def test_post_option_code_depends_on_the_standard(plugin12):
    c89 = names(gcc_binary.closure(plugin12, ["-Wextra"], "c", std="c89"))
    assert "-Wshift-negative-value" not in c89 and "-Wmissing-field-initializers" in c89
    assert "-Wshift-negative-value" in names(gcc_binary.closure(plugin12, ["-Wextra"], "c", std="c99"))
    with pytest.raises(WarnscopeError, match="expected a standard"):
        gcc_binary.closure(plugin12, ["-Wextra"], "c", std="c99 -O2")


def test_no_flag_undoes_another(plugin12):
    """Flags are applied in order: -Wno-unused after -Wall leaves -Wunused-variable off."""
    got = names(gcc_binary.closure(plugin12, ["-Wall", "-Wno-unused"], "c"))
    assert "-Wunused-variable" not in got and "-Wparentheses" in got


def test_gcc11_plugin_works(plugin11):
    c = names(gcc_binary.closure(plugin11, ["-Wall"], "c"))
    cxx = names(gcc_binary.closure(plugin11, ["-Wall"], "c++"))
    assert "-Wimplicit-function-declaration" in c and "-Wreorder" in cxx
    assert "-Wuse-after-free=" not in c  # new in GCC 12


# ------------------------------------------------------------------ table and states

def test_option_table(plugin12):
    report = gcc_plugin.run(plugin12, "c", table=True)
    options = {o["text"]: o for o in report["options"]}
    assert options["-Wformat"]["alias_target"] == "-Wformat=" and options["-Wformat"]["alias_arg"] == "1"
    assert options["-Wformat="]["range"] == [0, 2] and options["-Wformat="]["joined"]
    assert options["-Wnormalized="]["var_type"] == "enum"
    assert set(options["-Wnormalized="]["enum_values"]) == {"none", "id", "nfc", "nfkc"}
    assert options["-Wunreachable-code"]["ignored"] and options["-Wchkp"]["removed"]
    assert options["-Wreorder"]["languages"] == ["C++", "ObjC++"]
    assert options["-Wall"]["warning"] and options["-Wall"]["var_type"] is None
    assert options["-Wshadow"]["help"].startswith("Warn when")


def test_states_resolve_what_option_files_leave_to_code(plugin12):
    c = gcc_plugin.run(plugin12, "c")
    # Init(-1): unresolved after the command line, decided by c_common_post_options.
    assert c["option_states"]["-Wimplicit-function-declaration"] == "-1"
    assert c["states"]["-Wimplicit-function-declaration"] == "1"
    cxx = gcc_plugin.run(plugin12, "c++")
    assert cxx["states"]["-Wnarrowing"] == "1" and c["states"]["-Wnarrowing"] == "0"
    # C++ turns -Wwrite-strings on before the command line is read.
    assert cxx["option_states"]["-Wwrite-strings"] == "1" and c["states"]["-Wwrite-strings"] == "0"


def test_flags_on_the_command_line_change_states(plugin12):
    report = gcc_plugin.run(plugin12, "c", flags=["-Wshadow", "-Wformat=2"])
    assert report["states"]["-Wshadow"] == "1" and report["states"]["-Wformat="] == "2"


# ------------------------------------------------------------------ errors

def test_unknown_flag_is_one_clear_error(plugin12):
    with pytest.raises(WarnscopeError, match="unrecognized command-line option.*-Wsuch-thing"):
        gcc_binary.closure(plugin12, ["-Wsuch-thing"], "c")
    # GCC itself lets an unknown -Wno- pass silently; the plugin does not.
    with pytest.raises(WarnscopeError, match="-Wno-such-thing: unknown option"):
        gcc_binary.closure(plugin12, ["-Wno-such-thing"], "c")


def test_flag_of_the_other_language_is_refused(plugin12):
    with pytest.raises(WarnscopeError, match=r"-Wreorder: not for this language"):
        gcc_binary.closure(plugin12, ["-Wreorder"], "c")


def test_non_warning_option_is_refused(plugin12):
    with pytest.raises(WarnscopeError, match="not a warning option"):
        gcc_binary.closure(plugin12, ["-O2"], "c")


def test_bad_language(plugin12):
    with pytest.raises(WarnscopeError, match="use c or c"):
        gcc_binary.closure(plugin12, ["-Wall"], "fortran")


def test_crash_under_the_plugin_is_reported(plugin12):
    with pytest.raises(WarnscopeError) as info:
        gcc_plugin.run(plugin12, "c", crash=True)
    message = str(info.value)
    assert "crashed under the plugin" in message and "internal compiler error" in message
    assert "\n" not in message


def test_plugin_of_another_gcc_is_refused_before_running(plugin11, tmp_path, monkeypatch):
    """A gcc-11 plugin posing as gcc-12's is found, then refused by its recorded version."""
    shutil.copy(plugin11.path, tmp_path / "warnscope_gcc12.so")
    monkeypatch.setenv("WARNSCOPE_PLUGIN_DIR", str(tmp_path))
    monkeypatch.setattr(gcc_plugin, "REPO_BUILD", tmp_path / "none")
    monkeypatch.setenv("WARNSCOPE_CACHE", str(tmp_path / "cache"))
    with pytest.raises(gcc_plugin.PluginUnavailable, match=r"built for GCC 11\.\d+\.\d+"):
        gcc_plugin.locate("gcc-12", build=False)


def test_gcc_refuses_a_plugin_of_another_gcc(plugin11, plugin12):
    """Loaded anyway, a plugin for another GCC fails with the compiler's own reason."""
    wrong = gcc_plugin.Plugin("gcc-12", plugin12.gcc, plugin12.version, plugin11.path, "test")
    with pytest.raises(WarnscopeError, match="does not work: .*cannot load plugin"):
        gcc_plugin.run(wrong, "c")


def test_plugin_checks_the_gcc_version_itself(plugin12, tmp_path):
    """Same ABI, other version string: plugin_default_version_check refuses it."""
    data = plugin12.path.read_bytes()
    marker = b"WARNSCOPE_BUILT_FOR=" + plugin12.version.encode()
    patched = data.replace(marker, b"@" * len(marker))
    patched = patched.replace(b"\0" + plugin12.version.encode() + b"\0", b"\0" + b"9" * len(plugin12.version) + b"\0")
    patched = patched.replace(b"@" * len(marker), marker)
    assert patched != data
    path = tmp_path / plugin12.path.name
    path.write_bytes(patched)
    wrong = gcc_plugin.Plugin("gcc-12", plugin12.gcc, plugin12.version, path, "test")
    with pytest.raises(WarnscopeError, match="built for GCC 9+, loaded into GCC " + plugin12.version):
        gcc_plugin.run(wrong, "c")


def test_fallback_builds_into_the_cache(tmp_path, monkeypatch):
    """With no built plugin anywhere, g++-N builds one into the cache, and says so."""
    monkeypatch.setenv("WARNSCOPE_PLUGIN_DIR", str(tmp_path / "empty"))
    monkeypatch.setenv("WARNSCOPE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(gcc_plugin, "REPO_BUILD", tmp_path / "none")
    monkeypatch.setattr(gcc_plugin, "search_dirs",
                        lambda: [(tmp_path / "empty", "WARNSCOPE_PLUGIN_DIR")])
    plugin = gcc_plugin.locate("gcc-12")
    assert plugin.origin.startswith("built now into") and str(tmp_path / "cache") in str(plugin.path)
    assert "-Wreorder" in names(gcc_binary.closure(plugin, ["-Wall"], "c++"))
    assert gcc_plugin.locate("gcc-12").origin == "cache"


def test_compiler_that_is_not_installed():
    with pytest.raises(gcc_plugin.PluginUnavailable, match="gcc-99: compiler not found"):
        gcc_plugin.locate("gcc-99")
    with pytest.raises(WarnscopeError, match="gcc-N"):
        gcc_plugin.locate("clang-16")


def typed_forms(options: dict) -> list[str]:
    """Every -W option of the table as a user could type it, with an argument if it takes one."""
    out = []
    for name, o in sorted(options.items()):
        if not name.startswith("-W") or (o["separate"] and not o["joined"]):
            continue
        target = options.get(o["alias_target"] or "")
        if o["alias_target"] and not (target and target["warning"]):
            continue  # -Werror-implicit-function-declaration means -Werror=…
        if not o["joined"]:
            out.append(name)
        elif o["range"]:
            out.append(f"{name}{o['range'][1]}")
        elif o["enum_values"]:
            out.append(name + o["enum_values"][0])
        elif not o["missing_ok"]:
            out.append(name + "1")
    return out


@pytest.mark.parametrize("compiler", ["gcc-11", "gcc-12"])
def test_every_warning_option_can_be_closed_over(compiler):
    """Hundreds of closures in one compiler run per language: GCC's handlers take each."""
    plugin = gcc_plugin.locate(compiler)
    view = gcc_binary.view(plugin)
    forms = typed_forms(view.options)
    assert len(forms) > 300
    for lang in ("c", "c++"):
        report = gcc_plugin.run(plugin, lang, closures=[[f] for f in forms])
        assert len(report["closures"]) == len(forms)
        errors = {typed: error for c in report["closures"] for typed, error in c["errors"].items()}
        assert set(errors.values()) <= {"not for this language"}, errors
        for typed in errors:
            name = typed if typed in view.options else typed.split("=")[0] + "="
            assert not view.applies(name, lang), typed
