#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# mpigauge's easyconfigs (contrib/easybuild/) with EasyBuild from PyPI
# (pinned, in a virtual environment), offline (doc/packaging.md): the
# system-toolchain one is built for real from the release tarball (make
# dist; `eb --inject-checksums` adds its checksum, as at a release), its
# sanity checks run, and its module is loaded with Lmod to run
# mpigauge_latency -c on 2 ranks; the foss one, whose toolchain modules no
# offline machine has, is parsed and its dependencies resolved as far as
# EasyBuild goes without them (--dry-run names what is missing). TAP output.
#   tests/easybuild/eb_install.sh [WORK]
# Needs Lmod (apt-get install lmod: installed when missing).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/mg-eb.XXXXXX")}
mkdir -p "$work" && work=$(cd "$work" && pwd)
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for f in "$@"; do [ -f "$f" ] && tail -n 25 "$f" | sed 's/^/#   /'; done; }
echo "1..4"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
lmod=/usr/share/lmod/lmod/libexec/lmod
if [ ! -x "$lmod" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lmod >/dev/null
fi
[ -x "$work/venv/bin/eb" ] || { python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q "easybuild==4.9.4"; } || exit 1
PATH=$work/venv/bin:$PATH EB_PYTHON=$work/venv/bin/python3
# everything of EasyBuild's in the work folder, Lmod as its modules tool
EASYBUILD_PREFIX=$work/eb EASYBUILD_MODULES_TOOL=Lmod EASYBUILD_SOURCEPATH=$work/sources
EASYBUILD_ROBOT_PATHS=$work/ec: LMOD_CMD=$lmod # (the trailing ':' keeps the easyconfigs of the PyPI package)
export PATH EB_PYTHON EASYBUILD_PREFIX EASYBUILD_MODULES_TOOL EASYBUILD_SOURCEPATH EASYBUILD_ROBOT_PATHS LMOD_CMD
# EasyBuild refuses root unless told (this machine's tests run as root)
[ "$(id -u)" = 0 ] && { EASYBUILD_ALLOW_USE_AS_ROOT_AND_ACCEPT_CONSEQUENCES=1; export EASYBUILD_ALLOW_USE_AS_ROOT_AND_ACCEPT_CONSEQUENCES; }
# Lmod's shell function, as a login shell has it
. /usr/share/lmod/lmod/init/sh

build=${MG_BUILDDIR:-$top/_build/openmpi}
rm -f "$build"/mpigauge-*.tar.gz
make -C "$build" dist >"$work/dist.log" 2>&1 || { notok "make dist" "$work/dist.log"; exit 1; }
tarball=$(ls "$build"/mpigauge-*.tar.gz | head -n1)
rm -rf "$work/sources" "$work/ec" && mkdir -p "$work/sources/m/mpigauge" "$work/ec" &&
    cp "$tarball" "$work/sources/m/mpigauge/" && cp "$top"/contrib/easybuild/*.eb "$work/ec/" || exit 1
sys=$work/ec/mpigauge-0.1.0-Debian-OpenMPI.eb

if eb "$sys" --inject-checksums=sha256 --force >"$work/inject.log" 2>&1 &&
    grep -q "^checksums = \['$(sha256sum "$tarball" | cut -d' ' -f1)'\]" "$sys"; then
    ok "eb --inject-checksums: the tarball's sha256 in the easyconfig"
else notok "eb --inject-checksums" "$work/inject.log"
fi
if eb "$sys" --rebuild >"$work/build.log" 2>&1; then
    ok "eb $(basename "$sys"): configure, make, install and the sanity checks (mpigauge --version, mpigauge_latency --help) pass"
else notok "eb $(basename "$sys")" "$work/build.log"
fi
module use "$work/eb/modules/all" 2>/dev/null
if module load mpigauge/0.1.0-Debian-OpenMPI >"$work/run.log" 2>&1 &&
    mpirun.openmpi -np 2 mpigauge_latency -c -m 8:64 --time-budget 0.05 --format json >>"$work/run.log" 2>&1 &&
    [ "$(grep -c '"validation":"passed"' "$work/run.log")" = 4 ]; then
    ok "module load mpigauge/0.1.0-Debian-OpenMPI: mpigauge_latency -c on 2 ranks, 4 rows validated"
else notok "module load and run" "$work/run.log"
fi
# the foss easyconfig: parsed; its toolchain and dependencies are modules
# this machine has none of, which --dry-run lists
g=$work/ec/mpigauge-0.1.0-foss-2023a.eb
module purge >/dev/null 2>&1
eb "$g" --dry-run --robot >"$work/foss.log" 2>&1
planned=$(grep -c '^ \* \[ \]' "$work/foss.log")
if grep -q '^ \* \[ \] .*mpigauge-0.1.0-foss-2023a.eb (module: mpigauge/0.1.0-foss-2023a)' "$work/foss.log" &&
    ! grep -q "ERROR" "$work/foss.log"; then
    ok "eb $(basename "$g") --dry-run --robot: every dependency resolved to an easyconfig of EasyBuild 4.9.4 ($planned modules to build, ending with mpigauge's)"
else notok "eb $(basename "$g") (parse, dry run)" "$work/foss.log" "$work/foss-show.log"
fi
echo "# work folder: $work"
[ $failed -eq 0 ]
