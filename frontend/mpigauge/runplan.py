# SPDX-License-Identifier: BSD-3-Clause
"""What `mpigauge run` decided once from its command line, for its launch
loop (runner._run_loop): no argparse namespace reaches the launches."""
from dataclasses import dataclass

from .steps import LaunchOptions


@dataclass(frozen=True)
class Verdict:
    """--until-decided: how each look decides."""
    alpha: float
    min_rounds: int
    max_rounds: int
    threshold: float
    error_control: str
    covariate: object


@dataclass(frozen=True)
class RunPlan:
    """What cmd_run decided once from the command line, for the launch loop."""
    session: str            # the session id, the prefix of every launch id
    labels: list            # the configurations' labels ([None]: a plain run)
    items: dict             # (line, configuration) -> Item
    missing: list           # (entry, configuration) whose program is not found
    todo: list              # (round, line, configuration) in launch order
    rounds: int
    launcher: str
    grouped: bool           # the configurations of a line and round launch together (turns)
    looks: list             # --until-decided: the rounds after which to look
    output: str             # the results file
    quiet: bool
    max_time: object        # --max-time (seconds), or None
    launch: LaunchOptions   # what every launch is given
    verdict: Verdict        # --until-decided's test
