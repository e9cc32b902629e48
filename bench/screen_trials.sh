#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The all-pairs screen's rates on the emulated cluster (doc/screen.md):
# four nodes on a switch (1 Gbit/s uplinks), TRIALS trials of three screens
# each, their order turned trial by trial: nothing slowed; one node's uplink
# at RATE (a node drawn per trial); the path between two nodes at RATE (a
# pair drawn per trial). A trial is right when the healthy screen names
# nothing (exit 0), the node screen names that node and no link (exit 3),
# the link screen that link and no node (exit 3). Prints each screen's
# outcome and the rates; the screens' JSON Lines stay in OUT.
#   bench/screen_trials.sh BUILD [TRIALS] [OUT]
#   RATE=300mbit (default) SCREEN_ARGS='...' (more program options)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
H=$top/tests/cluster/netns-cluster.sh
build=${1:?usage: bench/screen_trials.sh BUILD [TRIALS] [OUT]}
trials=${2:-20}
out=${3:-results/screen_trials}
rate=${RATE:-300mbit}
PYTHON=${PYTHON:-python3}
launcher=$(sed -n 's/^MPIEXEC = //p' "$build/Makefile" | head -n 1)
launcher=${launcher%% *}
mkdir -p "$out"
export MG_CLUSTER_OWNER=$$ MG_CLUSTER_ID=${MG_CLUSTER_ID:-auto}
# shellcheck source=tests/cluster/claim.sh
. "$top/tests/cluster/claim.sh"
mg_claim_cluster mgtri || { echo "no free cluster instance name mgtri[1-7]" >&2; exit 1; }
export MG_CLUSTER
trap '"$H" down >/dev/null 2>&1' EXIT
trap 'exit 130' INT TERM HUP
"$H" up --nodes 4 --rails 1 --rate 1gbit >"$out/up.log" 2>&1 || { cat "$out/up.log" >&2; exit 1; }
nodes=(nodeA nodeB nodeC nodeD)

# one screen: NAME, then the expectation for the judge
screen() {
    local name=$1
    # shellcheck disable=SC2086
    "$H" run --launcher "$launcher" --np 4 --ppn 1 --timeout 300 \
        --env OMPI_MCA_mpi_yield_when_idle=1 -- "$build/tools/mpigauge_screen" \
        --format json -o "$out/$name.jsonl" ${SCREEN_ARGS:-} >/dev/null 2>"$out/$name.err"
    echo $?
}
judge() { # FILE RC WANT_NAMED WANT_LINK: prints "right|wrong what"
    "$PYTHON" - "$@" <<'PY'
import json, sys
path, rc, named, link = sys.argv[1:5]
try:
    recs = [json.loads(l) for l in open(path)]
except OSError:
    print(f"wrong exit {rc}, no output"); sys.exit()
s, run = recs[-1], recs[0]
want_named = [named] if named != "-" else []
want_links = [link.split("-")] if link != "-" else []
ok = s["named"] == want_named and s["links"] == want_links and int(rc) == (3 if named != "-" or link != "-" else 0)
bw = [r for r in recs if r["type"] == "screen_pair" and r["metric"] == "bw"]
worst = min(bw, key=lambda r: r["ratio"])
print(f"{'right' if ok else 'wrong'} exit {rc} named {s['named']} links {s['links']} "
      f"worst x{worst['ratio']:.2f} ({worst['host_a']}-{worst['host_b']}) {run['seconds']:.1f} s")
PY
}
right_h=0 right_n=0 right_l=0
for ((t = 1; t <= trials; t++)); do
    node=${nodes[RANDOM % 4]}
    a=$((RANDOM % 4)) b=$(((RANDOM % 3 + 1 + 0) % 4))
    [ "$b" != "$a" ] || b=$(((a + 1) % 4))
    [ "$a" -lt "$b" ] || { x=$a; a=$b; b=$x; }
    pa=${nodes[a]} pb=${nodes[b]}
    for k in 0 1 2; do
        case $(((k + t) % 3)) in
        0) rc=$(screen "t$t-healthy")
           v=$(judge "$out/t$t-healthy.jsonl" "$rc" - -)
           echo "trial $t healthy: $v"; [[ $v == right* ]] && right_h=$((right_h + 1)) ;;
        1) "$H" shape "$node" "$rate" >/dev/null
           rc=$(screen "t$t-node")
           "$H" shape "$node" 1gbit >/dev/null
           v=$(judge "$out/t$t-node.jsonl" "$rc" "$node" -)
           echo "trial $t node $node at $rate: $v"; [[ $v == right* ]] && right_n=$((right_n + 1)) ;;
        2) "$H" shape-path "$pa" "$pb" "$rate" >/dev/null
           rc=$(screen "t$t-link")
           "$H" shape "$pa" 1gbit >/dev/null; "$H" shape "$pb" 1gbit >/dev/null
           v=$(judge "$out/t$t-link.jsonl" "$rc" - "$pa-$pb")
           echo "trial $t link $pa-$pb at $rate: $v"; [[ $v == right* ]] && right_l=$((right_l + 1)) ;;
        esac
    done
done
echo "healthy: nothing named in $right_h of $trials"
echo "slowed node ($rate): that node alone named in $right_n of $trials"
echo "slowed link ($rate): that link alone named in $right_l of $trials"
