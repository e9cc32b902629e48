#!/bin/sh
# The whole test suite: install what is missing, then for Open MPI and MPICH
# build out of tree and run `make check` (GoogleTest unit tests and the MPI
# integration cases under each library's own launcher), then `make distcheck`
# (tarball, out-of-tree build, check, install, uninstall) with Open MPI, and
# the plot script's test. Ends with one line "N passed, N failed".
#   scripts/test.sh            everything
#   MG_TEST_MPIS="mpich" scripts/test.sh    only some libraries
#   MG_TEST_DISTCHECK=0 scripts/test.sh     skip distcheck
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-deps.sh" || exit 1
[ -x "$root/configure" ] || "$root/autogen.sh" || exit 1

passed=0
failed=0
count() { # file pattern -> number of matching lines
    n=$(grep -c "$2" "$1" 2>/dev/null) || n=0
    echo "$n"
}
tally_build() { # build dir
    d=$1
    u="$d/tests/unit/unit_tests.log"
    up=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$u" 2>/dev/null | tail -n1)
    uf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$u" 2>/dev/null | tail -n1)
    mp=$(count "$d/tests/mpi_cases.log" '^ok ')
    mf=$(count "$d/tests/mpi_cases.log" '^not ok ')
    passed=$((passed + ${up:-0} + mp))
    failed=$((failed + ${uf:-0} + mf))
    echo "== $(basename "$d"): unit tests ${up:-0} passed, ${uf:-0} failed; MPI cases $mp passed, $mf failed"
}

status=0
for mpi in ${MG_TEST_MPIS:-openmpi mpich}; do
    echo "== building with $mpi"
    if ! "$root/scripts/build.sh" "$mpi"; then
        failed=$((failed + 1)); status=1; continue
    fi
    d="$root/_build/$mpi"
    rm -f "$d/tests/unit/unit_tests.log" "$d/tests/mpi_cases.log"
    echo "== make check ($mpi)"
    if ! make -C "$d" -j1 check >"$d/check.out" 2>&1; then
        status=1
        cat "$d/check.out"
        [ -f "$d/test-suite.log" ] && cat "$d/test-suite.log"
    else
        grep -E '^(PASS|FAIL|XFAIL|XPASS|ERROR|SKIP):|^# (TOTAL|PASS|FAIL)' "$d/check.out"
    fi
    tally_build "$d"
done

echo "== plot script"
tmp=$(mktemp -d)
if python3 "$root/scripts/plot_svg.py" -o "$tmp/p.svg" "$root/tests/golden/results.jsonl" &&
   python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); \
assert r.tag.endswith("svg") and len(r.findall(".//{http://www.w3.org/2000/svg}polyline")) == 3' "$tmp/p.svg"; then
    passed=$((passed + 1)); echo "ok - plot_svg draws one line per benchmark"
else
    failed=$((failed + 1)); status=1; echo "not ok - plot_svg"
fi
rm -rf "$tmp"

if [ "${MG_TEST_DISTCHECK:-1}" = 1 ]; then
    echo "== make distcheck (openmpi)"
    d="$root/_build/openmpi"
    if make -C "$d" distcheck DISTCHECK_CONFIGURE_FLAGS="MPICC=mpicc.openmpi" >"$d/distcheck.out" 2>&1; then
        passed=$((passed + 1)); echo "ok - make distcheck"
        tail -n 4 "$d/distcheck.out"
    else
        failed=$((failed + 1)); status=1; echo "not ok - make distcheck"
        tail -n 60 "$d/distcheck.out"
    fi
fi

echo
echo "mpigauge: $passed passed, $failed failed"
exit $status
