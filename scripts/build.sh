#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Configure and build mpigauge out of tree for one MPI library -> _build/NAME/
#   scripts/build.sh openmpi|mpich          Debian's Open MPI 4.1.4 / MPICH 4.0.2
#   scripts/build.sh openmpi-asan|mpich-asan  the same with AddressSanitizer and
#                                           UndefinedBehaviorSanitizer (-O1)
#   scripts/build.sh RELEASE                a newer release of scripts/mpi-releases.txt
#                                           (openmpi-5.0.11, mpich-5.0.2,
#                                           impi-2021.19.0), installed into
#                                           _mpi/RELEASE by setup-releases.sh
#                                           when it is missing
#   scripts/build.sh abi                    the MPI-5 standard ABI (mpicc_abi of
#                                           mpich-5.0.2): one set of programs that
#                                           runs under every library implementing
#                                           it (MPICH 5.0.2, Intel MPI 2021.19.0)
# configure takes the test launcher from the installation of the compiler.
# MG_WERROR=1 makes every compiler warning an error (CI's builds). Runs
# autogen.sh when ./configure is missing; reconfigures only when needed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-openmpi}
cflags="-g -O2"
ldflags=""
release() { # NAME -> its installation, installed when missing
    [ -x "$root/_mpi/$1/bin/mpicc" ] || "$root/scripts/setup-releases.sh" "$1" >&2
    echo "$root/_mpi/$1"
}
case "$flavour" in
    openmpi) mpicc=mpicc.openmpi ;;
    mpich) mpicc=mpicc.mpich ;;
    openmpi-asan|mpich-asan)
        mpicc=mpicc.${flavour%-asan}
        cflags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow"
        ldflags="-fsanitize=address,undefined,float-cast-overflow" ;;
    abi) mpicc="$(release mpich-5.0.2)/bin/mpicc_abi" ;;
    impi-*)
        # Intel MPI's compiler wrapper finds its installation through I_MPI_ROOT
        dir=$(release "$flavour")
        mpicc="env I_MPI_ROOT=$dir $dir/bin/mpicc" ;;
    *)
        if sed -e 's/#.*//' "$root/scripts/mpi-releases.txt" | awk '{print $1}' | grep -qxF "$flavour"; then
            mpicc="$(release "$flavour")/bin/mpicc"
        else
            echo "build.sh: unknown build '$flavour' (openmpi, mpich, openmpi-asan, mpich-asan, abi," \
                 "or a release of scripts/mpi-releases.txt)" >&2
            exit 2
        fi ;;
esac
[ -x "$root/configure" ] || "$root/autogen.sh"
. "$root/scripts/python-env.sh"
dir="$root/_build/$flavour"
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$root/configure" -nt Makefile ]; then
    # C++ is the unit tests alone: at -O0 they compile in half the time
    # (5.0 s against 2.5 s a file; they are 38 files a build)
    "$root/configure" MPICC="$mpicc" CFLAGS="$cflags" LDFLAGS="$ldflags" CXXFLAGS="-g -O0" \
        --prefix="$dir/install" >configure.out 2>&1 ||
        { cat configure.out; exit 1; }
    tail -n 9 configure.out
fi
# -Werror at make time only: configure's own test programs may warn.
werror=""
[ "${MG_WERROR:-0}" = 1 ] && werror=" -Werror"
make -j"$(nproc)" CFLAGS="$cflags$werror" >make.out 2>&1 || { cat make.out; exit 1; }
echo "build.sh: built $dir ($mpicc)"
