#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Do copies of one installation measure the same? (doc/releases.md, "How
far a walk can be trusted here".) A planted-series walk of identical
copies sometimes named one copy slower for a whole bench run and never in
the next. This bench measures, in one interleaved run, COPIES copies of one
installation made as separate files (`copy0`..: each its own page-cache
pages, so its own physical placement) and COPIES names that are hard links
of copy0's files (`link0`..: the very same pages as copy0), ROUNDS rounds
of 8-64 B latency, then repeats the whole after dropping the page cache
(RUNS times). Per name, each round's value is divided by that round's
median over all names (the regime of the round cancels) and the median of
those ratios over sizes, then over rounds, is printed with the share of rounds
above 1; a name whose share is beyond what chance gives (a two-sided sign
test at 1%) is marked. Separate files that stand out while hard links of
one file do not point at where a library's pages lie in memory.

    bench/copy_bias.py INSTALL BUILD [COPIES] [ROUNDS] [RUNS]
    e.g. bench/copy_bias.py _mpi/mpich-5.0.2 _build/mpich-5.0.2 3 30 3
"""
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "frontend"))
from mpigauge.data import results  # noqa: E402

FE = [sys.executable, os.path.join(ROOT, "frontend", "mpigauge.py")]
SUITE = "ranks=2 latency -m 8:64 --time-budget 0.05\n"


def fe(args, env):
    p = subprocess.run(FE + args, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"copy_bias.py: mpigauge {' '.join(args[:2])} failed:\n{p.stderr[-2000:]}")
    return p


def make_names(d, inst, copies, env):
    """copy0.. as separate files, link0.. as hard links of copy0's."""
    names = []
    for i in range(copies):
        shutil.copytree(inst, os.path.join(d, f"copy{i}"), symlinks=True)
        names.append(f"copy{i}")
    for i in range(copies):
        shutil.copytree(os.path.join(d, "copy0"), os.path.join(d, f"link{i}"), symlinks=True,
                        copy_function=os.link)
        names.append(f"link{i}")
    for n in names:
        fe(["mpi", "add", os.path.join(d, n), "--name", n], env)
    return names


def sign_p(k, n):
    """Two-sided sign test: chance of k or more of n (or as few) at 1/2."""
    tail = sum(math.comb(n, j) for j in range(max(k, n - k), n + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def ratios(path, names):
    """name -> per round, the median over sizes of its value's ratio to that
    size's median over names (one figure a round: sizes of one launch are
    not independent)."""
    recs, _ = results.read_records(path)
    rs = results.build_set(recs, path, keymode="line")
    by = {}
    for key, items in rs.series().items():
        for la, r in items:
            by.setdefault((key.size, la.round), {})[la.config] = r["median"]
    per = {}
    for (size, rnd), cell in by.items():
        if len(cell) != len(names):
            continue
        mid = statistics.median(cell.values())
        for n, v in cell.items():
            per.setdefault((n, rnd), []).append(v / mid)
    out = {n: [] for n in names}
    for (n, rnd), rs in sorted(per.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        out[n].append(statistics.median(rs))
    return out


def one_run(d, env, build, names, rounds, k):
    path = os.path.join(d, f"run{k}.jsonl")
    argv = ["run", "--suite", os.path.join(d, "suite.txt"), "-K", str(rounds), "-q",
            "--bindir", build, "--timeout", "60", "-o", path]
    for n in names:
        argv += ["--config", f"{n} install={n}"]
    fe(argv, env)
    return ratios(path, names)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    inst, build = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    copies, rounds, runs = (int(argv[2]) if len(argv) > 2 else 3,
                            int(argv[3]) if len(argv) > 3 else 30,
                            int(argv[4]) if len(argv) > 4 else 3)
    with tempfile.TemporaryDirectory(prefix="mg-copy-bias-") as d:
        env = dict(os.environ, MPIGAUGE_MPI_CACHE=os.path.join(d, "cache"),
                   OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        names = make_names(d, inst, copies, env)
        with open(os.path.join(d, "suite.txt"), "w") as f:
            f.write(SUITE)
        print("run,name,median_ratio,rounds_above_1,values,sign_p,stands_out")
        for k in range(1, runs + 1):
            if k > 1 and os.access("/proc/sys/vm/drop_caches", os.W_OK):
                os.sync()
                with open("/proc/sys/vm/drop_caches", "w") as f:
                    f.write("1\n")      # the page cache: the next run loads every copy anew
            for n, rs in one_run(d, env, build, names, rounds, k).items():
                above = sum(r > 1 for r in rs)
                p = sign_p(above, len(rs)) if rs else 1.0
                print(f"{k},{n},{statistics.median(rs):.3f},{above},{len(rs)},{p:.2g},"
                      f"{'yes' if p < 0.01 else 'no'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
