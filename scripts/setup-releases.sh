#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install the newer MPI releases listed in scripts/mpi-releases.txt (Open MPI
# 5.0.11, MPICH 5.0.2 with the MPI-5 ABI, Intel MPI 2021.19.0), each from
# PyPI with pinned versions into its own virtual environment _mpi/NAME, beside
# Debian's two libraries (which stay the default). For the tests and the
# release study only: the main job (scripts/run.sh) does not need them.
# Safe to run again: an installation whose pinned packages are all there is
# left alone; one that is not is made again.
#   scripts/setup-releases.sh            every release
#   scripts/setup-releases.sh NAME...    only these (e.g. mpich-5.0.2)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
list="$root/scripts/mpi-releases.txt"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
names=${*:-$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list" | awk '{print $1}')}
mkdir -p "$root/_mpi"
for name in $names; do
    line=$(sed -e 's/#.*//' "$list" | awk -v n="$name" '$1 == n')
    if [ -z "$line" ]; then
        echo "setup-releases: no release named '$name' in $list" >&2
        exit 2
    fi
    reqs=$(echo "$line" | awk '{print $2}' | tr ',' ' ')
    flags=$(echo "$line" | awk '{$1 = ""; $2 = ""; print}')
    dir="$root/_mpi/$name"
    want=$(for r in $reqs; do echo "$r"; done | sort)
    have=$("$dir/bin/python3" -m pip freeze --disable-pip-version-check 2>/dev/null | sort || true)
    missing=$(echo "$want" | while read -r r; do echo "$have" | grep -qxF "$r" || echo "$r"; done)
    if [ -z "$missing" ] && [ -x "$dir/bin/mpicc" ]; then
        echo "setup-releases: $name present ($dir)"
        continue
    fi
    echo "setup-releases: installing $name into $dir ($reqs)"
    rm -rf "$dir"
    # shellcheck disable=SC2086
    "$py" -m venv "$dir" &&
        "$dir/bin/python3" -m pip install --quiet --disable-pip-version-check $flags $reqs &&
        [ -x "$dir/bin/mpicc" ] ||
        { echo "setup-releases: could not install $name into $dir" >&2; rm -rf "$dir"; exit 1; }
done
