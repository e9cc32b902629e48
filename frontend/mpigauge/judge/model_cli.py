# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge model`: Hockney's parameters per protocol regime (and LogGP's,
and the SMPI export) from results already measured, or measured first with
--measure (doc/models.md)."""
import json
import os
import sys
import tempfile

from ..core.common import (EXIT_OK, UsageError, check_output_path, write_text_atomic)
from ..data.results import load_inputs
from ..verdict.compare import parse_threshold
from ..model.hockney import FIGURES, MAX_SEGMENTS, MIN_POINTS, FitError, fit
from ..model.limits import beside, explains, limits
from ..model.summary import TIME_BENCHES, curves, json_of, text_of, verdict_lines


# what --measure runs: the curves each form of the command fits
MEASURE = {"latency": "ranks=2 latency -m 0:4M --time-budget 0.1",
           "loggp": "ranks=2 loggp -m 1:4M --time-budget 0.05",
           "bw": "ranks=2 bw -m 1:4M --time-budget 0.1"}


def measure(a):
    """--measure FILE: run what the asked form fits (latency; loggp with
    --loggp; bw beside latency with --smpi) for every --config (or the
    programs of --bindir), interleaved, into FILE; the sets to fit are then
    FILE's configurations. The run's exit code when it fails."""
    from ..measure.runrequest import RunRequest, run
    from ..measure.configs import parse_config_arg
    if a.files:
        raise UsageError("--measure runs the curves itself: give no FILE (or fit a file "
                         "without --measure)")
    if not a.config and not a.bindir:
        raise UsageError("--measure needs --config LABEL ... (one or more) or --bindir BUILD")
    cfgs = [parse_config_arg(c) for c in a.config or []]
    lines = [MEASURE["loggp"] if a.loggp else MEASURE["latency"]]
    if a.smpi:
        lines.append(MEASURE["bw"])
    with tempfile.TemporaryDirectory() as d:
        suite = os.path.join(d, "model-suite.txt")
        with open(suite, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        rc = run(RunRequest(suite=suite, output=a.measure, repeat=a.rounds, configs=cfgs,
                            bindir=[a.bindir] if a.bindir else None, force=a.force,
                            quiet=a.quiet, launcher=a.launcher, mpi=a.mpi))
    if rc != EXIT_OK:
        print(f"mpigauge model: the measurement into {a.measure} did not complete (exit {rc}); "
              "nothing fitted", file=sys.stderr)
        return rc
    a.files = [a.measure] + [c.label for c in cfgs if c.label]
    return EXIT_OK


def _check(a):
    """Every refusal that needs no data, before anything is measured."""
    if not 1 <= a.max_regimes <= 8:
        raise UsageError("--max-regimes: give 1 to 8")
    if not a.files and not a.measure:
        raise UsageError("model needs results: FILE [LABEL...], or --measure FILE --config ...")
    if a.output:
        check_output_path(a.output, a.files)
    if a.loggopsim and not a.loggp:
        raise UsageError("--loggopsim writes LogGP's parameters: give --loggp too")
    if a.loggopsim:
        check_output_path(a.loggopsim, a.files, "--loggopsim")
    if a.smpi:
        from ..model.smpi_cli import check_folder
        check_folder(a.smpi)
        if a.smpi_hosts is not None and not 2 <= a.smpi_hosts <= 1 << 20:
            raise UsageError("--smpi-hosts: give 2 to 1048576 hosts")
    if a.measure:
        if not 2 <= a.rounds <= 1000:
            raise UsageError("--rounds: give 2 to 1000 (launches per configuration)")
        if a.smpi and len(a.config or []) > 1:
            raise UsageError("--smpi exports one set: give one --config with --measure")
        outs = [x for x in (a.output, a.loggopsim) if x]
        if any(os.path.abspath(x) == os.path.abspath(a.measure) for x in outs):
            raise UsageError(f"--measure {a.measure}: the results file cannot also be an output")
    elif a.config or a.bindir or a.launcher or a.mpi:
        raise UsageError("--config, --bindir, --launcher and --mpi say what --measure runs: "
                         "give --measure FILE")


def cmd_model(a):
    threshold = parse_threshold(a.threshold or ("10%" if a.scaling else "5%"))
    parse_threshold(a.smpi_tolerance)
    _check(a)
    if a.measure:
        rc = measure(a)
        if rc != EXIT_OK:
            return rc
    if a.smpi:
        return _smpi(a)
    if a.collectives:
        return _collectives(a)
    if a.scaling:
        return _scaling(a, threshold)
    if a.loggp:
        from ..model.loggp_cli import cmd_loggp
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


def _collectives(a):
    from ..model.collectives_cli import check_set
    if not 1.0 < a.factor <= 1000:
        raise UsageError("--factor: give a number above 1 (default 2)")
    lines, docs = [], []
    for rs in load_inputs(a.files):
        got, d, _ = check_set(rs, a.factor, a.figure, a.seed)
        lines += got
        docs += d
    return _emit(a, lines, docs)


def _emit(a, lines, docs):
    """The lines, or with --json the records, to -o or standard output."""
    text = "\n".join(json.dumps(d, sort_keys=True) for d in docs) if a.json else \
        "\n".join(lines)
    if a.output:
        write_text_atomic(a.output, text + "\n")
    else:
        sys.stdout.write(text + "\n")
    return EXIT_OK


def _scaling(a, threshold):
    """--scaling: every ranks-sweep line's class and steps per set; with two
    sets or more, what each later set changed against the first."""
    from ..model.scaling_compare import compare
    from ..model.scaling_report import (analyse_set, change_docs, change_lines, set_doc,
                                        set_lines)
    if not 0 < a.alpha < 1:
        raise UsageError("--alpha must be between 0 and 1")
    sets = load_inputs(a.files)
    lines, docs = [], []
    for rs in sets:
        got = analyse_set(rs, threshold, a.alpha, a.seed)
        if not got:
            raise UsageError(f"{rs.label}: no line measured at three rank counts or more "
                             "(--ranks-sweep, or launches at several -n)")
        lines += set_lines(rs.label, got)
        docs += [set_doc(rs.label, sc) for sc in got]
    for new in sets[1:]:
        got = compare(sets[0], new, threshold, a.alpha, a.seed)
        lines += change_lines(sets[0].label, new.label, got)
        docs += change_docs(sets[0].label, new.label, got)
    return _emit(a, lines, docs)


def _smpi(a):
    from ..model.smpi_cli import check_folder, export
    check_folder(a.smpi)
    tol = parse_threshold(a.smpi_tolerance)
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
    p.add_argument("files", nargs="*", metavar="FILE|LABEL")
    p.add_argument("--bench", default="latency", choices=TIME_BENCHES,
                   help="the benchmark whose one-way times are fitted (default latency)")
    p.add_argument("--max-regimes", type=int, default=MAX_SEGMENTS,
                   help=f"at most this many regimes (default {MAX_SEGMENTS})")
    p.add_argument("--seed", type=int, default=1, help="the bootstrap's seed (default 1)")
    p.add_argument("--threshold",
                   help="with two sides or more: the practical significance of a "
                   "parameter's change (default 5%%); --scaling: of a step (default 10%%)")
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
    p.add_argument("--collectives", action="store_true",
                   help="instead: each collective whose algorithm the library names, against "
                   "what the set's point-to-point model predicts for that algorithm")
    p.add_argument("--factor", type=float, default=2.0,
                   help="--collectives: name a size measured beyond this factor of its model "
                   "(default 2)")
    p.add_argument("--scaling", action="store_true",
                   help="instead: each line measured at several rank counts (--ranks-sweep): "
                   "its model class (a, a + b log P, a + b P, a + b P log P, a + b P^2) and "
                   "the steps between neighbouring counts beyond --threshold (default here "
                   "10%%); with two sets or more, the steps each later set added or removed "
                   "and a class it changed (doc/collectives.md)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="--scaling: the error rate of the steps named, over all boundaries "
                   "of a set (default 0.05)")
    p.add_argument("--measure", metavar="FILE",
                   help="first measure what the form fits (latency 0:4M; loggp 1:4M with "
                   "--loggp; bw 1:4M too with --smpi), 2 ranks, every --config interleaved, "
                   "into the results file FILE; then fit it")
    p.add_argument("--config", action="append", metavar="SPEC",
                   help="--measure: a configuration as for run (LABEL KEY=VALUE ...)")
    p.add_argument("--bindir", help="--measure without --config: the programs' build")
    p.add_argument("--launcher", help="--measure: as for run (mpirun, mpiexec, srun, or a "
                   "command line)")
    p.add_argument("--mpi", choices=("openmpi", "mpich"),
                   help="--measure: the programs' launch family, as for run")
    p.add_argument("--rounds", type=int, default=6,
                   help="--measure: launches per configuration (default 6)")
    p.add_argument("--force", action="store_true", help="--measure: replace FILE")
    p.add_argument("-q", "--quiet", action="store_true", help="--measure: no progress lines")
    p.set_defaults(func=cmd_model)
