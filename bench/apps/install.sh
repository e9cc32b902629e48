#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The applications of the studies (doc/applications.md), from Debian, when
# missing: LAMMPS, hpcc and GROMACS (built against Debian's Open MPI 4.1.4) and
# NetPIPE and NWChem (against Debian's MPICH 4.0.2). As root or through sudo; never
# run by the main job or the test suite.
#   bench/apps/install.sh [PACKAGE...]
set -eu
pkgs=${*:-lammps hpcc gromacs netpipe-mpich2 nwchem-mpich}
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
