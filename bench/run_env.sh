# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the benches that drive `mpigauge run` over Debian's libraries
# (and the newer releases where built): root (the checkout), rounds (the
# script's first argument, default 5), fe (the front-end of _build/openmpi,
# or exit 2), work (a temporary folder removed on exit).
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
fe=$root/_build/openmpi/frontend/mpigauge
[ -x "$fe" ] || { echo "$0: build _build/openmpi first (scripts/build.sh openmpi)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
