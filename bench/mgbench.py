# SPDX-License-Identifier: BSD-3-Clause
"""What the bench/ scripts share: launching a program of _build/<mpi> under
its MPI's launcher, reading its JSON Lines, running the launches of a
comparison in a shuffled order round by round (this machine switches
between performance regimes every few seconds, so the sides of a
comparison alternate launch by launch), and the "median (min-max)" cells
of the tables."""
import json
import os
import random
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ("pt2pt", "collective", "onesided", "overlap")


def program(mpi, name):
    for d in DIRS:
        exe = os.path.join(ROOT, "_build", mpi, d, "mpigauge_" + name)
        if os.path.exists(exe):
            return exe
    raise SystemExit(f"mpigauge_{name} is not built in _build/{mpi} (scripts/build.sh {mpi})")


def launcher(mpi, n=2, oversubscribe=False):
    if mpi == "openmpi":
        return ["mpirun.openmpi", "-n", str(n)] + (["--oversubscribe"] if oversubscribe else
                                                   ["--bind-to", "core"])
    return ["mpiexec.mpich", "-n", str(n)] + ([] if oversubscribe else ["-bind-to", "core"])


def env():
    return dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def execute(argv, timeout=600):
    """Run argv with MG_LAUNCH_TIME set to the launch's start, as `mpigauge
    run` sets it (mpigauge_startup); the finished process, or None when it
    timed out (said on standard error)."""
    e = env()
    e["MG_LAUNCH_TIME"] = f"{time.time():.6f}"
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=e)
    except subprocess.TimeoutExpired:
        print(f"# timed out after {timeout} s: {' '.join(argv)}", file=sys.stderr, flush=True)
        return None


def run(argv, timeout=600):
    """Run argv; its JSON records, or None when it failed."""
    p = execute(argv, timeout)
    if p is None:
        return None
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or [""])[-3:]
        print(f"# exit {p.returncode}: {' '.join(argv)}: " + " / ".join(last), file=sys.stderr,
              flush=True)
        return None
    recs = []
    for line in p.stdout.splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            continue
    return recs


def field(rec, name):
    """A record's figure by a dotted name ("median", "extra.first_us"), or None."""
    v = rec
    for part in name.split("."):
        v = v.get(part) if isinstance(v, dict) else None
    return v if isinstance(v, (int, float)) else None


def launch(mpi, name, args, n=2, oversubscribe=False, timeout=600):
    """One mpigauge launch; {(size, variant): result record} or None."""
    recs = run(launcher(mpi, n, oversubscribe) + [program(mpi, name)] + list(args) +
               ["--format", "json"], timeout)
    if recs is None:
        return None
    return {(r["size_bytes"], r.get("variant") or ""): r for r in recs if r.get("type") == "result"}


def rounds(keys, nrounds, seed, one):
    """Call one(key) for every key, nrounds times, the order shuffled per
    round; {key: [its results]} (failed launches left out and reported)."""
    rng = random.Random(seed)
    got = {k: [] for k in keys}
    for r in range(nrounds):
        order = list(keys)
        rng.shuffle(order)
        for k in order:
            res = one(k)
            if res is None:
                print(f"# round {r + 1}: {k} failed", flush=True)
            else:
                got[k].append(res)
    return got


def cell(vals, digits=2):
    """median (min-max) of the launches' figures."""
    vals = [v for v in vals if v is not None]
    if not vals:
        return "-"
    return "%.*f (%.*f-%.*f)" % (digits, statistics.median(vals), digits, min(vals), digits,
                                 max(vals))
