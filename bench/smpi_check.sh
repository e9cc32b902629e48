#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The SMPI export proven (doc/models.md): latency (0 B to 4 MiB) and bw (1 B to
# 4 MiB) measured for Debian's Open MPI and MPICH, interleaved launch by launch;
# `mpigauge model FILE LABEL --smpi DIR` per library; bench/smpi/smpi_p2p.c (the
# same two patterns in plain MPI) compiled with smpicc and run by smpirun on each
# export; the simulated figure against the measured median at every size.
# Installs libsimgrid-dev (SimGrid 3.32) from Debian when missing. Exit 1 when a
# size is off by more than MG_SMPI_LIMIT percent (default 10).
#   bench/smpi_check.sh [OUT]      (default bench/_build/smpi; about 3 minutes)
# Environment: MG_SMPI_ROUNDS (default 8), MG_SMPI_RESULTS=FILE (an earlier
# measurement with configurations ompi and mpich: no new launches).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/bench/_build/smpi}
rounds=${MG_SMPI_ROUNDS:-8}
limit=${MG_SMPI_LIMIT:-10}
py=python3
[ -x "$root/_venv/bin/python3" ] && py=$root/_venv/bin/python3
if ! command -v smpirun >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsimgrid-dev
fi
mkdir -p "$out"
results=${MG_SMPI_RESULTS:-$out/p2p.jsonl}
if [ -z "${MG_SMPI_RESULTS:-}" ]; then
    "$root/scripts/build.sh" openmpi >/dev/null
    "$root/scripts/build.sh" mpich >/dev/null
    printf 'ranks=2 latency -m 0:4M --time-budget 0.1\nranks=2 bw -m 1:4M --time-budget 0.1\n' \
        >"$out/suite.txt"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        "$py" "$root/frontend/mpigauge.py" run --suite "$out/suite.txt" --repeat "$rounds" \
        --config "ompi bindir=$root/_build/openmpi" --config "mpich bindir=$root/_build/mpich" \
        -o "$results" --force --quiet
fi
smpicc -O2 -o "$out/smpi_p2p" "$root/bench/smpi/smpi_p2p.c"
status=0
for lib in ompi mpich; do
    rm -rf "$out/export-$lib"
    "$py" "$root/frontend/mpigauge.py" model "$results" "$lib" --smpi "$out/export-$lib"
    sizes=$("$py" -c 'import json, sys
print(",".join(str(s["size_bytes"]) for s in json.load(open(sys.argv[1]))["sizes"]))' \
        "$out/export-$lib/smpi.json")
    for bench in latency bw; do
        # SimGrid's log lines go to stderr; the program's rows to stdout
        timeout 600 smpirun -np 2 -platform "$out/export-$lib/platform.xml" \
            -hostfile "$out/export-$lib/hostfile" "$out/smpi_p2p" "$bench" "$sizes" 20 \
            2>"$out/smpirun-$lib-$bench.log"
    done >"$out/simulated-$lib.txt"
    "$py" "$root/bench/smpi_table.py" "$out/export-$lib/smpi.json" "$out/simulated-$lib.txt" \
        "$lib" "$limit" || status=1
done
exit $status
