# SPDX-License-Identifier: BSD-3-Clause
"""Launch regimes and noise-sentinel explanations.

A machine (or a cluster) can switch between performance states that last
longer than a launch; the medians of the launches of one series then fall
into separated groups. `clusters` finds them: sorted by value, the launches
are cut wherever two neighbours are more than REGIME_GAP apart in log space
(a factor of 1.25) and the gap is also large against the spread inside the
groups. With fewer than 4 launches a gap says nothing: one group. A regime is a group; a single launch far from the rest is a regime
of one (an outlier), never hidden.

`match_pairs` keeps the pairs of an interleaved comparison whose two
launches ran in the same regime of their own side (groups matched by rank
when both sides have as many, else to the nearest group by value); a pair
that straddles a change of regime says nothing about the configurations.
"""
import math

from ..core.stats import median

REGIME_GAP = math.log(1.25)   # smallest separation of two regimes
MIN_LAUNCHES = 4              # fewer launches on a side: one group
GAP_VS_SPREAD = 3.0           # and at least 3 x the largest spread inside a group


def clusters(values):
    """Groups of a list of positive values: a list of index lists, ordered
    by value (lowest first)."""
    if not values:
        return []
    if len(values) < MIN_LAUNCHES:
        return [list(range(len(values)))]
    order = sorted(range(len(values)), key=lambda i: values[i])
    logs = [math.log(values[i]) for i in order]
    cuts = [k for k in range(1, len(logs)) if logs[k] - logs[k - 1] > REGIME_GAP]
    while True:
        bounds = [0] + cuts + [len(logs)]
        spread = max(logs[b - 1] - logs[a] for a, b in zip(bounds, bounds[1:]))
        weak = [c for c in cuts if logs[c] - logs[c - 1] < GAP_VS_SPREAD * spread]
        if not weak:
            break
        # merge at the smallest weak gap and look again
        cuts.remove(min(weak, key=lambda c: logs[c] - logs[c - 1]))
    bounds = [0] + cuts + [len(logs)]
    return [[order[k] for k in range(a, b)] for a, b in zip(bounds, bounds[1:])]


def describe(values, groups):
    """[(median value, count)] of each group."""
    return [(median([values[i] for i in g]), len(g)) for g in groups]


def _group_of(groups, n):
    out = [0] * n
    for gi, g in enumerate(groups):
        for i in g:
            out[i] = gi
    return out


def _nearest_map(src, dst):
    """For each group centre of src (log values), the index of the nearest in
    dst, or -1 when none is within REGIME_GAP (a regime the other side never
    ran in)."""
    out = []
    for c in src:
        j = min(range(len(dst)), key=lambda j: abs(dst[j] - c))
        out.append(j if abs(dst[j] - c) <= REGIME_GAP else -1)
    return out


def match_pairs(base_vals, new_vals):
    """base_vals[i], new_vals[i]: the two launches of pair i. Returns
    (kept pair indices, base groups, new groups)."""
    n = len(base_vals)
    gb, gn = clusters(base_vals), clusters(new_vals)
    if len(gb) == 1 and len(gn) == 1:
        return list(range(n)), gb, gn
    ob, on = _group_of(gb, n), _group_of(gn, n)
    if len(gb) == len(gn):
        return [i for i in range(n) if ob[i] == on[i]], gb, gn
    cb = [math.log(v) for v, _ in describe(base_vals, gb)]
    cn = [math.log(v) for v, _ in describe(new_vals, gn)]
    if len(gb) > len(gn):
        # the shift between the sides is that of the largest groups
        shift = cn[max(range(len(gn)), key=lambda j: len(gn[j]))] - \
            cb[max(range(len(gb)), key=lambda j: len(gb[j]))]
        m = _nearest_map([c + shift for c in cb], cn)
        return [i for i in range(n) if m[ob[i]] == on[i]], gb, gn
    shift = cb[max(range(len(gb)), key=lambda j: len(gb[j]))] - \
        cn[max(range(len(gn)), key=lambda j: len(gn[j]))]
    m = _nearest_map([c + shift for c in cn], cb)
    return [i for i in range(n) if m[on[i]] == ob[i]], gb, gn


def same_mixture(gb, gn):
    """True when both sides have their launches in the same proportions over
    matched groups (within 1 launch per group), or both have one group."""
    if len(gb) != len(gn):
        return False
    return all(abs(len(a) - len(b)) <= 1 for a, b in zip(gb, gn))


# --------------------------------------------------------------------------
# noise sentinels
# --------------------------------------------------------------------------

def sentinel_summary(before, after):
    """Plain facts of one launch from its sentinel records (either may be None):
    probe latency (the larger of before and after), computation rate (the
    smaller), context switches, steal and the largest 1-minute load over its
    nodes and phases."""
    s = {}
    recs = [r for r in (before, after) if r]
    lats = [r.get("probe_latency_us") for r in recs if isinstance(r.get("probe_latency_us"), (int, float))]
    rates = [r.get("compute_rate_min") for r in recs if isinstance(r.get("compute_rate_min"), (int, float))]
    if lats:
        s["probe_us"] = max(lats)
        s["probe_before_us"] = (before or {}).get("probe_latency_us")
        s["probe_after_us"] = (after or {}).get("probe_latency_us")
    if rates:
        s["compute_rate"] = min(rates)
    loads = [nd.get("load1") for r in recs for nd in r.get("nodes") or []
             if isinstance(nd.get("load1"), (int, float))]
    if loads:
        s["load1"] = max(loads)
    if before and after:
        nb = {nd.get("host"): nd for nd in before.get("nodes") or []}
        for nd in after.get("nodes") or []:
            b = nb.get(nd.get("host"))
            if not b:
                continue
            for k, out in (("ctxt", "ctxt_delta"), ("steal_jiffies", "steal_delta")):
                if isinstance(nd.get(k), int) and isinstance(b.get(k), int):
                    s[out] = s.get(out, 0) + nd[k] - b[k]
    return s


def explain(launch_summary, typical, slow_factor=1.3):
    """One sentence on why a launch may be an outlier, from its sentinel
    summary against the typical (median) values of the launches of its
    configuration; "" when the sentinels show nothing unusual."""
    why = []
    p, tp = launch_summary.get("probe_us"), typical.get("probe_us")
    if p and tp and p > slow_factor * tp:
        why.append(f"ran while the machine was in a slow regime: probe {p:.3g} us "
                   f"against {tp:.3g} us")
    c, tc = launch_summary.get("compute_rate"), typical.get("compute_rate")
    if c and tc and c * slow_factor < tc:
        why.append(f"the CPU computed at {c / tc * 100:.0f}% of its usual rate")
    st = launch_summary.get("steal_delta")
    if st and st > 0:
        why.append(f"the hypervisor stole {st} jiffies")
    ld, tl = launch_summary.get("load1"), typical.get("load1")
    if ld is not None and tl is not None and ld > tl + 1.0:
        why.append(f"load {ld:.2f} against {tl:.2f}")
    return "; ".join(why)


def typical_summary(summaries):
    """Median of each field over launch summaries."""
    out = {}
    for k in ("probe_us", "compute_rate", "load1"):
        vals = [s[k] for s in summaries if isinstance(s.get(k), (int, float))]
        if vals:
            out[k] = median(vals)
    return out
