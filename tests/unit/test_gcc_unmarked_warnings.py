"""Which GCC option records are warning options (docs/flags.md, "Which records are warning
options"), on hand-written files in the manner of GCC 4.4's (tests/fixtures/gcc/old-*.opt):
the C family's ``-W…`` records without the ``Warning`` property are warnings too, but not
the driver's pass-throughs nor ``-Werror``/``-Wfatal-errors``; before 4.6 the driver's own
spellings (``--all-warnings`` …) are added."""
from __future__ import annotations

from pathlib import Path

from flagdb import views
from flagdb.gcc_ingest import build_from_tree

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gcc"


def old_tree(tmp_path: Path, gcc_tree, version: str = "4.4.9", **more: str) -> Path:
    files = {
        "common.opt": (FIXTURES / "old-common.opt").read_text(),
        "c.opt": (FIXTURES / "old-c.opt").read_text(),
        "java/lang.opt": (FIXTURES / "old-java.opt").read_text(),
        "config/foo/foo.opt": "Wtarget-unmarked\nTarget\nA target's record without Warning.\n",
        "BASE-VER": version + "\n",
        **more,
    }
    return gcc_tree(tmp_path, files)


def flags_of(root: Path, compiler: str = "gcc-4.4") -> dict:
    data = build_from_tree(root, compiler, "source-tree", str(root))
    return {f.name: f for f in data.flags}


def test_unmarked_w_records_of_the_c_family_are_warning_options(tmp_path, gcc_tree):
    f = flags_of(old_tree(tmp_path, gcc_tree))
    for name in ("-W", "-Wframe-larger-than=", "-Wattributes=", "-Wsign-conversion", "-Wimport",
                 "-Wpsabi"):
        assert name in f and f[name].c_family and f[name].gcc.unlisted, name
    assert f["-Wsign-conversion"].default == "code"               # Init(-1)
    assert f["-Wpsabi"].default == "on" and f["-Wpsabi"].gcc.undocumented
    assert f["-Wframe-larger-than="].takes_argument and f["-Wframe-larger-than="].gcc.reject_negative
    assert f["-Wattributes="].takes_argument and f["-Wattributes="].default == "off"
    assert f["-W"].description == "This switch is deprecated; use -Wextra instead"
    assert not f["-Wshadow"].gcc.unlisted                          # it has the property
    assert "-Werror-implicit-function-declaration" in f           # Warning, as before
    assert "-pedantic" in f                                        # no -Wpedantic: the switch


def test_what_is_no_warning_option_stays_out(tmp_path, gcc_tree):
    f = flags_of(old_tree(tmp_path, gcc_tree))
    # what becomes of warnings (errors, stop at the first), the driver's pass-throughs,
    # another front end's records handed to its own tool, another target's record
    for name in ("-Werror", "-Werror=", "-Wfatal-errors", "-Wa,", "-Wl,", "-Wp,", "-pedantic-errors",
                 "-Wunused-import", "-Wextraneous-semicolon", "-Wtarget-unmarked"):
        assert name not in f, name


def test_the_all_warnings_set_never_gets_them(tmp_path, gcc_tree):
    """A level-``all`` build takes :func:`views.everything`: the new rows must not bring
    -Werror or an option that needs an argument into it."""
    data = build_from_tree(old_tree(tmp_path, gcc_tree), "gcc-4.4", "source-tree", "x")
    every = views.everything(data, "C")
    assert "-Wsign-conversion" in every and "-W" in every
    assert not [n for n in every if n.startswith(("-Werror", "-Wfatal", "-Wa,", "-Wl,", "-Wp,"))]
    assert "-Wattributes=" not in every and "-Wframe-larger-than=" not in every


def test_the_drivers_spellings_before_4_6(tmp_path, gcc_tree):
    f = flags_of(old_tree(tmp_path, gcc_tree))
    assert {n: (f[n].alias_of, f[n].origin) for n in ("--all-warnings", "--extra-warnings", "--pedantic")} == {
        "--all-warnings": ("-Wall", "driver"), "--extra-warnings": ("-W", "driver"),
        "--pedantic": ("-pedantic", "driver")}
    assert all(f[n].gcc.unlisted and f[n].c_family and f[n].gcc.reject_negative
               for n in ("--all-warnings", "--extra-warnings", "--pedantic"))
    assert f["--all-warnings"].description == f["-Wall"].description


def test_from_4_6_the_option_files_alone_say_them(tmp_path, gcc_tree):
    f = flags_of(old_tree(tmp_path / "a", gcc_tree, "4.6.0"))
    assert not {"--all-warnings", "--extra-warnings", "--pedantic"} & set(f)
    # a record of its own wins over the driver's: kept as the files write it
    own = "-all-warnings\nC ObjC C++ ObjC++ Warning Alias(Wall)\n"
    f = flags_of(old_tree(tmp_path / "b", gcc_tree, "4.5.4",
                          **{"c-family/c.opt": "Language\nC\n\n" + own}))
    assert f["--all-warnings"].origin == "c-family/c.opt" and not f["--all-warnings"].gcc.unlisted
    assert f["--extra-warnings"].origin == "driver"
