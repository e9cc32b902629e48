# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge model`: Hockney's parameters per protocol regime from results
already measured (doc/models.md)."""
import json
import math
import sys

from ..core.common import (EXIT_OK, UsageError, check_output_path, fmt_num, size_label,
                           write_text_atomic)
from ..data.results import load_inputs
from ..verdict.compare import parse_threshold
from .hockney import FIGURES, MAX_SEGMENTS, MIN_POINTS, FitError, fit
from .limits import beside, explains, limits
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
    if not lines:
        lines = [f"{base.label} -> {new.label}: no latency curve fitted on both sides "
                 "(Hockney's parameters need latency at 3 sizes or more, e.g. -m 0:4M)"]
    return lines, docs


def cmd_model(a):
    if not 1 <= a.max_regimes <= 8:
        raise UsageError("--max-regimes: give 1 to 8")
    if a.output:
        check_output_path(a.output, a.files)
    threshold = parse_threshold(a.threshold)
    if a.smpi:
        return _smpi(a)
    if a.loggopsim and not a.loggp:
        raise UsageError("--loggopsim writes LogGP's parameters: give --loggp too")
    if a.loggopsim:
        check_output_path(a.loggopsim, a.files, "--loggopsim")
    if a.loggp:
        from .loggp_cli import cmd_loggp
        a.threshold_value = threshold
        text, failed = cmd_loggp(a)
        if a.output:
            write_text_atomic(a.output, text)
        else:
            sys.stdout.write(text)
        return EXIT_OK if not failed else 1
    lines, docs, failed, fitted, curves_of = [], [], 0, [], {}
    for rs in load_inputs(a.files):
        fitted.append((rs.label, {}))
        got = curves_of[rs.label] = curves(rs, a.bench)
        lims = limits(rs)
        if not got:
            raise UsageError(f"{rs.label}: no {a.bench} series in us (Hockney's model is fitted "
                             f"to one-way times: {', '.join(TIME_BENCHES)})")
        for g, curve in sorted(got.items(), key=lambda kv: str(kv[0])):
            try:
                m = fit(curve, max_segments=a.max_regimes, seed=a.seed, figure=a.figure)
            except FitError as e:
                failed += 1
                lines.append(f"{g.bench} ({rs.label}, {g.nranks} ranks): no model: {e}")
                docs.append({"set": rs.label, "benchmark": g.bench, "nranks": g.nranks,
                             "error": str(e)})
                continue
            fitted[-1][1][g] = m
            lines += text_of(rs.label, g, m)
            if lims:
                lines.append("  the library's size limits (MPI_T control variables):")
                lines += beside(m, lims, min(curve), max(curve))
            doc = json_of(rs.label, g, m)
            for b, d in zip(m.breakpoints, doc["breakpoints"]):
                d["limits"] = {n: v for n, v in lims.items() if explains(v, b.after, b.before)}
            docs.append(doc)

    def refit(label, g, spans):
        return fit(curves_of[label][g], max_segments=a.max_regimes, seed=a.seed,
                   figure=a.figure, spans=spans)
    for label, models in fitted[1:]:
        lines += verdict_lines(fitted[0], (label, models), threshold, docs, refit)
    text = "\n".join(lines) + "\n"
    if a.json:
        text = "\n".join(json.dumps(d, sort_keys=True) for d in docs) + "\n"
    if a.output:
        write_text_atomic(a.output, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK if not failed else 1


def _smpi(a):
    from .smpi_cli import check_folder, export
    check_folder(a.smpi)
    tol = parse_threshold(a.smpi_tolerance)
    if a.smpi_hosts is not None and not 2 <= a.smpi_hosts <= 1 << 20:
        raise UsageError("--smpi-hosts: give 2 to 1048576 hosts")
    sets = load_inputs(a.files)
    if len(sets) != 1:
        names = ", ".join(s.label for s in sets)
        raise UsageError(f"--smpi exports one set; {len(sets)} given ({names}): name one "
                         "configuration, e.g. FILE LABEL")
    nranks = sorted({k.nranks for k in sets[0].series()})
    hosts = a.smpi_hosts or (nranks[0] if len(nranks) == 1 else 2)
    lines = export(sets[0], a.smpi, hosts, tol, a.figure)
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def add_parser(sub):
    p = sub.add_parser("model", help="Hockney's parameters per protocol regime, breakpoints "
                       "found from the data",
                       description="Fits t(m) = alpha + m / bandwidth to each latency curve "
                       "of the results, on segments of the size axis that the data choose "
                       f"(the split of least BIC, 1 to --max-regimes segments of {MIN_POINTS} "
                       "sizes or more), with 95% intervals from a bootstrap over launches. "
                       "Sets as for compare; with two or more, each regime's parameters "
                       "of every later set get a verdict against the first's. Exit 1 when "
                       "a curve cannot be fitted (said why), 2 on bad input.")
    p.add_argument("files", nargs="+", metavar="FILE|LABEL")
    p.add_argument("--bench", default="latency", choices=TIME_BENCHES,
                   help="the benchmark whose one-way times are fitted (default latency)")
    p.add_argument("--max-regimes", type=int, default=MAX_SEGMENTS,
                   help=f"at most this many regimes (default {MAX_SEGMENTS})")
    p.add_argument("--seed", type=int, default=1, help="the bootstrap's seed (default 1)")
    p.add_argument("--threshold", default="5%",
                   help="with two sides or more: the practical significance of a "
                   "parameter's change (default 5%%)")
    p.add_argument("--figure", choices=sorted(FIGURES), default="median",
                   help="what stands for a size: the median over its launches (default), or "
                   "the best launch (the machine's fast state; optimistic intervals)")
    p.add_argument("--json", action="store_true", help="JSON Lines, one model per curve")
    p.add_argument("-o", "--output", help="write to this file (default standard output)")
    p.add_argument("--loggp", action="store_true",
                   help="instead: LogGP's L, o_s, o_r, g and G from the loggp program's round "
                   "trips (the PRTT method), per size and per regime")
    p.add_argument("--loggopsim", metavar="FILE",
                   help="--loggp: also write the first set's LogGOPSim parameters (-L -o -g -G "
                   "-O -S, in picoseconds) to FILE")
    p.add_argument("--smpi", metavar="DIR",
                   help="instead: export one set's latency and bw curves as a SimGrid SMPI "
                   "platform (DIR/platform.xml, DIR/hostfile, DIR/smpi.json; a new or empty "
                   "folder, or an earlier export's) for smpirun")
    p.add_argument("--smpi-hosts", type=int, metavar="N",
                   help="--smpi: hosts of the platform and its hostfile (default: the "
                   "measured rank count)")
    p.add_argument("--smpi-tolerance", default="5%", metavar="PCT",
                   help="--smpi: the fewest segments that hold every measured size within "
                   "this (default 5%%)")
    p.set_defaults(func=cmd_model)
