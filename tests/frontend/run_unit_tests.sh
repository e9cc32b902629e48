#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The front-end's unit tests (Python unittest), verbose, one process a test
# file, as many at a time as there are cores (MG_FE_JOBS), the largest files
# first: 76 s on 2 cores against 145 s in one process. Each file's output
# is printed whole, then one summary in unittest's words ("Ran N tests",
# "OK" or "FAILED (failures=F, errors=E, skipped=S)"). Exit status 0 when
# all pass.
#   tests/frontend/run_unit_tests.sh [PYTHON]
here=$(cd "$(dirname "$0")" && pwd)
py=${1:-${PYTHON:-python3}}
jobs=${MG_FE_JOBS:-$(nproc 2>/dev/null || echo 1)}
PYTHONDONTWRITEBYTECODE=1; export PYTHONDONTWRITEBYTECODE
logs=$(mktemp -d "${TMPDIR:-/tmp}/mg-fe-unit.XXXXXX") || exit 99
trap 'rm -rf "$logs"' EXIT INT TERM
# the largest files first, so that the last to start are the short ones
# shellcheck disable=SC2012
ls -S "$here"/test_*.py | while read -r f; do basename "$f" .py; done |
    xargs -P "$jobs" -I{} sh -c 'cd "$1" && "$2" -m unittest -v "$3" >"$4/$3.log" 2>&1; echo $? >"$4/$3.rc"' \
        sh "$here" "$py" {} "$logs"
status=0 ran=0 fails=0 errors=0 skipped=0
num() { # NAME -> the count NAME=N of the file's unittest summary, or 0
    v=$(printf '%s\n' "$summary" | sed -n "s/.*$1=\([0-9]*\).*/\1/p")
    echo "${v:-0}"
}
for f in "$here"/test_*.py; do
    m=$(basename "$f" .py)
    cat "$logs/$m.log" 2>/dev/null
    rc=$(cat "$logs/$m.rc" 2>/dev/null) || rc=99
    n=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in .*/\1/p' "$logs/$m.log" 2>/dev/null | tail -n1)
    summary=$(grep -E '^(OK|FAILED)( \(|$)' "$logs/$m.log" 2>/dev/null | tail -n1)
    ran=$((ran + ${n:-0}))
    fails=$((fails + $(num failures)))
    errors=$((errors + $(num errors)))
    skipped=$((skipped + $(num skipped)))
    if [ "$rc" -ne 0 ]; then
        status=1
        # a file that died before its summary counts as one error
        [ -n "$summary" ] || errors=$((errors + 1))
    fi
done
echo "----------------------------------------------------------------------"
echo "Ran $ran tests in $jobs processes"
echo
if [ "$status" -eq 0 ]; then
    [ "$skipped" -gt 0 ] && echo "OK (skipped=$skipped)" || echo "OK"
else
    echo "FAILED (failures=$fails, errors=$errors, skipped=$skipped)"
fi
exit $status
