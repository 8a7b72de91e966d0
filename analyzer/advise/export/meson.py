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
Where a family is listed for several targets, a guard names the machine too:
``host_machine.cpu_family()`` and ``.system()`` (the host machine is what a cross file's
``[host_machine]`` says: the target the project's compilers build for).
"""
from __future__ import annotations

from analyzer.advise.export.plan import FAMILIES, Block, Guard, Plan, Range, family_targets, header_lines
from warnscope.errors import BadInput
from warnscope.profiles import profile

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


#: a triple's architecture -> Meson's CPU family where the two names differ
#: (Meson's reference table of CPU families)
CPU_FAMILY = {"i386": "x86", "i486": "x86", "i586": "x86", "i686": "x86", "armeb": "arm",
              "armv7": "arm", "armv7l": "arm", "armv6": "arm", "aarch64_be": "aarch64",
              "powerpc": "ppc", "powerpc64": "ppc64", "powerpc64le": "ppc64", "mipsel": "mips",
              "mips64el": "mips64", "riscv32": "riscv32", "sparcv9": "sparc64"}


def machine(triple: str) -> tuple[str, str]:
    """``triple`` as Meson names the machine: (``cpu_family()``, ``system()``):
    ``aarch64-linux-gnu`` -> (aarch64, linux); a target without an operating system
    (``arm-none-eabi``) -> (arm, '') (Meson's system of such a cross file is the user's)."""
    arch = triple.split("-", 1)[0]
    return CPU_FAMILY.get(arch, arch), "linux" if "-linux" in triple else ""


def builds_for(triple: str) -> str:
    """The Meson condition that holds when the host machine (the one the project's
    compilers build for: the target of a cross file) is ``triple``'s."""
    family, system = machine(triple)
    parts = [f"host_machine.cpu_family() == '{family}'"]
    if system:
        parts.append(f"host_machine.system() == '{system}'")
    return _all(parts)


def _target(g: Guard) -> list[str]:
    if g.target:
        return [builds_for(g.target)]
    if g.besides:
        either = _any([builds_for(t) for t in g.besides])
        return [f"not {either}" if either.startswith("(") else f"not ({either})"]
    return []


def _guard(compiler: str, g: Guard) -> str:
    parts = [f"{compiler}.get_id() == '{profile(g.family).meson_id}'", *_target(g)]
    if not g.any_version:
        parts.append(_any([_all(_range(compiler, r)) for r in g.ranges]))
    return _all(parts)


def check_machines(p: Plan) -> None:
    """Refuse two listed targets of one family that Meson sees as one machine
    (``arm-linux-gnueabi`` and ``arm-linux-gnueabihf``: both CPU family arm on linux)."""
    for family in FAMILIES:
        seen: dict[tuple[str, str], str] = {}
        for triple in family_targets(p.targets, family):
            if not triple:
                continue
            other = seen.setdefault(machine(triple), triple)
            if other != triple:
                raise BadInput(f"{family} for {other} and for {triple}: Meson's host_machine tells "
                               f"them apart by CPU family and system only (both {machine(triple)[0]})")


def condition(lang: str, block: Block) -> str:
    """The Meson condition that holds for the compiles getting ``block``."""
    compiler = f"meson.get_compiler('{lang}')"
    return " or ".join(_guard(compiler, g) for g in block.guards)


def render(p: Plan) -> str:
    check_machines(p)
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
