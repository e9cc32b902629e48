#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# mpigauge's Spack package (contrib/spack/) proved with real Spack, offline
# (doc/packaging.md): the release tarball (make dist) in a local mirror, its
# checksum as the package's version line (what `spack checksum` adds at a
# release), Debian's Open MPI and MPICH, hwloc, Python and matplotlib as
# externals, then `spack install mpigauge ^openmpi` and `^mpich` and
# `spack test run` of both. TAP output; exit 1 when a step fails.
#   tests/spack/spack_install.sh SPACK_SRC [WORK]
#     SPACK_SRC  a Spack source tree (a release unpacked or a git checkout)
#     WORK       where everything goes (default: a new temporary folder)
# Spack's concretizer needs clingo: installed, pinned, from PyPI into a
# virtual environment in WORK. Debian packages it needs (python3-matplotlib)
# are installed with apt-get when missing. make check-spack runs it with
# $(MG_SPACK_SRC).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 SPACK_SRC [WORK]" >&2; exit 2; }
src=$(cd "$1" && pwd) || exit 2
[ -x "$src/bin/spack" ] || { echo "$0: $src: no bin/spack (not a Spack tree)" >&2; exit 2; }
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/mg-spack.XXXXXX")}
mkdir -p "$work" && work=$(cd "$work" && pwd)
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for f in "$@"; do [ -f "$f" ] && tail -n 25 "$f" | sed 's/^/#   /'; done; }
step() { # log description command...: ok when the command exits 0
    log=$1 what=$2
    shift 2
    if "$@" >"$log" 2>&1; then ok "$what"; else notok "$what (exit $?)" "$log"; return 1; fi
}
echo "1..5"

# Spack (a copy: its site scope is this test's), its concretizer, and no
# configuration of ~/.spack or /etc/spack
if [ ! -x "$work/spack/bin/spack" ]; then
    rm -rf "$work/spack" && cp -R "$src" "$work/spack" || exit 1
fi
SPACK_USER_CONFIG_PATH=$work/user SPACK_USER_CACHE_PATH=$work/cache SPACK_DISABLE_LOCAL_CONFIG=1
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export SPACK_USER_CONFIG_PATH SPACK_USER_CACHE_PATH SPACK_DISABLE_LOCAL_CONFIG \
    OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
[ -x "$work/venv/bin/python3" ] || python3 -m venv "$work/venv" || exit 1
"$work/venv/bin/python3" -c 'import clingo' 2>/dev/null ||
    "$work/venv/bin/pip" install -q "clingo==5.7.1" || exit 1
if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-matplotlib >/dev/null
fi
spack() { "$work/venv/bin/python3" "$work/spack/bin/spack" "$@"; }

# the release tarball, in a mirror, and its checksum as the version line
build=${MG_BUILDDIR:-$top/_build/openmpi}
rm -f "$build"/mpigauge-*.tar.gz
make -C "$build" dist >"$work/dist.log" 2>&1 || { notok "make dist" "$work/dist.log"; exit 1; }
tarball=$(ls "$build"/mpigauge-*.tar.gz | head -n1)
version=$(basename "$tarball" .tar.gz | sed 's/^mpigauge-//')
sha=$(sha256sum "$tarball" | cut -d' ' -f1)
rm -rf "$work/mirror" "$work/repo" && mkdir -p "$work/mirror/mpigauge" &&
    cp "$tarball" "$work/mirror/mpigauge/" && cp -R "$top/contrib/spack" "$work/repo" || exit 1
sed -i "s|^    # versions: one line per release tarball.*|    version(\"$version\", sha256=\"$sha\")\n&|" \
    "$work/repo/packages/mpigauge/package.py"

# externals: Debian's MPIs each in a prefix of its own (Debian installs both
# in /usr, with suffixed wrappers), hwloc, Python with matplotlib, tools
# (bin/ the wrappers, include/ and lib/ where the wrappers take them from)
for mpi in openmpi mpich; do
    mkdir -p "$work/ext/$mpi/bin"
    for w in mpicc mpiexec mpirun; do
        [ -e "/usr/bin/$w.$mpi" ] && ln -sf "/usr/bin/$w.$mpi" "$work/ext/$mpi/bin/$w"
    done
done
ln -sfn /usr/lib/x86_64-linux-gnu/openmpi/include "$work/ext/openmpi/include"
ln -sfn /usr/lib/x86_64-linux-gnu/openmpi/lib "$work/ext/openmpi/lib"
ln -sfn /usr/include/x86_64-linux-gnu/mpich "$work/ext/mpich/include"
mkdir -p "$work/ext/mpich/lib" && ln -sf /usr/lib/x86_64-linux-gnu/libmpich.so "$work/ext/mpich/lib/"
for h in /usr/bin/hydra_*; do ln -sf "$h" "$work/ext/mpich/bin/"; done # mpiexec starts them from its folder
mpl=$(/usr/bin/python3 -c 'import matplotlib; print(matplotlib.__version__)')
pyv=$(/usr/bin/python3 -c 'import platform; print(platform.python_version())')
hwv=$(pkg-config --modversion hwloc)
# the site scope of the work copy (SPACK_DISABLE_LOCAL_CONFIG leaves out the
# user's and the system's)
cat >"$work/spack/etc/spack/packages.yaml" <<YAML
packages:
  all:
    providers:
      mpi: [openmpi, mpich]
  openmpi: {buildable: false, externals: [{spec: openmpi@4.1.4, prefix: $work/ext/openmpi}]}
  mpich: {buildable: false, externals: [{spec: mpich@4.0.2, prefix: $work/ext/mpich}]}
  hwloc: {buildable: false, externals: [{spec: hwloc@$hwv, prefix: /usr}]}
  python: {buildable: false, externals: [{spec: python@$pyv, prefix: /usr}]}
  py-matplotlib: {buildable: false, externals: [{spec: py-matplotlib@$mpl, prefix: /usr}]}
  pkgconf: {buildable: false, externals: [{spec: pkgconf@1.8.1, prefix: /usr}]}
  gmake: {buildable: false, externals: [{spec: gmake@4.3, prefix: /usr}]}
YAML
step "$work/setup.log" "Spack $(spack --version 2>/dev/null) set up offline: clingo from PyPI, compilers, the mirror with $(basename "$tarball"), the package repository" \
    sh -c "spack() { \"$work/venv/bin/python3\" \"$work/spack/bin/spack\" \"\$@\"; }
        spack bootstrap disable && spack compiler find &&
        { spack mirror list | grep -q '^local ' || spack mirror add --scope site local file://$work/mirror; } &&
        { spack repo list | grep -q '^mpigauge ' || spack repo add --scope site $work/repo; }"

for mpi in openmpi mpich; do
    spack test remove -y "mg-$mpi" >/dev/null 2>&1
    if step "$work/install-$mpi.log" "spack install mpigauge ^$mpi (Debian's $mpi as an external, from the mirror's tarball, checksum verified)" \
        spack install --no-cache mpigauge ^$mpi; then
        step "$work/test-$mpi.log" "spack test run mpigauge ^$mpi: --version, mpigauge_latency -c on 2 ranks, osu_latency's OSU title" \
            spack test run --alias "mg-$mpi" "mpigauge ^$mpi"
    else
        notok "spack test run mpigauge ^$mpi (not installed)"
    fi
done
echo "# work folder: $work"
[ $failed -eq 0 ]
