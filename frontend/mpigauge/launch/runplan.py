# SPDX-License-Identifier: BSD-3-Clause
"""What `mpigauge run` decided once from its command line, for its launch
loop (runner._run_loop): no argparse namespace reaches the launches; and
the limits its options are checked against."""
import os
from dataclasses import dataclass

from . import launcher as lr
from ..core.common import UsageError
from .steps import LaunchOptions

MAX_TIMEOUT = 1e6   # seconds (11.6 days): anything longer is a typo


@dataclass(frozen=True)
class Verdict:
    """--until-decided: how each look decides."""
    alpha: float
    min_rounds: int
    max_rounds: int
    threshold: float
    error_control: str
    covariate: object
    # the (base label, new label) pairs a look decides, each difference at
    # alpha / looks / pairs and "same" at alpha / looks (a series step's
    # neighbours); empty: the first configuration against each other one,
    # both at alpha / looks
    pairs: tuple = ()


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


MAX_ROUNDS = 10000          # rounds of one run (--repeat, --max-rounds)
MAX_SCHEDULE = 1000000      # launches one run may plan
RANKS_PER_CORE = 16         # more ranks than this per core ask for --max-ranks


def ranks_limit(a):
    """The most ranks a line may ask for without --max-ranks: the Slurm
    allocation's tasks inside one, else RANKS_PER_CORE x this node's cores."""
    if getattr(a, "max_ranks", None):
        return a.max_ranks
    tasks = os.environ.get("SLURM_NTASKS") if lr.in_slurm_allocation() else None
    if tasks and tasks.isdigit() and int(tasks) > 0:
        return int(tasks)
    return RANKS_PER_CORE * (os.cpu_count() or 1)


def check_ranks(entries, a):
    limit = ranks_limit(a)
    for e in entries:
        n = e.ranks or a.nranks
        if n > limit:
            where = f"{e.source}: " if e.source and e.ranks else ""
            raise UsageError(f"{where}{n} ranks is more than {limit} (the allocation's tasks, "
                             f"or {RANKS_PER_CORE} per core of this node): give --max-ranks "
                             f"{n} if you mean it")


def check_args(a):
    """The run options' own limits (UsageError)."""
    if not 1 <= a.repeat <= MAX_ROUNDS:
        raise UsageError(f"--repeat must be between 1 and {MAX_ROUNDS}")
    if a.max_rounds > MAX_ROUNDS:
        raise UsageError(f"--max-rounds must be at most {MAX_ROUNDS}")
    if a.nranks < 1:
        raise UsageError("-n must be at least 1")
    if a.exit_grace is not None and not 0 < a.exit_grace <= MAX_TIMEOUT:
        raise UsageError(f"--exit-grace must be a number of seconds in (0, {MAX_TIMEOUT:g}]")
    if getattr(a, "max_ranks", None) is not None and a.max_ranks < 1:
        raise UsageError("--max-ranks must be at least 1")
    if a.timeout is not None and not 0 < a.timeout <= MAX_TIMEOUT:
        raise UsageError(f"--timeout must be a number of seconds in (0, {MAX_TIMEOUT:g}]")
    if a.max_time is not None and not 0 < a.max_time <= MAX_TIMEOUT:
        raise UsageError(f"--max-time must be a number of seconds in (0, {MAX_TIMEOUT:g}]")
    if not 1e-3 <= a.turn_slice <= 60:
        raise UsageError("--turn-slice must be a number of seconds in [0.001, 60]")
    if a.until_decided:
        if a.min_rounds < 4 or a.max_rounds < a.min_rounds:
            raise UsageError("--until-decided needs 4 <= --min-rounds <= --max-rounds")
