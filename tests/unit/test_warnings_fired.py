""""Fires on real code" on hand-made data: a flag matched to the options the compilers
printed through the flag database (an alias to its target, a -Wno- form, a level form),
by name where the compiler is not ingested; an option the flag database does not know
marked, never dropped; ``flags show`` / ``flags history`` with the section in text and
JSON; the site's project, examples and upgrade pages and the flag pages' section."""
from __future__ import annotations

import json

import pytest

from analyzer.cli import main
from analyzer.site import builder, projects
from analyzer.warnings import queries, store
from analyzer.warnings.results import Build, Diagnostic, TuOutcome
from flagdb import store as flag_store
from flagdb.model import CompilerData, Edge, Flag, GccFacts
from warnscope.database import connect, transaction
from warnscope.serial import to_json

XSS = "<script>window.__xss=1</script>"


def _gcc(name: str) -> CompilerData:
    flags = [Flag("-Wall"), Flag("-Wshadow", description="Warn about shadowing."),
             Flag("-Wformat=", takes_argument=True, argument="<0,2>", facts=GccFacts(range=(0, 2))),
             Flag("-Wformat", alias_of="-Wformat=1"), Flag("-Wunused-variable"), Flag("-Wquiet")]
    return CompilerData(name, "gcc", name[4:] + ".1.0", "source-tree", "/nonexistent", flags=flags,
                        edges=[Edge("-Wall", "-Wunused-variable"), Edge("-Wall", "-Wformat=", "1"),
                               Edge("-Wall", "-Wquiet")])


def _d(option, line, message, file="a.c", tus=("a.c",)) -> Diagnostic:
    return Diagnostic(option, "warning", file, line, 1, message, list(tus), len(tus))


def _build(compiler: str, diagnostics: list[Diagnostic], project: str = "p", status: str = "ok") -> Build:
    return Build(project=project, origin="/nonexistent/p", compiler=compiler, compiler_version=f"{compiler[-2:]}.1.0",
                 level="wall", opt="-O2", flags={"c": ["-Wall"]}, format="gcc-json", status=status,
                 error=None if status == "ok" else "build failed (exit 2): a.c:1: error: no",
                 diagnostics=diagnostics, tus=[TuOutcome("a.c", "c", 0, len(diagnostics))],
                 finished_at="2026-11-25T00:00:00+00:00")


OLD = [_d("-Wformat=", 1, "format"), _d("-Wformat=", 2, "format", file="b.c"), _d("-Wshadow", 3, "x shadows"),
       _d("-Wunused-variable", 4, "unused 'u'", file="h.h", tus=("a.c", "b.c"))]
NEW = [_d("-Wformat=", 1, "format"), _d("-Wshadow", 3, "x shadows " + XSS), _d("-Wmade-up", 5, "made up"),
       _d("-Wunused-variable", 4, "unused 'u'", file="h.h", tus=("a.c", "b.c")), _d(None, None, "no option")]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "w.db"
    conn = connect(path)
    for name in ("gcc-90", "gcc-91"):
        flag_store.save(conn, _gcc(name))
    with transaction(conn):
        store.save_build(conn, _build("gcc-90", OLD))
        store.save_build(conn, _build("gcc-91", NEW))
        store.save_build(conn, _build("clang-90", [_d("-Wshadow", 7, "clang shadows"), _d("-Wother", 8, "o")]))
        store.save_build(conn, _build("gcc-91", [_d("-Wshadow", 1, "q")], project="q<&>", status="failed"))
    conn.close()
    return path


def test_a_flag_is_matched_through_the_flag_database(db):
    conn = connect(db, write=False)
    # GCC prints -Wformat=; -Wformat is its alias, -Wformat=2 a level of it: one flag
    for typed in ("-Wformat", "-Wformat=", "-Wformat=2"):
        got = queries.fired(conn, typed)
        assert list(got) == ["gcc-90", "gcc-91", "clang-90"], typed
        (old,), (new,) = got["gcc-90"], got["gcc-91"]
        assert (old.diagnostics, old.files, old.options, old.by_spelling) == (2, 2, ["-Wformat="], False)
        assert (new.diagnostics, new.files) == (1, 1)
        assert got["clang-90"] == []             # built, not ingested, no option of that name
    shadow = queries.fired(conn, "-Wno-shadow")
    assert [(f.project, f.status) for f in shadow["gcc-91"]] == [("p", "ok"), ("q<&>", "failed")]
    assert shadow["clang-90"][0].by_spelling and shadow["clang-90"][0].options == ["-Wshadow"]
    assert queries.fired(conn, "-Wquiet")["gcc-91"] == []
    assert queries.fired(conn, "-Wshadow", ["gcc-90"]).keys() == {"gcc-90"}


def test_the_site_map_keeps_unknown_options_off_the_flag_pages(db):
    conn = connect(db, write=False)
    fired, built = queries.fired_by_flag(conn)
    assert built == ["gcc-90", "gcc-91", "clang-90"]
    assert ("gcc-91", "-Wmade-up") not in fired and ("clang-90", "-Wother") in fired
    report = queries.report(conn, "p")
    new = next(b for b in report.builds if b.compiler == "gcc-91")
    assert {o.option: o.known for o in new.by_option}["-Wmade-up"] is False   # reported, not dropped
    assert new.silent == ["-Wquiet"]


def test_no_warnings_builds_is_empty_not_an_error(tmp_path):
    conn = connect(tmp_path / "flags.db")
    flag_store.save(conn, _gcc("gcc-90"))
    assert queries.fired(conn, "-Wshadow") == {} and queries.fired_by_flag(conn) == ({}, [])
    assert store.option_counts(conn) == []


def test_flags_show_and_history_gain_the_section(db, capsys):
    assert main(["--db", str(db), "flags", "show", "-Wformat", "-c", "gcc-90", "--json"]) == 0
    show = json.loads(capsys.readouterr().out)
    assert show["real_code"] == [{"project": "p", "compiler": "gcc-90", "compiler_version": "90.1.0",
                                  "level": "wall", "status": "ok", "diagnostics": 2, "files": 2, "printed": 2,
                                  "options": ["-Wformat="], "by_spelling": False}]
    assert main(["--db", str(db), "flags", "show", "-Wformat=2", "-c", "gcc-91"]) == 0
    text = capsys.readouterr().out
    assert "fires on real code (gcc-91's stored warnings builds):" in text
    assert "p at wall: 1 diagnostics in 1 files (1 printed) as -Wformat=; examples: " \
           "warnscope warnings show -Wformat= --project p" in text
    assert main(["--db", str(db), "flags", "show", "-Wquiet", "-c", "gcc-91"]) == 0
    assert "fires on real code: in none of the stored warnings builds of gcc-91" in capsys.readouterr().out
    assert main(["--db", str(db), "flags", "history", "-Wshadow", "--json"]) == 0
    history = json.loads(capsys.readouterr().out)
    assert [len(e["real_code"]) for e in history] == [1, 2]
    assert history[1]["real_code"][1]["project"] == "q<&>"
    assert main(["--db", str(db), "flags", "history", "-Wshadow"]) == 0
    text = capsys.readouterr().out
    assert "fires on real code (stored warnings builds):" in text
    assert "gcc-91     q<&> at wall: 1 diagnostics in 1 files (1 printed) as -Wshadow (the build failed: " \
           "up to the failure); examples: warnscope warnings show -Wshadow --project 'q<&>'" in text


def test_without_builds_the_json_is_unchanged(tmp_path, capsys):
    path = tmp_path / "flags.db"
    flag_store.save(connect(path), _gcc("gcc-90"))
    assert main(["--db", str(path), "flags", "show", "-Wshadow", "-c", "gcc-90", "--json"]) == 0
    assert "real_code" not in json.loads(capsys.readouterr().out)
    assert main(["--db", str(path), "flags", "history", "-Wshadow"]) == 0
    assert "fires on real code" not in capsys.readouterr().out


def test_upgrade_pairs_are_consecutive_versions_of_a_family():
    builds = [_build(c, []) for c in ("clang-16", "gcc-12", "clang-14", "gcc-9", "gcc-11")]
    pairs = [(a.compiler, b.compiler) for a, b in projects.upgrade_pairs(builds)]
    assert pairs == [("gcc-9", "gcc-11"), ("gcc-11", "gcc-12"), ("clang-14", "clang-16")]


def test_site_pages(db, tmp_path):
    out = tmp_path / "site"
    builder.build(connect(db), out)
    conn = connect(db, write=False)
    project = (out / "projects/p.html").read_text()
    assert json.loads((out / "projects/p.json").read_text()) == json.loads(to_json(queries.report(conn, "p")))
    assert '<a href="p/gcc-90--gcc-91.wall.html">gcc-90 → gcc-91</a>' in project
    assert "<code>-Wmade-up</code> <span class=\"tag unknown\">not in the flag database</span>" in project
    assert '<a class="flag" href="../flags/wshadow.html">-Wshadow</a>' in project
    assert "clang-90 is not in the flag database" in project
    diff = (out / "projects/p/gcc-90--gcc-91.wall.html").read_text()
    assert XSS not in diff and "x shadows &lt;script&gt;" in diff
    assert "2 added, 1 removed, 1 reworded, 2 unchanged" in diff
    examples = (out / "projects/p/gcc-90.wall.html").read_text()
    assert 'id="o-wformat_eq"' in examples and "b.c:2:1" in examples
    flag = (out / "flags/wformat.html").read_text()
    part = flag[flag.index('id="real-code"'):flag.index("</table>", flag.index('id="real-code"'))]
    assert part.count("<tr") == 3  # the header, gcc-90, gcc-91
    assert 'href="../projects/p/gcc-90.wall.html#o-wformat_eq"' in part and "as -Wformat=" in part
    # the flag page's JSON is `flags history --json`, "fires on real code" included
    entries = json.loads((out / "flags/wshadow.json").read_text())
    assert [len(e["real_code"]) for e in entries] == [1, 2]
    shadow = (out / "flags/wshadow.html").read_text()
    assert "not ingested: matched by name" in shadow and "q&lt;&amp;&gt;" in shadow
    quiet = (out / "flags/wquiet.html").read_text()
    assert "It fired in none of the stored builds of real projects (gcc-90, gcc-91, clang-90)" in quiet
    index = (out / "index.html").read_text()
    assert 'href="projects/p.html"' in index and 'href="projects/index.html"' in index
    assert (out / "projects/q_3c_26_3e.html").is_file()
