# SPDX-License-Identifier: BSD-3-Clause
"""The verdict of one series (doc/compare.md): its statistics from paired
launches of an interleaved run (Wilcoxon's signed-rank test on the paired
log ratios, the Hodges-Lehmann ratio and its distribution-free interval,
pairs across a change of regime left out) or from independent launches
(Mann-Whitney), and the verdict those give against the threshold
(`decide`): faster, slower, the same within it (two one-sided tests), or
unclear. compare.py compares whole sides with them."""
import math
import statistics
from dataclasses import dataclass, field
from typing import Optional

from ..data import regimes as rg
from ..data.results import SeriesKey
from ..core.stats import (adjust_for_covariate, hodges_lehmann_levels, mann_whitney, median,
                          min_p_value, min_pairs, pairs_needed, ratio_ci, signed_rank)

NAN = float("nan")


@dataclass
class Row:
    """One series of a comparison: its statistics (paired_row, unpaired_row),
    what compare_sets adds (key, medians, launches, outliers, adjusted p), and
    the verdict decide() gives."""
    paired: bool = False
    test: str = ""
    ratio: float = NAN
    ci: tuple = (NAN, NAN)
    ci_coverage: Optional[float] = None
    # the (1 - 2 alpha) interval of the ratio: "same" is two one-sided tests
    # at alpha each, that the ratio is above the band's low end and below
    # its high end (Schuirmann), which is this interval inside the band
    eq_ci: tuple = (NAN, NAN)
    p: Optional[float] = None
    p_adjusted: Optional[float] = None  # None: not adjusted (a single series)
    regimes: dict = field(default_factory=lambda: {"base": [], "new": []})
    same_mixture: bool = True
    dropped: list = field(default_factory=list)  # [(base launch, new launch)] left out
    pairs: int = 0          # pairs used (paired)
    pairs_total: int = 0    # pairs of the same round (paired)
    unstable: int = 0       # regimes, when too few comparable pairs are left
    covariate_slope: Optional[float] = None
    d: Optional[list] = None  # paired log ratios (for rounds_needed)
    note: str = ""
    key: Optional[SeriesKey] = None
    label: str = ""
    unit: str = ""
    base_median: float = NAN
    new_median: float = NAN
    m: int = 0              # launches on each side
    n: int = 0
    base_launches: list = field(default_factory=list)
    new_launches: list = field(default_factory=list)
    outliers: list = field(default_factory=list)
    host: list = field(default_factory=list)  # host-cost differences (hostcost.differences)
    speedup: float = NAN
    verdict: str = ""
    rounds_needed: Optional[int] = None
    single_value: bool = False  # one imported value per side: a tolerance check only

    def p_decisive(self):
        """The p-value the verdict uses: the adjusted one when there is one."""
        return self.p if self.p_adjusted is None else self.p_adjusted

    def used_pairs(self):
        return self.pairs_total if self.paired else self.pairs


LOWER_IS_BETTER = {"s", "ms", "us", "ns", "cycles", "usec", "sec", "B", "KiB", "MiB", "GiB"}
MIN_PAIRS = 3     # fewer matched pairs than this: no paired decision


def higher_is_better(unit):
    """True for rates (MB/s, ops/s, %), False for times; None if unknown."""
    u = (unit or "").strip()
    if u in LOWER_IS_BETTER:
        return False
    if u.endswith("/s") or u == "%":
        return True
    return None


def speedup(ratio, unit):
    """new/base as a speedup (> 1: new is better): the ratio for rates and
    units of unknown direction, its inverse for times."""
    if higher_is_better(unit) is not False:
        return ratio
    return 1.0 / ratio if ratio > 0 else float("inf")


def verdict(base, new, unit, threshold=0.05, alpha=0.05, base_ci=None, new_ci=None):
    """The verdict of one series of independent launches: per-launch medians
    `base` and `new` (with one launch on a side, its own 95% CI (low, high)
    stands in for the spread over launches). A row as compare_sets makes."""
    if not base or not new:
        raise ValueError("verdict needs values on both sides")

    def items(vals, ci):
        lo, hi = ci if ci else (None, None)
        return [(None, {"median": v, "ci95_low": lo, "ci95_high": hi}) for v in vals]

    row = unpaired_row(items(base, base_ci), items(new, new_ci), alpha, threshold, 1.0 - alpha)
    row.unit, row.base_median, row.new_median = unit, median(base), median(new)
    row.m, row.n = len(base), len(new)
    return decide(row, threshold, alpha)


def is_regression(row):
    """A row `--fail-on-regression` fails on: slower, or beyond the tolerance
    on the worse side (one imported value a side: a tolerance check)."""
    if row.verdict == "slower":
        return True
    return (row.verdict == "beyond tolerance" and higher_is_better(row.unit) is not None
            and row.speedup < 1.0)


SLIGHTLY = "slightly "
# verdicts that settle a series (unclear and unstable do not)
DECIDED = ("faster", "slower", "same", "higher", "lower") + tuple(
    SLIGHTLY + v for v in ("faster", "slower", "higher", "lower"))
# verdicts that claim a difference (an A/A comparison must show none)
DIFFERENCES = tuple(v for v in DECIDED if v != "same")


def _as_speedup(ci, hib):
    """A ratio's interval as an interval of the speedup (inverted where
    lower is better)."""
    lo, hi = ci
    if hib is False and lo > 0 and hi > 0:
        return 1.0 / hi, 1.0 / lo
    return lo, hi


def decide(row, threshold, alpha):
    """The verdict of a row with its (adjusted) p and its ratio CI.

    speedup s = ratio for higher-is-better units, 1/ratio otherwise.
    faster / slower: significant after adjustment and s beyond the
    threshold; same: the (1 - 2 alpha) interval of s (row.eq_ci: two
    one-sided tests at alpha) within [1/(1+t), 1+t]; slightly
    faster / slightly slower: significant after adjustment, the CI clear of
    1 and reaching out of the band, s inside it: a certain change of about
    the threshold or less, which no number of rounds would make `same` or
    `slower` (doc/compare.md); within / beyond tolerance: one imported
    value per side, the speedup inside the band or not (a tolerance check,
    not a test); unstable: the launches fell into regimes
    that leave too few comparable pairs; unclear: anything else (not
    enough evidence), with the rounds that would likely decide it."""
    hib = higher_is_better(row.unit)
    names = ("higher", "lower") if hib is None else ("faster", "slower")
    s = speedup(row.ratio, row.unit)
    lo, hi = _as_speedup(row.ci, hib)
    # "same": the equivalence interval (1 - 2 alpha) inside the band, where
    # the row has one; a single launch a side keeps its own CIs' bounds
    elo, ehi = _as_speedup(row.eq_ci, hib) if not math.isnan(row.eq_ci[0]) else (lo, hi)
    row.speedup = s
    band = (1.0 / (1.0 + threshold), 1.0 + threshold)
    p = row.p_decisive()
    within = row.test == "within-launch-ci"
    if row.single_value:  # no spread to test against: where the ratio lies, nothing more
        v = "within tolerance" if band[0] <= s <= band[1] else "beyond tolerance"
    elif row.unstable:
        v = f"unstable: {row.unstable} regimes"
    elif p is not None and p < alpha and not band[0] <= s <= band[1]:
        v = names[0] if s > 1.0 else names[1]
    elif not within and not math.isnan(elo) and band[0] <= elo and ehi <= band[1]:
        v = "same"
    elif within and band[0] <= s <= band[1]:
        v = "same"
    elif within and not math.isnan(lo) and not lo <= 1.0 <= hi:
        v = names[0] if s > 1.0 else names[1]
    elif p is not None and p < alpha and not math.isnan(lo) and not lo <= 1.0 <= hi:
        v = SLIGHTLY + (names[0] if s > 1.0 else names[1])
    else:
        v = "unclear"
    row.verdict = v
    return row


def paired_items(bitems, nitems):
    """Pairs (base item, new item) of the same round of one session."""
    nb = {la.pair_key: (la, r) for la, r in nitems if la.pair_key is not None}
    return [(b, nb[b[0].pair_key]) for b in bitems if b[0].pair_key in nb]


def rounds_needed_for(d, alpha, threshold):
    """Pairs that would likely decide a series whose paired log ratios are d."""
    # the plain standard deviation: the robust one understates the heavy tails of
    # launch-to-launch noise (doc/compare.md, the self-test)
    sd = statistics.stdev(d) if len(d) >= 3 else 0.0
    if sd <= 0:
        sd = (max(d) - min(d)) / 2.0 if len(d) > 1 else 0.0
    est = median(d)
    margin = math.log(1.0 + threshold)
    if sd <= 0:
        return None
    if abs(est) >= margin:
        return pairs_needed(sd, est, alpha)
    room = margin - abs(est)
    from statistics import NormalDist
    z = NormalDist().inv_cdf(1 - alpha)  # "same" is one-sided at each end of the band
    return max(6, math.ceil(1.05 * (z * sd / room) ** 2))


def _probe_log(la):
    """ln of the launch's sentinel probe (mean of before and after), or None."""
    vals = [la.sentinels.get(ph, {}).get("probe_latency_us") for ph in ("before", "after")]
    vals = [v for v in vals if isinstance(v, (int, float)) and v > 0]
    return sum(math.log(v) for v in vals) / len(vals) if vals else None


def paired_row(bitems, nitems, alpha, threshold, level, covariate="none", same_launch=False,
               same_alpha=None):
    """Statistics of one series from interleaved launches (no verdict yet).
    same_alpha: the level of "same"'s two one-sided tests (default alpha).
    covariate "probe": the paired differences are adjusted for the pair's
    difference of sentinel probes, centred (stats.adjust_for_covariate).
    same_launch: each pair's two values come from one launch (the sides of
    a guideline), which shares the machine's state: every pair is kept (the
    regime match is for separate launches)."""
    pairs = paired_items(bitems, nitems)
    bv = [b[1]["median"] for b, _ in pairs]
    nv = [n[1]["median"] for _, n in pairs]
    if same_launch:
        kept, gb, gn = list(range(len(pairs))), rg.clusters(bv), rg.clusters(nv)
    else:
        kept, gb, gn = rg.match_pairs(bv, nv) if pairs else ([], [], [])
    kp = [pairs[i] for i in kept]
    row = Row(paired=True, pairs_total=len(pairs), pairs=len(kp),
              regimes={"base": rg.describe(bv, gb), "new": rg.describe(nv, gn)},
              same_mixture=rg.same_mixture(gb, gn),
              dropped=[(pairs[i][0][0], pairs[i][1][0]) for i in range(len(pairs))
                       if i not in kept])
    if len(kp) < MIN_PAIRS:
        row.ratio = (median(nv) / median(bv)) if pairs else NAN
        row.test = "paired-signed-rank"
        if max(len(gb), len(gn)) > 1:
            row.unstable = max(len(gb), len(gn))
        row.note = f"{len(kp)} comparable pairs: at least {MIN_PAIRS} are needed (more rounds)"
        return row
    d = [math.log(n[1]["median"]) - math.log(b[1]["median"]) for b, n in kp]
    if covariate == "probe":
        c = [(_probe_log(n[0]), _probe_log(b[0])) for b, n in kp]
        if all(x is not None and y is not None for x, y in c):
            d, row.covariate_slope = adjust_for_covariate(d, [x - y for x, y in c])
    sa = alpha if same_alpha is None else same_alpha
    est, ((lo, hi, cov), (elo, ehi, _)) = hodges_lehmann_levels(d, (level, 1.0 - 2.0 * sa))
    row.eq_ci = (math.exp(elo), math.exp(ehi))
    _, p, used, method = signed_rank(d)
    row.ratio, row.ci, row.ci_coverage, row.p = math.exp(est), (math.exp(lo), math.exp(hi)), cov, p
    row.test, row.d = "paired-signed-rank-" + method, d
    if len(kp) < min_pairs(alpha):
        row.note = (f"{len(kp)} pairs cannot reach p < {alpha:g}; run at least "
                    f"{min_pairs(alpha)} rounds")
    return row


def unpaired_row(bitems, nitems, alpha, threshold, level, same_alpha=None):
    """Statistics of one series from separate runs (independent launches);
    same_alpha as for paired_row."""
    bv = [r["median"] for _, r in bitems]
    nv = [r["median"] for _, r in nitems]
    gb, gn = rg.clusters(bv), rg.clusters(nv)
    row = Row(paired=False, regimes={"base": rg.describe(bv, gb), "new": rg.describe(nv, gn)},
              same_mixture=rg.same_mixture(gb, gn))
    mb, mn = median(bv), median(nv)
    row.ratio = mn / mb if mb > 0 else float("inf")
    if len(bv) >= 2 and len(nv) >= 2:
        _, p, method = mann_whitney(nv, bv)
        lo, hi, cov = ratio_ci(bv, nv, level)
        row.p, row.test, row.ci, row.ci_coverage = p, "mann-whitney-" + method, (lo, hi), cov
        row.eq_ci = ratio_ci(bv, nv, 1.0 - 2.0 * (alpha if same_alpha is None else same_alpha))[:2]
        if min_p_value(len(bv), len(nv)) >= alpha:
            row.note = (f"{len(bv)} vs {len(nv)} launches cannot reach p < {alpha:g}; "
                        "use at least 4 launches per side (--repeat)")
        if max(len(gb), len(gn)) > 1 and not row.same_mixture:
            row.unstable = max(len(gb), len(gn))
    else:
        b, n = bitems[0][1], nitems[0][1]
        bci = (b.get("ci95_low"), b.get("ci95_high")) if len(bv) == 1 else None
        nci = (n.get("ci95_low"), n.get("ci95_high")) if len(nv) == 1 else None
        if bci and nci and None not in bci + nci and bci[0] > 0 and nci[0] > 0:
            lo, hi = nci[0] / bci[1], nci[1] / bci[0]
        else:
            lo, hi = NAN, NAN
        row.test, row.ci = "within-launch-ci", (lo, hi)
        row.note = "single launch: CI from the launches' own CIs, no test between launches"
        if b.get("imported") or n.get("imported"):
            row.single_value = True
            row.note = ("one value per side without samples (imported): the ratio is all it "
                        "gives: it can say whether the ratio lies within a tolerance, not whether "
                        "the difference exceeds the noise; 4 or more outputs per side give a "
                        "test")
    return row
