"""``--format meson``: a ``meson.build`` for a subdirectory of the project that sets
``warnscope_c_args`` and ``warnscope_cpp_args`` and nothing else::

    subdir('warnscope')
    add_project_arguments(warnscope_c_args, language: 'c')
    add_project_arguments(warnscope_cpp_args, language: 'cpp')

Each list is built from ``meson.get_compiler(lang).get_id()`` (``gcc``, ``clang``)
and, where a listed version lacks a flag, ``.version().version_compare('>=12')``.
``meson.get_compiler()`` fails for a language the project did not enable (and
``add_languages()`` would enable it), so the file reads only the languages of
``warnscope_languages`` when the project sets it before ``subdir()`` (``['c']`` for a
C-only project), else those the export has flags for; the list of a language not read
stays empty. The lists are for the host machine's compilers: in a native build the same
compilers build ``native: true`` targets, and ``add_project_arguments(..., native: true)``
gives the lists to those as well (a cross build's build-machine compiler is another one).
"""
from __future__ import annotations

from analyzer.advise.export.plan import Block, Guard, Plan, Range, header_lines

#: language -> Meson's name of it
LANGUAGE = {"c": "c", "c++": "cpp"}


def _quote(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _range(compiler: str, r: Range) -> list[str]:
    version = f"{compiler}.version()"
    out = []
    if r.lo is not None:
        out.append(f"{version}.version_compare('>={r.lo}')")
    if r.hi is not None:
        out.append(f"{version}.version_compare('<{r.hi}')")
    return out


def _all(items: list[str]) -> str:
    return items[0] if len(items) == 1 else "(" + " and ".join(items) + ")"


def _any(items: list[str]) -> str:
    return items[0] if len(items) == 1 else "(" + " or ".join(items) + ")"


def _guard(compiler: str, g: Guard) -> str:
    parts = [f"{compiler}.get_id() == '{g.family}'"]
    if not g.any_version:
        parts.append(_any([_all(_range(compiler, r)) for r in g.ranges]))
    return _all(parts)


def condition(lang: str, block: Block) -> str:
    """The Meson condition that holds for the compiles getting ``block``."""
    compiler = f"meson.get_compiler('{lang}')"
    return " or ".join(_guard(compiler, g) for g in block.guards)


def render(p: Plan) -> str:
    lines = ["# " + line for line in header_lines(p, "warnscope_c_args and warnscope_cpp_args")]
    default = ", ".join(_quote(LANGUAGE[lang]) for lang in p.languages())
    lines += [
        "#",
        "# Use: subdir() this directory (after project()), then",
        "#   add_project_arguments(warnscope_c_args, language: 'c')",
        "#   add_project_arguments(warnscope_cpp_args, language: 'cpp')",
        "# or c_args/cpp_args of a target. Sets those two lists and nothing else. It reads",
        "# the compilers of the languages in warnscope_languages when the project sets it",
        f"# before subdir() (['c'] for a C-only project), else [{default}].",
        "warnscope_c_args = []",
        "warnscope_cpp_args = []",
    ]
    for language in p.languages():
        lang = LANGUAGE[language]
        lines.append(f"if {_quote(lang)} in get_variable('warnscope_languages', [{default}])")
        for block in p.blocks[language]:
            lines.append(f"  if {condition(lang, block)}")
            lines.append(f"    warnscope_{lang}_args += [{', '.join(_quote(f) for f in block.flags)}]")
            lines.append("  endif")
        lines.append("endif")
    return "\n".join(lines) + "\n"
