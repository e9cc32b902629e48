#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fan, stencil and random on this machine (doc/pt2pt.md): every pattern at
# 2 ranks under Debian's Open MPI 4.1.4 and MPICH 4.0.2 and at 4 ranks under
# Open MPI (MPICH's polling ranks would measure the scheduler on 2 cores),
# the libraries' launches interleaved in randomized rounds by `mpigauge
# run`. Prints a markdown table: per pattern, ranks and size the median
# over launches (range) of the figure (MB/s for fan, us for the others) and
# of the aggregate MB/s of stencil and random.
#   bench/p2p_patterns.sh [ROUNDS]      (default 5)
set -eu
. "$(dirname "$0")/run_env.sh"
for np in 2 4; do
    for line in "fan" "fan --direction out" "stencil" "stencil --dims 3" "random" \
        "random --pattern bi" "random --pattern co"; do
        echo "ranks=$np $line -m 8,64K --time-budget 0.1"
    done >"$work/suite$np.txt"
done
"$fe" run -q --suite "$work/suite2.txt" --config "openmpi bindir=$root/_build/openmpi" \
    --config "mpich bindir=$root/_build/mpich" --rounds "$rounds" --interleave launches \
    -o "$work/p.jsonl" >&2 || true
"$fe" run -q --suite "$work/suite4.txt" --bindir "$root/_build/openmpi" --rounds "$rounds" \
    --interleave launches -o "$work/p.jsonl" --append >&2 || true
python3 - "$work/p.jsonl" <<'PY'
import json, statistics, sys
from collections import defaultdict

def cell(v, d=2):
    return f"{statistics.median(v):.{d}f} ({min(v):.{d}f}-{max(v):.{d}f})" if v else "-"

fig, agg = defaultdict(list), defaultdict(list)
cur = None
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "run":
        b = r["options"]["benchmark"]
        what = {"fan": f"fan {b.get('direction', 'in')}", "stencil": f"stencil {b.get('dims', '2')}-D",
                "random": f"random {b.get('pattern', 'uni')}"}.get(r["benchmark"], r["benchmark"])
        cur = (r.get("config") or "openmpi", what, r["nranks"])
    elif r["type"] == "result" and cur and r.get("validation", "passed") == "passed":
        k = cur + (r["size_bytes"], r["unit"])
        fig[k].append(r["median"])
        if "MB/s" in (r.get("extra") or {}):
            agg[k].append(r["extra"]["MB/s"])
print("| library | pattern | ranks | size | figure | unit | aggregate MB/s |")
print("| --- | --- | ---: | ---: | ---: | --- | ---: |")
for k in sorted(fig, key=lambda k: (k[0], k[1], k[2], k[3])):
    lib, what, n, size, unit = k
    print(f"| {lib} | {what} | {n} | {size} | {cell(fig[k])} | {unit} | {cell(agg[k], 0)} |")
PY
