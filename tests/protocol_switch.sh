#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The protocol switch detected by mpigauge_protocol moves when the library's
# limit is changed through the environment (TAP). The evidence is a latency
# step or the size where send or receive progress is lost; the expected size
# must be among them. Open MPI's shared-memory
# eager limit is btl_vader_eager_limit (default 4096: the step lies between
# 2 and 4 KiB; 1024 moves it below 1 KiB). MPICH 4.0.2 ch4:ucx switches at
# UCX's rendezvous threshold (auto: the step lies between 8 and 16 KiB here;
# UCX_RNDV_THRESH=4096 moves it to 2..4 KiB). Environment as for
# mpi_cases.sh (MPIEXEC, MPIEXEC_FLAGS, MG_MPI_FLAVOR, MG_BINDIR, PYTHON).
set -u
. "$(dirname "$0")/mpi_env.sh"
prog=$(mg_program protocol)
# by the library and its release (configure's MG_MPI_LIBRARY, "IMPL VERSION")
: "${MG_MPI_LIBRARY:=$MG_MPI_FLAVOR}"
case "$MG_MPI_LIBRARY" in
    "openmpi 4."*|openmpi) cases="- 4096
OMPI_MCA_btl_vader_eager_limit=1024 1024" ;;
    "openmpi 5."*) cases="- 4096
OMPI_MCA_btl_sm_eager_limit=1024 1024" ;;
    "mpich 4."*|mpich) cases="- 16384
UCX_RNDV_THRESH=4096 4096" ;;
    *) echo "1..0 # SKIP no known limit variable for $MG_MPI_LIBRARY (its shared-memory path is not UCX's; doc/releases.md)"; exit 0 ;;
esac
echo "1..2"
n=0
# One measurement: the sizes where some evidence of a switch shows.
evidence() { # var ("-" for none)
    out=$(mktemp)
    if [ "$1" = - ]; then set -- env; else set -- env "$1"; fi
    # shellcheck disable=SC2086
    timeout -k 10 300 "$@" "$MPIEXEC" $MPIEXEC_FLAGS -n 2 "$prog" -m 512:64K \
        --time-budget 0.2 --format json >"$out" 2>/dev/null </dev/null
    "$PYTHON" -c 'import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
s = [r for r in recs if r.get("type") == "summary"]
ev = []
if s:
    ev += [int(x["above_bytes"]) for x in s[0]["latency_steps"]]
    ev += [int(s[0][k]["above_bytes"]) for k in ("send_progress_lost", "recv_progress_lost") if s[0][k]]
print(",".join(str(x) for x in ev) or "none")' "$out" 2>&1
    rm -f "$out"
}
printf '%s\n' "$cases" | while read -r var want; do
    n=$((n + 1))
    # A busy machine, or a slow state of it lasting seconds, can blur one
    # measurement (a regime change inside the sweep makes a false step and
    # inflates the extrapolation the real one is judged against): up to
    # five, 5 s apart so that they land in different states, decide.
    for try in 1 2 3 4 5; do
        got=$(evidence "$var")
        case ",$got," in *",$want,"*) break ;; esac
        [ "$try" = 5 ] || sleep 5
    done
    case ",$got," in
        *",$want,"*) echo "ok $n - $MG_MPI_FLAVOR ${var}: switch evidence at $got bytes (expected $want, try $try)" ;;
        *) echo "not ok $n - $MG_MPI_FLAVOR ${var}: switch evidence at $got bytes, expected $want (5 tries)" ;;
    esac
done
