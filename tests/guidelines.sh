#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `mpigauge guidelines` with the build's MPI (TAP; doc/guidelines.md): every
# rule of mpigauge_guidelines runs on 2 ranks and gets a check (one round:
# each one unclear, none violated); a planted violation (MPI_Allreduce made
# 20 us slower through the self-test's slowing library, bench/libmgslow.so,
# MG_SLOW_CALLS=allreduce) is found as "violated" (10 rounds, 64 B), with a
# ratio three times the one without the plant (which the library itself may
# break, by far less); bad input gets one line and exit 2, its
# results path untouched. Environment as for mpi_cases.sh, and MG_BUILDDIR;
# MG_CASES_SAMPLE (distcheck) runs the bad input only.
set -u
. "$(dirname "$0")/mpi_env.sh"
prog=$(mg_program guidelines)
[ -n "$prog" ] || { echo "1..0 # SKIP mpigauge_guidelines not built"; exit 0; }
fe="$PYTHON $MG_TESTDIR/../frontend/mpigauge.py"
lib=$MG_BUILDDIR/bench/libmgslow.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TAP_DIR=$work
# shellcheck source=tests/tap.sh
. "$MG_TESTDIR/tap.sh"
quick=${MG_CASES_SAMPLE:+1}
said() { # status description file...: ok or not ok by the status
    st=$1 d=$2
    shift 2
    if [ "$st" = 0 ]; then ok "$d"; else notok "$d" "$@"; fi
}
echo "1..3"

# 1. every rule, one round: a check each, none violated (with MPICH, whose
# launches are quick; mpi_cases.txt runs the program under both)
if [ -n "$quick" ] || [ "${MG_MPI_FLAVOR:-}" = openmpi ]; then
    ok "# SKIP every rule: with MPICH, in a whole make check"
else
    $fe guidelines run --bindir "$MG_BUILDDIR" -m 64 --rounds 1 --time-budget 0.005 \
        --timeout 60 -q -o "$work/all.jsonl" --format json >"$work/all.out" 2>"$work/all.err"
    rc=$?
    nrules=$("$prog" --list-rules | wc -l)
    got=$($PYTHON -c 'import json,sys
rows=[json.loads(x) for x in open(sys.argv[1])]
print(len({r["rule"] for r in rows if r["rule"] != "monotony"}), sum(r["verdict"] == "violated" for r in rows))' "$work/all.out" 2>>"$work/all.err")
    [ "$rc" = 0 ] && [ "$got" = "$nrules 0" ]
    said $? "every one of the $nrules rules runs and gets a check (got: ${got:-nothing}, exit $rc)" \
        "$work/all.err"
fi

# 2. a planted violation is found, and only where it is planted
if [ -n "$quick" ]; then
    ok "# SKIP the planted violation: in a whole make check"
else
$fe guidelines run --bindir "$MG_BUILDDIR" --rules allreduce_as_reduce_then_bcast -m 64 \
    --rounds 10 --time-budget 0.01 --timeout 60 -q -o "$work/plant.jsonl" --format json \
    --config "plain LD_PRELOAD=$lib" \
    --config "planted LD_PRELOAD=$lib MG_SLOW_CALLS=allreduce MG_SLOW_CALL_NS=20000 MG_SLOW_RANKS=all" \
    >"$work/plant.out" 2>"$work/plant.err"
rc=$?
$PYTHON - "$work/plant.out" "$rc" >"$work/plant.said" 2>>"$work/plant.err" <<'EOF'
import json, sys
rows = [json.loads(x) for x in open(sys.argv[1])]
rows = {(r["config"], r["size"]): r for r in rows if r["rule"] != "monotony"}
got = {k: r["verdict"] for k, r in rows.items()}
print(" ".join(f"{c}:{s}:{v}" for (c, s), v in sorted(got.items())))
# the library may break the rule by itself (plain), but by far less than the plant
ok = sys.argv[2] == "0" and got.get(("planted", 64)) == "violated" \
    and rows[("planted", 64)]["ratio"] > 3 * rows[("plain", 64)]["ratio"]
sys.exit(0 if ok else 1)
EOF
st=$?
got=$(cat "$work/plant.said")
said $st "Allreduce slowed by 20 us: violated at 64 B, 3x the plain ratio (got: $got)" \
    "$work/plant.err"
fi

# 3. bad input: one line, exit 2, the results path left as it was
echo mine >"$work/mine.jsonl"
$fe guidelines run --bindir "$MG_BUILDDIR" -n 1 -o "$work/x.jsonl" >"$work/b1.out" 2>"$work/b1.err"
r1=$?
$fe guidelines run --bindir "$MG_BUILDDIR" --rules nothing_as_this -o "$work/x.jsonl" \
    >"$work/b2.out" 2>"$work/b2.err"
r2=$?
$fe guidelines run --bindir "$MG_BUILDDIR" --rules gather_as_gatherv -m 64 --rounds 1 \
    -o "$work/mine.jsonl" >"$work/b3.out" 2>"$work/b3.err"
r3=$?
[ "$r1$r2$r3" = 222 ] && [ "$(cat "$work/mine.jsonl")" = mine ] && [ ! -e "$work/x.jsonl" ] &&
    [ "$(wc -l <"$work/b1.err")" = 1 ] && [ "$(wc -l <"$work/b2.err")" = 1 ]
said $? "bad rank count, unknown rule, an existing results file: exit 2, one line (got $r1 $r2 $r3)" \
    "$work/b1.err" "$work/b2.err" "$work/b3.err"
