#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The rank-count sweep of every blocking collective in one launch each
# (doc/collectives.md): Open MPI at NP ranks (oversubscribed on a small
# machine), --ranks-sweep 2:NP, validated; then `mpigauge plot --against
# ranks`, one line per collective. Prints each launch's wall time and exit
# code, and where the results and the plot are.
#
# Usage: bench/ranks_sweep.sh [-n NP] [-m SIZES] [-o DIR]
#   -n NP     ranks (default 16)
#   -m SIZES  message sizes (default 8,4K)
#   -o DIR    where sweep.jsonl and sweep-SIZE.png go (default a new temporary folder)
set -eu
np=16
sizes=8,4K
out=
while getopts n:m:o: opt; do
    case $opt in
    n) np=$OPTARG ;;
    m) sizes=$OPTARG ;;
    o) out=$OPTARG ;;
    *) echo "usage: $0 [-n NP] [-m SIZES] [-o DIR]" >&2; exit 2 ;;
    esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
bin=$root/_build/openmpi/collective
[ -x "$bin/mpigauge_coll" ] || { echo "$0: build Open MPI first (scripts/build.sh openmpi)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
: >"$out/sweep.jsonl"
fails=0
# the blocking collectives, as the program lists them (no non-blocking "i...",
# persistent "..._init" or neighbourhood form)
ops=$("$bin/mpigauge_coll" --list-names | grep -v -e '^i' -e '_init$' -e '^neighbor_') || exit 2
for op in $ops; do
    m="-m $sizes"
    [ "$op" = barrier ] && m=
    t0=$(date +%s.%N)
    rc=0
    # shellcheck disable=SC2086
    timeout 900 mpirun.openmpi --oversubscribe -n "$np" "$bin/mpigauge_$op" $m -i 20 -x 2 -c \
        --ranks-sweep "2:$np" --format json >>"$out/sweep.jsonl" 2>"$out/$op.err" || rc=$?
    t1=$(date +%s.%N)
    printf '%-22s exit %d  %6.1f s\n' "$op" "$rc" "$(awk "BEGIN { print $t1 - $t0 }")"
    [ "$rc" -eq 0 ] || fails=$((fails + 1))
done
. "$root/scripts/python-env.sh" 2>/dev/null || true
for s in $(echo "$sizes" | tr , ' '); do
    python3 "$root/frontend/mpigauge.py" plot "$out/sweep.jsonl" --against ranks --size "$s" \
        -o "$out/sweep-$s.png" --title "every blocking collective, 2 to $np ranks (Open MPI, oversubscribed)"
done
echo "results: $out/sweep.jsonl; plots: $out/sweep-*.png; failed launches: $fails"
[ "$fails" -eq 0 ]
