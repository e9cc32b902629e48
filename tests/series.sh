#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `mpigauge series` (doc/releases.md) on a planted series: four copies of
# MPICH 5.0.2 in a catalogue of their own, the last two slowed by 40%
# through the self-test's slowing library (bench/libmgslow.so, loaded into
# every copy), walked by bisection from the ends (--stride 3): the change
# must be pinned to c1 -> c2 and nothing else named; a second call resumes
# the folder and measures nothing; `series report` gives the same report;
# a release that cannot run the build (Debian's MPICH links libmpich.so.12)
# is found and skipped with the reason. TAP output.
#   tests/series.sh BUILD_ROOT      (BUILD_ROOT/_mpi/mpich-5.0.2, _build/mpich-5.0.2)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$top}
fe="python3 $top/frontend/mpigauge.py"
inst=$root/_mpi/mpich-5.0.2
build=$root/_build/mpich-5.0.2
work=$(mktemp -d "${TMPDIR:-/tmp}/mg-series.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT INT TERM
TAP_DIR=$work TAP_ERR_LINES=30
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
MPIGAUGE_MPI_CACHE=$work/cache
export MPIGAUGE_MPI_CACHE
run() { # out err expected-exit command...: the command's output in out, err
    o=$1 e=$2 want=$3
    shift 3
    "$@" >"$o" 2>"$e"
    rc=$?
    [ "$rc" = "$want" ] || { echo "exit $rc, expected $want" >>"$e"; return 1; }
}
echo "1..4"
if [ ! -x "$inst/bin/mpicc" ] || [ ! -x "$build/pt2pt/mpigauge_latency" ]; then
    for i in 1 2 3 4; do ok "# SKIP needs $inst and $build (scripts/build.sh mpich-5.0.2)"; done
    exit 0
fi
for i in 0 1 2 3; do
    cp -a "$inst" "$work/c$i" && $fe mpi add "$work/c$i" --name "c$i" >/dev/null || exit 99
done
printf 'ranks=2 latency -m 8:64 --time-budget 0.05\n' >"$work/suite.txt"
lib=$build/bench/libmgslow.so
series() {
    $fe series run c0 c1 c2 c3 --bindir "$build" -o "$work/s" --suite "$work/suite.txt" \
        --rounds 10 --max-rounds 10 --stride 3 --timeout 60 --env "all:LD_PRELOAD=$lib" \
        --env all:MG_SLOW_PERCENT=0 --env c2:MG_SLOW_PERCENT=40 --env c3:MG_SLOW_PERCENT=40 \
        --env c0:AWS_SECRET_ACCESS_KEY=mg-canary-secret
}

t0=$(date +%s)
if run "$work/out" "$work/err" 0 series &&
    grep -Eq "^  latency 8-64: c1 -> c2: slower x(1\.[3-9]|[2-9]\.)" "$work/out" &&
    [ "$(grep -c '^  latency' "$work/out")" = 1 ] && ! grep -q "^gradual\|^not pinned\|^one release" "$work/out" &&
    grep -q "measured 4 of 4 releases in 3 steps" "$work/out" &&
    ! grep -rq mg-canary-secret "$work/s" &&
    python3 - "$work/s/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert [(c["kind"], c["from"], c["to"], c["sizes"]) for c in r["changes"]] == \
    [("step", "c1", "c2", [8, 16, 32, 64])], r["changes"]
assert [s["releases"] for s in r["steps"]] == [["c0", "c3"], ["c0", "c1", "c3"],
                                               ["c1", "c2", "c3"]], r["steps"]
assert r["launches"] == 80, r["launches"]
PY
then cat "$work/out"; ok "a planted change pinned by bisection to c1 -> c2, nothing else named, no secret kept ($(($(date +%s) - t0)) s)"
else notok "a planted change pinned by bisection to c1 -> c2" "$work/out" "$work/err"
fi

# the same call again: every step measured before, the same report
if run "$work/out2" "$work/err2" 0 series && [ "$(grep -c 'measured before' "$work/err2")" = 3 ] &&
    cmp -s "$work/out" "$work/out2"; then
    ok "a second call resumes the folder: 3 steps measured before, the same report"
else notok "a second call resumes the folder" "$work/out2" "$work/err2"
fi
if run "$work/out3" "$work/err3" 0 $fe series report "$work/s" && cmp -s "$work/out" "$work/out3"; then
    ok "series report DIR: the report of the folder, nothing run"
else notok "series report DIR" "$work/out3" "$work/err3"
fi

# a release whose library the build does not load: found by starting it, skipped, said
if [ -e /usr/lib/x86_64-linux-gnu/libmpich.so.12 ]; then
    $fe mpi add /usr/lib/x86_64-linux-gnu/libmpich.so.12 --name deb >/dev/null 2>&1
    if run "$work/o4" "$work/e4" 2 $fe series run c0 deb --bindir "$build" -o "$work/s4" &&
        grep -q "deb skipped: release deb: .*give --build NAME=DIR, a build made with its mpicc" "$work/e4" &&
        grep -q "fewer than two releases of the series run the programs" "$work/e4" &&
        [ ! -e "$work/s4" ]; then
        ok "a release that cannot run the build: found, skipped with the reason, exit 2"
    else notok "a release that cannot run the build" "$work/o4" "$work/e4"
    fi
else ok "# SKIP needs Debian's MPICH"
fi
