#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How far `mpigauge series` can be trusted here (doc/releases.md, "Which
release changed it"): a planted series, the same release installed COPIES
times (copies of one installation in a catalogue of their own), walked
TRIALS times with one copy (a different one each trial) slowed by
PERCENT% through the self-test's slowing library (bench/libmgslow.so,
loaded into every copy), interleaved trial by trial with walks of the
same copies none slowed. A planted trial is right when every change the
report names is that copy (alone, or the step into or out of it) and it
names one; an identical trial when it names nothing. Prints per trial the outcome, launches and seconds, then
the two rates (the issue asks 19 of 20 each) and the median and range of
the seconds per walk.

With --partial the planted change is undone by the next release in part:
one copy (never the first or the last) slowed by PERCENT%, every copy
after it by PERCENT/2% (the later releases still slower than the ones
before the change). A planted trial is right when the report names it as
two steps, the step into that copy slower and the step out of it faster,
and nothing else (not "only that copy", which would say the change was
undone whole).

    bench/series_trust.py INSTALL BUILD [TRIALS] [COPIES] [PERCENT] [ROUNDS] [--partial]
    e.g. bench/series_trust.py _mpi/mpich-5.0.2 _build/mpich-5.0.2 20 6 10 8
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FE = [sys.executable, os.path.join(ROOT, "frontend", "mpigauge.py")]
SUITE = "ranks=2 latency -m 8:64 --time-budget 0.05\n"


def fe(args, env):
    return subprocess.run(FE + args, env=env, capture_output=True, text=True)


def walk(d, env, build, names, slow, percent, rounds, trial, partial=False, extra=()):
    """One series walk; (its report.json, seconds)."""
    out = os.path.join(d, f"walk-{trial:02d}-{slow if slow is not None else 'none'}")
    lib = os.path.join(build, "bench", "libmgslow.so")
    argv = ["series", "run"] + names + ["--bindir", build, "-o", out, "--suite",
                                        os.path.join(d, "suite.txt"), "--rounds", str(rounds),
                                        "--timeout", "60", "--seed", str(trial), "-q",
                                        "--env", f"all:LD_PRELOAD={lib}",
                                        "--env", "all:MG_SLOW_PERCENT=0"] + list(extra)
    if slow is not None:
        argv += ["--env", f"{names[slow]}:MG_SLOW_PERCENT={percent:g}"]
        if partial:     # undone in part: every later copy half as slow
            argv += [a for n in names[slow + 1:]
                     for a in ("--env", f"{n}:MG_SLOW_PERCENT={percent / 2:g}")]
    t0 = time.time()
    p = fe(argv, env)
    took = time.time() - t0
    if p.returncode != 0:
        print(p.stderr[-2000:], file=sys.stderr)
        return None, took
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f), took


def judge_partial(rep, names, slow):
    """True when the report names a change undone in part as two steps: the
    step into the slowed copy slower, the step out of it faster, nothing
    else."""
    if rep is None:
        return False
    me, cs = names[slow], rep["changes"]
    into = [c for c in cs if c["kind"] == "step" and c["to"] == me and c["direction"] == "slower"]
    out = [c for c in cs if c["kind"] == "step" and c["from"] == me and c["direction"] == "faster"]
    return bool(into) and bool(out) and len(into) + len(out) == len(cs)


def judge(rep, names, slow):
    """True when the report names what was planted and nothing else: every
    change it names is that copy alone (slower), the step into it (slower)
    or the step out of it (faster)."""
    if rep is None:
        return False
    cs = rep["changes"]
    if slow is None:
        return not cs
    me = names[slow]

    def about_me(c):
        if c["kind"] == "only":
            return c["release"] == me and c["direction"] == "slower"
        return c["kind"] == "step" and ((c["to"] == me and c["direction"] == "slower")
                                        or (c["from"] == me and c["direction"] == "faster"))
    return bool(cs) and all(about_me(c) for c in cs)


def same_share(rep):
    """The share of the series of the pairs a walk compared that were
    decided within the threshold, or None."""
    if rep is None:
        return None
    same = sum(p["not_beyond"] for p in rep["pairs"])
    total = sum(p["changed"] + p["not_beyond"] + p["undecided"] for p in rep["pairs"])
    return same / total if total else None


def main(argv):
    partial = "--partial" in argv
    argv = [a for a in argv if a != "--partial"]
    extra = []
    if "--max-rounds" in argv:
        i = argv.index("--max-rounds")
        extra = argv[i:i + 2]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    inst, build = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    trials, copies, percent, rounds = (int(argv[2]) if len(argv) > 2 else 20,
                                       int(argv[3]) if len(argv) > 3 else 6,
                                       float(argv[4]) if len(argv) > 4 else 10.0,
                                       int(argv[5]) if len(argv) > 5 else 8)
    rng = random.Random(1)
    with tempfile.TemporaryDirectory(prefix="mg-series-trust-") as d:
        env = dict(os.environ, MPIGAUGE_MPI_CACHE=os.path.join(d, "cache"),
                   OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        names = [f"copy{i}" for i in range(copies)]
        for n in names:
            shutil.copytree(inst, os.path.join(d, n), symlinks=True)
            p = fe(["mpi", "add", os.path.join(d, n), "--name", n], env)
            if p.returncode != 0:
                print(p.stderr, file=sys.stderr)
                return 1
        with open(os.path.join(d, "suite.txt"), "w") as f:
            f.write(SUITE)
        right = {"planted": 0, "identical": 0}
        secs, launches, shares = [], [], []
        for t in range(1, trials + 1):
            order = [rng.randrange(1, copies - 1) if partial else rng.randrange(copies), None]
            rng.shuffle(order)          # which kind of walk goes first: by chance
            for slow in order:
                rep, took = walk(d, env, build, names, slow, percent, rounds, t, partial, extra)
                ok = (judge_partial if partial and slow is not None else judge)(rep, names, slow)
                kind = "identical" if slow is None else "planted"
                right[kind] += ok
                secs.append(took)
                launches.append(rep["launches"] if rep else 0)
                said = "; ".join(f"{c['kind']} {c.get('release') or c['from'] + '->' + c['to']} "
                                 f"{c['direction']} {c['sizes']}" for c in (rep or {}).get(
                                     "changes", [])) or "nothing"
                share = same_share(rep)
                if slow is None and share is not None:
                    shares.append(share)
                print(f"trial {t:2d} {kind:9s} slowed {names[slow] if slow is not None else '-':6s}"
                      f" {'right' if ok else 'WRONG'}: {said} ({launches[-1]} launches, "
                      f"{took:.0f} s" + (f", {100 * share:.0f}% decided the same" if slow is None
                                         and share is not None else "") + ")", flush=True)
        secs.sort()
        if partial:
            print(f"planted ({percent:g}% on one of {copies} copies, {percent / 2:g}% on every "
                  f"later one): named as two steps in {right['planted']} of {trials}")
        else:
            print(f"planted ({percent:g}% on one of {copies} copies): attributed to that copy "
                  f"alone in {right['planted']} of {trials}")
        print(f"identical copies: no change named in {right['identical']} of {trials}")
        if shares:
            shares.sort()
            print(f"identical copies: series decided the same within the threshold: median "
                  f"{100 * shares[len(shares) // 2]:.0f}%, range {100 * shares[0]:.0f}-"
                  f"{100 * shares[-1]:.0f}%")
        print(f"seconds per walk: median {secs[len(secs) // 2]:.0f}, range {secs[0]:.0f}-"
              f"{secs[-1]:.0f}; launches per walk: {sorted(launches)[len(launches) // 2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
