#!/bin/sh
# Configure and build mpigauge out of tree for one MPI library.
#   scripts/build.sh openmpi|mpich   -> _build/<flavour>/
# Runs autogen.sh when ./configure is missing; reconfigures only when needed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-openmpi}
case "$flavour" in
    openmpi) mpicc=mpicc.openmpi ;;
    mpich) mpicc=mpicc.mpich ;;
    *) echo "build.sh: unknown MPI '$flavour' (openmpi or mpich)" >&2; exit 2 ;;
esac
[ -x "$root/configure" ] || "$root/autogen.sh"
dir="$root/_build/$flavour"
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$root/configure" -nt Makefile ]; then
    "$root/configure" MPICC="$mpicc" --prefix="$dir/install" >configure.out 2>&1 ||
        { cat configure.out; exit 1; }
    tail -n 8 configure.out
fi
make -j"$(nproc)" >make.out 2>&1 || { cat make.out; exit 1; }
echo "build.sh: built $dir ($mpicc)"
