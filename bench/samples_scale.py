#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How `report --samples` and `plot --timeline` scale with the samples of a
long run (doc/output.md): a samples file of N samples (two series, a 12 ms
stall every 10000 samples) is written, then each command runs on it once
per round, the two interleaved; prints per command the median and range of
the wall time and of the peak resident memory over the rounds.

    bench/samples_scale.py [N] [ROUNDS]     (default 25000000 samples, 3 rounds)
"""
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FE = os.path.join(ROOT, "frontend", "mpigauge.py")


def write(path, n):
    random.seed(1)
    with open(path, "w") as f:
        f.write(json.dumps({"type": "samples", "benchmark": "latency", "nranks": 2}) + "\n")
        for size in (8, 1024):
            m = n // 2
            f.write('{"type":"sample_series","size_bytes":%d,"start_s":[' % size)
            f.write(",".join("%.9g" % (i * 5e-6) for i in range(m)))
            f.write('],"per_iteration_s":[')
            f.write(",".join("%.6g" % (0.012 if i % 10000 == 0 else 4e-7 * (1 + 0.1 * random.random()))
                             for i in range(m)))
            f.write('],"iterations":[' + ",".join("1" for _ in range(m)) + "]}\n")


def timed(argv):
    """(wall s, peak RSS MiB) of one command (the largest child's)."""
    t0 = time.time()
    pid = os.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable] + argv)
    _, status, ru = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(argv)}")
    return time.time() - t0, ru.ru_maxrss / 1024


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 25_000_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with tempfile.TemporaryDirectory() as d:
        s, res = os.path.join(d, "s.jsonl"), os.path.join(d, "r.jsonl")
        write(s, n)
        with open(res, "w") as f:
            f.write("")
        sys.path.insert(0, os.path.join(ROOT, "tests", "frontend"))
        import helpers as h
        h.write_jsonl(res, h.synthetic_set("L", {}, launches=1))
        cmds = {"report --samples": [FE, "report", res, "--samples", s, "-o",
                                     os.path.join(d, "r.html")],
                "plot --timeline": [FE, "plot", "--timeline", s, "-o", os.path.join(d, "t.png")]}
        got = {k: [] for k in cmds}
        for _ in range(rounds):
            for k, argv in cmds.items():
                got[k].append(timed(argv))
        size = os.path.getsize(s) / 2 ** 20
    print(f"{n} samples ({size:.0f} MiB), {rounds} rounds, interleaved")
    for k, v in got.items():
        ws, ms = sorted(x[0] for x in v), sorted(x[1] for x in v)
        print(f"{k:18s} wall {ws[len(ws) // 2]:6.1f} s ({ws[0]:.1f}-{ws[-1]:.1f}), "
              f"peak memory {ms[len(ms) // 2]:6.0f} MiB ({ms[0]:.0f}-{ms[-1]:.0f})")


if __name__ == "__main__":
    main()
