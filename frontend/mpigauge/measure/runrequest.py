# SPDX-License-Identifier: BSD-3-Clause
"""A run of a suite as a typed request: what `mpigauge run`'s command line
says, built by the commands that run suites for their own ends (series,
guidelines, selftest) and handed to the one run function, with no argv
strings between modules."""
from dataclasses import dataclass, field
from typing import List, Optional

from .configs import Config, check_label


@dataclass
class RunRequest:
    """A suite (a name or a file) run into output, in rounds, under
    configurations (configs.Config; none: a plain run)."""
    suite: str
    output: str
    repeat: int = 1
    nranks: int = 2
    configs: List[Config] = field(default_factory=list)
    bindir: Optional[List[str]] = None
    seed: Optional[int] = None
    timeout: Optional[float] = None
    launcher: Optional[str] = None
    mpi: Optional[str] = None  # the programs' launch family (openmpi, mpich): default asked
    max_ranks: Optional[int] = None
    interleave: str = "turns"
    turn_slice: float = 0.005
    force: bool = False
    quiet: bool = False
    args: List[str] = field(default_factory=list)  # after --: for every benchmark
    # --until-decided's sequential design, and the verdict's settings it decides by
    until_decided: bool = False
    min_rounds: int = 6
    max_rounds: int = 30
    max_time: Optional[float] = None
    threshold: str = "5%"
    alpha: float = 0.05
    error_control: str = "bh"
    # the (label, label) pairs its looks decide; empty: the first configuration
    # against each other one (runner.decide_pairs)
    decide_pairs: List[tuple] = field(default_factory=list)


def config(label, **keys):
    """A configuration of a request, its label checked as --config's."""
    return Config(check_label(label, f"configuration {label!r}"), **keys)


def run(req):
    """Run the request as `mpigauge run` would: the runner's exit code
    (errors raise as under the command line)."""
    from ..verdict.options import with_threshold
    from .run_cli import run_defaults
    from .runner import cmd_run
    a = run_defaults()
    for name, value in vars(req).items():
        if name != "configs":
            setattr(a, name, list(value) if isinstance(value, list) else value)
    a.config_objects = list(req.configs)
    return with_threshold(cmd_run)(a)
