# SPDX-License-Identifier: BSD-3-Clause
"""Hockney's parameters of a set's latency curves as text and JSON, and
their verdicts between two sets (`mpigauge model`, `compare --model`,
`series --model`; doc/models.md)."""
import math

from ..core.common import fmt_num, size_label
from .hockney import FitError, fit
from .paramverdict import compare_models, shape

# time per message in us of the programs whose figure Hockney's model is:
# one-way latency of a ping-pong
TIME_BENCHES = ("latency",)


def curves(rs, bench):
    """{SeriesGroup: {size: [launch medians]}} of a set's series in us."""
    out = {}
    for key, items in rs.series().items():
        if key.bench != bench or key.unit != "us" or not isinstance(key.size, int):
            continue
        out.setdefault(key.group(), {})[key.size] = [r["median"] for _, r in items]
    return out


def _ci(lo, hi, f=lambda v: v):
    if math.isnan(lo):
        return "[n/a]"
    a, b = sorted((f(lo), f(hi)))
    return f"[{fmt_num(a)}, {fmt_num(b) if math.isfinite(b) else 'unbounded'}]"


def _bw(beta):
    """GB/s from us per byte (inf for a flat segment)."""
    return 1e-3 / beta if beta > 0 else math.inf


def text_of(label, g, m):
    head = f"{g.bench}{' ' + g.variant if g.variant else ''} ({label}, {g.nranks} ranks): " \
        f"{len(m.regimes)} regime{'s' if len(m.regimes) != 1 else ''}, " \
        f"t(m) = alpha + m / bandwidth, {m.figure} of {m.launches} launches a size"
    out = [head, f"  {'sizes':<12} {'alpha us [95% CI]':<26} {'bandwidth GB/s [95% CI]':<28} "
           "max residual"]
    for r in m.regimes:
        span = f"{size_label(r.lo)}-{size_label(r.hi)}"
        a = f"{fmt_num(r.alpha)} {_ci(*r.alpha_ci)}"
        b = f"{fmt_num(_bw(r.beta))} {_ci(*r.beta_ci, f=_bw)}"
        out.append(f"  {span:<12} {a:<26} {b:<28} {100 * r.max_residual:.1f}% at "
                   f"{size_label(r.worst)}")
    out += [f"  {size_label(r.lo)}-{size_label(r.hi)}: alpha below zero: the time grows faster "
            "than the size (memory beyond the caches?); the line only approximates it"
            for r in m.regimes if r.superlinear()]
    for b in m.breakpoints:
        where = f"{size_label(b.after)}|{size_label(b.before)}"
        lo, hi = (f"{size_label(x[0])}|{size_label(x[1])}" for x in (b.low, b.high))
        span = where if lo == hi else f"{lo} .. {hi}"
        out.append(f"  breakpoint {where}: 95% of resamples {span} "
                   f"({100 * b.share:.0f}% exactly here)")
    if not m.resamples:
        out.append("  no intervals: one launch a size (run with --repeat or -K for them)")
    return out


def json_of(label, g, m):
    return {"set": label, "benchmark": g.bench, "variant": g.variant, "nranks": g.nranks,
            "figure": m.figure,
            "launches": m.launches, "resamples": m.resamples,
            "regimes": [{"lo_bytes": r.lo, "hi_bytes": r.hi, "alpha_us": r.alpha,
                         "alpha_ci_us": list(r.alpha_ci), "beta_us_per_byte": r.beta,
                         "beta_ci_us_per_byte": list(r.beta_ci), "points": r.points,
                         "max_residual": r.max_residual, "worst_bytes": r.worst,
                         "superlinear": r.superlinear()} for r in m.regimes],
            "breakpoints": [{"after_bytes": b.after, "before_bytes": b.before,
                             "low": list(b.low), "high": list(b.high), "share": b.share}
                            for b in m.breakpoints]}


def _bps(m):
    return ", ".join(f"{size_label(x)}|{size_label(y)}" for x, y in shape(m)) or "none"


def verdict_lines(base, new, threshold, docs, refit):
    """The parameters of each curve both sides have, new against base; where
    the breakpoints moved, that is said and the new side is refitted on the
    base's regimes (refit(g, spans)) to compare the parameters."""
    (bl, bm), (nl, nm) = base, new
    out = []
    for g in sorted(set(bm) & set(nm), key=str):
        head = f"{bl} -> {nl}: {g.bench}{' ' + g.variant if g.variant else ''} ({g.nranks} ranks)"
        doc = {"base": bl, "new": nl, "benchmark": g.bench, "nranks": g.nranks, "parameters": [],
               "breakpoints_moved": shape(bm[g]) != shape(nm[g])}
        other = nm[g]
        if doc["breakpoints_moved"]:
            out.append(f"{head}: the breakpoints moved ({_bps(bm[g])} against {_bps(nm[g])}); "
                       f"{nl} refitted on {bl}'s regimes; new / base, 95% CI:")
            try:
                other = refit(nl, g, [(r.lo, r.hi) for r in bm[g].regimes])
            except FitError as e:
                out.append(f"  no parameter compared: {e}")
                docs.append(doc)
                continue
        else:
            out.append(f"{head}: the same breakpoints ({_bps(bm[g])}); new / base, 95% CI:")
        rows = compare_models(bm[g], other, threshold)
        for r in rows:
            unit = "us" if r.name == "alpha" else "GB/s"
            f = (lambda v: v) if r.name == "alpha" else (lambda v: v / 1000.0)
            ci = "[n/a]" if math.isnan(r.ci[0]) else f"[{r.ci[0]:.3g}, {r.ci[1]:.3g}]"
            out.append(f"  {r.regime:<12} {r.name:<10} {fmt_num(f(r.base))} -> "
                       f"{fmt_num(f(r.new))} {unit}  x{r.ratio:.3g} {ci}  {r.verdict}")
            doc["parameters"].append(r._asdict())
        docs.append(doc)
    return out


def parameter_verdicts(base, new, threshold, figure="median", seed=1):
    """Hockney's parameters of every latency curve both sets have, new
    against base (compare --model, series --model): (lines, records)."""
    got = {rs.label: curves(rs, "latency") for rs in (base, new)}
    fitted = []
    for rs in (base, new):
        models = {}
        for g, curve in got[rs.label].items():
            try:
                models[g] = fit(curve, seed=seed, figure=figure)
            except FitError:
                continue
        fitted.append((rs.label, models))

    def refit(label, g, spans):
        return fit(got[label][g], seed=seed, figure=figure, spans=spans)
    docs = []
    lines = verdict_lines(fitted[0], fitted[1], threshold, docs, refit)
    lines += loggp_verdicts(base, new, threshold, docs, seed)
    if not lines:
        lines = [f"{base.label} -> {new.label}: no latency curve fitted on both sides "
                 "(Hockney's parameters need latency at 3 sizes or more, e.g. -m 0:4M)"]
    return lines, docs


def loggp_verdicts(base, new, threshold, docs, seed=1):
    """LogGP's parameters, new against base, where both sets ran loggp."""
    from .hockney import FitError
    from .loggp import fit_loggp, records
    from .loggp_cli import messages, verdict_lines as loggp_lines
    recs = [records(rs.series()) for rs in (base, new)]
    if not all(recs):
        return []
    try:
        models = [fit_loggp(r, messages(rs), seed=seed) for r, rs in zip(recs, (base, new))]
    except FitError as e:
        return [f"{base.label} -> {new.label}: LogGP: no model: {e}"]
    return loggp_lines((base.label, models[0]), (new.label, models[1]), threshold, docs)
