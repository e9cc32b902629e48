#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""This machine's one-sided table (doc/onesided.md): the RMA programs in every
synchronisation mode and window flavour, Open MPI and MPICH side by side.

Launches are interleaved: every round runs each (MPI, program, mode, flavour)
line once, in an order shuffled per round, so both libraries and all modes
meet the machine's slow and fast states alike. A launch's figure is its
median per size; the table gives the median over the rounds and the range
(min-max) over them.

    bench/onesided.py [-r ROUNDS] [--budget S] [--seed N] [--mpis openmpi,mpich]
                      [--programs put_latency,rma_progress,...]

Needs _build/openmpi and _build/mpich (scripts/build.sh openmpi|mpich).
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = ["lock", "lock_all", "flush", "flush_local", "fence", "pscw"]
FLAVOURS = ["create", "allocate", "dynamic", "shared"]
# (program, sizes, what the table shows)
LINES = [("put_latency", "8,64K"), ("get_latency", "8,64K"), ("acc_latency", "8,1K"),
         ("fop_latency", ""), ("cas_latency", ""), ("put_bw", "8,64K,1M"),
         ("get_bw", "64K,1M")]


def launcher(mpi):
    if mpi == "openmpi":
        return ["mpirun.openmpi", "-n", "2", "--bind-to", "core"]
    return ["mpiexec.mpich", "-n", "2", "-bind-to", "core"]


PROGRESS_MODES = ["lock", "lock_all", "flush"]
PROGRESS_SIZES = "1K,64K"


def launch(mpi, prog, sizes, mode, flavour, budget):
    exe = os.path.join(ROOT, "_build", mpi, "onesided", "mpigauge_" + prog)
    cmd = launcher(mpi) + [exe, "-s", mode, "-w", flavour, "--time-budget", str(budget),
                           "--format", "json"]
    if sizes:
        cmd += ["-m", sizes]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    out = {}
    run = None
    for line in p.stdout.splitlines():
        rec = json.loads(line)
        if rec.get("type") == "result" and "variant" in rec:
            ex = rec.get("extra", {})
            out[(rec["size_bytes"], rec["variant"])] = (rec["median"], ex.get("waits_for_target"),
                                                        ex.get("arrived_pct"))
        elif rec.get("type") == "result":
            out[rec["size_bytes"]] = rec["median"]
        elif rec.get("type") == "run":
            run = rec
    if p.returncode != 0:
        return None, "exit %d" % p.returncode
    return out, run


def fmt(vals):
    if not vals:
        return "-"
    med = statistics.median(vals)
    lo, hi = min(vals), max(vals)
    digits = 2 if med < 100 else 0
    return "%.*f (%.*f-%.*f)" % (digits, med, digits, lo, digits, hi)


def size_label(n):
    for unit, f in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= f and n % f == 0:
            return "%d%s" % (n // f, unit)
    return "%d B" % n


def progress_table(got, m):
    """rma_progress: the put's time, and the work left after the delay /
    the share of iterations the target saw the data during it."""
    keys = sorted({k[5] for k in got if k[0] == m and k[1] == "rma_progress"},
                  key=lambda sv: (sv[0], int(sv[1].split("=")[1])))
    print("\nrma_progress (allocate): put + completion time in us, then "
          "waits_for_target (launches with 1 / all) / arrived_pct (median):\n")
    print("| size | delay (us) | " + " | ".join(PROGRESS_MODES) + " |")
    print("| --- | --- |" + " --- |" * len(PROGRESS_MODES))
    for size, var in keys:
        cells = []
        for mode in PROGRESS_MODES:
            v = got.get((m, "rma_progress", PROGRESS_SIZES, mode, "allocate", (size, var)), [])
            if not v:
                cells.append("-")
                continue
            t = fmt([x[0] for x in v])
            pdw = [x[1] for x in v if x[1] is not None]
            arr = [x[2] for x in v if x[2] is not None]
            if pdw:
                t += " / %d of %d / %.0f%%" % (sum(1 for x in pdw if x), len(pdw),
                                               statistics.median(arr))
            cells.append(t)
        print("| %s | %s | %s |" % (size_label(size), var.split("=")[1], " | ".join(cells)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-r", "--rounds", type=int, default=3)
    ap.add_argument("--budget", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mpis", default="openmpi,mpich")
    ap.add_argument("--programs", help="only these programs (comma-separated)")
    a = ap.parse_args()
    mpis = a.mpis.split(",")
    lines = [(m, p, s, mode, "allocate") for m in mpis for p, s in LINES for mode in MODES]
    lines += [(m, "put_latency", "8,64K", "flush", f) for m in mpis for f in FLAVOURS
              if f != "allocate"]
    lines += [(m, "rma_progress", PROGRESS_SIZES, mode, "allocate") for m in mpis
              for mode in PROGRESS_MODES]
    if a.programs:
        lines = [k for k in lines if k[1] in a.programs.split(",")]
    rng = random.Random(a.seed)
    got = {}
    models = {}
    for r in range(a.rounds):
        order = lines[:]
        rng.shuffle(order)
        for key in order:
            res, run = launch(*key, a.budget)
            if res is None:
                print("# round %d: %s failed: %s" % (r + 1, " ".join(key), run), file=sys.stderr)
                continue
            for size, v in res.items():
                got.setdefault(key + (size,), []).append(v)
            w = run.get("window", {})
            models[(key[0], key[4])] = (w.get("win_model"), w.get("info"))
        print("# round %d of %d done" % (r + 1, a.rounds), file=sys.stderr)
    print("Median over %d interleaved launches (range over launches); time budget %g s "
          "per size; 2 ranks on one node, bound to cores, window flavour allocate "
          "unless named.\n" % (a.rounds, a.budget))
    for m in mpis:
        print("### %s\n" % m)
        print("| program | size | " + " | ".join(MODES) + " |")
        print("| --- | --- |" + " --- |" * len(MODES))
        for p, s in LINES:
            sizes = sorted({k[5] for k in got if k[0] == m and k[1] == p})
            for size in sizes:
                cells = [fmt(got.get((m, p, s, mode, "allocate", size), [])) for mode in MODES]
                print("| %s | %s | %s |" % (p, size_label(size), " | ".join(cells)))
        print("\nput_latency, flush, by window flavour:\n")
        print("| size | " + " | ".join(FLAVOURS) + " |")
        print("| --- |" + " --- |" * len(FLAVOURS))
        for size in (8, 65536):
            cells = [fmt(got.get((m, "put_latency", "8,64K", "flush", f, size), []))
                     for f in FLAVOURS]
            print("| %s | %s |" % (size_label(size), " | ".join(cells)))
        progress_table(got, m)
        print("\nMemory model and info keys as the library reports them:")
        for (mm, f), (model, info) in sorted(models.items()):
            if mm == m:
                print("* %s: %s, info %s" % (f, model, ", ".join(info or []) or "none"))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
