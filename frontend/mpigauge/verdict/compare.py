# SPDX-License-Identifier: BSD-3-Clause
"""Verdicts: a comparison of two sides per series (benchmark, variant,
ranks, options or suite line, size, unit), doc/compare.md.

Interleaved configurations (one run, launches in randomized rounds): the
launches of a round are paired; the test is Wilcoxon's signed-rank test on
the paired log ratios, the ratio is the Hodges-Lehmann estimate with its
distribution-free CI, pairs that straddle a change of launch regime are
left out (and named). Separate files: the launches are independent draws,
Mann-Whitney's U test and the matching ratio CI (the earlier method), with a
note that drifts between the runs are not controlled. Over all series of
one comparison the p-values are adjusted (Benjamini-Hochberg by default,
Holm on request), so that more sizes do not mean more false alarms.
"""
import math
from collections import OrderedDict
from typing import NamedTuple

from ..data import regimes as rg
from ..core.common import UsageError
from ..data.hostcost import differences as host_differences
from ..data.results import bench_label, needs_config_label
from ..core.stats import adjust_pvalues, median
from .allocations import allocation_row
from .verdicts import DECIDED, DIFFERENCES, decide, paired_row, rounds_needed_for, unpaired_row


def sentinel_context(rs):
    """(summary per launch id, typical summary) of a set's sentinels."""
    sums = {la.launch_id: rg.sentinel_summary(la.sentinels.get("before"),
                                              la.sentinels.get("after")) for la in rs.launches}
    return sums, rg.typical_summary(list(sums.values()))


def _explanations(sides, row):
    """Sentences on the launches that fell outside: those of pairs left out,
    and those outside the largest regime of their side, each with what its
    sentinels say. sides: [(set, items, sentinel_context(set))]."""
    out = []
    dropped = {id(x) for pair in row.dropped for x in pair}
    for rs, items, (sums, typical) in sides:
        groups = rg.clusters([r["median"] for _, r in items])
        main = set(max(groups, key=len)) if groups else set()
        for i, (la, r) in enumerate(items):
            if id(la) not in dropped and i in main:
                continue
            if not la.sentinels and la.run.get("imported"):
                continue  # said once under the table (render.notes), not per launch
            why = rg.explain(sums.get(la.launch_id, {}), typical)
            where = f"round {la.round}" if la.round is not None else la.launch_id
            if not la.sentinels:
                why = why or "no sentinels recorded"
            out.append(f"{rs.label} {where}: {r['median']:.4g} {r.get('unit', '')}"
                       + (f": {why}" if why else ": the sentinels show nothing unusual"))
    return out


def compare_sets(base, new, threshold=0.05, alpha=0.05, control="bh", level=None,
                 covariate="none", by_allocation=False, same_alpha=None):
    """Rows comparing new against base, plus lists of unmatched keys.
    level: the CI level (default 1 - alpha). by_allocation: each session of
    the file is an allocation, the unit of the test (allocations.py).
    same_alpha: the level of "same"'s two one-sided tests where it is not
    alpha (a series walk divides alpha over its pairs for the differences
    it names, not for "same": series_folder.comparer)."""
    level = level or 1.0 - alpha
    sb, sn = base.series(), new.series()
    need = needs_config_label(list(sb) + list(sn))
    cb, cn = sentinel_context(base), sentinel_context(new)
    paired = base.interleaved() and new.interleaved() and base.path == new.path
    if by_allocation and not paired:
        raise UsageError("--by-allocation: configurations of one file (FILE LABEL LABEL), "
                         "whose sessions are the allocations")
    rows = []
    for key, items in sb.items():
        if key not in sn:
            continue
        if by_allocation:
            row = allocation_row(items, sn[key], alpha, level)
        elif paired:
            row = paired_row(items, sn[key], alpha, threshold, level, covariate,
                             same_alpha=same_alpha)
        else:
            row = unpaired_row(items, sn[key], alpha, threshold, level, same_alpha)
        row.key, row.label, row.unit = key, bench_label(key, need), key.unit
        row.base_median = median([r["median"] for _, r in items])
        row.new_median = median([r["median"] for _, r in sn[key]])
        row.m, row.n = len(items), len(sn[key])
        row.base_launches = [la.launch_id for la, _ in items]
        row.new_launches = [la.launch_id for la, _ in sn[key]]
        row.outliers = _explanations([(base, items, cb), (new, sn[key], cn)], row)
        row.host = host_differences(items, sn[key])
        rows.append(row)
    adj = adjust_pvalues([r.p for r in rows], control)
    for r, pa in zip(rows, adj):
        r.p_adjusted = pa
        decide(r, threshold, alpha)
    # the level a further series must reach under the adjustment
    m = sum(1 for r in rows if r.p is not None) or 1
    found = sum(1 for r in rows if r.verdict in DIFFERENCES)
    level = {"bh": alpha * (found + 1) / m, "holm": alpha / max(1, m - found)}.get(control, alpha)
    for r in rows:
        if r.d is not None:
            r.rounds_needed = rounds_needed_for(r.d, min(alpha, level), threshold)
            r.d = None
    only_base = [(bench_label(k, need), k) for k in sb if k not in sn]
    only_new = [(bench_label(k, need), k) for k in sn if k not in sb]
    return rows, only_base, only_new


def verdict_counts(rows):
    c = OrderedDict()
    for r in rows:
        v = r.verdict.split(":")[0]
        c[v] = c.get(v, 0) + 1
    return c


def undecided(rows):
    """Rows whose verdict is not final (unclear, unstable)."""
    return [r for r in rows if r.verdict not in DECIDED]


def _binding_kind(run):
    b = run.get("bindings") or []
    if not b:
        return "unknown"
    return "unbound" if any("unbound" in str(x) for x in b) else "bound"


def provenance_warnings(base, new):
    """Warnings about runs made differently (host or node count, binding, rank
    count, timer, mpigauge version, CPU model, kernel), one line per
    difference, naming the benchmarks it concerns. A library may choose its
    tuning and copy kernels by the CPU: two CPUs make two experiments."""
    names = OrderedDict([("hosts", "host count"), ("nnodes", "node count"), ("binding", "binding"),
                         ("nranks", "rank count"), ("timer", "timer"),
                         ("mpigauge_version", "mpigauge version"), ("cpu_model", "CPU model"),
                         ("kernel", "kernel")])

    def summary(rs):
        d = OrderedDict()
        for la in rs.launches:
            r = la.run
            s = d.setdefault(r.get("benchmark"), {f: set() for f in names})
            s["hosts"].add(str(len(set(r.get("hosts") or []))))
            s["nnodes"].add(str(r.get("nnodes")))
            s["binding"].add(_binding_kind(r))
            s["nranks"].add(str(r.get("nranks")))
            s["timer"].add(str(r.get("timer")))
            s["mpigauge_version"].add(str(r.get("mpigauge_version")))
            s["cpu_model"].add(str(r.get("cpu_model", "not recorded")))
            s["kernel"].add(str(r.get("kernel", "not recorded")))
        return d

    grouped = OrderedDict()
    sb, sn = summary(base), summary(new)
    for rs, s in ((base, sb), (new, sn)):
        for b, fields in s.items():
            for f, vals in fields.items():
                if len(vals) > 1:
                    msg = f"{rs.label}: launches differ among themselves in {names[f]}: " \
                          + ", ".join(sorted(vals))
                    grouped.setdefault(msg, []).append(b)
    for b in [b for b in sb if b in sn]:
        for f, name in names.items():
            if sb[b][f] != sn[b][f]:
                msg = (f"{name} differs: {base.label}: {', '.join(sorted(sb[b][f]))}; "
                       f"{new.label}: {', '.join(sorted(sn[b][f]))}")
                grouped.setdefault(msg, []).append(b)
    return [f"{m} ({', '.join(bs)})" for m, bs in grouped.items()]


def what_differs(base, new):
    """What the two sides were set to differently, said once: how the
    libraries were built (device, configure options, package), then the
    library's MPI_T control variables (the most telling first, counts for
    the rest), then the library settings in the environment (values that change with
    every launch never named). Expected between two libraries or releases:
    not warnings."""
    from ..data.cvars import build_differences, differences, env_differences
    return build_differences(base, new) + differences(base, new) + env_differences(base, new)


def explanations(base, new):
    """What may explain a verdict between two sides, first what the
    library was set to (what_differs), then how the runs were made
    (provenance_warnings)."""
    return what_differs(base, new) + provenance_warnings(base, new)


class Comparison(NamedTuple):
    """One side against the base, as compare, report and history check render it."""
    base: object
    new: object
    rows: list
    only_base: list
    only_new: list
    warnings: list          # how the runs were made differently; caveats on the verdicts
    differs: list = []      # what the sides were set to differently (what_differs)


def comparison(base, new, rows, only_base, only_new, extra_warnings=()):
    """A Comparison with its warnings (provenance, then extra_warnings) and what
    differs."""
    return Comparison(base, new, rows, only_base, only_new,
                      provenance_warnings(base, new) + list(extra_warnings),
                      what_differs(base, new))


def parse_threshold(s):
    t = s.strip()
    try:
        if t.endswith("%"):
            v = float(t[:-1]) / 100.0
        else:
            v = float(t)
            if v >= 1:
                v /= 100.0
    except ValueError:
        raise UsageError(f"--threshold {s!r}: give a percentage such as 5% (or 0.05)") from None
    if not 0 <= v < 10 or math.isnan(v):
        raise UsageError(f"--threshold {s!r} out of range")
    return v
