#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The host's cost (the result record's "host" object) against a known
count, for both MPI builds: `mpigauge_latency` at 8 B and 64 KiB with
bench/libmgslow.so loaded on both ranks and rank 0 spinning N ns of user CPU
after each receive it completes (MG_SLOW_NS=N, MG_SLOW_RANKS=0; 0, 5 and 20
us), the launches of every (build, N) interleaved in randomised rounds.

One ping-pong iteration then takes N longer on rank 0, and rank 1 polls for
its reply meanwhile: both ranks' CPU per iteration should grow by N, and the
CPU can never exceed the iteration's own wall time (cpu_util at most 1, a
rank being one thread). Prints per build, size and N the medians over the
launches (range): the round trip, the user + system CPU per iteration (mean
over ranks), its growth over N = 0 against N, and cpu_util.

    bench/host_cost.py [--rounds 6] [--builds openmpi,mpich]
(the builds under _build/, scripts/build.sh makes them)
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPINS_NS = (0, 5000, 20000)
SIZES = (8, 65536)


def launch(build, spin_ns):
    """{size: (round trip us, cpu us per iter, cpu_util)} of one launch, or None."""
    bdir = os.path.join(ROOT, "_build", build)
    prog = os.path.join(bdir, "pt2pt", "mpigauge_latency")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               MG_SLOW_NS=str(spin_ns), MG_SLOW_RANKS="0",
               LD_PRELOAD=os.path.join(bdir, "bench", "libmgslow.so"))
    if build == "openmpi":
        head = ["mpirun.openmpi", "-n", "2", "--bind-to", "core", "-x", "LD_PRELOAD", "-x",
                "MG_SLOW_NS", "-x", "MG_SLOW_RANKS"]
    else:
        head = ["mpiexec.mpich", "-n", "2", "-bind-to", "core"]
    cmd = head + [prog, "-m", ",".join(map(str, SIZES)), "--time-budget", "1",
                  "--format", "json"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    except subprocess.TimeoutExpired:
        return None
    out = {}
    for line in p.stdout.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        h = r.get("host") if r.get("type") == "result" else None
        if h and h.get("cpu_util") is not None:
            out[r["size_bytes"]] = (2 * r["median"], h["user_us_per_iter"] + h["sys_us_per_iter"],
                                    h["cpu_util"])
    return out if p.returncode == 0 and out else None


def cell(values, fmt="%.2f"):
    if not values:
        return "n/a"
    return (fmt + " (" + fmt + "-" + fmt + ")") % (statistics.median(values), min(values),
                                                   max(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--builds", default="openmpi,mpich")
    a = ap.parse_args()
    builds = a.builds.split(",")
    keys = [(b, n) for b in builds for n in SPINS_NS]
    got = {k: [] for k in keys}
    rng = random.Random(20261129)
    for _ in range(a.rounds):
        rng.shuffle(keys)
        for k in keys:
            res = launch(*k)
            if res is not None:
                got[k].append(res)
    print(f"medians over {a.rounds} interleaved launches (range); rank 0 spins N us per "
          "receive, so the CPU per iteration should grow by N")
    print("build | size | N us | round trip us | CPU us/iter (user+sys) | growth over N=0 | "
          "cpu_util")
    print("--- | --- | --- | --- | --- | --- | ---")
    worst = 0.0
    for b in builds:
        for s in SIZES:
            base = [r[s][1] for r in got[(b, 0)] if s in r]
            for n in SPINS_NS:
                rows = [r[s] for r in got[(b, n)] if s in r]
                cpu = [r[1] for r in rows]
                util = [r[2] for r in rows]
                worst = max([worst] + util)
                grow = (f"{statistics.median(cpu) - statistics.median(base):+.2f} "
                        f"(expected {n / 1000:+.2f})") if cpu and base else "n/a"
                print(f"{b} | {s} | {n / 1000:g} | {cell([r[0] for r in rows])} | {cell(cpu)} | "
                      f"{grow} | {cell(util, '%.3f')}")
    print(f"highest cpu_util of any launch and row: {worst:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
