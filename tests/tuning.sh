#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Tuning files with the build's MPI (TAP; doc/tuning.md): a small real sweep
# (allreduce on 2 ranks, the library's own choice against two forced
# algorithms) gives, through `mpigauge best --export`, a file the library
# loads: its allreduce runs and validates under it; the same file with its
# algorithm replaced by one the library lacks makes the allreduce fail, so
# the library reads this very file; and a confirming `mpigauge run` with
# `tuning=FILE` runs default and tuned, interleaved, and records the file.
# Environment as for mpi_cases.sh, and MG_BUILDDIR.
set -u
. "$(dirname "$0")/mpi_env.sh"
prog=$(mg_program allreduce)
[ -n "$prog" ] || { echo "1..0 # SKIP mpigauge_allreduce not built"; exit 0; }
fe="$PYTHON $MG_TESTDIR/../frontend/mpigauge.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TAP_DIR=$work
# shellcheck source=tests/tap.sh
. "$MG_TESTDIR/tap.sh"
echo "1..4"
case $MG_MPI_FLAVOR in
openmpi)
    kind=ompi-rules
    a1=recursive_doubling a2=ring
    var=OMPI_MCA_coll_tuned_allreduce_algorithm
    extra="env = { OMPI_MCA_coll_tuned_use_dynamic_rules = \"1\" }"
    ;;
*)
    kind=mpich-json
    a1=recursive_doubling a2=reduce_scatter_allgather
    var=MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM
    extra=""
    ;;
esac
cat >"$work/sweep.toml" <<EOF
[defaults]
bindir = "$MG_BUILDDIR"
[[config]]
label = "default"
[[sweep]]
label = "alg-{value}"
var = "$var"
values = ["$a1", "$a2"]
$extra
EOF
echo "allreduce -m 8,64K --time-budget 0.01" >"$work/suite.txt"
flags="-q --suite $work/suite.txt -n 2 --interleave launches --timeout 120"

# 1: the sweep and its export: every size of allreduce in the file
# shellcheck disable=SC2086
$fe run $flags --configs "$work/sweep.toml" --rounds 2 -o "$work/sweep.jsonl" \
    >"$work/run.out" 2>&1 &&
    $fe best "$work/sweep.jsonl" --export $kind "$work/tuned" >"$work/export.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && "$PYTHON" - "$work/tuned" $kind <<'PY'; then
import json, sys
path, kind = sys.argv[1:]
if kind == "ompi-rules":
    nums = [int(w) for l in open(path) for w in l.split("#")[0].split()]
    # 1 collective, allreduce (2), 1 rank count: 2 ranks, then its sizes
    assert nums[:4] == [1, 2, 1, 2], nums
    n = nums[4]
    assert len(nums) == 5 + 4 * n and nums[5] == 0, nums
    assert all(a in (0, 3, 4) for a in nums[6::4]), nums
else:
    tree = json.load(open(path))
    intra = tree["collective=allreduce"]["comm_type=intra"]["comm_size=any"]
    assert list(intra)[-1] == "avg_msg_size=any", intra
    assert "collective=barrier" in tree and "collective=bcast" in tree, list(tree)
PY
    ok "sweep exported: $(grep -c . "$work/tuned") lines of $kind"
else
    notok "sweep and export (exit $rc)" "$work/run.out" "$work/export.out"
fi

# the environment that loads a file
load() {
    if [ $kind = ompi-rules ]; then
        printf -- '-x OMPI_MCA_coll_tuned_use_dynamic_rules=1 -x OMPI_MCA_coll_tuned_dynamic_rules_filename=%s' "$1"
    else
        printf -- '-genv MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE %s' "$1"
    fi
}

# 2: the library runs and validates allreduce under the file
# shellcheck disable=SC2046,SC2086
timeout -k 10 120 "$MPIEXEC" $MPIEXEC_FLAGS $(load "$work/tuned") -n 2 "$prog" -m 8,64K -i 20 -c \
    >"$work/ok.out" 2>"$work/ok.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c ' Pass\( \|$\)' "$work/ok.out")" -eq 2 ]; then
    ok "allreduce under the exported file: exit 0, both sizes Pass"
else
    notok "allreduce under the file (exit $rc)" "$work/ok.out" "$work/ok.err"
fi

# 3: an algorithm the library lacks in the same file: the allreduce fails
if [ $kind = ompi-rules ]; then
    sed 's/^\(0\|65536\) [0-9]* /\1 99 /' "$work/tuned" >"$work/bad"
else
    sed 's/MPIR_Allreduce_intra_[a-z_]*/MPIR_Allreduce_intra_none_such/' "$work/tuned" >"$work/bad"
fi
# shellcheck disable=SC2046,SC2086
timeout -k 10 120 "$MPIEXEC" $MPIEXEC_FLAGS $(load "$work/bad") -n 2 "$prog" -m 8,64K -i 20 -c \
    >"$work/bad.out" 2>"$work/bad.err"
rc=$?
if ! cmp -s "$work/tuned" "$work/bad" && [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ]; then
    ok "an unknown algorithm in the file makes the allreduce fail (exit $rc): the library reads it"
else
    notok "the library did not fail on an unknown algorithm (exit $rc)" "$work/bad.err"
fi

# 4: the confirming run: default and tuned=FILE, interleaved, the file recorded
# shellcheck disable=SC2086
$fe run $flags --config "default bindir=$MG_BUILDDIR" \
    --config "tuned bindir=$MG_BUILDDIR tuning=$work/tuned" --rounds 1 -o "$work/confirm.jsonl" \
    >"$work/confirm.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && "$PYTHON" - "$work/confirm.jsonl" "$work/tuned" <<'PY'; then
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
sess = [r for r in recs if r["type"] == "session"][0]
tuned = [c for c in sess["configs"] if c["label"] == "tuned"][0]
assert tuned["tuning"] == sys.argv[2], tuned
launches = {r["config"]: r["status"] for r in recs if r["type"] == "launch"}
assert launches == {"default": "ok", "tuned": "ok"}, launches
PY
    ok "confirming run: default and tuned launches ok, the file in the session record"
else
    notok "confirming run (exit $rc)" "$work/confirm.out"
fi
