"""How a project is built: the options every build takes, whatever it is for.

A study (:class:`analyzer.overhead.study.Options`) adds its rounds, mode and noise
threshold; ``warnings run`` builds with these as they are.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

from warnscope.compilers import OPT_LEVELS, is_opt_option
from warnscope.errors import BadInput


@dataclass
class BuildOptions:
    opt: str = "-O2"
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)
    timeout: float = 3600.0      # seconds per build step
    #: the ``--flag-set`` levels: name -> flags
    custom: dict[str, list[str]] = field(default_factory=dict)
    #: build past errors (make's ``-k``, through ``MAKEFLAGS``): every error is printed,
    #: not the first one's TU alone (what the upgrade report lists)
    keep_going: bool = False
    #: the caller's variables passed to every step by name (``--env NAME``): name -> value
    #: (:func:`analyzer.projects.process.passed_env`); a build stores their names only
    env: dict[str, str] = field(default_factory=dict)

    def validate(self) -> None:
        if not is_opt_option(self.opt):
            raise BadInput(f"--opt {self.opt}: expected one of {', '.join(OPT_LEVELS)}")
        if self.jobs < 1:
            raise BadInput("--jobs must be at least 1")
        if not 0 < self.timeout < math.inf:
            raise BadInput("--timeout must be positive and finite")

