#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The ReFrame checks of contrib/reframe/ with ReFrame from PyPI (the version
# pinned in scripts/requirements-reframe.txt, in _venv-reframe/, made by
# scripts/setup-deps.sh): on the system `local` (local scheduler, mpirun)
# every check runs and passes with both builds; a reference made impossible
# fails the check in its performance phase; on the system `slurm` (the
# squeue scheduler, srun) against a real single-node Slurm started here
# (tests/slurm/slurm_local.sh), a point-to-point and a collective check pass
# with both builds. The OSU drop-in: ReFrame's stock OSU check, as restated
# in osu_stock_check.py (and ReFrame's own file when MG_REFRAME_HPCTESTLIB
# names hpctestlib/microbenchmarks/mpi/osu.py of a ReFrame checkout), passes
# for its four benchmarks with each build's osu/ folder first on PATH and
# nothing else changed. TAP output.
#   tests/reframe/check_reframe.sh OPENMPI_BUILD MPICH_BUILD
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ompi=${1:-$top/_build/openmpi}
mpich=${2:-$top/_build/mpich}
rfm=${MG_REFRAME:-$top/_venv-reframe/bin/reframe}
if [ ! -x "$rfm" ]; then
    echo "1..1"
    echo "not ok 1 - ReFrame is not installed in $top/_venv-reframe (run scripts/setup-deps.sh)"
    exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/mg-reframe.XXXXXX") || exit 99
chmod 755 "$work"
slurm_dir=""
cleanup() {
    [ -n "$slurm_dir" ] && bash "$top/tests/slurm/slurm_local.sh" stop "$slurm_dir" >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
TAP_DIR=$work TAP_ERR_LINES=25
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"
MPIGAUGE_OPENMPI_BINDIR=$ompi MPIGAUGE_MPICH_BINDIR=$mpich
MPIGAUGE_BASE_BINDIR=$ompi MPIGAUGE_NEW_BINDIR=$mpich
MPIGAUGE_FRONTEND=$ompi/frontend/mpigauge
export MPIGAUGE_OPENMPI_BINDIR MPIGAUGE_MPICH_BINDIR MPIGAUGE_BASE_BINDIR MPIGAUGE_NEW_BINDIR \
    MPIGAUGE_FRONTEND
# the reports and logs in the work folder, nothing in the user's home
RFM_REPORT_FILE=$work/report.json RFM_SAVE_LOG_FILES=n HOME=$work
export RFM_REPORT_FILE HOME
cfg=$top/contrib/reframe/config/mpigauge_config.py
checks=$top/contrib/reframe/mpigauge_checks.py

# rfm_run NAME SYSTEM [reframe options...]: run, then the report in $work/NAME.json
# (a TAP comment says how long it took)
rfm_run() {
    name=$1 sys=$2; shift 2
    t0=$(date +%s)
    (cd "$work" && TMPDIR=$work "$rfm" -C "$cfg" --system "$sys" -c "$checks" --prefix "$work/$name" \
        --report-file "$work/$name.json" --exec-policy serial -r "$@") >"$work/$name.log" 2>&1
    rfm_rc=$?
    echo "# reframe $name: $(($(date +%s) - t0)) s"
    return $rfm_rc
}
# report NAME PASSED FAILED [phase]: the report's counts (and the failing phase)
report() {
    python3 - "$work/$1.json" "$2" "$3" "${4:-}" <<'PY' || { tail -n 40 "$work/$1.log" >&2; return 1; }
import json, sys
rep = json.load(open(sys.argv[1]))
cases = [c for r in rep["runs"] for c in r["testcases"]]
res = [c["result"] for c in cases]
want_pass, want_fail, phase = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
assert res.count("pass") == want_pass and res.count("fail") == want_fail, \
    (res.count("pass"), res.count("fail"), res.count("skip"))
if phase:
    assert all(c["fail_phase"] == phase for c in cases if c["result"] == "fail"), \
        [(c["name"], c["fail_phase"], c["fail_reason"]) for c in cases if c["result"] == "fail"]
names = {c["name"].split()[0] for c in cases if c["result"] == "pass"}
print(f"{res.count('pass')} passed: {', '.join(sorted(names))}")
PY
}
echo "1..8"
echo "# $("$rfm" --version 2>&1): $rfm"
rfm_run local local -t mpigauge
check "system local (local scheduler, mpirun): 29 checks pass, point-to-point, collective, overlap, both builds and the interleaved comparison" \
    report local 29 0
check "the performance variables are the results' medians and CI bounds, per size" sh -c "
    grep -q 'median_8' '$work/local.json' && grep -q 'ci95_high_65536' '$work/local.json' &&
    grep -q 'overlap_ratio_1048576' '$work/local.json' && grep -q 'slower_series' '$work/local.json'"
# a reference nobody can meet: 8-byte latency below 0.0001 us
cat >"$work/impossible.json" <<'JSON'
{"*": {"latency": {"8": [0.0001, null, 0.1]}}}
JSON
rfm_run impossible local -n 'MpigaugePt2pt%benchmark=latency' -S "reference_file=$work/impossible.json"
rc=$?
impossible() { [ "$rc" -ne 0 ] && report impossible 0 2 performance; }
check "an impossible reference fails both latency checks in the performance phase (exit $rc)" impossible
# the same with the shipped references: they pass
rfm_run shipped local -n 'MpigaugePt2pt%benchmark=latency'
check "the shipped references (contrib/reframe/references/this-machine.json) pass" report shipped 2 0

# The OSU drop-in: the stock check's command lines with PATH=BUILD/osu:$PATH,
# in the build's programming environment (`-S` as a user of the stock check
# sets: systems, environments, the collectives' task count, and num_iters:
# at its 1000, osu_bw's every size up to 4 MiB with a window of 64 took
# 167 s under MPICH here on a busy machine, at 100 a tenth; the command
# line's form is the same).
osu_stock() { # label build environ checks-file check-name
    t0=$(date +%s)
    (cd "$work" && PATH="$2/osu:$PATH" TMPDIR=$work "$rfm" -C "$cfg" --system local -c "$4" \
        --prefix "$work/$1" --report-file "$work/$1.json" --exec-policy serial -n "$5" \
        -S valid_systems=local -S "valid_prog_environs=$3" -S num_tasks=2 -S num_iters=100 \
        -r) >"$work/$1.log" 2>&1
    echo "# reframe $1: $(($(date +%s) - t0)) s"
}
osu_stock osu-openmpi "$ompi" openmpi "$here/osu_stock_check.py" osu_stock_run
osu_stock osu-mpich "$mpich" mpich "$here/osu_stock_check.py" osu_stock_run
both_osu() { report osu-openmpi 4 0 && report osu-mpich 4 0; }
check "ReFrame's stock OSU check (osu_latency, osu_bw D D, osu_allreduce, osu_alltoall; -m SIZE -x 10 -i 100 -c, num_iters=100) passes against both builds' osu/ folders" \
    both_osu
if [ -n "${MG_REFRAME_HPCTESTLIB:-}" ] && [ -f "$MG_REFRAME_HPCTESTLIB" ]; then
    osu_stock osu-rfm "$ompi" openmpi "$MG_REFRAME_HPCTESTLIB" osu_run
    check "ReFrame's own hpctestlib osu_run ($MG_REFRAME_HPCTESTLIB) passes against the Open MPI build's osu/" \
        report osu-rfm 4 0
else
    n=$((n + 1))
    echo "ok $n # SKIP ReFrame's own hpctestlib/microbenchmarks/mpi/osu.py: not on PyPI (MG_REFRAME_HPCTESTLIB=FILE)"
fi

# Slurm: a real single-node Slurm on free ports, the squeue scheduler and srun
if [ "$(id -u)" != 0 ] || ! command -v slurmd >/dev/null 2>&1; then
    echo "ok $((n + 1)) # SKIP Slurm needs root and slurm-wlm"; echo "ok $((n + 2)) # SKIP Slurm"
    exit "$([ $failed -eq 0 ] && echo 0 || echo 1)"
fi
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
slurm_dir=$work/slurm
mkdir -p "$slurm_dir"
SLURM_LOCAL_CTLD_PORT=$(free_port) SLURM_LOCAL_SLURMD_PORT=$(free_port) SLURM_LOCAL_CLUSTER=mgrfm \
    SLURM_LOCAL_TASK_PLUGIN=task/none bash "$top/tests/slurm/slurm_local.sh" start "$slurm_dir" >"$work/err" 2>&1
rc=$?
SLURM_CONF=$slurm_dir/slurm.conf
export SLURM_CONF
if [ $rc = 0 ]; then ok "single-node Slurm started"; else notok "single-node Slurm started"; fi
rfm_run slurm slurm -n 'MpigaugePt2pt%benchmark=latency' -n 'MpigaugeCollective%benchmark=allreduce'
check "system slurm (squeue scheduler, srun --mpi=pmix / pmi2): latency and allreduce pass with both builds" \
    report slurm 4 0
[ "$failed" -eq 0 ]
