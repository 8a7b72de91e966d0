"""The generated code of a cell: objdump's text read into functions, normalised, stored.

A cell's binary is disassembled where it was built: inside the compile's own sandbox
run (:mod:`analyzer.ub.compile` runs :data:`SCRIPT`), by the objdump of the system the
compiler belongs to (the host's, or a Debian root's), because the binary is made from an
untrusted source and may hold any bytes. This module only reads the text that objdump
wrote, as untrusted text: every line and every function is capped, nothing in it is
executed or used as a path.

What is kept is the program's own code: every function symbol of ``.text`` except the
C runtime's start-up code (:data:`RUNTIME`), with the instructions inside the symbol's
size (the padding after it is dropped), demangled, each with its source line where the
debug line table gives one (the file name without its directory: the compile ran in a
scratch directory). Addresses and encodings are normalised so that equal code compares
equal across builds: an instruction is named by its offset in its function, a branch or
call by its target symbol (``main+0x9``, ``printf@plt``), and a ``%rip``-relative operand
by the symbol objdump names for it, not the displacement. A function of more than
:data:`MAX_INSNS` instructions keeps its first ones and says how many were cut.

:func:`dumps` and :func:`loads` are the stored form: a line-based text, identical for
identical code, which the store keeps once per content (compressed) however many cells
share it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

#: What the compile's sandbox runs after a successful compile (its first argument the
#: objdump of the compiler's target, the rest the compile): one objdump that prints
#: the section headers and the symbol table (the function after an empty one may be in
#: ``.fini``) and the disassembly with line numbers, demangled, without encodings. objdump
#: gets its own CPU-time and file-size limits, so a binary it cannot handle costs a missing
#: disassembly ('code unavailable'), never a failed compile; it reads no input, so CPU time
#: bounds it (the compile's own wall-clock limit holds as well). A compiler killed by a
#: signal kills the shell by the same signal, so the sandbox reports it as before.
SCRIPT = r"""
objdump=$1; shift
"$@" || { s=$?; [ "$s" -gt 128 ] && kill -"$((s - 128))" $$; exit "$s"; }
(
  ulimit -t 30 2>/dev/null; ulimit -f 65536 2>/dev/null
  exec "$objdump" -h -t -d -l -C -w --no-show-raw-insn a.out > a.dis 2> a.err
) < /dev/null
echo $? > a.status
exit 0
"""
#: Instructions kept per function; the rest are counted, not kept.
MAX_INSNS = 2000
#: Functions kept per binary (a C++ program instantiates many).
MAX_FUNCTIONS = 200
#: Bytes of objdump text read at all: a bigger disassembly is 'code unavailable'.
MAX_TEXT = 32 << 20
#: Characters kept of one instruction's text (an operand list, a demangled name).
MAX_LINE = 400
#: Start-up code the C runtime links into every program: not the program's own.
RUNTIME = frozenset({
    "_start", "_init", "_fini", "deregister_tm_clones", "register_tm_clones",
    "__do_global_dtors_aux", "frame_dummy", "__libc_csu_init", "__libc_csu_fini",
    "_dl_relocate_static_pie", "__x86.get_pc_thunk.bx", "__x86.get_pc_thunk.ax",
    "_GLOBAL__sub_I_main", "__cxx_global_var_init",
    # other targets' start-up code (crti on aarch64 and arm; riscv64's global pointer)
    "call_weak_fn", "load_gp",
})


class Unavailable(Exception):
    """Why a cell has no code: objdump failed, found no ``.text``, or wrote too much."""


@dataclass(frozen=True)
class Insn:
    """One instruction: its offset in the function, the normalised text (mnemonic and
    operands), the branch or call target by symbol (``main+0x9``; None for others), and
    the source location (``loop.c:14``; '' where the line table says nothing)."""

    offset: int
    mnemonic: str
    operands: str
    target: str | None = None
    line: str = ""

    @property
    def text(self) -> str:
        return f"{self.mnemonic} {self.operands}".strip()


@dataclass(frozen=True)
class Function:
    """One function of the program: its symbol size, its instructions (at most
    :data:`MAX_INSNS`; ``cut`` more were dropped), and for a function of no instructions
    the symbol that follows it in memory (``next``): where execution goes instead."""

    name: str
    size: int
    insns: list[Insn] = field(default_factory=list)
    cut: int = 0
    next: str = ""


@dataclass(frozen=True)
class Code:
    """The program's own functions of one binary, in address order."""

    functions: list[Function]

    def function(self, name: str) -> Function | None:
        return next((f for f in self.functions if f.name == name), None)


# ------------------------------------------------------------------ reading objdump

_SYMBOL = re.compile(r"^([0-9a-f]+) (.{7}) (\S+)\t([0-9a-f]+) +(.*)$")
_SECTION = re.compile(r"^\s*\d+ (\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s")
_LABEL = re.compile(r"^([0-9a-f]+) <(.*)>:$")
_INSN = re.compile(r"^\s*([0-9a-f]+):\t(.*)$")
_LOCATION = re.compile(r"^(/?[^\t]*?):(\d+)(?: \(discriminator \d+\))?$")
_DIRECT = re.compile(r"^([0-9a-f]+) <(.*)>$")
_COMMENT = re.compile(r"\s+# [0-9a-f]+ <(.*)>$")
_RIP = re.compile(r"-?0x[0-9a-f]+\(%rip\)")
_BRANCH = re.compile(r"^(j[a-z]+|call[a-z]*|loop[a-z]*|jmp[a-z]*|xbegin)$")


def parse(symbols: str, disassembly: str | None = None) -> Code:
    """The program's functions from objdump's ``-h -t`` text and its ``-d -l`` text (one
    text holding both, as :data:`SCRIPT` writes it, or two). Raises :class:`Unavailable`
    when there is no ``.text`` to read."""
    if disassembly is None:
        disassembly = symbols
    if len(symbols) + (0 if disassembly is symbols else len(disassembly)) > MAX_TEXT:
        raise Unavailable("disassembly larger than 32 MB")
    head, listing = _parts(symbols) if disassembly is symbols else (symbols, disassembly)
    syms = _symbols(head)
    text_funcs = sorted(((addr, size, name) for addr, size, name, sect in syms
                         if sect == ".text" and name not in RUNTIME), key=lambda s: (s[0], s[2]))
    if not any(sect == ".text" for _a, _s, _n, sect in syms) and "<" not in disassembly:
        raise Unavailable("no .text section with function symbols (stripped or empty binary)")
    listed = _disassembly(listing)
    functions: list[Function] = []
    for addr, size, name in text_funcs[:MAX_FUNCTIONS]:
        insns = [i for i in listed.get(addr, []) if i[0] - addr < size] if size else []
        kept = [_normalise(a - addr, text, line) for a, text, line in insns[:MAX_INSNS]]
        nxt = "" if insns else _after(addr, name, syms)
        functions.append(Function(name=_clean(name), size=size, insns=kept,
                                  cut=max(len(insns) - MAX_INSNS, 0), next=_clean(nxt)))
    return Code(functions=functions)


def _parts(text: str) -> tuple[str, str]:
    """One objdump text cut where its disassembly starts: the ``-h -t`` part (section
    headers and symbols; no line of it is a label, so none is an instruction of the
    listing) and the ``-d -l`` part (instructions, labels and locations; no line of it
    has the symbol table's tab-separated columns or a section header's shape). Each is
    read only by its own patterns, which found nothing in the other part anyway: the
    same result, with half the pattern tries of a cell (bench/bench_ub_phases.py). A text
    without a disassembly is both parts, as before."""
    cut = text.find("\nDisassembly of section ")
    if cut < 0:
        return text, text
    return text[:cut + 1], text[cut + 1:]


def _symbols(text: str) -> list[tuple[int, int, str, str]]:
    """(address, size, name, section) of every function symbol, and each section's start
    (as a pseudo-symbol named after the section) from the ``-h`` part."""
    found = []
    for line in text.splitlines():
        m = _SYMBOL.match(line)
        if m:
            addr, flags, sect, size, name = m.groups()
            if flags[6] == "F" and sect != "*UND*":
                name = name.strip()
                if name.startswith(".hidden "):
                    name = name[len(".hidden "):]
                found.append((int(addr, 16), int(size, 16), name[:MAX_LINE], sect))
            continue
        m = _SECTION.match(line)
        if m and m.group(1).startswith("."):
            found.append((int(m.group(3), 16), 0, m.group(1), "section"))
    return found


def _after(addr: int, name: str, syms: list[tuple[int, int, str, str]]) -> str:
    """What lies at or after ``addr`` once an empty function ``name`` is passed: the
    first function with code there, else the section that starts there."""
    later = sorted((a, s == 0, n) for a, s, n, sect in syms
                   if a >= addr and n != name and sect != "section"
                   and not (a == addr and s == 0 and sect == ".text"))
    if later:
        return later[0][2]
    sections = sorted((a, n) for a, _s, n, sect in syms if sect == "section" and a >= addr)
    return f"section {sections[0][1]}" if sections else "the end of the code"


def _disassembly(text: str) -> dict[int, list[tuple[int, str, str]]]:
    """Instructions under each label of the ``-d -l`` text: label address -> [(address,
    instruction text, location)]."""
    out: dict[int, list[tuple[int, str, str]]] = {}
    current: list[tuple[int, str, str]] | None = None
    line = ""
    for raw in text.splitlines():
        m = _INSN.match(raw)
        if m and current is not None:
            current.append((int(m.group(1), 16), m.group(2)[:MAX_LINE], line))
            continue
        m = _LABEL.match(raw)
        if m:
            current = out.setdefault(int(m.group(1), 16), [])
            line = ""
            continue
        m = _LOCATION.match(raw)
        if m:
            line = f"{_clean(m.group(1).rsplit('/', 1)[-1])}:{m.group(2)}"
    return out


def _normalise(offset: int, text: str, line: str) -> Insn:
    """One instruction with its addresses replaced by symbols."""
    text = " ".join(text.split("\t"))
    mnemonic, _, operands = text.strip().partition(" ")
    operands = operands.strip()
    prefixes = ""
    while mnemonic in ("rep", "repz", "repnz", "repe", "repne", "lock", "notrack", "bnd",
                       "cs", "ds", "data16", "addr32") and operands:
        prefixes += mnemonic + " "
        mnemonic, _, operands = operands.partition(" ")
        operands = operands.strip()
    target = None
    if _BRANCH.match(mnemonic):
        m = _DIRECT.match(operands)
        if m:
            target = _clean(m.group(2))
            operands = target
    comment = _COMMENT.search(operands) if "# " in operands else None
    if comment:
        operands = _RIP.sub("(%rip)", operands[:comment.start()]) + f" <{_clean(comment.group(1))}>"
    return Insn(offset=offset, mnemonic=_clean(prefixes + mnemonic), operands=_clean(operands),
                target=target, line=line)


def _clean(text: str) -> str:
    """No tab or newline inside a field of the stored form."""
    return text.replace("\t", " ").replace("\n", " ").replace("\r", " ")


# ------------------------------------------------------------------ the stored form

def dumps(code: Code) -> str:
    """The stored text of ``code``: a ``F`` line per function (name, size, instructions
    cut, the symbol after an empty one), an ``I`` line per instruction (offset, source
    location, mnemonic, operands, target). Equal code gives equal text."""
    lines = []
    for f in code.functions:
        lines.append(f"F\t{f.name}\t{f.size}\t{f.cut}\t{f.next}")
        for i in f.insns:
            lines.append(f"I\t{i.offset:x}\t{i.line}\t{i.mnemonic}\t{i.operands}\t{i.target or ''}")
    return "\n".join(lines) + "\n"


def loads(text: str) -> Code:
    """The :class:`Code` of :func:`dumps`' text."""
    functions: list[Function] = []
    for line in text.splitlines():
        parts = line.split("\t")
        if parts[0] == "F" and len(parts) == 5:
            functions.append(Function(name=parts[1], size=int(parts[2]), insns=[],
                                      cut=int(parts[3]), next=parts[4]))
        elif parts[0] == "I" and len(parts) == 6 and functions:
            functions[-1].insns.append(Insn(offset=int(parts[1], 16), line=parts[2],
                                            mnemonic=parts[3], operands=parts[4],
                                            target=parts[5] or None))
        else:
            raise ValueError(f"not a line of stored code: {line[:80]!r}")
    return Code(functions=functions)
