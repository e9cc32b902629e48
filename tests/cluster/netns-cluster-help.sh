# SPDX-License-Identifier: BSD-3-Clause
# netns-cluster.sh's help texts: `usage` (its commands and options) and
# `cmd_info` (paths and example command lines of an instance that is up).
# Sourced by netns-cluster.sh; uses its PROG, NAME, STATE and functions.
usage() {
    cat <<EOF
Usage: $PROG up [options]      create the emulated cluster (instance MG_CLUSTER=$NAME)
       $PROG down [--force]    remove everything 'up' created, also after a failed or
                                partial 'up'; processes still running inside the nodes
                                are killed (by PID) first
       $PROG status            namespaces, addresses, qdiscs, counters
       $PROG counters [--json|--env] [--since FILE]
                                tx/rx bytes of every device of every node; --env prints
                                NODE_DEV_tx_bytes=N lines (save them to FILE), --since FILE
                                the bytes carried by each rail since that snapshot
                                (tx of both ends) with its share of all rail bytes,
                                and the bytes of the management net mgmt0
       $PROG exec NODE CMD...  run CMD inside NODE, keeping the caller's environment
       $PROG run [run options] -- PROGRAM ARGS...
                                launch PROGRAM on the cluster under 'timeout'
       $PROG line [run options] -- PROGRAM ARGS...
                                print that launch command line instead (shell-quoted)
       $PROG env               NAME=VALUE lines: state, helpers, hostfiles, networks
       $PROG info              paths and example command lines for both MPIs
       $PROG reap              kill (by PID) every process left inside the nodes
       $PROG shape NODE RATE [--rail R]
                                NODE's links (every rail, or rail R) at RATE in both
                                directions from now on, tc syntax or 'none' (a slow
                                node; with two nodes a rail is one cable: both ends;
                                it also undoes shape-path on NODE)
       $PROG shape-path NODE PEER RATE [--rail R]
                                the path between two nodes on a switch (3 or 4
                                nodes) at RATE in both directions, their other
                                traffic as it was (a slow link, not a slow node);
                                'none': the path at the rail's rate again

Options for 'up':
  --rate RATE[,RATE..]  tbf rate per rail and direction, tc syntax (default 1gbit);
                  a list gives rail r entry r (the last entry for the rails beyond
                  it: 1gbit,500mbit = unequal rails); 'none' = no shaping (veth
                  runs at CPU speed)
  --burst SIZE    tbf burst (default 256kb)
  --delay TIME    extra one-way delay per rail with netem, e.g. 25us (default none;
                  needs sch_netem)
  --rails N       number of rails, 1..8 (default 2)
  --nodes N       number of nodes, 2..4 (default 2): nodeA, nodeB, nodeC, nodeD.
                  Two nodes: each rail is a veth pair between them. More: each
                  rail is a switch (bridge brR in the namespace NAME-sw) and every
                  node's railR its own uplink, shaped in both directions, so that
                  one node's link can be slowed ('shape')
  --mtu BYTES     MTU of the rail links (default 1500)
  --slots N       slots per node in the generated hostfiles (default 2)
  --native-netdev-order  leave /sys/class/net in sysfs' own per-namespace (hash)
                  order instead of the same order on both nodes (see UCX note)

Options for 'run' and 'line':
  --mpi ompi|ompi-ucx|mpich|mpich-ofi|impi
                  Open MPI with pml ob1 + tcp BTL (default), Open MPI with pml ucx
                  over UCX tcp, MPICH (ch4:ucx) with hydra, MPICH 5's OFI netmod
                  (libfabric tcp on the first device), or Intel MPI (libfabric tcp
                  on the first device; needs --launcher)
  --launcher PATH the installation's own launcher (default: Debian's
                  mpirun.openmpi or mpiexec.mpich); its --version gives the
                  release: Open MPI 5's prterun gets PRRTE's options (--prtemca
                  plm_ssh_agent, oob_tcp_if_include, prte_tmpdir_base; btl sm),
                  MPICH 5 the UCX netmod explicitly
  --np N          processes in all (default 2 x --ppn)
  --ppn N         processes per node (default 1); Open MPI: --map-by ppr:N:node,
                  MPICH: -ppn N; ranks 0..N-1 on nodeA, the next N on nodeB
  --cyclic        ranks dealt round the nodes instead (rank r on node r mod
                  nodes; Open MPI: --rank-by node, MPICH: -ppn 1 and -n as
                  given), so that consecutive ranks are on different nodes
                  (collectives' --multi groups that span the nodes)
  --devices LIST  the rail devices handed to the library, e.g. rail0 or
                  rail0,rail1, or 'all' (default rail0); always explicit, so that
                  mgmt0 never carries MPI data
  --env K=V       one more environment variable for every rank (repeatable)
  --timeout S     kill the launch after S seconds (default 300); exit code 124
  --done FILE --grace S
                  once FILE exists and is not empty (a result file written before
                  MPI_Finalize), allow the launch S more seconds (default 20), then
                  kill it and exit 124 with a note: MPICH 4.0.2 + UCX 1.13 tcp now
                  and then hangs in MPI_Finalize after complete output, more often
                  with more than 2 ranks (openucx/ucx#8738)
After a timeout 'run' kills what the launch left inside the nodes (by PID).

What 'up' builds (device names are the same on both nodes, as on a real cluster):
  nodes      ${NODES[*]} = namespaces $(ns_of nodeA), $(ns_of nodeB): net namespace
             (/run/netns/NS, usable with 'ip -n NS') + UTS namespace (host name)
             + IPC namespace, kept in $STATE. Every entry through nsrsh also gets
             a fresh mount namespace with the node's own /sys (its net devices),
             /dev/shm (per-node tmpfs), /etc/hosts (cluster names) and
             /proc/sys/kernel/random/boot_id. UCX treats equal boot_id + IPC
             namespace as "same host" and would otherwise use shared memory between
             the two nodes whatever their host names are.
             UCX note: sysfs lists /sys/class/net in a per-namespace hash order.
             UCX 1.13 numbers its TCP devices in that order and pairs the lanes of
             two peers by that number; when the orders differ between the nodes its
             lanes pair local rail0 with remote rail1, and as UCX does not bind its
             sockets to a device the kernel routes both multi-rail connections over
             one rail. nsrsh therefore shows /sys/class/net in the same (sorted)
             order on every node (a tmpfs holding the same symlinks as sysfs).
  rails      veth railR(nodeA) <-> railR(nodeB), 10.77.(20 ID + R).1/24 <-> .2/24,
             tbf (and netem with --delay) on the egress of both ends
  mgmt net   bridge $MGMT_BR 10.77.(20 ID + 19).1/24 in the root namespace; veth
             $NAME-NODE <-> mgmt0 in each node (.11 nodeA, .12 nodeB); inside the nodes
             the root host's name ($(hostname)) resolves to the bridge address
  helpers    $STATE/nsrsh    ssh/rsh stand-in: nsrsh [ssh options] HOST [CMD...]
             $STATE/railbind [bind --rails K --devices LIST --] CMD...: exports
                             UCX_NET_DEVICES and OMPI_MCA_btl_tcp_if_include = device
                             (local rank mod K) of LIST (default: all rails)
  hostfiles  $STATE/hostfile.ompi ("nodeA slots=N"), $STATE/hostfile.mpich ("nodeA:N")
Nothing outside the namespaces, $MGMT_BR, the $NAME-node* veths and $STATE is changed.
EOF
}

cmd_info() {
    load_config
    local one two
    one=$(cmd_line --mpi ompi --np 2 --devices rail0 -- ./app)
    two=$(cmd_line --mpi ompi-ucx --np 2 --devices "$ALL_DEVICES" --env UCX_MAX_RNDV_RAILS="$RAILS" -- ./app)
    cat <<EOF
instance:  $NAME (MG_CLUSTER_ID=$ID), state $STATE
helpers:   $STATE/nsrsh  $STATE/railbind
hostfiles: $STATE/hostfile.ompi  $STATE/hostfile.mpich
networks:  management $MGMT_NET.0/24 (bridge $MGMT_BR), rails $ALL_DEVICES on $RAIL_NETS
shaping:   rate=$RATE burst=$BURST delay=$DELAY mtu=$MTU

'$PROG run [options] -- PROGRAM ARGS' launches; '$PROG line ...' prints the line.
Open MPI 4.1, pml ob1 + tcp BTL, one rail ($PROG line --mpi ompi --devices rail0 -- ./app):
  $one
Open MPI 4.1, pml ucx over UCX tcp, both rails striped by the library
($PROG line --mpi ompi-ucx --devices all --env UCX_MAX_RNDV_RAILS=$RAILS -- ./app):
  $two
MPICH 4.0 (ch4:ucx), hydra:
  $(cmd_line --mpi mpich --np 2 --devices "$ALL_DEVICES" --env UCX_MAX_RNDV_RAILS="$RAILS" -- ./app)
Notes:
 * --bind-to none matters: each node thinks it owns all cores, so Open MPI's default
   binding puts the ranks of both nodes on the same physical core.
 * pml ucx refuses a tcp-only UCX unless told (pml_ucx_tls any, pml_ucx_devices any).
 * orte_tmpdir_base keeps Open MPI's session folders (named after the host name,
   nodeA) apart from those of other instances.
 * Binding mode (2 ranks per node, local rank k -> rail k): --ppn 2 and run
   "$STATE/railbind bind --rails 2 --devices rail0,rail1 -- ./app"; Open MPI and MPICH
   both place ranks 0,1 on nodeA and 2,3 on nodeB, so pair across the nodes.
 * Always restrict UCX/BTL to the rails: otherwise mgmt0 may carry MPI data.
 * MPICH 4.0.2 + UCX 1.13 tcp: MPI_Finalize hangs now and then after complete output
   (openucx/ucx#8738; often with 4 ranks, seen with 2 as well), also outside the
   emulation: 'run' uses timeout (--timeout, --done FILE --grace S).
 * Open MPI ob1 + tcp BTL opens one TCP connection per peer and interface: bibw on
   one rail then reaches only one direction's rate (~119 MB/s); --env
   OMPI_MCA_btl_tcp_links=2 gives ~238 MB/s.
EOF
}
