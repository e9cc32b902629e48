# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge model --collectives`: each collective of a set, at every size,
against what the set's own point-to-point model predicts for the algorithm
the library served (model/collectives.py); a gap beyond --factor is named."""
import math

from ..core.common import UsageError, fmt_num, size_label
from ..core.stats import median
from .collectives import operation, path, predicted, served
from .hockney import FitError, fit
from .summary import curves

POINT_TO_POINT = ("latency", "bw", "loggp")


def _collective_series(rs):
    """{(bench, variant, nranks, where): {size: (measured median us, algorithm)}}
    of the set's collectives timed in us."""
    out = {}
    for key, items in rs.series().items():
        if key.bench in POINT_TO_POINT or key.unit != "us" or not isinstance(key.size, int):
            continue
        algs = {r.get("algorithm") for _, r in items}
        out.setdefault((key.bench, key.variant, key.nranks, key.where), {})[key.size] = (
            median([r["median"] for _, r in items]), sorted(algs, key=str)[0])
    return out


def check_set(rs, factor, figure="median", seed=1):
    """(lines, records, gaps) of one set."""
    lat = curves(rs, "latency")
    if not lat:
        raise UsageError(f"{rs.label}: --collectives needs the latency curve beside the "
                         "collectives (latency -m 0:4M in the same run): the model is built "
                         "from it")
    g, curve = sorted(lat.items(), key=lambda kv: kv[0].nranks)[0]
    try:
        m = fit(curve, seed=seed, figure=figure)
    except FitError as e:
        raise UsageError(f"{rs.label}: no point-to-point model: {e}") from None
    lines, docs, gaps = [], [], 0
    found = _collective_series(rs)
    if not found:
        raise UsageError(f"{rs.label}: no collective timed in us in this set")
    for (bench, variant, p, _), sizes in sorted(found.items(), key=lambda kv: str(kv[0][:3])):
        algs = {served(a) for _, a in sizes.values()}
        alg = sorted(algs, key=str)[0]
        head = f"{bench}{' ' + variant if variant else ''} ({rs.label}, {p} ranks)"
        if alg is None:
            lines.append(f"{head}: the algorithm that served it is unknown (force one with its "
                         "cvar to check it, doc/mpit.md)")
            continue
        what = path(bench, alg, p, 0)
        if what is None:
            lines.append(f"{head}: served by {alg}, which has no model here")
            continue
        lines.append(f"{head}, served by {alg} ({what[0]}), against the point-to-point model "
                     f"of latency ({g.nranks} ranks, {len(m.regimes)} "
                     f"regime{'s' if len(m.regimes) != 1 else ''}):")
        lines.append(f"  {'size':>6} {'measured us':>12} {'model us':>10} {'measured/model':>15}")
        rows = []
        for s in sorted(sizes):
            meas = sizes[s][0]
            mod = predicted(m, bench, alg, p, s)
            ratio = meas / mod if mod and mod > 0 else math.nan
            far = not math.isnan(ratio) and not 1.0 / factor <= ratio <= factor
            gaps += far
            note = ""
            if far:
                note = "  more than its algorithm needs" if ratio > factor else \
                    "  less than the model counts (steps overlapped)"
            lines.append(f"  {size_label(s):>6} {fmt_num(meas):>12} {fmt_num(mod):>10} "
                         f"{'x' + format(ratio, '.3g') if not math.isnan(ratio) else 'n/a':>15}"
                         f"{note}")
            rows.append({"size_bytes": s, "measured_us": meas, "model_us": mod, "ratio": ratio})
        over = [r for r in rows if not math.isnan(r["ratio"]) and r["ratio"] > factor]
        if over:
            worst = max(over, key=lambda r: r["ratio"])
            lines.append(f"  {len(over)} of {len(rows)} sizes beyond x{factor:g} of the model "
                         f"(worst x{worst['ratio']:.3g} at {size_label(worst['size_bytes'])}): "
                         f"{operation(bench)} does more than {alg} needs at {p} ranks, or its "
                         "ranks wait (a core shared, arithmetic, a copy the model does not "
                         "count)")
        docs.append({"set": rs.label, "benchmark": bench, "variant": variant, "nranks": p,
                     "algorithm": alg, "path": what[0], "factor": factor, "sizes": rows})
    return lines, docs, gaps
