"""A reader of the part of LLVM's TableGen language that clang's diagnostic files use.

clang defines its diagnostics in ``include/clang/Basic/Diagnostic.td``, which includes
``DiagnosticGroups.td`` and the ``Diagnostic*Kinds.td`` files. Reading them needs no
LLVM build, only this subset of TableGen, evaluated as ``llvm-tblgen`` does:

* ``include "file"`` (relative to the including file, read through a callback so an
  untrusted tree is read safely);
* ``class Name<type arg, type arg = default> : Super<args>, Other { fields }``, with
  field declarations (``string Name = N;``, ``DiagGroup Group;``), ``let`` overrides in
  the body, and the types ``string``, ``code``, ``int``, ``bit``, ``bits<n>``,
  ``list<T>``, ``dag`` and class names;
* ``def Name : Super<args>, Other { body }`` (or ``;``) and anonymous ``def : …``;
* ``let Field = value, … in { … }`` blocks and ``let … in def …``, nested; their
  values apply after the superclasses and before the body, as in TableGen;
* ``defvar name = value;``;
* values: strings (adjacent ones joined), ``[{code}]``, integers, ``?``, lists
  ``[a, b]``, def and template-argument references, and anonymous instances
  ``DiagGroup<"name">`` (which become records, as TableGen makes them).

Superclasses are applied in order, so ``Warning<"…">, DefaultIgnore`` ends with
DefaultIgnore's severity, as with TableGen. Anything outside this subset stops the
read with :class:`~warnscope.errors.ParseError` naming file and line.
"""
from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable

from warnscope.errors import ParseError

#: how deep ``include`` may nest (clang's files nest one level)
MAX_INCLUDE_DEPTH = 8
#: how deep class instantiation may nest (a class deriving from itself is an error)
MAX_CLASS_DEPTH = 64

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n\f\v]+|//[^\n]*|/\*.*?\*/)
  | (?P<str>"[^"\\\n]*(?:\\.[^"\\\n]*)*")
  | (?P<code>\[\{.*?\}\])
  | (?P<num>0x[0-9A-Fa-f]+|0b[01]+|[-+]?[0-9]+(?![A-Za-z_]))
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*|[0-9]+[A-Za-z_][A-Za-z0-9_]*)
  | (?P<bang>![a-z]+)
  | (?P<punct>[<>:;,{}\[\]()=?.#])
  | (?P<bad>/\*|\[\{|.)
""", re.X | re.S)
_STRING_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "t": "\t", "n": "\n"}
_KEYWORDS = {"class", "def", "let", "in", "include", "defvar", "field", "multiclass", "defm",
             "foreach", "if", "then", "else", "defset", "deftype", "assert", "dump"}


@dataclass(eq=False, slots=True)
class Record:
    """A def (or an anonymous instance): its fields and every class it derives from."""

    name: str
    file: str
    line: int
    fields: dict = field(default_factory=dict)
    classes: list = field(default_factory=list)
    anonymous: bool = False

    def isa(self, cls: str) -> bool:
        return cls in self.classes

    def __repr__(self) -> str:  # records reference each other: keep it short
        return f"Record({self.name})"


@dataclass
class _Class:
    name: str
    targs: list            # [(name, default expression or None)]
    parents: list          # [(class name, [argument expressions], file, line)]
    lets: list             # [(field, value)] of the let blocks around the class
    body: list             # [("field"|"let", name, expression or None, file, line)]
    file: str
    line: int


@dataclass
class Records:
    """Everything read: defs by name, in definition order, and the anonymous records."""

    defs: dict = field(default_factory=dict)
    anonymous: list = field(default_factory=list)
    #: class -> the defs deriving from it in name order, as :meth:`derived` last
    #: listed them (in one pass over every def), and how many defs there were then
    _by_class: dict = field(default_factory=dict, repr=False, compare=False)
    _listed: int = field(default=-1, repr=False, compare=False)

    def derived(self, cls: str) -> list[Record]:
        """Every record deriving from ``cls``, named ones first in name order (as
        ``getAllDerivedDefinitions`` gives them), anonymous ones after."""
        defs = self.defs   # by name: a def's name is its key
        if self._listed != len(defs):   # defs are only ever added
            self._by_class = {}
            for r in map(defs.__getitem__, sorted(defs)):
                for c in r.classes:
                    self._by_class.setdefault(c, []).append(r)
            self._listed = len(defs)
        return self._by_class.get(cls, []) + [r for r in self.anonymous if cls in r.classes]


@contextmanager
def collector_paused():
    """The cyclic collector off for a while, as before after. Reading the records and
    the tables from them makes some 100,000 objects (records, their fields, tokens,
    rows) that live until the tables are made and form no cycle: the collector would
    walk them again and again for nothing (a twentieth of an ingest's CPU); paused
    until they are gone, it never sees them."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class _Unset:
    """TableGen's ``?``."""

    def __repr__(self) -> str:
        return "?"


UNSET = _Unset()
#: a template argument without a value (its class needs it given)
UNSET_ARG = _Unset()
#: a template argument whose value is ``[]`` unless given (:class:`_Plan` defaults)
_EMPTY_LIST = _Unset()


class _Source:
    """One file's tokens, with positions turned into lines only when needed."""

    def __init__(self, path: str, text: str, defined: frozenset = frozenset()):
        self.path = path
        self.text = _preprocess(path, text, defined) if _has_directive(text) else text
        #: the last position asked for its line (:meth:`line`), and that line
        self._at, self._line = 0, 1
        self.tokens: list[tuple[str, str, int]] = []
        #: position of a ``def`` token -> the match of the simple def it starts
        self.simple_defs: dict[int, re.Match] = {}
        self._lex()

    def line(self, pos: int) -> int:
        """The line of ``pos``: the newlines between it and the last position asked
        counted (defs are read in order: a few characters)."""
        if pos >= self._at:
            self._line += self.text.count("\n", self._at, pos)
        else:
            self._line -= self.text.count("\n", pos, self._at)
        self._at = pos
        return self._line

    def fail(self, pos: int, message: str) -> ParseError:
        return ParseError(self.path, self.line(pos), message)

    def _lex(self) -> None:
        """Tokens as (kind, text, position): one pass of one pattern over the file, and
        at each statement's start one try of :data:`_SIMPLE_DEF` (see there)."""
        text = self.text
        out = self.lex(0, len(text), self.simple_defs)
        out.extend([("eof", "", len(text))] * _EOF_PAD)   # peek() needs no bounds check
        self.tokens = out

    def lex(self, start: int, end: int, simple: dict | None = None) -> list:
        """The tokens of ``text[start:end]``. With ``simple``, a whole simple def at a
        statement's start is one ``def`` token, its match kept in ``simple`` by position."""
        text = self.text
        out: list = []
        append = out.append
        pos = start
        boundary = simple is not None
        while True:
            if boundary:   # one simple def after another: no token in between
                m = _simple_def(text, pos, end)
                while m is not None:
                    at = m.start("def")
                    simple[at] = m
                    append(("id", "def", at))
                    pos = m.end()
                    m = _simple_def(text, pos, end)
            for m in _TOKEN.finditer(text, pos, end):
                kind = m.lastgroup
                if kind == "ws":
                    if "/*" in m.group()[2:-2]:
                        raise self.fail(m.start(), "unknown TableGen construct: a nested comment")
                    continue
                if kind == "bad":
                    what = m.group()
                    if what in ("/*", "[{"):
                        raise self.fail(m.start(), f"unterminated {'comment' if what == '/*' else 'code block'} {what!r}")
                    raise self.fail(m.start(), f"unknown TableGen construct: unexpected character {what!r}")
                if kind == "code":
                    append(("code", m.group()[2:-2], m.start()))
                    continue
                what = m.group()
                append((kind, what, m.start()))
                if simple is not None and kind == "punct" and what in ";{}":
                    pos = m.end()
                    boundary = True
                    break
            else:
                return out


_DIRECTIVE = re.compile(r"^[ \t]*#(ifdef|ifndef|else|endif|define)\b", re.M)
#: what a file must hold to have a directive (the pattern is tried only at their lines;
#: one search for them all, which skips from ``#`` to ``#``)
_DIRECTIVE_WORD = re.compile(r"#(?:ifdef|ifndef|else|endif|define)\b")


def _has_directive(text: str) -> bool:
    """Whether a line of ``text`` is a preprocessor directive: the pattern tried on
    each line holding one of the words (a diagnostic's text may name them too)."""
    for word in _DIRECTIVE_WORD.finditer(text):
        if _DIRECTIVE.match(text, text.rfind("\n", 0, word.start()) + 1):
            return True
    return False


def _preprocess(path: str, text: str, defined: frozenset) -> str:
    """TableGen's preprocessor: ``#ifdef``/``#ifndef``/``#else``/``#endif``/``#define``.
    Directive lines and the lines of a branch not taken become blank (so every line
    keeps its number)."""
    names = set(defined)
    stack: list[tuple[bool, bool]] = []    # (this branch taken, the enclosing one active)
    out = []
    active = True
    for lineno, line in enumerate(text.split("\n"), 1):
        m = _DIRECTIVE.match(line)
        if m is None:
            out.append(line if active else "")
            continue
        word = m.group(1)
        rest = line[m.end():].split("//")[0].split()
        if word in ("ifdef", "ifndef", "define") and len(rest) != 1:
            raise ParseError(path, lineno, f"#{word} needs one macro name")
        if word in ("ifdef", "ifndef"):
            taken = (rest[0] in names) == (word == "ifdef")
            stack.append((taken, active))
            active = active and taken
        elif word == "else":
            if not stack:
                raise ParseError(path, lineno, "#else without #ifdef")
            taken, outer = stack[-1]
            stack[-1] = (not taken, outer)
            active = outer and not taken
        elif word == "endif":
            if not stack:
                raise ParseError(path, lineno, "#endif without #ifdef")
            _, active = stack.pop()
        elif active:
            names.add(rest[0])
        out.append("")
    if stack:
        raise ParseError(path, None, "an #ifdef is not closed by #endif")
    return "\n".join(out)


def _unescape(body: str, src: _Source, pos: int) -> str:
    if "\\" not in body:
        return body
    bad = _BAD_ESCAPE.search(body)
    if bad:
        raise src.fail(pos, f"invalid escape \\{bad.group(1)} in a string")
    return _ESCAPE.sub(lambda m: _STRING_ESCAPES[m.group(1)], body)


def _unescaped(body: str):
    """A string's text with its escapes replaced, or _GIVE_UP where one is invalid."""
    if "\\" not in body:
        return body
    if _BAD_ESCAPE.search(body) is None:
        return _ESCAPE.sub(lambda m: _STRING_ESCAPES[m.group(1)], body)
    return _GIVE_UP


def _strings(strs: str):
    """The text of adjacent strings (``"a" "b"``, blanks between them), as _unescaped."""
    body = strs[1:-1]
    if '"' in body and "\\" not in body:   # plain strings: their text between quotes
        return "".join(strs.split('"')[1::2])
    if '"' in body or "\\" in body:
        parts = [_unescaped(s[1:-1]) for s in _STRING.findall(strs)]
        body = _GIVE_UP if _GIVE_UP in parts else "".join(parts)
    return body


_ESCAPE = re.compile(r"\\(.)")
#: the first escape that is not one (after any number of valid ones)
_BAD_ESCAPE = re.compile(r"^(?:[^\\]|\\[\\'\"tn])*+\\(.)")


# ----------------------------------------------------------------- the simple def
# Most of clang's diagnostic files is one shape of statement:
#
#     def warn_x : Warning<"text %0" "more">, InGroup<DiagGroup<"x">>, DefaultIgnore;
#     def Group : DiagGroup<"group", [A, B]>;
#
# The lexer matches such a statement whole, with one pattern; the parser then cuts its
# superclass list into pieces (strings, names, numbers, punctuation) with one more and
# reads the pieces, which the pattern has already checked, to values directly: what the
# reader spends most of its time on, read several times faster. The records are the
# same: the values are what the same expressions read token by token evaluate to, put
# into the record by the same class plans. Anything else (a body, a paste ``#``, a
# ``.`` field, a comment inside the statement, a keyword, an unknown class, a name that
# may be a field or a template argument) does not match or is handed back before
# anything is defined, and the statement is read token by token as any other.
#
# Nine in ten are of a narrower shape still, which the pattern names apart (``cls``,
# ``strs``, ``tail``): a class given strings, then classes given a name or nothing
# (``Error<"text">``; ``Warning<"…">, InGroup<G>, DefaultIgnore``). Their pieces are read
# without cutting the list up, and every def with the same superclasses inside the same
# let blocks gets the same fields but its arguments (:class:`_Shape`): its record is a
# copy of the shape's fields with its text (and group) put in.
#: blanks and ``//`` comments (one holding ``/*`` is left to the token reader's check);
#: blanks, then each comment with the blanks after it: one way to match, so a def that
#: does not match fails fast
_WS = r"[ \t\r\n\f\v]*+(?://[^\n/]*+(?:/(?!\*)[^\n/]*+)*+(?![^\n])[ \t\r\n\f\v]*+)*+"
#: blanks alone: inside the statement (so its pieces are all there is between blanks)
_SP = r"[ \t\r\n\f\v]*+"
_STR = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'
_STRS = rf"{_STR}(?:{_SP}{_STR})*+"
_NAME = r"[A-Za-z_][A-Za-z0-9_]*+"
_NUM = r"[0-9]++(?![A-Za-z_])"
#: an argument of an anonymous instance (``DiagGroup<"x">``)
_INNER = rf"(?:{_STRS}|{_NAME}|{_NUM})"
_INST = rf"{_NAME}{_SP}<{_SP}{_INNER}(?:{_SP},{_SP}{_INNER})*+{_SP}>"
_LIST = rf"\[{_SP}(?:{_NAME}(?:{_SP},{_SP}{_NAME})*+(?:{_SP},)?)?{_SP}\]"
_ARG = rf"(?:{_STRS}|{_INST}|{_NAME}|{_NUM}|{_LIST}|\?)"
_PARENT = rf"{_NAME}(?:{_SP}<{_SP}(?:{_ARG}(?:{_SP},{_SP}{_ARG})*+)?{_SP}>)?"
#: a class given one name or nothing (``InGroup<G>``, ``DefaultIgnore``)
_TAIL = rf"({_NAME})(?:{_SP}<{_SP}({_NAME}){_SP}>)?+"
#: a simple def's start (``def NAME :``) and the classes after its first, as both
#: patterns below have them
_DEF_HEAD = rf"{_WS}(?P<def>def)(?![A-Za-z0-9_]){_SP}(?P<name>{_NAME}){_SP}:{_SP}"
_DEF_TAIL = rf"(?P<tail>(?:{_SP},{_SP}{_TAIL})*+)"
_SIMPLE_DEF = re.compile(rf"""{_DEF_HEAD}
    (?P<parents>(?P<cls>{_NAME}){_SP}<{_SP}(?P<strs>{_STRS}){_SP}>{_DEF_TAIL}
              |{_PARENT}(?:{_SP},{_SP}{_PARENT})*+){_SP};""", re.X)
#: the common shape again, its strings taken as anything up to the next quote: a
#: quote is found many times faster than a string's characters are checked one by one
#: (which is most of the time the whole pattern took). It is :data:`_SIMPLE_DEF`'s
#: match where the strings hold no backslash and no newline (:func:`_simple_def`).
_COMMON_DEF = re.compile(rf"""{_DEF_HEAD}
    (?P<parents>(?P<cls>{_NAME}){_SP}<{_SP}(?P<strs>"[^"]*+"(?:{_SP}"[^"]*+")*+){_SP}>
                {_DEF_TAIL}){_SP};""", re.X)


def _simple_def(text: str, pos: int, end: int) -> re.Match | None:
    """The match of :data:`_SIMPLE_DEF` at ``pos``: :data:`_COMMON_DEF`'s where its
    strings are plain (no escape, no newline in one), else the full pattern's."""
    m = _COMMON_DEF.match(text, pos, end)
    if m is not None:
        strs = m.group("strs")
        if "\\" not in strs and ("\n" not in strs or "\n" not in "".join(strs.split('"')[1::2])):
            return m
    return _SIMPLE_DEF.match(text, pos, end)


#: one string of a superclass's strings
_STRING = re.compile(_STR)
#: the classes after the first of the common shape, each given a name or nothing
_TAILS = re.compile(_TAIL)
#: the pieces of a simple def's superclass list (only blanks lie between them)
_PIECE = re.compile(rf'{_STR}|[A-Za-z0-9_]++|[<>,\[\]?]')


class _Anonymous:
    """A simple def's ``DiagGroup<"x">``: its record is made when the def is."""

    __slots__ = ("cls", "args", "pos")

    def __init__(self, cls: _Class, args: list, pos: int):
        self.cls, self.args, self.pos = cls, args, pos


#: what a piece the simple reader hands back reads as
_GIVE_UP = object()


@dataclass
class _Plan:
    """A class flattened with its superclasses (:meth:`Reader._plan`)."""

    defaults: list        # a value per template argument (UNSET_ARG: none; _EMPTY_LIST: [])
    steps: list           # [(field, is an argument, argument index or value)] in order
    classes: list         # the class and every class it derives from
    needed: int           # how many arguments it must be given
    constants: dict       # field -> value: the steps' outcome, where a constant
    arguments: list       # [(field, argument index)]: the rest


@dataclass
class _Shape:
    """Every def with the same superclasses (each given as many arguments) inside the
    same let blocks gets the same fields from them: the plans applied in order, then
    the lets (:meth:`Reader.shape`). What is left per def is to fill in its arguments."""

    fields: dict      # every field in the order it is first set: its value, or None
                      # where an argument sets it
    arguments: list   # [(field, superclass number, argument index)]
    padding: list     # per superclass: its defaults after the arguments given (or ())
    classes: tuple
    lets: list        # the let blocks' list, kept alive: its id is in the key
    padded: bool = False   # whether a superclass has defaults after its arguments

    @staticmethod
    def of(parents: list, lets: list) -> _Shape | None:
        """As :meth:`Reader.apply` for each superclass, then the lets, would set them."""
        source: dict = {}   # field -> (False, value) or (True, superclass number, index)
        classes: list = []
        padding = []
        for n, (_, values, plan, _) in enumerate(parents):
            if plan is None:
                return None
            for name, value in plan.constants.items():
                source[name] = (False, value)
            for name, i in plan.arguments:
                source[name] = (True, n, i)
            padding.append(tuple(plan.defaults[len(values):]))
            classes += [c for c in plan.classes if c not in classes]
        for name, value in lets:
            if name not in source:
                return None
            source[name] = (False, value)
        fields = {name: (None if how[0] else how[1]) for name, how in source.items()}
        arguments = [(name, how[1], how[2]) for name, how in source.items() if how[0]]
        return _Shape(fields, arguments, padding, tuple(classes), lets, any(padding))

    def record(self, name: str, path: str, line: int, values: list) -> Record:
        """The record of one def of this shape, given its superclasses' values (a list
        of values per superclass)."""
        fields = self.fields.copy()
        if self.padded:   # a default [] is a new list each time, per superclass
            values = [given + [[] if d is _EMPTY_LIST else d for d in pad]
                      for given, pad in zip(values, self.padding)]
        for field_name, n, i in self.arguments:
            fields[field_name] = values[n][i]
        return Record(name, path, line, fields, list(self.classes))


class Reader:
    """Reads a root ``.td`` file and what it includes into :class:`Records`.

    ``read(path) -> str`` returns a file's text (the caller decides how a file is read
    safely, and where an included name is found); ``path`` is the root's name, then
    each ``include``'s as written.
    """

    def __init__(self, read: Callable[[str], str]):
        self._read = read
        self.records = Records()
        self.classes: dict[str, _Class] = {}
        self.multiclasses: dict[str, tuple] = {}
        #: class name -> its flattened form (:meth:`_plan`), or None
        self._plans: dict = {}
        #: (superclasses and their numbers of arguments, id of the lets) -> _Shape or None
        self._shapes: dict = {}
        #: every field name a class declares or a let sets (a bare name that is one
        #: may be a field, not a def)
        self._field_names: set = set()
        self.defvars: dict = {}
        self._anon = 0

    # ------------------------------------------------------------ files
    def read(self, path: str) -> Records:
        self._file(path, 0, [])
        return self.records

    def _file(self, path: str, depth: int, lets: list) -> None:
        src = _Source(path, self._read(path))
        p = _Parser(self, src)
        p.statements(lets, depth, top=True)

    # ------------------------------------------------------------ evaluation
    def instantiate(self, cls: _Class, args: list, rec: Record, src: _Source, pos: int,
                    depth: int = 0) -> None:
        """Add class ``cls`` with template ``args`` (values) to ``rec``."""
        plan = self.plan(cls.name, len(args))
        if plan is not None:
            self.apply(plan, args, rec)
            return
        if depth > MAX_CLASS_DEPTH:
            raise src.fail(pos, f"classes nest deeper than {MAX_CLASS_DEPTH} (a cycle?)")
        if len(args) > len(cls.targs):
            raise src.fail(pos, f"class {cls.name} takes {len(cls.targs)} template arguments, "
                                f"given {len(args)}")
        env: dict = {}
        for i, (name, default) in enumerate(cls.targs):
            if i < len(args):
                env[name] = args[i]
            elif default is not None:
                env[name] = default.eval(self, env, rec)
            else:
                raise src.fail(pos, f"class {cls.name}: no value for template argument {name}")
        for pname, pargs, psrc, ppos in cls.parents:
            parent = self.classes[pname]
            values = [a.eval(self, env, rec) for a in pargs]
            self.instantiate(parent, values, rec, psrc, ppos, depth + 1)
        for name, value in cls.lets:
            rec.fields[name] = value
        for kind, name, expr, isrc, ipos in cls.body:
            if kind == "let" and name not in rec.fields:
                raise isrc.fail(ipos, f"let of {name}, which class {cls.name} has no field of")
            rec.fields[name] = UNSET if expr is None else expr.eval(self, env, rec)
        if cls.name not in rec.classes:
            rec.classes.append(cls.name)

    def plan(self, name: str, nargs: int) -> _Plan | None:
        """The plan of class ``name`` given ``nargs`` arguments, or None where the
        general path runs (or the class is unknown)."""
        plan = self._plans.get(name, False)
        if plan is False:
            cls = self.classes.get(name)
            plan = self._plans[name] = None if cls is None else self._plan(cls, 0)
        if plan is not None and plan.needed <= nargs <= len(plan.defaults):
            return plan
        return None

    @staticmethod
    def apply(plan: _Plan, args: list, rec: Record) -> None:
        """Add a class to ``rec`` by its plan, given ``args`` (values) that fit it."""
        fields = rec.fields
        fields.update(plan.constants)
        if plan.arguments:
            defaults = plan.defaults
            full = args
            if len(args) < len(defaults):   # a default [] is a new list each time
                full = args + [[] if d is _EMPTY_LIST else d for d in defaults[len(args):]]
            for name, i in plan.arguments:
                fields[name] = full[i]
        have = rec.classes
        if have:
            for c in plan.classes:
                if c not in have:
                    have.append(c)
        else:
            have.extend(plan.classes)

    def shape(self, parents: list, lets: list) -> _Shape | None:
        """The :class:`_Shape` of a def with these superclasses ([(class, values, plan,
        …)]) inside these let blocks, or None where one has no plan or a let sets a
        field the def has not (the def is then made step by step, which says so)."""
        key = (tuple([(p[0], len(p[1])) for p in parents]), id(lets))
        shape = self._shapes.get(key, False)
        if shape is False:
            shape = self._shapes[key] = _Shape.of(parents, lets)
        return shape

    def common_shape(self, key: tuple, lets: list) -> _Shape | None:
        """:meth:`shape` of a def of the common shape (most of them), given its key: each
        superclass and its number of arguments in turn, then the id of ``lets`` (one flat
        tuple: quickly hashed). (A None kept under the id of a list of lets that a later
        list reuses only sends that list's defs the longer way, to the same record.)"""
        shape = self._shapes.get(key, False)
        if shape is False:
            parents = []
            for cls, nargs in zip(key[0:-1:2], key[1:-1:2]):
                plan = self.plan(cls, nargs) if cls not in _KEYWORDS else None
                parents.append((cls, [None] * nargs, plan, 0))
            shape = self._shapes[key] = _Shape.of(parents, lets)
        return shape

    def _plan(self, cls: _Class, depth: int) -> _Plan | None:
        """Class ``cls`` flattened with its superclasses into steps that each set one
        field to a constant or to one template argument (:class:`_Plan`).
        None when an expression needs evaluating (the general path then runs)."""
        if depth > MAX_CLASS_DEPTH:
            return None
        index = {name: i for i, (name, _) in enumerate(cls.targs)}
        defaults = []
        for _, default in cls.targs:
            if default is None:
                defaults.append(UNSET_ARG)
            elif default.kind == "const":
                defaults.append(default.value)
            elif default.kind == "list" and not default.args:
                defaults.append(_EMPTY_LIST)
            else:
                return None
        known: set = set()

        def simple(expr):
            if expr.kind == "const":
                return False, expr.value
            if expr.kind == "id":
                name = expr.value
                if name in index:
                    return True, index[name]
                if name in known or name in self._field_names or name in self.defvars:
                    return None
                if name in self.records.defs:
                    return False, self.records.defs[name]
            return None

        steps, classes = [], []
        for pname, pargs, _, _ in cls.parents:
            parent = self.classes[pname]
            sub = self._plans.get(pname, False)
            if sub is False:
                sub = self._plans[pname] = self._plan(parent, depth + 1)
            if sub is None or len(pargs) > len(sub.defaults):
                return None
            pdefaults, psteps, pclasses = sub.defaults, sub.steps, sub.classes
            mapped = []
            for j in range(len(pdefaults)):
                if j < len(pargs):
                    got = simple(pargs[j])
                    if got is None:
                        return None
                    mapped.append(got)
                elif pdefaults[j] is UNSET_ARG or pdefaults[j] is _EMPTY_LIST:
                    return None
                else:
                    mapped.append((False, pdefaults[j]))
            for name, is_arg, value in psteps:
                steps.append((name, *mapped[value]) if is_arg else (name, False, value))
                known.add(name)
            classes += [c for c in pclasses if c not in classes]
        for name, value in cls.lets:
            steps.append((name, False, value))
            known.add(name)
        for kind, name, expr, _, _ in cls.body:
            if kind == "let" and name not in known:
                return None
            got = (False, UNSET) if expr is None else simple(expr)
            if got is None:
                return None
            steps.append((name, *got))
            known.add(name)
        if cls.name not in classes:
            classes.append(cls.name)
        needed = max((i + 1 for i, d in enumerate(defaults) if d is UNSET_ARG), default=0)
        constants: dict = {}
        arguments: dict = {}
        for name, is_arg, value in steps:   # the last step that sets a field is its value
            (arguments if is_arg else constants)[name] = value
            (constants if is_arg else arguments).pop(name, None)
        return _Plan(defaults, steps, classes, needed, constants, list(arguments.items()))

    def anonymous(self, cls: _Class, args: list, src: _Source, pos: int) -> Record:
        """``DiagGroup<"x">`` in a value: a new anonymous record, as TableGen makes one."""
        self._anon += 1
        rec = Record(f"anonymous_{self._anon}", src.path, src.line(pos), anonymous=True)
        self.instantiate(cls, args, rec, src, pos)
        self.records.anonymous.append(rec)
        return rec


# ----------------------------------------------------------------- expressions

class _Expr:
    __slots__ = ("kind", "value", "args", "src", "pos")

    def __init__(self, kind: str, value, src: _Source, pos: int, args: list | None = None):
        self.kind, self.value, self.src, self.pos, self.args = kind, value, src, pos, args

    def eval(self, reader: Reader, env: dict, rec: Record | None):
        kind = self.kind
        if kind == "const":
            return self.value
        if kind == "id":
            name = self.value
            if name in env:
                return env[name]
            if rec is not None and name in rec.fields:
                return rec.fields[name]
            if name in reader.defvars:
                return reader.defvars[name]
            found = reader.records.defs.get(name)
            if found is None:
                raise self.src.fail(self.pos, f"unknown name {name!r} (not defined before this use)")
            return found
        if kind == "list":
            return [a.eval(reader, env, rec) for a in self.args]
        if kind == "inst":
            cls = reader.classes[self.value]
            values = [a.eval(reader, env, rec) for a in self.args]
            return reader.anonymous(cls, values, self.src, self.pos)
        if kind == "field":
            base = self.args[0].eval(reader, env, rec)
            if not isinstance(base, Record) or self.value not in base.fields:
                raise self.src.fail(self.pos, f"{base!r} has no field {self.value}")
            return base.fields[self.value]
        if kind == "paste":
            left, right = (a.eval(reader, env, rec) for a in self.args)
            return _text(left, self.src, self.pos) + _text(right, self.src, self.pos)
        if kind == "bang":
            return self._bang(reader, env, rec)
        raise self.src.fail(self.pos, f"unknown TableGen construct: {kind}")  # pragma: no cover


    def _bang(self, reader: Reader, env: dict, rec: Record | None):
        op, cast = self.value
        if op == "!if":   # only the branch taken is evaluated
            if len(self.args) != 3:
                raise self.src.fail(self.pos, "!if takes three operands")
            cond = self.args[0].eval(reader, env, rec)
            return self.args[1 if cond else 2].eval(reader, env, rec)
        values = [a.eval(reader, env, rec) for a in self.args]
        if op == "!strconcat":
            return "".join(_text(v, self.src, self.pos) for v in values)
        if op in ("!eq", "!ne"):
            if len(values) != 2:
                raise self.src.fail(self.pos, f"{op} takes two operands")
            same = values[0] == values[1]
            return int(same if op == "!eq" else not same)
        if op == "!cast":
            if len(values) != 1:
                raise self.src.fail(self.pos, "!cast takes one operand")
            value = values[0]
            if cast == "string":
                return _text(value, self.src, self.pos)
            if isinstance(value, str):
                found = reader.records.defs.get(value)
                if found is None or (cast in reader.classes and not found.isa(cast)):
                    raise self.src.fail(self.pos, f"!cast<{cast}>: no def {value!r} of that class")
                return found
            return value
        raise self.src.fail(self.pos, f"unknown TableGen construct: the operator {op}")  # pragma: no cover


def _text(value, src: _Source, pos: int) -> str:
    """A value as ``#`` and ``!strconcat`` join it: a string, or an int's digits."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    raise src.fail(pos, f"cannot join {value!r} as text")


_BANG = {"!strconcat", "!if", "!eq", "!ne", "!cast"}
#: end-of-file tokens after the last one (a lookahead of two never runs off the list)
_EOF_PAD = 3


# ----------------------------------------------------------------- parser

class _Parser:
    def __init__(self, reader: Reader, src: _Source):
        self.r = reader
        self.src = src
        self.toks = src.tokens
        self.i = 0
        self.defining = ""
        self.names_name = False
        #: template arguments in scope (a multiclass's, and NAME, while a defm expands it)
        self.env: dict = {}
        #: read the lexer's simple defs by pattern (off where one is read token by token)
        self.by_pattern = True

    # tokens
    def peek(self, k: int = 0) -> tuple[str, str, int]:
        return self.toks[self.i + k]

    def next(self) -> tuple[str, str, int]:
        tok = self.toks[self.i]
        if tok[0] != "eof":
            self.i += 1
        return tok

    def fail(self, tok, message: str) -> ParseError:
        return self.src.fail(tok[2], message)

    def expect(self, text: str) -> tuple[str, str, int]:
        tok = self.next()
        if tok[1] != text or tok[0] in ("str", "code"):
            shown = tok[1] if tok[0] != "eof" else "end of file"
            raise self.fail(tok, f"expected {text!r}, found {shown[:30]!r}")
        return tok

    def ident(self, what: str) -> tuple[str, str, int]:
        tok = self.next()
        if tok[0] != "id" or tok[1] in _KEYWORDS:
            raise self.fail(tok, f"expected {what}, found {tok[1][:30]!r}")
        return tok

    def accept(self, text: str) -> bool:
        tok = self.toks[self.i]
        if tok[1] == text and tok[0] in ("punct", "id"):
            self.i += 1
            return True
        return False

    # statements
    def statements(self, lets: list, depth: int, top: bool) -> None:
        toks = self.toks
        simple_defs = self.src.simple_defs if self.by_pattern else {}
        while True:
            tok = toks[self.i]
            simple = simple_defs.get(tok[2]) if tok[1] == "def" else None
            if simple is not None and tok[0] == "id":   # the most common statement
                self.i += 1
                self.simple_def(tok, simple, lets)
                continue
            if tok[0] == "eof":
                if not top:
                    raise self.fail(tok, "unexpected end of file: a '{' of a let block is not closed")
                return
            if tok[1] == "}" and not top:
                return
            self.statement(lets, depth)

    def statement(self, lets: list, depth: int) -> None:
        tok = self.peek()
        word = tok[1] if tok[0] == "id" else None
        if word == "include":
            self.next()
            name = self.next()
            if name[0] != "str":
                raise self.fail(name, "include needs a file name in quotes")
            if depth + 1 > MAX_INCLUDE_DEPTH:
                raise self.fail(name, f"includes nest deeper than {MAX_INCLUDE_DEPTH}")
            self.r._file(_unescape(name[1][1:-1], self.src, name[2]), depth + 1, lets)
        elif word == "class":
            self.class_(lets)
        elif word == "def":
            self.def_(lets)
        elif word == "let":
            self.let_(lets, depth)
        elif word == "multiclass":
            self.multiclass_()
        elif word == "defm":
            self.defm_(lets)
        elif word == "foreach":
            self.foreach_(lets, depth)
        elif word == "defvar":
            self.next()
            name = self.ident("a name after defvar")
            self.expect("=")
            value = self.value().eval(self.r, {}, None)
            self.expect(";")
            if name[1] in self.r.defvars:
                raise self.fail(name, f"defvar {name[1]} is already defined")
            self.r.defvars[name[1]] = value
        elif tok[1] == ";" and tok[0] == "punct":
            self.next()
        else:
            shown = tok[1][:30] if tok[0] != "eof" else "end of file"
            raise self.fail(tok, f"unknown TableGen construct {shown!r} (this reader knows "
                                 "include, class, def, let, defvar, multiclass, defm and foreach)")

    def let_(self, lets: list, depth: int) -> None:
        self.next()
        items = []
        while True:
            name = self.ident("a field name after let")
            if self.peek()[1] == "{":
                raise self.fail(self.peek(), "unknown TableGen construct: let of a bit range")
            self.expect("=")
            items.append((name[1], self.value().eval(self.r, self.env, None)))
            self.r._field_names.add(name[1])
            if not self.accept(","):
                break
        self.expect("in")
        inner = lets + items
        if self.accept("{"):
            self.statements(inner, depth, top=False)
            self.expect("}")
        else:
            self.statement(inner, depth)

    def foreach_(self, lets: list, depth: int) -> None:
        """``foreach v = [a, b] in { … }``: the body read once per value, ``v`` bound."""
        self.next()
        var = self.ident("a variable name after foreach")
        self.expect("=")
        values = self.value().eval(self.r, self.env, None)
        if not isinstance(values, list):
            raise self.fail(var, "foreach needs a list of values")
        self.expect("in")
        outer, start, end = self.env, self.i, None
        if not values:   # nothing to define: step over the body
            if not self.accept("{"):
                raise self.fail(var, "unknown TableGen construct: foreach over an empty list "
                                     "without a braced body")
            self.skip_block(var, "the foreach")
            return
        for value in values:
            self.i = start
            self.env = {**outer, var[1]: value}
            if self.accept("{"):
                self.statements(lets, depth, top=False)
                self.expect("}")
            else:
                self.statement(lets, depth)
            end = self.i
        self.env = outer
        self.i = end

    def class_(self, lets: list) -> None:
        start = self.next()
        name = self.ident("a class name")
        if name[1] in self.r.classes:
            raise self.fail(name, f"class {name[1]} is already defined")
        self.defining = name[1]   # a class may name itself in its arguments' types
        targs = self.template_args()
        parents = self.parents()
        body = self.body()
        self.r._field_names.update(item[1] for item in body)
        self.r.classes[name[1]] = _Class(name[1], targs, parents, list(lets), body,
                                         self.src.path, self.src.line(start[2]))

    def template_args(self) -> list:
        """A class's or multiclass's template arguments ``<type name = default, …>``, if
        the next token opens them: [(name, default expression or None)]."""
        targs = []
        if self.accept("<"):
            while True:
                self.type_()
                arg = self.ident("a template argument name")
                default = self.value() if self.accept("=") else None
                targs.append((arg[1], default))
                if not self.accept(","):
                    break
            self.expect(">")
        return targs

    def skip_block(self, tok, where: str) -> None:
        """Step over the tokens of a braced block whose ``{`` was just read, through its
        matching ``}``; ``tok`` and ``where`` say where an end of file inside it is."""
        depth = 1
        while depth:
            inner = self.next()
            if inner[0] == "eof":
                raise self.fail(tok, f"unexpected end of file in {where}")
            if inner[0] == "punct":
                depth += {"{": 1, "}": -1}.get(inner[1], 0)

    def def_(self, lets: list) -> None:
        start = self.next()
        simple = self.src.simple_defs.get(start[2]) if self.by_pattern else None
        if simple is not None:
            self.simple_def(start, simple, lets)
            return
        tok = self.peek()
        if tok[0] in ("id", "num") and tok[1] not in _KEYWORDS:
            name, anonymous = self.def_name(), False
            if "NAME" in self.env and not self.names_name:
                name = self.env["NAME"] + name   # a multiclass's def names its defm
        else:
            self.r._anon += 1
            name, anonymous = f"anonymous_{self.r._anon}", True
        if not anonymous and name in self.r.records.defs:
            raise self.fail(tok, f"def {name} is already defined")
        self.define(start, name, anonymous, self.parents(), lets, self.body)

    def define(self, start: tuple, name: str, anonymous: bool, parents: list, lets: list,
               body: Callable[[], list]) -> None:
        """Make the record of a def: its superclasses in order, then the ``let`` blocks
        around it, then its body (read by ``body()`` after the superclasses)."""
        rec = Record(name, self.src.path, self.src.line(start[2]), anonymous=anonymous)
        for pname, pargs, psrc, ppos in parents:
            values = [a.eval(self.r, self.env, rec) for a in pargs]
            self.r.instantiate(self.r.classes[pname], values, rec, psrc, ppos)
        self.complete(rec, start, lets, body())

    def complete(self, rec: Record, start: tuple, lets: list, body: list) -> None:
        """A def's record after its superclasses: the ``let`` blocks around it, its
        body; then it is defined."""
        fields = rec.fields
        for fname, value in lets:
            if fname not in fields:
                raise self.src.fail(start[2], f"let of {fname}, which def {rec.name} has no field of")
            fields[fname] = value
        for kind, fname, expr, isrc, ipos in body:
            if kind == "let" and fname not in fields:
                raise isrc.fail(ipos, f"let of {fname}, which def {rec.name} has no field of")
            fields[fname] = UNSET if expr is None else expr.eval(self.r, self.env, rec)
        if rec.anonymous:
            self.r.records.anonymous.append(rec)
        else:
            self.r.records.defs[rec.name] = rec

    def simple_def(self, start: tuple, m: re.Match, lets: list) -> None:
        """A def the lexer matched whole (:data:`_SIMPLE_DEF`): its superclasses read
        from its pieces (:meth:`simple_parents`); token by token after all where they
        are not what that reading takes for sure."""
        if m.group("cls") is not None and not self.env and self.common_def(start, m, lets):
            return
        name = m.group("name")
        parents = None if name in _KEYWORDS else self.simple_parents(m)
        if parents is None:
            sub = _Parser(self.r, self.src)
            sub.toks = self.src.lex(m.start("def"), m.end()) + [("eof", "", m.end())] * _EOF_PAD
            sub.env, sub.by_pattern = self.env, False
            sub.def_(lets)
            return
        if self.env:
            names_name = name == "NAME"
            if name in self.env:
                name = _text(self.env[name], self.src, m.start("name"))
            if "NAME" in self.env and not names_name:
                name = self.env["NAME"] + name
        if name in self.r.records.defs:
            raise self.src.fail(m.start("name"), f"def {name} is already defined")
        r, src = self.r, self.src
        shape = r.shape(parents, lets)
        if shape is not None:
            if self.anonymous_in:   # made in order, as below: nothing else makes one here
                for _, values, _, _ in parents:
                    for i, v in enumerate(values):
                        if type(v) is _Anonymous:
                            values[i] = r.anonymous(v.cls, v.args, src, v.pos)
            r.records.defs[name] = shape.record(name, src.path, src.line(start[2]),
                                                [values for _, values, _, _ in parents])
            return
        rec = Record(name, src.path, src.line(start[2]))
        for cls, values, plan, k in parents:
            if self.anonymous_in:
                for i, v in enumerate(values):
                    if type(v) is _Anonymous:
                        values[i] = r.anonymous(v.cls, v.args, src, v.pos)
            if plan is not None:
                r.apply(plan, values, rec)
            else:
                r.instantiate(r.classes[cls], values, rec, src, self.piece_at(k))
        if lets:
            self.complete(rec, start, lets, ())
        else:
            r.records.defs[name] = rec

    def common_def(self, start: tuple, m: re.Match, lets: list) -> bool:
        """A simple def of the common shape (a class given strings, then classes given a
        name or nothing: ``def err_x : Error<"text">;``, ``def warn_x : Warning<"…">,
        InGroup<G>, DefaultIgnore;``, nine in ten), made from its shape
        (:meth:`Reader.common_shape`); False where it is read as the other simple defs are."""
        name, cls, strs, tail = m.group("name", "cls", "strs", "tail")
        body = _strings(strs)
        r = self.r
        defs = r.records.defs
        if body is _GIVE_UP or name in defs or name in _KEYWORDS:
            return False
        key = [cls, 1]   # each class and its number of arguments, then the lets' id
        values = [[body]]
        if tail:
            for other, arg in _TAILS.findall(tail):
                if arg:
                    value = self.simple_name(arg)
                    if value is _GIVE_UP:
                        return False
                    key += (other, 1)
                    values.append([value])
                else:
                    key += (other, 0)
                    values.append([])
        key.append(id(lets))
        shape = r.common_shape(tuple(key), lets)
        if shape is None:
            return False
        src = self.src
        defs[name] = shape.record(name, src.path, src.line(start[2]), values)
        return True

    def simple_parents(self, m: re.Match) -> list | None:
        """The superclasses of a simple def as [(class, values, its plan or None, the
        index of its piece)], read from its pieces (:data:`_PIECE`) without defining
        anything; None where a piece is not for sure what it reads as token by token (a
        name that may be a field, a template argument or a defvar, an unknown class, an
        invalid escape)."""
        self.anonymous_in = False   # set where an argument is an anonymous instance
        plan_of = self.r.plan
        cls = m.group("cls")
        if cls is not None:   # the common shape: Warning<"text">, InGroup<G>, DefaultIgnore
            out = self.common_parents(m, cls)
            if out is not None:
                return out
        pieces = _PIECE.findall(self.src.text, m.start("parents"), m.end("parents"))
        pieces.append(";")   # after the last: a stop no value starts with
        self.pieces, self.pieces_at = pieces, m.start("parents")
        out = []
        i, n = 0, len(pieces) - 1
        classes = self.r.classes
        while i < n:
            cls, k = pieces[i], i
            if cls in _KEYWORDS or cls not in classes:
                return None
            values = []
            i += 1
            if pieces[i] == "<":
                values, i = self.simple_values(i + 1, ">")
                if values is _GIVE_UP:
                    return None
                i += 1
            out.append((cls, values, plan_of(cls, len(values)), k))
            i += 1   # the comma after it
        return out

    def common_parents(self, m: re.Match, cls: str) -> list | None:
        """The superclasses of a simple def of the common shape (a class given strings,
        then classes given a name or nothing), as :meth:`simple_parents` gives them; None
        where one is not a class with a plan, or a value not for sure what it reads as."""
        body = _strings(m.group("strs"))
        plan_of = self.r.plan
        plan = plan_of(cls, 1) if cls not in _KEYWORDS else None
        if body is _GIVE_UP or plan is None:
            return None
        out = [(cls, [body], plan, 0)]
        if m.start("tail") == m.end("tail"):
            return out
        for cls, arg in _TAILS.findall(m.string, m.start("tail"), m.end("tail")):
            values = [self.simple_name(arg)] if arg else []
            plan = plan_of(cls, len(values)) if cls not in _KEYWORDS else None
            if plan is None or _GIVE_UP in values:
                return None
            out.append((cls, values, plan, 0))
        return out

    def simple_name(self, piece: str):
        """What a bare name of a simple def reads as (a def, or ``true``/``false``), or
        _GIVE_UP where it may be something else."""
        r = self.r
        if piece in _KEYWORDS:
            return _GIVE_UP
        if piece in ("true", "false") and piece not in r.records.defs:
            return int(piece == "true")
        if piece in self.env or piece in r._field_names or piece in r.defvars:
            return _GIVE_UP
        return r.records.defs.get(piece, _GIVE_UP)

    def simple_value(self, i: int) -> tuple:
        """(the value of the pieces from ``pieces[i]`` on, where the next starts), as the
        expression read token by token evaluates; _GIVE_UP where it may not."""
        pieces = self.pieces
        piece = pieces[i]
        first = piece[0]
        if first == '"':
            if pieces[i + 1][0] != '"':
                body = piece[1:-1]
                return (body if "\\" not in body else _unescaped(body)), i + 1
            parts = []
            while pieces[i][0] == '"':
                parts.append(_unescaped(pieces[i][1:-1]))
                i += 1
            return (_GIVE_UP if _GIVE_UP in parts else "".join(parts)), i
        if first == "[":
            items, i = self.simple_values(i + 1, "]")
            return items, i + 1
        if first == "?":
            return UNSET, i + 1
        if first.isdigit():
            return int(piece), i + 1
        if pieces[i + 1] == "<":   # DiagGroup<"x">: strings, names and numbers
            args, j = self.simple_values(i + 2, ">")
            if args is _GIVE_UP or piece in _KEYWORDS or piece not in self.r.classes:
                return _GIVE_UP, j
            self.anonymous_in = True
            return _Anonymous(self.r.classes[piece], args, self.piece_at(i)), j + 1
        return self.simple_name(piece), i + 1

    def simple_values(self, i: int, close: str) -> tuple:
        """(the values of the pieces from ``pieces[i]`` up to the ``close`` that ends
        them, ``>`` of a class's arguments or ``]`` of a list, where that close is);
        _GIVE_UP for the values where one may not read as :meth:`simple_value` says."""
        pieces = self.pieces
        values = []
        while pieces[i] != close:
            piece = pieces[i]
            if piece[0] == '"' and pieces[i + 1][0] != '"' and "\\" not in piece:
                values.append(piece[1:-1])   # the most common: one plain string
                i += 1
            else:
                value, i = self.simple_value(i)
                if value is _GIVE_UP:
                    return _GIVE_UP, i
                values.append(value)
            if pieces[i] == ",":
                i += 1
        return values, i

    def piece_at(self, k: int) -> int:
        """Where piece ``k`` of the simple def being read starts in the text (only
        blanks lie between pieces)."""
        text, pos = self.src.text, self.pieces_at
        for piece in self.pieces[:k + 1]:
            pos = text.find(piece, pos) + len(piece)
        return pos - len(self.pieces[k])

    def def_name(self) -> str:
        """A def's name, pieces joined by ``#``: a piece naming a template argument (or
        ``NAME``) is its value, any other its own text."""
        parts = []
        self.names_name = False
        while True:
            tok = self.next()
            if tok[0] not in ("id", "num"):
                raise self.fail(tok, f"expected a def name, found {tok[1][:30]!r}")
            if tok[1] in self.env:
                self.names_name |= tok[1] == "NAME"
                parts.append(_text(self.env[tok[1]], self.src, tok[2]))
            else:
                parts.append(tok[1])
            if not (self.peek()[1] == "#" and self.peek()[0] == "punct"):
                return "".join(parts)
            self.next()

    def multiclass_(self) -> None:
        """Remember a multiclass: its arguments, parents and the tokens of its body,
        read again (as defs) by each ``defm``."""
        self.next()
        name = self.ident("a multiclass name")
        if name[1] in self.r.multiclasses:
            raise self.fail(name, f"multiclass {name[1]} is already defined")
        targs = self.template_args()
        parents = []
        if self.accept(":"):
            while True:
                tok = self.ident("a multiclass name")
                if tok[1] not in self.r.multiclasses:
                    raise self.fail(tok, f"unknown multiclass {tok[1]!r}")
                parents.append((tok[1], self.args() if self.peek()[1] == "<" else []))
                if not self.accept(","):
                    break
        if self.accept(";"):
            start = end = self.i
        else:
            self.expect("{")
            start = self.i
            self.skip_block(name, "the multiclass")
            end = self.i - 1
        self.r.multiclasses[name[1]] = (targs, parents, self.src, start, end)

    def defm_(self, lets: list) -> None:
        self.next()
        name = self.def_name()
        self.expect(":")
        while True:
            tok = self.ident("a multiclass name")
            if tok[1] not in self.r.multiclasses:
                raise self.fail(tok, f"unknown multiclass {tok[1]!r}")
            args = [a.eval(self.r, self.env, None) for a in
                    (self.args() if self.peek()[1] == "<" else [])]
            self.expand(tok[1], args, name, lets, tok, 0)
            if not self.accept(","):
                break
        self.expect(";")

    def expand(self, multi: str, args: list, name: str, lets: list, tok, depth: int) -> None:
        """The defs of multiclass ``multi`` (and its parents') for ``defm name``."""
        if depth > MAX_CLASS_DEPTH:
            raise self.fail(tok, f"multiclasses nest deeper than {MAX_CLASS_DEPTH} (a cycle?)")
        targs, parents, src, start, end = self.r.multiclasses[multi]
        if len(args) > len(targs):
            raise self.fail(tok, f"multiclass {multi} takes {len(targs)} template arguments, "
                                 f"given {len(args)}")
        env = {"NAME": name}
        for i, (arg, default) in enumerate(targs):
            if i < len(args):
                env[arg] = args[i]
            elif default is not None:
                env[arg] = default.eval(self.r, env, None)
            else:
                raise self.fail(tok, f"multiclass {multi}: no value for template argument {arg}")
        for pname, pargs in parents:
            values = [a.eval(self.r, env, None) for a in pargs]
            self.expand(pname, values, name, lets, tok, depth + 1)
        inner = _Parser(self.r, src)
        inner.toks = src.tokens[:end] + [("eof", "", len(src.text))] * _EOF_PAD
        inner.i = start
        inner.env = env
        while inner.i < end:
            word = inner.peek()
            if word[1] == "def" and word[0] == "id":
                inner.def_(lets)
            elif word[1] == ";" and word[0] == "punct":
                inner.next()
            else:
                raise inner.fail(word, f"unknown TableGen construct {word[1][:30]!r} in a "
                                       "multiclass (this reader knows def there)")

    def parents(self) -> list:
        out = []
        if not self.accept(":"):
            return out
        while True:
            tok = self.ident("a class name")
            if tok[1] not in self.r.classes:
                raise self.fail(tok, f"unknown class {tok[1]!r}")
            args = self.args() if self.peek()[1] == "<" else []
            out.append((tok[1], args, self.src, tok[2]))
            if not self.accept(","):
                return out

    def args(self) -> list:
        self.expect("<")
        out = []
        if self.accept(">"):
            return out
        while True:
            out.append(self.value())
            if self.accept(">"):
                return out
            self.expect(",")

    def body(self) -> list:
        if self.accept(";"):
            return []
        self.expect("{")
        items = []
        while not self.accept("}"):
            tok = self.peek()
            if tok[0] == "eof":
                raise self.fail(tok, "unexpected end of file in a record body")
            if tok[1] == "let" and tok[0] == "id":
                self.next()
                name = self.ident("a field name after let")
                if self.peek()[1] == "{":
                    raise self.fail(self.peek(), "unknown TableGen construct: let of a bit range")
                self.expect("=")
                items.append(("let", name[1], self.value(), self.src, tok[2]))
            else:
                self.accept("field")
                self.type_()
                name = self.ident("a field name")
                expr = self.value() if self.accept("=") else None
                items.append(("field", name[1], expr, self.src, name[2]))
            self.expect(";")
        return items

    def type_(self) -> None:
        tok = self.next()
        if tok[0] != "id":
            raise self.fail(tok, f"expected a type, found {tok[1][:30]!r}")
        if tok[1] in ("string", "code", "int", "bit", "dag"):
            return
        if tok[1] == "bits":
            self.expect("<")
            if self.next()[0] != "num":
                raise self.fail(tok, "bits<n> needs a number")
            self.expect(">")
            return
        if tok[1] == "list":
            self.expect("<")
            self.type_()
            self.expect(">")
            return
        if tok[1] in self.r.classes or tok[1] == self.defining:
            return
        raise self.fail(tok, f"unknown type {tok[1][:30]!r}")

    # values
    def value(self) -> _Expr:
        left = self.simple()
        while self.peek()[1] == "." and self.peek()[0] == "punct":
            tok = self.next()
            name = self.ident("a field name after '.'")
            left = _Expr("field", name[1], self.src, tok[2], [left])
        while self.peek()[1] == "#" and self.peek()[0] == "punct":
            tok = self.next()
            right = self.simple()
            left = _Expr("paste", None, self.src, tok[2], [left, right])
        return left

    def simple(self) -> _Expr:
        tok = self.next()
        kind, text, pos = tok
        src = self.src
        if kind == "str":
            parts = [_unescape(text[1:-1], src, pos)]
            while self.peek()[0] == "str":
                nxt = self.next()
                parts.append(_unescape(nxt[1][1:-1], src, nxt[2]))
            return _Expr("const", "".join(parts), src, pos)
        if kind == "code":
            return _Expr("const", text, src, pos)
        if kind == "num":
            return _Expr("const", int(text, 0) if not text.startswith(("0b", "0x")) else
                         int(text[2:], 2 if text[1] == "b" else 16), src, pos)
        if kind == "punct" and text == "?":
            return _Expr("const", UNSET, src, pos)
        if kind == "punct" and text == "[":
            items = []
            while not self.accept("]"):   # a comma may end the list
                items.append(self.value())
                if not self.accept(","):
                    self.expect("]")
                    break
            if self.peek()[1] == "<":   # [a, b]<Type>
                self.next()
                self.type_()
                self.expect(">")
            return _Expr("list", None, src, pos, items)
        if kind == "id" and text not in _KEYWORDS:
            if text in ("true", "false") and text not in self.r.records.defs:
                return _Expr("const", int(text == "true"), src, pos)
            if self.peek()[1] == "<" and self.peek()[0] == "punct":
                if text not in self.r.classes:
                    raise self.fail(tok, f"unknown class {text!r}")
                return _Expr("inst", text, src, pos, self.args())
            return _Expr("id", text, src, pos)
        if kind == "bang" and text in _BANG:
            cast = None
            if text == "!cast":
                self.expect("<")
                cast = self.peek()[1]
                self.type_()
                self.expect(">")
            self.expect("(")
            operands = [self.value()]
            while self.accept(","):
                operands.append(self.value())
            self.expect(")")
            return _Expr("bang", (text, cast), src, pos, operands)
        if kind == "bang":
            raise self.fail(tok, f"unknown TableGen construct: the operator {text}")
        shown = text[:30] if kind != "eof" else "end of file"
        raise self.fail(tok, f"unknown TableGen construct: expected a value, found {shown!r}")


def read(root: str, read_text: Callable[[str], str]) -> Records:
    """Every record of ``root`` and what it includes (``read_text(path)`` reads one file)."""
    return Reader(read_text).read(root)
