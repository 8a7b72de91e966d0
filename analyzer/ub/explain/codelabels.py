"""What the compiler did, read from the code: labels computed by rules, never by case.

Pure functions over :class:`analyzer.ub.disasm.Code`: the instructions of a cell's binary,
a small control-flow graph per function, and, where there is one, the same compiler's
``-O0`` build of the same program as the reference (``ref``), which shows what the
source asked for: a call made there and gone here, a test on a source line there and
none here. Each rule names the function and, where the line table says, the source line.

* ``empty-function``: a function of no instructions; execution falls into whatever the
  linker placed next (``main is empty: execution runs into _fini``).
* ``trap``: a ``ud2`` the optimiser put in (``trap (ud2) in main.cold at
  check-after-use.c:27``): one in a function and on a source line where the same
  compiler's -O0 build has none. A trap the -O0 build has too is not what optimising
  did (in the same function it is taken for the same trap, wherever its line moved, so a
  second trap the optimiser adds to a function that has one is not seen): it is the
  source's own
  (``__builtin_trap``) or the front end's for a point the program must not reach
  (clang's trap at the end of a C++ function that returns no value, GCC 13+'s
  ``-funreachable-traps`` for ``__builtin_unreachable`` at -O0 and -Og), at every level
  alike. So at -O0 itself, and without a reference, nothing is labelled ``trap``: the
  code alone cannot tell the source's trap from the compiler's. (``abort()`` and the
  like stay calls: they are never a ``ud2``.)
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
* ``check-removed``: a test of the source that this build no longer makes (a null or
  overflow test folded away): a compare-and-branch of the -O0 build on a source line
  where this build has no compare, branch, conditional move or set in any function, and
  only if its outcome was open in the -O0 build: it tests a value that build does not
  know (:func:`open_tests`: an argument, a call's result, memory, an uninitialised
  variable). A test of values computed from constants alone (a counted loop's bound,
  a variable only ever assigned constants) is the compiler computing what the source
  fixed, at any level, and is not labelled; nor is a null test against a pointer known
  to be non-null (``operator new``'s result, an address), nor the null test a C++
  ``delete`` expression makes (a call of ``operator delete`` on the same line): the
  source does not contain it. Lines of headers and functions of the C++ library
  (``std::``, ``__gnu_cxx::``) are not looked at: inlined library code is the
  library's. A loop without exit names its exit test whether or not it was open (the
  overflowing loop's bound is a constant; the test went because of the overflow).
  What the rule cannot see: a parameter the compiler knows from the callers (inlined,
  or propagated into a ``static`` function) reads as open, and a test moved to another
  line (hoisted out of a loop) as gone.
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
            if _TRAP.match(i.mnemonic) and ref is not None and not _trap_in(ref, f.name, i.line):
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
              if r.open and r.line not in loop_lines and r.function not in empty]
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
    nothing: its function there, the line, the two instructions ('cmpl ...; jg'), and
    whether its outcome was open in the -O0 build (see :func:`open_tests`)."""

    function: str
    line: str
    test: str
    open: bool = True


#: A C++ library function (its qualified name, after the return type, in ``std::`` or
#: ``__gnu_cxx::``): its tests are the library's even where the line table names the
#: program's file (objdump 2.40 reads some DWARF 5 line tables of headers so).
_LIBRARY_NAME = re.compile(r"^(std|__gnu_cxx|__cxxabiv1)::")


def library_function(name: str) -> bool:
    """Whether ``name`` (demangled) is a function of the C++ library, not the program's."""
    plain, depth = [], 0
    for ch in name:
        if ch in "<(":
            depth += 1
        elif ch in ">)" and depth:
            depth -= 1
        elif depth == 0:
            plain.append(ch)
    words = "".join(plain).split()
    return bool(words) and (bool(_LIBRARY_NAME.match(words[-1])) or words[-1].startswith("__clang"))


def _removed_tests(code: Code, ref: Code) -> list[_RemovedTest]:
    now = _line_tests(code)
    found: dict[str, _RemovedTest] = {}
    for f in ref.functions:
        if library_function(f.name):
            continue
        insns = f.insns
        opened = None
        for n, i in enumerate(insns):
            if not (_SOURCE_LINE.search(i.line) and _JCC.match(i.mnemonic)) or i.line in now:
                continue
            if i.line in found and found[i.line].open:
                continue
            test = next((p for p in reversed(insns[max(n - 3, 0):n])
                         if _TEST.match(p.mnemonic) and p.line == i.line), None)
            if test is None:
                continue
            if opened is None:
                opened = open_tests(f)
            is_open = test.offset in opened and not _deletes_on(f, i.line)
            if i.line not in found or is_open:
                found[i.line] = _RemovedTest(f.name, i.line, f"{test.text}; {i.mnemonic}", is_open)
    return list(found.values())


def _deletes_on(f: Function, line: str) -> bool:
    """Whether ``f`` calls ``operator delete`` on ``line``: the null test there is the
    delete expression's own ([expr.delete]: deleting a null pointer does nothing)."""
    return any(_CALL.match(i.mnemonic) and i.target and "operator delete" in i.target
               for i in f.insns if i.line == line)


def _check_label(r: _RemovedTest) -> CodeLabel:
    return CodeLabel("check-removed", r.function, r.line,
                     f"the check at {r.line} is gone (at -O0: {r.test})")


def checks_removed(code: Code, ref: Code) -> list[CodeLabel]:
    """Source lines with an open compare-and-branch at -O0 and nothing deciding there now."""
    return [_check_label(r) for r in _removed_tests(code, ref) if r.open]


# ------------------------------------------------------------------ what -O0 knows

#: What a value of the -O0 build is, to the compiler: computed from constants alone, an
#: address of the frame or of a global plus constants (known, and never null), a pointer
#: known only not to be null (``operator new``'s result), or open (an argument, a call's
#: result, memory, an uninitialised variable).
_CONST, _ADDR, _NONNULL, _OPEN = "const", "addr", "nonnull", "open"
_KNOWN = (_CONST, _ADDR)
#: Registers by their 64-bit name (``%eax``, ``%ax``, ``%al`` are ``rax``).
_REG = {}
for _r in "abcd":
    for _n in (f"%r{_r}x", f"%e{_r}x", f"%{_r}x", f"%{_r}l", f"%{_r}h"):
        _REG[_n] = f"r{_r}x"
for _r in ("si", "di", "bp", "sp"):
    for _n in (f"%r{_r}", f"%e{_r}", f"%{_r}", f"%{_r}l"):
        _REG[_n] = f"r{_r}"
for _k in range(8, 16):
    for _n in (f"%r{_k}", f"%r{_k}d", f"%r{_k}w", f"%r{_k}b"):
        _REG[_n] = f"r{_k}"
#: Registers a call may change (the System V ABI's caller-saved ones; vector registers are
#: not followed at all: always open).
_CLOBBERED = {"rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"}
_SLOT = re.compile(r"^(-?0x[0-9a-f]+)?\(%rbp\)$")
_IMM = re.compile(r"^\$-?(0x[0-9a-f]+|\d+)$")
_MOVE = re.compile(r"^(mov[a-z]*|cltq|cwtl|cltd|cqto|cdqe)$")
_ARITH = re.compile(r"^(add|sub|imul|and|or|xor|shl|sal|shr|sar|neg|not|inc|dec|rol|ror)[bwlq]?$")


def _operands(text: str) -> list[str]:
    """The operands of an AT&T instruction, split at the commas outside parentheses (a
    trailing ``<symbol>`` comment dropped)."""
    text = re.sub(r"\s*<[^>]*>$", "", text)
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _join(a: str | None, b: str | None) -> str | None:
    """Two values a location may hold; None is 'nothing known yet' (the data flow starts
    from it, so that a value that only feeds itself, a loop's ``p = p + 32``, keeps the
    kind of its start)."""
    if a is None or a == b:
        return b
    return a if b is None else _OPEN


def _known(v: str | None) -> bool:
    return v is None or v in _KNOWN


def _arith(vals: list[str | None], mnemonic: str = "add") -> str | None:
    """The value of arithmetic on ``vals``: constants give a constant, an address plus
    or minus constants an address, the difference of two addresses a constant."""
    if any(v is None for v in vals):
        return None
    if all(v == _CONST for v in vals):
        return _CONST
    if mnemonic.startswith(("add", "sub", "inc", "dec")):
        addrs = sum(v == _ADDR for v in vals)
        if addrs == 1 and all(v in _KNOWN for v in vals):
            return _ADDR
        if addrs == 2 and len(vals) == 2 and mnemonic.startswith("sub"):
            return _CONST
    return _OPEN


def open_tests(f: Function) -> set[int]:
    """The offsets of the compares and tests of ``f`` (an -O0 build) whose outcome the
    compiler cannot know: one of the values tested is open.

    -O0 code keeps every variable in its stack slot (``-0x14(%rbp)``) and loads it for
    each use, so a small data flow over the slots decides it: a slot is constant if every
    store to it stores a constant (found by iterating from 'nothing known yet', so a
    counted loop's ``i = 0; i++`` stays constant), an address of the frame or a global
    plus constants if every store is one (a pointer stepping through a local array), else
    open; a slot whose address is taken is open, and so is a load of a slot that is not
    stored on every path before it (an uninitialised variable: the compiler may take any
    value for it). Registers are followed within a basic block (open at its start: values
    that cross blocks are taken as unknown, so a test is kept rather than hidden);
    arguments, memory other than the frame, and what a call returns are open, except
    ``operator new``'s result (never null). A test is open if a value it reads is open;
    a null test of an address (``test %rax,%rax`` after ``lea``) is decided, not open."""
    bl = blocks(f)
    preds: dict[int, list[int]] = {b: [] for b in range(len(bl))}
    for b, blk in enumerate(bl):
        for s in blk.succs:
            preds[s].append(b)
    escaped = {m.group(1) or "0" for i in f.insns if i.mnemonic.startswith("lea")
               for m in [_SLOT.match(_operands(i.operands)[0] if i.operands else "")] if m}
    stores = [{(m.group(1) or "0") for i in f.insns[blk.start:blk.end]
               for ops in [_operands(i.operands)] if ops and not i.mnemonic.startswith(("cmp", "test"))
               for m in [_SLOT.match(ops[-1])] if m}
              for blk in bl]
    # slots stored on every path into each block (must-initialised), from the entry
    every = set().union(*stores) if stores else set()
    inited: list[set[str]] = [set() if b == 0 else set(every) for b in range(len(bl))]
    changed = True
    while changed:
        changed = False
        for b in range(len(bl)):
            ins = set() if b == 0 else (set.intersection(*(inited[p] | stores[p] for p in preds[b]))
                                        if preds[b] else set())
            if ins != inited[b]:
                inited[b], changed = ins, True
    slots: dict[str, str | None] = {}
    opened: set[int] = set()
    for _ in range(20):
        new: dict[str, str | None] = {}
        opened = set()
        for b, blk in enumerate(bl):
            regs: dict[str, str | None] = {}
            flags = _OPEN
            init = set(inited[b])

            def value(op: str) -> str | None:
                if _IMM.match(op):
                    return _CONST
                if op in _REG:
                    return regs.get(_REG[op], _OPEN)
                m = _SLOT.match(op)
                if m:
                    key = m.group(1) or "0"
                    if key in escaped or key not in init:
                        return _OPEN
                    return slots.get(key)
                return _OPEN

            def put(op: str, v: str | None) -> None:
                if op in _REG:
                    regs[_REG[op]] = v
                    return
                m = _SLOT.match(op)
                if m:
                    key = m.group(1) or "0"
                    new[key] = _join(new.get(key), v)
                    init.add(key)

            for i in f.insns[blk.start:blk.end]:
                mn, ops = i.mnemonic, _operands(i.operands)
                if _TEST.match(mn):
                    vals = [value(o) for o in ops]
                    if mn.startswith("test") and len(ops) == 2 and ops[0] == ops[1] \
                            and vals[0] in (_ADDR, _NONNULL):
                        flags = _CONST                    # an address is never null
                    elif mn.startswith("cmp") and len(ops) == 2 and vals[1] in (_ADDR, _NONNULL) \
                            and ops[0] in ("$0x0", "$0"):
                        flags = _CONST
                    elif all(_known(v) for v in vals):
                        flags = _CONST
                    else:
                        flags = _OPEN
                        opened.add(i.offset)
                elif _CALL.match(mn):
                    for r in _CLOBBERED:
                        regs[r] = _OPEN
                    if i.target and "operator new" in i.target:
                        regs["rax"] = _NONNULL
                elif mn.startswith("lea") and len(ops) == 2:
                    inside = re.search(r"\(([^)]*)\)", ops[0])
                    regs_in = inside.group(1).split(",") if inside else []
                    base = regs_in[0].strip() if regs_in else ""
                    index = regs_in[1].strip() if len(regs_in) > 1 else ""
                    if base in ("%rbp", "%rip", "%rsp"):
                        known = not index or value(index) in (_CONST, None)
                        put(ops[1], _ADDR if known else _OPEN)
                    elif base and not index:
                        put(ops[1], _arith([value(base)]))
                    else:
                        put(ops[1], _OPEN)
                elif mn in ("cltq", "cwtl", "cdqe"):
                    pass
                elif mn in ("cltd", "cqto"):
                    regs["rdx"] = regs.get("rax", _OPEN)
                elif _MOVE.match(mn) and len(ops) == 2:
                    put(ops[1], value(ops[0]))
                elif mn.startswith("xor") and len(ops) == 2 and ops[0] == ops[1]:
                    put(ops[1], _CONST)
                elif _ARITH.match(mn) and ops:
                    put(ops[-1], _arith([value(o) for o in ops], mn))
                elif mn.startswith("set") and ops:
                    put(ops[-1], flags)
                elif mn.startswith("cmov") and ops:
                    put(ops[-1], _CONST if flags == _CONST and all(
                        value(o) in (_CONST, None) for o in ops) else _OPEN)
                elif mn.startswith(("push", "pop", "j", "ret", "nop", "endbr", "leave")):
                    if mn.startswith("pop") and ops:
                        put(ops[0], _OPEN)
                elif ops:
                    put(ops[-1], _OPEN)                # anything else: its result is unknown
                    if mn.startswith(("div", "idiv", "mul")):
                        regs["rax"] = regs["rdx"] = _OPEN
        if new == slots:
            break
        slots = new
    return opened


def _trap_in(ref: Code, function: str, line: str) -> bool:
    """Whether the -O0 build ``ref`` has a ``ud2`` on ``line`` or in ``function``
    (``main.cold`` is ``main``'s): the same trap, though its line may move (GCC's trap
    for the end of a function that returns nothing is on the last statement's line at
    -O0 and on the closing brace's at -Og)."""
    base = function.split(".", 1)[0]
    return any(_TRAP.match(i.mnemonic) and ((line and i.line == line)
                                            or f.name.split(".", 1)[0] == base)
               for f in ref.functions for i in f.insns)


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
