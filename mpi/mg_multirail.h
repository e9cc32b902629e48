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

/* Before MPI_Init: steer this process to its device(s) from argv's rail
 * options (--rail-bind); problems are kept and reported by the setup. */
void mg_multirail_pre_init(int argc, char **argv);

/* After the options are parsed, collective over `world`. Checks the options
 * and the placement; builds the rails. A benchmark rank gets *bench_comm (its
 * communicator of benchmark ranks: world, or the rail groups' first
 * processes) and *helper = 0; a rail helper gets *helper = 1 and should call
 * mg_multirail_serve. Returns 0, or -1 with a message (the same on every
 * process). max_ranks: the benchmark's. */
int mg_multirail_setup(const mg_rail_opts *o, int max_ranks, MPI_Comm world, MPI_Comm *bench_comm,
                       int *helper, char *err, size_t errlen);

/* Rail helper: serve the group's benchmark rank until it stops; returns its
 * exit code. */
int mg_multirail_serve(void);

/* Processes per rail group (K), or 1 without rail groups. */
int mg_multirail_groups(void);

/* Whether multirail changes the transfer layer (stripes or bound rails). */
int mg_multirail_active(void);

/* Benchmark ranks, after the buffers exist: learn the pairs (bound rails),
 * run the --rail-weights auto probe. Collective over comm. */
void mg_multirail_pairs(MPI_Comm comm, const int *partner_of, int rank, void *sbuf,
                        void *rbuf, size_t buf_bytes);

/* Buffers: in the group's shared-memory window when there are rail helpers,
 * else mg_buf_alloc. */
void *mg_multirail_alloc(size_t bytes);
void mg_multirail_free(void *p);

/* Benchmark rank at the end: stop the helpers (they exit with rc), free the
 * windows and communicators. Collective over the rail group. */
void mg_multirail_finish(int rc);

/* Benchmark rank 0: the rail map and settings, in the run record ("rails")
 * and as "# " lines above the table. Nothing without --rails. */
void mg_multirail_write_json(mg_json *j);
void mg_multirail_write_comment(FILE *f);

/* The transfer layer's slow path (mg_mpi.c): post one message over the
 * rails; *req is its first part, the others complete in mg_xfer_waitall. */
void mg_multirail_post(int send, const void *buf, size_t bytes, int peer, int tag,
                       MPI_Request *req);
/* Complete reqs[0..n) and every outstanding rail part. */
void mg_multirail_complete(int n, MPI_Request *reqs);

#endif
