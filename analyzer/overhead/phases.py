"""The compiler's own account of where its time goes, parsed from ``-ftime-report``.

GCC prints one table of *timevars* per cc1 process (``phase parsing``, ``uninit var
analysis``, ``access analysis`` …; usr, sys and wall seconds with two decimals). clang
prints LLVM timer groups (front end, passes, code generation) with four decimals:
user, system, user+system and wall columns. Both are parsed into {name: (cpu, wall)},
summed over the processes and groups of one compile; totals are left out (the sum of
the phases is not the process's CPU: timevars nest and the driver is not counted).
"""
from __future__ import annotations

import re

from warnscope.profiles import profile

#: ' phase parsing      :   0.09 ( 43%)   0.03 ( 60%)   0.13 ( 46%)  1234k ( 7%)'
_GCC = re.compile(r"^ (\S.*?)\s+:\s+([\d.]+) \(\s*\d+%\)\s+([\d.]+) \(\s*\d+%\)\s+([\d.]+) \(\s*\d+%\)")
#: '   0.0003 (  6.1%)   0.0000 (  0.8%)   0.0003 (  5.4%)   0.0163 ( 47.9%)  SROAPass'
_CLANG = re.compile(r"^\s+([\d.]+) \(\s*[\d.]+%\)\s+([\d.]+) \(\s*[\d.]+%\)\s+([\d.]+) \(\s*[\d.]+%\)"
                    r"\s+([\d.]+) \(\s*[\d.]+%\)\s+(\S.*?)\s*$")
_TOTALS = {"TOTAL", "Total"}


def parse(text: str, family: str) -> dict[str, tuple[float, float]]:
    """{phase: (cpu seconds, wall seconds)} of one compile's ``-ftime-report`` output."""
    out: dict[str, tuple[float, float]] = {}
    for line in text.splitlines():
        if profile(family).gcc:
            m = _GCC.match(line)
            if not m:
                continue
            name, cpu, wall = m.group(1).strip(), float(m.group(2)) + float(m.group(3)), float(m.group(4))
        else:
            m = _CLANG.match(line)
            if not m:
                continue
            name, cpu, wall = m.group(5), float(m.group(3)), float(m.group(4))
        if name in _TOTALS:
            continue
        old = out.get(name, (0.0, 0.0))
        out[name] = (old[0] + cpu, old[1] + wall)
    return out
