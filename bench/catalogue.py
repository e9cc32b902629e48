#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The catalogue's programs on this machine (doc/threads.md,
doc/startup.md, doc/datatypes.md, doc/collectives.md): every line of a
group is one launch per round, the lines' order shuffled round by round
(Open MPI and MPICH alternating too); a table cell is the median over the
launches of the launch's figure, with the range over launches.

    bench/catalogue.py GROUP [-r ROUNDS] [--budget S] [--seed N]

GROUP: threads, partitioned, startup, datatypes, comm_create, neighbours.
Needs _build/openmpi and _build/mpich (scripts/build.sh openmpi|mpich).
"""
import argparse
import os
import sys

from mgbench import ROOT, cell, field, launch, rounds

B = "--time-budget"


def line(mpi, label, prog, args, n=2, fields=(("median", 2),), over=False):
    return {"mpi": mpi, "label": label, "prog": prog, "args": args, "n": n, "fields": fields,
            "over": over}


def groups(budget):
    b = [B, str(budget)]
    g = {}
    both = ("openmpi", "mpich")
    g["threads"] = (
        [line(m, "latency (1 process per rank)", "latency", ["-m", "8,1K,64K"] + b) for m in both]
        + [line(m, f"latency_mt -t {t}", "latency_mt", ["-t", str(t), "-m", "8,1K,64K"] + b,
                fields=(("median", 2), ("extra.msg_rate_per_s", 0)))
           for m in both for t in (1, 2)]
        + [line(m, "mbw_mr (1 pair)", "mbw_mr", ["-m", "8,64K"] + b, fields=(("median", 0),))
           for m in both]
        + [line(m, f"mbw_mr_mt -t {t}", "mbw_mr_mt", ["-t", str(t), "-m", "8,64K"] + b,
                fields=(("median", 0),)) for m in both for t in (1, 2)])
    g["partitioned"] = (
        [line("mpich", "latency, P x N bytes", "latency", ["-m", "64,8K,512K"] + b)]
        + [line("mpich", f"part_latency -p 8 -t {t}", "part_latency",
                ["-p", "8", "-t", str(t), "-m", "8,1K,64K"] + b) for t in (1, 2)]
        + [line("mpich", "bw, P x N bytes", "bw", ["-m", "64,8K,512K"] + b,
                fields=(("median", 0),))]
        + [line("mpich", f"part_bw -p 8 -t {t}", "part_bw",
                ["-p", "8", "-t", str(t), "-m", "8,1K,64K"] + b,
                fields=(("median", 0), ("extra.partitions_per_s", 0))) for t in (1, 2)])
    g["startup"] = (
        [line(m, f"startup --init {i}", "startup", ["--init", i],
              fields=(("median", 0), ("extra.main_max_us", 0), ("extra.ready_max_us", 0)))
         for m in both for i in ("init", "thread") + (("session",) if m == "mpich" else ())]
        + [line(m, "hello", "hello", ["-m", "1"] + b,
                fields=(("median", 2), ("extra.first_us", 1))) for m in both])
    g["datatypes"] = [
        line(m, f"{prog} {' '.join(t)}", prog, list(t) + ["-m", sizes] + b,
             fields=(("median", 2 if prog == "latency" else 0), ("extra.ratio_to_bytes", 2)))
        for m in both for prog, sizes in (("latency", "64,4K,256K"), ("bw", "4K,256K"))
        for t in (("-T", "double"), ("-T", "double", "-D", "contiguous"),
                  ("-T", "double", "-D", "vector:4:8"), ("-T", "int", "-D", "indexed"),
                  ("-T", "float", "-D", "resized"))]
    g["comm_create"] = [line(m, f"comm_create, {n} ranks", "comm_create", b, n=n,
                             fields=(("median", 1), ("extra.free_us", 1)), over=n > 2)
                        for m in both for n in ((2,) if m == "mpich" else (2, 4))]
    g["neighbours"] = [
        line(m, f"{op} {topo.split('/')[-1] if topo else 'cart'}", op, ["-m", "8,1K,64K"] + (["--topo", topo] if topo else []) + b)
        for m in both for op in ("neighbor_allgather", "neighbor_alltoall", "ineighbor_alltoall")
        for topo in ("", "graph:" + os.path.join(ROOT, "tests", "fixtures", "graph2.txt"))]
    return g


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("group", choices=sorted(groups(0.2)))
    ap.add_argument("-r", "--rounds", type=int, default=5)
    ap.add_argument("--budget", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    lines = groups(a.budget)[a.group]
    keys = list(range(len(lines)))

    def one(k):
        ln = lines[k]
        return launch(ln["mpi"], ln["prog"], ln["args"], ln["n"], ln["over"])

    got = rounds(keys, a.rounds, a.seed, one)
    print(f"Median over {a.rounds} alternating launches (range); --time-budget {a.budget:g}; "
          "one node.\n")
    names = sorted({f for ln in lines for f, _ in ln["fields"]},
                   key=lambda f: (f != "median", f))
    print("| MPI | program | size | variant | " + " | ".join(names) + " |")
    print("| --- | --- | --- | --- | " + " | ".join("---" for _ in names) + " |")
    for k in keys:
        ln, runs = lines[k], got[k]
        digits = dict(ln["fields"])
        for sv in sorted({sv for res in runs for sv in res}):
            cells = [cell([field(res[sv], f) for res in runs if sv in res], digits[f])
                     if f in digits else "" for f in names]
            print(f"| {ln['mpi']} | {ln['label']} | {sv[0]} | {sv[1]} | " + " | ".join(cells)
                  + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
