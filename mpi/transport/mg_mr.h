/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal to multirail (mg_multirail.h): the rails object a session owns,
 * and the functions its files share.
 *
 *   mg_multirail.c  options, the object, setup (checks, groups, rings)
 *   mg_mr_steer.c   steering before MPI_Init, devices, hint communicators
 *   mg_mr_group.c   rail helpers: command rings, serve loop, buffers, the end
 *   mg_mr_xfer.c    the transfer ops (post, complete) and the weight probe
 *   mg_mr_report.c  the rail map and settings in the run record and table
 */
#ifndef MG_MR_H
#define MG_MR_H

#include "mg_multirail.h"

#include <stdatomic.h>
#include <stdint.h>

extern const char *const mg_mr_mode_names[];
extern const char *const mg_mr_steer_names[];

/* The shared-memory command ring between a group's rank and a helper. */

enum { OP_ISEND = 1, OP_IRECV, OP_WAIT, OP_ALLOC, OP_STOP };
#define RING 1024
#define MAX_WINS 4
#define MAX_HINTS 8

typedef struct {
    int op, peer, tag, win; /* peer: world rank; win: window index */
    uint64_t off, len;      /* bytes in the window; ALLOC: len = size; STOP: off = rc */
} rail_cmd;

typedef struct {
    _Atomic uint64_t head; /* commands written by the benchmark rank */
    char pad0[56];
    _Atomic uint64_t tail; /* commands taken by the helper */
    char pad1[56];
    _Atomic uint64_t done; /* WAIT commands completed */
    char pad2[56];
    rail_cmd cmd[RING];
} rail_ring;

/* One record per process for the rail map. */
typedef struct {
    char host[64], device[64], steer_env[192], binding[64];
    int local_rank, bench_rank, member, rail, numa;
    double pci_gbps; /* the device's PCI link speed, 0 unknown */
} map_entry;

struct mg_rails {
    int on;      /* --rails > 1 */
    int pending; /* rail parts are outstanding: complete() waits for them */
    int k, mode, steer, groups, active;
    uint64_t threshold;
    double w[MG_RAILS_MAX];
    int wsource;
    double probe_mbs[MG_RAILS_MAX];
    /* pre-init */
    char pre_err[256];
    char devices[MG_RAILS_MAX][64];
    int ndevices, pre_local_rank, pre_rail;
    char steer_env[192];
    /* communicators */
    MPI_Comm world, rail_comm, group, comm[MG_RAILS_MAX];
    int world_rank, member; /* member: index in the rail group (0: benchmark rank) */
    int local;              /* rank on the node */
    int *peer_world;        /* [bench rank * k + member] -> world rank */
    int pair, high_rank;    /* bind: this rank's pair index; rank and peer for directions */
    int bench_rank;
    /* shared memory */
    MPI_Win ctl_win, wins[MAX_WINS];
    char *win_base[MAX_WINS];
    size_t win_size[MAX_WINS];
    int nwins;
    rail_ring *rings; /* k - 1 rings, ring j - 1 for member j */
    uint64_t waits[MG_RAILS_MAX];
    int busy[MG_RAILS_MAX];
    /* hint steering: parts posted by this process beyond *req */
    MPI_Request *extra;
    int nextra, cap_extra;
    char hint_keys[MAX_HINTS][64], hint_vals[MAX_HINTS][256];
    int nhints, hint_ok[MG_RAILS_MAX];
    char hint_seen[MG_RAILS_MAX][256];
    /* map (world rank 0) */
    map_entry *map;
    int nmap;
};

/* The transport's parts (mg_mr_xfer.c installs them as mg_xfer_ops). */
/* Benchmark ranks, after the buffers exist: learn the pairs (bound rails),
 * run the --rail-weights auto probe. Collective over comm. */
void mg_multirail_pairs(mg_rails *R, MPI_Comm comm, const int *partner_of, int rank, void *sbuf,
                        void *rbuf, size_t buf_bytes);

/* Buffers: in the group's shared-memory window when there are rail helpers,
 * else mg_buf_alloc. */
void *mg_multirail_alloc(mg_rails *R, size_t bytes);
void mg_multirail_free(mg_rails *R, void *p);

/* Benchmark rank at the end: stop the helpers (they exit with rc), free the
 * windows and communicators. Collective over the rail group. */
void mg_multirail_finish(mg_rails *R, int rc);

/* Benchmark rank 0: the rail map and settings, in the run record ("rails")
 * and as "# " lines above the table. Nothing without --rails. */
void mg_multirail_write_json(const mg_rails *R, mg_json *j);
void mg_multirail_write_comment(const mg_rails *R, FILE *f);

/* mg_mr_steer.c */
void mg_mr_gather_map(mg_rails *R);
void mg_mr_hint_comms(mg_rails *R);
/* mg_mr_group.c */
void mg_mr_relax(mg_rails *R, unsigned long *spins);
void mg_mr_push(mg_rails *R, int member, const rail_cmd *c);
void mg_mr_make_rings(mg_rails *R);

#endif
