#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# check-slurm-cluster: a two-node Slurm on the emulated cluster
# (tests/cluster/netns-cluster.sh; one slurmctld on the head, one slurmd in
# each node's namespaces: tests/cluster/slurm_cluster.sh), then with every
# build given: srun -N 2 (--mpi=pmix for Open MPI, --mpi=pmi2 for MPICH)
# places one rank per node, as the run record's hosts and the pair's
# same_node say; the job templates examples/slurm/*.sbatch run to completion
# with sbatch --wait (short suites and sweeps); and `mpigauge run` inside a
# two-node allocation runs the two builds interleaved, compared paired by
# round; a step planted in a ranks sweep over both nodes is found
# (model --scaling). Tears everything down (also on failure or interruption). TAP output;
# exit 0 when all pass, 1 on a failure, 77 when it cannot run here.
# Every run record names its allocation (job, step, nodes, partition).
#   tests/cluster/check_slurm_cluster.sh OPENMPI_BUILD [MPICH_BUILD]
# Environment: MG_SLURM_CLUSTER_KEEP=1 keeps the work folder.
set -u
{
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
H=$here/netns-cluster.sh
[ $# -gt 0 ] || set -- "$top/_build/openmpi" "$top/_build/mpich"
args="-m 1:1K -i 20"
skip() { echo "1..0 # SKIP $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "check-slurm-cluster needs root (namespaces, slurmd, munged)"
for c in ip nsenter unshare slurmctld slurmd munged srun sbatch salloc python3; do
    command -v $c >/dev/null 2>&1 || skip "$c missing (scripts/setup-deps.sh installs slurm-wlm, munge)"
done
unshare --net sh -c 'ip link add mgt0 type veth peer name mgt1' >/dev/null 2>&1 ||
    skip "no network namespaces or veth here"

work=$(mktemp -d "${TMPDIR:-/tmp}/mg-slurmcl.XXXXXX") || exit 99
chmod 755 "$work"
export MG_CLUSTER_OWNER=$$ MG_CLUSTER_ID=auto
# shellcheck source=tests/cluster/claim.sh
. "$here/claim.sh"
mg_claim_cluster mgslurm
[ -n "$MG_CLUSTER" ] || { echo "1..1"; echo "not ok 1 - no free cluster instance name"; exit 1; }
export MG_CLUSTER
cleanup() {
    bash "$here/slurm_cluster.sh" stop "$work/slurm" >/dev/null 2>&1
    "$H" down >"$work/down.log" 2>&1 || cat "$work/down.log" >&2
    if [ "${MG_SLURM_CLUSTER_KEEP:-0}" = 1 ]; then echo "# kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

TAP_DIR=$work TAP_ERR_LINES=25
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"
both=0
[ $# -ge 2 ] && both=1
echo "1..$((4 + 5 * $# + 4 * both))"

check "emulated two-node cluster $MG_CLUSTER up" "$H" up --rails 2 --rate none
check "two-node Slurm: slurmctld on the head, slurmd in nodeA and nodeB, srun -N 2 reaches both" \
    bash "$here/slurm_cluster.sh" start "$work/slurm"
SLURM_CONF=$work/slurm/slurm.conf
export SLURM_CONF
# right after the step of the check before, a node can still be "completing"
# (or not yet registered): wait up to 30 s for both to settle idle
check "sinfo: nodeA and nodeB idle in partition debug" sh -c \
    "for i in \$(seq 60); do [ \"\$(sinfo -h -N -o '%N %T' | sort | tr '\n' ' ')\" = 'nodeA idle nodeB idle ' ] && exit 0; sleep 0.5; done; sinfo -N; exit 1"

# results FILE LAUNCHES [LABELS]: every launch ok, 2 ranks on 2 nodes, one per node
two_nodes() {
    python3 - "$@" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
want = int(sys.argv[2])
runs = [r for r in recs if r["type"] == "run"]
launch = [r for r in recs if r["type"] == "launch"]
if launch:
    assert [l["status"] for l in launch] == ["ok"] * want, \
        [(l["status"], l.get("message")) for l in launch]
assert len(runs) == want, len(runs)
for r in runs:
    assert r["nnodes"] == 2 and sorted(r["hosts"]) == ["nodeA", "nodeB"], (r["nnodes"], r["hosts"])
    for p in r.get("pairs", []):
        assert p["same_node"] is False, p
    # the allocation, from rank 0's job environment
    a = r.get("allocation") or {}
    assert a.get("scheduler") == "slurm" and a.get("job_id") and a.get("partition") == "debug" \
        and a.get("num_nodes") == "2" and a.get("nodelist") in ("nodeA,nodeB", "node[A-B]"), a
res = [r for r in recs if r["type"] == "result"]
assert res and all(r.get("validation", "passed") == "passed" for r in res)
print(f"{len(runs)} launches on nodeA and nodeB")
PY
}
cd "$work" || exit 1
for b in "$@"; do
    bn=$(basename "$b")
    lat=$b/pt2pt/mpigauge_latency
    if ldd "$lat" 2>/dev/null | grep -q 'libmpich\.so'; then plugin=pmi2; else plugin=pmix; fi
    check "$bn: srun -N 2 -n 2 --mpi=$plugin latency: hosts nodeA and nodeB, same_node false, validated" \
        timeout 120 srun -N 2 -n 2 --ntasks-per-node=1 --mpi="$plugin" "$lat" $args -c \
            -o "$work/$bn-srun.jsonl"
    check "$bn: the run record of srun -N 2" two_nodes "$work/$bn-srun.jsonl" 1
    # the all-pairs screen of the two nodes through srun (doc/screen.md): two
    # units judge against a floor only; 1 MB/s and 100 ms are met
    check "$bn: mpigauge screen run --launcher 'srun -N 2 --ntasks-per-node=1': nodeA and nodeB, the floor met, exit 0" \
        sh -c "'$b/frontend/mpigauge' screen run -n 2 --launcher 'srun -N 2 --ntasks-per-node=1' \
                 --bindir '$b' --timeout 120 --exit-grace 10 -o '$work/$bn-screen.jsonl' -- --reps 8 --bw-bytes 64K \
                 --lat-iters 10 --expect-bw 1 --expect-lat 100000 &&
               python3 - '$work/$bn-screen.jsonl' <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
run, summ = recs[0], recs[-1]
assert [u['host'] for u in run['units']] == ['nodeA', 'nodeB'], run['units']
assert summ['conclusive'] and not summ['found'] and summ['exit_code'] == 0, summ
PY"
    fe=$b/frontend/mpigauge
    check "$bn: sbatch --wait examples/slurm/pt2pt-2nodes.sbatch (quick suite) runs to completion" \
        sh -c "sbatch --wait -o '$work/$bn-pt2pt.out' \
                 --export=ALL,MPIGAUGE='$fe',SUITE=quick,REPEAT=1,RUN_ARGS='--exit-grace 5',OUT='$work/$bn-pt2pt.jsonl',BENCH_ARGS='$args' \
                 '$top/examples/slurm/pt2pt-2nodes.sbatch' >/dev/null &&
               test -s '$work/$bn-pt2pt.html' || { cat '$work/$bn-pt2pt.out' >&2; exit 1; }
               python3 - '$work/$bn-pt2pt.jsonl' <<'PY'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if '\"type\":\"run\"' in l]
assert len(runs) == 3 and all(r['nnodes'] == 2 for r in runs), [r['nnodes'] for r in runs]
PY"
    printf 'ranks=2 allreduce\nranks=2 bcast\nranks=2 barrier\n' >"$work/coll.txt"
    check "$bn: sbatch --wait examples/slurm/collectives-full.sbatch (-N 2, 1 rank per node) runs to completion" \
        sh -c "sbatch --wait -N 2 --ntasks-per-node=1 -o '$work/$bn-coll.out' \
                 --export=ALL,MPIGAUGE='$fe',SUITE='$work/coll.txt',REPEAT=1,RUN_ARGS='--exit-grace 5',OUT='$work/$bn-coll.jsonl',BENCH_ARGS='-m 8:1K -i 20' \
                 '$top/examples/slurm/collectives-full.sbatch' >/dev/null &&
               test -s '$work/$bn-coll.html' || { cat '$work/$bn-coll.out' >&2; exit 1; }"
done
if [ $both = 1 ]; then
    check "sbatch --wait examples/slurm/regression-two-builds.sbatch ($(basename "$1") vs $(basename "$2"), 2 nodes)" \
        sh -c "sbatch --wait -o '$work/regr.out' \
                 --export=ALL,MPIGAUGE='$1/frontend/mpigauge',BASE_BINDIR='$1',NEW_BINDIR='$2',REPEAT=2,OUTDIR='$work/regr',FAIL_ON_REGRESSION=0,RUN_ARGS='--exit-grace 5',BENCH_ARGS='-m 1:64 -i 20' \
                 '$top/examples/slurm/regression-two-builds.sbatch' >/dev/null &&
               grep -q '^| latency | 64 | us |' '$work/regr/compare.md' ||
               { cat '$work/regr.out' >&2; exit 1; }"
    interleaved() {
        # the template's hung MPICH launches may have taken a slurmd down
        bash "$here/slurm_cluster.sh" revive "$work/slurm" >/dev/null 2>&1
        timeout 600 salloc -N 2 -n 2 --ntasks-per-node=1 "$1/frontend/mpigauge" run --suite quick \
            --repeat 3 --timeout 120 --exit-grace 5 --config "ompi bindir=$1" --config "mpich bindir=$2" \
            -o "$work/both.jsonl" -- -m 1:1K -i 20 &&
            two_nodes "$work/both.jsonl" 18 &&
            "$1/frontend/mpigauge" compare "$work/both.jsonl" ompi mpich --format json \
                -o "$work/both-cmp.jsonl" &&
            python3 - "$work/both.jsonl" "$work/both-cmp.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
launch = [r for r in recs if r["type"] == "launch"]
plugins = {l["config"]: [w for w in l["command"] if w.startswith("--mpi=")] for l in launch}
assert plugins == {"ompi": ["--mpi=pmix"], "mpich": ["--mpi=pmi2"]}, plugins
assert recs[0]["type"] == "session" and recs[0].get("slurm_job_id"), recs[0]
# one allocation, a job step per launch
job = recs[0]["allocation"]["job_id"]
runs = [r for r in recs if r["type"] == "run"]
assert {r["allocation"]["job_id"] for r in runs} == {job}, [r["allocation"] for r in runs]
assert len({r["allocation"]["step_id"] for r in runs}) == len(runs), [r["allocation"] for r in runs]
cmp = [json.loads(l) for l in open(sys.argv[2])]
assert cmp[0]["method"] == "paired", cmp[0]
series = [r for r in cmp if r["type"] == "series"]
assert len(series) == 3 * 11 and all(r["verdict"] for r in series), len(series)
PY
    }
    check "mpigauge run in a two-node allocation: the builds interleaved over 3 rounds, every launch on both nodes, compared paired" \
        interleaved "$1" "$2"
    allocations() {
        bash "$here/slurm_cluster.sh" revive "$work/slurm" >/dev/null 2>&1
        timeout 600 "$1/frontend/mpigauge" run --suite quick --timeout 120 --exit-grace 5 \
            --allocations 2 --sbatch-option=--nodes=2 --sbatch-option=--ntasks-per-node=1 \
            --sbatch-option=--exclusive --sbatch-option=--constraint=emu --bindir "$1" \
            -o "$work/alloc.jsonl" -- -m 1:64 -i 20 &&
            python3 - "$work/alloc.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
sessions = [r["allocation"] for r in recs if r["type"] == "session"]
runs = [r for r in recs if r["type"] == "run"]
assert [s["array_task_id"] for s in sessions] == ["1", "2"], sessions
assert len({s["job_id"] for s in sessions}) == 2 and len({s["array_job_id"] for s in sessions}) == 1
jobs = {s["job_id"] for s in sessions}
assert len(runs) == 6 and all(r["allocation"]["job_id"] in jobs and r["nnodes"] == 2 for r in runs), \
    [(r["allocation"], r["nnodes"]) for r in runs]
# the constraint: Slurm 22.05 leaves SLURM_JOB_CONSTRAINTS out of the job's
# environment; the session record has it from scontrol
assert all(s.get("constraint") == "emu" for s in sessions), sessions
PY
    }
    check "mpigauge run --allocations 2 (--constraint=emu): a job array of two allocations on both nodes, each run record naming its own, joined" \
        allocations "$1"
    excluded() {
        timeout 600 "$1/frontend/mpigauge" run --suite quick --timeout 120 --exit-grace 5 \
            --allocations 3 --exclude-previous --sbatch-option=--nodes=1 \
            --sbatch-option=--ntasks-per-node=2 --bindir "$1" \
            -o "$work/excl.jsonl" -- -m 1:64 -i 20 &&
            python3 - "$work/excl.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
nodes = [r["allocation"]["nodelist"] for r in recs if r["type"] == "session"]
# the second job leaves out the first's node; the third has none left to
# go to, so it runs without the exclusion, on either node
assert len(nodes) == 3 and nodes[0] != nodes[1], nodes
runs = [r for r in recs if r["type"] == "run"]
assert len(runs) == 9 and all(r["nnodes"] == 1 for r in runs), [r["nnodes"] for r in runs]
PY
    }
    check "mpigauge run --allocations 3 --exclude-previous: one job after another, the second on the node the first did not have, the third (none left) without the exclusion" \
        excluded "$1"
fi
# a step planted between 3 and 4 ranks (bench/libmgslow.so MG_SLOW_ABOVE=3)
# in a ranks sweep over both nodes, 2 ranks on each: model --scaling says
# the planted configuration added it and names nothing else (the ranks
# yield when idle: 4 busy-polling ranks on 2 cores through TCP otherwise
# fall into 2-8 ms calls at random, planted or not)
scaling() {
    bash "$here/slurm_cluster.sh" revive "$work/slurm" >/dev/null 2>&1
    lib=$1/bench/libmgslow.so
    printf 'ranks=4 bcast --ranks-sweep 2:4 -m 8:8\n' >"$work/sweep.txt"
    timeout 600 salloc -N 2 -n 4 --ntasks-per-node=2 "$1/frontend/mpigauge" run \
        --suite "$work/sweep.txt" --repeat 8 --interleave launches --timeout 120 \
        --exit-grace 5 --bindir "$1" -o "$work/steps.jsonl" -q \
        --config "base LD_PRELOAD=$lib OMPI_MCA_mpi_yield_when_idle=1" \
        --config "planted LD_PRELOAD=$lib OMPI_MCA_mpi_yield_when_idle=1 MG_SLOW_CALLS=bcast MG_SLOW_CALL_NS=50000 MG_SLOW_ABOVE=3" &&
        "$1/frontend/mpigauge" model --scaling "$work/steps.jsonl" base planted --json \
            -o "$work/steps-model.jsonl" &&
        python3 - "$work/steps.jsonl" "$work/steps-model.jsonl" <<'PY'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if '"type":"run"' in l]
assert len(runs) == 16 and all(r["nnodes"] == 2 for r in runs), [r["nnodes"] for r in runs]
recs = [json.loads(l) for l in open(sys.argv[2])]
ch = [r for r in recs if r["type"] == "scaling_change"]
assert [(c["what"], c["from"], c["to"]) for r in ch for c in r["changes"]] == \
    [("added", 3, 4)], ch
PY
}
check "$(basename "$1"): a ranks sweep over both nodes, a step planted between 3 and 4 ranks: model --scaling names it added, nothing else" \
    scaling "$1"
[ "$failed" -eq 0 ]
exit $?
}
