# SPDX-License-Identifier: BSD-3-Clause
"""Options that several commands share: the verdict's settings, and the
limits of a launch checked before anything runs."""
import math

from ..core.common import UsageError


def check_seconds(opt, v):
    """A duration option (--timeout, --time-budget): None (not given) or a
    finite number of seconds above 0; UsageError otherwise."""
    if v is not None and not (math.isfinite(v) and v > 0):
        raise UsageError(f"{opt} {v:g}: give seconds above 0")
    return v


def check_launch_limits(a):
    """--timeout above 0 and --max-ranks at least 2, where given."""
    check_seconds("--timeout", a.timeout)
    if a.max_ranks is not None and a.max_ranks < 2:
        raise UsageError(f"--max-ranks {a.max_ranks}: give 2 or more")


def add_verdict_options(p, what=""):
    """--threshold, --alpha, --error-control, --covariate (compare, best, run, selftest)."""
    p.add_argument("--threshold", default="5%", help=what + "practical significance (default 5%%)")
    p.add_argument("--alpha", type=float, default=0.05, help=what + "error rate (default 0.05)")
    p.add_argument("--error-control", choices=("bh", "holm", "none"), default="bh",
                   help=what + "adjustment over the series: Benjamini-Hochberg (default), Holm, none")
    p.add_argument("--covariate", choices=("none", "probe"), default="none",
                   help=what + "paired runs: adjust for the launches' sentinel probes")


def with_threshold(f):
    def run(a):
        from .compare import parse_threshold
        a.threshold_value = parse_threshold(a.threshold)
        if not 0 < a.alpha < 1:
            raise UsageError("--alpha must be between 0 and 1")
        return f(a)
    return run
