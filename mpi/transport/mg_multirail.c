/* SPDX-License-Identifier: BSD-3-Clause */
/* Multirail: the options, the rails object and its setup (mg_multirail.h,
 * mg_mr.h, doc/multirail.md). */
#include "mg_mr.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_mr_mode_names[] = {"stripe", "bind", "library", NULL};
const char *const mg_mr_steer_names[] = {"process", "hint", NULL};

const mg_opt mg_rail_optdefs[] = {
    {.long_name = "rails",
     .type = MG_OPT_LONG,
     .offset = offsetof(mg_rail_opts, rails),
     .arg_name = "K",
     .help = "multirail: use K rails (network devices); 1 = off",
     .min = 1,
     .max = MG_RAILS_MAX,
     .def = "1"},
    {.long_name = "rail-mode",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(mg_rail_opts, mode),
     .arg_name = "stripe|bind|library",
     .help = "cut large messages over the rails, keep whole messages on one rail per direction and "
             "pair, or hand all devices to the library",
     .choices = mg_mr_mode_names,
     .def = "stripe"},
    {.long_name = "rail-steer",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(mg_rail_opts, steer),
     .arg_name = "process|hint",
     .help = "one device per process (K processes per node form a rail group), or K communicators "
             "with info hints in one process",
     .choices = mg_mr_steer_names,
     .def = "process"},
    {.long_name = "rail-bind",
     .type = MG_OPT_STRING,
     .offset = offsetof(mg_rail_opts, bind),
     .arg_name = "none|auto|DEV1,DEV2,..",
     .help =
         "set each process's devices before MPI_Init: from hwloc (auto), from the list (rail r = "
         "entry r), or not at all (none: the launcher or mpigauge-rails did; default)"},
    {.long_name = "stripe-threshold",
     .type = MG_OPT_SIZE,
     .offset = offsetof(mg_rail_opts, threshold),
     .arg_name = "BYTES",
     .help = "stripe: messages up to BYTES are not cut",
     .max = 281474976710656.0,
     .def = "8192"},
    {.long_name = "rail-weights",
     .type = MG_OPT_STRING,
     .offset = offsetof(mg_rail_opts, weights),
     .arg_name = "even|W1,W2,..|auto",
     .help = "stripe: share of each rail; auto measures each rail first (default even)"},
    {.long_name = "rail-hint",
     .type = MG_OPT_STRING,
     .offset = offsetof(mg_rail_opts, hints),
     .arg_name = "KEY=VALUE[;..]",
     .help = "hint steering: info keys of rail communicator r (%d = r; default the MPICH key "
             "multi_nic_pref_nic=%d)"},
    {.type = MG_OPT_END}};

void mg_rail_opts_default(mg_rail_opts *o)
{
    /* the options with a default in their row get it in mg_plan_make */
    memset(o, 0, sizeof *o);
}

/* The lowest world rank whose message is not empty tells everyone. */
/* Every process gets the lowest failing process's message in err. */
static int agree_error(const mg_rails *R, char *msg, int len, char *err, size_t errlen)
{
    if (mg_mpi_agree_message(R->world, msg, len) == 0)
        return 0;
    snprintf(err, errlen, "%s", msg);
    return -1;
}

/* The options' own consistency; *msg empty when they are fine. */
static void check_options(mg_rails *R, const mg_rail_opts *o, char *msg, size_t len)
{
    if (R->k < 2)
        snprintf(msg, len, "the rail options need --rails K with K >= 2");
    else if (R->pre_err[0])
        snprintf(msg, len, "%s", R->pre_err);
    else if (mg_rail_weights_parse(o->weights, R->k, R->w, &R->wsource, msg, len) != 0)
        return; /* msg says why */
    else if (o->weights && o->mode != MG_RAIL_STRIPE)
        snprintf(msg, len, "--rail-weights applies to --rail-mode stripe only");
    else if (o->hints && o->steer != MG_STEER_HINT)
        snprintf(msg, len, "--rail-hint needs --rail-steer hint");
    else if (o->hints)
        R->nhints = mg_rail_hints_parse(o->hints, R->hint_keys, R->hint_vals, MAX_HINTS, msg, len);
}

/* The node's processes fit the rails; *msg empty when they do. */
static void check_placement(const mg_rails *R, int local, int nlocal, char *msg, size_t len)
{
    /* the launcher's local rank chose the device: it must be MPI's too */
    int bad = R->pre_rail >= 0 && R->pre_rail != local % R->k;
    msg[0] = '\0';
    if (R->groups && nlocal % R->k != 0)
        snprintf(msg, len,
                 "--rails %d --rail-steer process: every node needs a multiple of %d processes "
                 "(a rail group per benchmark rank), a node has %d",
                 R->k, R->k, nlocal);
    else if (!R->groups && R->steer == MG_STEER_PROCESS && R->mode == MG_RAIL_BIND && nlocal < R->k)
        snprintf(msg, len,
                 "--rails %d --rail-mode bind: every process drives the rail of its node rank, "
                 "so a node needs at least %d processes, a node has %d",
                 R->k, R->k, nlocal);
    if (bad)
        snprintf(msg, len,
                 "--rail-bind: the launcher's local rank %d differs from MPI's node rank %d: "
                 "launch ranks in node order",
                 R->pre_local_rank, local);
}

/* Rail groups: K consecutive processes of a node, the first the benchmark
 * rank; the world rank of every (benchmark rank, member); the rings. */
static void make_groups(mg_rails *R, MPI_Comm world, MPI_Comm node, int local, int nworld,
                        MPI_Comm *bench_comm)
{
    int bench = -1, mine[2], *all;

    MG_MPI_CHECK(MPI_Comm_split(node, local / R->k, local, &R->group));
    MG_MPI_CHECK(
        MPI_Comm_split(world, R->member == 0 ? 0 : MPI_UNDEFINED, R->world_rank, bench_comm));
    if (R->member == 0)
        MG_MPI_CHECK(MPI_Comm_rank(*bench_comm, &bench));
    MG_MPI_CHECK(MPI_Bcast(&bench, 1, MPI_INT, 0, R->group));
    R->bench_rank = bench;
    R->peer_world = malloc((size_t)nworld * sizeof *R->peer_world);
    all = malloc((size_t)nworld * 2 * sizeof *all);
    if (R->peer_world == NULL || all == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    mine[0] = bench;
    mine[1] = R->member;
    MG_MPI_CHECK(MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, world));
    for (int w = 0; w < nworld; ++w)
        R->peer_world[all[2 * w] * R->k + all[2 * w + 1]] = w;
    free(all);
    MG_MPI_CHECK(MPI_Comm_dup(world, &R->rail_comm));
    mg_mr_make_rings(R);
}

static void setup_begin(mg_rails *R, const mg_rail_opts *o, MPI_Comm world)
{
    R->world = world;
    R->group = MPI_COMM_NULL;
    R->rail_comm = MPI_COMM_NULL;
    for (int r = 0; r < MG_RAILS_MAX; ++r)
        R->comm[r] = MPI_COMM_NULL;
    MG_MPI_CHECK(MPI_Comm_rank(world, &R->world_rank));
    R->bench_rank = R->world_rank;
    R->k = (int)o->rails;
    R->mode = o->mode;
    R->steer = o->steer;
    R->threshold = o->threshold;
}

int mg_multirail_setup(mg_rails *R, const mg_rail_opts *o, int max_ranks, MPI_Comm world,
                       MPI_Comm *bench_comm, int *helper, char *err, size_t errlen)
{
    char msg[256] = "";
    MPI_Comm node;
    int local, nlocal, nworld;

    *helper = 0;
    *bench_comm = world;
    setup_begin(R, o, world);
    MG_MPI_CHECK(MPI_Comm_size(world, &nworld));
    if (R->k < 2 && o->mode == MG_RAIL_STRIPE && !o->bind && !o->weights && !o->hints &&
        o->steer == MG_STEER_PROCESS)
        return 0; /* no multirail */
    check_options(R, o, msg, sizeof msg);
    if (agree_error(R, msg, (int)sizeof msg, err, errlen) != 0)
        return -1;
    R->on = 1;
    if (o->steer == MG_STEER_HINT && o->hints == NULL) {
        snprintf(R->hint_keys[0], sizeof R->hint_keys[0], "multi_nic_pref_nic");
        snprintf(R->hint_vals[0], sizeof R->hint_vals[0], "%%d");
        R->nhints = 1;
    }
    R->groups = R->mode != MG_RAIL_LIBRARY && R->steer == MG_STEER_PROCESS &&
                (R->mode == MG_RAIL_STRIPE || max_ranks == 2);
    R->active = R->mode != MG_RAIL_LIBRARY && (R->groups || R->steer == MG_STEER_HINT);

    MG_MPI_CHECK(
        MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, R->world_rank, MPI_INFO_NULL, &node));
    MG_MPI_CHECK(MPI_Comm_rank(node, &local));
    MG_MPI_CHECK(MPI_Comm_size(node, &nlocal));
    if (R->pre_local_rank < 0)
        R->pre_local_rank = local;
    check_placement(R, local, nlocal, msg, sizeof msg);
    if (agree_error(R, msg, (int)sizeof msg, err, errlen) != 0) {
        MG_MPI_CHECK(MPI_Comm_free(&node));
        R->on = R->groups = R->active = 0; /* nothing to stop or free */
        return -1;
    }
    R->local = local;
    R->member = R->groups ? local % R->k : 0;
    if (R->groups) {
        make_groups(R, world, node, local, nworld, bench_comm);
        *helper = R->member != 0;
    } else if (R->steer == MG_STEER_HINT && R->mode != MG_RAIL_LIBRARY) {
        mg_mr_hint_comms(R);
    }
    MG_MPI_CHECK(MPI_Comm_free(&node));
    mg_mr_gather_map(R);
    return 0;
}

int mg_multirail_groups(const mg_rails *R) { return R && R->groups ? R->k : 1; }

void mg_multirail_destroy(mg_rails *R) { free(R); }
