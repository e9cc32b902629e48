# SPDX-License-Identifier: BSD-3-Clause
"""What the host paid per timed iteration (a result record's "host" object,
written by the programs' host-cost observer, mpi/observe/obs_hostcost.c) on each side
of a comparison, and the differences worth naming beside a verdict: the
medians over each side's launches of user and system CPU time, context
switches and page faults per iteration (doc/compare.md, "Why it changed")."""
import math

from ..core.common import fmt_num

# (field, what it is, unit, the smallest value per iteration worth naming)
FIELDS = (("sys_us_per_iter", "system CPU", " us", 0.05),
          ("user_us_per_iter", "user CPU", " us", 0.05),
          ("vol_cs_per_iter", "voluntary context switches", "", 0.01),
          ("invol_cs_per_iter", "involuntary context switches", "", 0.01),
          ("minor_faults_per_iter", "minor page faults", "", 0.01),
          ("major_faults_per_iter", "major page faults", "", 0.001),
          ("migrations_per_iter", "CPU migrations", "", 0.001),
          ("instructions_per_iter", "instructions", "", 50.0),
          ("cycles_per_iter", "cycles", "", 50.0),
          ("cache_misses_per_iter", "cache misses", "", 1.0))
FACTOR = 1.5        # a side's median this many times the other's is a difference


def _median(values):
    v = sorted(values)
    n = len(v)
    return (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2) if n else math.nan


def side_medians(items):
    """{field: median over the launches} of a series' [(launch, result)]
    (fields no launch recorded are left out)."""
    out = {}
    for f, *_ in FIELDS:
        vals = [r["host"][f] for _, r in items if isinstance(r.get("host"), dict)
                and isinstance(r["host"].get(f), (int, float)) and math.isfinite(r["host"][f])]
        if vals:
            out[f] = _median(vals)
    return out


def differences(base_items, new_items, factor=FACTOR):
    """[(field, what, unit, base, new)] where the two sides' medians differ by
    factor or more and the larger reaches the field's floor; the largest
    change first."""
    b, n = side_medians(base_items), side_medians(new_items)
    out = []
    for f, what, unit, floor in FIELDS:
        if f not in b or f not in n:
            continue
        lo, hi = sorted((b[f], n[f]))
        if hi >= floor and (lo <= 0 or hi / lo >= factor):
            out.append((f, what, unit, b[f], n[f]))
    out.sort(key=lambda d: -(max(d[3], d[4]) / max(min(d[3], d[4]), 1e-3)))
    return out


def describe(diffs):
    """'system CPU 0.012 -> 1.93 us per iteration (x160); ...'"""
    parts = []
    for _, what, unit, b, n in diffs:
        ratio = f" (x{n / b:.3g})" if b > 0 and n > 0 else ""
        parts.append(f"{what} {fmt_num(b)} -> {fmt_num(n)}{unit} per iteration{ratio}")
    return "; ".join(parts)
