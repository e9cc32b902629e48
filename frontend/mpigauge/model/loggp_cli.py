# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge model --loggp`: LogGP's parameters per size and per regime from
the loggp program's round trips (model/loggp.py), and --loggopsim FILE,
their LogGOPSim parameter set."""
import json
import math

from ..core.common import UsageError, fmt_num, size_label, write_text_atomic
from ..data.results import load_inputs
from .hockney import FitError, fit
from .loggp import PARAMS, compare_loggp, fit_loggp, loggopsim_flags, records


def messages(rs):
    """The loggp launches' n (--messages), one for all, or None."""
    got = set()
    for la in rs.launches:
        if la.run and la.run.get("benchmark") == "loggp":
            opts = (la.run.get("options") or {}).get("benchmark") or {}
            got.add(opts.get("messages"))
    if len(got) > 1:
        raise UsageError(f"{rs.label}: loggp was run with --messages {sorted(got, key=str)}: "
                         "fit one at a time")
    return got.pop() if got else None


def eager_limit(recs):
    """The last size of the first regime of the one-way time PRTT(1,0)/2
    (the switch of protocol LogGOPSim calls S), or the largest size."""
    curve = {s: [rec["one"] / 2.0 for rec in v.values() if rec.get("one")]
             for s, v in recs.items()}
    curve = {s: v for s, v in curve.items() if v}
    try:
        m = fit(curve, resamples=0)
    except FitError:
        return max(curve) if curve else 0
    return m.breakpoints[0].after if m.breakpoints else max(curve)


def _ci(ci):
    return "[n/a]" if math.isnan(ci[0]) else f"[{fmt_num(ci[0])}, {fmt_num(ci[1])}]"


def text_of(label, m, flags):
    heads = " ".join(f"{k:<24}" for k in ("L", "o_s", "o_r", "g+(s-1)G"))
    out = [f"loggp ({label}, n = {m.n}): LogGP per size, us, median over launches [95% CI]",
           f"  {'size':>6} {'PRTT(1,0)':>10} {heads}"]
    for r in m.rows:
        cells = [f"{fmt_num(r.values[k])} {_ci(r.cis[k])}" for k in PARAMS]
        out.append(f"  {size_label(r.size):>6} {fmt_num(r.prtt):>10} "
                   + " ".join(f"{c:<24}" for c in cells))
    out.append("  the gap g + (s-1) G per regime (Hockney's segmented fit of the gap curve):")
    for reg in m.gap_model.regimes:
        bw = 1e-3 / reg.beta if reg.beta > 0 else math.inf
        span = f"{size_label(reg.lo)}-{size_label(reg.hi)}"
        out.append(f"    {span}: g {fmt_num(reg.alpha + reg.beta)} us, G "
                   f"{fmt_num(reg.beta * 1e3)} ns/B ({fmt_num(bw)} GB/s)")
    small = m.small()
    g, big_g = m.g_and_big_g()
    out.append(f"  LogGP at {size_label(small.size)}: L {fmt_num(small.values['L'])} us, "
               f"o_s {fmt_num(small.values['o_s'])} us, o_r {fmt_num(small.values['o_r'])} us, "
               f"g {fmt_num(g)} us, G {fmt_num(big_g * 1e3)} ns/B")
    if any(r.values["L"] < 0 for r in m.rows):
        neg = [size_label(r.size) for r in m.rows if r.values["L"] < 0]
        out.append(f"  L below zero at {', '.join(neg)}: the overheads measured there exceed "
                   "half the round trip (the library overlaps them, or noise)")
    if flags:
        out.append("  LogGOPSim (ps): " + " ".join(f"-{k} {v}" for k, v in flags))
    return out


def json_of(label, m, flags):
    g, big_g = m.g_and_big_g()
    return {"set": label, "benchmark": "loggp", "messages": m.n,
            "sizes": [{"size_bytes": r.size, "prtt_us": r.prtt, "launches": r.launches,
                       **{f"{k}_us": r.values[k] for k in PARAMS},
                       **{f"{k}_ci_us": list(r.cis[k]) for k in PARAMS}} for r in m.rows],
            "gap_regimes": [{"lo_bytes": reg.lo, "hi_bytes": reg.hi, "g_us": reg.alpha + reg.beta,
                             "G_us_per_byte": reg.beta} for reg in m.gap_model.regimes],
            "g_us": g, "G_us_per_byte": big_g, "loggopsim_ps": dict(flags)}


def verdict_lines(base, new, threshold, docs):
    """LogGP's parameters of new against base, each with its verdict."""
    (bl, bm), (nl, nm) = base, new
    rows = compare_loggp(bm, nm, threshold)
    out = [f"{bl} -> {nl}: LogGP (loggp, n = {bm.n} and {nm.n}); new / base, 95% CI:"]
    for r in rows:
        unit = "ns/B" if r.name == "G" else "us"
        f = (lambda v: v * 1e3) if r.name == "G" else (lambda v: v)
        ci = "[n/a]" if math.isnan(r.ci[0]) else f"[{r.ci[0]:.3g}, {r.ci[1]:.3g}]"
        ratio = "" if math.isnan(r.ratio) else f"x{r.ratio:.3g} {ci}  "
        out.append(f"  {r.regime:<8} {r.name:<4} {fmt_num(f(r.base))} -> {fmt_num(f(r.new))} "
                   f"{unit}  {ratio}{r.verdict}")
    docs.append({"base": bl, "new": nl, "benchmark": "loggp",
                 "parameters": [r._asdict() for r in rows]})
    return out


def cmd_loggp(a):
    """The --loggp form of `mpigauge model`: exit 0, 1 when a set cannot be
    fitted (said why)."""
    sets = load_inputs(a.files)
    if a.loggopsim and len(sets) != 1:
        raise UsageError(f"--loggopsim writes one set's parameters; {len(sets)} given")
    lines, docs, failed, files, fitted = [], [], 0, [], []
    for rs in sets:
        recs = records(rs.series())
        if not recs:
            raise UsageError(f"{rs.label}: no loggp series (run mpigauge_loggp, e.g. "
                             "`loggp -m 1:1M` in a suite)")
        try:
            m = fit_loggp(recs, messages(rs), seed=a.seed, max_segments=a.max_regimes)
        except FitError as e:
            failed += 1
            lines.append(f"loggp ({rs.label}): no model: {e}")
            docs.append({"set": rs.label, "benchmark": "loggp", "error": str(e)})
            continue
        flags = loggopsim_flags(m, eager_limit(recs))
        lines += text_of(rs.label, m, flags)
        docs.append(json_of(rs.label, m, flags))
        files.append((rs.label, flags))
        fitted.append((rs.label, m))
    for label, m in fitted[1:]:
        lines += verdict_lines(fitted[0], (label, m), a.threshold_value, docs)
    if a.loggopsim and files:
        label, flags = files[0]
        write_text_atomic(a.loggopsim, f"# LogGOPSim parameters of {label} (mpigauge model "
                          "--loggp), in picoseconds: the simulator's times come out in ps\n"
                          + " ".join(f"-{k} {v}" for k, v in flags) + "\n")
    text = "\n".join(json.dumps(d, sort_keys=True) for d in docs) if a.json else "\n".join(lines)
    return text + "\n", failed
