#!/bin/sh
# Install the Debian packages mpigauge needs to build and test, when any is
# missing (Debian 12). Needs root (or sudo). Safe to run again: does nothing
# when everything is there.
set -eu
PKGS="gcc g++ make autoconf automake libtool pkg-config git python3 ca-certificates
      openmpi-bin libopenmpi-dev mpich libmpich-dev libhwloc-dev hwloc
      libgtest-dev googletest coreutils"
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -z "$missing" ]; then
    echo "setup-deps: all packages present"
    exit 0
fi
echo "setup-deps: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup-deps: need root or sudo to install:$missing" >&2; exit 1; }
    SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
# shellcheck disable=SC2086
$SUDO apt-get install -y --no-install-recommends $missing
