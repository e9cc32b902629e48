#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""mpigauge's own Ramble application (contrib/ramble/) in a real Ramble
workspace, offline (no package manager: the programs found on PATH): three
benchmarks that must succeed with their figures of merit (median, CI,
samples, validation per benchmark and size), and a launch that fails (a bad
option: exit 2), which Ramble must call FAILED.

  bench/ramble_mpigauge.py RAMBLE_SRC BUILD [--mpirun CMD] [--work DIR]

Ramble's own needs (tqdm, deprecation) are installed, pinned, into a virtual
environment in the work folder, as bench/ramble_osu.py does."""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ramble_osu import ramble, ramble_python  # noqa: E402

CASES = [("latency", "lat", "-m 8:64 --time-budget 0.05", "SUCCESS"),
         ("allreduce", "allreduce", "-m 8:64 --time-budget 0.05", "SUCCESS"),
         ("put_latency", "put", "-m 8:64 --time-budget 0.05", "SUCCESS"),
         ("latency", "bad_option", "-m 8:bogus", "FAILED")]


def config(build, repo, mpirun):
    path = ":".join(os.path.join(build, d) for d in ("pt2pt", "collective", "onesided", "overlap"))
    lines = ["ramble:", "  repos:", f"  - '{repo}'", "  variables:",
             f"    mpi_command: '{mpirun}'", "    batch_submit: '{execute_experiment}'",
             "    processes_per_node: '2'", "    n_ranks: '2'", "    n_nodes: '1'",
             "    n_threads: '1'", f"    mpigauge_path: '{build}'", "  env_vars:", "    set:",
             "      OMPI_ALLOW_RUN_AS_ROOT: '1'", "      OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1'",
             "    prepend:", "    - paths:", f"        PATH: '{path}'", "  applications:",
             "    mpigauge:", "      variants:", "        package_manager: None",
             "      workloads:"]
    for workload in dict.fromkeys(w for w, _, _, _ in CASES):
        lines += [f"        {workload}:", "          experiments:"]
        for w, name, args, _ in CASES:
            if w == workload:
                lines += [f"            {name}:", "              variables:",
                          f"                additional_args: '{args}'"]
    lines += ["  software:", "    packages: {}", "    environments: {}"]
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ramble_src")
    ap.add_argument("build")
    ap.add_argument("--mpirun", default="mpirun -np {n_ranks}")
    ap.add_argument("--work")
    a = ap.parse_args(argv)
    work = a.work or tempfile.mkdtemp(prefix="mg-ramble-app-")
    python = ramble_python(work)
    src, ws = os.path.abspath(a.ramble_src), os.path.join(work, "ws-app")
    repo = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "contrib", "ramble")
    ramble(python, src, None, "workspace", "create", "-d", ws)
    with open(os.path.join(ws, "configs", "ramble.yaml"), "w", encoding="utf-8") as f:
        f.write(config(os.path.abspath(a.build), repo, a.mpirun))
    for step in (("workspace", "setup"), ("on",), ("workspace", "analyze", "-f", "json")):
        ramble(python, src, ws, *step)
    with open(os.path.join(ws, "results.latest.json"), encoding="utf-8") as f:
        got = {e["experiment_name"]: e for e in json.load(f)["experiments"]}
    bad = 0
    for w, name, _, want in CASES:
        e = got.get(name, {})
        foms = [(c["name"], m["name"]) for c in e.get("CONTEXTS", []) for m in c["foms"]]
        sizes = sorted({c for c, _ in foms})
        fine = e.get("RAMBLE_STATUS") == want and (want == "FAILED" or len(sizes) == 4 and
                                                   len(foms) == 24)
        bad += not fine
        print(f"{'ok' if fine else 'NOT OK'}  {w}.{name}: {e.get('RAMBLE_STATUS')} "
              f"(expected {want}), {len(foms)} figures of merit in {len(sizes)} contexts")
    print(f"work folder: {work}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
