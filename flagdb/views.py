"""Views of one compiler version: its flags, one flag in detail, what a flag turns on
as a tree, the "all warnings" set, the diagnostics a flag controls.

Each function takes loaded :class:`~flagdb.model.CompilerData` (or an
:class:`~flagdb.closure.Index` over it) and returns the dataclasses of
:mod:`flagdb.results`, which the CLI prints as JSON or renders as text, so the tests
call exactly what users run.
"""
from __future__ import annotations

from flagdb.closure import (
    Index, closure, enabled_by_group, typed_child, typed_on, typed_parent, typed_value,
)
from flagdb.model import CompilerData, Edge, Flag
from flagdb.results import EdgeRef, FlagInfo, MessageInfo, ShowResult, TreeNode, TurnedOn, as_typed
from warnscope.errors import BadInput
from warnscope.profiles import profile


def find(index: Index, typed: str) -> tuple[Flag, str | None]:
    """:meth:`Index.resolve`, or the error a user sees, with the closest name if any."""
    hit = index.resolve(typed)
    if hit is None:
        hint = index.suggest(typed)
        raise BadInput(f"{index.data.compiler} has no warning flag {typed}"
                             + (f" (did you mean {hint}?)" if hint else ""))
    return hit


def flag_info(index: Index, flag: Flag, lang: str | None = None) -> FlagInfo:
    """One flag with its edges both ways, as ``flags list --json`` prints it."""
    enables: list[EdgeRef] = []
    for e in index.by_parent.get(flag.name, []):
        if index.edge_applies(e, lang):
            value = typed_value(index, e.child, e.value)
            _add(enables, EdgeRef(name=e.child, typed=as_typed(e.child, value), value=value,
                                  requires=list(e.requires), from_level=e.parent_min,
                                  languages=list(e.languages)))
    enabled_by: list[EdgeRef] = []
    for e in index.by_child.get(flag.name, []):
        if index.edge_applies(e, lang):
            _add(enabled_by, EdgeRef(name=e.parent, typed=typed_parent(e),
                                     value=typed_value(index, e.child, e.value),
                                     requires=list(e.requires), from_level=e.parent_min,
                                     languages=list(e.languages)))
    return FlagInfo(
        name=flag.name, kind=flag.kind, alias_of=flag.alias_of, enables=enables,
        enabled_by=enabled_by, default=flag.default, languages=list(flag.languages),
        takes_argument=flag.takes_argument, argument=flag.argument, ignored=flag.ignored,
        removed=flag.removed, c_family=flag.c_family, description=flag.description,
    )


def _add(refs: list[EdgeRef], ref: EdgeRef) -> None:
    """Append ``ref`` unless an edge to the same flag with the same effect is there
    (the same edge from several records, or for several languages: languages merged)."""
    for other in refs:
        if (other.name, other.typed, other.value, other.requires, other.from_level) == (
                ref.name, ref.typed, ref.value, ref.requires, ref.from_level):
            if other.languages and ref.languages:
                other.languages = sorted(set(other.languages) | set(ref.languages))
            else:
                other.languages = []
            return
    refs.append(ref)


def list_flags(data: CompilerData, include_all: bool = False, lang: str | None = None
               ) -> list[FlagInfo]:
    index = Index(data)
    return [
        flag_info(index, f, lang)
        for f in sorted(data.flags, key=lambda f: f.name)
        if include_all or index.applies(f, lang)
    ]


def show(data: CompilerData, typed: str, lang: str | None = None) -> ShowResult:
    """One flag in detail; a level form (``-Wformat=2``) shows what that level turns on."""
    index = Index(data)
    flag, level = find(index, typed)
    info = flag_info(index, flag, lang)
    return ShowResult(
        **vars(info),
        compiler=data.compiler, typed=typed, level=level, origin=flag.origin,
        turns_on=[TurnedOn(name=n, value=typed_value(index, n, v), typed=typed_on(index, n, v))
                  for n, v in sorted(enabled_by_group(index, typed, lang).items())],
        messages=[m for m in data.messages if m.flag == flag.name],
    )


def tree(data: CompilerData, typed: str, lang: str | None = None) -> TreeNode:
    """The nested view of what a flag turns on.

    A negative form (``-Wno-extra``) turns nothing on. A GCC alias has no edges of its
    own: its one child is its target as it spells it (``-Wformat`` → ``-Wformat=1``),
    the shape clang's alias groups have.
    """
    return tree_of(Index(data), typed, lang)


def tree_of(index: Index, typed: str, lang: str | None = None) -> TreeNode:
    """:func:`tree` over an index already built (``export`` draws a tree per flag)."""
    flag, level = find(index, typed)

    def node(name: str, level: str | None, path: tuple[str, ...], label: str,
             edge: Edge | None = None) -> TreeNode:
        f = index.flags.get(name)
        out = TreeNode(name=name, typed=label,
                       value=typed_value(index, name, level) if level is not None else None,
                       requires=list(edge.requires) if edge else [],
                       default=f.default if f is not None else None,
                       ignored=f.ignored if f is not None else False)
        if f is not None and index.data.members_in_code(name):
            out.members_unknown = True
        if name in path:
            out.cycle = True
            return out
        if level == "0":
            return out
        # one edge per language record (common.opt's EnabledBy and c.opt's LangEnabledBy
        # of -Wunused-variable) is still one child: listed once, on in the union of theirs
        edges: dict[tuple, list[Edge]] = {}
        for e in sorted(index.children(name, level, lang), key=lambda e: e.child):
            edges.setdefault((e.child, e.value, tuple(e.requires)), []).append(e)
        for (child, value, _), mine in edges.items():
            member = node(child, value, path + (name,), typed_child(mine[0], index), mine[0])
            member.languages = [] if lang else member_languages(index, child, mine)
            out.children.append(member)
        return out

    if level != "0" and flag.alias_of and not index.by_parent.get(flag.name):
        target, target_level = index.target(typed)
        root = node(flag.name, "0", (), typed)
        root.value = level
        if target is not flag:
            spelled = target.name + target_level if target.name.endswith("=") else target.name
            root.children.append(node(target.name, target_level, (flag.name,), spelled))
        return root
    label = flag.name + level if (level is not None and flag.name.endswith("=")) else flag.name
    return node(flag.name, level, (), typed if level == "0" else label)


#: the languages a C/C++ user builds, in the order they are listed
C_FAMILY = ("C", "C++", "ObjC", "ObjC++")


def member_languages(index: Index, child: str, edges: list[Edge]) -> list[str]:
    """The C-family languages in which ``edges`` turn ``child`` on (an edge without
    languages: the child's own), or [] where that is all of them."""
    flag = index.flags.get(child)
    own = set(flag.languages) if flag is not None and flag.languages else set(C_FAMILY)
    on = set()
    for e in edges:
        on |= set(e.languages) if e.languages else own
    if not own & set(C_FAMILY):  # a flag of no C-family language (clang's have none stored)
        return []
    family = [lang for lang in C_FAMILY if lang in on]
    return [] if len(family) == len(C_FAMILY) else family


def alias_map(index: Index) -> dict[str, list[str]]:
    """Flag name -> the aliases that spell it (``-Wformat=`` -> ``[-Wformat]``), sorted."""
    out: dict[str, list[str]] = {}
    for f in index.data.flags:
        if f.alias_of:
            hit = index.resolve(f.alias_of)
            if hit is not None:
                out.setdefault(hit[0].name, []).append(f.name)
    return {name: sorted(spellers) for name, spellers in out.items()}


def everything(data: CompilerData, lang: str | None) -> list[str]:
    """The "all warnings" set: clang's ``-Weverything``; for GCC every flag that does
    something for the language and takes no argument, level options at their top level."""
    if profile(data.family).clang:
        return ["-Weverything"]
    index = Index(data)
    out = []
    for f in sorted(data.flags, key=lambda f: f.name):
        if not f.c_family or not index.applies(f, lang) or f.ignored or f.removed or f.alias_of:
            continue
        if f.name.startswith(("-Wno-", "-Werror")):
            # GCC 4.4's -Werror-implicit-function-declaration (no Alias() yet) is a
            # warning option that makes its warning an error: not a warning to turn on
            continue
        if f.takes_argument:
            rng = f.gcc.range
            if not rng or not f.name.endswith("="):
                continue
            top = rng[1]
            base = f.name[:-1]
            if base in index.flags and not index.flags[base].takes_argument and \
                    not index.flags[base].alias_of:
                continue  # the plain switch is listed already
            out.append(f"{f.name}{top}")
        else:
            out.append(f.name)
    return out


def messages(data: CompilerData, typed: str) -> list[MessageInfo]:
    """Diagnostics a flag controls, with the flag (below it) that owns each."""
    index = Index(data)
    flag, _ = find(index, typed)
    target = index.target(flag.name)[0]  # an alias group controls its target's diagnostics
    names = {flag.name, target.name} | set(closure(index, [target.name]))
    return [m for m in data.messages if m.flag in names]
