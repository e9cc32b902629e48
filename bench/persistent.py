#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Persistent against plain point-to-point calls on this machine
(doc/pt2pt.md): latency, bw and bibw with --persistent, Open MPI and MPICH
launches alternating (a shuffled order per round). Each launch measures
both variants size by size, so a ratio is taken within one launch; the
table gives the median over the launches of the plain figure, the
persistent figure and ratio_to_plain (time or bandwidth ratio), with the
range over launches.

    bench/persistent.py [-r ROUNDS] [--budget S] [--mpis openmpi,mpich]

Needs _build/openmpi and _build/mpich (scripts/build.sh openmpi|mpich).
"""
import argparse
import sys

from mgbench import cell as mcell, launch as mlaunch, rounds

LINES = [("latency", "8,1K,64K"), ("bw", "8,64K,1M"), ("bibw", "8,64K,1M")]


def launch(mpi, prog, sizes, budget):
    res = mlaunch(mpi, prog, ["--persistent", "-m", sizes, "--time-budget", str(budget)],
                  timeout=300)
    if res is None:
        return None
    return {k: (r["median"], r["extra"]["ratio_to_plain"]) for k, r in res.items()}


def cell(vals, digits):
    return mcell(vals, digits)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-r", "--rounds", type=int, default=5)
    ap.add_argument("--budget", type=float, default=0.2)
    ap.add_argument("--mpis", default="openmpi,mpich")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    keys = [(m, p, s) for m in a.mpis.split(",") for p, s in LINES]
    runs = rounds(keys, a.rounds, a.seed, lambda k: launch(*k, a.budget))
    got = {}
    for k, results in runs.items():
        for res in results:
            for sv, v in res.items():
                got.setdefault(k + sv, []).append(v)
    print("Median over %d alternating launches (range); --time-budget %g; 2 ranks, one node.\n"
          % (a.rounds, a.budget))
    print("| MPI | program | size | plain | persistent | ratio_to_plain |")
    print("| --- | --- | --- | --- | --- | --- |")
    for m, p, s in keys:
        for size in sorted({k[3] for k in got if k[:3] == (m, p, s)}):
            plain = [v[0] for v in got.get((m, p, s, size, "calls=plain"), [])]
            pers = got.get((m, p, s, size, "calls=persistent"), [])
            if not plain or not pers:
                continue
            digits = 2 if p == "latency" else 0
            print("| %s | %s | %d | %s | %s | %s |" % (
                m, p, size, cell(plain, digits), cell([v[0] for v in pers], digits),
                cell([v[1] for v in pers], 3)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
