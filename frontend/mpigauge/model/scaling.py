# SPDX-License-Identifier: BSD-3-Clause
"""Rank-count scaling (doc/collectives.md, "Scaling verdicts"): for every
line of a ranks sweep (one benchmark and size measured at several rank
counts, inside one launch by --ranks-sweep or by launches at several
counts), the model class of its growth and the steps between neighbouring
counts.

* The class: t(P) = a + b f(P), f one of CLASSES, fitted by least squares
  in relative terms to the median over launches at each count, with one
  level shift per step found (so the class is the growth between steps);
  a >= 0, b >= 0. The class of least BIC is chosen; its support is the share of
  bootstrap resamples of the launches that choose it too.
* A step between counts P and P' is a jump that no class explains: each
  launch's ratio t(P') / t(P) (the launch measures both counts) has a
  distribution-free interval of its median (order statistics, the sign
  test's: a jump that only some launches make, as oversubscribed ranks
  that are or are not scheduled together, is no step; launches that
  measured one count only: the Mann-Whitney interval of the two counts'
  launches) at 1 - alpha / boundaries, and it lies above (P' / P)^2 x
  (1 + threshold), the steepest class's growth, or below 1 / (1 +
  threshold): no class falls. The step's factor is given beyond that
  bound (up) or beyond 1 (down). The class is fitted after the steps,
  with a level shift at each.
"""
import math
import random
from typing import Dict, List, NamedTuple, Tuple

from ..core.stats import median, median_ci, ratio_ci

CLASSES = (("a", None),
           ("a + b log P", lambda p: math.log2(p)),
           ("a + b P", lambda p: float(p)),
           ("a + b P log P", lambda p: p * math.log2(p)),
           ("a + b P^2", lambda p: float(p) * p))
RESAMPLES = 200
MIN_COUNTS = 3     # a line needs this many counts for steps, four for a class


class LineKey(NamedTuple):
    bench: str
    size: int
    unit: str
    where: str      # the options (or suite line) as the set matches series
    variant: str    # the variant less its ranks=N part


class Sweep(NamedTuple):
    key: LineKey
    counts: List[int]
    values: Dict[int, Dict[object, float]]   # count -> {launch: median}


class Fit(NamedTuple):
    cls: str
    a: float
    b: float
    shifts: List[float]      # one level per step, in us, after its boundary
    bic: float
    steps: Tuple[int, ...] = ()   # the boundaries of the shifts (indices into the counts)


class Step(NamedTuple):
    lo: int                  # the counts either side
    hi: int
    ratio: float             # the jump beyond the class's, as a factor
    ci: Tuple[float, float]


class Scaling(NamedTuple):
    sweep: Sweep
    fit: object              # Fit, or None with fewer than four counts
    support: float           # share of resamples choosing fit.cls
    steps: List[Step]
    level: float             # the intervals' confidence
    note: str                # why no step could be named, or ""


def _split_variant(v):
    """'ranks=8' -> (8, ''); 'ranks=8,x=1' -> (8, 'x=1'); no count -> (None, v)."""
    parts = [p for p in (v or "").split(",") if p]
    counts = [p for p in parts if p.startswith("ranks=") and p[6:].isdigit()]
    if len(counts) != 1:
        return None, v or ""
    return int(counts[0][6:]), ",".join(p for p in parts if p != counts[0])


def sweeps(rs):
    """[Sweep] of a set: the lines measured at three rank counts or more,
    by --ranks-sweep (variant ranks=N, one launch measures every count) or
    by launches at several counts (the run record's nranks)."""
    lines = {}
    for k, pairs in rs.series().items():
        n, rest = _split_variant(k.variant)
        if n is None:
            n = k.nranks
        if not isinstance(n, int) or n < 1:
            continue
        key = LineKey(k.bench, k.size, k.unit, k.where, rest)
        per = lines.setdefault(key, {}).setdefault(n, {})
        for la, r in pairs:
            per[la.launch_id] = r["median"]
    out = []
    for key, per in lines.items():
        counts = sorted(per)
        if len(counts) >= MIN_COUNTS:
            out.append(Sweep(key, counts, per))
    return sorted(out, key=lambda s: (str(s.key.bench), s.key.size, s.key.where,
                                      s.key.variant))


def _solve(m, v):
    """m x = v by Gaussian elimination with partial pivoting; None if singular."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[p][c]) < 1e-12 * max(1.0, max(abs(x) for row in a for x in row[:n])):
            return None
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] for i in range(n)]


def _design(counts, cls, steps, with_a=True):
    """The columns of each count: a (unless fixed at 0), b f(P), the shifts."""
    f = dict(CLASSES)[cls]
    return [([1.0] if with_a else []) + ([f(p)] if f else []) +
            [1.0 if i > s else 0.0 for s in steps] for i, p in enumerate(counts)]


def _lstsq(design, ys):
    """Least squares of the relative residuals: (coefficients, predictions),
    or None (singular, or no more counts than coefficients)."""
    rows = [[x / y for x in row] for row, y in zip(design, ys)]
    k = len(rows[0])
    if len(rows) <= k:
        return None
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    atb = [sum(r[i] for r in rows) for i in range(k)]        # the targets are ys / ys = 1
    x = _solve(ata, atb)
    if x is None:
        return None
    return x, [sum(c * v for c, v in zip(x, row)) for row in design]


def fit_class(counts, ys, cls, steps=()):
    """The class `cls` with level shifts after each boundary in `steps`
    (indices into counts: a shift between counts[i] and counts[i + 1]),
    fitted to ys by least squares of the relative residuals, with a >= 0
    (a negative a refitted at 0: a time less than nothing at P = 1 would
    make the ratios between small counts the model's artefact); None when
    it cannot be (singular, b < 0, or a prediction not above 0)."""
    has_b = dict(CLASSES)[cls] is not None
    got = _lstsq(_design(counts, cls, steps), ys)
    if got is not None and got[0][0] < 0 and has_b:
        zero = _lstsq(_design(counts, cls, steps, with_a=False), ys)
        got = None if zero is None else ([0.0] + zero[0], zero[1])
    if got is None:
        return None
    x, pred = got
    a, b = x[0], (x[1] if has_b else 0.0)
    if b < 0 or any(not q > 0 for q in pred):
        return None
    rss = sum((q / y - 1.0) ** 2 for q, y in zip(pred, ys))
    n, k = len(counts), len(x)
    bic = n * math.log(max(rss / n, 1e-12)) + k * math.log(n)
    return Fit(cls, a, b, list(x[(2 if has_b else 1):]), bic, tuple(steps))


def predict(fit, counts, i):
    """The model at counts[i]: the class and the shifts of the steps before it."""
    f = dict(CLASSES)[fit.cls]
    return fit.a + (fit.b * f(counts[i]) if f else 0.0) + \
        sum(c for s, c in zip(fit.steps, fit.shifts) if i > s)


def choose_class(counts, ys, steps=()):
    """The Fit of least BIC over CLASSES (None with fewer than four counts)."""
    if len(counts) < 4:
        return None
    fits = [fit_class(counts, ys, c, steps) for c, _ in CLASSES]
    fits = [f for f in fits if f is not None]
    return min(fits, key=lambda f: f.bic) if fits else None


def centres(sw):
    return [median(list(sw.values[p].values())) for p in sw.counts]


def log_jumps(sw, i):
    """(paired, values): each launch's ln t(P') / t(P) where one launch has
    both (paired True); else (False, (launches at P, launches at P'))."""
    lo, hi = sw.values[sw.counts[i]], sw.values[sw.counts[i + 1]]
    both = [k for k in lo if k in hi]
    if len(both) >= max(2, min(len(lo), len(hi)) // 2):
        return True, [math.log(hi[k] / lo[k]) for k in both]
    return False, (list(lo.values()), list(hi.values()))


def jump_interval(sw, i, level):
    """(estimate, low, high, coverage) of the jump at boundary i, as log
    ratios."""
    paired, got = log_jumps(sw, i)
    if paired:
        lo, hi, cov = median_ci(got, level)
        return median(got), lo, hi, cov
    a, b = got
    lo, hi, cov = ratio_ci(a, b, level)
    return math.log(median(b) / median(a)), math.log(lo), math.log(hi), cov


def steepest(sw, i):
    """The largest log ratio between counts i and i + 1 that a class can
    give (a + b P^2 with a = 0: (P' / P)^2); the least is 0 (a)."""
    return 2.0 * math.log(sw.counts[i + 1] / sw.counts[i])


def find_steps(sw, threshold=0.10, level=0.95):
    """(boundary indices, Fit with a shift at each, [Step], note). A jump is
    a step up when its interval lies above what the steepest class grows
    by (times 1 + threshold), a step down when it lies below 1 / (1 +
    threshold): a step under every class, whichever the line follows."""
    band = math.log1p(threshold)
    found, named, note = [], [], ""
    for i in range(len(sw.counts) - 1):
        top = steepest(sw, i)
        est, lo, hi, cov = jump_interval(sw, i, level)
        if cov < level:
            note = (f"too few launches for intervals at {level:.4g} (coverage {cov:.3g}): "
                    "no step can be named")
            continue
        if lo > top + band or hi < -band:
            found.append(i)
            beyond = top if lo > top + band else 0.0
            named.append(Step(sw.counts[i], sw.counts[i + 1], math.exp(est - beyond),
                              (math.exp(lo - beyond), math.exp(hi - beyond))))
    fit = choose_class(sw.counts, centres(sw), found)
    return found, fit, named, note


def class_support(sw, steps, cls, resamples=RESAMPLES, seed=1):
    """Share of bootstrap resamples (launches drawn with replacement, the
    same draw at every count where launches measured every count) whose
    chosen class is `cls`."""
    if cls is None:
        return 0.0
    rng = random.Random(seed)
    keys = sorted({k for p in sw.counts for k in sw.values[p]}, key=str)
    same = 0
    for _ in range(resamples):
        draw = [rng.choice(keys) for _ in keys]
        ys = []
        for p in sw.counts:
            got = [sw.values[p][k] for k in draw if k in sw.values[p]]
            ys.append(median(got) if got else median(list(sw.values[p].values())))
        f = choose_class(sw.counts, ys, steps)
        same += f is not None and f.cls == cls
    return same / resamples


def analyse(sw, threshold=0.10, level=0.95, seed=1):
    idx, fit, steps, note = find_steps(sw, threshold, level)
    support = class_support(sw, idx, fit.cls if fit else None, seed=seed)
    return Scaling(sw, fit, support, steps, level, note)


def boundaries(sweeps_):
    return sum(len(s.counts) - 1 for s in sweeps_)
