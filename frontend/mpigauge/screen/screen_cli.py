# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge screen run|report`: the all-pairs screen (doc/screen.md). run
launches mpigauge_screen (every pair of nodes, or of ranks) and reports;
report reads a screen's JSON Lines: the verdict, the pair matrix as an SVG
picture (--picture) and in JSON (--matrix). Exit status as the program's:
0 nothing found, 3 something named, 4 inconclusive."""
import json
import os
import sys

from ..core.common import EXIT_FAIL, UsageError, check_output_path, write_text_atomic
from ..launch.launch import EXIT_GRACE, run_until_written
from ..launch.launcher import launch_env, launcher_argv
from ..verdict.options import check_seconds
from ..launch.programs import detect_mpi, find_program, program_dirs
from .screen import EXIT_FOUND, EXIT_UNCLEAR, MAX_MATRIX, MAX_PICTURE, load, matrix, svg, text


def report(a, path):
    check = [(a.picture, "--picture"), (a.matrix, "--matrix")]
    for out, opt in check:
        if out:
            check_output_path(out, [path], opt)
    if a.picture and not a.picture.endswith(".svg"):
        raise UsageError(f"--picture {a.picture}: the picture is SVG (a name ending in .svg)")
    s = load(path)
    n = len(s.hosts)
    if a.picture and n > MAX_PICTURE:
        raise UsageError(f"--picture: {n} units; a picture shows at most {MAX_PICTURE} (the "
                         "verdict in words names the slow ones; --matrix gives every pair)")
    if (a.matrix or a.format == "json") and n > MAX_MATRIX:
        raise UsageError(f"{'--matrix' if a.matrix else '--format json'}: {n} units; the "
                         f"matrix is made for at most {MAX_MATRIX} (the verdict in words "
                         "names the slow ones)")
    metric = a.metric
    if metric and metric not in s.pairs:
        raise UsageError(f"--metric {metric}: the screen has {', '.join(s.pairs) or 'none'}")
    try:
        said = json.dumps(matrix(s), sort_keys=True) + "\n" if a.format == "json" else text(s)
        picture = svg(s, metric) if a.picture else None
        grid = json.dumps(matrix(s), indent=1, sort_keys=True) + "\n" if a.matrix else None
    except (KeyError, TypeError, IndexError, ValueError, StopIteration) as e:
        raise UsageError(f"{path}: not a well-formed screen (mpigauge_screen --format json): "
                         f"{type(e).__name__} {e}") from None
    sys.stdout.write(said)
    if picture is not None:
        write_text_atomic(a.picture, picture)
    if grid is not None:
        write_text_atomic(a.matrix, grid)
    return s.exit_code()


def run(a):
    if not a.output:
        raise UsageError("run: -o FILE (the screen's JSON Lines) is required")
    if a.nranks < 2:
        # Open MPI's -n 0 would run on every slot
        raise UsageError(f"run: -n {a.nranks}: a screen needs 2 or more ranks")
    check_seconds("--timeout", a.timeout)
    check_seconds("--exit-grace", a.exit_grace)
    check_output_path(a.output)
    if os.path.exists(a.output) and not a.force:
        raise UsageError(f"-o {a.output}: exists (--force replaces it)")
    prog = find_program("screen", program_dirs([a.bindir] if a.bindir else None))
    if prog is None:
        raise UsageError("no mpigauge_screen program (give --bindir, a build folder)")
    flavour = a.mpi or detect_mpi(prog)
    argv = launcher_argv(a.launcher, flavour, a.nranks) + [prog, "--format", "json", "-o",
                                                           a.output] + list(a.args)
    rc, ended = run_until_written(argv, launch_env(flavour), a.timeout, a.output, a.exit_grace)
    if ended == "timeout":
        print(f"mpigauge screen: error: the launch took more than {a.timeout:g} s "
              "(--timeout; the program's --time-budget bounds the screen)", file=sys.stderr)
        return EXIT_FAIL
    if ended == "hung":
        # its screen is whole (renamed into place at the program's end)
        print(f"mpigauge screen: the launch wrote its screen and had not ended "
              f"{a.exit_grace:g} s later: stopped (a hang in MPI_Finalize, as MPICH 4.0.2 "
              "with UCX does, openucx/ucx#8738; --exit-grace)", file=sys.stderr)
    elif rc not in (0, EXIT_FOUND, EXIT_UNCLEAR) or not os.path.exists(a.output):
        print(f"mpigauge screen: error: the launch ended with exit {rc}: "
              + " ".join(argv), file=sys.stderr)
        return rc or EXIT_FAIL
    return report(a, a.output)


def cmd(a):
    if a.action == "report":
        if len(a.files) != 1:
            raise UsageError("report: one screen file (mpigauge_screen --format json -o FILE)")
        return report(a, a.files[0])
    if a.files:
        raise UsageError("run: no FILE arguments (the program's options go after --)")
    return run(a)


def add_parser(sub):
    g = sub.add_parser("screen", help="every pair of nodes (or ranks): the slow nodes and links",
                       description="Latency and bandwidth between every pair of nodes (or "
                       "ranks), in the rounds of a round-robin tournament, repeated; the pairs "
                       "that are outliers against the others, with error control over the pairs, "
                       "named as a slow node when they share one, else as a slow link "
                       "(doc/screen.md). Exit status 0 nothing found, 3 something named, "
                       "4 inconclusive.")
    g.add_argument("action", choices=("run", "report"))
    g.add_argument("files", nargs="*", metavar="FILE", help="report: the screen's JSON Lines")
    g.add_argument("-n", "--nranks", type=int, default=2,
                   help="run: ranks to launch (one per node for a node screen; default 2)")
    g.add_argument("--launcher", default="mpirun",
                   help="run: mpirun, mpiexec, srun, or a command line ({n}: the rank count), "
                   "e.g. 'srun -N 16 --ntasks-per-node=1'")
    g.add_argument("--mpi", choices=("openmpi", "mpich"), help="run: the programs' MPI "
                   "(default: from the program's libraries)")
    g.add_argument("--bindir", help="run: the build folder")
    g.add_argument("--timeout", type=float, default=3600, help="run: seconds (default 3600)")
    g.add_argument("--exit-grace", type=float, default=EXIT_GRACE, metavar="SECONDS",
                   help="run: a launch still running this long after its screen was written "
                   f"is stopped and its screen reported (default {EXIT_GRACE:g})")
    g.add_argument("-o", "--output", help="run: the screen's JSON Lines")
    g.add_argument("--force", action="store_true", help="run: replace -o's file")
    g.add_argument("--picture", metavar="FILE.svg", help="the pair matrix as an SVG picture")
    g.add_argument("--matrix", metavar="FILE.json", help="the pair matrix in JSON")
    g.add_argument("--metric", choices=("bw", "lat"), help="--picture's metric (default bw)")
    g.add_argument("--format", choices=("text", "json"), default="text",
                   help="standard output: the verdict in words, or the matrix in JSON")
    g.set_defaults(func=cmd, args=[])
    g.epilog = ("run: what follows -- goes to mpigauge_screen (--unit rank, --time-budget S, "
                "--expect-bw MBPS, ...)")
