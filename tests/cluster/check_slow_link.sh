#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The slow host, named: an emulated cluster of three nodes on a switch
# (tests/cluster/netns-cluster.sh up --nodes 3: every node's uplink its own,
# 1 Gbit/s), one node's link slowed to 50 Mbit/s with tbf, and a 6-rank
# broadcast of 512 KiB from rank 0 (on nodeA), 2 ranks per node. The row
# must name the slowed node as `slowest_host` (its two ranks the slowest),
# and `mpigauge report --ranks` must say so; then the link is restored and
# another node's slowed, and that node must be named. Open MPI builds only
# (pml ob1, tcp BTL): MPICH busy-polls with six ranks on two cores, and its
# large broadcast (scatter, then allgather) makes every rank wait for the
# slow link, so no rank stands out (doc/mpit.md).
#
# TAP; exit 0 when all pass, 1 on a failure, 77 when it cannot run here.
#   tests/cluster/check_slow_link.sh BUILD...
set -u
{
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/cluster/switch_check.sh
. "$here/switch_check.sh"
mg_switch_check mgslow collective/mpigauge_bcast 3 4 "$@"

# slowed NODE: its link at 50 Mbit/s (the others at 1 Gbit/s), one launch,
# and the row and the report must name NODE
slowed() {
    local node=$1 k=$2 out=$work/$1.jsonl
    "$H" shape "$node" 50mbit >"$work/shape$k.log" 2>&1 || { notok "shape $node" "$work/shape$k.log"; return; }
    "$H" run --launcher "$launcher" --np 6 --ppn 2 --timeout 120 \
        --env OMPI_MCA_mpi_yield_when_idle=1 -- "$build/collective/mpigauge_bcast" \
        -m 512K:512K -i 5 -x 1 -c --per-rank --format json -o "$out" \
        >"$work/run$k.out" 2>"$work/run$k.err"
    local rc=$?
    "$H" shape "$node" 1gbit >>"$work/shape$k.log" 2>&1
    if [ $rc -ne 0 ]; then notok "$node slowed: the launch (exit $rc)" "$work/run$k.err"; return; fi
    if ! "$PYTHON" - "$out" "$node" >"$work/why$k" 2>&1 <<'PY'; then
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
run = next(r for r in recs if r.get("type") == "run")
row = next(r for r in recs if r.get("type") == "result")
node, hosts, med = sys.argv[2], run["hosts"], row["rank_median_us"]
assert row["slowest_host"] == node, (row["slowest_host"], node, med, hosts)
mine = [med[k] for k in range(len(med)) if hosts[k] == node]
others = [med[k] for k in range(len(med)) if hosts[k] != node]
assert len(mine) == 2 and min(mine) > max(others), (mine, others)
print(f"slowest rank {row['slowest_rank']} on {node}: {row['slowest_rank_us']:.0f} us, "
      f"{node}'s ranks {min(mine):.0f}-{max(mine):.0f} us, the others "
      f"{min(others):.0f}-{max(others):.0f} us")
PY
        notok "$node slowed: the row does not name it" "$work/why$k" "$out"
        return
    fi
    "$PYTHON" "$top/frontend/mpigauge.py" report "$out" --ranks bcast:512K --no-plot \
        -o "$work/rep$k.html" >"$work/rep$k.out" 2>&1
    if grep -q "slowest rank [0-9]* on $node" "$work/rep$k.html"; then
        ok "$node's link slowed to 50 Mbit/s: named by the row and by report --ranks ($(cat "$work/why$k"))"
    else
        notok "$node slowed: report --ranks does not name it" "$work/rep$k.out" "$work/rep$k.html"
    fi
}
slowed nodeC 1
slowed nodeB 2

cleanup
trap - EXIT
if ip netns list | grep -q "^$MG_CLUSTER-"; then notok "cluster down"; else ok "cluster down"; fi
[ $failed -eq 0 ]
exit
}
