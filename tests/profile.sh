#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `mpigauge profile` with the build's MPI (TAP): the profile of a program
# whose call mix is known exactly (tests/profile/profile_mix.c) has exactly
# its counts and bytes on both ranks (tests/profile/profile_mix.expected);
# a command without an MPI program, a program of the other ABI family and
# a program that never reaches MPI_Finalize are refused or said, with
# nothing written; `mpigauge app` runs the program under configurations in
# rounds, keeps the results of those that work and says why one failed. Environment as for mpi_cases.sh; MG_BUILDDIR the build.
set -u
. "$(dirname "$0")/mpi_env.sh"
mix=$MG_BUILDDIR/tests/profile/profile_mix
fe="$PYTHON $MG_TESTDIR/../frontend/mpigauge.py"
[ -x "$mix" ] && [ -f "$MG_BUILDDIR/profile/libmgprofile.so" ] ||
    { echo "1..0 # SKIP profile_mix or libmgprofile.so not built (make check builds them)"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "1..6"
launch="timeout -k 10 120 $MPIEXEC $MPIEXEC_FLAGS -n 2"

# 1: the exact counts and bytes of every call, on both ranks
# shellcheck disable=SC2086
$fe profile --bindir "$MG_BUILDDIR" -o "$work/p.jsonl" -q -- $launch "$mix" >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -eq 0 ] && "$PYTHON" - "$work/p.jsonl" "$MG_TESTDIR/profile/profile_mix.expected" \
    "$MG_MPI_FLAVOR" <<'PY' 2>>"$work/err"; then
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
head = recs[0]
assert head["type"] == "profile" and head["nranks"] == 2 and head["ranks_written"] == [0, 1], head
assert head["family"] == {"openmpi": "openmpi", "mpich": "mpich"}[sys.argv[3]], head["family"]
assert head["exit_code"] == 0 and len(head["hosts"]) == 2, head
want = {}
for line in open(sys.argv[2]):
    if line.strip() and not line.startswith("#"):
        rank, call, cls, comm, count, nbytes, dtype = line.split()
        want.setdefault(int(rank), set()).add((call, int(cls), int(comm), int(count), int(nbytes),
                                               None if dtype == "-" else dtype))
for r in (x for x in recs if x["type"] == "profile_rank"):
    got = {(c["call"], c["size_class"], c["comm_size"], c["count"], c["bytes"], c.get("datatype"))
           for c in r["calls"]}
    assert got == want[r["rank"]], (r["rank"], sorted(got ^ want[r["rank"]]))
    assert r["dropped"] == 0 and 0 < sum(c["seconds"] for c in r["calls"]) <= r["run_s"], r
calls = [x for x in recs if x["type"] == "profile_call"]
ar = [c for c in calls if c["call"] == "MPI_Allreduce" and c["comm_size"] == 2]
assert len(ar) == 1 and ar[0]["count"] == 14 and ar[0]["ranks"] == 2, ar
PY
    ok=1
else ok=0; fi
if [ $ok = 1 ]; then echo "ok 1 - $MG_MPI_FLAVOR: the profile of profile_mix has exactly its calls, sizes and bytes on both ranks"
else echo "not ok 1 - $MG_MPI_FLAVOR: profile of profile_mix (exit $rc)"; sed 's/^/# /' "$work/err" | tail -n 20; fi

# 2: a command with no MPI program: refused before it runs, nothing written
# shellcheck disable=SC2086
$fe profile --bindir "$MG_BUILDDIR" -o "$work/n.jsonl" -- $launch /bin/true >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "no MPI program in the command" "$work/err" && [ ! -e "$work/n.jsonl" ]; then
    echo "ok 2 - a command without an MPI program: exit 2, one line, nothing written"
else echo "not ok 2 - a command without an MPI program (exit $rc)"; sed 's/^/# /' "$work/err"; fi

# 3: a program of the other ABI family: refused, naming both
case $MG_MPI_FLAVOR in openmpi) other=mpicc.mpich ;; *) other=mpicc.openmpi ;; esac
if command -v "$other" >/dev/null 2>&1 &&
    "$other" -o "$work/other_mix" "$MG_TESTDIR/profile/profile_mix.c" 2>/dev/null; then
    # shellcheck disable=SC2086
    $fe profile --bindir "$MG_BUILDDIR" -o "$work/o.jsonl" -- $launch "$work/other_mix" \
        >"$work/out" 2>"$work/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "MPI library; the profiler .* was built for" "$work/err" &&
        [ ! -e "$work/o.jsonl" ]; then
        echo "ok 3 - a program of the other ABI family: exit 2, both families named"
    else echo "not ok 3 - a program of the other ABI family (exit $rc)"; sed 's/^/# /' "$work/err"; fi
else
    echo "ok 3 # SKIP no $other to build a program of the other family"
fi

# 4: a program that exits before MPI_Finalize: no profile, said, exit 1
# shellcheck disable=SC2086
$fe profile --bindir "$MG_BUILDDIR" -o "$work/e.jsonl" --timeout 60 -- $launch env MG_PROFILE_MIX_EXIT=1 "$mix" \
    >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "no rank wrote a profile" "$work/err" && [ ! -e "$work/e.jsonl" ]; then
    echo "ok 4 - a program that ends before MPI_Finalize: exit 1, said, nothing written"
else echo "not ok 4 - a program that ends before MPI_Finalize (exit $rc)"; sed 's/^/# /' "$work/err"; fi

# 5: mpigauge app: two configurations and one whose launches fail, in rounds
# shellcheck disable=SC2086
$fe app -o "$work/app.jsonl" -K 3 --config a --config "b MG_UNUSED=1" \
    --config "c MG_PROFILE_MIX_EXIT=1" --figure 're:^profile_mix: ([0-9]+) ranks:ranks' \
    -- $launch "$mix" >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "3 of 9 launches gave no figure" "$work/err" &&
    grep -q "^profile_mix  0     ranks" "$work/out" && "$PYTHON" - "$work/app.jsonl" <<'PY'; then
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
launches = [r for r in recs if r["type"] == "launch"]
assert sorted((r["config"], r["round"]) for r in launches) == \
    sorted((c, k) for c in "abc" for k in (1, 2, 3)), launches
assert all(r["status"] == ("failed" if r["config"] == "c" else "ok") for r in launches), launches
assert all(r["message"] == "exit 3" for r in launches if r["config"] == "c"), launches
res = [r for r in recs if r["type"] == "result"]
assert len(res) == 6 and {r["median"] for r in res} == {2.0}, res
PY
    echo "ok 5 - mpigauge app: 3 rounds of 3 configurations, the failing one said (exit 3), the others compared"
else echo "not ok 5 - mpigauge app (exit $rc)"; sed 's/^/# /' "$work/err" | tail -n 20; sed 's/^/# /' "$work/out"; fi

# 6: a program that hangs after MPI_Finalize (as MPICH 4.0.2 with UCX can):
# stopped at --timeout, its ranks' profiles kept, exit 1
# shellcheck disable=SC2086
$fe profile --bindir "$MG_BUILDDIR" -o "$work/h.jsonl" -q --timeout 10 -- $launch \
    env MG_PROFILE_MIX_HANG=1 "$mix" >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "ran longer than --timeout 10 s and was stopped" "$work/err" &&
    "$PYTHON" -c 'import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]["exit_code"] == 124 and recs[0]["ranks_written"] == [0, 1], recs[0]
assert sum(r["type"] == "profile_rank" for r in recs) == 2' "$work/h.jsonl" 2>>"$work/err"; then
    echo "ok 6 - a program that hangs after MPI_Finalize: stopped at --timeout, both ranks' profiles kept"
else echo "not ok 6 - a program that hangs after MPI_Finalize (exit $rc)"; sed 's/^/# /' "$work/err" | tail -n 10; fi
