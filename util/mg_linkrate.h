/* SPDX-License-Identifier: BSD-3-Clause */
/* What the network hardware promises: the signalling rate of a node's
 * links, read from sysfs (doc/screen.md, "Link rates").
 *
 *   /sys/class/infiniband/DEV/ports/P/rate   "100 Gb/sec (4X EDR)"  (state: "4: ACTIVE")
 *   /sys/class/net/IFACE/speed               "25000" Mb/s (operstate: "up"; -1 unknown)
 *
 * The device MPI uses is the one its steering variables name when they
 * are set (UCX_NET_DEVICES "mlx5_0:1" or "eth0", OMPI_MCA_btl_tcp_if_include,
 * FI_TCP_IFACE, MG_LINK_DEVICE first), else the fastest active link, an
 * InfiniBand port before an interface at the same rate. The rate is a
 * ceiling for one direction of one link (it includes the encoding's
 * overhead): a share of it says how close a bandwidth came, not a fault.
 * The sysfs root is a parameter so that the tests give a tree of their own
 * (MG_SYSFS_ROOT). Plain C, no MPI.
 */
#ifndef MG_LINKRATE_H
#define MG_LINKRATE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char device[64]; /* mlx5_0:1 (an InfiniBand port) or eth0 */
    double gbps;     /* signalling rate, Gbit/s */
    int infiniband;
} mg_link;

/* "100 Gb/sec (4X EDR)" -> 100, "2.5 Gb/sec (1X SDR)" -> 2.5; -1 when the
 * text is not a rate. */
double mg_link_parse_ib_rate(const char *text);
/* "25000\n" (Mb/s) -> 25; -1 for "-1", 0, or not a number. */
double mg_link_parse_net_speed(const char *text);

/* The active links under root ("/sys"): InfiniBand ports in the ACTIVE
 * state with a rate, then network interfaces (not lo) whose operstate is
 * up (or unknown) with a speed; each class sorted by name. Returns the
 * count (at most max). */
int mg_link_discover(const char *root, mg_link *out, int max);

/* The link MPI most likely uses: the first device a steering variable
 * names (getenv_fn: NULL for getenv) that is among links[0..n), matching
 * "mlx5_0" to its first port; else the fastest, InfiniBand first at equal
 * rate. Its index, or -1 when n == 0. */
int mg_link_choose(const mg_link *links, int n, const char *(*getenv_fn)(const char *));

/* This node: mg_link_discover under $MG_SYSFS_ROOT (else /sys), then
 * mg_link_choose. 0 with *out filled, or -1 when no link is known. */
int mg_link_of_node(mg_link *out);

#ifdef __cplusplus
}
#endif

#endif
