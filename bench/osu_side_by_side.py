#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""mpigauge beside OSU 7.4 on this machine (doc/threads.md, doc/startup.md,
doc/pt2pt.md, doc/collectives.md): for each pair below an OSU launch and
the mpigauge launch that measures the same thing, both MPIs, every
launch of a round in a shuffled order; the table gives each side's median
over the launches (range) and the ratio of the medians.

    bench/build_osu.sh OSU_SOURCE /tmp/osu        # once
    bench/osu_side_by_side.py --osu /tmp/osu [-r ROUNDS] [--budget S]
    bench/osu_side_by_side.py --osu /tmp/osu --dropin [-r ROUNDS]

--dropin: the OSU drop-in (doc/osu.md): OSU's osu_latency, osu_bw,
osu_allreduce and osu_alltoall against the build's osu/ links, with the
same command line on both sides, ReFrame's stock check's (-m SIZE -x 10
-i 1000 -c, D D on point-to-point; osu_bw with -i 100), both read by the
same table parser.

Pairs: osu_latency_mt -t T:T / latency_mt -t T (T = 1, 2; 2 with 200
iterations: on two cores the threads take turns in time slices);
osu_latency_persistent / latency --persistent (calls=persistent);
osu_init / startup (OSU prints whole milliseconds: its avg over ranks
against mpigauge's init_mean_us); osu_neighbor_allgather and
osu_neighbor_alltoall -N graph:EDGES / neighbor_* --topo graph:FILE on
the same graph (tests/fixtures/graph2.txt written as OSU's edge list).
"""
import argparse
import os
import re
import statistics
import sys
import tempfile

from mgbench import ROOT, cell, execute, field, launch, launcher, rounds

GRAPH = os.path.join(ROOT, "tests", "fixtures", "graph2.txt")


def osu_exe(osu, mpi, name):
    base = os.path.join(osu, mpi, "libexec", "osu-micro-benchmarks", "mpi")
    for sub in ("pt2pt", "pt2pt/persistent", "startup", "collective"):
        p = os.path.join(base, sub, name)
        if os.path.exists(p):
            return p
    raise SystemExit(f"{name} is not in {base} (bench/build_osu.sh)")


def osu_table(text):
    """OSU's "size value" lines -> {size: value}; osu_init's avg -> {0: us}."""
    m = re.search(r"avg:\s*([0-9.]+)\s*ms", text)
    if m:
        return {0: float(m.group(1)) * 1000.0}
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 2 and f[0].isdigit():
            try:
                out[int(f[0])] = float(f[1])
            except ValueError:
                pass
    return out


def run_osu(osu, mpi, name, args):
    p = execute(launcher(mpi) + [osu_exe(osu, mpi, name)] + args)
    # the table whatever the exit: osu_latency_mt may exit badly after a complete one
    return (osu_table(p.stdout) or None) if p is not None else None


def edges_file(d):
    path = os.path.join(d, "edges.txt")
    with open(GRAPH) as f, open(path, "w") as out:
        for line in f:
            line = line.split("#")[0].strip()
            if ":" in line:
                r, nbrs = line.split(":", 1)
                for n in nbrs.replace(",", " ").split():
                    out.write(f"{int(r)},{int(n)}\n")
    return path


def pairs(edges, budget):
    b = ["--time-budget", str(budget)]
    p = []
    p.append(("latency_mt, 1 thread pair", "osu_latency_mt", ["-t", "1:1", "-m", "8:1024"],
              "latency_mt", ["-t", "1", "-m", "8,1K"] + b, "", "median"))
    # two pairs oversubscribe a 2-core machine (time slices of ms): few iterations
    p.append(("latency_mt, 2 thread pairs", "osu_latency_mt",
              ["-t", "2:2", "-m", "8:8", "-i", "200", "-x", "20"], "latency_mt",
              ["-t", "2", "-m", "8:8", "-i", "200", "-x", "20"], "", "median"))
    p.append(("latency, persistent", "osu_latency_persistent", ["-m", "8:65536"], "latency",
              ["--persistent", "-m", "8,1K,64K"] + b, "calls=persistent", "median"))
    p.append(("MPI_Init, mean over ranks", "osu_init", [], "startup", [], "", "extra.init_mean_us"))
    for op in ("neighbor_allgather", "neighbor_alltoall"):
        p.append((f"{op}, graph", "osu_" + op, ["-N", "graph:" + edges, "-m", "8:1024"], op,
                  ["--topo", "graph:" + GRAPH, "-m", "8,1K"] + b, "", "median"))
    return p


def table_head(caption, what, osu, mg):
    """The caption and the header of a side-by-side table."""
    print(caption + "\n")
    print(f"| MPI | {what} | size | {osu} | {mg} | mpigauge / OSU |")
    print("| --- | --- | --- | --- | --- | --- |")


def table_row(m, label, size, x, y):
    """A markdown row: OSU's launches y, mpigauge's x, and the ratio of the medians."""
    ratio = (f"{statistics.median(x) / statistics.median(y):.2f}" if x and y and
             statistics.median(y) > 0 else "-")
    return f"| {m} | {label} | {size} | {cell(y)} | {cell(x)} | {ratio} |"


def dropin_pairs():
    """(label, OSU name, command line, size) of ReFrame's stock OSU check."""
    return [("osu_latency", "osu_latency", ["-m", "8", "-x", "10", "-i", "1000", "-c", "D", "D"], 8),
            ("osu_bw (-i 100)", "osu_bw",
             ["-m", "4194304", "-x", "10", "-i", "100", "-c", "D", "D"], 4194304),
            ("osu_allreduce", "osu_allreduce", ["-m", "8", "-x", "10", "-i", "1000", "-c"], 8),
            ("osu_alltoall", "osu_alltoall", ["-m", "8", "-x", "10", "-i", "1000", "-c"], 8)]


def run_dropin(mpi, name, args):
    """mpigauge under the OSU name (the build's osu/ folder), OSU's table."""
    exe = os.path.join(ROOT, "_build", mpi, "osu", name)
    if not os.path.exists(exe):
        raise SystemExit(f"{exe} is missing (make -C _build/{mpi})")
    p = execute(launcher(mpi) + [exe] + args)
    return (osu_table(p.stdout) or None) if p is not None else None


def dropin(a):
    ps = dropin_pairs()
    keys = [(m, i, side) for m in a.mpis.split(",") for i in range(len(ps))
            for side in ("osu", "mpigauge")]

    def one(k):
        m, i, side = k
        _, name, args, _ = ps[i]
        return run_osu(a.osu, m, name, args) if side == "osu" else run_dropin(m, name, args)

    got = rounds(keys, a.rounds, a.seed, one)
    table_head(f"Median over {a.rounds} alternating launches (range); the same OSU command line "
               f"on both sides; 2 ranks, one node.", "program", "OSU 7.4 (mean)",
               "mpigauge (median)")
    for m in a.mpis.split(","):
        for i, (label, _, _, size) in enumerate(ps):
            x = [r[size] for r in got[(m, i, "mpigauge")] if r and size in r]
            y = [r[size] for r in got[(m, i, "osu")] if r and size in r]
            print(table_row(m, label, size, x, y))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--osu", required=True, help="bench/build_osu.sh's DEST")
    ap.add_argument("-r", "--rounds", type=int, default=5)
    ap.add_argument("--budget", type=float, default=0.2)
    ap.add_argument("--mpis", default="openmpi,mpich")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dropin", action="store_true",
                    help="OSU against mpigauge under the OSU names, the same command lines")
    a = ap.parse_args()
    if a.dropin:
        return dropin(a)
    with tempfile.TemporaryDirectory() as d:
        ps = pairs(edges_file(d), a.budget)
        keys = [(m, i, side) for m in a.mpis.split(",") for i in range(len(ps))
                for side in ("osu", "mpigauge")]

        def one(k):
            m, i, side = k
            label, oname, oargs, mname, margs, variant, fld = ps[i]
            if side == "osu":
                return run_osu(a.osu, m, oname, oargs)
            res = launch(m, mname, margs, timeout=600)
            if res is None:
                return None
            return {s: field(r, fld) for (s, v), r in res.items() if v == variant}

        got = rounds(keys, a.rounds, a.seed, one)
    table_head(f"Median over {a.rounds} alternating launches (range), us; mpigauge --time-budget "
               f"{a.budget:g}, OSU's defaults; 2 ranks, one node.", "measurement", "OSU 7.4",
               "mpigauge")
    for m in a.mpis.split(","):
        for i, p in enumerate(ps):
            mg = got[(m, i, "mpigauge")]
            osu = got[(m, i, "osu")]
            for size in sorted({s for r in mg for s in r}):
                x = [r[size] for r in mg if r.get(size) is not None]
                y = [r[size] for r in osu if size in r]
                print(table_row(m, p[0], size, x, y))
    return 0


if __name__ == "__main__":
    sys.exit(main())
