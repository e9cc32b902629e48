#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Reproducer of doc/releases.md's MPICH 5.0.2 finding, without mpigauge:
# bench/bare_pt2pt.c (the simplest MPI ping-pong) built with each MPICH-based
# library, 2 ranks on one node, 8-byte messages. For each library, launch
# by launch, alternating: the one-way latency, and under `strace -f -c` the
# sched_yield system calls per message received. MPICH 5.0.2 (PyPI) calls
# sched_yield about ten times per message while it waits in MPI_Recv; MPICH
# 4.0.2 and Intel MPI 2021.19.0 never do.
#   bench/mpich5_yield.sh [LAUNCHES]        (default 5 per library)
# Needs _mpi/ (scripts/setup-releases.sh), mpicc.mpich and strace.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
deb=$(mktemp -d)    # Debian's MPICH as a prefix: its compiler and launcher
trap 'rm -rf "$deb"' EXIT
mkdir "$deb/bin"
# wrappers, not links: Hydra finds its proxy beside the path it was started as
printf '#!/bin/sh\nexec /usr/bin/mpicc.mpich "$@"\n' >"$deb/bin/mpicc"
printf '#!/bin/sh\nexec /usr/bin/mpiexec.mpich "$@"\n' >"$deb/bin/mpiexec"
chmod +x "$deb/bin/mpicc" "$deb/bin/mpiexec"
sh "$top/bench/yield_by_release.sh" "${1:-5}" "mpich-4.0.2=$deb" "mpich-5.0.2=$top/_mpi/mpich-5.0.2" \
    "impi-2021.19.0=$top/_mpi/impi-2021.19.0"
