#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The OSU drop-in with the build's MPI (TAP; doc/osu.md): the build's osu/
# folder has a link for every name `--osu-names` gives whose program was
# built; ReFrame's stock options (-m SIZE -x 10 -c, D D on point-to-point)
# under osu_latency, osu_bw, osu_allreduce and osu_alltoall give output
# that the parsers of OSU pipelines (tests/osu_parse.py) read exactly as
# they read OSU 7.4's own (tests/fixtures/osu/, both libraries: same title,
# same sizes, Pass on every row); D D is taken as host memory with one
# warning line; OSU's exit codes (1 for a usage error and for a wrong rank
# count, 0 for -h); the non-blocking, persistent and barrier forms print
# OSU's columns; osu_init and osu_hello print OSU's lines; every name runs
# with OSU's default sizes and element; -T mpi_int|mpi_float|mpi_char is the
# element OSU's way. Environment as for mpi_cases.sh, and MG_BUILDDIR.
set -u
. "$(dirname "$0")/mpi_env.sh"
osu=${MG_BUILDDIR:-.}/osu
[ -f "$osu/links.stamp" ] || { echo "1..0 # SKIP no osu/ folder (make all)"; exit 0; }
fx=$MG_TESTDIR/fixtures/osu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "1..16"
TAP_DIR=$work
# shellcheck source=tests/tap.sh
. "$MG_TESTDIR/tap.sh"
run() { # out err ranks osu_NAME ARGS...
    o=$1 e=$2 np=$3
    shift 3
    # shellcheck disable=SC2086
    timeout -k 10 180 "$MPIEXEC" $MPIEXEC_FLAGS -n "$np" "$osu/$@" >"$o" 2>"$e"
}

# 1: a link per name whose program was built, each to that program
missing=""
while read -r name prog; do
    [ -L "$osu/$name" ] && [ -x "$osu/$name" ] || missing="$missing $name"
    case $(readlink "$osu/$name") in */"$prog") ;; *) missing="$missing $name->$prog" ;; esac
done <"$osu/links.stamp"
count=$(wc -l <"$osu/links.stamp")
listed=$("$osu/osu_latency" --osu-names | wc -l)
# (a library without persistent collectives, MPI 3.1, has 14 fewer)
if [ -z "$missing" ] && [ "$count" -ge $((listed - 14)) ] && [ "$count" -le "$listed" ]; then
    ok "osu/: $count links of the $listed names, each to its program"
else
    notok "osu/ links ($count of $listed):$missing"
fi

# 2-5: the stock ReFrame check's options, read as OSU's own output is
for spec in "latency 8 D D" "bw 4194304 D D" "allreduce 8" "alltoall 8"; do
    set -- $spec
    name=$1 size=$2
    shift 2
    iters=1000
    [ "$name" = bw ] && iters=20 # the full check (-i 1000) runs in tests/reframe/
    run "$work/$name.out" "$work/$name.err" 2 "osu_$name" -m "$size" -x 10 -i $iters -c "$@"
    rc=$?
    why=""
    [ $rc -eq 0 ] || why="exit $rc"
    for mpi in mpich openmpi; do
        [ -n "$why" ] && break
        "$PYTHON" "$MG_TESTDIR/osu_parse.py" compare "$fx/osu74-$mpi-$name.txt" "$work/$name.out" \
            "$size" >"$work/$name.cmp" 2>&1 || why="against OSU 7.4 with $mpi: $(head -n 3 "$work/$name.cmp")"
    done
    if [ $# -gt 0 ] && [ -z "$why" ]; then
        lines=$(grep -c . "$work/$name.err")
        grep -q "buffer locations 'D D' taken as host memory" "$work/$name.err" && [ "$lines" -eq 1 ] ||
            why="D D: $lines lines on stderr, not the one warning"
    fi
    if [ -z "$why" ]; then
        ok "osu_$name -m $size -x 10 -i $iters -c $*: read as OSU 7.4's own ($(cat "$work/$name.cmp"))"
    else
        notok "osu_$name: $why" "$work/$name.err"
    fi
done

# 6: the parsers tell OSU's tables apart (latency is not allreduce)
if ! "$PYTHON" "$MG_TESTDIR/osu_parse.py" compare "$fx/osu74-mpich-latency.txt" \
    "$fx/osu74-mpich-allreduce.txt" 8 >/dev/null 2>&1; then
    ok "the comparison fails for two different benchmarks"
else
    notok "osu_parse.py compare took a latency table for an allreduce one"
fi

# 7: OSU's exit codes: a usage error and a wrong rank count 1, -h 0
run "$work/u.out" "$work/u.err" 2 osu_latency -G png
u=$?
run "$work/r.out" "$work/r.err" 3 osu_latency -m 8 -i 10
r=$?
run "$work/h.out" "$work/h.err" 2 osu_latency -h
h=$?
# mpigauge's -o FILE under the OSU name, as doc/osu.md says
run "$work/o.out" "$work/o.err" 2 osu_latency -m 8 -i 10 -x 2 -o "$work/o.jsonl"
o=$?
# (one message from mpigauge, naming the OSU program; Open MPI's mpirun
# adds its own about the exit)
if [ $u -eq 1 ] && [ "$(grep -c "error:" "$work/u.err")" -eq 1 ] && [ $r -eq 1 ] && [ $h -eq 0 ] &&
    grep -q "^mpigauge_latency: error: osu_latency: graphs (-G)" "$work/u.err" &&
    [ $o -eq 0 ] && grep -q '"type":"result"' "$work/o.jsonl" &&
    grep -q "^Usage: mpirun -n 2 osu_latency " "$work/h.out" &&
    grep -q "^Exit codes (as the OSU Micro-Benchmarks'): 0 ok, 1 any failure" "$work/h.out" &&
    ! grep -q "not applicable\|internal error" "$work/h.out"; then
    ok "exit codes: -G refused (1, one line naming osu_latency), 3 ranks for a pair (1), -h (0) says OSU's codes only; -o FILE written"
else
    notok "exit codes: -G $u, 3 ranks $r, -h $h, -o $o" "$work/u.err" "$work/r.err" "$work/o.err"
fi

# 8: non-blocking: the overlap phase with Compute, Pure Comm. and Overlap
run "$work/nb.out" "$work/nb.err" 2 osu_iallreduce -m 8 -i 50 -c
rc=$?
if [ $rc -eq 0 ] && grep -q "Overall(us) *Compute(us) *Pure Comm.(us) *Overlap(%) *Validation" "$work/nb.out" &&
    [ "$("$PYTHON" -c 'import sys; sys.path.insert(0, sys.argv[1]); import osu_parse as p
r = p.rows(open(sys.argv[2]).read()); print(" ".join(str(s) for s, _, rest in r if len(rest) == 4))' \
        "$MG_TESTDIR" "$work/nb.out")" = "1 2 4 8" ]; then
    ok "osu_iallreduce: one row per size, OSU's five columns and Pass"
else
    notok "osu_iallreduce (exit $rc)" "$work/nb.out" "$work/nb.err"
fi

# 9: persistent (the pure phase only; where the library has them) and the
# barrier (no size) with -f
p=0
printf '#\n1 0 x\n2 0 x\n4 0 x\n' >"$work/p.out" # without persistent collectives
if [ -e "$osu/osu_allreduce_persistent" ]; then
    run "$work/p.out" "$work/p.err" 2 osu_allreduce_persistent -m 4 -i 50 -f
    p=$?
fi
run "$work/b.out" "$work/b.err" 2 osu_barrier -i 50 -f
b=$?
prows=$(grep -Evc '^#|^$' "$work/p.out")
if [ $p -eq 0 ] && [ $b -eq 0 ] && [ "$prows" -eq 3 ] &&
    grep -q "^# Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations$" "$work/b.out" &&
    [ "$(grep -Ev '^#|^$' "$work/b.out" | awk '{print NF, $4}')" = "4 50" ]; then
    ok "osu_allreduce_persistent: 3 rows (1, 2, 4 bytes); osu_barrier -f: Min, Max, Iterations"
else
    notok "persistent ($p, $prows rows) and barrier ($b)" "$work/p.out" "$work/p.err" "$work/b.out" "$work/b.err"
fi

# 10: osu_init's and osu_hello's lines; osu_latency_persistent's table
run "$work/i.out" "$work/i.err" 2 osu_init
i=$?
run "$work/hl.out" "$work/hl.err" 2 osu_hello
hl=$?
run "$work/lp.out" "$work/lp.err" 2 osu_latency_persistent -m 4 -i 100
lp=$?
if [ $i -eq 0 ] && [ $hl -eq 0 ] && [ $lp -eq 0 ] &&
    grep -Eq "^nprocs: 2, min: [0-9]+ ms, max: [0-9]+ ms, avg: [0-9]+ ms$" "$work/i.out" &&
    grep -q "^This is a test with 2 processes$" "$work/hl.out" &&
    [ "$(grep -Ev '^#|^$' "$work/lp.out" | awk '{print $1}' | tr '\n' ' ')" = "1 2 4 " ]; then
    ok "osu_init: $(grep '^nprocs' "$work/i.out"); osu_hello; osu_latency_persistent: the persistent rows"
else
    notok "osu_init ($i), osu_hello ($hl), osu_latency_persistent ($lp)" "$work/i.out" "$work/hl.out" "$work/lp.out" "$work/lp.err"
fi

# 11: every name of the folder with OSU's defaults (sizes, element type)
# and few iterations: one table with rows, exit 0. The fan names need two
# nodes: on one, a usage error (1) that says so.
bad=""
names=0
while read -r name _; do
    names=$((names + 1))
    case $name in
        osu_init | osu_hello) set -- ;;
        *) set -- -i 5 -x 1 -m 8 ;; # the smallest size: OSU's default
    esac
    run "$work/all.out" "$work/all.err" 2 "$name" "$@" </dev/null
    rc=$?
    case $name in
        osu_bw_fan_in | osu_bw_fan_out)
            [ $rc -eq 1 ] && grep -q "needs two or more nodes" "$work/all.err" || bad="$bad $name:$rc" ;;
        osu_init | osu_hello) [ $rc -eq 0 ] && [ -s "$work/all.out" ] || bad="$bad $name:$rc" ;;
        *) [ $rc -eq 0 ] && grep -q '^# OSU' "$work/all.out" && grep -q '^ *[0-9]' "$work/all.out" ||
            bad="$bad $name:$rc($(grep -m1 error: "$work/all.err"))" ;;
    esac
done <"$osu/links.stamp"
if [ -z "$bad" ]; then
    ok "all $names names with OSU's defaults: a table each (the fan names: two nodes needed)"
else
    notok "names that fail with OSU's defaults:$bad"
fi

# 12: -T mpi_int|mpi_float|mpi_char: the element of the collectives and the
# accumulates, the typed rows of latency; sizes below one element skipped;
# -T all and -T on a program without types refused (1)
run "$work/ti.out" "$work/ti.err" 2 osu_allreduce -m 1:16 -i 20 -x 1 -T mpi_int -c
t1=$?
run "$work/tf.out" "$work/tf.err" 2 osu_latency -m 1:8 -i 20 -x 1 -T MPI_FLOAT
t2=$?
run "$work/ta.out" "$work/ta.err" 2 osu_acc_latency -m 1:2 -i 20 -x 1 -c
t3=$?
run "$work/tp.out" "$work/tp.err" 2 osu_fop_latency -i 20 -x 1 -T mpi_int -m 64
t4=$?
run "$work/tx.out" "$work/tx.err" 2 osu_allreduce -T all
t5=$?
run "$work/ty.out" "$work/ty.err" 2 osu_put_latency -T mpi_int
t6=$?
rows() { grep -Ev '^#|^$' "$1" | awk '{printf "%s%s ", $1, (NF > 2 ? ":" $NF : "")}'; }
if [ $t1 -eq 0 ] && grep -q '^# Datatype: MPI_INT.$' "$work/ti.out" &&
    [ "$(rows "$work/ti.out")" = "4:Pass 8:Pass 16:Pass " ] &&
    [ $t2 -eq 0 ] && grep -q '^# Datatype: MPI_FLOAT.$' "$work/tf.out" && [ "$(rows "$work/tf.out")" = "4 8 " ] &&
    [ $t3 -eq 0 ] && grep -q '^# Datatype: MPI_CHAR.$' "$work/ta.out" && [ "$(rows "$work/ta.out")" = "1:Pass 2:Pass " ] &&
    [ $t4 -eq 0 ] && [ "$(rows "$work/tp.out")" = "4 " ] &&
    [ $t5 -eq 1 ] && grep -q "launch once per type" "$work/tx.err" &&
    [ $t6 -eq 1 ] && grep -q "datatypes (-T): not taken" "$work/ty.err"; then
    ok "-T: osu_allreduce MPI_INT 4..16 Pass, osu_latency MPI_FLOAT rows only, osu_acc_latency MPI_CHAR by default, osu_fop_latency one row; -T all and put's -T refused"
else
    notok "-T ($t1 $t2 $t3 $t4 $t5 $t6)" "$work/ti.out" "$work/tf.out" "$work/tf.err" "$work/ta.out" "$work/ta.err" "$work/tp.out" "$work/tx.err" "$work/ty.err"
fi

# 13: -D cont|vect:STRIDE:BLOCK: OSU's sizes, the bytes each carries in the
# Transmit Size column, Pass; indx:FILE and -D where mpigauge has none refused
run "$work/dc.out" "$work/dc.err" 2 osu_latency -D cont -m 8:16 -i 20 -x 1 -c
d1=$?
run "$work/dv.out" "$work/dv.err" 2 osu_bw -D vect:8:4 -m 4:32 -i 5 -x 1 -c
d2=$?
run "$work/da.out" "$work/da.err" 2 osu_alltoall --ddt vect:4:2 -m 8 -i 10 -x 1 -c
d3=$?
run "$work/dx.out" "$work/dx.err" 2 osu_latency -D indx:"$work/none"
d4=$?
run "$work/dr.out" "$work/dr.err" 2 osu_allreduce -D cont
d5=$?
# size:figure-present:validation:transmit, one per row
drows() { grep -Ev '^#|^$' "$1" | awk '{printf "%s:%s:%s ", $1, $(NF - 1), $NF}'; }
if [ $d1 -eq 0 ] && grep -q 'Validation *Transmit Size$' "$work/dc.out" &&
    [ "$(drows "$work/dc.out")" = "8:Pass:8 16:Pass:16 " ] &&
    [ $d2 -eq 0 ] && [ "$(drows "$work/dv.out")" = "8:Pass:4 16:Pass:8 32:Pass:16 " ] &&
    [ $d3 -eq 0 ] && [ "$(drows "$work/da.out")" = "4:Pass:2 8:Pass:4 " ] &&
    [ $d4 -eq 1 ] && grep -q "indexed layouts read from a file" "$work/dx.err" &&
    [ $d5 -eq 1 ] && grep -q "derived datatypes (-D): under the OSU names" "$work/dr.err"; then
    ok "-D: osu_latency cont 8, 16; osu_bw vect:8:4 8, 16, 32 carrying 4, 8, 16; osu_alltoall vect:4:2; all Pass; indx and allreduce refused (1)"
else
    notok "-D ($d1 $d2 $d3 $d4 $d5)" "$work/dc.out" "$work/dc.err" "$work/dv.out" "$work/dv.err" "$work/da.out" "$work/da.err" "$work/dx.err" "$work/dr.err"
fi

# 14: -z: OSU's tail columns after Validation (P50, P90, P99 by default;
# MB/s for bandwidth), one value each, the P50 the median
run "$work/z1.out" "$work/z1.err" 2 osu_latency -m 8:16 -i 2000 -x 10 -z
z1=$?
run "$work/z2.out" "$work/z2.err" 2 osu_bw -m 8:8 -i 20 -x 2 -z50,99 -c
z2=$?
# fields per row, and whether the P50 column is the figure
zrows() { grep -Ev '^#|^$' "$1" | awk -v c="$2" '{printf "%s:%d:%s ", $1, NF, ($2 == $c ? "p50" : "?")}'; }
if [ $z1 -eq 0 ] && grep -q '^# Size       Avg Latency(us)  P50 Tail Lat(us)  P90 Tail Lat(us)  P99 Tail Lat(us)$' "$work/z1.out" &&
    [ "$(zrows "$work/z1.out" 3)" = "8:5:p50 16:5:p50 " ] &&
    [ $z2 -eq 0 ] && grep -q '        Validation P50 Tail BW(MB/s) P99 Tail BW(MB/s)$' "$work/z2.out" &&
    [ "$(zrows "$work/z2.out" 4)" = "8:5:p50 " ]; then
    ok "-z: osu_latency P50, P90, P99 Tail Lat(us); osu_bw -z50,99 -c: Tail BW(MB/s) after Validation; P50 the median"
else
    notok "-z ($z1 $z2)" "$work/z1.out" "$work/z1.err" "$work/z2.out" "$work/z2.err"
fi

# 15: bad values OSU refuses are refused (exit 1, one line, nothing run):
# counts past OSU's int, -m on the sizeless names, -D names that only start
# like cont / vect / indx
bad=""
for args in "osu_latency -x 2147483648" "osu_latency -i 99999999999999999999" \
    "osu_barrier -m bad" "osu_fop_latency -m bad" "osu_cas_latency -m 1:x" \
    "osu_latency -D contxyz" "osu_bw -D vectfoo:8:4" "osu_latency -D indxfoo"; do
    # shellcheck disable=SC2086
    run "$work/b.out" "$work/b.err" 2 $args
    rc=$?
    { [ $rc -eq 1 ] && [ "$(grep -c "error:" "$work/b.err")" -eq 1 ] && [ ! -s "$work/b.out" ]; } ||
        bad="$bad [$args: exit $rc]"
done
if [ -z "$bad" ]; then
    ok "bad values refused as OSU refuses them: -x/-i past int, -m on osu_barrier/fop/cas, -D contxyz, vectfoo, indxfoo"
else
    notok "bad values:$bad" "$work/b.err"
fi

# 16: OSU 7.4's headers character for character and its rows' shapes
# (tests/osu_headers.py, fixture recorded from OSU 7.4 built here): every
# case with MPICH (its launches are quick), one name per header kind with
# the other libraries (the headers are the library's only where a name is
# missing)
case ${MG_MPI_FLAVOR:-} in mpich) hmode=--all ;; *) hmode=--kinds ;; esac
# shellcheck disable=SC2086
if "$PYTHON" "$MG_TESTDIR/osu_headers.py" check "$osu" "$fx/headers74.txt" $hmode \
    timeout -k 10 120 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 >"$work/h.out" 2>"$work/h.err"; then
    ok "OSU 7.4's headers, character for character: $(grep -c '^ok' "$work/h.out") cases ($(grep -c 'SKIP' "$work/h.out") skipped)"
else
    notok "OSU 7.4's headers" "$work/h.out" "$work/h.err"
fi
