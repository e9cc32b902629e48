# SPDX-License-Identifier: BSD-3-Clause
"""Options that several commands share: the verdict's settings."""
from .common import UsageError


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
