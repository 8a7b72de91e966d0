"""The site's upgrade reports on hand-made builds stored as ``warnings run`` and ``upgrade``
store them: which pairs get a page (consecutive versions of a family, and the moves the
``upgrade-hatch`` builds were made for, found by the builds the library makes for them), each
page the :class:`UpgradePair` of ``from_store`` with its JSON, the silent damage first,
untrusted text escaped, long lists capped under a megabyte, and the links to the pages."""
from __future__ import annotations

import json

import pytest

from analyzer.site import builder, upgrade
from analyzer.warnings import store
from analyzer.warnings import upgrade as up
from analyzer.warnings.results import Build, Check, Diagnostic, TuOutcome
from warnscope.database import connect, transaction
from warnscope.serial import to_json

XSS = "<script>window.__xss=1</script>"
PROJECT = "p<&>"
IFD = "-Wimplicit-function-declaration"


def _d(option, severity, file, line, message) -> Diagnostic:
    return Diagnostic(option, severity, file, line, 5, message, [file], 1)


def _build(compiler: str, level: str = up.LEVEL, status: str = "ok", diagnostics=(), checks=(),
           macros=None, std: str = "201710L", flags=None, project: str = PROJECT,
           options=("-Wall",)) -> Build:
    return Build(project=project, origin="/nonexistent/p", compiler=compiler,
                 compiler_version=f"{compiler} 1.0 {XSS}", level=level, opt="-O2",
                 flags=flags or {"c": []}, format="gcc-json", status=status,
                 error=None if status == "ok" else f"build failed (exit 2): names.c:12:5: error: {XSS}",
                 diagnostics=list(diagnostics),
                 tus=[TuOutcome(f, "c", 0 if status == "ok" else 1, 1) for f in ("names.c", "a.c")],
                 finished_at="2026-11-25T00:00:00+00:00", keep_going=True,
                 std_defaults={"c": std, "c++": "201703L"}, project_options=list(options),
                 checks=list(checks), macros=macros if macros is not None else {})


def _checks(compiler: str, progname: str, error: str = "") -> list[Check]:
    return [Check("autoconf", f"whether {compiler} accepts -g", "yes"),
            Check("autoconf", "if libc defines __progname", progname, error)]


HAVE = {"config.h": {"HAVE___PROGNAME": "1", "VERSION": '"1.0"'}}
LOST = {"config.h": {"HAVE___PROGNAME": None, "VERSION": '"1.0"'}}
#: gcc-13 warns where gcc-14 makes the implicit declaration an error and gcc-15 -Wfoo too;
#: gcc-15 compiles C as C23, its __progname check fails and the macro is lost
GCC = {
    "gcc-13": _build("gcc-13", checks=_checks("gcc-13", "yes"), macros=HAVE, diagnostics=[
        _d(IFD, "warning", "names.c", 12, "implicit declaration of function 'isspace'"),
        _d("-Wfoo", "warning", "a.c", 3, "foo"),
        _d("-Wshadow", "warning", "a.c", 9, "x shadows")]),
    "gcc-14": _build("gcc-14", status="failed", checks=_checks("gcc-14", "yes"), macros=HAVE, diagnostics=[
        _d(IFD, "error", "names.c", 12, "implicit declaration of function 'isspace'"),
        _d("-Wfoo", "warning", "a.c", 3, "foo"),
        _d("-Wshadow", "warning", "a.c", 9, "x shadows")]),
    "gcc-15": _build("gcc-15", status="failed", std="202311L", macros=LOST,
                     checks=_checks("gcc-15", "no", f"conftest.c:25: error: implicit 'printf' {XSS}"),
                     diagnostics=[
                         _d(IFD, "error", "names.c", 12, f"implicit declaration of function 'isspace' {XSS}"),
                         _d("-Wfoo", "error", "a.c", 3, "foo, now an error"),
                         _d(None, "error", "a.c", 20, "'bool' cannot be defined via 'typedef'"),
                         _d("-Wshadow", "warning", "a.c", 9, "x shadows y")]),
}

def _trial(words: list[str], *errors: str) -> Build:
    """A hatch build of gcc-15 with ``words``, failing with the named ones of its errors."""
    kept = [d for d in GCC["gcc-15"].diagnostics if d.severity != "error" or d.option in errors
            or (d.option is None and "bool" in errors)]
    return _build("gcc-15", level=up.hatch_level(words), std="202311L",
                  status="failed" if errors else "ok", diagnostics=kept,
                  flags={"c": [w.removeprefix("c:") for w in words]})


#: the builds ``upgrade --from gcc-13 --to gcc-15`` makes: each switch alone (none builds),
#: then the smallest set that covers every new error: -Wfoo and the implicit declaration
#: made warnings, C17 kept
SWITCHES = ["-Wno-error=foo", "-Wno-error=implicit-function-declaration", "c:-std=gnu17", "c:-fpermissive"]
HATCHES = [_trial(["-Wno-error=foo"], IFD, "bool"),
           _trial(["-Wno-error=implicit-function-declaration"], "-Wfoo", "bool"),
           _trial(["c:-std=gnu17"], IFD, "-Wfoo"),
           _trial(["c:-fpermissive"], "-Wfoo", "bool"),
           _trial(SWITCHES[:3])]
CLANG = [_build("clang-14"), _build("clang-16", diagnostics=[_d("-Wshadow", "warning", "a.c", 9, "x")])]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "w.db"
    conn = connect(path)
    with transaction(conn):
        for b in [*GCC.values(), *HATCHES, *CLANG]:
            store.save_build(conn, b)
        store.save_build(conn, _build("gcc-13", project="solo"))
        # two families, no hatch: no pair (a switch nobody asked about)
        store.save_build(conn, _build("gcc-13", project="mixed"))
        store.save_build(conn, _build("clang-16", project="mixed"))
    conn.close()
    return path


@pytest.fixture
def site(db, tmp_path):
    out = tmp_path / "site"
    builder.build(connect(db), out)
    return out


def _names(pairs) -> list[tuple[str, str, bool]]:
    return [(a.compiler, b.compiler, asked) for a, b, asked in pairs]


def test_pairs_are_consecutive_versions_and_the_moves_asked_about():
    builds = [*CLANG, *HATCHES, *reversed(GCC.values())]
    assert _names(upgrade.pairs_of(builds)) == [
        ("gcc-13", "gcc-14", False),
        ("gcc-13", "gcc-15", True),     # the hatch builds answer gcc-13 -> gcc-15's errors
        ("gcc-14", "gcc-15", False),    # consecutive; the hatch builds were made for another move
        ("clang-14", "clang-16", False)]
    stored = {b.level: b for b in HATCHES}
    assert upgrade.hatch_answers(GCC["gcc-13"], GCC["gcc-15"], stored)
    assert not upgrade.hatch_answers(GCC["gcc-14"], GCC["gcc-15"], stored)
    # without the hatch build, only the consecutive versions
    assert _names(upgrade.pairs_of([*GCC.values(), *CLANG])) == [
        ("gcc-13", "gcc-14", False), ("gcc-14", "gcc-15", False), ("clang-14", "clang-16", False)]


def test_a_hatch_no_build_explains_pairs_with_the_nearest_build_that_succeeded():
    odd = _build("gcc-15", level=up.HATCH_LEVEL, flags={"c": ["-fsomething-else"]})
    mixed = [_build("gcc-13"), _build("clang-16", status="failed",
                                      diagnostics=[_d(IFD, "error", "names.c", 1, "no")])]
    hatch = _build("clang-16", level=up.hatch_level(["-Wno-error=implicit-function-declaration"]),
                   flags={"c": ["-Wno-error=implicit-function-declaration"]})
    # gcc-13 -> clang-16: asked (a switch), found by its hatch
    assert _names(upgrade.pairs_of([*mixed, hatch])) == [("gcc-13", "clang-16", True)]
    assert _names(upgrade.pairs_of([*GCC.values(), odd])) == [
        ("gcc-13", "gcc-14", False), ("gcc-13", "gcc-15", False), ("gcc-14", "gcc-15", False)]


def test_a_page_per_pair_and_its_json_is_the_stored_report(site, db):
    pages = site / "projects/p_3c_26_3e/upgrades"
    assert sorted(p.name for p in pages.iterdir() if p.suffix != ".svg") == sorted(
        f"{s}.{ext}" for s in ("gcc-13--gcc-14", "gcc-13--gcc-15", "gcc-14--gcc-15", "clang-14--clang-16")
        for ext in ("html", "json"))
    conn = connect(db, write=False)
    for old, new in (("gcc-13", "gcc-15"), ("clang-14", "clang-16")):
        got = json.loads((pages / f"{old}--{new}.json").read_text())
        assert got == json.loads(to_json(up.from_store(conn, PROJECT, old, [new])))
    assert not (site / "projects/solo/upgrades").exists() and not (site / "projects/mixed/upgrades").exists()


def _section(html: str, name: str) -> str:
    start = html.index(f'<section id="{name}"')
    return html[start:html.index("</section>", start)]


def test_the_page_leads_with_the_silent_damage(site):
    html = (site / "projects/p_3c_26_3e/upgrades/gcc-13--gcc-15.html").read_text()
    assert XSS not in html and "&lt;script&gt;window.__xss=1&lt;/script&gt;" in html
    order = [html.index(f'<section id="{s}"') for s in
             ("features", "build", "new-errors", "hatch", "defaults", "warnings", "systems")]
    assert order == sorted(order)
    assert "<strong>gcc-15 silently changes 1 configure check and 1 generated macro</strong>" in html
    features = _section(html, "features")
    assert 'class="alarm"' in html[html.index('<section id="features"') - 1:][:60]
    assert ('<tr class="flip"><td>autoconf</td><td class="label">if libc defines __progname</td>'
            '<td><code class="wrap">yes</code></td><td><code class="wrap">no</code></td>') in features
    assert "accepts -g" not in features          # the compilers' own names made one
    assert ('<tr class="lost"><td><code class="wrap">config.h</code></td>'
            '<td><code class="wrap">HAVE___PROGNAME') in features
    assert '<span class="undef">#undef</span>' in features and "VERSION" not in features
    errors = _section(html, "new-errors")
    table = errors[errors.index('<table id="errors">'):]
    table = table[table.index("<tbody>"):]
    assert table[:table.index("</tbody>")].count("<tr>") == 3
    assert "names.c:12:5" in errors and "<code>-Wimplicit-function-declaration</code>" in errors
    assert "a.c:20:5" in errors and '<span class="tag">not printed</span>' in errors
    assert errors.count('<span class="tag was-warning">a warning</span>') == 2
    hatch = _section(html, "hatch")
    assert "<code>-std=gnu17</code> <span class=\"note\">(C)</span>" in hatch
    assert "-fpermissive" not in hatch              # the smallest set that builds
    assert '<span class="tag ok">proven</span>' in hatch and "made for another move" not in hatch
    defaults = _section(html, "defaults")
    assert "<td>C17 (201710L)</td><td><strong>C23 (202311L)</strong></td>" in defaults
    assert "pins no <code>-std</code>" in defaults
    assert "the project&#39;s own options were not checked" in _section(html, "systems")   # no flag data
    assert "not stored with the builds" in _section(html, "systems")
    # warnings only: the errors are the new errors, the old warnings they were left out
    assert "+0 −0 ~1" in _section(html, "warnings")


def test_a_consecutive_pair_says_whose_hatch_it_shows(site, tmp_path):
    html = (site / "projects/p_3c_26_3e/upgrades/gcc-14--gcc-15.html").read_text()
    # the builds of gcc-13 -> gcc-15 do not answer gcc-14 -> gcc-15's errors (without
    # the implicit declaration, its cover is another set): none is claimed
    assert "None known and built for these errors" in _section(html, "hatch")
    assert "already fails:" in _section(html, "build")      # gcc-14 failed too
    # the one hatch build of an older warnscope: shown, and said to be another move's
    path = tmp_path / "legacy.db"
    conn = connect(path)
    with transaction(conn):
        for b in (GCC["gcc-13"], GCC["gcc-15"], _build("gcc-15", level=up.HATCH_LEVEL, std="202311L",
                                                       flags={"c": ["-std=gnu17", "-fpermissive"]})):
            store.save_build(conn, b)
    builder.build(connect(path), tmp_path / "legacy")
    html = (tmp_path / "legacy/projects/p_3c_26_3e/upgrades/gcc-13--gcc-15.html").read_text()
    assert "made for another move to it" in _section(html, "hatch")
    assert "<code>-fpermissive</code>" in _section(html, "hatch")
    html = (site / "projects/p_3c_26_3e/upgrades/gcc-13--gcc-14.html").read_text()
    assert "None known and built for these errors" in _section(html, "hatch")
    assert "Every configure check gives the same answer" in _section(html, "features")
    assert "C as C17 (201710L)" in _section(html, "defaults")   # only the project's languages
    assert "C++" not in _section(html, "defaults")


def test_the_project_page_and_the_index_link_the_pages(site):
    project = (site / "projects/p_3c_26_3e.html").read_text()
    table = project[project.index('id="upgrade-reports-table"'):]
    table = table[:table.index("</table>")]
    assert '<a href="p_3c_26_3e/upgrades/gcc-13--gcc-15.html">gcc-13 → gcc-15</a>' in table
    assert table.count("<tr") == 5
    index = (site / "index.html").read_text()
    assert '<a href="projects/p_3c_26_3e/upgrades/clang-14--clang-16.html">clang-14 → clang-16</a>' in index
    assert "p&lt;&amp;&gt;: " in index
    assert "upgrade-reports" not in (site / "projects/solo.html").read_text()


def test_a_page_stays_under_a_megabyte(tmp_path):
    """Thousands of long errors, checks and macros: the page shows the first of each,
    says how many more the JSON has, and stays under 1 MB."""
    long = "x" * 2000 + XSS
    old = _build("gcc-13", project="big", checks=[Check("cmake", f"HAVE_{i}", "1") for i in range(1000)],
                 macros={"config.h": {f"M{i}": long for i in range(1000)}})
    new = _build("gcc-14", project="big", status="failed",
                 checks=[Check("cmake", f"HAVE_{i}", "", long) for i in range(1000)],
                 macros={"config.h": {f"M{i}": None for i in range(1000)}},
                 diagnostics=[_d("-Wx", "error", f"f{i}.c", i, long) for i in range(1000)])
    path = tmp_path / "big.db"
    conn = connect(path)
    with transaction(conn):
        store.save_build(conn, old)
        store.save_build(conn, new)
    out = tmp_path / "site"
    builder.build(connect(path), out)
    page = out / "projects/big/upgrades/gcc-13--gcc-14.html"
    html = page.read_text()
    assert page.stat().st_size < 1_000_000
    assert f"… and {1000 - upgrade.SHOWN['flips']} more checks" in html
    assert f"… and {1000 - upgrade.SHOWN['macros']} more macros" in html
    assert f"… and {1000 - upgrade.SHOWN['errors']} more errors" in html
    assert XSS not in html
    report = json.loads((out / "projects/big/upgrades/gcc-13--gcc-14.json").read_text())
    assert len(report["pairs"][0]["new_errors"]) == 1000
