#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# --samples FILE with the build's MPI (TAP): every timed sample of a run is
# kept (the sample counts of the run's results), with --per-rank every
# rank's own samples (rank 0's are the samples of a ping-pong; a collective's
# sample is the slowest rank's call), a path that cannot be
# written is refused before measuring (exit 2, nothing left), and a
# disturbance injected into the run (both ranks stopped for 12 ms every 50
# ms) is in the samples (its detection rate is bench/samples_period.sh's).
# Environment as for mpi_cases.sh.
set -u
. "$(dirname "$0")/mpi_env.sh"
prog=$(mg_program latency)
[ -n "$prog" ] || { echo "1..0 # SKIP mpigauge_latency not built"; exit 0; }
fe="$PYTHON $MG_TESTDIR/../frontend/mpigauge.py"
work=$(mktemp -d)
trap 'kill $d1 2>/dev/null; rm -rf "$work"' EXIT
d1=
echo "1..5"

# 1: every sample of every row, in the documented records
# shellcheck disable=SC2086
timeout -k 10 120 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 "$prog" -m 8,1K -i 2000 -x 10 --format json \
    --samples "$work/s.jsonl" >"$work/r.jsonl" 2>"$work/err"
rc=$?
if [ $rc -eq 0 ] && "$PYTHON" - "$work/r.jsonl" "$work/s.jsonl" <<'PY'; then
import json, sys
res = [json.loads(l) for l in open(sys.argv[1]) if '"type":"result"' in l]
recs = [json.loads(l) for l in open(sys.argv[2])]
head, series = recs[0], recs[1:]
assert head["type"] == "samples" and head["benchmark"] == "latency", head
assert head["fields"] == ["start_s", "per_iteration_s", "iterations"], head
assert [s["size_bytes"] for s in series] == [r["size_bytes"] for r in res], series
for s, r in zip(series, res):
    n = len(s["start_s"])
    assert n == r["samples"] == len(s["per_iteration_s"]) == len(s["iterations"]), (n, r)
    assert sum(s["iterations"]) == r["iterations"], (sum(s["iterations"]), r["iterations"])
    assert s["start_s"] == sorted(s["start_s"]) and s["start_s"][0] >= 0, s["start_s"][:3]
PY
    echo "ok 1 - every timed sample kept: starts in order, counts and iterations as the results say"
else
    echo "not ok 1 - the samples file (exit $rc)"; sed 's/^/# /' "$work/err"
fi

# 2: a folder that does not exist: refused before measuring
# shellcheck disable=SC2086
timeout -k 10 60 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 "$prog" -m 8 -i 10 \
    --samples "$work/none/s.jsonl" >"$work/out2" 2>"$work/err2"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$work/out2" ] && [ ! -e "$work/none" ] &&
    grep -q "cannot write output file '$work/none/s.jsonl'" "$work/err2"; then
    echo "ok 2 - a samples path that cannot be written: exit 2 before measuring"
else
    echo "not ok 2 - unwritable samples path (exit $rc)"; sed 's/^/# /' "$work/err2"
fi

# 3: an injected disturbance (both ranks stopped, SIGSTOP, for 12 ms every
# 50 ms, tests/stall.py) reaches the samples file, asserted only as far as
# load beside the test cannot change it: the run completes, the stopper made
# its stops, and a stopped sample is in the file (a sample that spans a stop
# lasts at least its 12 ms, whatever else runs). Whether `report --samples`
# then finds the period is statistics on a real run: it is measured with
# its rate in bench/samples_period.sh (doc/output.md), and the detector is
# tested exactly on synthetic samples (tests/frontend/test_samples.py); the
# report's line is printed here, not judged.
cat >"$work/rank.sh" <<'SH'
echo $$ >>"$MG_PIDS"
exec "$@"
SH
MG_PIDS=$work/pids
export MG_PIDS
: >"$MG_PIDS"
"$PYTHON" "$MG_TESTDIR/stall.py" "$MG_PIDS" 2 0.050 0.012 >"$work/dist.out" 2>&1 &
d1=$!
# shellcheck disable=SC2086
timeout -k 10 120 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 sh "$work/rank.sh" "$prog" -m 8:8 \
    -i 1000000 -x 100 --max-samples 10000 --samples "$work/d.jsonl" >/dev/null 2>"$work/err3"
rc=$?
wait $d1 2>/dev/null
stops=$(cat "$work/dist.out")
longest=$("$PYTHON" - "$work/d.jsonl" <<'PY'
import json, sys
try:
    recs = [json.loads(l) for l in open(sys.argv[1])]
    s = recs[1]
    print(max(t * k for t, k in zip(s["per_iteration_s"], s["iterations"])))
except (OSError, ValueError, IndexError, KeyError):
    print(0)
PY
)
$fe report "$work/r.jsonl" --samples "$work/d.jsonl" --no-plot -o "$work/rep.html" 2>"$work/rep.err"
if [ $rc -eq 0 ] && "$PYTHON" -c "import sys; sys.exit(not (int('$stops'.split()[0]) >= 1 and $longest >= 0.0115))" 2>/dev/null; then
    echo "ok 3 - a 12 ms stall every 50 ms ($stops): the longest sample $longest s holds a stop"
else
    echo "not ok 3 - the injected stall (exit $rc, $stops, longest sample $longest s)"
    sed 's/^/# /' "$work/err3"
fi
sed 's/^/# report: /' "$work/rep.err"

# 4, 5: --per-rank: every rank's own samples, one array per rank, entry by
# entry the samples of the series (time_mode root: rank 0's own; call: the
# slowest rank's call)
per_rank() { # number, description, python check, program and options
    k=$1 what=$2 check=$3
    shift 3
    # shellcheck disable=SC2086
    timeout -k 10 120 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 "$@" --samples "$work/p$k.jsonl" \
        --per-rank >/dev/null 2>"$work/perr$k"
    rc=$?
    if [ $rc -eq 0 ] && "$PYTHON" - "$work/p$k.jsonl" "$check" <<'PY'; then
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]["fields"][-1] == "rank_per_iteration_s", recs[0]
assert len(recs) > 1
for s in recs[1:]:
    ranks, own = s["rank_per_iteration_s"], s["per_iteration_s"]
    assert len(ranks) == 2 and all(len(r) == len(own) for r in ranks), s
    if sys.argv[2] == "root":
        assert ranks[0] == own, (ranks[0][:3], own[:3])
    else:
        assert [max(c) for c in zip(*ranks)] == own, s
PY
        echo "ok $k - --samples with --per-rank: $what"
    else
        echo "not ok $k - --per-rank samples, $what (exit $rc)"; sed 's/^/# /' "$work/perr$k"
    fi
}
per_rank 4 "latency: rank 0's own samples are the series" root "$prog" -m 8,1K -i 400 -x 10
coll=$(mg_program coll)
if [ -n "$coll" ]; then
    per_rank 5 "allreduce: each sample is the slowest rank's call" call "$coll" allreduce -m 8,64 -i 60 -x 5
else
    echo "ok 5 # SKIP mpigauge_coll not built"
fi
