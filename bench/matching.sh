#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The cost of message matching on this machine (doc/pt2pt.md, "Message
# matching"): mpigauge_matching with a deep posted-receive queue and a deep
# unexpected-message queue, under Debian's Open MPI 4.1.4 and MPICH 4.0.2
# and the newer releases that are built (scripts/setup-releases.sh,
# scripts/build.sh openmpi-5.0.11 / mpich-5.0.2), every library's launches
# interleaved in randomized rounds by `mpigauge run`. Prints a markdown
# table per queue: the median over launches (range) of the 8-byte latency
# at each depth and of the cost of one queue entry (per_entry_ns).
#   bench/matching.sh [ROUNDS]      (default 5)
set -eu
. "$(dirname "$0")/run_env.sh"
printf 'ranks=2 matching --queue posted\nranks=2 matching --queue unexpected\n' >"$work/suite.txt"
set --
for b in openmpi mpich openmpi-5.0.11 mpich-5.0.2; do
    [ -x "$root/_build/$b/pt2pt/mpigauge_matching" ] && set -- "$@" --config "$b bindir=$root/_build/$b"
done
"$fe" run -q --suite "$work/suite.txt" "$@" --rounds "$rounds" -o "$work/m.jsonl" \
    -- -i 4000 -x 400 --depths 16,256,1024,4096 >&2
python3 - "$work/m.jsonl" "$rounds" <<'PY'
import json, statistics, sys
from collections import defaultdict

def cell(v, d=2):
    return f"{statistics.median(v):.{d}f} ({min(v):.{d}f}-{max(v):.{d}f})" if v else "-"

lat, per = defaultdict(list), defaultdict(list)
run_of, configs = {}, []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "run":
        run_of[r["launch_id"]] = (r["config"], r["options"]["benchmark"]["queue"])
        if r["config"] not in configs:
            configs.append(r["config"])
    elif r["type"] == "result":
        k = run_of[r["launch_id"]] + (int(r["variant"].split("=")[1]),)
        lat[k].append(r["median"])
        if r["extra"].get("per_entry_ns") is not None:
            per[k].append(r["extra"]["per_entry_ns"])
order = ["openmpi", "mpich", "openmpi-5.0.11", "mpich-5.0.2"]
configs.sort(key=lambda c: order.index(c) if c in order else len(order))
print(f"Median over {sys.argv[2]} interleaved launches per library (range); 8 bytes, 2 ranks.")
for q in ("posted", "unexpected"):
    depths = sorted({k[2] for k in lat if k[1] == q})
    print(f"\n--queue {q}: latency (us), and per_entry_ns at each depth\n")
    print("| library | " + " | ".join(f"D = {d}" for d in depths) + " |")
    print("| --- |" + " --- |" * len(depths))
    for c in configs:
        cells = [cell(lat[(c, q, d)]) + ("" if d == 0 else "; " + cell(per[(c, q, d)]) + " ns")
                 for d in depths]
        print(f"| {c} | " + " | ".join(cells) + " |")
PY
