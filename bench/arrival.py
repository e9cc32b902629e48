#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Collectives under late arrivals and noise (doc/collectives.md, "Late
arrivals and noise"): which libraries' algorithms absorb a late rank and
which amplify it.

One interleaved `mpigauge run` (launches one after the other, the
libraries and the patterns in a new random order every round) of each
collective at each size, with the ranks arriving together (`--sync
window`), with one rank late (`--arrival one-late:D`, the last rank; and
`one-late:D@0`, the root), skewed (`skew:D`), and, with the default barrier
sync, with and without injected noise (`--noise period:P,len:L`). Per
library, collective, size and pattern it prints, as medians over launches
with their range:

  own      the figure: the latest end minus the last rank's arrival, the
           collective's own time once every rank is in it
  waited   the slowest rank's median time in the call (an early rank's
           includes its wait for the late one)
  x own    own over the same round's balanced launch (paired by round):
           below 1 the algorithm absorbed the late rank (the early ranks'
           work was done before it came), above 1 it amplified it; for
           noise, over the same round's launch without it
  mean     the mean over calls (noise: a detour hits a few calls, which the
           median does not show and the mean does), and x mean as x own

    bench/arrival.py CONFIG [CONFIG ...] [--rounds R] [--delay US]
                     [--noise period:P,len:L] [--sizes LIST] [--ops LIST] [-n RANKS]
    CONFIG as for `mpigauge run --config`, e.g.
    bench/arrival.py "ompi bindir=_build/openmpi" "mpich bindir=_build/mpich" --rounds 8
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FE = [sys.executable, os.path.join(ROOT, "frontend", "mpigauge.py")]


def patterns(delay, noise):
    """(name, arguments) of every pattern, the balanced one first."""
    d = f"{delay:g}"
    return [("balanced", "--sync window"),
            (f"one-late:{d}", f"--sync window --arrival one-late:{d}"),
            (f"one-late:{d}@0", f"--sync window --arrival one-late:{d}@0"),
            (f"skew:{d}", f"--sync window --arrival skew:{d}"),
            ("barrier", "--sync barrier"),
            (f"noise {noise}", f"--sync barrier --noise {noise}")]


def suite(ops, sizes, nranks, pats):
    return "".join(f"ranks={nranks} {op} -m {sizes} -i 200 -x 20 {args}\n"
                   for op in ops for _, args in pats)


def read(path):
    """{launch_id: launch record}, [result records]."""
    launches, results = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("type") == "launch":
                launches[r["launch_id"]] = r
            elif r.get("type") == "result":
                results.append(r)
    return launches, results


def spread(vals):
    vals = sorted(vals)
    return f"{statistics.median(vals):.3g} ({vals[0]:.3g}-{vals[-1]:.3g})"


def table(path, pats):
    """The rows of the printed table, from the run's results file."""
    launches, results = read(path)
    name_of = {args: name for name, args in pats}
    got = {}   # (config, op, size, pattern) -> {round: (own, waited)}
    for r in results:
        la = launches.get(r.get("launch_id"))
        if la is None or la.get("status") != "ok":
            continue
        line = la["suite_line"]
        pat = next((n for a, n in name_of.items() if line.endswith(" " + a)), None)
        if pat is None:
            continue
        key = (la["config"], r["benchmark"], r["size_bytes"], pat)
        got.setdefault(key, {})[la["round"]] = (r["median"], r["extra"].get("rank_max_us"),
                                                r["mean"])
    rows = []
    for (cfg, op, size, pat), by_round in sorted(got.items()):
        base = got.get((cfg, op, size, "balanced" if pat.startswith(("one", "skew")) else
                        "barrier"), {})
        own = [v[0] for v in by_round.values()]
        waited = [v[1] for v in by_round.values() if v[1] is not None]
        ratios = [v[0] / base[k][0] for k, v in by_round.items() if k in base and base[k][0] > 0]
        mratios = [v[2] / base[k][2] for k, v in by_round.items() if k in base and base[k][2] > 0]
        first = pat in ("balanced", "barrier")
        rows.append((cfg, op, size, pat, spread(own), spread(waited) if waited else "-",
                     spread(ratios) if ratios and not first else "-",
                     spread([v[2] for v in by_round.values()]),
                     spread(mratios) if mratios and not first else "-", len(own)))
    return rows


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("configs", nargs="+", metavar="CONFIG")
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--delay", type=float, default=100.0, help="the late rank's delay, us")
    p.add_argument("--noise", default="period:1000,len:100")
    p.add_argument("--sizes", default="8,64K")
    p.add_argument("--ops", default="allreduce,bcast,reduce,alltoall")
    p.add_argument("-n", type=int, default=2)
    a = p.parse_args(argv)
    pats = patterns(a.delay, a.noise)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    with tempfile.TemporaryDirectory(prefix="mg-arrival-") as d:
        st, out = os.path.join(d, "suite.txt"), os.path.join(d, "arrival.jsonl")
        with open(st, "w") as f:
            f.write(suite(a.ops.split(","), a.sizes, a.n, pats))
        cmd = FE + ["run", "--suite", st, "-o", out, "--repeat", str(a.rounds), "--interleave",
                    "launches", "--timeout", "120", "-q"]
        for c in a.configs:
            cmd += ["--config", c]
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr[-3000:])
            return 1
        print(f"# {a.n} ranks, {a.rounds} rounds, launches interleaved; medians over launches "
              "(range); us")
        print("library  op        size   pattern                own | waited | x own | mean | "
              "x mean | launches")
        for cfg, op, size, pat, *cols, n in table(out, pats):
            print(f"{cfg:8s} {op:9s} {size:>6d} {pat:22s} " + " | ".join(cols) + f" | {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
