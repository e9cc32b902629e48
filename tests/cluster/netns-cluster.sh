#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# netns-cluster.sh - an emulated MPI cluster of two (or up to four) nodes with N shaped network
# "rails" on one Linux host (network, UTS and IPC namespaces and veth pairs),
# so that MPI libraries see two hosts and really send inter-node traffic over
# rate-limited links: the test bed of mpigauge's multirail modes
# (tests/cluster/check_cluster.sh, bench/multirail.sh, doc/multirail.md).
# Needs root, iproute2 (ip, tc) and util-linux (unshare, nsenter, flock). No
# process is left running: the namespaces are kept alive by bind mounts.
#
# Several instances may exist at once: MG_CLUSTER=NAME (default mgc) names the
# namespaces (NAME-nodeA, NAME-nodeB), the management bridge (NAME-br), the
# root-side veths (NAME-nodeA, NAME-nodeB) and the state folder
# (/run/mgcluster-NAME); MG_CLUSTER_ID=0..7 (default 0; 'auto' = the highest
# free one, for 'up' only) chooses the addresses: rail R is 10.77.(20 ID + R).0/24,
# the management net 10.77.(20 ID + 19).0/24. Inside the nodes the host names
# are nodeA and nodeB whatever the instance. 'up' records MG_CLUSTER_OWNER (a
# PID, optional) in the config, so that a script can tell a stale instance
# left by a killed run from one in use.
set -Eeuo pipefail

NAME=${MG_CLUSTER:-mgc}
[[ $NAME =~ ^[a-z][a-z0-9]{0,8}$ ]] ||
    { echo "netns-cluster: MG_CLUSTER='$NAME': 1-9 characters [a-z0-9], starting with a letter" >&2; exit 2; }
STATE=/run/mgcluster-$NAME        # namespace files, helpers, hostfiles, config
LOCK=/run/mgcluster.lock          # serialises 'up' and 'down' of all instances
NODES=(nodeA nodeB)               # host names inside the nodes (up --nodes N; then the config's)
MGMT_BR=$NAME-br                  # management bridge in the root namespace
PROG=$(basename "$0")

ns_of() { echo "$NAME-$1"; }                         # namespace of node name
die() { echo "netns-cluster($NAME): $*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || die "must run as root"; }
is_mounted() { awk -v p="$1" '$5 == p { f = 1 } END { exit !f }' /proc/self/mountinfo; }
is_up() { [ -f "$STATE/config" ]; }
need_up() { is_up || die "not up (no $STATE/config; '$PROG up' first)"; }
load_config() { need_up; # shellcheck disable=SC1091
                . "$STATE/config"; read -ra NODES <<<"${NODE_NAMES:-nodeA nodeB}"; }
# the nodes of an instance that is up (or half up), for down, reap, counters
if [ -f "$STATE/config" ]; then
    _names=$(sed -n 's/^NODE_NAMES="\(.*\)"$/\1/p' "$STATE/config")
    [ -z "$_names" ] || read -ra NODES <<<"$_names"
fi
# The help texts (usage, cmd_info), beside this script.
# shellcheck source=tests/cluster/netns-cluster-help.sh
. "$(dirname "$(readlink -f "$0")")/netns-cluster-help.sh"
# shellcheck source=tests/cluster/netns-cluster-launch.sh
. "$(dirname "$(readlink -f "$0")")/netns-cluster-launch.sh"
# shellcheck source=tests/cluster/netns-cluster-rails.sh
. "$(dirname "$(readlink -f "$0")")/netns-cluster-rails.sh"
subnet_used() { # 10.77.X -> is an address of that /24 on a root-namespace interface?
    ip -o -4 addr show 2>/dev/null | awk -v p="$1." '{ split($4, a, "/"); if (index(a[1], p) == 1) f = 1 } END { exit !f }'
}

write_helpers() {
    cat >"$STATE/nsrsh" <<'NSRSH_EOF'
#!/bin/bash
# nsrsh - ssh/rsh stand-in for netns-cluster.sh
#   nsrsh [ssh-style options] HOST [COMMAND...]
# HOST: node name (nodeA), user@node, node.domain or the node's management IP.
# The COMMAND words are joined with spaces and run with "bash -c" inside the
# node (its net, UTS and IPC namespaces plus a fresh mount namespace set up by
# node-init), in /root, with a clean login-like environment as sshd would give,
# plus the variables named in NSRSH_PASS_ENV when the caller has them (default:
# Open MPI's OMPI_ALLOW_RUN_AS_ROOT and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM).
# NSRSH_KEEP_ENV=1 keeps the caller's whole environment instead. Without
# COMMAND: a login shell. NSRSH_LOG=FILE appends every call to FILE.
set -u
STATE=__STATE__
if [ -n "${NSRSH_LOG:-}" ]; then
    { printf '%s nsrsh[%d]' "$(date +%T.%N)" $$; printf ' %q' "$@"; echo; } >>"$NSRSH_LOG"
fi
skipopts() {  # number of leading ssh option words in "$@"
    local k=0
    while [ $# -gt 0 ]; do
        case "$1" in
            --) k=$((k + 1)); break ;;
            -[bcDEeFIiJLlmOopQRSWw]) k=$((k + 2)); shift; [ $# -gt 0 ] && shift ;;
            -?*) k=$((k + 1)); shift ;;
            *) break ;;
        esac
    done
    echo $k
}
shift "$(skipopts "$@")"
[ $# -ge 1 ] || { echo "usage: nsrsh [options] HOST [COMMAND...]" >&2; exit 255; }
host=${1#*@}; shift
shift "$(skipopts "$@")"          # OpenSSH also accepts options after the host
node="" ns=""
h=${host,,}
while read -r n s ip; do
    if [ "$h" = "${n,,}" ] || [ "$h" = "$ip" ] || [ "${h%%.*}" = "${n,,}" ]; then node=$n ns=$s; fi
done <"$STATE/nodes"
[ -n "$node" ] || { echo "nsrsh: unknown host '$host'" >&2; exit 255; }
if [ "${NSRSH_KEEP_ENV:-0}" = 1 ]; then
    envcmd=(env)
else
    envcmd=(env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
            LANG=${LANG:-C.UTF-8})
    [ -n "${TERM:-}" ] && envcmd+=(TERM="$TERM")
    for v in ${NSRSH_PASS_ENV-OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM}; do
        [ -n "${!v+x}" ] && envcmd+=("$v=${!v}")
    done
fi
if [ $# -gt 0 ]; then set -- "$*"; fi
exec nsenter --net=/run/netns/"$ns" --uts="$STATE/$node.uts" --ipc="$STATE/$node.ipc" -- \
    unshare --mount --propagation slave -- "${envcmd[@]}" /bin/bash "$STATE/node-init" "$node" "$@"
NSRSH_EOF
    cat >"$STATE/node-init" <<'NODEINIT_EOF'
#!/bin/bash
# node-init NODE [COMMAND] - run by nsrsh inside NODE's net/UTS/IPC namespaces
# and a fresh mount namespace: give the node its own view, then run COMMAND
# (bash -c) or a login shell.
node=$1; shift
STATE=$(dirname "$0")
fail() { echo "nsrsh/node-init($node): $*" >&2; exit 255; }
# sysfs of the node's net namespace: /sys/class/net lists the node's own devices
mount -t sysfs "sysfs-$node" /sys || fail "mounting sysfs"
# sysfs lists /sys/class/net in a hash order that differs from namespace to
# namespace. UCX 1.13 numbers its TCP devices in that order and pairs the lanes
# of two peers by that number, so unequal orders on the two nodes cross the rails
# (both multi-rail TCP connections end up on one rail). Present the entries in
# the same (sorted) order on every node: a tmpfs holding the symlinks sysfs has.
if [ "$(cat "$STATE/netdev-order")" = sorted ]; then
    links=()
    for d in /sys/class/net/*; do links+=("${d##*/}" "$(readlink "$d")"); done
    mount -t tmpfs -o mode=755,size=1m "netclass-$node" /sys/class/net || fail "tmpfs on /sys/class/net"
    for ((i = 0; i < ${#links[@]}; i += 2)); do
        ln -s "${links[i + 1]}" "/sys/class/net/${links[i]}" || fail "symlink ${links[i]}"
    done
fi
mount --bind "$STATE/$node.shm" /dev/shm || fail "binding /dev/shm"
mount --bind "$STATE/hosts" /etc/hosts || fail "binding /etc/hosts"
mount --bind "$STATE/$node.boot_id" /proc/sys/kernel/random/boot_id || fail "binding boot_id"
cd "${HOME:-/root}" 2>/dev/null || cd /
if [ $# -gt 0 ]; then exec /bin/bash -c "$1"; else exec /bin/bash -l; fi
NODEINIT_EOF
    sed -i "s|__STATE__|$STATE|" "$STATE/nsrsh"
    echo "$NETDEV_ORDER" >"$STATE/netdev-order"
    cat >"$STATE/railbind" <<RAILBIND_EOF
#!/bin/bash
# railbind [bind [--rails K] [--devices LIST] --] CMD... : bind this MPI rank to
# one rail device, the (local rank mod K)-th of LIST (default: the cluster's
# rails), for UCX (UCX_NET_DEVICES) and Open MPI's tcp BTL (btl_tcp_if_include).
# The same command line as 'mpigauge-rails bind'. RAILBIND_VERBOSE=1: say which.
devices=\${RAILBIND_DEVICES:-$ALL_DEVICES} k=""
if [ "\${1:-}" = bind ]; then
    shift
    while [ \$# -gt 0 ]; do
        case "\$1" in
            --rails) k=\$2; shift 2 ;;
            --devices) devices=\$2; shift 2 ;;
            --) shift; break ;;
            *) break ;;
        esac
    done
fi
IFS=, read -r -a devs <<<"\$devices"
[ -n "\$k" ] || k=\${#devs[@]}
lr=\${OMPI_COMM_WORLD_LOCAL_RANK:-\${MPI_LOCALRANKID:-\${PMI_LOCAL_RANK:-0}}}
d=\${devs[\$((lr % k))]}
export UCX_NET_DEVICES=\$d OMPI_MCA_btl_tcp_if_include=\$d
[ -n "\${RAILBIND_VERBOSE:-}" ] && echo "railbind: \$(hostname) local rank \$lr -> \$d" >&2
exec "\$@"
RAILBIND_EOF
    chmod 755 "$STATE/nsrsh" "$STATE/node-init" "$STATE/railbind"
}

rate_of() { # rail index -> its rate: entry r of RATE's comma list, else the last entry
    local rates
    IFS=, read -ra rates <<<"$RATE"
    if [ "$1" -lt "${#rates[@]}" ]; then echo "${rates[$1]}"; else echo "${rates[${#rates[@]} - 1]}"; fi
}

shape() {  # shape NS DEV RATE
    local n=$1 dev=$2 RATE=$3
    if [ -n "$DELAY" ]; then
        if ! tc -n "$n" qdisc add dev "$dev" root handle 1: netem delay "$DELAY" limit 100000; then
            echo "netns-cluster: cannot add a netem qdisc (kernel without sch_netem?): --delay unusable" >&2
            false   # -> ERR trap: undo
        fi
        [ "$RATE" = none ] || tc -n "$n" qdisc add dev "$dev" parent 1:1 handle 10: \
            tbf rate "$RATE" burst "$BURST" latency 50ms
    elif [ "$RATE" != none ]; then
        tc -n "$n" qdisc add dev "$dev" root tbf rate "$RATE" burst "$BURST" latency 50ms
    fi
}

cmd_up() {
    RATE=1gbit BURST=256kb DELAY="" RAILS=2 MTU=1500 SLOTS=2 NETDEV_ORDER=sorted
    while [ $# -gt 0 ]; do
        case "$1" in
            --rate|--burst|--delay|--rails|--mtu|--slots|--nodes) [ $# -ge 2 ] || die "$1 needs a value" ;;&
            --nodes) [[ $2 =~ ^[2-4]$ ]] || die "--nodes must be 2..4"
                     local all=(nodeA nodeB nodeC nodeD)
                     NODES=("${all[@]:0:$2}"); shift 2 ;;
            --rate) RATE=$2; shift 2 ;;
            --burst) BURST=$2; shift 2 ;;
            --delay) DELAY=$2; shift 2 ;;
            --rails) RAILS=$2; shift 2 ;;
            --mtu) MTU=$2; shift 2 ;;
            --slots) SLOTS=$2; shift 2 ;;
            --native-netdev-order) NETDEV_ORDER=native; shift ;;
            -h|--help) usage; exit 0 ;;
            *) die "unknown option for up: $1" ;;
        esac
    done
    [[ $RAILS =~ ^[1-8]$ ]] || die "--rails must be 1..8"
    [[ $RATE =~ ^[A-Za-z0-9.]+(,[A-Za-z0-9.]+)*$ ]] || die "--rate: RATE or RATE,RATE,.. in tc syntax"
    [[ $SLOTS =~ ^[1-9][0-9]*$ ]] || die "--slots must be a positive integer"
    need_root
    local cmd n i r ns id
    for cmd in ip tc unshare nsenter flock timeout; do
        command -v $cmd >/dev/null || die "$cmd missing"
    done
    exec 9>"$LOCK"
    flock 9
    [ ! -e "$STATE" ] || die "$STATE exists: already up? ('MG_CLUSTER=$NAME $PROG down' first)"
    for n in "${NODES[@]}"; do
        ns=$(ns_of "$n")
        [ ! -e "/run/netns/$ns" ] || die "/run/netns/$ns already exists"
        ! ip link show "$ns" >/dev/null 2>&1 || die "link $ns already exists"
    done
    ! ip link show "$MGMT_BR" >/dev/null 2>&1 || die "link $MGMT_BR already exists"
    id=${MG_CLUSTER_ID:-0}
    if [ "$id" = auto ]; then
        for id in 7 6 5 4 3 2 1 0 none; do   # from the top: people pick small IDs by hand
            [ "$id" = none ] && die "MG_CLUSTER_ID=auto: all management nets 10.77.(20 ID + 19) are in use"
            subnet_used "10.77.$((20 * id + 19))" || break
        done
    fi
    [[ $id =~ ^[0-7]$ ]] || die "MG_CLUSTER_ID must be 0..7 or auto"
    MGMT_NET=10.77.$((20 * id + 19))
    ! subnet_used "$MGMT_NET" ||
        die "$MGMT_NET.0/24 is in use in the root namespace (another instance with MG_CLUSTER_ID=$id?)"
    ALL_DEVICES=$(for ((r = 0; r < RAILS; r++)); do printf 'rail%d,' $r; done)
    ALL_DEVICES=${ALL_DEVICES%,}

    # from here on, undo partial work on any failure
    trap 'echo "netns-cluster($NAME): up failed at line $LINENO, cleaning up" >&2
          trap - ERR; cmd_down_locked >/dev/null 2>&1 || true; exit 1' ERR

    mkdir -p "$STATE" "$STATE/tmp"
    cat >"$STATE/config" <<EOF
CLUSTER=$NAME
ID=$id
RATE=$RATE
BURST=$BURST
DELAY=${DELAY:-none}
RAILS=$RAILS
MTU=$MTU
SLOTS=$SLOTS
NETDEV_ORDER=$NETDEV_ORDER
MGMT_NET=$MGMT_NET
NODE_NAMES="${NODES[*]}"
RAIL_NETS="$(for ((r = 0; r < RAILS; r++)); do printf '10.77.%d ' $((20 * id + r)); done)"
ALL_DEVICES=$ALL_DEVICES
OWNER=${MG_CLUSTER_OWNER:-}
EOF
    : >"$STATE/nodes"
    { echo "127.0.0.1 localhost"; echo "$MGMT_NET.1 $(hostname) $NAME-head"; } >"$STATE/hosts"
    i=0
    for n in "${NODES[@]}"; do
        echo "$n $(ns_of "$n") $MGMT_NET.$((11 + i))" >>"$STATE/nodes"
        echo "$MGMT_NET.$((11 + i)) $n" >>"$STATE/hosts"
        i=$((i + 1))
    done
    for ((r = 0; r < RAILS; r++)); do
        i=0
        for n in "${NODES[@]}"; do
            echo "10.77.$((20 * id + r)).$((i + 1)) $n-rail$r" >>"$STATE/hosts"
            i=$((i + 1))
        done
    done

    # management bridge in the root namespace (IPv6 off: no stray traffic)
    ip link add "$MGMT_BR" type bridge
    echo 1 >"/proc/sys/net/ipv6/conf/$MGMT_BR/disable_ipv6" 2>/dev/null || true
    ip addr add "$MGMT_NET.1/24" dev "$MGMT_BR"
    ip link set "$MGMT_BR" up

    i=0
    for n in "${NODES[@]}"; do
        ns=$(ns_of "$n")
        ip netns add "$ns"
        ip netns exec "$ns" sh -c 'for f in all default; do
            [ -e /proc/sys/net/ipv6/conf/$f/disable_ipv6 ] && echo 1 >/proc/sys/net/ipv6/conf/$f/disable_ipv6
            done; true'
        ip -n "$ns" link set lo up
        ip link add "$ns" type veth peer name mgmt0 netns "$ns"
        echo 1 >"/proc/sys/net/ipv6/conf/$ns/disable_ipv6" 2>/dev/null || true
        ip link set "$ns" master "$MGMT_BR"
        ip link set "$ns" up
        ip -n "$ns" addr add "$MGMT_NET.$((11 + i))/24" dev mgmt0
        ip -n "$ns" link set mgmt0 up
        i=$((i + 1))
    done

    wire_rails

    # per node: persistent UTS (host name) and IPC namespaces, own /dev/shm, boot_id
    for n in "${NODES[@]}"; do
        cat /proc/sys/kernel/random/uuid >"$STATE/$n.boot_id"
        mkdir "$STATE/$n.shm"
        mount -t tmpfs -o mode=1777 "$NAME-shm-$n" "$STATE/$n.shm"
        touch "$STATE/$n.uts" "$STATE/$n.ipc"
        unshare --uts="$STATE/$n.uts" --ipc="$STATE/$n.ipc" hostname "$n"
    done

    write_helpers
    : >"$STATE/hostfile.ompi"
    : >"$STATE/hostfile.mpich"
    for n in "${NODES[@]}"; do
        echo "$n slots=$SLOTS" >>"$STATE/hostfile.ompi"
        echo "$n:$SLOTS" >>"$STATE/hostfile.mpich"
    done
    wait_rails # the veths report carrier on both ends (operstate settles async)
    # sanity check: each node has its own host name, boot_id and devices
    for n in "${NODES[@]}"; do
        "$STATE/nsrsh" "$n" 'echo "$(hostname): boot_id $(cut -c1-8 /proc/sys/kernel/random/boot_id)... devices: $(ls /sys/class/net | tr "\n" " ")"'
    done
    trap - ERR
    echo "netns-cluster up: $NAME nodes=${#NODES[@]} id=$id mgmt=$MGMT_NET.0/24 rails=$RAILS rate=$RATE burst=$BURST delay=${DELAY:-none} mtu=$MTU slots=$SLOTS state=$STATE"
}

node_pids() { # NS -> PIDs of processes in that network namespace
    [ -e "/run/netns/$1" ] || return 0
    ip netns pids "$1" 2>/dev/null | tr '\n' ' '
}

cmd_reap() { # kill every process inside the nodes, by PID
    local n ns pids quiet=${1:-}
    for n in "${NODES[@]}"; do
        ns=$(ns_of "$n")
        pids=$(node_pids "$ns")
        [ -n "${pids// /}" ] || continue
        [ -n "$quiet" ] || echo "netns-cluster($NAME): killing processes left in $n: $pids" >&2
        # shellcheck disable=SC2086
        kill $pids 2>/dev/null || true
    done
    for n in "${NODES[@]}"; do
        ns=$(ns_of "$n")
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            [ -n "$(node_pids "$ns" | tr -d ' ')" ] || break
            sleep 0.2
        done
        pids=$(node_pids "$ns")
        # shellcheck disable=SC2086
        [ -z "${pids// /}" ] || kill -9 $pids 2>/dev/null || true
    done
}

cmd_down_locked() {
    local n ns t
    cmd_reap
    for n in "${NODES[@]}"; do
        ns=$(ns_of "$n")
        for t in uts ipc shm; do
            if is_mounted "$STATE/$n.$t"; then umount "$STATE/$n.$t" || umount -l "$STATE/$n.$t"; fi
        done
        if [ -e "/run/netns/$ns" ]; then ip netns del "$ns"; fi
        ip link del "$ns" 2>/dev/null || true
    done
    unwire_rails
    ip link del "$MGMT_BR" 2>/dev/null || true
    if [ -d "$STATE" ]; then
        # never rm -rf across a still-mounted tmpfs / namespace file
        local left
        left=$(awk -v p="$STATE/" 'index($5, p) == 1 { print $5 }' /proc/self/mountinfo | tr '\n' ' ')
        [ -z "$left" ] || die "mounts under $STATE remain, not removing it: $left"
        rm -rf "$STATE"
    fi
    # veths in a deleted netns disappear asynchronously: wait for the root-side ends
    for _ in $(seq 50); do
        ip -o link show 2>/dev/null | grep -qE "^[0-9]+: ($NAME-node[A-D]|$MGMT_BR)[:@]" || break
        sleep 0.2
    done
    echo "netns-cluster down: $NAME"
}

cmd_down() {
    [ $# -eq 0 ] || [ "$1" = --force ] || die "usage: $PROG down [--force]"
    need_root
    exec 9>"$LOCK"
    flock 9
    cmd_down_locked
}

counters_env() { # NODE_DEV_{rx,tx}_bytes=N for every device but lo of every node
    local n ns
    for n in "${NODES[@]}"; do
        ns=$(ns_of "$n")
        [ -e "/run/netns/$ns" ] || continue
        # /proc/net/dev is the reader's network namespace
        nsenter --net="/run/netns/$ns" cat /proc/net/dev |
            awk -v n="$n" -F'[: ]+' 'NR > 2 { sub(/^ +/, ""); split($0, a, /[: ]+/)
                if (a[1] != "lo") printf "%s_%s_rx_bytes=%s\n%s_%s_tx_bytes=%s\n", n, a[1], a[2], n, a[1], a[10] }'
    done
}

cmd_counters() {
    local mode=text since=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --json) mode=json; shift ;;
            --env) mode=env; shift ;;
            --since) [ $# -ge 2 ] || die "--since needs a file"; since=$2; shift 2 ;;
            *) die "unknown option for counters: $1" ;;
        esac
    done
    need_up
    if [ -n "$since" ]; then
        [ -r "$since" ] || die "cannot read $since"
        counters_env | awk -F= -v mode="$mode" '
            NR == FNR { before[$1] = $2; next }
            { now[$1] = $2 }
            END {
                for (k in now) if (k ~ /^node[A-D]_rail[0-9]+_tx_bytes$/) {
                    split(k, p, "_"); d = now[k] - before[k]; rail[p[2]] += d; total += d }
                    else if (k ~ /^node[A-D]_mgmt0_tx_bytes$/) mgmt += now[k] - before[k]
                n = 0; for (r in rail) names[n++] = r
                for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
                if (mode == "json") printf "{"
                for (i = 0; i < n; i++) {
                    r = names[i]; s = total > 0 ? rail[r] / total : 0
                    if (mode == "json") printf "%s\"%s\":{\"bytes\":%.0f,\"share\":%.4f}", i ? "," : "", r, rail[r], s
                    else if (mode == "env") printf "%s_bytes=%.0f\n%s_share=%.4f\n", r, rail[r], r, s
                    else printf "%-6s %15.0f bytes %6.1f%%\n", r, rail[r], 100 * s
                }
                if (mode == "json") printf ",\"mgmt0\":{\"bytes\":%.0f}}\n", mgmt
                else if (mode == "env") printf "mgmt0_bytes=%.0f\n", mgmt
                else printf "%-6s %15.0f bytes (management, not a rail)\n", "mgmt0", mgmt
            }' "$since" -
        return
    fi
    case $mode in
        env) counters_env ;;
        json) counters_env | awk -F= '
            { split($1, p, "_"); node = p[1]; dev = p[2]; dir = p[3]
              if (!(node in seen)) { nodes[nn++] = node; seen[node] = 1 }
              if (!((node, dev) in dseen)) { devs[node, nd[node]++] = dev; dseen[node, dev] = 1 }
              v[node, dev, dir] = $2 }
            END { printf "{"
                  for (i = 0; i < nn; i++) { node = nodes[i]; printf "%s\"%s\":{", i ? "," : "", node
                      for (j = 0; j < nd[node]; j++) { dev = devs[node, j]
                          printf "%s\"%s\":{\"tx_bytes\":%s,\"rx_bytes\":%s}", j ? "," : "", dev, v[node, dev, "tx"], v[node, dev, "rx"] }
                      printf "}" }
                  printf "}\n" }' ;;
        text) counters_env | awk -F= '
            { split($1, p, "_"); k = p[1] " " p[2]; v[k, p[3]] = $2; if (!(k in s)) { o[n++] = k; s[k] = 1 } }
            END { for (i = 0; i < n; i++) { split(o[i], q, " ")
                  printf "%s %-6s tx_bytes=%s rx_bytes=%s\n", q[1], q[2], v[o[i], "tx"], v[o[i], "rx"] } }' ;;
    esac
}

cmd_status() {
    local n ns
    echo "state: $STATE"
    [ -f "$STATE/config" ] && sed 's/^/  /' "$STATE/config"
    echo "--- namespaces"; ip netns list | grep -E "^$NAME-" || true
    echo "--- root-namespace links"; ip -br link | grep -E "^($NAME-node|$MGMT_BR)" || true
    for n in "${NODES[@]}"; do
        ns=$(ns_of "$n")
        [ -e "/run/netns/$ns" ] || continue
        echo "--- $n = $ns (host name: $("$STATE/nsrsh" "$n" hostname 2>/dev/null || echo '?'))"
        ip -n "$ns" -br addr
        tc -n "$ns" qdisc show | grep -v noqueue || true
    done
    if is_up; then echo "--- counters"; cmd_counters; fi
}

cmd_env() {
    load_config
    cat <<EOF
MGC_CLUSTER=$NAME
MGC_ID=$ID
MGC_STATE=$STATE
MGC_NSRSH=$STATE/nsrsh
MGC_RAILBIND=$STATE/railbind
MGC_HOSTFILE_OMPI=$STATE/hostfile.ompi
MGC_HOSTFILE_MPICH=$STATE/hostfile.mpich
MGC_MGMT_NET=$MGMT_NET.0/24
MGC_RAILS=$RAILS
MGC_DEVICES=$ALL_DEVICES
MGC_RATE=$RATE
MGC_SLOTS=$SLOTS
EOF
}

cmd_line() {
    build_launch "$@"
    printf '%q ' "${LAUNCH[@]}" | sed 's/ $//'
    echo
}

cmd_run() {
    build_launch "$@"
    local pid rc since="" now killed=0
    timeout -k 10 "$TIMEOUT" "${LAUNCH[@]}" &
    pid=$!
    # a background job of a script ignores SIGINT: pass interruptions on
    trap 'kill -TERM "$pid" 2>/dev/null; wait "$pid"; cmd_reap; exit 130' INT TERM HUP
    if [ -n "$DONE" ]; then
        while kill -0 "$pid" 2>/dev/null; do
            if [ -z "$since" ] && [ -s "$DONE" ]; then since=$SECONDS; fi
            if [ -n "$since" ] && [ $((SECONDS - since)) -ge "$GRACE" ]; then
                echo "netns-cluster($NAME): still running ${GRACE}s after its output $DONE was complete:" \
                     "killed (known MPICH 4.0.2 + UCX MPI_Finalize hang, openucx/ucx#8738)" >&2
                killed=1
                kill -TERM "$pid" 2>/dev/null || true
                break
            fi
            sleep 0.5
        done
    fi
    rc=0
    wait "$pid" || rc=$?
    if [ $killed = 1 ]; then rc=124; fi
    if [ $rc = 124 ] || [ $rc = 137 ] || [ $killed = 1 ]; then
        [ $killed = 1 ] || echo "netns-cluster($NAME): launch timed out after ${TIMEOUT}s" >&2
        cmd_reap
    fi
    return $rc
}

main() {
    case "${1:-}" in
    up) shift; cmd_up "$@" ;;
    down) shift; cmd_down "$@" ;;
    status) cmd_status ;;
    counters) shift; cmd_counters "$@" ;;
    exec) shift; [ $# -ge 2 ] || die "usage: $PROG exec NODE CMD..."
          [ -x "$STATE/nsrsh" ] || die "not up"
          NSRSH_KEEP_ENV=1 exec "$STATE/nsrsh" "$@" ;;
    run) shift; need_root; cmd_run "$@" ;;
    line) shift; cmd_line "$@" ;;
    env) cmd_env ;;
    info) cmd_info ;;
    reap) need_root; cmd_reap ;;
    shape) shift; need_root; cmd_shape "$@" ;;
    shape-path) shift; need_root; cmd_shape_path "$@" ;;
    -h|--help|help|"") usage ;;
    *) usage >&2; exit 2 ;;
    esac
}
# One line, parsed whole before it runs: editing this file while a launch is in
# flight cannot make the running script read on at a shifted offset.
main "$@"; exit $?
