#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The quick collective suite (frontend/suites/collectives.txt) at 64 ranks
# with Open MPI on this machine (oversubscribed: 2 cores), with tiny fixed
# iteration counts (-i 3 -x 1) and validation (-c), and the peak memory of
# every rank (GNU time's maximum resident set size around each rank).
#   bench/collectives_np64.sh [BUILD_DIR]   (default _build/openmpi)
# Environment: MG_NP (ranks, default 64), MG_ARGS (default "-i 3 -x 1 -c"),
# MG_TIMEOUT (seconds per launch, default 300). A launch that times out is
# retried once (Open MPI 4.1 sometimes hangs in MPI_Init at 64
# oversubscribed ranks; the "tries" column says when that happened).
# Prints one line per program: exit code, seconds, result rows, and the
# smallest, median and largest peak RSS over the ranks in MiB.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/_build/openmpi}
np=${MG_NP:-64}
args=${MG_ARGS:--i 3 -x 1 -c}
limit=${MG_TIMEOUT:-300}
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
work=$(mktemp -d "${TMPDIR:-/tmp}/mg-np64.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
# every rank under GNU time, writing its peak RSS (KiB) to its own file
cat >"$work/rank.sh" <<'EOS'
#!/bin/sh
out=$1; shift
exec /usr/bin/time -f "%M" -o "$out.${OMPI_COMM_WORLD_RANK:-x}" "$@"
EOS
chmod +x "$work/rank.sh"

printf '%-22s %4s %5s %7s %5s %9s %9s %9s\n' program exit tries seconds rows rss_min rss_med rss_max
grep -v '^[[:space:]]*\(#\|$\)' "$root/frontend/suites/collectives.txt" | while read -r name rest; do
    exe="$build/collective/mpigauge_$name"
    if [ ! -x "$exe" ]; then
        printf '%-22s skipped (not built with this MPI)\n' "$name"
        continue
    fi
    tries=0
    rc=124
    while [ "$rc" -eq 124 ] && [ "$tries" -lt 2 ]; do
        tries=$((tries + 1))
        rm -f "$work/$name.rss".*
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        timeout -k 10 "$limit" mpirun.openmpi --oversubscribe -n "$np" \
            "$work/rank.sh" "$work/$name.rss" "$exe" $rest $args --format csv \
            >"$work/$name.csv" 2>"$work/$name.err" </dev/null
        rc=$?
    done
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    rows=$(($(wc -l <"$work/$name.csv") - 1))
    cat "$work/$name.rss".* 2>/dev/null | grep -E '^[0-9]+$' | sort -n >"$work/$name.all"
    n=$(wc -l <"$work/$name.all")
    if [ "$n" -gt 0 ]; then
        lo=$(head -n1 "$work/$name.all"); hi=$(tail -n1 "$work/$name.all")
        med=$(sed -n "$(( (n + 1) / 2 ))p" "$work/$name.all")
    else
        lo=0; med=0; hi=0
    fi
    printf '%-22s %4d %5d %7.1f %5d %9.1f %9.1f %9.1f\n' "$name" "$rc" "$tries" "$secs" "$rows" \
        "$(echo "$lo / 1024" | bc -l)" "$(echo "$med / 1024" | bc -l)" "$(echo "$hi / 1024" | bc -l)"
    [ "$rc" -eq 0 ] || head -n 5 "$work/$name.err" | sed 's/^/    /'
done
