#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How `mpigauge history` and `dashboard` scale: N launches (default 1,000)
in T tagged files (default 10 releases), each launch a realistic record
set (latency, bw, allreduce: 23, 23 and 18 sizes), then every command timed
in its own process: add (all files), list, show, check against last,
export, dashboard. Target: each under 10 s at 1,000 launches. Also checks
that a second add is refused and that export gives back every launch.

    bench/history_scale.py [-n 1000] [--tags 10] [--keep DIR] [--no-time-target]

--no-time-target: the exit status says only whether every command did its
job (scripts/test.sh runs it so: timings are printed, never asserted there).
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRONTEND = os.path.join(ROOT, "frontend", "mpigauge.py")
BENCHES = (("latency", "us", 0, 22, 0.2), ("bw", "MB/s", 0, 22, 60.0),
           ("allreduce", "us", 3, 20, 1.5))


def records(tag_i, launch_i, rng):
    bench, unit, lo, hi, base = BENCHES[launch_i % len(BENCHES)]
    lid = f"T{tag_i:03d}-{launch_i:05d}"
    sizes = [0] + [1 << k for k in range(lo, hi + 1)] if bench != "allreduce" else \
        [1 << k for k in range(lo, hi + 1)]
    run = {"type": "run", "schema": 1, "benchmark": bench, "mpigauge_version": "0.1.0",
           "mpi_library": f"Open MPI v4.1.{tag_i}", "mpi_library_version": f"4.1.{tag_i}",
           "mpi_version": "3.1", "nranks": 2, "nnodes": 1, "hosts": ["n1", "n1"],
           "bindings": ["0", "1"], "timer": "MPI_Wtime",
           "date_utc": f"2026-{1 + tag_i % 12:02d}-01T00:{launch_i % 60:02d}:00Z",
           "command_line": [f"mpigauge_{bench}"], "env": {}, "launch_id": lid,
           "options": {"sizes_bytes": sizes, "benchmark": {}}}
    out = [run]
    regime = 1.0 if rng.random() < 0.7 else 1.6       # this machine's two regimes
    for s in sizes:
        grow = 1.0 + s / 65536.0
        v = base * (grow if unit == "us" else min(200.0, grow * 30)) * regime
        v *= rng.lognormvariate(0.0, 0.02)
        out.append({"type": "result", "benchmark": bench, "size_bytes": s, "unit": unit,
                    "median": v, "mean": v, "min": v * 0.97, "max": v * 1.1, "stddev": v * .01,
                    "p50": v, "p90": v * 1.01, "p99": v * 1.03, "ci95_low": v * 0.99,
                    "ci95_high": v * 1.01, "samples": 50, "iterations": 500,
                    "stop": "precision", "launch_id": lid})
    return out


def timed(args, env):
    t = time.perf_counter()
    p = subprocess.run([sys.executable, FRONTEND] + args, capture_output=True, text=True, env=env)
    return time.perf_counter() - t, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="launches in all (default 1000)")
    ap.add_argument("--tags", type=int, default=10, help="tags (files) (default 10)")
    ap.add_argument("--keep", help="keep the database and site in this folder")
    ap.add_argument("--no-time-target", action="store_true",
                    help="exit 0 when every command worked, however long it took")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="mg-history-")
    os.makedirs(work, exist_ok=True)
    rng = random.Random(7)
    files, per = [], a.n // a.tags
    for t in range(a.tags):
        path = os.path.join(work, f"release-{t:02d}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for i in range(per):
                for r in records(t, i, rng):
                    f.write(json.dumps(r) + "\n")
        files.append(path)
    db = os.path.join(work, "history.sqlite")
    if os.path.exists(db):
        os.unlink(db)
    env = dict(os.environ, MPIGAUGE_HISTORY=db)
    rows, ok = [], True
    t0 = 0.0
    for path in files:
        dt, p = timed(["history", "add", path], env)
        t0 += dt
        ok &= p.returncode == 0
    rows.append(("add (all files)", t0, ok))
    dt, p = timed(["history", "add", files[0]], env)
    rows.append(("add again (refused, exit 2)", dt, p.returncode == 2))
    for name, args, want in (
            ("list", ["history", "list"], 0),
            ("show latency", ["history", "show", "latency"], 0),
            ("check last tag against last", ["history", "check", f"release-{a.tags - 1:02d}",
                                             "--against", "last"], None),
            ("export", ["history", "export", "-o", os.path.join(work, "export.jsonl")], 0),
            ("dashboard", ["dashboard", "-o", os.path.join(work, "site")], 0)):
        dt, p = timed(args, env)
        good = p.returncode == want if want is not None else p.returncode in (0, 1)
        if not good:
            print(p.stderr[-2000:], file=sys.stderr)
        rows.append((name, dt, good))
    with open(os.path.join(work, "export.jsonl"), encoding="utf-8") as f:
        runs = sum(1 for line in f if '"type":"run"' in line)
    rows.append((f"export holds every launch ({runs} of {per * a.tags})", 0.0,
                 runs == per * a.tags))
    print(f"history of {per * a.tags} launches in {a.tags} tags "
          f"({os.path.getsize(db) / 1e6:.1f} MB database)")
    print(f"{'command':<40} {'seconds':>8}  {'target < 10 s':>14}")
    for name, dt, good in rows:
        print(f"{name:<40} {dt:8.2f}  {('ok' if good and dt < 10 else 'FAILED'):>14}")
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if all(g and (dt < 10 or a.no_time_target) for _, dt, g in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
