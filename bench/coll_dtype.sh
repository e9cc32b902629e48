#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# What a derived datatype costs a collective on this machine
# (doc/collectives.md, "Derived datatypes"): bcast, gather, alltoall and
# neighbor_alltoall at 2 ranks with -D vector:4:8, indexed and resized of
# doubles, under Debian's Open MPI 4.1.4 and MPICH 4.0.2 and the newer
# releases that are built (scripts/build.sh openmpi-5.0.11 / mpich-5.0.2),
# every library's launches interleaved in randomized rounds by `mpigauge
# run`. Within a launch each size measures the plain doubles and the layout
# one after the other, so the ratio is taken in one regime; the table gives
# per library, collective, layout and size the median over launches (range)
# of the plain call in us and of ratio_to_plain.
#   bench/coll_dtype.sh [ROUNDS]      (default 5)
set -eu
. "$(dirname "$0")/run_env.sh"
for op in bcast gather alltoall neighbor_alltoall; do
    for l in vector:4:8 indexed resized; do
        echo "ranks=2 $op -T double -D $l -m 1K,64K,1M --time-budget 0.1"
    done
done >"$work/suite.txt"
set --
for b in openmpi mpich openmpi-5.0.11 mpich-5.0.2; do
    [ -x "$root/_build/$b/collective/mpigauge_coll" ] && set -- "$@" --config "$b bindir=$root/_build/$b"
done
"$fe" run -q --suite "$work/suite.txt" "$@" --rounds "$rounds" --interleave launches \
    -o "$work/d.jsonl" >&2 || true
python3 - "$work/d.jsonl" <<'PY'
import json, statistics, sys
from collections import defaultdict

def cell(v, d=2):
    return f"{statistics.median(v):.{d}f} ({min(v):.{d}f}-{max(v):.{d}f})" if v else "-"

plain, ratio = defaultdict(list), defaultdict(list)
cur, libs = None, []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "run":
        cur = (r.get("config") or "openmpi", r["benchmark"], r["options"]["benchmark"]["layout"])
        if cur[0] not in libs:
            libs.append(cur[0])
    elif r["type"] == "result" and cur and r.get("validation", "passed") == "passed":
        k = cur + (r["size_bytes"],)
        if "/" not in r["variant"]:  # datatype=double, the reference
            plain[k].append(r["median"])
        else:
            ratio[k].append(r["extra"]["ratio_to_plain"])
print("| library | collective | layout | size | plain us | layout / plain |")
print("| --- | --- | --- | ---: | ---: | ---: |")
for k in sorted(ratio, key=lambda k: (libs.index(k[0]), k[1], k[2], k[3])):
    lib, op, layout, size = k
    print(f"| {lib} | {op} | {layout} | {size} | {cell(plain[k])} | {cell(ratio[k])} |")
PY
