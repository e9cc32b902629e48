/* SPDX-License-Identifier: BSD-3-Clause */
/* Multirail: rails, stripes and rail groups (doc/multirail.md).
 *
 * A rail is a communicator whose traffic goes to one network device. Two
 * ways to steer (--rail-steer):
 *  - process: every process gets one device through the library's
 *    environment before MPI_Init (UCX_NET_DEVICES, OMPI_MCA_btl_tcp_if_include,
 *    FI_TCP_IFACE; set by --rail-bind or by the mpigauge-rails wrapper), local
 *    rank L taking rail L mod K. For striping (and for binding in the 2-rank
 *    benchmarks) K consecutive processes of a node form a rail group: the
 *    first is the benchmark rank, the others are rail helpers that send and
 *    receive their stripe of every message straight from the group's MPI-3
 *    shared-memory window (the benchmark's buffers), commanded through a ring
 *    in shared memory; completion is signalled the same way.
 *  - hint: one process per node holds K communicators duplicated with info
 *    hints (--rail-hint, the known MPICH key multi_nic_pref_nic) and posts
 *    the stripes itself; whether the library accepted the hints is read back
 *    with MPI_Comm_get_info and reported.
 * Modes (--rail-mode): stripe (messages above --stripe-threshold are cut
 * into K stripes by --rail-weights), bind (whole messages; the two
 * directions of a pair, and consecutive pairs, take different rails),
 * library (the devices are all handed to the library, UCX_MAX_RNDV_RAILS=K;
 * mpigauge does not stripe: the reference line).
 */
#ifndef MG_MULTIRAIL_H
#define MG_MULTIRAIL_H

#include "mg_json.h"
#include "mg_mpi.h"
#include "mg_opts.h"
#include "mg_rails.h"

#include <stdint.h>
#include <stdio.h>

typedef struct {
    long rails;          /* --rails K; 1: no multirail */
    int mode;            /* --rail-mode: MG_RAIL_* */
    int steer;           /* --rail-steer: MG_STEER_* */
    const char *bind;    /* --rail-bind: NULL/"none", "auto" or a device list */
    uint64_t threshold;  /* --stripe-threshold */
    const char *weights; /* --rail-weights */
    const char *hints;   /* --rail-hint */
} mg_rail_opts;

extern const mg_opt mg_rail_optdefs[];
void mg_rail_opts_default(mg_rail_opts *o);

/* The rails of one session (mpi/transport/mg_mr.h); NULL means no rails, and every
 * function below accepts NULL for it. */
typedef struct mg_rails mg_rails;

/* Before MPI_Init, from the parsed options: steer this process to its
 * device(s) (--rail-bind); problems are kept and reported by the setup.
 * Returns the session's rails object (NULL: out of memory). */
mg_rails *mg_multirail_pre_init(const mg_rail_opts *o);

/* After MPI_Init, collective over `world`. Checks the options and the
 * placement; builds the rails. A benchmark rank gets *bench_comm (its
 * communicator of benchmark ranks: world, or the rail groups' first
 * processes) and *helper = 0; a rail helper gets *helper = 1 and should call
 * mg_multirail_serve. Returns 0, or -1 with a message (the same on every
 * process). max_ranks: the benchmark's. */
int mg_multirail_setup(mg_rails *R, const mg_rail_opts *o, int max_ranks, MPI_Comm world,
                       MPI_Comm *bench_comm, int *helper, char *err, size_t errlen);

/* Rail helper: serve the group's benchmark rank until it stops; returns its
 * exit code. */
int mg_multirail_serve(mg_rails *R);

/* Processes per rail group (K), or 1 without rail groups. */
int mg_multirail_groups(const mg_rails *R);

/* The rails become the session's transport (mg_mpi.h's mg_xfer_ops): its
 * buffers (in the group's shared-memory window when there are rail
 * helpers), the pairs and the --rail-weights auto probe (prepare), the
 * helpers stopped and the windows freed (finish), the run record's "rails"
 * and the "# " lines above a table (describe), and, when multirail changes
 * the transfer layer (stripes or bound rails), the slow path. Nothing with
 * R NULL. */
void mg_multirail_attach(mg_rails *R, mg_xfer *x);

/* Free the object (after the transport's finish). */
void mg_multirail_destroy(mg_rails *R);

#endif
