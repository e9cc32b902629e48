#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install the Debian packages mpigauge needs to build and test, when any is
# missing (Debian 12). Needs root (or sudo). Safe to run again: does nothing
# when everything is there.
#   scripts/setup-deps.sh              Debian's packages, matplotlib, ReFrame
#   scripts/setup-deps.sh --releases   also the newer MPI releases from PyPI
#                                      (scripts/setup-releases.sh, into _mpi/)
set -eu
PKGS="gcc g++ make autoconf automake libtool pkg-config git python3 ca-certificates
      openmpi-bin libopenmpi-dev mpich libmpich-dev libhwloc-dev hwloc
      libgtest-dev googletest coreutils python3-venv
      python3-matplotlib slurm-wlm munge iproute2 util-linux clang libclang-rt-14-dev
      chromium help2man"
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
if [ -z "$missing" ]; then
    echo "setup-deps: all packages present"
else
    echo "setup-deps: installing:$missing"
    if [ -n "$SUDO" ] && ! command -v sudo >/dev/null 2>&1; then
        echo "setup-deps: need root or sudo to install:$missing" >&2; exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update
    # shellcheck disable=SC2086
    $SUDO apt-get install -y --no-install-recommends $missing
fi

# `mpigauge plot` needs matplotlib in the python3 found on PATH, which is not
# always Debian's /usr/bin/python3 (pyenv, conda): when it cannot import it,
# make the virtual environment _venv/ with the pinned versions of
# requirements-plot.txt (the other scripts put it first on PATH).
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/python-env.sh"
if ! python3 -c "import matplotlib" >/dev/null 2>&1; then
    echo "setup-deps: $(command -v python3) cannot import matplotlib; installing it into $root/_venv"
    rm -rf "$root/_venv"
    python3 -m venv "$root/_venv" &&
        "$root/_venv/bin/python3" -m pip install --quiet --disable-pip-version-check \
            -r "$root/scripts/requirements-plot.txt" &&
        "$root/_venv/bin/python3" -c "import matplotlib" ||
        { echo "setup-deps: could not install matplotlib into $root/_venv" >&2; exit 1; }
fi

# A tool in its own virtual environment _venv-NAME/ with the versions pinned
# in requirements-NAME.txt; made again when it is missing or reports another
# version. venv_tool NAME WHAT WANT HAVE: HAVE is what the installed tool
# reports (empty when there is none), WANT the pinned version.
venv_tool() {
    [ "$4" = "$3" ] && return 0
    echo "setup-deps: installing $2 $3 into $root/_venv-$1"
    rm -rf "$root/_venv-$1"
    /usr/bin/python3 -m venv "$root/_venv-$1" &&
        "$root/_venv-$1/bin/python3" -m pip install --quiet --disable-pip-version-check \
            -r "$root/scripts/requirements-$1.txt" ||
        { echo "setup-deps: could not install $2 $3 into $root/_venv-$1" >&2; exit 1; }
}

# ReFrame (the checks of contrib/reframe/ and their test, tests/reframe/),
# with its dependencies.
want=$(sed -n 's/^reframe-hpc==//p' "$root/scripts/requirements-reframe.txt")
venv_tool reframe ReFrame "$want" "$("$root/_venv-reframe/bin/reframe" --version 2>/dev/null || true)"
[ "$("$root/_venv-reframe/bin/reframe" --version)" = "$want" ] ||
    { echo "setup-deps: _venv-reframe does not run ReFrame $want" >&2; exit 1; }

# clang-format and autopep8 for the style check (tests/format.sh) and
# `make format`.
tools_version() {
    "$root/_venv-tools/bin/clang-format" --version 2>/dev/null |
        sed -n 's/^clang-format version \([0-9.]*\).*/clang-format \1/p'
    "$root/_venv-tools/bin/autopep8" --version 2>/dev/null |
        sed -n 's/^autopep8 \([0-9.]*\).*/autopep8 \1/p'
}
want=$(sed -n 's/^\(clang-format\|autopep8\)==\(.*\)/\1 \2/p' "$root/scripts/requirements-tools.txt")
venv_tool tools "clang-format and autopep8" "$want" "$(tools_version)"
[ "$(tools_version)" = "$want" ] ||
    { echo "setup-deps: _venv-tools does not run $want" >&2; exit 1; }

# The newer MPI releases, for the tests and the release study only.
if [ "${1:-}" = --releases ]; then
    "$root/scripts/setup-releases.sh"
fi
