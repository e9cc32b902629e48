#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The rank-count scaling verdicts' error rates (doc/collectives.md,
"Scaling verdicts"): a step planted at a rank count is found, and a sweep
without one names none.

Each trial is one interleaved `mpigauge run` (launches one after the
other, the configurations in a new random order every round) of one
collective swept over the ranks (`--ranks-sweep 2:NP`, one launch measures
every count) with bench/libmgslow.so preloaded in three configurations:
base and same (nothing slowed) and planted (the collective slowed by US
microseconds on rank 0 on communicators of more than N ranks,
MG_SLOW_CALLS / MG_SLOW_CALL_NS / MG_SLOW_ABOVE). Then `mpigauge model
--scaling` of base, same and planted. Per trial it prints what the
comparisons said and what each side's own sweep named; at the end:

  found     planted against base says "a step added at N->N+1" (and nothing
            else): the trials that found the planted step
  clean     same against base says nothing: the trials without a false step
  own       planted's own sweep names N->N+1; base's and same's own sweeps
            name a step (this machine's own: ranks beyond the cores)

    bench/scaling_steps.py BUILD [--trials T] [--rounds R] [-n NP] [--above N]
                           [--delay US] [--op OP] [--size S] [--launcher L] [--wrap CMD]
    bench/scaling_steps.py _build/openmpi --trials 20
    # on the emulated two-node Slurm (doc/collectives.md says how to start it)
    bench/scaling_steps.py _build/openmpi -n 4 --above 3 \
        --wrap "salloc -N 2 -n 4 --ntasks-per-node=2"
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FE = [sys.executable, os.path.join(ROOT, "frontend", "mpigauge.py")]


def configs(lib, a):
    common = f"LD_PRELOAD={lib} OMPI_MCA_mpi_yield_when_idle=1"
    plant = (f"MG_SLOW_CALLS={a.op} MG_SLOW_CALL_NS={a.delay * 1000:g} "
             f"MG_SLOW_ABOVE={a.above}")
    return [f"base {common}", f"same {common}", f"planted {common} {plant}"]


def trial(a, lib, k, d):
    out = os.path.join(d, f"t{k}.jsonl")
    suite = os.path.join(d, "suite.txt")
    with open(suite, "w", encoding="utf-8") as f:
        f.write(f"ranks={a.n} {a.op} --ranks-sweep 2:{a.n} -m {a.size}:{a.size}\n")
    cmd = (a.wrap.split() if a.wrap else []) + FE + [
        "run", "--suite", suite, "--bindir", a.build, "-K", str(a.rounds), "--interleave",
        "launches", "-o", out, "-q", "--seed", str(1000 + k)]
    for c in configs(lib, a):
        cmd += ["--config", c]
    if a.launcher:
        cmd += ["--launcher", a.launcher]
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if rc.returncode != 0:
        sys.exit(f"trial {k}: mpigauge run failed ({rc.returncode}): {rc.stderr[-400:]}")
    got = subprocess.run(FE + ["model", "--scaling", out, "base", "same", "planted", "--json"],
                         capture_output=True, text=True)
    if got.returncode != 0:
        sys.exit(f"trial {k}: model --scaling failed: {got.stderr[-400:]}")
    return [json.loads(x) for x in got.stdout.splitlines()]


def judge(recs, above):
    """(found, clean, planted's own, base/same own steps) of one trial."""
    edge = (above, above + 1)
    own = {r["set"]: [(s["from"], s["to"]) for s in r["steps"]]
           for r in recs if r["type"] == "scaling"}
    ch = {r["new"]: [(c["what"], c["from"], c["to"]) for c in r["changes"]]
          for r in recs if r["type"] == "scaling_change"}
    found = ch.get("planted") == [("added",) + edge]
    clean = ch.get("same") == []
    return found, clean, edge in own.get("planted", []), own.get("base", []) + own.get("same", [])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("build", help="a build tree (with bench/libmgslow.so)")
    p.add_argument("--trials", type=int, default=20)
    p.add_argument("--rounds", type=int, default=8, help="launches per configuration")
    p.add_argument("-n", type=int, default=6, help="ranks: the sweep is 2:N (default 6)")
    p.add_argument("--above", type=int, default=4, help="plant the step above N ranks")
    p.add_argument("--delay", type=float, default=50.0, help="the step, us (default 50)")
    p.add_argument("--op", default="bcast")
    p.add_argument("--size", default="8")
    p.add_argument("--launcher", help="as for mpigauge run (e.g. srun)")
    p.add_argument("--wrap", help="a command each trial's run goes under, e.g. an allocation: "
                   "'salloc -N 2 -n 4 --ntasks-per-node=2' (the emulated cluster)")
    a = p.parse_args()
    a.build = os.path.abspath(a.build)
    lib = os.path.join(a.build, "bench", "libmgslow.so")
    if not os.path.exists(lib):
        sys.exit(f"{lib}: build the tree first (make)")
    if not 2 < a.above + 1 <= a.n:
        sys.exit("--above: give a count from 2 to N - 1")
    tally = [0, 0, 0, 0]
    t0 = time.time()
    print(f"{a.op} {a.size} B, --ranks-sweep 2:{a.n}, {a.rounds} launches a configuration, "
          f"step of {a.delay:g} us planted above {a.above} ranks")
    with tempfile.TemporaryDirectory() as d:
        for k in range(1, a.trials + 1):
            recs = trial(a, lib, k, d)
            found, clean, own, others = judge(recs, a.above)
            said = {r["new"]: r["changes"] for r in recs if r["type"] == "scaling_change"}
            tally = [t + v for t, v in zip(tally, (found, clean, own, bool(others)))]
            planted = [(c['what'], c['from'], c['to'], round(c['ratio'], 2))
                       for c in said['planted']]
            print(f"trial {k:2d}: planted {'found' if found else 'MISSED'} {planted}"
                  f"; same {'clean' if clean else 'FALSE'} "
                  f"{[(c['what'], c['from'], c['to']) for c in said['same']]}; planted's own "
                  f"{'names it' if own else 'does not'}; base/same own steps {others} "
                  f"({time.time() - t0:.0f} s)", flush=True)
    n = a.trials
    print(f"found the planted step {tally[0]} of {n}; same against base named nothing "
          f"{tally[1]} of {n}; planted's own sweep named it {tally[2]} of {n}; base's or same's "
          f"own sweep named a step in {tally[3]} of {n}; {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
