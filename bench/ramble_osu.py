#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Ramble's own OSU application (var/ramble/repos/builtin/applications/
osu-micro-benchmarks) run on OSU 7.4 and on mpigauge under OSU's names, in
two real Ramble workspaces, offline: every figure of merit Ramble extracts
from OSU's output, per experiment and context, must come out of mpigauge's
under the same name (doc/osu.md, "Ramble and benchpark").

  bench/ramble_osu.py RAMBLE_SRC OSU_PREFIX OSU_DIR [--mpirun CMD] [--work DIR]

  RAMBLE_SRC  a Ramble source tree (a release unpacked or a git checkout)
  OSU_PREFIX  OSU 7.4 installed (bench/build_osu.sh SRC DEST: DEST/openmpi)
  OSU_DIR     mpigauge's OSU folder (`mpigauge_latency --osu-dir`, BUILD/osu),
              built with the same MPI as OSU_PREFIX
  --mpirun    the launch, Ramble's mpi_command (default `mpirun -np {n_ranks}`)
  --benchpark SRC  benchpark's application (a subclass of Ramble's, SRC/repo)
              in place of Ramble's builtin one

Ramble needs tqdm and deprecation: they are installed, pinned, into a
virtual environment in the work folder (from PyPI). Prints one line per
experiment and exits 1 when a figure OSU gives is missing from mpigauge's."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import venv

PINS = ["tqdm==4.67.1", "deprecation==2.1.0"]

# (workload, experiment, OSU's arguments): every header kind Ramble tells
# apart (avg/single latency, bandwidth, message rate, non-blocking, their
# tail forms, osu_init and osu_hello)
EXPERIMENTS = [
    ("osu_latency", "lat", "-m 1:64 -i 200 -x 10"),
    ("osu_latency", "lat_tail", "-m 1:64 -i 200 -x 10 -z"),
    ("osu_bw", "bw", "-m 1:1024 -i 20 -x 2"),
    ("osu_bw", "bw_tail", "-m 1:1024 -i 20 -x 2 -z"),
    ("osu_bibw", "bibw", "-m 1:1024 -i 20 -x 2"),
    ("osu_mbw_mr", "mbw", "-m 1:1024 -i 20 -x 2"),
    ("osu_mbw_mr", "mbw_tail", "-m 1:1024 -i 20 -x 2 -z"),
    ("osu_multi_lat", "multi", "-m 1:64 -i 100 -x 10"),
    ("osu_allreduce", "allreduce", "-m 1:64 -i 100 -x 10"),
    ("osu_allreduce", "allreduce_tail", "-m 1:64 -i 100 -x 10 -z"),
    ("osu_bcast", "bcast", "-m 1:64 -i 100 -x 10"),
    ("osu_alltoall", "alltoall", "-m 1:64 -i 100 -x 10"),
    ("osu_barrier", "barrier", "-i 100 -x 10"),
    ("osu_barrier", "barrier_tail", "-i 100 -x 10 -z"),
    ("osu_iallreduce", "iallreduce", "-m 1:64 -i 100 -x 10"),
    ("osu_iallreduce", "iallreduce_tail", "-m 1:64 -i 100 -x 10 -z"),
    ("osu_ibarrier", "ibarrier", "-i 100 -x 10"),
    ("osu_put_latency", "put", "-m 1:64 -i 100 -x 10"),
    ("osu_get_bw", "get_bw", "-m 1:1024 -i 20 -x 2"),
    ("osu_acc_latency", "acc", "-m 1:64 -i 100 -x 10"),
    ("osu_init", "init", ""),
    ("osu_hello", "hello", ""),
]


def osu_path(prefix):
    root = os.path.join(prefix, "libexec", "osu-micro-benchmarks", "mpi")
    dirs = ["pt2pt/standard", "pt2pt", "pt2pt/persistent", "collective", "one-sided",
            "startup"]
    return ":".join(os.path.join(root, d) for d in dirs if os.path.isdir(os.path.join(root, d)))


def config(path, mpirun, repo=None):
    repos = ["  repos:", f"  - '{repo}'"] if repo else []
    lines = ["ramble:"] + repos + [
        "  variables:", f"    mpi_command: '{mpirun}'",
        "    batch_submit: '{execute_experiment}'", "    processes_per_node: '2'",
        "    n_ranks: '2'", "    n_nodes: '1'", "    n_threads: '1'",
        f"    osu-micro-benchmarks_path: '{path.split(':')[0]}'",
        "  env_vars:", "    set:", "      OMPI_ALLOW_RUN_AS_ROOT: '1'",
        "      OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1'", "    prepend:", "    - paths:",
        f"        PATH: '{path}'",
        "  applications:", "    osu-micro-benchmarks:", "      variants:",
        "        package_manager: None", "      workloads:"]
    for workload in dict.fromkeys(w for w, _, _ in EXPERIMENTS):
        lines += [f"        {workload}:", "          experiments:"]
        for w, name, args in EXPERIMENTS:
            if w == workload:
                lines += [f"            {name}:", "              variables:",
                          f"                additional_args: '{args}'"]
    lines += ["  software:", "    packages: {}", "    environments: {}"]
    return "\n".join(lines) + "\n"


def ramble(python, src, ws, *args):
    cmd = [python, os.path.join(src, "bin", "ramble")] + (["-w", ws] if ws else []) + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    if p.returncode != 0:
        sys.exit(f"ramble {' '.join(args)}: exit {p.returncode}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p.stdout


def workspace(python, src, where, path, mpirun, repo=None):
    """The figures of merit of each experiment: {experiment: {(context, fom)}}."""
    ramble(python, src, None, "workspace", "create", "-d", where)
    with open(os.path.join(where, "configs", "ramble.yaml"), "w", encoding="utf-8") as f:
        f.write(config(path, mpirun, repo))
    ramble(python, src, where, "workspace", "setup")
    ramble(python, src, where, "on")
    ramble(python, src, where, "workspace", "analyze", "-f", "json")
    with open(os.path.join(where, "results.latest.json"), encoding="utf-8") as f:
        results = json.load(f)
    out = {}
    for e in results.get("experiments", []):
        key = f"{e['workload_name']}.{e['experiment_name']}"
        foms = set()
        for c in e.get("CONTEXTS", []):
            for fom in c.get("foms", []):
                foms.add((c["name"], fom["name"]))
        out[key] = (e.get("RAMBLE_STATUS"), foms)
    return out


def ramble_python(work):
    """The Python of a virtual environment in work with Ramble's needs."""
    os.makedirs(work, exist_ok=True)
    env_dir = os.path.join(work, "venv")
    python = os.path.join(env_dir, "bin", "python3")
    if not os.path.exists(python):
        venv.create(env_dir, with_pip=True)
        subprocess.run([python, "-m", "pip", "install", "-q"] + PINS, check=True)
    return python


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ramble_src")
    ap.add_argument("osu_prefix")
    ap.add_argument("osu_dir")
    ap.add_argument("--mpirun", default="mpirun -np {n_ranks}")
    ap.add_argument("--work")
    ap.add_argument("--benchpark", metavar="SRC",
                    help="benchpark's osu-micro-benchmarks application (SRC/repo) in place of "
                         "Ramble's builtin one")
    a = ap.parse_args(argv)
    work = a.work or tempfile.mkdtemp(prefix="mg-ramble-")
    python = ramble_python(work)
    src = os.path.abspath(a.ramble_src)
    repo = os.path.join(os.path.abspath(a.benchpark), "repo") if a.benchpark else None
    osu = workspace(python, src, os.path.join(work, "ws-osu"), osu_path(a.osu_prefix), a.mpirun,
                    repo)
    ours = workspace(python, src, os.path.join(work, "ws-mpigauge"),
                     os.path.abspath(a.osu_dir), a.mpirun, repo)
    missing_any = False
    print(f"{'experiment':32} {'OSU 7.4':>8} {'mpigauge':>9}  missing from mpigauge")
    for key in sorted(osu):
        status, want = osu[key]
        got_status, got = ours.get(key, ("MISSING", set()))
        missing = sorted(want - got)
        missing_any |= bool(missing) or got_status != "SUCCESS"
        print(f"{key:32} {len(want):>8} {len(got):>9}  "
              f"{', '.join(f'{c}/{n}' for c, n in missing[:4]) or '-'}"
              f"{'' if got_status == 'SUCCESS' else ' (status ' + str(got_status) + ')'}")
    total = sum(len(w) for _, w in osu.values())
    found = sum(len(w & ours.get(k, (None, set()))[1]) for k, (_, w) in osu.items())
    print(f"figures of merit: OSU 7.4 {total}, found under the same names in mpigauge's: {found}"
          f" (work folder {work})")
    return 1 if missing_any else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
