# SPDX-License-Identifier: BSD-3-Clause
"""Verdicts across allocations (`compare --by-allocation`, doc/slurm.md):
the sessions of one file (the K allocations `run --allocations K` joins,
or runs appended in different jobs) are the units. In each allocation the
launches of a round are paired as usual and the allocation's estimate is
the median of its paired log ratios; the verdict tests the mean of the K
estimates with Student's t over K - 1 degrees of freedom, so that a
change counts only beyond the spread between allocations (the launch is
the unit within an allocation, the allocation one level up). An
allocation whose launches are the worst of all in most series is named
with its job and nodes (slow_allocations)."""
import math
import statistics
from collections import OrderedDict

from ..core.stats import median
from ..core.tdist import t_cdf, t_quantile
from ..data.results import allocation_words
from .verdicts import Row, higher_is_better, paired_items

# an allocation is named when it is the worst in this share of the series
# and worse than the others' median by more than the threshold (median)
NAME_SHARE = 0.75


def session_labels(rs):
    """{session id: its allocation in words} of a set's sessions."""
    out = OrderedDict()
    for i, s in enumerate(rs.sessions, 1):
        words = allocation_words(s.get("allocation"))
        out[s.get("session_id")] = f"{i} {words}" if words else f"{i}"
    return out


def _by_session(pairs):
    groups = OrderedDict()
    for b, n in pairs:
        d = math.log(n[1]["median"]) - math.log(b[1]["median"])
        groups.setdefault(b[0].pair_key[0], []).append(d)
    return groups


def allocation_row(bitems, nitems, alpha, level):
    """Statistics of one series with the allocation as the unit (no verdict
    yet): ratio exp(mean of the allocations' median log ratios), its t
    interval at `level`, the (1 - 2 alpha) interval for "same", the t test's
    p; row.allocations: {session id: its ratio}."""
    pairs = paired_items(bitems, nitems)
    groups = _by_session(pairs)
    est = OrderedDict((sid, median(d)) for sid, d in groups.items())
    row = Row(paired=True, pairs_total=len(pairs), pairs=len(pairs), test="allocations-t")
    row.allocations = OrderedDict((sid, math.exp(e)) for sid, e in est.items())
    k = len(est)
    if k < 2:
        every = [x for d in groups.values() for x in d]
        row.ratio = math.exp(median(every)) if every else float("nan")
        row.note = (f"{k} allocation{'s' * (k != 1)} with pairs: at least 2 are needed "
                    "(run --allocations K)")
        return row
    e = list(est.values())
    m = statistics.fmean(e)
    se = statistics.stdev(e) / math.sqrt(k)
    if se == 0.0:
        r = math.exp(m)
        row.ratio, row.ci, row.eq_ci = r, (r, r), (r, r)
        row.p = 1.0 if m == 0.0 else 0.0
    else:
        tq, te = t_quantile(1.0 - (1.0 - level) / 2.0, k - 1), t_quantile(1.0 - alpha, k - 1)
        row.ratio = math.exp(m)
        row.ci = (math.exp(m - tq * se), math.exp(m + tq * se))
        row.eq_ci = (math.exp(m - te * se), math.exp(m + te * se))
        row.p = 2.0 * (1.0 - t_cdf(abs(m / se), k - 1))
    row.ci_coverage = level
    row.note = f"{k} allocations: tested against the spread between them"
    return row


def slow_allocations(base, new, threshold):
    """The allocations that are the worst (by both sides' launch medians) in
    at least NAME_SHARE of the common series and worse than the others'
    median by more than the threshold in the median over the series:
    [(session id, share of series, factor)], and the number of series."""
    sb, sn = base.series(), new.series()
    worst, factor = {}, {}
    keys = [k for k in sb if k in sn]
    for key in keys:
        level = OrderedDict()
        for la, r in sb[key] + sn[key]:
            if la.pair_key is not None:
                level.setdefault(la.pair_key[0], []).append(math.log(r["median"]))
        if len(level) < 2:
            continue
        sign = -1.0 if higher_is_better(key.unit) else 1.0
        lv = {sid: sign * median(v) for sid, v in level.items()}
        top = max(lv, key=lv.get)
        worst[top] = worst.get(top, 0) + 1
        for sid, v in lv.items():
            others = [x for s, x in lv.items() if s != sid]
            factor.setdefault(sid, []).append(v - median(others))
    n = sum(worst.values())
    named = []
    for sid, c in worst.items():
        f = math.exp(median(factor[sid]))
        if n and c / n >= NAME_SHARE and f > 1.0 + threshold:
            named.append((sid, c / n, f))
    return named, n


def allocation_lines(base, new, threshold):
    """The lines (and one JSON record) that lead a comparison by allocation."""
    labels = session_labels(base)
    named, n = slow_allocations(base, new, threshold)
    lines = [f"by allocation: {len(labels)} sessions of the file, each an allocation; a verdict "
             "tests the spread between them (Student's t over the allocations)"]
    lines += ["  allocation " + words for words in labels.values()]
    for sid, share, f in named:
        lines.append(f"slow allocation: {labels.get(sid, sid)}: the worst in "
                     f"{round(share * n)} of {n} series, x{f:.2f} of the others (median)")
    if not named and n:
        lines.append(f"no allocation stands out in {n} series")
    rec = {"type": "allocations", "allocations": [{"session_id": s, "label": w}
                                                  for s, w in labels.items()],
           "slow": [{"session_id": s, "label": labels.get(s, s), "share": share, "factor": f}
                    for s, share, f in named], "series": n}
    return lines, rec
