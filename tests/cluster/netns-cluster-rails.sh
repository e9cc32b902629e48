# SPDX-License-Identifier: BSD-3-Clause
# netns-cluster.sh's rails: how 'up' wires the nodes' rail devices, and
# 'shape' (one node's links at another rate). Sourced by netns-cluster.sh;
# uses its NAME, NODES, STATE, ns_of, die, shape, rate_of and load_config.
#
# Two nodes: each rail is one veth pair, nodeA's end to nodeB's (a cable).
# More nodes: each rail is a switch, a bridge brR in the switch namespace
# NAME-sw, and every node's railR is a veth whose other end (NODE-rR) is a
# port of it: a node's uplink is its own, so shaping it slows that node's
# traffic only. Node i (from 0) has address 10.77.(20 ID + R).(i + 1) on
# rail R either way.

sw_ns() { echo "$NAME-sw"; }

# wire_rails: the rail devices of every node, addressed and shaped.
wire_rails() {
    local r i n ns net sw
    if [ "${#NODES[@]}" -eq 2 ]; then
        local A B
        A=$(ns_of nodeA) B=$(ns_of nodeB)
        for ((r = 0; r < RAILS; r++)); do
            net=10.77.$((20 * id + r))
            ip link add "rail$r" netns "$A" type veth peer name "rail$r" netns "$B"
            ip -n "$A" addr add "$net.1/24" dev "rail$r"
            ip -n "$B" addr add "$net.2/24" dev "rail$r"
            for ns in "$A" "$B"; do
                ip -n "$ns" link set "rail$r" mtu "$MTU"
                ip -n "$ns" link set "rail$r" up
                shape "$ns" "rail$r" "$(rate_of "$r")"
            done
        done
        return
    fi
    sw=$(sw_ns)
    ip netns add "$sw"
    ip netns exec "$sw" sh -c 'for f in all default; do
        [ -e /proc/sys/net/ipv6/conf/$f/disable_ipv6 ] && echo 1 >/proc/sys/net/ipv6/conf/$f/disable_ipv6
        done; true'
    for ((r = 0; r < RAILS; r++)); do
        net=10.77.$((20 * id + r))
        ip -n "$sw" link add "br$r" type bridge
        ip -n "$sw" link set "br$r" mtu "$MTU"
        ip -n "$sw" link set "br$r" up
        i=0
        for n in "${NODES[@]}"; do
            ns=$(ns_of "$n")
            ip link add "rail$r" netns "$ns" type veth peer name "$n-r$r" netns "$sw"
            ip -n "$ns" addr add "$net.$((i + 1))/24" dev "rail$r"
            ip -n "$ns" link set "rail$r" mtu "$MTU"
            ip -n "$sw" link set "$n-r$r" mtu "$MTU"
            ip -n "$sw" link set "$n-r$r" master "br$r"
            ip -n "$ns" link set "rail$r" up
            ip -n "$sw" link set "$n-r$r" up
            # both directions of the node's uplink: its own egress, and the
            # switch port's egress towards it
            shape "$ns" "rail$r" "$(rate_of "$r")"
            shape "$sw" "$n-r$r" "$(rate_of "$r")"
            i=$((i + 1))
        done
    done
}

# The switch namespace, if any (down).
unwire_rails() {
    local sw
    sw=$(sw_ns)
    if [ -e "/run/netns/$sw" ]; then ip netns del "$sw"; fi
}

# wait_rails: until every node's rail devices report carrier.
wait_rails() {
    local k n ok
    for ((k = 0; k < 50; k++)); do
        ok=1
        for n in "${NODES[@]}"; do
            ! ip -n "$(ns_of "$n")" -br link | grep -E '^rail' | grep -vq ' UP ' || ok=0
        done
        [ $ok = 0 ] || return 0
        sleep 0.1
    done
}

# shape NODE RATE [--rail R]: NODE's links (every rail, or rail R) at RATE in
# both directions from now on (tc syntax; 'none': unshaped), the others as
# they are. With two nodes a rail is one cable: both nodes' ends.
cmd_shape() {
    local node=${1:-} rate=${2:-} only="" r ns sw found=0 n
    [ -n "$node" ] && [ -n "$rate" ] || die "usage: $PROG shape NODE RATE [--rail R]"
    shift 2
    if [ "${1:-}" = --rail ]; then only=${2:-}; [[ $only =~ ^[0-7]$ ]] || die "--rail R: 0..7"; fi
    load_config
    for n in "${NODES[@]}"; do [ "$n" != "$node" ] || found=1; done
    [ $found = 1 ] || die "shape: no node '$node' (nodes: ${NODES[*]})"
    [[ $rate =~ ^([0-9.]+[A-Za-z]*|none)$ ]] || die "shape: RATE in tc syntax (50mbit) or none"
    sw=$(sw_ns)
    for ((r = 0; r < RAILS; r++)); do
        [ -z "$only" ] || [ "$r" = "$only" ] || continue
        if [ "${#NODES[@]}" -eq 2 ]; then
            for ns in "$(ns_of nodeA)" "$(ns_of nodeB)"; do reshape "$ns" "rail$r" "$rate"; done
        else
            reshape "$(ns_of "$node")" "rail$r" "$rate"
            reshape "$sw" "$node-r$r" "$rate"
        fi
    done
    echo "netns-cluster($NAME): $node's links${only:+ (rail $only)} at $rate"
}

reshape() { # NS DEV RATE: the device's root qdisc replaced (netem delay kept)
    tc -n "$1" qdisc del dev "$2" root 2>/dev/null || true
    DELAY=${DELAY#none} shape "$1" "$2" "$3"
}

# shape-path NODE PEER RATE [--rail R]: the path between two nodes on a
# switch (three nodes or more) at RATE in both directions, the nodes' other
# traffic as it was: each end's uplink egress becomes an htb with the rail's
# rate by default and a class at RATE for the packets to the other end's
# address (a u32 filter), so that one pair is slow and neither node is.
# 'none' gives the path the rail's rate again. --delay is not combined.
cmd_shape_path() {
    local a=${1:-} b=${2:-} rate=${3:-} only="" r ia=-1 ib=-1 i=0 n
    [ -n "$a" ] && [ -n "$b" ] && [ -n "$rate" ] || die "usage: $PROG shape-path NODE PEER RATE [--rail R]"
    shift 3
    if [ "${1:-}" = --rail ]; then only=${2:-}; [[ $only =~ ^[0-7]$ ]] || die "--rail R: 0..7"; fi
    load_config
    for n in "${NODES[@]}"; do
        [ "$n" != "$a" ] || ia=$i
        [ "$n" != "$b" ] || ib=$i
        i=$((i + 1))
    done
    [ $ia -ge 0 ] && [ $ib -ge 0 ] && [ $ia != $ib ] || die "shape-path: two different nodes of: ${NODES[*]}"
    [ "${#NODES[@]}" -ge 3 ] || die "shape-path: needs a switch (up --nodes 3 or 4); with two nodes use 'shape'"
    [ "$DELAY" = none ] || die "shape-path: not with --delay"
    [[ $rate =~ ^([0-9.]+[A-Za-z]*|none)$ ]] || die "shape-path: RATE in tc syntax (50mbit) or none"
    for ((r = 0; r < RAILS; r++)); do
        [ -z "$only" ] || [ "$r" = "$only" ] || continue
        path_class "$(ns_of "$a")" "rail$r" "$(rate_of "$r")" "$ib" "10.77.$((20 * ID + r)).$((ib + 1))" "$rate"
        path_class "$(ns_of "$b")" "rail$r" "$(rate_of "$r")" "$ia" "10.77.$((20 * ID + r)).$((ia + 1))" "$rate"
    done
    echo "netns-cluster($NAME): the path $a - $b${only:+ (rail $only)} at $rate"
}

# path_class NS DEV RAILRATE PEER_INDEX PEER_IP RATE: DEV's root an htb
# (made once, default class 1:10 at the rail's rate), class 1:(20 + PEER)
# at RATE (the rail's rate for 'none') for packets to PEER_IP.
path_class() {
    local ns=$1 dev=$2 rail=$3 peer=$4 ip=$5 rate=$6 cls
    [ "$rail" != none ] || rail=100gbit
    [ "$rate" != none ] || rate=$rail
    cls=1:$((20 + peer))
    if ! tc -n "$ns" qdisc show dev "$dev" | grep -q '^qdisc htb 1: root'; then
        tc -n "$ns" qdisc del dev "$dev" root 2>/dev/null || true
        tc -n "$ns" qdisc add dev "$dev" root handle 1: htb default 10
        tc -n "$ns" class add dev "$dev" parent 1: classid 1:10 htb rate "$rail" burst "$BURST" quantum 60000
    fi
    tc -n "$ns" class replace dev "$dev" parent 1: classid "$cls" htb rate "$rate" burst "$BURST" quantum 60000
    tc -n "$ns" filter del dev "$dev" parent 1: prio $((10 + peer)) 2>/dev/null || true
    tc -n "$ns" filter add dev "$dev" parent 1: protocol ip prio $((10 + peer)) u32 \
        match ip dst "$ip/32" flowid "$cls"
}
