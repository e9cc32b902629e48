# SPDX-License-Identifier: BSD-3-Clause
"""Hockney's model per protocol regime, pure: t(m) = alpha + beta m on
segments of the size axis that the data choose (doc/models.md).

A curve is {size in bytes: [the figure of each launch]} (one-way time in
us). The fit is least squares on relative residuals (weights 1/t^2: the
curve spans orders of magnitude, and a 3% miss at 8 B matters as much as one
at 4 MiB). The segmentation is the best split into 1..MAX_SEGMENTS runs
of neighbouring sizes (dynamic programming over every split), the number
of segments the one of least BIC. Intervals come from a bootstrap over
launches: each resample draws every size's launches with replacement,
refits the parameters on the chosen segments, and segments afresh for the
breakpoints' intervals."""
import math
import random
from typing import List, NamedTuple, Optional, Tuple

from ..core.stats import median, quantile

MAX_SEGMENTS = 4
MIN_POINTS = 3      # sizes per segment: two parameters and one to check them
RESAMPLES = 200


class FitError(ValueError):
    """A curve that cannot be fitted, and why (said to the user as is)."""


class Line(NamedTuple):
    alpha: float        # us: the time of a zero-byte message in this regime
    beta: float         # us per byte (1 / bandwidth)
    sse: float          # weighted: the sum of squared relative residuals


class Regime(NamedTuple):
    lo: int             # smallest size of the segment, bytes
    hi: int             # largest
    alpha: float
    alpha_ci: Tuple[float, float]
    beta: float
    beta_ci: Tuple[float, float]
    points: int
    max_residual: float  # the largest |t - fit| / t over the segment's sizes
    worst: int          # the size where it is

    def bandwidth(self):
        """MB/s (bytes per us), inf for a flat segment."""
        return 1.0 / self.beta if self.beta > 0 else math.inf

    def superlinear(self):
        """A segment whose line meets the time axis below zero: its time
        grows faster than its size (memory beyond the caches), which a
        Hockney line only approximates."""
        return self.alpha < 0


class Breakpoint(NamedTuple):
    after: int          # the last size of the regime before it
    before: int         # the first size of the regime after it
    low: Tuple[int, int]   # the interval's earliest position (after, before)
    high: Tuple[int, int]  # and its latest
    share: float        # resamples that put it exactly here


class Model(NamedTuple):
    regimes: List[Regime]
    breakpoints: List[Breakpoint]
    launches: int       # the fewest launches of any size
    resamples: int      # 0: one launch a size, no intervals
    figure: str         # median or best
    draws: List[List[Tuple[float, float]]]  # per regime: (alpha, beta) of each resample


def _solve(sw, sx, sy, sxx, sxy):
    """(alpha, beta) of the weighted normal equations (beta 0 when the
    sizes do not vary)."""
    det = sw * sxx - sx * sx
    if det <= 1e-12 * sw * sxx or det <= 0:
        return sy / sw, 0.0
    beta = (sw * sxy - sx * sy) / det
    return (sy - beta * sx) / sw, beta


def fit_line(ms, ts):
    """Weighted least squares of t = alpha + beta m with weights 1/t^2."""
    w = [1.0 / (t * t) for t in ts]
    alpha, beta = _solve(sum(w), sum(wi * m for wi, m in zip(w, ms)),
                         sum(wi * t for wi, t in zip(w, ts)),
                         sum(wi * m * m for wi, m in zip(w, ms)),
                         sum(wi * m * t for wi, m, t in zip(w, ms, ts)))
    sse = sum(((t - alpha - beta * m) / t) ** 2 for m, t in zip(ms, ts))
    return Line(alpha, beta, sse)


def _costs(ms, ts, min_points):
    """{(i, j): SSE of the fit of sizes i..j-1}, from running sums (the
    residuals summed exactly for the fit's alpha and beta)."""
    n = len(ms)
    cost = {}
    for i in range(n):
        sw = sx = sy = sxx = sxy = 0.0
        for j in range(i, n):
            w = 1.0 / (ts[j] * ts[j])
            sw += w
            sx += w * ms[j]
            sy += w * ts[j]
            sxx += w * ms[j] * ms[j]
            sxy += w * ms[j] * ts[j]
            if j + 1 - i >= min_points:
                a, b = _solve(sw, sx, sy, sxx, sxy)
                cost[(i, j + 1)] = sum(((ts[q] - a - b * ms[q]) / ts[q]) ** 2
                                       for q in range(i, j + 1))
    return cost


def segment(ms, ts, k, min_points=MIN_POINTS, cost=None):
    """The split of the sorted sizes into k runs of at least min_points
    each with the least total SSE: (total, [(start, end) index ranges])."""
    n = len(ms)
    cost = cost or _costs(ms, ts, min_points)
    best = {(0, 0): (0.0, [])}
    for s in range(1, k + 1):
        for j in range(s * min_points, n + 1):
            cands = [(best[(s - 1, i)][0] + cost[(i, j)], best[(s - 1, i)][1] + [(i, j)])
                     for i in range((s - 1) * min_points, j - min_points + 1)
                     if (s - 1, i) in best]
            if cands:
                best[(s, j)] = min(cands, key=lambda c: c[0])
    return best.get((k, n))


def choose_segments(ms, ts, max_segments=MAX_SEGMENTS, min_points=MIN_POINTS, noise=0.0):
    """(k, ranges) of least BIC, n log(max(SSE/n, noise)) + (3k - 1) log n.
    noise: the typical squared relative standard error of the sizes' figures
    (from their launches): a split that only fits residuals already at the
    noise's level gains nothing, so noise is never taken for a regime; its
    floor of 1e-12 keeps a perfect fit from winning by a log of zero."""
    n = len(ms)
    out = None
    cost = _costs(ms, ts, min_points)
    for k in range(1, max_segments + 1):
        if k * min_points > n:
            break
        got = segment(ms, ts, k, min_points, cost)
        if got is None:
            continue
        bic = n * math.log(max(got[0] / n, noise, 1e-12)) + (3 * k - 1) * math.log(n)
        if out is None or bic < out[0]:
            out = (bic, k, got[1])
    return out[1], out[2]


FIGURES = {"median": median, "best": min}


def noise_level(curve, stat, seed=1, draws=50):
    """The median over sizes of the squared relative standard error of the
    figure standing for a size (stat of its launches), from a bootstrap
    over the launches (0 with one launch a size): the median, so that a
    few sizes of wild launches do not raise the floor of all."""
    rng = random.Random(seed)
    out = []
    for vals in curve.values():
        if len(vals) < 2:
            return 0.0
        ref = stat(vals)
        rs = [stat([rng.choice(vals) for _ in vals]) / ref - 1.0 for _ in range(draws)]
        mean = sum(rs) / draws
        out.append(sum((r - mean) ** 2 for r in rs) / (draws - 1))
    return median(out) if out else 0.0


def _curve_points(curve, stat):
    sizes = sorted(curve)
    return sizes, [stat(curve[s]) for s in sizes]


def _check(curve, min_points):
    if len(curve) < min_points:
        raise FitError(f"{len(curve)} sizes: a regime needs at least {min_points} "
                       "(measure more sizes, e.g. -m 0:4M)")
    for s, vals in curve.items():
        if not vals or any(not (isinstance(v, (int, float)) and v > 0 and math.isfinite(v))
                           for v in vals):
            raise FitError(f"size {s}: a time that is not a positive number")


def _interval(xs, level=0.95):
    a = (1.0 - level) / 2.0
    return (quantile(xs, a), quantile(xs, 1.0 - a))


def _ranges_of(ms, spans):
    """Index ranges of the sizes ms for regimes given as (lo, hi) sizes, or
    None when a span holds fewer than two of them."""
    out = []
    for lo, hi in spans:
        idx = [q for q, m in enumerate(ms) if lo <= m <= hi]
        if len(idx) < 2:
            return None
        out.append((idx[0], idx[-1] + 1))
    return out


def fit(curve, max_segments=MAX_SEGMENTS, min_points=MIN_POINTS, resamples=RESAMPLES, seed=1,
        figure="median", spans=None):
    """The Model of a curve {size: [figure per launch]} (see the module).
    figure: what stands for a size, the median over its launches or the
    best (the least: the machine's fast state, its intervals optimistic).
    spans: the regimes as (lo, hi) sizes, fixed (another model's, to
    compare parameters on the same segments) instead of chosen."""
    _check(curve, min_points)
    stat = FIGURES[figure]
    ms, ts = _curve_points(curve, stat)
    ranges = _ranges_of(ms, spans) if spans else None
    if spans and ranges is None:
        raise FitError("the other side's regimes hold fewer than two of these sizes")
    k, ranges = (len(ranges), ranges) if ranges else \
        choose_segments(ms, ts, max_segments, min_points, noise_level(curve, stat, seed))
    lines = [fit_line(ms[i:j], ts[i:j]) for i, j in ranges]
    for (i, j), ln in zip(ranges, lines):
        if ln.beta < 0 and (ln.alpha + ln.beta * ms[j - 1]) < 0.5 * ln.alpha:
            raise FitError(f"sizes {ms[i]}-{ms[j - 1]}: the time falls by half across the "
                           "segment: not a Hockney regime (a damaged or mixed curve?)")
    few = min(len(v) for v in curve.values())
    rng = random.Random(seed)
    draws = resamples if few >= 2 else 0
    params = [[] for _ in ranges]
    cuts = []
    for _ in range(draws):
        rs = [stat([rng.choice(curve[s]) for _ in curve[s]]) for s in ms]
        for n, (i, j) in enumerate(ranges):
            ln = fit_line(ms[i:j], rs[i:j])
            params[n].append((ln.alpha, ln.beta))
        got = None if spans else segment(ms, rs, k, min_points)
        cuts.append(tuple(j for _, j in got[1][:-1]) if got else
                    tuple(j for _, j in ranges[:-1]))
    regimes = []
    for n, ((i, j), ln) in enumerate(zip(ranges, lines)):
        res, worst = max((abs(t - ln.alpha - ln.beta * m) / t, m)
                         for m, t in zip(ms[i:j], ts[i:j]))
        aci = _interval([p[0] for p in params[n]]) if draws else (math.nan, math.nan)
        bci = _interval([p[1] for p in params[n]]) if draws else (math.nan, math.nan)
        regimes.append(Regime(ms[i], ms[j - 1], ln.alpha, aci, ln.beta, bci, j - i, res, worst))
    bps = []
    for n, (_, j) in enumerate(ranges[:-1]):
        where = sorted(c[n] for c in cuts) if cuts else [j]
        last = len(where) - 1
        lo, hi = where[int(0.025 * last)], where[int(math.ceil(0.975 * last))]
        share = where.count(j) / len(where)
        bps.append(Breakpoint(ms[j - 1], ms[j], (ms[lo - 1], ms[lo]), (ms[hi - 1], ms[hi]),
                              share))
    return Model(regimes, bps, few, draws, figure, params)


def predict(model, m):
    """The model's time for a message of m bytes: its regime's line (the
    last regime whose smallest size is at most m)."""
    reg: Optional[Regime] = None
    for r in model.regimes:
        if r.lo <= m:
            reg = r
    reg = reg or model.regimes[0]
    return reg.alpha + reg.beta * m


def fit_within(curve, tolerance, figure="median"):
    """The fewest regimes (of two sizes or more) whose lines hold every
    size's figure within `tolerance` (relative), for a simulator that must
    reproduce the curve rather than explain it (model/smpi.py): the regimes
    of least squared error for each count in turn, without intervals; the
    most the sizes allow when no count holds them all."""
    _check(curve, 2)
    ms, ts = _curve_points(curve, FIGURES[figure])
    cost = _costs(ms, ts, 2)
    got = None
    for k in range(1, len(ms) // 2 + 1):
        split = segment(ms, ts, k, 2, cost)
        if split is None:
            continue
        spans = [(ms[i], ms[j - 1]) for i, j in split[1]]
        got = fit(curve, min_points=2, resamples=0, figure=figure, spans=spans)
        if max(r.max_residual for r in got.regimes) <= tolerance:
            break
    return got
