# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge run`: every benchmark line of a suite is its own launch. With
configurations (--config, --configs) the launches are interleaved in
randomized rounds: each round runs every line once per configuration, the
configurations of a line back to back in a random order (seeded; the seed
and the order are recorded), so that the launches a comparison pairs ran
next to each other. All records go to one file, each launch tagged with its
configuration and round (doc/compare.md)."""
import datetime
import os
import random
import shlex
import socket
import sys
import time
from collections import OrderedDict

from ..launch import launch as ln
from ..launch import launcher as lr
from ..launch import programs as pg
from ..launch import mpilib
from ..core.common import (EXIT_FAIL, EXIT_INTERRUPTED, EXIT_OK, OutputError, UsageError,
                           check_link_followable, now_utc, redact_argv, version)
from . import sbatch
from .configs import Config, check_unique, load_config_file, mpi_libraries_in, parse_config_arg
from ..verdict.sequential import look, planned_looks
from ..launch import progress
from ..launch.outcome import error_lines
from ..launch.runplan import MAX_SCHEDULE, RunPlan, Verdict, check_args, check_ranks
from ..launch.steps import LaunchOptions, remove_stale_semaphores, run_step
from ..launch.suite import load_suite
from ..launch.resultsfile import Writer

STATUSES = ("ok", "partial", "failed", "timeout", "wrong-size", "skipped", "missing",
            "interrupted")


class Item:
    """One suite line under one configuration, ready to launch."""

    def __init__(self, entry, config, prog, flavour, n, argv, env, mpi=None):
        self.entry, self.config, self.prog = entry, config, prog
        self.flavour, self.n, self.argv, self.env = flavour, n, argv, env
        self.argv_line = argv  # as the suite line gives it (argv may narrow its sizes)
        self.mpi = mpi or {}   # library and launcher (mpilib), for the records


def configs_of(a):
    cfgs = list(getattr(a, "config_objects", None) or [])  # a RunRequest's (runrequest.py)
    cfgs += [parse_config_arg(c) for c in a.config or []]
    for f in a.configs or []:
        more = load_config_file(f)
        if not more:
            raise UsageError(f"--configs {f}: no [[config]] or [[sweep]] in it")
        cfgs += more
    # one configuration: a plain run under it (an installation of the catalogue, a
    # setting), its launches labelled, for `compare FILE FILE` with another run
    return check_unique(cfgs) or [Config(None)]


def check_library(c, declared, lib, prog, where):
    """Refuse before any launch a configuration whose programs do not load
    what it says: library= they do not start with or do not load, mpi= of
    another implementation than the one they load."""
    if c.library is not None:
        if lib is None:
            raise UsageError(f"{where}: library={c.library}: {os.path.basename(prog)} "
                             f"{mpilib.start_problem(prog) or 'names no MPI library'}")
        want = os.path.realpath(c.env["LD_LIBRARY_PATH"].split(os.pathsep)[0])
        if c.install is not None and lib.path and \
                os.path.realpath(lib.path) != os.path.realpath(c.library):
            raise UsageError(f"{where}: install={c.install} is {c.library}, but the programs "
                             f"load {lib.name()} ({lib.path}): they were built for another ABI "
                             "family or link another library name (a Debian MPICH build links "
                             "libmpich.so.12: `mpigauge mpi install` gives a release that name "
                             "too, an installation added from elsewhere needs it beside its "
                             "libmpi.so.12); give bindir= of a build made with that "
                             "installation's family (its mpicc)")
        if lib.path and os.path.realpath(lib.path) not in mpi_libraries_in(want) and \
                os.path.dirname(lib.path) != want:
            raise UsageError(f"{where}: library={c.library}: the programs load {lib.path}, not a "
                             f"library of {want} (another ABI family than their build?)")
    declared = c.mpi or declared
    if declared and lib is not None and lib.family and lib.family != declared:
        raise UsageError(f"{where}: mpi={declared}, but the programs load {lib.name()}: leave "
                         "mpi= out (it is read from the programs) or give the matching one")


def mpi_of(prog, c, declared, launcher, n):
    """Launch family, launcher command prefix and the library/launcher record
    of prog under configuration c (mpilib: the launcher of the library the
    program loads, never another release's); declared: --mpi, or None."""
    where = f"configuration {c.label}" if c.label is not None else "--launcher"
    env = dict(os.environ, **c.env)
    kind = "mpirun" if c.launcher else launcher
    asked = kind in ("mpirun", "mpiexec") or mpilib.names_mpi_launcher(kind) \
        or not (c.mpi or declared)
    lib = mpilib.program_library(prog, env) if asked or c.library else None
    check_library(c, declared, lib, prog, where)
    flavour = c.mpi or declared or (lib.family if lib is not None and lib.family
                                    else pg.detect_mpi(prog))
    path, says = mpilib.choose_launcher(launcher, c.launcher, lib, env, where, prog)
    head = lr.launcher_argv(kind, flavour, n, path=path,
                            release=lib.version if lib is not None else None, impl=says[0])
    rec = {"library": lib.record() if lib is not None else None,
           "launcher": {"path": path or head[0], "implementation": says[0], "release": says[1],
                        "name": mpilib.release_name(*says) if says[0] else None}}
    rec = {"mpi_install": rec}
    return flavour, head, rec


def expand_each(entries, configs, a):
    """The suite with each "each FAMILY" line replaced by one line per name
    its program lists, in the order of the first configuration that has the
    program (names only another configuration's build has follow)."""
    out = []
    for e in entries:
        if e.each is None:
            out.append(e)
            continue
        names = []
        for c in configs:
            prog = pg.find_program(e.name, pg.program_dirs([c.bindir] if c.bindir else a.bindir))
            for n in (pg.list_names(prog) if prog else None) or []:
                if n not in names:
                    names.append(n)
        if not names:
            raise UsageError(f"{e.source}: each {e.each}: no mpigauge_{e.name} that lists its "
                             "names (--bindir)")
        out += [e.named(n) for n in names]
    return out


def plan(entries, configs, a, launcher, extra):
    """Items per (line index, config index), and the missing ones."""
    items, missing = {}, []
    for ci, c in enumerate(configs):
        dirs = pg.program_dirs([c.bindir] if c.bindir else a.bindir)
        for li, e in enumerate(entries):
            prog = pg.find_program(e.name, dirs)
            if prog is None:
                missing.append((e, c))
                continue
            n = e.ranks or a.nranks
            flavour, head, mpi = mpi_of(prog, c, a.mpi, launcher, n)
            kind = "mpirun" if c.launcher else launcher
            head, env = lr.with_env(head, kind, flavour, c.env)
            argv = head + c.launcher_args + [prog] + e.args + extra + c.args + \
                ["--format", "json", "--sentinel"]
            items[(li, ci)] = Item(e, c, prog, flavour, n, argv, env, mpi)
    return items, missing


def schedule(nrounds, nlines, nconfigs, rng, first_round=1):
    """[(round, line, config)]: rounds in order, lines in suite order, the
    configurations of each line in a random order."""
    out = []
    for r in range(first_round, first_round + nrounds):
        for li in range(nlines):
            order = list(range(nconfigs))
            rng.shuffle(order)
            out += [(r, li, ci) for ci in order]
    return out


def cmd_run(a):
    check_args(a)
    suite_path, entries = load_suite(a.suite)
    configs = configs_of(a)
    entries = expand_each(entries, configs, a)
    if a.until_decided and configs[0].label is None:
        raise UsageError("--until-decided needs two or more configurations")
    extra = list(a.args or [])
    if extra and extra[0] == "--":
        extra = extra[1:]
    launcher = a.launcher or ("srun" if lr.in_slurm_allocation() else "mpirun")
    check_ranks(entries, a)
    rounds = a.max_rounds if a.until_decided else a.repeat
    if rounds * len(entries) * len(configs) > MAX_SCHEDULE:
        raise UsageError(f"{rounds} rounds of {len(entries)} lines x {len(configs)} "
                         f"configurations is more than {MAX_SCHEDULE} launches")
    if getattr(a, "sbatch", None) or getattr(a, "allocations", None) is not None or \
            getattr(a, "exclude_previous", False):
        return sbatch.cmd(a, entries, a.parse_run)
    items, missing = plan(entries, configs, a, launcher, extra)
    if a.dry_run:
        for e, c in missing:
            print(f"# {e.name}: skipped (missing: mpigauge_{e.name} not found)")
        for key in sorted(items):
            print(" ".join(shlex.quote(w) for w in items[key].argv))
        return EXIT_OK if items else EXIT_FAIL
    if not a.output:
        raise UsageError("run needs -o FILE (the results file)")
    check_link_followable(a.output)
    if os.path.islink(a.output) and not os.path.exists(a.output):
        raise UsageError(f"-o {a.output}: a symbolic link to nothing: not followed, nothing "
                         "created (as the programs' -o)")
    if os.path.exists(a.output) and not os.path.isfile(a.output):
        raise UsageError(f"-o {a.output}: exists and is not a regular file: never replaced")
    if os.path.exists(a.output) and os.path.getsize(a.output) > 0 and not (a.append or a.force):
        raise UsageError(f"{a.output} exists; use --append to add to it or --force to replace it")
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    order = schedule(rounds, len(entries), len(configs), random.Random(seed))
    out = Writer(a.output, a.append)
    if out.torn:
        print(f"mpigauge run: {a.output}: cut off a torn last line ({out.torn} bytes, not a "
              "whole record) of an earlier run before appending", file=sys.stderr)
    session = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ") \
        + "-" + os.urandom(2).hex()
    labels = [c.label for c in configs]
    out.write([{"type": "session", "session_id": session, "frontend_version": version(),
                "date_utc": now_utc(), "host": socket.gethostname(), "suite": a.suite,
                "suite_file": os.path.abspath(suite_path), "launcher": launcher,
                "nranks": a.nranks, "repeat": rounds, "rounds": rounds,
                "mpi": sorted({it.flavour or "unknown" for it in items.values()}),
                "extra_args": redact_argv(extra), "command_line": redact_argv(sys.argv),
                "slurm_job_id": os.environ.get("SLURM_JOB_ID"),
                "allocation": lr.allocation_record(), "seed": seed,
                "interleave": a.interleave if labels[0] is not None else None,
                "turn_slice_s": a.turn_slice if labels[0] is not None and
                a.interleave == "turns" else None,
                "configs": [c.record() for c in configs] if labels[0] is not None else [],
                "order": [[r, entries[li].source, labels[ci]] for r, li, ci in order]
                if labels[0] is not None else None}])
    grouped = a.interleave == "turns" and labels[0] is not None
    return _run_loop(out, RunPlan(
        session=session, labels=labels, items=items, missing=missing,
        todo=[(r, li, ci) for r, li, ci in order if (li, ci) in items], rounds=rounds,
        launcher=launcher, grouped=grouped,
        looks=planned_looks(a.min_rounds, a.max_rounds, a.alpha) if a.until_decided else [],
        output=a.output, quiet=bool(a.quiet), max_time=a.max_time, launch=LaunchOptions.of(a),
        verdict=Verdict(a.alpha, a.min_rounds, a.max_rounds, getattr(a, "threshold_value", 0.05),
                        a.error_control, a.covariate, decide_pairs(a, labels))))


def decide_pairs(a, labels):
    """The pairs of configurations a look of --until-decided decides (a
    request's decide_pairs, each label one of the run's), else () for the
    base against each other one."""
    pairs = tuple(tuple(p) for p in getattr(a, "decide_pairs", None) or ())
    for p in pairs:
        if len(p) != 2 or not set(p) <= set(labels):
            raise UsageError(f"decide_pairs {p}: two of the configurations {labels}")
    return pairs


def _run_loop(out, plan):
    import signal
    counts = OrderedDict((k, 0) for k in STATUSES)
    seq = 0
    session, items, rounds = plan.session, plan.items, plan.rounds
    todo, grouped, looks, launcher = plan.todo, plan.grouped, plan.looks, plan.launcher
    for e, c in plan.missing:
        seq += 1
        counts["missing"] += 1
        if not plan.quiet:
            print(f"mpigauge run: {e.name}: skipped (missing: mpigauge_{e.name} is not built "
                  "or not found, see --bindir)", file=sys.stderr)
        out.write([{"type": "launch", "launch_id": f"{session}-{seq:04d}", "session_id": session,
                    "benchmark": e.name, "suite_line": e.line(), "source": e.source,
                    "config": c.label, "status": "missing",
                    "message": f"mpigauge_{e.name} not found"}])
    old = {s: signal.signal(s, ln.raise_interrupt) for s in (signal.SIGINT, signal.SIGTERM)}
    if grouped:
        n = remove_stale_semaphores()
        if n and not plan.quiet:
            print(f"mpigauge run: removed {n} semaphores of turns groups whose front-end was "
                  "killed", file=sys.stderr)
    steps = _steps(todo, grouped, lambda t: _alone(items[(t[1], t[2])]))
    start, durations = time.time(), {}
    interrupted, stopped, i, pos, first_bad = False, None, 0, {}, None
    todo, narrowed = list(todo), []
    try:
        for si, step in enumerate(steps):
            rnd = step[0][0]
            ids = [f"{session}-{seq + k + 1:04d}" for k in range(len(step))]
            seq += len(step)
            positions = []
            for _, li, _ in step:   # a configuration's place among its line's in the round
                positions.append(pos.get((rnd, li), 0))
                pos[(rnd, li)] = positions[-1] + 1
            got = run_step(plan.launch, out, session, [items[(li, ci)] for _, li, ci in step], ids,
                           (rnd, positions, rounds), launcher, grouped)
            for (_, li, ci), res in zip(step, got):
                i += 1
                counts[res["status"]] += 1
                if res["status"] not in ("ok", "skipped") and first_bad is None:
                    first_bad = (items[(li, ci)], res)
                durations.setdefault((li, ci), []).append(res["duration_s"])
                elapsed = time.time() - start
                eta = progress.eta(todo[i:], durations, elapsed, i, len(step))
                progress.show(plan.quiet, i, len(todo), items[(li, ci)], rnd, rounds, res, elapsed,
                              eta)
            if any(r["interrupted"] for r in got):
                interrupted = True
                break
            round_done = si + 1 == len(steps) or steps[si + 1][0][0] != rnd
            if round_done and rnd in looks:
                stopped = look(out, plan, rnd, steps, si, todo, i, narrowed)
                if stopped:
                    break
            if round_done and plan.max_time and elapsed > plan.max_time:
                stopped = f"--max-time reached after round {rnd}"
                break
    except ln.Interrupted:
        interrupted = True
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        end = {"type": "session_end", "session_id": session,
               "duration_s": round(time.time() - start, 3), "interrupted": interrupted,
               "counts": counts}
        if looks:
            end["sequential"] = {"looks": looks, "alpha": plan.verdict.alpha,
                                 "alpha_per_look": plan.verdict.alpha / len(looks),
                                 "stopped": stopped, "narrowed": narrowed}
        try:
            out.write([end])
        except OutputError:
            pass            # the error of the launch's own write is the one to report
        out.close()
    return _finish(plan, counts, interrupted, stopped, first_bad)


def _alone(it):
    """Whether the item's program measures its own launch (MPI's start, the first
    message, the memory it takes): never started together with another launch, even
    taking turns. The programs say so (MG_FACT_ALONE, their --mpi-library record)."""
    return mpilib.runs_alone(it.prog, dict(os.environ, **(it.config.env or {})), it.entry.name)


def _steps(todo, grouped, solo=lambda t: False):
    """Launch steps: each item alone, or (grouped) the configurations of a
    line in a round together, in their random order (the turns' roles);
    items for which solo(item) holds always alone."""
    if not grouped:
        return [[t] for t in todo]
    steps = []
    for t in todo:
        if steps and steps[-1][0][:2] == t[:2] and not solo(t):
            steps[-1].append(t)
        else:
            steps.append([t])
    return steps


def _finish(plan, counts, interrupted, stopped, first_bad=None):
    items = plan.items
    say = (lambda m: None) if plan.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    if plan.quiet and first_bad is not None:
        # quiet or not, a failure is said: how many, and the first one
        it, res = first_bad
        bad = sum(counts[k] for k in ("failed", "timeout", "wrong-size", "partial"))
        lab = f" [{it.config.label}]" if it.config.label is not None else ""
        print(f"mpigauge run: {bad} of {sum(counts.values())} launches failed; the first, "
              f"{it.entry.name}{lab}: {res['status']}"
              + (f": {res['message']}" if res["message"] else ""), file=sys.stderr)
        for line in error_lines(res["stderr"], 3):
            print(f"    | {line}", file=sys.stderr)
    summary = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
    say(f"mpigauge run: {summary or 'nothing run'}; results in {plan.output}"
        + (f" ({stopped})" if stopped else ""))
    if interrupted:
        say("mpigauge run: interrupted; the results file is complete up to the last finished launch")
        return EXIT_INTERRUPTED
    if not items:
        print("mpigauge run: none of the suite's programs was found (build them, or give "
              "--bindir)", file=sys.stderr)
        return EXIT_FAIL
    # missing data fails the run: a launch stopped part way (killed, its
    # results cut short) is as bad as one that failed outright
    bad = counts["failed"] + counts["timeout"] + counts["wrong-size"] + counts["partial"]
    return EXIT_FAIL if bad else EXIT_OK
