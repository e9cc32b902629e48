#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check-slurm: start a real single-node Slurm (munged, slurmctld, slurmd by
# hand, config and state in a temporary folder, no systemd, TaskPlugin=task/none,
# ProctrackType=proctrack/linuxproc), run `mpigauge run --launcher srun` with
# every build given, check the results, and stop only the daemons it started
# (also on failure or interruption). TAP output; exit 0 when all pass, 1 on a
# failure, 77 when it cannot run here (not root, no Slurm packages).
#   tests/slurm/check_slurm.sh BUILD...      (build trees: _build/openmpi _build/mpich)
# Environment: MG_FRONTEND (the mpigauge to test; default BUILD/frontend/mpigauge
# of the first build, else frontend/mpigauge.py), MG_SLURM_ARGS (benchmark
# options, default "-m 1:1K -i 20"), MG_SLURM_KEEP=1 (keep the folder).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ $# -gt 0 ] || set -- "$top/_build/openmpi" "$top/_build/mpich"
args=${MG_SLURM_ARGS:--m 1:1K -i 20}

if [ "$(id -u)" != 0 ]; then
    echo "1..0 # SKIP check-slurm needs root (slurmd, munged)"; exit 77
fi
for p in munged slurmctld slurmd srun; do
    if ! command -v "$p" >/dev/null 2>&1; then
        echo "1..0 # SKIP $p missing (install slurm-wlm and munge: scripts/setup-deps.sh)"; exit 77
    fi
done
fe=${MG_FRONTEND:-}
if [ -z "$fe" ]; then
    if [ -x "$1/frontend/mpigauge" ]; then fe=$1/frontend/mpigauge
    else fe="python3 $top/frontend/mpigauge.py"; fi
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/mg-slurm.XXXXXX") || exit 99
chmod 755 "$dir"
stop() {
    bash "$here/slurm_local.sh" stop "$dir" >"$dir/stop.log" 2>&1 || cat "$dir/stop.log"
    if [ "${MG_SLURM_KEEP:-0}" = 1 ]; then echo "# kept $dir"; else rm -rf "$dir"; fi
}
trap 'stop' EXIT
trap 'exit 130' INT TERM

# Free ports for slurmctld and slurmd (not the default 6817/6818, so that a
# Slurm already running here is left alone).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
SLURM_LOCAL_CTLD_PORT=$(free_port)
SLURM_LOCAL_SLURMD_PORT=$(free_port)
while [ "$SLURM_LOCAL_SLURMD_PORT" = "$SLURM_LOCAL_CTLD_PORT" ]; do SLURM_LOCAL_SLURMD_PORT=$(free_port); done
SLURM_LOCAL_TASK_PLUGIN=task/none
SLURM_LOCAL_CLUSTER=mgcheck
export SLURM_LOCAL_CTLD_PORT SLURM_LOCAL_SLURMD_PORT SLURM_LOCAL_TASK_PLUGIN SLURM_LOCAL_CLUSTER

TAP_DIR=$dir
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"

extra=0
[ $# -ge 2 ] && extra=2
echo "1..$((2 + 4 * $# + extra))"
echo "# front-end: $fe; builds: $*"
if bash "$here/slurm_local.sh" start "$dir" >"$dir/err" 2>&1; then
    ok "single-node Slurm started in $dir (ports $SLURM_LOCAL_CTLD_PORT, $SLURM_LOCAL_SLURMD_PORT)"
else
    notok "single-node Slurm started"
    exit 1
fi
SLURM_CONF=$dir/slurm.conf
export SLURM_CONF
check "sinfo shows the node idle" sh -c 'sinfo -h -o %T | grep -qx idle'

# results file, expected MPI library prefix, expected plugin, expected launches
check_results() {
    python3 - "$@" <<'PY'
import json, sys
path, lib, plugin, nlaunch = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
recs = [json.loads(l) for l in open(path)]
launch = [r for r in recs if r["type"] == "launch"]
runs = [r for r in recs if r["type"] == "run"]
assert [l["status"] for l in launch] == ["ok"] * nlaunch, [(l["status"], l.get("message")) for l in launch]
assert all(l["launcher"] == "srun" and l["command"][0] == "srun" and "--mpi=" + plugin in l["command"]
           for l in launch), launch[0]["command"]
assert len(runs) == nlaunch and all(r["nranks"] == 2 for r in runs), [r["nranks"] for r in runs]
assert all(r["mpi_library"].startswith(lib) for r in runs), runs[0]["mpi_library"]
# the ranks really ran as a Slurm job step
assert all("SLURM_JOB_ID" in r["env"] or "SLURM_JOBID" in r["env"] for r in runs), runs[0]["env"]
assert all(r["type"] != "result" or r["median"] > 0 for r in recs)
print(f"{len(launch)} launches ok")
PY
}
check_wrong_size() {
    python3 - "$1" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
launch = [r for r in recs if r["type"] == "launch"]
assert launch and all(l["status"] == "wrong-size" for l in launch), [(l["status"], l.get("message")) for l in launch]
assert "saw a world of 1" in launch[0]["message"], launch[0]["message"]
assert not [r for r in recs if r["type"] == "result"], "results of a wrong-size launch were kept"
PY
}

for b in "$@"; do
    name=$(basename "$b")
    lat=$(find "$b" -maxdepth 2 -name mpigauge_latency -type f | head -n 1)
    if [ -z "$lat" ]; then
        notok "$name: no mpigauge_latency in $b (build it first)"; n=$((n + 3)); failed=$((failed + 3)); continue
    fi
    # the library the program loads says what it is (not its file name:
    # MPICH 5 and Intel MPI ship libmpi.so.12 as Open MPI ships libmpi.so.40)
    ident=$("$lat" --mpi-library | python3 -c 'import json, sys
l = json.loads(sys.stdin.readline())["library"]
print("impi" if l.startswith("Intel") else "mpich4" if l.startswith("MPICH Version:\t4.0")
      else "mpich" if l.startswith("MPICH") else "openmpi")')
    both=0
    case $ident in
    mpich4) flavour=mpich; plugin=pmi2; lib=MPICH ;;
    # MPICH 5.0.2 (PyPI) fails under --mpi=pmix (exit 16) instead of starting
    # one-rank jobs; Intel MPI speaks PMIx too and forms one job
    mpich) flavour=mpich5; plugin=pmi2; lib=MPICH ;;
    impi) flavour=mpich; plugin=pmi2; lib="Intel(R) MPI"; both=1 ;;
    *) flavour=openmpi; plugin=pmix; lib="Open MPI" ;;
    esac
    out=$dir/$name.jsonl
    # shellcheck disable=SC2086
    check "$name ($flavour): mpigauge run --launcher srun --suite quick --repeat 2" \
        $fe run --launcher srun --suite quick --repeat 2 --bindir "$b" --timeout 120 -o "$out" -- $args
    check "$name: 6 launches ok, 2 ranks each, srun --mpi=$plugin, Slurm job environment" \
        check_results "$out" "$lib" "$plugin" 6
    # Inside an allocation the default launcher is srun with the right plugin.
    printf 'ranks=2 latency\n' >"$dir/one.txt"
    # shellcheck disable=SC2086
    check "$name: inside salloc -n 2 the default launcher is srun --mpi=$plugin" sh -c \
        "salloc -n 2 -J mgcheck $fe run --suite '$dir/one.txt' --bindir '$b' --timeout 120 -o '$dir/$name-salloc.jsonl' -- $args && \
         python3 -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1])]; s=l[0]; \
assert s[\"launcher\"] == \"srun\" and s[\"slurm_job_id\"], s' '$dir/$name-salloc.jsonl'"
    if [ "$both" = 1 ]; then
        # shellcheck disable=SC2086
        check "$name: srun --mpi=pmix forms one job too (Intel MPI)" sh -c \
            "$fe run --launcher 'srun --mpi=pmix' --suite '$dir/one.txt' --bindir '$b' --timeout 120 \
                 -o '$dir/$name-pmix.jsonl' -- $args && python3 -c 'import json,sys
l = [json.loads(x) for x in open(sys.argv[1])]
assert [r[\"nranks\"] for r in l if r[\"type\"] == \"run\"] == [2], l' '$dir/$name-pmix.jsonl'"
    elif [ "$flavour" = mpich ]; then
        # MPICH under pmix starts separate one-rank jobs: the runner must say so.
        # shellcheck disable=SC2086
        if $fe run --launcher "srun --mpi=pmix" --suite "$dir/one.txt" --bindir "$b" --timeout 120 \
               -o "$dir/$name-pmix.jsonl" -- $args >"$dir/out" 2>"$dir/err"; then
            echo "run succeeded but should have failed" >>"$dir/err"
            notok "$name: srun --mpi=pmix (separate one-rank jobs) is failed as wrong-size"
        else
            check "$name: srun --mpi=pmix (separate one-rank jobs) is failed as wrong-size" \
                check_wrong_size "$dir/$name-pmix.jsonl"
        fi
    else
        # Open MPI under pmi2 (MPICH 5.0.2 under pmix) does not start: the
        # launch fails, the run says so.
        case $flavour in openmpi) other=pmi2 ;; *) other=pmix ;; esac
        # shellcheck disable=SC2086
        if $fe run --launcher "srun --mpi=$other" --suite "$dir/one.txt" --bindir "$b" --timeout 60 \
               -o "$dir/$name-$other.jsonl" -- $args >"$dir/out" 2>"$dir/err"; then
            echo "run succeeded but should have failed" >>"$dir/err"
            notok "$name: srun --mpi=$other (does not work with $lib) is recorded as a failure"
        else
            check "$name: srun --mpi=$other (does not work with $lib) is recorded as a failure" \
                python3 -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1]) if "\"launch\"" in x]; \
assert l and l[0]["status"] in ("failed", "wrong-size", "timeout"), l' "$dir/$name-$other.jsonl"
        fi
    fi
done

if [ $# -ge 2 ]; then
    # The regression template, for real: sbatch --wait on 2 ranks of this node.
    case $fe in *" "*) mg=$top/frontend/mpigauge.py ;; *) mg=$fe ;; esac
    check "sbatch examples/slurm/regression-two-builds.sbatch ($(basename "$1") vs $(basename "$2"))" sh -c "
        cd '$dir' && sbatch --wait -N 1 -n 2 --ntasks-per-node=2 --no-requeue -o '$dir/sbatch.out' \
            --export=ALL,MPIGAUGE='$mg',BASE_BINDIR='$1',NEW_BINDIR='$2',REPEAT=2,OUTDIR='$dir/regr',FAIL_ON_REGRESSION=0,BENCH_ARGS='-m 1:64 -i 20' \
            '$top/examples/slurm/regression-two-builds.sbatch' >/dev/null ||
            { cat '$dir/sbatch.out' >&2; exit 1; }
        grep -q '^| latency | 64 | us |' '$dir/regr/compare.md' && test -s '$dir/regr/report.html' ||
            { cat '$dir/sbatch.out' >&2; exit 1; }"
    # The nightly pattern: the two builds interleaved, into a history, checked
    # paired, the dashboard made; run twice (a second night) so the history
    # has two tags. Exit 0 or 1 (a regression) are both a finished job.
    check "sbatch examples/nightly/nightly.sbatch twice: history of two nights, paired check, dashboard" sh -c "
        for night in 1 2; do
            cd '$dir' && sbatch --wait -N 1 -n 2 --ntasks-per-node=2 --no-requeue -o '$dir/nightly-'\$night'.out' \
                --export=ALL,MPIGAUGE='$mg',RELEASE_BINDIR='$1',NEW_BINDIR='$2',REPEAT=2,TAG=night-\$night,HISTORY='$dir/history.sqlite',SITE='$dir/site',OUTDIR='$dir/nightly-'\$night,BENCH_ARGS='-m 1:64 -i 20' \
                '$top/examples/nightly/nightly.sbatch' >/dev/null
            grep -q '^| latency | 64 | us |' '$dir/nightly-'\$night'/check.md' ||
                { cat '$dir/nightly-'\$night'.out' >&2; exit 1; }
        done
        $fe history --db '$dir/history.sqlite' list | grep -q '^night-2 .* 12 .*MPICH 4.0.2, Open MPI v4.1.4 *new,release' &&
        grep -q 'Regressions of night-2 against night-1' '$dir/site/index.html' &&
        grep -q 'signed-rank' '$dir/nightly-2/check.md' ||
            { cat '$dir/nightly-2.out' >&2; exit 1; }"
fi
[ "$failed" -eq 0 ]
