#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The protocol switch detected by mpigauge_protocol moves when the library's
# limit is changed through the environment (TAP). The evidence is a latency
# step or the size where send or receive progress is lost. Each try measures
# the library's default and the lowered limit one after the other, in the
# same state of the machine: the lowered limit must be among the second's
# evidence and not among the first's. Open MPI's shared-memory eager limit is
# btl_vader_eager_limit (btl_sm_ in 5.x; default 4096; 1024 puts a step x2
# at 1 KiB). MPICH 4.0.2 ch4:ucx switches at UCX's rendezvous threshold
# (auto; UCX_RNDV_THRESH=4096 puts a step x1.6 at 4 KiB, seen from the
# rendezvous path's trend). Where the default switch shows as a step depends
# on the host (doc/overlap.md): on this machine since November 2026 the
# single copy above Open MPI's 4 KiB costs about what the eager copy does,
# so it is printed, not judged. Environment as for mpi_cases.sh (MPIEXEC,
# MPIEXEC_FLAGS, MG_MPI_FLAVOR, MG_BINDIR, PYTHON).
set -u
. "$(dirname "$0")/mpi_env.sh"
prog=$(mg_program protocol)
# by the library and its release (configure's MG_MPI_LIBRARY, "IMPL VERSION")
: "${MG_MPI_LIBRARY:=$MG_MPI_FLAVOR}"
case "$MG_MPI_LIBRARY" in
    "openmpi 4."*|openmpi) var=OMPI_MCA_btl_vader_eager_limit=1024 want=1024 ;;
    "openmpi 5."*) var=OMPI_MCA_btl_sm_eager_limit=1024 want=1024 ;;
    "mpich 4."*|mpich) var=UCX_RNDV_THRESH=4096 want=4096 ;;
    *) echo "1..0 # SKIP no known limit variable for $MG_MPI_LIBRARY (its shared-memory path is not UCX's; doc/releases.md)"; exit 0 ;;
esac
echo "1..2"
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
# A busy machine, or a slow state of it lasting seconds, can blur one
# measurement: up to five tries, 5 s apart so that they land in different
# states, decide.
for try in 1 2 3 4 5; do
    moved=$(evidence "$var")
    default=$(evidence -)
    case ",$moved," in *",$want,"*)
        case ",$default," in *",$want,"*) ;; *) break ;; esac ;;
    esac
    [ "$try" = 5 ] || sleep 5
done
case ",$moved," in
    *",$want,"*) echo "ok 1 - $MG_MPI_FLAVOR ${var}: switch evidence at $moved bytes (expected $want, try $try)" ;;
    *) echo "not ok 1 - $MG_MPI_FLAVOR ${var}: switch evidence at $moved bytes, expected $want (5 tries)" ;;
esac
case ",$default," in
    *",$want,"*) echo "not ok 2 - $MG_MPI_FLAVOR default: switch evidence at $default bytes, as with $var (5 tries)" ;;
    *) echo "ok 2 - $MG_MPI_FLAVOR default: switch evidence at $default bytes, none at $want (try $try)" ;;
esac
