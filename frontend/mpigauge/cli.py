# SPDX-License-Identifier: BSD-3-Clause
"""The command line: `mpigauge COMMAND ...`."""
import argparse
import importlib
import os
import sqlite3
import sys

from .core.common import (EXIT_FAIL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, PATHS, OutputError,
                          UsageError, terminal_text, version)
from .launch.launch import Interrupted

# Every command, once: its group in `mpigauge --help`, its name, the module
# whose add_parser makes its parser (PACKAGE.COMMAND_cli, imported by
# build_parser: a new command is its module and its row here), what it
# does, and the examples. The grouped --help, the parsers, the man pages
# (doc/man.sh reads the --help lines) and their test (tests/man_pages.sh
# reads command_names()) all come from this one list.
COMMANDS = (
    ("measure", "run", "measure.run_cli",
     "a suite; with configurations, interleaved in randomized rounds",
     ("mpigauge run --suite quick -o r.jsonl",
      "mpigauge run --config a --config 'b UCX_TLS=sm' -K 8 -o ab.jsonl")),
    ("measure", "selftest", "measure.selftest_cli",
     "the instrument's own false-alarm and detection rates here",
     ("mpigauge selftest --bindir _build/openmpi -o st/",)),
    ("compare", "compare", "judge.compare_cli",
     "ratio, CI, adjusted p and a verdict per benchmark and size",
     ("mpigauge compare ab.jsonl a b",)),
    ("compare", "best", "judge.best_cli",
     "the best configuration per benchmark and size, and its ties",
     ("mpigauge best sweep.jsonl --export ompi-rules rules.conf",)),
    ("compare", "cvars", "judge.cvars_cli",
     "the MPI library's control variables (MPI_T), and what differs",
     ("mpigauge cvars ab.jsonl a b",)),
    ("compare", "guidelines", "judge.guidelines_cli",
     "the self-consistent performance guidelines: holds, violated",
     ("mpigauge guidelines run -n 2,4 -o g.jsonl",)),
    ("compare", "screen", "screen.screen_cli",
     "every pair of nodes: the slow nodes and links named",
     ("mpigauge screen run -n 16 --launcher srun -o s.jsonl",)),
    ("applications", "profile", "apps.profile_cli", "the communication profile of any MPI program",
     ("mpigauge profile -o lmp.jsonl -- mpirun -n 2 lmp -in in.melt",)),
    ("applications", "app", "apps.app_cli", "a real application under each configuration, compared",
     ("mpigauge app -o a.jsonl --config a --config b -- mpirun -n 2 lmp",)),
    ("releases and history", "mpi", "releases.mpi_cli",
     "the catalogue of MPI installations: list, add, install, build",
     ("mpigauge mpi install mpich==4.1.3",)),
    ("releases and history", "series", "releases.series_cli",
     "a release series: the release that changed each figure, and why",
     ("mpigauge series run --impl mpich --bindir BUILD -o mpich-series",)),
    ("releases and history", "history", "history.history_cli",
     "results per release in a database; a run checked against it",
     ("mpigauge history add r.jsonl --tag 5.0.11",)),
    ("releases and history", "import", "data.import_cli",
     "OSU or IMB text outputs as results, for compare and history",
     ("mpigauge import osu osu_latency-*.txt --ranks 2 -o base.jsonl",)),
    ("releases and history", "dashboard", "history.dashboard_cli",
     "a static site of the history: trends, regimes, what changed",
     ("mpigauge dashboard -o site/",)),
    ("models", "model", "judge.model_cli",
     "Hockney's parameters per protocol regime, breakpoints from the data",
     ("mpigauge model r.jsonl",)),
    ("look", "plot", "look.plot_cli",
     "median against message size with CI bands (needs matplotlib)",
     ("mpigauge plot r.jsonl -o r.svg",)),
    ("look", "report", "look.report_cli", "one self-contained HTML page for results",
     ("mpigauge report r.jsonl -o r.html",)),
)


def command_names():
    """Every command's name, in --help's order."""
    return [c[1] for c in COMMANDS]


def _description():
    lines = ["mpigauge: run suites of mpigauge benchmarks, compare MPI libraries and",
             "releases with verdicts, keep a history. The commands by task, one example each:"]
    group = None
    for g, name, _, says, examples in COMMANDS:
        if g != group:
            lines += [g] if group else ["", g]
            group = g
        lines.append(f"  {name:<10} {says}")
        lines += [" " * 15 + e for e in examples]
    lines += ["", "`mpigauge COMMAND --help` says more; doc/README.md indexes the documentation."]
    return "\n".join(lines) + "\n"


DESCRIPTION = _description()


def build_parser():
    p = argparse.ArgumentParser(prog="mpigauge", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"mpigauge {version()}")
    p.add_argument("--osu-dir", action="store_true",
                   help="print the folder of the osu_* names (the OSU drop-in, doc/osu.md): put "
                        "it first on PATH to run mpigauge where a pipeline runs OSU")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for _, _, module, _, _ in COMMANDS:
        importlib.import_module("." + module, __package__).add_parser(sub)
    return p


def print_osu_dir():
    """`mpigauge --osu-dir`: the folder, when this installation has it."""
    d = PATHS.get("osudir")
    if not d or not os.path.isdir(d):
        print(f"mpigauge: no folder of osu_* names here ({d or 'a source tree: build first'})",
              file=sys.stderr)
        return EXIT_FAIL
    print(d)
    return EXIT_OK


def main(argv=None):
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = None
    if argv[:1] in (["series"], ["screen"], ["profile"], ["app"]) and "--" in argv:
        # series: what follows -- goes to every benchmark (as for run);
        # screen: to mpigauge_screen; profile, app: the command
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    a = parser.parse_args(argv)
    a.argv = argv   # the words as given (run --sbatch writes them into a job script)
    if extra is not None:
        a.args = extra
    if a.osu_dir:
        return print_osu_dir()
    if not getattr(a, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return a.func(a)
    except UsageError as e:
        print(f"mpigauge {a.command}: error: {terminal_text(e)}", file=sys.stderr)
        return EXIT_USAGE
    except OutputError as e:
        print(f"mpigauge {a.command}: error: {terminal_text(e)}", file=sys.stderr)
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
        print(f"mpigauge {a.command}: error: {terminal_text(where)}{terminal_text(e.strerror or e)}",
              file=sys.stderr)
        return EXIT_USAGE
    except (KeyboardInterrupt, Interrupted):
        print(f"mpigauge {a.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
