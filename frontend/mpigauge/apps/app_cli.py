# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge app -o FILE --config A --config B -- COMMAND...`: a real MPI
application under each configuration, launch by launch in randomised
rounds, its figure read from its output (app.py), then compared as a
benchmark is (doc/applications.md). In COMMAND, the word {mpirun} is the
configuration's launcher (its install='s, or launcher=): each release runs
under its own launcher and library."""
import json
import os
import random
import subprocess
import sys
import time

from .app import figure_of, ranks_of, read_figure, records
from ..core.common import (EXIT_FAIL, EXIT_OK, UsageError, check_output_path, redact_argv,
                           tail_text, terminal_text, write_atomic)
from ..measure.configs import Config, check_unique, parse_config_arg
from ..verdict.options import add_verdict_options, check_seconds, with_threshold
from ..launch import mpilib
from ..launch.launcher import launcher_argv
from .profile import find_mpi_program

PLACEHOLDER = "{mpirun}"


def command_for(argv, c):
    """The command under configuration c: {mpirun} replaced by its launcher
    and the binding mpigauge's own launches use with it (each rank on a core;
    none when the ranks outnumber the cores; Intel MPI pins its ranks
    itself), so an application and the benchmarks that stand for it run
    alike: MPICH's Hydra binds nothing by default, and an unbound NWChem
    run took 2.3 or 5.9 s by where the ranks landed."""
    if PLACEHOLDER not in argv:
        return list(argv)
    if not c.launcher:
        raise UsageError(f"configuration {c.label}: the command has {PLACEHOLDER} but the "
                         "configuration names no launcher (give install=NAME or launcher=PATH)")
    impl, release = mpilib.launcher_ident(c.launcher, dict(os.environ, **c.env))
    family = mpilib.FAMILY.get(impl)
    head = [c.launcher]
    if family is not None:
        n = ranks_of(argv[argv.index(PLACEHOLDER):]) or 1
        # the runner's own launch prefix, less its first three words (the
        # launcher, -n, N): the command gives those itself
        head += launcher_argv("mpirun", family, n, path=c.launcher, release=release,
                              impl=impl)[3:]
    out = []
    for w in argv:
        out += head if w == PLACEHOLDER else [w]
    return out


def check_configs(argv, configs):
    """Before any launch: every configuration's command has an MPI program,
    all of one ABI family, loading the configuration's library where it
    names one. Returns the program's name."""
    name = None
    for c in configs:
        cmd = command_for(argv, c)
        env = dict(os.environ, **c.env)
        k, program, family, lib = find_mpi_program(cmd, env)
        name = name or os.path.basename(program)
        if c.library:
            got = _loaded(program, env)
            want = os.path.realpath(c.library if os.path.isfile(c.library) else got or "")
            if got is None or (os.path.isfile(c.library) and got != want) or \
                    (os.path.isdir(c.library) and not got.startswith(os.path.realpath(c.library))):
                loads = got or "no MPI library"
                raise UsageError(f"configuration {c.label}: {program} loads {loads}, not the "
                                 f"configuration's {c.library} (another ABI family? it links "
                                 f"{lib})")
    return name


def _loaded(program, env):
    """The MPI library file program loads under env (ldd), or None."""
    import re
    p = subprocess.run(["ldd", program], capture_output=True, text=True, env=env, timeout=30,
                       stdin=subprocess.DEVNULL)
    m = re.search(r"\blib(?:mpi|mpich|mpi_abi)\.so[.\d]*\s+=>\s+(\S+)", p.stdout)
    return os.path.realpath(m.group(1)) if m and os.path.exists(m.group(1)) else None


def launch(cmd, env, timeout):
    """(exit code or None on timeout, seconds, output text) of one launch."""
    t0 = time.time()
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        return p.returncode, time.time() - t0, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode("utf-8", "replace") if e.stdout else ""
        return None, time.time() - t0, out
    except OSError as e:
        return 127, time.time() - t0, f"{cmd[0]}: {e.strerror}"


def one(a, fig, name, cmd, c, rnd, seq, session):
    """One launch: its records and a line for the terminal."""
    rc, wall, out = launch(cmd, dict(os.environ, **c.env), a.timeout)
    value, why = (None, None)
    if rc is None:
        status, why = "timeout", f"timed out after {a.timeout:g} s"
    elif rc != 0:
        status, why = "failed", f"exit {rc}"
    else:
        value, why = read_figure(fig, out, wall)
        status = "ok" if value is not None else "failed"
    recs = records(session, seq, c.label, rnd, name, ranks_of(cmd), value, fig.unit, status,
                   why or "", redact_argv(cmd, c.env), _library(out))
    if status != "ok":
        recs[0]["output_tail"] = tail_text(out, 8, 1500)
    line = (f"{c.label} (round {rnd}): " + (f"{value:.6g} {fig.unit}" if value is not None
                                            else f"{status}: {why}") + f" in {wall:.1f} s")
    return recs, line, status


def _library(out):
    """The MPI library an application printed, if it did (LAMMPS: 'MPI v3.1: Open MPI ...')."""
    import re
    m = re.search(r"^\s*MPI v\d\.\d: (.+)$", out or "", re.M)
    return m.group(1).strip()[:200] if m else None


def cmd_app(a):
    argv = list(a.args) or list(a.words)
    if not argv:
        raise UsageError("app: give the command after --, like -- {mpirun} -n 2 lmp -in in.melt")
    if not a.output:
        raise UsageError("app needs -o FILE (the results, JSON Lines)")
    check_output_path(a.output)
    if os.path.exists(a.output) and not a.force:
        raise UsageError(f"-o {a.output}: exists (--force replaces it)")
    if a.repeat < 1:
        raise UsageError(f"--repeat {a.repeat}: give 1 or more")
    check_seconds("--timeout", a.timeout)
    fig = figure_of(a.figure)
    configs = [parse_config_arg(t) for t in a.config] if a.config else [Config("default")]
    check_unique(configs)
    name = a.name or check_configs(argv, configs)
    if a.name:
        check_configs(argv, configs)
    return run_rounds(a, fig, name, argv, configs)


def run_rounds(a, fig, name, argv, configs):
    """Every configuration once per round, in a random order per round."""
    session = f"app{int(time.time())}"
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    recs = [{"type": "session", "session_id": session, "seed": seed, "kind": "app",
             "configs": [c.record() for c in configs],
             "app": {"name": name, "figure": fig.name, "unit": fig.unit, "says": fig.says,
                     "command": redact_argv(argv)}}]
    seq, bad, total = 0, 0, a.repeat * len(configs)
    try:
        for rnd in range(1, a.repeat + 1):
            order = list(configs)
            rng.shuffle(order)
            for c in order:
                seq += 1
                got, line, status = one(a, fig, name, command_for(argv, c), c, rnd, seq, session)
                recs += got
                bad += status != "ok"
                if not a.quiet or status != "ok":
                    print(f"[{seq}/{total}] {terminal_text(line)}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("mpigauge app: interrupted; the launches done are written", file=sys.stderr)
        bad += 1

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in recs)
    write_atomic(a.output, write)
    ok = {r["config"] for r in recs if r["type"] == "launch" and r["status"] == "ok"}
    ran = [c.label for c in configs if c.label in ok]
    for c in configs:
        if c.label not in ran:
            print(f"mpigauge app: configuration {c.label}: no launch gave a figure; compared "
                  "without it", file=sys.stderr)
    if len(ran) > 1:
        _compare(a, ran)
    if bad:
        print(f"mpigauge app: {bad} of {seq} launches gave no figure (their launch records say "
              "why; the others' results are kept)", file=sys.stderr)
    return EXIT_FAIL if bad else EXIT_OK


def _compare(a, labels):
    """The first configuration against each other, as `mpigauge compare`."""
    from ..verdict.compare import compare_sets, comparison
    from ..look.render import render_text
    from ..data.results import load_config_sets
    try:
        sets = load_config_sets(a.output, labels)
    except UsageError as e:
        print(f"mpigauge app: nothing to compare: {e}", file=sys.stderr)
        return
    comps = []
    for new in sets[1:]:
        rows, ob, on = compare_sets(sets[0], new, a.threshold_value, a.alpha, a.error_control)
        comps.append(comparison(sets[0], new, rows, ob, on))
    sys.stdout.write(render_text(comps, a.threshold_value, a.alpha, a.error_control))


def add_parser(sub):
    p = sub.add_parser("app", help="a real application under each configuration, compared",
                       description="Run an MPI application's command under each configuration "
                       "(environment, install=NAME of the catalogue, library=, launcher=), "
                       "launch by launch in randomised rounds, read its figure from its output "
                       "and compare the configurations with compare's statistics "
                       "(doc/applications.md).")
    p.add_argument("-o", "--output", metavar="FILE", help="the results (JSON Lines)")
    p.add_argument("--force", action="store_true", help="replace -o's file")
    p.add_argument("--config", action="append", metavar="'LABEL [KEY=VALUE...]'",
                   help="a configuration (as mpigauge run's; repeatable)")
    p.add_argument("-K", "--repeat", type=int, default=5, help="rounds (default 5)")
    p.add_argument("--figure", default="wall",
                   help="what a launch gives: wall, lammps, lammps-comm, gromacs, hpcc-ptrans, "
                   "netpipe, nwchem, or re:PATTERN:UNIT (default wall)")
    p.add_argument("--name", help="the application's name in the results (default the program's)")
    p.add_argument("--timeout", type=float, default=3600, help="seconds per launch (default 3600)")
    p.add_argument("--seed", type=int, help="seed of the order of each round (default: drawn, "
                   "recorded)")
    p.add_argument("-q", "--quiet", action="store_true")
    add_verdict_options(p)
    p.add_argument("words", nargs="*", metavar="COMMAND", help="the launch command, after --")
    p.epilog = ("The command goes after --; {mpirun} in it is each configuration's launcher, "
                "e.g. mpigauge app -o a.jsonl --config 'a install=openmpi-5.0.8' --config "
                "'b install=openmpi-5.0.9' --figure lammps -- {mpirun} -n 2 lmp -in in.melt")
    p.set_defaults(func=with_threshold(cmd_app), args=[])
