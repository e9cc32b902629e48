# SPDX-License-Identifier: BSD-3-Clause
"""Verdicts on a model's parameters between two sides (doc/models.md):
each regime's alpha and bandwidth, new against base, as a ratio with its
interval from the two sides' bootstrap resamples (independent: resample i
of one side with resample i of the other), decided as the comparisons of
figures are: slower or faster when the 1 - alpha interval excludes 1 and
the ratio lies beyond the threshold, the same when the 1 - 2 alpha interval
lies within the band (two one-sided tests), unclear otherwise. Regimes are
compared where both sides found the same breakpoints; where they did not,
that is the finding."""
import math
from typing import NamedTuple, Tuple

from ..core.common import size_label
from ..core.stats import quantile


class ParamRow(NamedTuple):
    regime: str         # "0-4K"
    name: str           # "alpha" or "bandwidth"
    base: float
    new: float
    ratio: float        # new / base
    ci: Tuple[float, float]
    verdict: str


def _ratios(bd, nd, k):
    """new / base of parameter k (0 alpha, 1 beta) over paired resamples."""
    return [n[k] / b[k] for b, n in zip(bd, nd) if b[k] > 0 and n[k] > 0]


def decide(ratio, ci, eq, threshold, worse_above):
    """slower / faster / same / unclear of one parameter's ratio."""
    band = (1.0 / (1.0 + threshold), 1.0 + threshold)
    if not math.isnan(ci[0]) and not ci[0] <= 1.0 <= ci[1] and \
            not band[0] <= ratio <= band[1]:
        return "slower" if (ratio > 1.0) == worse_above else "faster"
    if not math.isnan(eq[0]) and band[0] <= eq[0] and eq[1] <= band[1]:
        return "same"
    return "unclear"


def shape(m):
    """The breakpoints of a model, as (after, before) pairs."""
    return [(b.after, b.before) for b in m.breakpoints]


def compare_models(base, new, threshold=0.05, alpha=0.05):
    """[ParamRow] of two models with the same breakpoints ([] otherwise)."""
    if shape(base) != shape(new):
        return []
    rows = []
    for rb, rn, bd, nd in zip(base.regimes, new.regimes, base.draws, new.draws):
        span = f"{size_label(rb.lo)}-{size_label(rb.hi)}"
        for k, name, worse_above in ((0, "alpha", True), (1, "bandwidth", False)):
            b, n = (rb.alpha, rn.alpha) if k == 0 else (rb.bandwidth(), rn.bandwidth())
            if k == 0 and (rb.alpha <= 0 or rn.alpha <= 0):
                continue    # a superlinear regime's alpha is no time of a message
            rs = _ratios(bd, nd, k)
            if k == 1:
                rs = [1.0 / r for r in rs]      # bandwidth = 1 / beta
            ratio = n / b if b > 0 and math.isfinite(b) and math.isfinite(n) else math.nan
            if len(rs) < 20 or math.isnan(ratio):
                ci = eq = (math.nan, math.nan)
            else:
                ci = (quantile(rs, alpha / 2), quantile(rs, 1 - alpha / 2))
                eq = (quantile(rs, alpha), quantile(rs, 1 - alpha))
            rows.append(ParamRow(span, name, b, n, ratio, ci,
                                 decide(ratio, ci, eq, threshold, worse_above)))
    return rows
