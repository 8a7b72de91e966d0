"""The TableGen reader on hand-written edge cases (the real files are read by
tests/system/test_clang_td.py): let blocks nested, superclass order, anonymous groups,
multiclass/defm/foreach, the preprocessor, text substitutions, and refusals with
file:line."""
from __future__ import annotations

import pytest

from flagdb import clang_td, diagtext, tablegen
from warnscope.errors import ParseError

PRELUDE = '''
class Severity<string N> { string Name = N; }
def SEV_Ignored : Severity<"Ignored">;
def SEV_Warning : Severity<"Warning">;
def SEV_Error : Severity<"Error">;
class DiagClass;
def CLASS_WARNING : DiagClass;
def CLASS_EXTENSION : DiagClass;
def CLASS_ERROR : DiagClass;
class TextSubstitution<string Text> { string Substitution = Text; string Component = ""; }
class DiagGroup<string Name, list<DiagGroup> subgroups = []> {
  string GroupName = Name; list<DiagGroup> SubGroups = subgroups; code Documentation = [{}];
}
class InGroup<DiagGroup G> { DiagGroup Group = G; }
class Diagnostic<string summary, DiagClass DC, Severity defaultmapping> {
  string Component = ?; string Summary = summary; DiagClass Class = DC;
  bit ShowInSystemHeader = 0; Severity DefaultSeverity = defaultmapping; DiagGroup Group;
}
class ShowInSystemHeader { bit ShowInSystemHeader = 1; }
class Warning<string str> : Diagnostic<str, CLASS_WARNING, SEV_Warning>;
class Extension<string str> : Diagnostic<str, CLASS_EXTENSION, SEV_Ignored>;
class ExtWarn<string str> : Diagnostic<str, CLASS_EXTENSION, SEV_Warning>;
class Error<string str> : Diagnostic<str, CLASS_ERROR, SEV_Error> { bit ShowInSystemHeader = 1; }
class DefaultIgnore { Severity DefaultSeverity = SEV_Ignored; }
def Pedantic : DiagGroup<"pedantic">;
'''


def records(body: str, name: str = "Diagnostic.td"):
    files = {name: PRELUDE + body}
    return tablegen.read(name, lambda p: files[p])


def test_superclasses_in_order_and_lets_nested():
    r = records('''
    /* a comment */
    let Component = "Sema" in {
    let Component = "Lex" in
    def a : Warning<"a %0">, DefaultIgnore, ShowInSystemHeader;
    def b : Warning<"b" "c">;
    }
    ''')
    a, b = r.defs["a"], r.defs["b"]
    assert a.fields["DefaultSeverity"].name == "SEV_Ignored"
    assert a.fields["ShowInSystemHeader"] == 1 and a.fields["Component"] == "Lex"
    assert b.fields["Summary"] == "bc" and b.fields["Component"] == "Sema"
    assert a.isa("Diagnostic") and a.isa("Warning")


def test_pedantic_inference_and_anonymous_groups():
    r = records('''
    def Ext : DiagGroup<"ext">;
    def e1 : Extension<"x">, InGroup<Ext>;
    def e2 : Extension<"y">;
    def e3 : ExtWarn<"z">, InGroup<DiagGroup<"implicit">>;
    def w : Warning<"w">, InGroup<DiagGroup<"implicit">>;
    ''')
    t = clang_td.tables(r, "1.0", "Diagnostic.td")
    by = {g.name: g for g in t.groups}
    assert [g.name for g in t.groups] == sorted(by)
    assert by["pedantic"].members == ["e2"]                 # no group of its own
    assert [t.groups[i].name for i in by["pedantic"].subgroups] == ["ext"]
    assert t.diags["e2"].group == by["pedantic"].index
    assert sorted(by["implicit"].members) == ["e3", "w"]    # two InGroup<DiagGroup<..>>: one group


def test_multiclass_defm_foreach_and_bang_operators():
    r = records('''
    def CXX11 : DiagGroup<"c++11-extensions">;
    multiclass Compat<string message, int std, bit ext = true> {
      def pre_cxx#std#_#NAME : Diagnostic<!strconcat(message, " a C++", ""#std, " extension"),
          CLASS_EXTENSION, !if(ext, SEV_Warning, SEV_Ignored)>,
          InGroup<!cast<DiagGroup>("CXX"#std)>;
    }
    multiclass Compat11<string message> : Compat<message, 11>;
    defm thing : Compat11<"thing is">;
    foreach std = [11] in { defm other#std : Compat<"other is", std, false>; }
    #ifdef NOT_DEFINED
    this is not read
    #else
    def after : Warning<"after">;
    #endif
    ''')
    d = r.defs["pre_cxx11_thing"]
    assert d.fields["Summary"] == "thing is a C++11 extension"
    assert d.fields["Group"].fields["GroupName"] == "c++11-extensions"
    assert r.defs["pre_cxx11_other11"].fields["DefaultSeverity"].name == "SEV_Ignored"
    assert "after" in r.defs


def test_text_substitutions_and_enum_select():
    subs = {"select_kind": "%select{function|method}0 %1"}
    assert diagtext.for_definition("in %sub{select_kind}2,0 here", subs) == \
        "in %select{function|method}2 %0 here"
    assert diagtext.for_definition("%enum_select<K>{%A{a}|%B{b}}1 %%", {}) == "%select{a|b}1 %%"
    assert diagtext.for_definition("plain %0 %select{a|b}1", {}) == "plain %0 %select{a|b}1"
    with pytest.raises(diagtext.TextError):
        diagtext.for_definition("%sub{missing}0", {})


@pytest.mark.parametrize("body, line, words", [
    ("\ndef a : Warning<\"a\">;\nmultiple x;\n", 3, "unknown TableGen construct 'multiple'"),
    ("\ndef a : Warning<!foo(1)>;\n", 2, "operator !foo"),
    ("\ndef a : Nope<\"a\">;\n", 2, "unknown class 'Nope'"),
    ("\ndef a : Warning<\"a\">;\ndef a : Warning<\"b\">;\n", 3, "already defined"),
    ("\ndef a : Warning<\"a\">, InGroup<Unknown>;\n", 2, "unknown name 'Unknown'"),
    ("\nlet Component = \"x\" in {\ndef a : Warning<\"a\">;\n", None, "not closed"),
    ("\ndef a : Warning<\"a\\q\">;\n", 2, "invalid escape"),
    ("\n#ifdef X\n", None, "not closed by #endif"),
    ("\n/* a /* nested */ comment */\n", 2, "nested comment"),
])
def test_unknown_or_bad_constructs_name_file_and_line(body, line, words):
    with pytest.raises(ParseError) as info:
        records(body, "DiagnosticSemaKinds.td")
    message = str(info.value)
    assert words in message and "\n" not in message
    if line is not None:
        assert message.startswith(f"DiagnosticSemaKinds.td:{PRELUDE.count(chr(10)) + line}:")


def test_foreach_over_an_empty_list_defines_nothing():
    r = records('''
    foreach std = []<int> in { def x#std : Warning<"x">; }
    def after : Warning<"after">;
    ''')
    assert "after" in r.defs and not any(n.startswith("x") for n in r.defs)


SIMPLE_DEFS = '''
def G1 : DiagGroup<"g1">;
def G2 : DiagGroup<"g2", [G1, // a comment
  Pedantic,]>;
let Component = "Sema" in {
def w1 : Warning<"one %0" // between the strings
  " and \\"two\\"">, InGroup<G2>, DefaultIgnore;
def w2 : Extension<"ext">, InGroup<DiagGroup<"anon", [G1]>>;
def w3 : ExtWarn<"x">, InGroup<DiagGroup<"anon2">>, ShowInSystemHeader;
def w4:Warning<"tight">,InGroup<G1>;
}
'''


def _shown(v):
    if isinstance(v, tablegen.Record):
        return v.name if not v.anonymous else ("anonymous", _fields(v))
    return [_shown(x) for x in v] if isinstance(v, list) else v


def _fields(r):
    return {k: _shown(v) for k, v in r.fields.items()}


#: the same without comments inside a statement (a comment keeps the pattern from
#: matching), multi-line, with escapes, numbers, ``?``, ``true``, and a name that is a
#: def and also a field of some class (read token by token, as it may be the field)
SIMPLE_DEFS_PLAIN = '''
class Numbered<int n, bit b, string s> { int Number = n; bit Flag = b; string S = s; }
def GroupName : DiagGroup<"gn">;
def G1 : DiagGroup<"g1">;
def G2 : DiagGroup<"g2", [G1,
  Pedantic,]>;
def G3 : DiagGroup<"g3", []>;
let Component = "Sema" in {
def w1 : Warning<"one %0"
  " and \\"two\\"">, InGroup<G2>, DefaultIgnore;
def w2 : Extension<"ext">,
  InGroup<DiagGroup<"anon", [G1]>>;
def w3 : ExtWarn<"x">, InGroup<
    DiagGroup<"anon2">>, ShowInSystemHeader;
def w4:Warning<"tight">,InGroup<G1>;
def w5 : Warning<"field name">, InGroup<GroupName>;
def w6 : Warning<"one line"
  " and the next">, InGroup<G1>;
}
def n1 : Numbered<42, true, ?>;
def n2 : Numbered<0, false, "s" "t">;
'''


@pytest.mark.parametrize("text", [SIMPLE_DEFS, SIMPLE_DEFS_PLAIN])
def test_simple_defs_read_by_pattern_are_the_defs_read_token_by_token(text):
    """A def the lexer matches whole gives the record the token reader gives; a block
    comment after ``def`` keeps the pattern from matching, so both readings are compared."""
    fast = records(text)
    slow = records(text.replace("def ", "def /**/ "))
    assert sorted(fast.defs) == sorted(slow.defs)
    for name, rec in fast.defs.items():
        other = slow.defs[name]
        assert (_fields(rec), rec.classes, rec.line) == (_fields(other), other.classes, other.line), name
    assert [(_fields(r), r.name, r.line) for r in fast.anonymous] == \
        [(_fields(r), r.name, r.line) for r in slow.anonymous]
    assert fast.defs["w1"].fields["Summary"] == 'one %0 and "two"'
    assert [g.name for g in fast.defs["G2"].fields["SubGroups"]] == ["G1", "Pedantic"]


def test_simple_defs_plain_values():
    r = records(SIMPLE_DEFS_PLAIN)
    assert [r.defs["n1"].fields[f] for f in ("Number", "Flag")] == [42, 1]
    assert r.defs["n1"].fields["S"] is tablegen.UNSET and r.defs["n2"].fields["S"] == "st"
    assert r.defs["w5"].fields["Group"] is r.defs["GroupName"]
    anon2 = r.defs["w3"].fields["Group"]
    assert anon2.anonymous and anon2.fields["GroupName"] == "anon2"
    text = PRELUDE + SIMPLE_DEFS_PLAIN   # its line is its class name's, not the def's
    assert anon2.line == text[:text.index('DiagGroup<"anon2"')].count("\n") + 1 != r.defs["w3"].line


@pytest.mark.parametrize("body, line, words", [
    ('\n\ndef a : Warning<"x">,\n  InGroup<Nowhere>;', 4, "unknown name 'Nowhere'"),
    ('\ndef a : Warning<"x">;\ndef a : Warning<"y">;', 3, "def a is already defined"),
    ('\ndef a : Warning<"bad \\q">;', 2, "invalid escape \\q"),
    ('\ndef a : Nothing<"x">;', 2, "unknown class 'Nothing'"),
    ('\ndef in : Warning<"x">;', 2, "found 'in'"),
    ('\ndef a : Warning<"two\nlines">;', 2, "unexpected character"),
    ('\ndef a : Warning<"x"\n "two\nlines">, InGroup<Pedantic>;', 3, "unexpected character"),
])
def test_simple_defs_fail_as_the_token_reader_does(body, line, words):
    for text in (body, body.replace("def ", "def /**/ ")):
        with pytest.raises(ParseError) as exc:
            records(text)
        assert exc.value.line == PRELUDE.count("\n") + line and words in str(exc.value)
