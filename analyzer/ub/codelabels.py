"""What the compiler did, read from the code: labels computed by rules, never by case.

Pure functions over :class:`analyzer.ub.disasm.Code`: the instructions of a cell's binary,
a small control-flow graph per function, and, where there is one, the same compiler's
``-O0`` build of the same program as the reference (``ref``), which shows what the
source asked for: a call made there and gone here, a test on a source line there and
none here. Each rule names the function and, where the line table says, the source line.

* ``empty-function``: a function of no instructions; execution falls into whatever the
  linker placed next (``main is empty: execution runs into _fini``).
* ``trap``: a ``ud2`` the compiler put in (``trap (ud2) at check-after-use.c:27``).
* ``loop-without-exit``: a cycle of the control-flow graph that no edge leaves, no
  ``ret`` ends and no jump leaves the function from; with the reference, the test the
  -O0 build made on the loop's lines is named as removed.
* ``call-removed``: a C library function the reference calls and this build never does
  (the ``printf`` that never happens); calls the compiler expands inline (``memcpy``,
  ``strlen``, ...), the ``printf``/``puts``/``putchar`` rewrites, C++ library
  functions (templates inlined at will) and the C++ ABI's exception handling
  (``__cxa_*``, ``_Unwind_*``: landing pads go when nothing can throw) do not count.
* ``constant-output``: a value passed to ``printf`` that this build loads as a constant
  where the reference loaded it from memory or a register.
* ``check-removed``: a source line whose -O0 code compares and branches, where this
  build has no compare, branch, conditional move or set on that line in any function
  (a null or overflow test folded away). Lines of headers are not looked at: inlined
  library code is the library's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from analyzer.ub.disasm import Code, Function, Insn
from analyzer.ub.results import CodeLabel

#: Mnemonics that end a basic block without falling through.
_NO_FALL = re.compile(r"^(jmp[a-z]*|ret[a-z]*|ud2|hlt|notrack jmp[a-z]*)$")
_TRAP = re.compile(r"^ud2$")
_RET = re.compile(r"^ret[a-z]*$")
#: A conditional branch (every j* but jmp).
_JCC = re.compile(r"^j(?!mp)[a-z]+$")
_TEST = re.compile(r"^(cmp[a-z]*|test[a-z]*|ucomis[sd]|comis[sd])$")
_DECIDES = re.compile(r"^(cmp[a-z]*|test[a-z]*|j(?!mp)[a-z]+|cmov[a-z]+|set[a-z]+|ucomis[sd]|comis[sd]|sbb|adc)$")
_CALL = re.compile(r"^call[a-z]*$")
#: Library calls a compiler may expand inline or replace at any level: not 'removed'.
_EXPANDABLE = {"memcpy", "memmove", "memset", "memcmp", "bcmp", "strlen", "strcmp", "strncmp",
               "strcpy", "strncpy", "strcat", "strchr", "abs", "labs", "llabs", "sqrt", "sqrtf",
               "fabs", "fabsf", "floor", "ceil", "stack_chk_fail", "stpcpy", "bzero",
               "alloca", "cxa_finalize"}
#: Output functions a compiler rewrites into each other (printf("x\n") is puts("x")).
_SAME_AS = {"puts": "printf", "putchar": "printf", "printf_chk": "printf", "vprintf": "printf",
            "fputs": "fprintf", "fputc": "fprintf", "fwrite": "fprintf", "putc": "fprintf",
            "fprintf_chk": "fprintf", "IO_putc": "fprintf", "sprintf_chk": "sprintf"}
#: A line of the program's own source, not of a header it includes: the rules that read
#: lines look only at these (a libstdc++ header's tests and calls, inlined at -O2, are the
#: library's, not the program's).
_SOURCE_LINE = re.compile(r"\.(c|cc|cpp|cxx|C|c\+\+):\d+$")
#: A C function's name: a C++ callee (``std::...``, ``operator new(...)``) is a library
#: template the compiler may inline at will, so its disappearance says nothing.
_C_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: The register of printf's first value, per callee.
_VALUE_REG = {"printf": ("%esi", "%rsi"), "printf_chk": ("%edx", "%rdx")}


@dataclass(frozen=True)
class Block:
    """A basic block: instructions ``[start, end)`` of its function, its successors (block
    indexes) and whether it leaves the function (``ret``, a jump out, an indirect jump)."""

    start: int
    end: int
    succs: tuple[int, ...]
    leaves: bool


def labels(code: Code, ref: Code | None = None) -> list[CodeLabel]:
    """Every label of ``code``; ``ref`` is the same compiler's -O0 build (None: at -O0
    itself, or no reference stored), which the comparing rules need."""
    found: list[CodeLabel] = []
    loops: list[tuple[CodeLabel, set[str]]] = []
    for f in code.functions:
        if not f.insns:
            found.append(CodeLabel("empty-function", f.name, "",
                                   f"{f.name} is empty: execution runs into {f.next or 'what follows'}"))
            continue
        for i in f.insns:
            if _TRAP.match(i.mnemonic):
                found.append(CodeLabel("trap", f.name, i.line,
                                       f"trap (ud2) in {f.name}" + (f" at {i.line}" if i.line else "")))
        for lines, where in endless_loops(f):
            label = CodeLabel("loop-without-exit", f.name, where,
                              f"loop in {f.name}" + (f" at {where}" if where else "") + " has no exit")
            loops.append((label, lines))
    if ref is None:
        return found + [l for l, _ in loops]
    removed = _removed_tests(code, ref)
    for label, lines in loops:
        tests = [r for r in removed if r.line in lines]
        if tests:
            label = CodeLabel(label.kind, label.function, label.line,
                              f"loop in {label.function} at {label.line or tests[0].line} kept, "
                              f"its exit test removed (at -O0: {tests[0].test})")
        found.append(label)
    loop_lines = set().union(*(lines for _, lines in loops)) if loops else set()
    empty = {f.name for f in code.functions if not f.insns}
    found += [_check_label(r) for r in removed
              if r.line not in loop_lines and r.function not in empty]
    found += calls_removed(code, ref)
    found += constant_outputs(code, ref)
    return found


# ------------------------------------------------------------------ the control-flow graph

def _offset_in(f: Function, target: str | None) -> int | None:
    """The offset a direct branch goes to in ``f``, None for a target outside it."""
    if target is None:
        return None
    if target == f.name:
        return 0
    if target.startswith(f.name + "+0x"):
        try:
            return int(target[len(f.name) + 3:], 16)
        except ValueError:
            return None
    return None


def blocks(f: Function) -> list[Block]:
    """The basic blocks of ``f`` in address order."""
    insns = f.insns
    at = {i.offset: n for n, i in enumerate(insns)}
    leaders = {0}
    for n, i in enumerate(insns):
        is_branch = i.mnemonic.startswith("j") or _NO_FALL.match(i.mnemonic) or _TRAP.match(i.mnemonic)
        if is_branch:
            if n + 1 < len(insns):
                leaders.add(n + 1)
            off = _offset_in(f, i.target)
            if off is not None and off in at:
                leaders.add(at[off])
    starts = sorted(leaders)
    index = {s: b for b, s in enumerate(starts)}
    out = []
    for b, s in enumerate(starts):
        e = starts[b + 1] if b + 1 < len(starts) else len(insns)
        last = insns[e - 1]
        succs: list[int] = []
        leaves = False
        m = last.mnemonic
        if _RET.match(m):
            leaves = True
        elif m.startswith("j") or m.startswith("notrack j"):
            off = _offset_in(f, last.target)
            if off is not None and off in at:
                succs.append(index[at[off]])
            elif off is None:
                leaves = True      # a tail call, or an indirect jump: control leaves
            if _JCC.match(m) and e < len(insns):
                succs.append(index[e])
        elif not _TRAP.match(m) and m != "hlt" and e < len(insns):
            succs.append(index[e])
        out.append(Block(start=s, end=e, succs=tuple(dict.fromkeys(succs)), leaves=leaves))
    return out


def _sccs(bl: list[Block]) -> list[list[int]]:
    """Strongly connected components (Tarjan, iterative)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on: set[int] = set()
    comps: list[list[int]] = []
    counter = 0
    for root in range(len(bl)):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on.add(v)
            succs = bl[v].succs
            if i < len(succs):
                work.append((v, i + 1))
                w = succs[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            for w in succs:
                if w in on:
                    low[v] = min(low[v], low[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
    return comps


def endless_loops(f: Function) -> list[tuple[set[str], str]]:
    """The loops of ``f`` that nothing leaves: (the source lines of their code, the line
    to name them by: the most frequent one)."""
    bl = blocks(f)
    found = []
    for comp in _sccs(bl):
        members = set(comp)
        cyclic = len(comp) > 1 or comp[0] in bl[comp[0]].succs
        if not cyclic:
            continue
        if any(bl[b].leaves or any(s not in members for s in bl[b].succs) for b in comp):
            continue
        insns = [i for b in comp for i in f.insns[bl[b].start:bl[b].end]]
        if any(_TRAP.match(i.mnemonic) for i in insns):
            continue
        lines = [i.line for i in insns if i.line]
        where = max(sorted(set(lines)), key=lines.count) if lines else ""
        found.append((set(lines), where))
    return found


# ------------------------------------------------------------------ against the -O0 build

def _callee(i: Insn) -> str | None:
    """The library function a call or tail jump goes to (``printf`` for ``printf@plt``
    or ``<printf@GLIBC_2.2.5>``), without the ``__`` and ``_chk`` of fortified names."""
    if not (_CALL.match(i.mnemonic) or i.mnemonic == "jmp"):
        return None
    name = i.target
    if name is None:
        m = re.search(r"<([^>+]+)>$", i.operands)
        name = m.group(1) if m and i.operands.startswith("*") else None
    if name is None or not re.search(r"@(plt|GLIBC|GLIBCXX|CXXABI|Base)", name):
        return None
    base = name.split("@", 1)[0].lstrip("_")
    return base


def _group(name: str) -> str:
    stripped = name[:-4] if name.endswith("_chk") else name
    return _SAME_AS.get(name, _SAME_AS.get(stripped, stripped))


def calls_removed(code: Code, ref: Code) -> list[CodeLabel]:
    """Library calls of the reference that this build never makes."""
    made = {_group(c) for f in code.functions for i in f.insns if (c := _callee(i))}
    found: dict[str, CodeLabel] = {}
    for f in ref.functions:
        for i in f.insns:
            c = _callee(i)
            if c is None or c in _EXPANDABLE or (c.endswith("_chk") and c[:-4] in _EXPANDABLE) \
                    or not _C_NAME.fullmatch(c) or c.startswith(("cxa_", "Unwind_", "gxx_")):
                continue
            if _group(c) not in made and _group(c) not in found:
                where = f" (at {i.line} at -O0)" if i.line else ""
                found[_group(c)] = CodeLabel("call-removed", f.name, i.line,
                                     f"{c} is never called{where}")
    return list(found.values())


def _line_tests(code: Code) -> dict[str, list[str]]:
    """Per source line, the instructions of ``code`` that decide something there."""
    out: dict[str, list[str]] = {}
    for f in code.functions:
        for i in f.insns:
            if i.line and _DECIDES.match(i.mnemonic):
                out.setdefault(i.line, []).append(i.text)
    return out


@dataclass(frozen=True)
class _RemovedTest:
    """A compare-and-branch of the -O0 build on a source line where this build decides
    nothing: its function there, the line, and the two instructions ('cmpl ...; jg')."""

    function: str
    line: str
    test: str


def _removed_tests(code: Code, ref: Code) -> list[_RemovedTest]:
    now = _line_tests(code)
    found: dict[str, _RemovedTest] = {}
    for f in ref.functions:
        insns = f.insns
        for n, i in enumerate(insns):
            if not (_SOURCE_LINE.search(i.line) and _JCC.match(i.mnemonic)) or i.line in found \
                    or i.line in now:
                continue
            test = next((p for p in reversed(insns[max(n - 3, 0):n])
                         if _TEST.match(p.mnemonic) and p.line == i.line), None)
            if test is not None:
                found[i.line] = _RemovedTest(f.name, i.line, f"{test.text}; {i.mnemonic}")
    return list(found.values())


def _check_label(r: _RemovedTest) -> CodeLabel:
    return CodeLabel("check-removed", r.function, r.line,
                     f"the check at {r.line} is gone (at -O0: {r.test})")


def checks_removed(code: Code, ref: Code) -> list[CodeLabel]:
    """Source lines with a compare-and-branch at -O0 and nothing deciding there now."""
    return [_check_label(r) for r in _removed_tests(code, ref)]


def constant_outputs(code: Code, ref: Code) -> list[CodeLabel]:
    """printf values loaded as constants here and not at -O0 on the same line."""
    def values(c: Code) -> dict[str, list[tuple[str | None, str]]]:
        out: dict[str, list[tuple[str | None, str]]] = {}
        for f in c.functions:
            for n, i in enumerate(f.insns):
                callee = _callee(i)
                if callee not in _VALUE_REG or not _SOURCE_LINE.search(i.line):
                    continue
                regs = _VALUE_REG[callee]
                value: str | None = None
                for p in reversed(f.insns[max(n - 8, 0):n]):
                    if _CALL.match(p.mnemonic) or p.mnemonic.startswith("j"):
                        break
                    dest = p.operands.rsplit(",", 1)[-1] if "," in p.operands else ""
                    if dest in regs:
                        if p.mnemonic.startswith("mov") and p.operands.startswith("$"):
                            value = str(int(p.operands[1:].split(",")[0], 16))
                        elif p.mnemonic == "xor" and p.operands.split(",")[0] == dest:
                            value = "0"
                        else:
                            value = None
                        break
                out.setdefault(i.line, []).append((value, f.name))
        return out

    now, before = values(code), values(ref)
    found = []
    for line, vals in now.items():
        if line in before and all(v is None for v, _ in before[line]):
            for v, fname in vals:
                if v is not None:
                    found.append(CodeLabel("constant-output", fname, line,
                                           f"the value printed at {line} became the constant {v}"))
                    break
    return found
