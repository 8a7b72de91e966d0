"""What the compiler made of a case: each configuration's labels and code, and two aligned.

:func:`labelled` gives every stored cell its labels (:mod:`analyzer.ub.explain.codelabels`), with
the same compiler's -O0 cell of the same flags as the reference; the report and the site
use it. :func:`explain` builds ``ub explain CASE``'s answer from stored results alone:
per configuration the outcome, the labels and the code of the program's functions, and
with ``vs`` the code of two configurations aligned function by function
(:func:`align`), so a reader sees where they part; and the case's detectors per version,
where ``ub detectors`` stored its runs. Everything is computed from the
stored code when asked; nothing is recomputed or stored.
"""
from __future__ import annotations

import difflib
import re
import sqlite3
from dataclasses import dataclass, replace

from warnscope.compilers import level_key, sort_key
from warnscope.errors import BadInput, NoData

from analyzer.ub.explain import codelabels
from analyzer.ub import disasm
from analyzer.ub.detectors import scores
from analyzer.ub import store as ub_store
from analyzer.ub.results import (no_case, CellCode, CellRecord, CodeDiff, CodeLabel, Configuration,
                                 DiffRow, Explanation, FunctionDiff, Outcome, StoredResults)


@dataclass(frozen=True)
class _Parsed:
    code: disasm.Code | None
    note: str


def parsed_codes(records: list[CellRecord], texts: dict[str, str]) -> dict[str, _Parsed]:
    """Each stored code text read back once (cells sharing code share the result); a text
    that does not read is a note, never an exception."""
    out: dict[str, _Parsed] = {}
    for h in {c.code for c in records if c.code}:
        if h not in texts:
            out[h] = _Parsed(None, "code missing from the database")
            continue
        try:
            out[h] = _Parsed(disasm.loads(texts[h]), "")
        except ValueError:
            out[h] = _Parsed(None, "stored code does not read")
    return out


def labelled(records: list[CellRecord], texts: dict[str, str],
             codes: dict[str, _Parsed] | None = None
             ) -> dict[tuple[str, str, str, str], tuple[list[CodeLabel] | None, str]]:
    """(case, compiler, level, flags) -> (labels, why there are none): labels are None
    where the cell has no code, with the reason beside them. ``codes``: the texts
    already read (:func:`parsed_codes`), where the caller has them."""
    codes = parsed_codes(records, texts) if codes is None else codes
    ref_of = {(c.case_id, c.compiler, c.flags): c.code for c in records
              if c.level == "-O0" and c.code}
    cache: dict[tuple[str, str | None], list[CodeLabel]] = {}
    out = {}
    for c in records:
        key = (c.case_id, c.compiler, c.level, c.flags)
        p = codes.get(c.code) if c.code else None
        if p is None or p.code is None:
            out[key] = (None, p.note if p is not None else (c.code_note or "no code"))
            continue
        ref_hash = ref_of.get((c.case_id, c.compiler, c.flags)) if c.level != "-O0" else None
        ref = codes.get(ref_hash) if ref_hash else None
        pair = (c.code, ref_hash)
        if pair not in cache:
            cache[pair] = codelabels.labels(p.code, ref.code if ref is not None else None)
        out[key] = (cache[pair], "")
    return out


def explain(conn: sqlite3.Connection, data: StoredResults, case_id: str,
            compiler: str | None = None, level: str | None = None,
            vs: tuple[str, str] | None = None) -> Explanation:
    """``ub explain``'s answer for ``case_id``: its configurations (limited to
    ``compiler`` and ``level`` when given), and with ``vs`` (compiler, level) the
    aligned code of the first configuration shown and that one."""
    mine = [c for c in data.cells if c.case_id == case_id]
    if not mine:
        raise no_case(case_id, data.corpus, [c.case_id for c in data.cells])
    texts = data.codes or ub_store.codes(conn, {c.code for c in mine if c.code})
    ex = explanation(data.corpus, mine, texts, compiler, level, vs, causes=data.causes)
    return replace(ex, detectors=scores.stored_case(data, case_id))


def explanation(corpus: str, mine: list[CellRecord], texts: dict[str, str],
                compiler: str | None = None, level: str | None = None,
                vs: tuple[str, str] | None = None, first_divergent: bool = False,
                causes: dict | None = None, codes: dict[str, _Parsed] | None = None,
                labels: dict | None = None) -> Explanation:
    """The explanation of one case's cells (``mine``) from their code texts; with
    ``first_divergent`` the diff is that of the first two configurations whose behaviour
    differs (the site's case page), if any. ``causes``: the stored causes (``ub run
    --why``) by (case, compiler, level, flags), said beside each configuration's outcome.
    ``codes`` and ``labels``: the texts already read and the cells' labels
    (:func:`parsed_codes`, :func:`labelled`) where the caller has them for a whole corpus
    (the site), so that they are worked out once, not once for the report and again per case."""
    case_id = mine[0].case_id
    codes = parsed_codes(mine, texts) if codes is None else codes
    labels = labelled(mine, texts, codes) if labels is None else labels
    shown = [c for c in mine if (compiler is None or c.compiler == compiler)
             and (level is None or c.level == level)]
    if not shown:
        raise NoData(f"{case_id}: no cell of {' '.join(p for p in (compiler, level) if p)}")
    shown.sort(key=lambda c: (c.flags, sort_key(c.compiler), level_key(c.level)))
    configs = [_cell_code(c, labels, codes, (causes or {}).get(
        (c.case_id, c.compiler, c.level, c.flags))) for c in shown]
    diff = None
    if vs is not None:
        other = next((c for c in mine if (c.compiler, c.level) == vs and c.flags == shown[0].flags),
                     None)
        if other is None:
            raise BadInput(f"--vs {vs[0]}:{vs[1]}: no such cell of {case_id}")
        diff = code_diff(_cell_code(shown[0], labels, codes), _cell_code(other, labels, codes))
    elif first_divergent:
        pair = divergent_pair(shown)
        if pair is not None:
            diff = code_diff(*(_cell_code(c, labels, codes) for c in pair))
    return Explanation(corpus=corpus, case=case_id, configurations=configs, diff=diff)


def divergent_pair(cells: list[CellRecord]) -> tuple[CellRecord, CellRecord] | None:
    """The first two cells (in the order given) that behave differently and both have
    code: the first cell with code, and the first after it that differs from it; failing
    that, any such pair."""
    with_code = [c for c in cells if c.code]
    for i, a in enumerate(with_code):
        for b in with_code[i + 1:]:
            if a.behaviour != b.behaviour:
                return a, b
    return None


def _cell_code(c: CellRecord, labels, codes, cause=None) -> CellCode:
    found, note = labels[(c.case_id, c.compiler, c.level, c.flags)]
    parsed = codes.get(c.code) if c.code else None
    return CellCode(compiler=c.compiler, level=c.level, flags=c.flags, outcome=c.outcome,
                    said=describe(c), labels=found, code_note=note,
                    functions=parsed.code.functions if parsed and parsed.code else None,
                    why=cause.summary if cause is not None else "")


def describe(c: CellRecord) -> str:
    """An outcome in a few words: 'hang', 'exit 48', 'crash (signal 11)', 'prints 3'."""
    if c.outcome is Outcome.CRASH and c.signal:
        return f"crash (signal {c.signal})"
    if c.outcome is Outcome.NONZERO_EXIT:
        return f"exit {c.exit}"
    if c.outcome in (Outcome.EXPECTED, Outcome.UNEXPECTED_OUTPUT, Outcome.COMPLETED):
        out = " | ".join(c.stdout.strip().splitlines())
        word = "as expected, " if c.outcome is Outcome.EXPECTED else ""
        return f"{word}prints {out[:40]!r}" if out else f"{word}prints nothing"
    return str(c.outcome)


#: A branch target inside the function: its offset differs between builds of equal code.
_LOCAL = re.compile(r"\+0x[0-9a-f]+$")


def _key(i: disasm.Insn, fname: str) -> str:
    """What alignment compares: the instruction without its offsets inside ``fname``."""
    if i.target is not None and (i.target == fname or i.target.startswith(fname + "+0x")):
        return f"{i.mnemonic} <local>"
    return i.text


def align(left: disasm.Function | None, right: disasm.Function | None) -> list[DiffRow]:
    """The instructions of two builds of one function side by side: equal runs paired,
    the rest marked (``same`` False) with None on the side that has nothing."""
    a = left.insns if left else []
    b = right.insns if right else []
    ka = [_key(i, left.name) for i in a] if left else []
    kb = [_key(i, right.name) for i in b] if right else []
    rows: list[DiffRow] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes():
        if op == "equal":
            # aligned as equal; the same code only if the branch targets agree too
            rows += [DiffRow(a[i].text, b[j].text, a[i].line, b[j].line, a[i].text == b[j].text)
                     for i, j in zip(range(i1, i2), range(j1, j2))]
            continue
        n = max(i2 - i1, j2 - j1)
        for k in range(n):
            li = a[i1 + k] if i1 + k < i2 else None
            rj = b[j1 + k] if j1 + k < j2 else None
            rows.append(DiffRow(li.text if li else None, rj.text if rj else None,
                                li.line if li else "", rj.line if rj else "", False))
    return rows


def code_diff(left: CellCode, right: CellCode) -> CodeDiff:
    """The code of two configurations aligned, function by function (in the left's
    order, then functions only the right has)."""
    lf = {f.name: f for f in left.functions or []}
    rf = {f.name: f for f in right.functions or []}
    names = list(dict.fromkeys([*lf, *rf]))
    return CodeDiff(left=Configuration(left.compiler, left.level, left.flags),
                    right=Configuration(right.compiler, right.level, right.flags),
                    functions=[FunctionDiff(name=n, rows=align(lf.get(n), rf.get(n)),
                                            left_note=_note(lf.get(n)), right_note=_note(rf.get(n)))
                               for n in names])


def _note(f: disasm.Function | None) -> str:
    if f is None:
        return "no such function"
    if not f.insns:
        return f"empty: runs into {f.next or 'what follows'}"
    return f"cut after {len(f.insns)} instructions ({f.cut} more)" if f.cut else ""
