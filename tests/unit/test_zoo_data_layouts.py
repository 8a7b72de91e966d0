"""The DIAG row layouts of clang 9 and 10 (nine fields: no DEFERRABLE) and of clang 23
(thirteen: two numbers after the category), with rows copied verbatim from
libclang-9-dev 1:9.0.1-16.1 and libclang-23-dev 1:23.1.4-2; the whole real files are
read by tests/system/test_zoo_data_real.py."""
from __future__ import annotations

import pytest

from flagdb.clang_inc import parse_kinds
from warnscope.errors import ParseError

HEAD = "#ifdef SEMASTART\n__SEMASTART = DIAG_START_SEMA,\n#undef SEMASTART\n#endif\n"
ROWS9 = (
    'DIAG(err_asm_invalid_escape, CLASS_ERROR, (unsigned)diag::Severity::Error, '
    '"invalid %% escape in inline assembly string", 0, SFINAE_SubstitutionFailure, false, true, 12)\n'
    'DIAG(warn_unused_variable, CLASS_WARNING, (unsigned)diag::Severity::Ignored, '
    '"unused variable %0", 750, SFINAE_Suppress, false, false, 34)\n'
)
#: the same diagnostic as clang 13 writes it (DEFERRABLE added before the category)
ROW10 = ('DIAG(warn_unused_label, CLASS_WARNING, (unsigned)diag::Severity::Ignored, '
         '"unused label %0", 748, SFINAE_Suppress, false, false, false, 34)\n')


def test_nine_field_rows(tmp_path):
    path = tmp_path / "DiagnosticSemaKinds.inc"
    path.write_text(HEAD + ROWS9)
    escape, unused = parse_kinds(path)
    assert (escape.name, escape.group, escape.text) == (
        "err_asm_invalid_escape", None, "invalid %% escape in inline assembly string")
    assert (unused.name, unused.group, unused.severity, unused.line) == (
        "warn_unused_variable", 750, "Ignored", 6)


@pytest.mark.parametrize("rows, message", [
    (ROWS9 + ROW10, ":7: DIAG row has 10 fields, earlier rows 9"),
    (ROWS9.replace(", false, true, 12)", ", 12)", 1), ":5: DIAG row has 7 fields; known layouts have 9, 10, 11 or 13"),
])
def test_mixed_or_unknown_field_counts(tmp_path, rows, message):
    path = tmp_path / "DiagnosticSemaKinds.inc"
    path.write_text(HEAD + rows)
    with pytest.raises(ParseError) as err:
        parse_kinds(path)
    assert message in str(err.value)


ROWS13 = (
    'DIAG(err_asm_invalid_escape, CLASS_ERROR, (unsigned)diag::Severity::Error, '
    '"invalid %% escape in inline assembly string", 0, SFINAE_SubstitutionFailure, false, true, '
    'true, false, 13, 10813, 0)\n'
)


def test_thirteen_field_rows(tmp_path):
    path = tmp_path / "DiagnosticASTKinds.inc"
    path.write_text(HEAD + ROWS13)
    (row,) = parse_kinds(path)
    assert (row.name, row.group, row.diag_class) == ("err_asm_invalid_escape", None, "ERROR")
    path.write_text(HEAD + ROWS13.replace(", 13, 10813, 0)", ", 13, x10813, 0)"))
    with pytest.raises(ParseError, match=":5: DIAG row does not end with a category number"):
        parse_kinds(path)
