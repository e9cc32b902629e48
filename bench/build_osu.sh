#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build the OSU Micro-Benchmarks (7.4, for bench/osu_side_by_side.py) from a
# source tree the user has (they are not part of mpigauge and are not
# downloaded here) with each installed MPI: DEST/openmpi and DEST/mpich,
# laid out by OSU's `make install` (libexec/osu-micro-benchmarks/mpi/...).
#
# Usage: bench/build_osu.sh SRC DEST
#   SRC   an OSU source tree (a release tarball unpacked, or a git checkout)
#   DEST  where the two builds go (created)
# The sources are copied first and regenerated with `autoreconf -fi`, so a
# tree made by another libtool builds here.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 SRC DEST" >&2; exit 2; }
src=$1
dest=$2
[ -f "$src/configure.ac" ] || { echo "$0: $src: no configure.ac (not an OSU source tree)" >&2; exit 2; }
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
rm -rf "$dest/src"
cp -R "$src" "$dest/src"
(cd "$dest/src" && autoreconf -fi >/dev/null 2>&1)
for mpi in openmpi mpich; do
    command -v "mpicc.$mpi" >/dev/null || { echo "$0: mpicc.$mpi not found, skipping" >&2; continue; }
    rm -rf "$dest/build-$mpi"
    mkdir -p "$dest/build-$mpi"
    (cd "$dest/build-$mpi" &&
        "$dest/src/configure" CC="mpicc.$mpi" CXX="mpicxx.$mpi" --prefix="$dest/$mpi" >configure.log 2>&1 &&
        make -j"$(nproc)" >make.log 2>&1 && make install >install.log 2>&1) ||
        { echo "$0: the $mpi build failed: see $dest/build-$mpi/*.log" >&2; exit 1; }
    echo "$0: built $dest/$mpi"
done
