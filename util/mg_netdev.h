/* SPDX-License-Identifier: BSD-3-Clause */
/* Network devices of a node and the choice of rails (multirail).
 *
 * A rail is a network device that MPI traffic is steered to: an OpenFabrics
 * device (HCA: mlx5_0) or a network interface (eth0, ib0). Discovery reads
 * the OS devices of an hwloc topology with its I/O objects kept; locality
 * (NUMA node, cpuset) is that of the device's first non-I/O ancestor.
 *
 * Virtual devices: hwloc 2.9 on Linux reports only OS devices below a PCI
 * device; a veth, bond, bridge, ifb or soft-RoCE device (no "device" link in
 * sysfs) is never listed, whatever the filter. hwloc XML can still carry such
 * a device (an OS device at Machine level), and discovery keeps it. For this
 * machine, mg_netdev_discover_machine() therefore adds the entries of
 * /sys/class/net and /sys/class/infiniband that hwloc did not report, as
 * virtual devices (pci_busid "", numa -1, cpuset "", pci_gbps 0). A topology
 * read from XML gets no such addition: the XML describes another node.
 *
 * Order: devices are sorted by name in natural order (mlx5_2 before mlx5_10),
 * so that index r is the same device on identical nodes. Loopback (lo) is
 * never a rail. Plain C, no MPI; everything but the discovery is pure.
 */
#ifndef MG_NETDEV_H
#define MG_NETDEV_H

#include <stddef.h>

#include <hwloc.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_NETDEV_MAX_RAILS 16 /* rails per process (K) and entries of a device list */
#define MG_NETDEV_MAX_ENV 3    /* strings filled by mg_netdev_env */

typedef enum { MG_NETDEV_OPENFABRICS = 0, MG_NETDEV_NETWORK = 1 } mg_netdev_kind;

typedef struct {
    char name[64]; /* OS device name: mlx5_0, ib0, eth0, rail0 */
    mg_netdev_kind kind;
    int numa;           /* OS index of the nearest NUMA node (the ancestor's only
                           * node), -1 unknown or several */
    char pci_busid[20]; /* "0000:3b:00.0", "" when the device has no PCI parent (virtual) */
    double pci_gbps;    /* PCI link speed in GB/s as hwloc reports it (linkspeed), 0 unknown */
    char cpuset[128];   /* locality, hwloc list syntax ("0-15"), "" unknown */
    char netdev[64];    /* for an OpenFabrics device: its network interface if hwloc
                           * shows one (ib0, on the same PCI device), else "" */
} mg_netdev;

/* Load a topology with I/O devices kept (all PCI and OS devices, and virtual
 * net devices where hwloc offers them); xml == NULL: this machine; else an
 * XML file. 0 or -1 (nothing to destroy then). */
int mg_netdev_topology(hwloc_topology_t *topo, const char *xml);

/* All OpenFabrics and network OS devices of topo except loopback, sorted by
 * name. Returns the count (<= max; the first max by name). */
int mg_netdev_discover(hwloc_topology_t topo, mg_netdev *out, int max);

/* Add to devs[0..n) the entries of a sysfs class directory (/sys/class/net,
 * /sys/class/infiniband, or a test fixture) that are not there yet, as virtual
 * devices of the given kind: every subdirectory (or link to one) except lo and
 * names starting with '.' or of 64 characters or more, and devices whose
 * operstate file reads "down"; plain files such as
 * bonding_masters are skipped. A missing directory adds nothing. Keeps the
 * name order; returns the new count (<= max). */
int mg_netdev_discover_sysfs(const char *dir, mg_netdev_kind kind, mg_netdev *devs, int n, int max);

/* This machine: mg_netdev_discover() on topo (loaded with xml == NULL), then
 * the sysfs additions of /sys/class/net and /sys/class/infiniband. */
int mg_netdev_discover_machine(hwloc_topology_t topo, mg_netdev *out, int max);

/* Choose k rails for a process whose CPU binding is `near` (NULL: no
 * preference). Devices are ranked by (1) locality: a device cpuset
 * intersecting `near` first (a device without cpuset uses its NUMA node's
 * from topo, which may be NULL), (2) OpenFabrics before plain network,
 * (3) PCI devices before virtual ones, (4) higher PCI speed, (5) name. The
 * first k are taken, skipping a device on the same PCI function as one
 * already taken (ib0 beside mlx5_0 is the same port, not a second rail); the
 * chosen indices into devs are returned in idx[] in name order, so that rail
 * r is the same device on identical nodes. Returns the number chosen (< k
 * when fewer distinct devices exist). */
int mg_netdev_select(const mg_netdev *devs, int n, hwloc_topology_t topo, hwloc_const_cpuset_t near,
                     int k, int *idx);

/* Parse a device list "rail0,rail1": 1..max names, no empty entry, no
 * duplicate, each <= 63 characters of [A-Za-z0-9_.:-]. Returns the count or
 * -1 with a message in err. */
int mg_netdev_parse_list(const char *spec, char names[][64], int max, char *err, size_t errlen);

/* The launcher's local rank before MPI_Init, from the first variable that is
 * set among OMPI_COMM_WORLD_LOCAL_RANK (Open MPI), MPI_LOCALRANKID (MPICH
 * hydra), PMI_LOCAL_RANK, PALS_LOCAL_RANKID (Cray PALS), SLURM_LOCALID (srun).
 * -1 when none is set or its value is not a non-negative decimal integer
 * (a set but malformed variable is not skipped). getenv_fn injects an
 * environment for tests (NULL: getenv). */
int mg_netdev_local_rank(const char *(*getenv_fn)(const char *name));

/* The environment that steers one process to the comma-separated device list
 * `list` (syntax of mg_netdev_parse_list, at most MG_NETDEV_MAX_RAILS names):
 * fills up to max "NAME=VALUE" strings, in this order:
 *   UCX_NET_DEVICES              every device; an OpenFabrics one with the port
 *                                suffix ":1" (mlx5_0:1) unless the name has a port
 *   OMPI_MCA_btl_tcp_if_include  the network devices, and for an OpenFabrics
 *                                device its netdev if known (omitted if none)
 *   FI_TCP_IFACE                 the first of those (libfabric tcp provider)
 * Kinds are looked up in devs[0..n) ("mlx5_0:2" as mlx5_0); unknown names are
 * network devices. Pure. Returns the count, or -1 for a bad list or a value
 * longer than 255 characters. */
int mg_netdev_env(const mg_netdev *devs, int n, const char *list, char env[][256], int max);

/* Set the environment of mg_netdev_env in this process (overwriting) and
 * write it as "NAME=VALUE NAME=VALUE" into applied (may be NULL). Returns the
 * number of variables, or -1 (bad list, or setenv failed). */
int mg_netdev_setenv(const mg_netdev *devs, int n, const char *list, char *applied, size_t len);

/* Natural name order (digit runs compare as numbers): <0, 0, >0. */
int mg_netdev_name_cmp(const char *a, const char *b);

#ifdef __cplusplus
}
#endif

#endif
