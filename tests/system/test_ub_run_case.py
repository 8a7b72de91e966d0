"""``ub run --case``: one case and its twin run; the corpus's other cases and their stored
cells stay as they were."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_one_case_runs_and_keeps_the_rest(tmp_path, cli_at, require):
    require("gcc-12")
    corpus = tmp_path / "corpus"
    for folder, stem in (("int-min-division", "divide"), ("shift-out-of-range", "by-width")):
        (corpus / folder).mkdir(parents=True)
        for f in (ROOT / "corpus" / folder).glob(f"{stem}.*"):
            shutil.copy(f, corpus / folder / f.name)
    cli = cli_at(tmp_path / "ub.db")
    args = ("ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12", "--no-sanitizers",
            "--no-warnings", "--no-code")
    code, _, err = cli(*args, "--levels", "O0")
    assert code == 0, err
    code, out, err = cli(*args, "--levels", "O0,O2", "--case", "int-min-division/divide",
                         "--json")
    assert code == 0, err
    ran = {(c["case"], c["level"]) for c in json.loads(out)}
    assert ("int-min-division/divide", "-O2") in ran and ("int-min-division/divide.fixed", "-O2") in ran
    assert not any(case.startswith("shift") and level == "-O2" for case, level in ran)
    code, out, err = cli("ub", "report", "--json")
    cases = {c["case"]: c for c in json.loads(out)["cases"]}
    assert set(cases) == {"int-min-division/divide", "int-min-division/divide.fixed",
                          "shift-out-of-range/by-width", "shift-out-of-range/by-width.fixed"}
    assert [c["level"] for c in cases["shift-out-of-range/by-width"]["cells"]] == ["-O0"]
    code, out, err = cli(*args, "--levels", "O0", "--case", "no/such-case")
    assert code != 0 and "no case 'no/such-case'" in err
