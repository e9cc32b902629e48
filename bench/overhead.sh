#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Driver overhead check: mpigauge_latency / mpigauge_bw against bench/bare_pt2pt.c,
# the simplest correct MPI code for the same patterns, with each installed MPI.
#
# Targets: latency   mpigauge / bare <= 1.02 at 1 B .. 1 KiB,
#          bandwidth mpigauge / bare >= 0.98 at 64 KiB .. 4 MiB.
#
# Fairness: both programs get the same fixed -i/-x, sizes, window, binding and
# 2 ranks; bare_pt2pt cuts its timed loop into blocks by mpigauge's fixed-mode
# rule, so both medians are over blocks of the same length. A pair is one bare
# and one mpigauge launch back to back, the order alternating pair by pair.
# A round is PAIRS latency pairs (all latency sizes in each launch), then
# PAIRS pairs for each bandwidth size (one size per launch). A round's ratio
# is the median of its pairs' ratios of medians; the printed ratio is the
# median over rounds of the per-round ratio. ci95 is a distribution-free 95%
# interval for the median of all pair ratios.
#
# With -b ROOT the other side is an earlier mpigauge build instead of
# bare_pt2pt (ROOT/openmpi/pt2pt, ROOT/mpich/pt2pt, laid out like _build/):
# the ratios are then new / old, with the same targets, and say whether a
# change to the driver added a cost to the timed loop.
#
# Usage: bench/overhead.sh [-r ROUNDS] [-p PAIRS] [-m "openmpi mpich"] [-b ROOT] [-k]
#   -r N   rounds (default 5)
#   -p N   pairs per round for latency and for each bandwidth size (default 4)
#   -m L   which MPIs (default "openmpi mpich")
#   -b R   compare with the mpigauge build under R instead of bare_pt2pt
#   -k     keep the raw CSV of every launch (the path is printed)
# The bare loops run with the library in the state mpigauge's session leaves
# it (a node communicator made and freed); MG_BARE_PLAIN=1 in the
# environment compares with the loops of a program that never made one.
# Environment:
#   MG_OPENMPI_BINDIR, MG_MPICH_BINDIR: directories holding mpigauge_latency and
#       mpigauge_bw (default $root/_build/openmpi/pt2pt and $root/_build/mpich/pt2pt)
#   LAT_ITERS (100000), LAT_WARMUP (10000): latency -i / -x. 100000 makes the
#       block length 10 iterations or more in both programs (at most 10000 blocks),
#       so that the MPI_Wtime call per block stays below 1% even at 0.15 us
#   BW_BYTES (1073741824): bytes per bandwidth launch; -i = BW_BYTES / (WINDOW x
#       size) clamped to BW_MIN_ITERS (16)..5000, -x = -i / 10 (at least 2)
#   WINDOW (64): -W of the bandwidth test
# Exit status: 0 every size within target, 1 some not, 2 usage error or a
# launch failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rounds=5 pairs=4 mpis="openmpi mpich" keep=0 base=""
while getopts "r:p:m:b:kh" opt; do
    case $opt in
    r) rounds=$OPTARG ;;
    p) pairs=$OPTARG ;;
    m) mpis=$OPTARG ;;
    b) base=$(cd "$OPTARG" && pwd) || exit 2 ;;
    k) keep=1 ;;
    h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) exit 2 ;;
    esac
done
for v in "$rounds" "$pairs"; do
    [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "overhead.sh: -r/-p need a positive integer" >&2; exit 2; }
done

LAT_ITERS=${LAT_ITERS:-100000}
LAT_WARMUP=${LAT_WARMUP:-10000}
BW_BYTES=${BW_BYTES:-1073741824}
WINDOW=${WINDOW:-64}
BW_MIN_ITERS=${BW_MIN_ITERS:-16}
LAT_SIZES="1 8 64 512 1024"
BW_SIZES="65536 262144 1048576 4194304"

if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

bindir() {
    case $1 in
    openmpi) echo "${MG_OPENMPI_BINDIR:-$root/_build/openmpi/pt2pt}" ;;
    mpich) echo "${MG_MPICH_BINDIR:-$root/_build/mpich/pt2pt}" ;;
    esac
}

# launch MPI PROGRAM ARGS...: 2 ranks, one per core, under a timeout. Open MPI
# selects ob1 (with vader) by default here anyway; naming it skips probing the
# other PMLs, which cuts mpirun's start-up from ~0.4 s to ~0.15 s per launch.
launch() {
    local mpi=$1
    shift
    case $mpi in
    openmpi) timeout 300 mpirun.openmpi -np 2 --map-by core --bind-to core --mca pml ob1 "$@" ;;
    mpich) timeout 300 mpiexec.mpich -n 2 -bind-to core "$@" ;;
    esac
}

out=$(mktemp -d "${TMPDIR:-/tmp}/mg-overhead.XXXXXX")
[ $keep = 1 ] || trap 'rm -rf "$out"' EXIT

# Build bare_pt2pt with each MPI's compiler into bench/_build/MPI/ (MPICH's
# mpi.h trips a GCC -Wstringop-overflow false positive on MPI_STATUSES_IGNORE),
# and snapshot the mpigauge binaries so that a rebuild of the tree during the
# run cannot swap them (or make a launch fail) half way.
for mpi in $mpis; do
    case $mpi in openmpi | mpich) ;; *) echo "overhead.sh: unknown MPI '$mpi'" >&2; exit 2 ;; esac
    mkdir -p "$here/_build/$mpi" "$out/mg-$mpi"
    for p in mpigauge_latency mpigauge_bw; do
        [ -x "$(bindir $mpi)/$p" ] || { echo "overhead.sh: no $(bindir $mpi)/$p" >&2; exit 2; }
        cp -p "$(bindir $mpi)/$p" "$out/mg-$mpi/$p"
        echo "$mpi: $(bindir $mpi)/$p ($(date -u -r "$out/mg-$mpi/$p" +%FT%TZ)," \
            "sha256 $(sha256sum "$out/mg-$mpi/$p" | cut -c1-12))" >&2
        [ -n "$base" ] || continue
        mkdir -p "$out/base-$mpi"
        [ -x "$base/$mpi/pt2pt/$p" ] || { echo "overhead.sh: no $base/$mpi/pt2pt/$p" >&2; exit 2; }
        cp -p "$base/$mpi/pt2pt/$p" "$out/base-$mpi/$p"
        echo "$mpi: baseline $base/$mpi/pt2pt/$p" \
            "(sha256 $(sha256sum "$out/base-$mpi/$p" | cut -c1-12))" >&2
    done
    "mpicc.$mpi" -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wno-stringop-overflow \
        -o "$here/_build/$mpi/bare_pt2pt" "$here/bare_pt2pt.c" -lm
done

# run MPI WHO BENCH SIZES ITERS WARMUP TAG -> $out/MPI.WHO.BENCH.FIRSTSIZE.TAG.csv
# SIZES: one size, or a comma list. (mpigauge -m S:S is one size: a plain
# -m S would be the whole power-of-two range up to S.)
run() {
    local mpi=$1 who=$2 bench=$3 sizes=$4 it=$5 wu=$6 f="$out/$1.$2.$3.${4%%,*}.$7.csv" m
    local dir="$out/mg-$mpi"
    case $sizes in *,*) m=$sizes ;; *) m=$sizes:$sizes ;; esac
    [ "$who" = bare ] && [ -n "$base" ] && dir="$out/base-$mpi"
    if [ "$who" = bare ] && [ -z "$base" ]; then
        launch "$mpi" "$here/_build/$mpi/bare_pt2pt" "$bench" "$it" "$wu" "$WINDOW" ${sizes//,/ } >"$f"
    elif [ "$bench" = lat ]; then
        launch "$mpi" "$dir/mpigauge_latency" -m "$m" -i "$it" -x "$wu" --format csv >"$f"
    else
        launch "$mpi" "$dir/mpigauge_bw" -m "$m" -i "$it" -x "$wu" -W "$WINDOW" \
            --format csv >"$f"
    fi || { echo "overhead.sh: $mpi $who $bench $sizes ($7) failed" >&2; exit 2; }
}

# One round: PAIRS pairs of latency launches (all latency sizes in each),
# then PAIRS pairs per bandwidth size (one size per launch: -i depends on it).
start=$SECONDS n=0
for mpi in $mpis; do
    echo "== $mpi: $rounds rounds x $pairs pairs, mpigauge from $(bindir $mpi)" >&2
    for ((r = 1; r <= rounds; r++)); do
        lat=$(echo $LAT_SIZES | tr ' ' ,)
        for t in "lat:$lat" $(printf 'bw:%s ' $BW_SIZES); do
            bench=${t%%:*} s=${t#*:}
            if [ "$bench" = lat ]; then
                it=$LAT_ITERS wu=$LAT_WARMUP
            else
                it=$((BW_BYTES / (WINDOW * s)))
                it=$((it < BW_MIN_ITERS ? BW_MIN_ITERS : it > 5000 ? 5000 : it))
                wu=$((it / 10 < 2 ? 2 : it / 10))
            fi
            for ((p = 1; p <= pairs; p++)); do
                n=$((n + 1))
                if ((n % 2)); then order="bare mg"; else order="mg bare"; fi
                for who in $order; do run "$mpi" "$who" "$bench" "$s" "$it" "$wu" "r$r.p$p"; done
            done
        done
        echo "   round $r done ($((SECONDS - start)) s)" >&2
    done
done
[ $keep = 0 ] || echo "raw CSV kept in $out" >&2

python3 - "$out" "$rounds" "$pairs" "$mpis" "$LAT_ITERS" "$LAT_WARMUP" "$BW_BYTES" "$WINDOW" \
    "${base:+old}" <<'EOF'
import csv, math, statistics as st, sys
out, rounds, pairs, mpis = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split()
lat_it, lat_wu, bw_bytes, window = sys.argv[5:9]
other = sys.argv[9] or "bare"  # the other side's name: bare_pt2pt, or an old mpigauge

def load(mpi, who, bench, size, tag):
    """(median, mean) of SIZE in one launch (latency: all sizes in one file)."""
    first = 1 if bench == "lat" else size
    with open(f"{out}/{mpi}.{who}.{bench}.{first}.{tag}.csv") as fh:
        for row in csv.DictReader(fh):
            if int(row["size_bytes"]) == size:
                return float(row["median"]), float(row["mean"])
    sys.exit(f"overhead.sh: no size {size} in {mpi} {who} {bench} {tag}")

def ci95(x):
    """Distribution-free 95% interval for the median: order statistics (sign test)."""
    x, n = sorted(x), len(x)
    cdf, k = 0.0, 0
    for j in range(n // 2 + 1):  # largest k with P(Binom(n,1/2) < k) <= 2.5%
        cdf += math.comb(n, j) / 2**n
        if cdf > 0.025:
            break
        k = j + 1
    return (x[k - 1], x[n - k]) if k else (x[0], x[-1])

def label(n):
    return f"{n >> 20}M" if n >= 1 << 20 else f"{n >> 10}K" if n >= 1024 else str(n)

tests = [("lat", s, lambda q: q <= 1.02, "<= 1.02") for s in (1, 8, 64, 512, 1024)] + \
        [("bw", s, lambda q: q >= 0.98, ">= 0.98") for s in (65536, 262144, 1048576, 4194304)]
fails = []
for mpi in mpis:
    print(f"\n{mpi}: mpigauge / {other}, {rounds} rounds x {pairs} alternating pairs; "
          f"latency -i {lat_it} -x {lat_wu}; bw {bw_bytes} bytes per launch, -W {window}")
    print(f"{'bench':5} {'size':>4} {other + ' med':>9} {'mg med':>9} {'ratio':>6} "
          f"{'rounds min..max':>15} {'ci95 (pairs)':>13} {'mean ratio':>10} {'target':>7}  result")
    for bench, size, good, target in tests:
        bare, mg, q, qm, rq = [], [], [], [], []
        for r in range(1, rounds + 1):
            qr = []
            for p in range(1, pairs + 1):
                b = load(mpi, "bare", bench, size, f"r{r}.p{p}")
                m = load(mpi, "mg", bench, size, f"r{r}.p{p}")
                bare.append(b[0]); mg.append(m[0])
                qr.append(m[0] / b[0]); qm.append(m[1] / b[1])
            q += qr
            rq.append(st.median(qr))
        ratio, (lo, hi) = st.median(rq), ci95(q)
        ok = good(ratio)
        name = f"{mpi} {bench} {label(size)}"
        if not ok:
            noise = [w for w, (a, z) in (("rounds", (min(rq), max(rq))), ("ci95", (lo, hi)))
                     if a <= 1.0 <= z]
            fails.append(f"{name}: {ratio:.3f}" + (f" ({' and '.join(noise)} include 1.00)"
                                                   if noise else ""))
        print(f"{bench:5} {label(size):>4} {st.median(bare):9.3f} {st.median(mg):9.3f} {ratio:6.3f} "
              f"{min(rq):7.3f}..{max(rq):6.3f} {lo:6.3f}..{hi:5.3f} {st.median(qm):10.3f} "
              f"{target:>7}  {'PASS' if ok else 'FAIL'}")
    print(f"latency: one-way us; bw: MB/s (10^6 bytes/s). {other}/mg med: median over all "
          "launches.\nrounds min..max: range of the per-round ratios. ci95 (pairs): "
          "distribution-free 95% interval for the\nmedian pair ratio; optimistic, as pairs of "
          "one round share the machine's state. mean ratio: as ratio\nwith the mean columns" +
          (" (latency: both whole-loop means; bw: mpigauge's mean of per-sample rates\nvs bare's "
           "whole-loop rate, not like for like)." if other == "bare" else "."))
n = len(mpis) * len(tests)
print(f"\nSUMMARY: {n - len(fails)}/{n} sizes within target "
      f"({rounds} rounds x {pairs} pairs per size and MPI)")
for f in fails:
    print(f"  FAIL {f}")
sys.exit(1 if fails else 0)
EOF
