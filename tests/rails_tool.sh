#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# mpigauge-rails (tools/mpigauge_rails.c), TAP: the listing of the hwloc XML
# fixtures (tests/fixtures/topo) in JSON and as a table, the bind wrapper's
# rail per local rank and its environment, and the exit codes (2 usage, 127
# exec). Environment as for mpi_cases.sh (MG_BINDIR, MG_TESTDIR, PYTHON).
set -u
: "${PYTHON:=python3}"
prog=""
for d in $(printf '%s' "$MG_BINDIR" | tr ':' ' '); do
    [ -x "$d/mpigauge-rails" ] && prog="$d/mpigauge-rails"
done
topo="$MG_TESTDIR/fixtures/topo"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..17"
if [ -z "$prog" ]; then
    echo "Bail out! mpigauge-rails not found in MG_BINDIR=$MG_BINDIR"
    exit 1
fi
# No launcher's local rank leaks in (e.g. when the suite runs inside srun).
rails() { env -u OMPI_COMM_WORLD_LOCAL_RANK -u MPI_LOCALRANKID -u PMI_LOCAL_RANK \
    -u PALS_LOCAL_RANKID -u SLURM_LOCALID "$@"; }
n=0
check() { # description, then a command that succeeds when the case holds
    n=$((n + 1))
    desc=$1
    shift
    if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fi
}
status_is() { # expected status, command...
    want=$1
    shift
    "$@" >/dev/null 2>&1 </dev/null
    [ $? -eq "$want" ]
}
output_is() { # expected stdout, command...
    want=$1
    shift
    got=$("$@" 2>/dev/null </dev/null)
    [ "$got" = "$want" ] || { echo "# got '$got', expected '$want'"; return 1; }
}

rails "$prog" --input "$topo/two_socket_two_hca.xml" --rails 2 --format json >"$tmp/two.json" 2>&1
check "json listing of two_socket_two_hca: devices, kinds, NUMA, PCI, rails" "$PYTHON" -c '
import json, sys
r = json.load(open(sys.argv[1]))
d = {x["name"]: x for x in r["devices"]}
assert [x["name"] for x in r["devices"]] == ["eth0", "ib0", "ib1", "mlx5_0", "mlx5_1"], d
assert d["mlx5_1"] == {"name": "mlx5_1", "kind": "openfabrics", "numa": 1, "pci_busid": "0000:86:00.0",
                       "pci_gbps": 15.75, "cpuset": "4-7", "netdev": "ib1"}, d["mlx5_1"]
assert d["eth0"]["kind"] == "network" and d["eth0"]["pci_gbps"] == 1 and d["eth0"]["netdev"] is None
assert r["rails"] == ["mlx5_0", "mlx5_1"] and r["rails_requested"] == 2 and r["binding"] is None, r
' "$tmp/two.json"
rails "$prog" --input "$topo/one_socket_no_hca.xml" --format json >"$tmp/one.json" 2>&1
check "json listing of one_socket_no_hca: no loopback, virtual bond0 without PCI" "$PYTHON" -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert [(x["name"], x["pci_busid"]) for x in r["devices"]] == [("bond0", None), ("eth0", "0000:00:03.0")], r
assert r["rails"] == ["eth0"], r
' "$tmp/one.json"
check "table listing: the 2 rails nearest to package 0 of four HCAs" sh -c \
    '"$1" --input "$2" --rails 2 --near 0-3 | grep -qx "rails (2 of 2): mlx5_0 mlx5_1"' sh "$prog" \
    "$topo/two_socket_four_hca.xml"
check "listing this machine: valid JSON (exit 0) or no device (exit 2)" sh -c \
    'out=$("$1" --format json 2>/dev/null); rc=$?
     if [ $rc -eq 0 ]; then printf "%s" "$out" | "$2" -c "import json, sys; json.load(sys.stdin)"
     else [ $rc -eq 2 ]; fi' sh "$prog" "$PYTHON"
check "bind: local rank 1 of rails rail0,rail1 gets rail1" output_is "rail1 rail1" \
    rails OMPI_COMM_WORLD_LOCAL_RANK=1 "$prog" bind --rails 2 --devices rail0,rail1 -- \
    sh -c 'echo $UCX_NET_DEVICES $OMPI_MCA_btl_tcp_if_include'
check "bind: local rank 2 of 2 rails wraps to rail0 (MPICH's MPI_LOCALRANKID)" output_is \
    "rail0 rail0 rail0" rails MPI_LOCALRANKID=2 "$prog" bind --devices rail0,rail1 -- \
    sh -c 'echo $UCX_NET_DEVICES $OMPI_MCA_btl_tcp_if_include $FI_TCP_IFACE'
check "bind: discovered rails of four HCAs, local rank 3 -> mlx5_2 with port and IPoIB" output_is \
    "mlx5_2:1 ib2 ib2" rails SLURM_LOCALID=3 "$prog" bind --input "$topo/two_socket_four_hca.xml" \
    --rails 2 -- sh -c 'echo $UCX_NET_DEVICES $OMPI_MCA_btl_tcp_if_include $FI_TCP_IFACE'
check "bind: overrides a value set by the user" output_is "rail0" \
    rails UCX_NET_DEVICES=mlx5_9:1 PMI_LOCAL_RANK=0 "$prog" bind --devices rail0 -- \
    sh -c 'echo $UCX_NET_DEVICES'
check "bind --verbose: one line on stderr" sh -c \
    'OMPI_COMM_WORLD_LOCAL_RANK=1 "$1" bind --devices a,b --verbose -- true 2>&1 >/dev/null |
     grep -qx "mpigauge-rails: .* local rank 1 -> rail 1 (b)"' sh "$prog"
check "exit 2: unknown local rank" status_is 2 rails "$prog" bind --devices a -- true
check "exit 2: malformed local rank" status_is 2 rails SLURM_LOCALID=x "$prog" bind --devices a -- true
check "exit 2: bad device list" status_is 2 rails SLURM_LOCALID=0 "$prog" bind --devices a,,b -- true
rails_out_of_range() { status_is 2 "$prog" --rails 0 && status_is 2 "$prog" --rails 17; }
check "exit 2: --rails 0 and --rails 17" rails_out_of_range
check "exit 2: missing COMMAND" status_is 2 rails SLURM_LOCALID=0 "$prog" bind --devices a --
cat >"$tmp/none.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="2.0">
  <object type="Machine" os_index="0" cpuset="0x1" complete_cpuset="0x1" allowed_cpuset="0x1" nodeset="0x1" complete_nodeset="0x1" allowed_nodeset="0x1" gp_index="1">
    <object type="NUMANode" os_index="0" cpuset="0x1" complete_cpuset="0x1" nodeset="0x1" complete_nodeset="0x1" gp_index="2"/>
    <object type="PU" os_index="0" cpuset="0x1" complete_cpuset="0x1" nodeset="0x1" complete_nodeset="0x1" gp_index="3"/>
  </object>
</topology>
XML
check "exit 2: no network device" status_is 2 rails SLURM_LOCALID=0 "$prog" bind --input "$tmp/none.xml" -- true
check "exit 127: COMMAND cannot be run" status_is 127 rails SLURM_LOCALID=0 "$prog" bind --devices a -- \
    "$tmp/no-such-command"
check "--help exits 0 and shows both forms" sh -c \
    '"$1" --help | grep -q "mpigauge-rails bind" && "$1" --help | grep -q -- "--rails K"' sh "$prog"
