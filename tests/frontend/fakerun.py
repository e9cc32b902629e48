# SPDX-License-Identifier: BSD-3-Clause
"""Fake programs and a fake launcher for the tests of `mpigauge run`
(test_runner.py, test_sequential.py): each program's behaviour is chosen
by its name (mpigauge_<behaviour>)."""
import json
import os
import subprocess
import sys
import tempfile
import time

import helpers as h

# A fake program: behaviour chosen by its name (mpigauge_<behaviour>).
FAKE = r'''#!PYTHON
import json, os, sys, time
name = os.path.basename(sys.argv[0])[len("mpigauge_"):]
n = int(os.environ.get("FAKE_NRANKS", "2"))
def run(nranks=n):
    return {"type": "run", "schema": 1, "benchmark": name, "mpi_library": "Fake MPI 1.0",
            "nranks": nranks, "nnodes": 1, "hosts": ["h"] * nranks, "bindings": ["0"] * nranks,
            "options": {"sizes_bytes": [8, 16], "benchmark": {}}, "command_line": sys.argv}
def res(size, v):
    return {"type": "result", "benchmark": name, "size_bytes": size, "unit": "us", "median": v,
            "ci95_low": v * 0.99, "ci95_high": v * 1.01, "p99": v * 1.1}
out = lambda r: print(json.dumps(r), flush=True)
def launch_number(prefix):
    """This configuration's launch count so far (a file per launch in FAKE_SEESAW_DIR)."""
    k = 0
    while True:
        try:
            os.close(os.open(os.path.join(os.environ["FAKE_SEESAW_DIR"],
                                          f"{prefix}{os.environ['FAKE_VALUE']}-{k}"),
                             os.O_CREAT | os.O_EXCL))
            return k
        except FileExistsError:
            k += 1
def saw(k):
    return 1.0 if (k + (os.environ["FAKE_VALUE"] == "1")) % 2 else 3.0
if sys.argv[1:] == ["--mpi-library"]:   # as the programs answer it, without a launch
    out({"type": "mpi_library", "benchmark": name, "library": "Fake MPI 1.0",
         "runs_alone": name == "startup"})
    sys.exit(0)
if name == "ok":
    out(run()); out(res(8, 1.0)); out(res(16, 2.0))
elif name == "envy":
    v = float(os.environ.get("FAKE_VALUE", "1"))
    r = run(); r["env"] = {"FAKE_VALUE": os.environ.get("FAKE_VALUE")}
    out(r); out(res(8, v)); out(res(16, 2 * v))
elif name == "seesaw":
    # never decided: the k-th launch of a configuration gives 1 or 3 by k and
    # FAKE_VALUE, so that the two configurations' pairs alternate x3 and x1/3
    v = saw(launch_number(""))
    out(run()); out(res(8, v)); out(res(16, 2 * v))
elif name == "halfsaw":
    # 8 bytes: FAKE_VALUE itself (decided); 16 bytes: as seesaw (never
    # decided); the sizes of the last -m when given
    k = launch_number("half")
    m = [sys.argv[i + 1] for i in range(1, len(sys.argv) - 1) if sys.argv[i] == "-m"]
    # a list A,B or one size as Z:Z (the driver's -m Z alone means up to Z)
    sizes = [int(x.split(":")[-1]) for x in m[-1].split(",")] if m else [8, 16]
    if m and ":" not in m[-1] and len(sizes) == 1:
        sys.exit("halfsaw: -m Z alone is up to Z, not the size Z")
    r = run(); r["options"]["sizes_bytes"] = sizes   # as a program records its -m
    out(r)
    for z in sizes:
        v = float(os.environ["FAKE_VALUE"]) if z == 8 else \
            saw(k)
        out(res(z, v))
elif name == "latency":
    # a Hockney curve, 0 B to 4 MiB, scaled by FAKE_VALUE (mpigauge model --measure)
    v = float(os.environ.get("FAKE_VALUE", "1"))
    sizes = [0] + [1 << k for k in range(23)]
    r = run(); r["options"]["sizes_bytes"] = sizes
    out(r)
    for z in sizes:
        out(res(z, v * (0.3 + z / 5000.0)))
elif name == "startup":
    r = run(); r["env"] = {"MG_LAUNCH_TIME": os.environ.get("MG_LAUNCH_TIME")}
    out(r); out(res(8, 1.0)); out(res(16, 2.0))
elif name == "fail":
    print("mpigauge_fail: error: MPI error on rank 1", file=sys.stderr); sys.exit(99)
elif name == "hang":
    out(run())
    if os.environ.get("FAKE_MARK"):   # the test's sign that the launch runs
        open(os.environ["FAKE_MARK"], "w").close()
    time.sleep(60)
elif name == "hangafter":
    out(run()); out(res(8, 1.0)); out(res(16, 2.0)); time.sleep(60)
elif name == "finalhang":
    # every record, the after sentinel last (--sentinel), then a hang that ignores
    # SIGTERM, as MPICH 4.0.2 with UCX in MPI_Finalize (openucx/ucx#8738)
    import signal
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    out(run()); out(res(8, 1.0)); out(res(16, 2.0))
    out({"type": "sentinel", "phase": "after", "probe_latency_us": 0.2})
    time.sleep(60)
elif name == "singletons":
    for _ in range(n):
        out(run(1)); out(res(8, 1.0)); out(res(16, 2.0))
elif name == "needs2":
    for _ in range(n):
        print("mpigauge_needs2: error: needs exactly 2 ranks, got 1 (see --help)", file=sys.stderr)
        out({"type": "error", "code": "ranks", "benchmark": "needs2", "exit_code": 2,
             "message": "needs exactly 2 ranks, got 1", "ranks_min": 2, "ranks_max": 2,
             "ranks_got": 1})
    sys.exit(2)
elif name == "skip":
    sys.exit(77)
elif name == "partial":
    # killed part way (Open MPI's mpirun exits 1 when a rank is killed)
    out(run()); out(res(8, 1.0)); sys.exit(1)
elif name == "meet":
    # a group's launches run at once: each waits for the others' marks
    spec = sys.argv[sys.argv.index("--turns") + 1]
    group, role, count = spec.rsplit(":", 2)
    d = os.environ["FAKE_MEET_DIR"]
    open(os.path.join(d, f"{group}.{role}"), "w").close()
    t0 = time.time()
    while len([f for f in os.listdir(d) if f.startswith(group + ".")]) < int(count):
        if time.time() - t0 > 20:
            sys.exit(99)
        time.sleep(0.01)
    out(run()); out(res(8, 1.0)); out(res(16, 2.0))
'''


def wait_for(path, limit=30.0):
    """Until PATH exists: a launch's own sign that it runs, in place of a sleep
    that a loaded machine can outlast."""
    deadline = time.time() + limit
    while not os.path.exists(path):
        if time.time() > deadline:
            raise AssertionError(f"{path} did not appear in {limit:.0f} s")
        time.sleep(0.02)


# A fake launcher: "fakerun -n N PROGRAM ARGS..." runs PROGRAM with FAKE_NRANKS=N.
LAUNCHER = r'''#!/bin/sh
[ "$1" = -n ] || { echo "fakerun: want -n N" >&2; exit 2; }
FAKE_NRANKS=$2; export FAKE_NRANKS; shift 2
exec "$@"
'''


class FakeRun:
    """A test case's folder of fake programs and launcher, and `run` over them."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.bin = os.path.join(self.d, "bin")
        os.mkdir(self.bin)
        for name in ("ok", "envy", "fail", "hang", "hangafter", "singletons", "needs2", "skip",
                     "meet", "startup", "finalhang", "partial", "seesaw", "halfsaw", "latency"):
            self._exe(os.path.join(self.bin, "mpigauge_" + name), FAKE.replace("PYTHON", sys.executable))
        self.launcher = os.path.join(self.d, "fakerun")
        self._exe(self.launcher, LAUNCHER)
        self.out = os.path.join(self.d, "r.jsonl")

    def tearDown(self):
        self.tmp.cleanup()

    def _exe(self, path, text):
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)

    def suite(self, text):
        p = os.path.join(self.d, "s.txt")
        with open(p, "w") as f:
            f.write(text)
        return p

    def cli(self, suite_text, *extra, timeout=60):
        cmd = [sys.executable, h.FRONTEND, "run", "--suite", self.suite(suite_text),
               "--bindir", self.bin, "--launcher", self.launcher, "--mpi", "openmpi",
               "-o", self.out] + list(extra)
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)

    def text(self):
        with open(self.out) as f:
            return f.read()

    def records(self):
        with open(self.out) as f:
            return [json.loads(l) for l in f]   # every line must be valid JSON
