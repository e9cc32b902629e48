# SPDX-License-Identifier: BSD-3-Clause
"""What changed between two sides' ranks sweeps (doc/collectives.md,
"Scaling verdicts"): the steps NEW added or removed, by the launches'
jumps or by the counts' levels, and a class it changed."""
import math
from typing import NamedTuple, Tuple

from ..core.stats import median, ratio_ci
from .scaling import (MIN_COUNTS, LineKey, Sweep, analyse, boundaries, log_jumps, sweeps)


def restrict(sw, counts):
    return Sweep(sw.key, counts, {p: sw.values[p] for p in counts})


class Change(NamedTuple):
    key: LineKey
    lo: int
    hi: int
    what: str                # "added", "removed", "grew", "shrank"
    ratio: float             # NEW's jump over BASE's
    ci: Tuple[float, float]  # its interval (route "jump"), or NEW / BASE's beyond the boundary
    route: str = "jump"      # "jump": the launches' jumps; "level": the counts' levels
    before: Tuple[float, float, float] = ()   # "level": NEW / BASE (estimate, low, high) at lo


def _shift(xs, ys):
    """The Hodges-Lehmann shift of ys over xs: the median of y - x over pairs."""
    return median([y - x for x in xs for y in ys])


def _levels(b, n, p, level):
    """NEW / BASE at count p: (estimate, low, high), the Hodges-Lehmann
    estimate (the median of the pairwise ratios: a count whose launches
    fall in two modes moves it less than the ratio of the medians) and the
    Mann-Whitney interval that goes with it; None without it."""
    vb, vn = list(b.values[p].values()), list(n.values[p].values())
    if len(vb) < 2 or len(vn) < 2:
        return None
    lo, hi, cov = ratio_ci(vb, vn, level)
    est = math.exp(_shift([math.log(x) for x in vb], [math.log(y) for y in vn]))
    return (est, lo, hi) if cov >= level else None


def _level_turn(lb, la, threshold):
    """+1 where NEW / BASE turns worse across a boundary (decided slower
    after it and not before, or faster before it and not after), -1 where
    it turns better, 0 otherwise; the estimates must differ by more than
    the threshold too."""
    up, down = 1.0 + threshold, 1.0 / (1.0 + threshold)
    slower = (lambda v: v[1] > up)
    faster = (lambda v: v[2] < down)
    r = la[0] / lb[0]
    if ((slower(la) and not slower(lb)) or (faster(lb) and not faster(la))) and r > up:
        return 1
    if ((slower(lb) and not slower(la)) or (faster(la) and not faster(lb))) and r < down:
        return -1
    return 0


def _jump_change(b, n, i, threshold, level):
    """(up, ratio, (low, high)) of NEW's per-launch jumps at boundary i
    against BASE's (Hodges-Lehmann), where decided beyond the threshold;
    else None."""
    pb, jb = log_jumps(b, i)
    pn, jn = log_jumps(n, i)
    if not (pb and pn) or len(jb) < 2 or len(jn) < 2:
        return None
    lo, hi, cov = ratio_ci([math.exp(x) for x in jb], [math.exp(x) for x in jn], level)
    if cov < level or not (lo > 1.0 + threshold or hi < 1.0 / (1.0 + threshold)):
        return None
    return lo > 1.0, math.exp(_shift(jb, jn)), (lo, hi)


def jump_changes(b, n, threshold, level):
    """[Change] at the boundaries of two analysed lines with the same
    counts, by two routes at half the error rate each: NEW's per-launch
    jumps against BASE's (the Mann-Whitney interval of their ratio; where
    one launch measured both counts), and NEW / BASE at each count (as
    compare's verdicts) turning across the boundary. "added" where NEW's
    own sweep names a step there and BASE's does not."""
    out = []
    half = 1.0 - (1.0 - level) / 2.0
    named_b = {(s.lo, s.hi) for s in b.steps}
    named_n = {(s.lo, s.hi) for s in n.steps}
    counts = b.sweep.counts
    lv = [_levels(b.sweep, n.sweep, p, half) for p in counts]
    for i in range(len(counts) - 1):
        edge = (counts[i], counts[i + 1])
        got = _jump_change(b.sweep, n.sweep, i, threshold, half)
        if got is not None:
            up, est, ci = got
            extra = {}
        elif lv[i] and lv[i + 1] and _level_turn(lv[i], lv[i + 1], threshold):
            up = _level_turn(lv[i], lv[i + 1], threshold) > 0
            est, ci = lv[i + 1][0] / lv[i][0], lv[i + 1][1:]
            extra = {"route": "level", "before": lv[i]}
        else:
            continue
        if up and edge in named_n and edge not in named_b:
            what = "added"
        elif not up and edge in named_b and edge not in named_n:
            what = "removed"
        else:
            what = "grew" if up else "shrank"
        out.append(Change(b.sweep.key, edge[0], edge[1], what, est, ci, **extra))
    return out


def class_change(b, n, support=0.9):
    """'changed', 'same', or 'unclear' (a class not chosen in `support` of
    its resamples, or a line without one)."""
    if b.fit is None or n.fit is None:
        return "unclear"
    if b.fit.cls == n.fit.cls:
        return "same"
    return "changed" if b.support >= support and n.support >= support else "unclear"


def pair_lines(base, new):
    """[(BASE Scaling inputs, NEW ...)]: the sweeps of both sides with the
    same line key, restricted to their common counts (three or more)."""
    nb = {s.key: s for s in sweeps(base)}
    out = []
    for s in sweeps(new):
        if s.key in nb:
            common = sorted(set(s.counts) & set(nb[s.key].counts))
            if len(common) >= MIN_COUNTS:
                out.append((restrict(nb[s.key], common), restrict(s, common)))
    return out


def compare(base, new, threshold=0.10, alpha=0.05, seed=1):
    """(pairs of analysed lines, [Change] per pair, class verdict per pair)
    of two sets. Every interval is at 1 - alpha / (boundaries compared)."""
    pairs = pair_lines(base, new)
    level = 1.0 - alpha / max(1, boundaries([b for b, _ in pairs]))
    out = []
    for sb, sn in pairs:
        ab = analyse(sb, threshold, level, seed)
        an = analyse(sn, threshold, level, seed)
        out.append((ab, an, jump_changes(ab, an, threshold, level), class_change(ab, an)))
    return out
