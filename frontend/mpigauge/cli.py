# SPDX-License-Identifier: BSD-3-Clause
"""The command line: `mpigauge COMMAND ...`."""
import argparse
import os
import sqlite3
import sys

from .common import (parse_size_arg, EXIT_FAIL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, OutputError, UsageError,
                     check_output_path, version, warn, write_text_atomic)
from .launch import DEFAULT_TIMEOUT, Interrupted

DESCRIPTION = """mpigauge: run suites of mpigauge benchmarks, compare, plot and report results.

  mpigauge run       run a suite; with configurations, interleaved in randomized rounds
  mpigauge compare   ratio, CI, adjusted p and a verdict per benchmark and size
  mpigauge best      the best configuration per benchmark and size, and its ties
  mpigauge plot      median against message size with CI bands (needs matplotlib)
  mpigauge report    one self-contained HTML page for results
  mpigauge selftest  the instrument's own false-alarm and detection rates here
  mpigauge history   keep results per release in a database; check a run against the last
  mpigauge dashboard a static site of the history: trends, regimes, regressions
"""


def _sequential_alpha(sets, alpha):
    """A file from `run --until-decided` is judged at alpha / its planned looks."""
    looks = max((s.looks for s in sets), default=0)
    return (alpha / looks, looks) if looks > 1 else (alpha, None)


def cmd_compare(a):
    from .compare import compare_sets, parse_threshold, provenance_warnings
    from .render import (html_page, render_html_comparisons, render_json, render_markdown,
                         render_text)
    from .results import load_inputs
    threshold = parse_threshold(a.threshold)
    if not 0 < a.alpha < 1:
        raise UsageError("--alpha must be between 0 and 1")
    if a.output:
        check_output_path(a.output)
    sets = load_inputs(a.files)
    if len(sets) < 2:
        raise UsageError("compare needs BASE and NEW: two or more files, or a file of an "
                         "interleaved run and two or more of its configuration labels")
    alpha, looks = _sequential_alpha(sets, a.alpha)
    base, comparisons = sets[0], []
    for s in sets:
        for w in s.warnings:
            warn(w)
    for new in sets[1:]:
        rows, ob, on = compare_sets(base, new, threshold, alpha, a.error_control,
                                    covariate=a.covariate)
        warns = provenance_warnings(base, new)
        if looks:
            warns.append(f"sequential run ({looks} planned looks): tested at alpha {alpha:.4g} "
                         f"= {a.alpha:g} / {looks}")
        if not rows:
            warns.append(f"nothing in common between {base.label} and {new.label} "
                         "(same benchmark, variant, ranks, options, size and unit)")
        for w in warns:
            warn(w)
        comparisons.append((base, new, rows, ob, on, warns))
    fmt = {"md": "markdown"}.get(a.format, a.format)
    if fmt is None:
        ext = os.path.splitext(a.output or "")[1].lower()
        fmt = {".md": "markdown", ".html": "html", ".htm": "html", ".json": "json",
               ".jsonl": "json"}.get(ext, "text")
    args = (comparisons, threshold, alpha, a.error_control)
    if fmt == "html":
        body = render_html_comparisons(*args)
        if not a.no_plot:
            from .plot import plot_svg_or_none
            svg = plot_svg_or_none(sets)
            body += "\n<h2>Plots</h2>\n" + (svg or "<p>(plots need matplotlib: "
                                             "python3 -m pip install matplotlib)</p>")
        doc = html_page("mpigauge comparison", body)
    else:
        doc = {"text": render_text, "markdown": render_markdown, "json": render_json}[fmt](*args)
    doc = doc if doc.endswith("\n") else doc + "\n"
    if a.output:
        write_text_atomic(a.output, doc)
    else:
        sys.stdout.write(doc)
    if not any(c[2] for c in comparisons):
        return EXIT_USAGE
    if a.fail_on_regression and any(r["verdict"] == "slower" for c in comparisons for r in c[2]):
        print("mpigauge compare: regression: at least one benchmark and size is slower",
              file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def add_verdict_options(p, what=""):
    """--threshold, --alpha, --error-control, --covariate (compare, best, run, selftest)."""
    p.add_argument("--threshold", default="5%", help=what + "practical significance (default 5%%)")
    p.add_argument("--alpha", type=float, default=0.05, help=what + "error rate (default 0.05)")
    p.add_argument("--error-control", choices=("bh", "holm", "none"), default="bh",
                   help=what + "adjustment over the series: Benjamini-Hochberg (default), Holm, none")
    p.add_argument("--covariate", choices=("none", "probe"), default="none",
                   help=what + "paired runs: adjust for the launches' sentinel probes")


def _add_run(sub):
    from .runner import cmd_run
    r = sub.add_parser("run", help="run a suite of benchmarks (configurations interleaved)",
                       description="Run each benchmark line of a suite as its own launch under a "
                       "timeout; with two or more configurations, interleave them in randomized "
                       "rounds. Every launch's JSON Lines, with a launch id, configuration and "
                       "round, go to one results file. Arguments after -- go to every benchmark.")
    r.add_argument("--suite", default="quick",
                   help="quick, pt2pt, collectives, onesided, overlap, full, or a suite file (default quick)")
    r.add_argument("--config", action="append", metavar="'LABEL [KEY=VALUE...]'",
                   help="a configuration (repeatable): bindir=, prefix=, mpi=, args=, "
                   "launcher-args=, and NAME=VALUE environment variables")
    r.add_argument("--configs", action="append", metavar="FILE.toml",
                   help="configurations from a TOML file ([[config]], [[sweep]])")
    r.add_argument("--launcher", default=None,
                   help="mpirun or mpiexec (the MPI's own launcher), srun, or a command line "
                   "('{n}' = ranks). Default: srun inside a Slurm allocation, else mpirun")
    r.add_argument("--max-ranks", type=int, default=None, metavar="N",
                   help="allow lines of up to N ranks (default: the Slurm allocation's tasks, "
                   "else 16 per core of this node)")
    r.add_argument("-n", "--nranks", type=int, default=2,
                   help="ranks for suite lines without ranks= (default 2)")
    r.add_argument("--repeat", "--rounds", "-K", type=int, default=1, dest="repeat",
                   help="rounds: launches per benchmark line and configuration (default 1)")
    r.add_argument("--interleave", choices=("turns", "launches"), default="turns",
                   help="configurations: run a line's configurations at once, taking turns at "
                   "measuring every --turn-slice (turns, default), or one after the other "
                   "(launches); doc/compare.md")
    r.add_argument("--turn-slice", type=float, default=0.005, metavar="SECONDS",
                   help="turns: measuring time before a launch hands the turn on (default 0.005)")
    r.add_argument("--seed", type=int, help="seed of the random order (default: random, recorded)")
    r.add_argument("--until-decided", action="store_true",
                   help="add rounds until every series of base (the first configuration) "
                   "against each other one has a final verdict, or a cap is reached")
    r.add_argument("--min-rounds", type=int, default=6, help="--until-decided: first look (default 6)")
    r.add_argument("--max-rounds", type=int, default=30, help="--until-decided: cap (default 30)")
    r.add_argument("--max-time", type=float, default=None,
                   help="stop after the round that passes SECONDS of run time")
    add_verdict_options(r, "--until-decided: ")
    r.add_argument("-o", "--output", help="results file (JSON Lines)")
    r.add_argument("--append", action="store_true", help="add to an existing results file")
    r.add_argument("--keep-partial", action="store_true",
                   help="keep the rows of launches stopped before their last size (status "
                        "partial; left out by default)")
    r.add_argument("--force", action="store_true", help="replace an existing results file")
    r.add_argument("--bindir", action="append",
                   help="folder with the mpigauge_* programs or a build tree (repeatable; "
                   "default: next to this script, the build tree, the install bindir, PATH)")
    r.add_argument("--mpi", choices=("openmpi", "mpich"),
                   help="the launch family of the programs' MPI (Intel MPI: mpich; default: asked from the library the programs load)")
    r.add_argument("--timeout", type=float, default=None,
                   help=f"seconds per launch (default {DEFAULT_TIMEOUT:g}; a suite line's timeout= wins)")
    r.add_argument("--exit-grace", type=float, default=30.0, metavar="SECONDS",
                   help="stop a launch this long after its last record when it has not exited "
                   "(a hang in MPI_Finalize); its results are kept (default 30)")
    r.add_argument("--dry-run", action="store_true", help="print the launch commands and stop")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    r.add_argument("args", nargs=argparse.REMAINDER, help="-- ARGS for every benchmark")
    r.set_defaults(func=_with_threshold(cmd_run))


def _with_threshold(f):
    def run(a):
        from .compare import parse_threshold
        a.threshold_value = parse_threshold(a.threshold)
        if not 0 < a.alpha < 1:
            raise UsageError("--alpha must be between 0 and 1")
        return f(a)
    return run


def _add_compare(sub):
    c = sub.add_parser("compare", help="compare results with a verdict per benchmark and size",
                       description="Compare NEW against BASE per benchmark, variant, rank count, "
                       "options (or suite line), size and unit. FILE LABEL LABEL...: "
                       "configurations of one interleaved run, paired by round (signed-rank "
                       "test); FILE FILE...: separate runs (Mann-Whitney). A file may be given "
                       "as LABEL=FILE. p-values are adjusted over all series.")
    c.add_argument("files", nargs="+", metavar="FILE|LABEL", help="BASE NEW [NEW...]")
    add_verdict_options(c)
    c.add_argument("--format", choices=("text", "markdown", "md", "html", "json"),
                   help="default: from -o's extension (.md, .html, .json), else text")
    c.add_argument("-o", "--output", help="write to FILE instead of standard output")
    c.add_argument("--fail-on-regression", action="store_true",
                   help="exit 1 when any benchmark and size is slower")
    c.add_argument("--no-plot", action="store_true", help="HTML: no embedded plot")
    c.set_defaults(func=cmd_compare)


def _add_others(sub):
    from .best import cmd_best
    from .plot import cmd_plot
    from .report import cmd_report
    from .selftest import add_parser as add_selftest
    b = sub.add_parser("best", help="best configuration per benchmark and size, and its ties",
                       description="For an interleaved run over configurations (a knob's "
                       "values): per benchmark and size the best configuration and those not "
                       "distinguishable from it.")
    b.add_argument("files", nargs="+", metavar="FILE|LABEL")
    add_verdict_options(b)
    b.add_argument("--format", choices=("text", "json"), default="text")
    b.set_defaults(func=cmd_best)
    pl = sub.add_parser("plot", help="plot results against message size (needs matplotlib)",
                        description="One panel per benchmark, one line per set (the median, "
                        "with its 95% CI as a band), log axes. Sets as for compare.")
    pl.add_argument("files", nargs="+", metavar="FILE|LABEL")
    pl.add_argument("-o", "--output", required=True, help="out.png, out.svg or out.pdf")
    pl.add_argument("--title")
    pl.add_argument("--dpi", type=int, default=100)
    pl.add_argument("--against", choices=("size", "ranks"), default="size",
                    help="x axis: message size (default), or the rank count of a "
                    "--ranks-sweep (one line per collective, one panel per set and size)")
    pl.add_argument("--size", type=parse_size_arg, default=None,
                    help="--against ranks: only this message size (default every size)")
    pl.set_defaults(func=cmd_plot)
    rp = sub.add_parser("report", help="one self-contained HTML page for results",
                        description="Sessions, launch status, noise sentinels, provenance, "
                        "result tables and plots (embedded SVG); with several sets also the "
                        "comparison of each against the first. Sets as for compare.")
    rp.add_argument("files", nargs="+", metavar="FILE|LABEL")
    rp.add_argument("-o", "--output", required=True, help="report.html")
    rp.add_argument("--title")
    rp.add_argument("--threshold", default="5%")
    rp.add_argument("--no-plot", action="store_true")
    rp.set_defaults(func=cmd_report)
    add_selftest(sub)
    from .history_cli import add_parser as add_history
    add_history(sub, add_verdict_options)
    from .dashboard import add_parser as add_dashboard
    add_dashboard(sub)


def build_parser():
    p = argparse.ArgumentParser(prog="mpigauge", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"mpigauge {version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    _add_run(sub)
    _add_compare(sub)
    _add_others(sub)
    return p


def main(argv=None):
    parser = build_parser()
    a = parser.parse_args(argv)
    if not getattr(a, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return a.func(a)
    except UsageError as e:
        print(f"mpigauge {a.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except OutputError as e:
        print(f"mpigauge {a.command}: error: {e}", file=sys.stderr)
        return EXIT_FAIL
    except BrokenPipeError:
        return EXIT_FAIL
    except sqlite3.Error as e:
        # the history database cannot be written (read-only, full) or read
        print(f"mpigauge {a.command}: error: the history database: {e}", file=sys.stderr)
        return EXIT_USAGE
    except UnicodeDecodeError as e:
        # an input file that is not UTF-8 text (a suite, a TOML file, results)
        print(f"mpigauge {a.command}: error: an input is not UTF-8 text ({e.reason} at byte "
              f"{e.start})", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:
        # a path the command was given that cannot be used: one line, no traceback
        where = f"{e.filename}: " if getattr(e, "filename", None) else ""
        print(f"mpigauge {a.command}: error: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_USAGE
    except (KeyboardInterrupt, Interrupted):
        print(f"mpigauge {a.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
