# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge run`'s command line: the parser, and its defaults for the
typed run request (runrequest.py) of the commands that run suites."""
import argparse

from ..launch.launch import DEFAULT_TIMEOUT
from ..verdict.options import add_verdict_options, with_threshold
from .runner import cmd_run


def add_parser(sub):
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
    r.add_argument("--allocations", type=int, metavar="K",
                   help="run the suite in K Slurm allocations: a job array, submitted with "
                   "sbatch --wait, task i into OUT.i.jsonl, then joined into -o (doc/slurm.md)")
    r.add_argument("--sbatch", metavar="FILE",
                   help="write this run as a Slurm job script (with --allocations K, a job "
                   "array) and stop")
    r.add_argument("--exclude-previous", action="store_true",
                   help="--allocations K: K jobs one after the other, each asking Slurm to "
                   "leave out the nodes of the allocations before it (where the cluster has "
                   "others; else said and submitted without)")
    r.add_argument("--sbatch-option", action="append", metavar="OPT",
                   help="--sbatch, --allocations: an #SBATCH line (repeatable; "
                   "--sbatch-option=--nodes=2)")
    r.add_argument("--dry-run", action="store_true", help="print the launch commands and stop")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    r.add_argument("args", nargs=argparse.REMAINDER, help="-- ARGS for every benchmark")
    # parse_run: --sbatch checks the words it writes into the job script
    r.set_defaults(func=with_threshold(cmd_run), parse_run=parse_run)


def parse_run(words):
    """`mpigauge run WORDS` parsed as its command line is."""
    p = argparse.ArgumentParser(prog="mpigauge run")
    add_parser(p.add_subparsers(dest="command"))
    return p.parse_args(["run"] + list(words))


def run_defaults():
    """`mpigauge run`'s options as its parser leaves them when none is
    given (runrequest.run fills in a request's)."""
    return parse_run([])
