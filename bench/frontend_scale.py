#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How the front-end scales with the launch count: `compare BASE NEW` of two
separate result sets of N launches each (Mann-Whitney over launches), and
`report` and `plot` of one set with N launches of one benchmark and size
(the case that overflowed 2.0 ** n at 1,024). Each command runs in its own
process; the table gives its wall time and peak memory (max RSS).

    bench/frontend_scale.py [-n 100,1000,2000] [--big-mb 200]

--big-mb also times `compare` of a results file of about that many MB
(target: under 60 s). --against REV runs the front-end of that git revision
beside this one on the same files, command by command in turns (3 turns,
the median wall time of each and this one's over the other's): mpigauge is
a regression tool and catches its own. Synthetic records, deterministic
noise; every launch carries its library's control variables as the
programs write them (a cvars record of 1,000 variables, one set per side,
named by digest).
"""
import argparse
import io
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRONTEND = os.path.join(ROOT, "frontend", "mpigauge.py")
SIZES = (8, 1024, 65536)


def run_record(launch_id, library):
    return {"type": "run", "schema": 1, "benchmark": "latency", "description": "synthetic",
            "mpigauge_version": "0.1.0", "mpi_library": library,
            "mpi_library_version": library, "mpi_version": "3.1", "nranks": 2, "nnodes": 1,
            "hosts": ["n1", "n1"], "bindings": ["0", "1"], "timer": "MPI_Wtime",
            "timer_resolution_s": 1e-9, "timer_overhead_s": 3e-8,
            "date_utc": "2026-11-25T00:00:00Z", "command_line": ["mpigauge_latency"],
            "env": {}, "launch_id": launch_id,
            "cvars": {"state": "read", "digest": digest(library), "read": 1000, "total": 1000,
                      "unreadable": 0, "other_binding": 0, "per_launch": 10},
            "options": {"sizes_bytes": list(SIZES), "benchmark": {}, "time_mode": "root"}}


def digest(library):
    return "%016x" % (sum(map(ord, library)) * 2654435761 % 2 ** 64)


def cvars_record(library):
    """A library's control variables as the programs write them, once per launch."""
    rows = [["%s_component_%04d_%s" % (library.split()[0].lower(), i,
                                       ("password" if i % 97 == 0 else "limit")),
             str(i * 7 % 1000), "int" if i % 3 else "char", "local", "none"] for i in range(1000)]
    return {"type": "cvars", "digest": digest(library), "mpi_library": library,
            "fields": ["name", "value", "type", "scope", "binding"], "cvars": rows}


def result_record(launch_id, size, med):
    return {"type": "result", "benchmark": "latency", "size_bytes": size, "unit": "us",
            "median": med, "mean": med, "min": med * 0.98, "max": med * 1.05,
            "stddev": med * 0.01, "p50": med, "p90": med * 1.01, "p99": med * 1.02,
            "ci95_low": med * 0.99, "ci95_high": med * 1.01, "samples": 100,
            "iterations": 1000, "stop": "precision", "launch_id": launch_id}


def write_set(path, n, library, factor, seed, pad_launches=0):
    rng = random.Random(seed)
    base = {8: 0.2, 1024: 0.35, 65536: 5.0}
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n + pad_launches):
            lid = "%s-%06d" % (library[:4], i)
            f.write(json.dumps(cvars_record(library)) + "\n")
            f.write(json.dumps(run_record(lid, library)) + "\n")
            for size, v in base.items():
                med = round(v * factor * rng.lognormvariate(0.0, 0.03), 6)
                f.write(json.dumps(result_record(lid, size, med)) + "\n")


def timed(args):
    """Wall seconds, peak RSS in MB and exit code of one front-end command."""
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, FRONTEND] + args, capture_output=True, text=True)
    wall = time.monotonic() - t0
    return wall, p.returncode, p.stderr.strip().splitlines()[-1:] if p.returncode else []


def peak_mb(args, frontend=FRONTEND):
    """Run and measure in a child that reports its own children's peak RSS."""
    code = ("import resource,subprocess,sys,time;t=time.monotonic();"
            "p=subprocess.run(sys.argv[1:],capture_output=True);"
            "print(time.monotonic()-t,p.returncode,"
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024.0)")
    out = subprocess.run([sys.executable, "-c", code, sys.executable, frontend] + args,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1]), float(out[2])


def earlier_frontend(rev, folder):
    """The front-end of git revision rev, unpacked into folder: its mpigauge.py."""
    tar = subprocess.run(["git", "-C", ROOT, "archive", rev, "frontend"], capture_output=True,
                         check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(folder)
    return os.path.join(folder, "frontend", "mpigauge.py")


def side_by_side(rev, d, n):
    """Each command under this front-end and rev's, in turns: the rows of the table."""
    other = earlier_frontend(rev, os.path.join(d, "earlier"))
    base, new = os.path.join(d, "base.jsonl"), os.path.join(d, "new.jsonl")
    write_set(base, n, "Open MPI", 1.0, 1)
    write_set(new, n, "MPICH", 1.05, 2)
    rows = []
    for name, args in (("compare", ["compare", base, new]),
                       ("report", ["report", base, new, "-o", os.path.join(d, "r.html")])):
        walls = {"this": [], rev: []}
        for _ in range(3):
            for who, fe in (("this", FRONTEND), (rev, other)):
                walls[who].append(peak_mb(args, fe)[0])
        a, b = statistics.median(walls["this"]), statistics.median(walls[rev])
        rows.append("| %d | %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | x%.2f |" % (
            n, name, a, min(walls["this"]), max(walls["this"]), b, min(walls[rev]),
            max(walls[rev]), a / b))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", default="100,1000,2000")
    ap.add_argument("--big-mb", type=float, default=0.0)
    ap.add_argument("--against", metavar="REV")
    a = ap.parse_args()
    if a.against:
        print("| launches per side | command | this front-end: wall s, median (range) | "
              f"{a.against}'s | this / {a.against} |")
        print("| --- | --- | --- | --- | --- |")
        for n in [int(x) for x in a.n.split(",")]:
            with tempfile.TemporaryDirectory() as d:
                print("\n".join(side_by_side(a.against, d, n)))
        return 0
    print("| launches per side | command | wall (s) | peak RSS (MB) | exit |")
    print("| --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as d:
        for n in [int(x) for x in a.n.split(",")]:
            base, new = os.path.join(d, "base.jsonl"), os.path.join(d, "new.jsonl")
            write_set(base, n, "Open MPI", 1.0, 1)
            write_set(new, n, "MPICH", 1.05, 2)
            for name, args in (("compare", ["compare", base, new]),
                               ("report", ["report", base, new, "-o",
                                           os.path.join(d, "r.html")]),
                               ("plot", ["plot", base, "-o", os.path.join(d, "p.png")])):
                wall, rc, mb = peak_mb(args)
                print("| %d | %s | %.2f | %.0f | %d |" % (n, name, wall, mb, rc))
        if a.big_mb > 0:
            big = os.path.join(d, "big.jsonl")
            # about 1.3 KB per launch (a run record and three results)
            n = int(a.big_mb * 1e6 / 1300)
            write_set(big, n // 2, "Open MPI", 1.0, 3)
            new = os.path.join(d, "big2.jsonl")
            write_set(new, n // 2, "MPICH", 1.05, 4)
            mb_files = (os.path.getsize(big) + os.path.getsize(new)) / 1e6
            wall, rc, mb = peak_mb(["compare", big, new])
            print("| %d (%.0f MB of files) | compare | %.2f | %.0f | %d |"
                  % (n // 2, mb_files, wall, mb, rc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
