#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Configure and build mpigauge out of tree for one MPI library.
#   scripts/build.sh openmpi|mpich|openmpi-asan|mpich-asan   -> _build/<flavour>/
# *-asan: AddressSanitizer and UndefinedBehaviorSanitizer (-O1). MG_WERROR=1
# makes every compiler warning an error (CI's builds). Runs autogen.sh when
# ./configure is missing; reconfigures only when needed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-openmpi}
cflags="-g -O2"
ldflags=""
case "$flavour" in
    openmpi) mpicc=mpicc.openmpi ;;
    mpich) mpicc=mpicc.mpich ;;
    openmpi-asan|mpich-asan)
        mpicc=mpicc.${flavour%-asan}
        cflags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow"
        ldflags="-fsanitize=address,undefined,float-cast-overflow" ;;
    *) echo "build.sh: unknown flavour '$flavour' (openmpi, mpich, openmpi-asan, mpich-asan)" >&2
       exit 2 ;;
esac
[ -x "$root/configure" ] || "$root/autogen.sh"
. "$root/scripts/python-env.sh"
dir="$root/_build/$flavour"
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$root/configure" -nt Makefile ]; then
    "$root/configure" MPICC="$mpicc" CFLAGS="$cflags" LDFLAGS="$ldflags" \
        --prefix="$dir/install" >configure.out 2>&1 ||
        { cat configure.out; exit 1; }
    tail -n 8 configure.out
fi
# -Werror at make time only: configure's own test programs may warn.
werror=""
[ "${MG_WERROR:-0}" = 1 ] && werror=" -Werror"
make -j"$(nproc)" CFLAGS="$cflags$werror" >make.out 2>&1 || { cat make.out; exit 1; }
echo "build.sh: built $dir ($mpicc)"
