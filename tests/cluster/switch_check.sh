# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the checks on nodes on a switch (check_slow_link.sh,
# check_screen.sh): their common start. Needs `here` (the folder of the
# cluster scripts).
#   mg_switch_check BASE PROGRAM NODES PLAN BUILD...
# Skips (exit 77) without root, namespaces, veth, a bridge, tbf or htb, or
# an Open MPI build among BUILD... with PROGRAM (its path below the build);
# else sets top, H, PYTHON, build, launcher, work, MG_CLUSTER (a free
# instance named BASE[1-7], taken down on exit), prints the TAP plan 1..PLAN
# and brings NODES nodes up on a switch, one rail at 1 Gbit/s (test 1).
mg_switch_check() {
    local base=$1 prog=$2 nodes=$3 plan=$4 b names=("" "" "" three four)
    shift 4
    top=$(cd "$here/../.." && pwd)
    H=$here/netns-cluster.sh
    PYTHON=${PYTHON:-python3}
    skip() { echo "1..0 # SKIP $*"; exit 77; }
    [ "$(id -u)" = 0 ] || skip "needs root (network namespaces)"
    unshare --net sh -c 'ip link add mgt0 type veth peer name mgt1 && ip link add mgb0 type bridge &&
        tc qdisc add dev mgt0 root tbf rate 1gbit burst 256kb latency 50ms &&
        tc qdisc replace dev mgt0 root htb default 10' >/dev/null 2>&1 ||
        skip "no network namespaces, veth, bridge, tbf or htb here"
    build=""
    for b in "$@"; do
        case $(sed -n 's/^MG_MPI_LIBRARY = //p' "$b/Makefile" 2>/dev/null | head -n 1) in
        openmpi*) [ -x "$b/$prog" ] && { build=$b; break; } ;;
        esac
    done
    [ -n "$build" ] || skip "no Open MPI build among: $*"
    launcher=$(sed -n 's/^MPIEXEC = //p' "$build/Makefile" | head -n 1)
    launcher=${launcher%% *}
    work=$(mktemp -d "${TMPDIR:-/tmp}/mg-$base.XXXXXX") || exit 99
    export MG_CLUSTER_OWNER=$$ MG_CLUSTER_ID=${MG_CLUSTER_ID:-auto}
    # shellcheck source=tests/cluster/claim.sh
    . "$here/claim.sh"
    mg_claim_cluster "$base" ||
        { echo "1..1"; echo "not ok 1 - no free cluster instance name $base[1-7]"; exit 1; }
    export MG_CLUSTER
    trap cleanup EXIT
    trap 'exit 130' INT TERM HUP
    echo "1..$plan"
    TAP_DIR=$work
    # shellcheck source=tests/tap.sh
    . "$here/../tap.sh"
    if "$H" up --nodes "$nodes" --rails 1 --rate 1gbit >"$work/up.log" 2>&1; then
        ok "${names[nodes]} nodes on a switch: $(tail -n 1 "$work/up.log" | sed 's/^netns-cluster up: //')"
    else
        notok "${names[nodes]} nodes on a switch" "$work/up.log"
        exit 1
    fi
}
cleanup() {
    "$H" down >"$work/down.log" 2>&1 || cat "$work/down.log" >&2
    rm -rf "$work"
}
