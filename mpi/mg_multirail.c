/* Multirail: see mg_multirail.h and doc/multirail.md. */
#include "mg_multirail.h"

#include "mg_netdev.h"
#include "mg_prov.h"

#include <hwloc.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const mode_names[] = {"stripe", "bind", "library", NULL};
static const char *const steer_names[] = {"process", "hint", NULL};

const mg_opt mg_rail_optdefs[] = {
    {0, "rails", MG_OPT_LONG, offsetof(mg_rail_opts, rails), "K",
     "multirail: use K rails (network devices); 1 = off (default 1)", 1, MG_RAILS_MAX, NULL},
    {0, "rail-mode", MG_OPT_CHOICE, offsetof(mg_rail_opts, mode), "stripe|bind|library",
     "cut large messages over the rails, keep whole messages on one rail per direction and "
     "pair, or hand all devices to the library (default stripe)", 0, 0, mode_names},
    {0, "rail-steer", MG_OPT_CHOICE, offsetof(mg_rail_opts, steer), "process|hint",
     "one device per process (K processes per node form a rail group), or K communicators "
     "with info hints in one process (default process)", 0, 0, steer_names},
    {0, "rail-bind", MG_OPT_STRING, offsetof(mg_rail_opts, bind), "none|auto|DEV1,DEV2,..",
     "set each process's devices before MPI_Init: from hwloc (auto), from the list (rail r = "
     "entry r), or not at all (none: the launcher or mpigauge-rails did; default)", 0, 0, NULL},
    {0, "stripe-threshold", MG_OPT_SIZE, offsetof(mg_rail_opts, threshold), "BYTES",
     "stripe: messages up to BYTES are not cut (default 8192)", 0, 281474976710656.0, NULL},
    {0, "rail-weights", MG_OPT_STRING, offsetof(mg_rail_opts, weights), "even|W1,W2,..|auto",
     "stripe: share of each rail; auto measures each rail first (default even)", 0, 0, NULL},
    {0, "rail-hint", MG_OPT_STRING, offsetof(mg_rail_opts, hints), "KEY=VALUE[;..]",
     "hint steering: info keys of rail communicator r (%d = r; default the MPICH key "
     "multi_nic_pref_nic=%d)", 0, 0, NULL},
    {0, NULL, MG_OPT_END, 0, NULL, NULL, 0, 0, NULL}};

void mg_rail_opts_default(mg_rail_opts *o)
{
    memset(o, 0, sizeof *o);
    o->rails = 1;
    o->threshold = 8192;
}

/* ---- the shared-memory command ring between a group's rank and helpers ---- */

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

static struct {
    int on;       /* --rails > 1 */
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
} R;

/* Keep MPI progressing while a process waits on shared memory: a finished
 * rendezvous may still owe its peer an acknowledgement (MPICH over UCX). */
static void progress(void)
{
    int flag;
    MG_MPI_CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, R.rail_comm, &flag, MPI_STATUS_IGNORE));
}

static void relax(unsigned long *spins)
{
    if (R.rail_comm != MPI_COMM_NULL)
        progress();
    if (++*spins < 64)
        return;
    if (*spins < 20000) {
        sched_yield();
    } else {
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
    }
}

/* ---- before MPI_Init ---- */

static const char *arg_value(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    const char *v = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
            v = argv[i] + n + 1;
        else if (strcmp(argv[i], name) == 0 && i + 1 < argc)
            v = argv[++i];
    }
    return v;
}

static int choice_index(const char *v, const char *const *names)
{
    for (int i = 0; v && names[i]; ++i)
        if (strcmp(v, names[i]) == 0)
            return i;
    return 0;
}

void mg_multirail_pre_init(int argc, char **argv)
{
    const char *rails = arg_value(argc, argv, "--rails");
    const char *bind = arg_value(argc, argv, "--rail-bind");
    int k = rails ? atoi(rails) : 1;
    int mode = choice_index(arg_value(argc, argv, "--rail-mode"), mode_names);
    int steer = choice_index(arg_value(argc, argv, "--rail-steer"), steer_names);
    mg_netdev devs[64];
    int ndevs = 0;
    hwloc_topology_t topo = NULL;
    char list[MG_RAILS_MAX * 65] = "";

    R.pre_local_rank = -1;
    R.pre_rail = -1;
    if (k < 2 || k > MG_RAILS_MAX || bind == NULL || strcmp(bind, "none") == 0)
        return;
    if (mg_netdev_topology(&topo, NULL) == 0)
        ndevs = mg_netdev_discover_machine(topo, devs, 64);
    if (strcmp(bind, "auto") == 0) {
        int idx[MG_RAILS_MAX], n;
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        /* one process driving all K devices takes the K nearest to its
         * binding; under process steering rail r must be the same device
         * for every process of the node: the node's K rails, by name */
        int one = mode == MG_RAIL_LIBRARY || steer == MG_STEER_HINT;
        if (!one || topo == NULL || set == NULL ||
            hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
            if (set)
                hwloc_bitmap_free(set);
            set = NULL;
        }
        n = ndevs > 0 ? mg_netdev_select(devs, ndevs, topo, set, k, idx) : 0;
        if (set)
            hwloc_bitmap_free(set);
        if (n < k) {
            snprintf(R.pre_err, sizeof R.pre_err,
                     "--rail-bind auto: hwloc found %d network device%s here, --rails asks for "
                     "%d (give the devices: --rail-bind DEV1,DEV2)", n, n == 1 ? "" : "s", k);
        }
        for (int i = 0; i < n && i < k; ++i)
            snprintf(R.devices[i], sizeof R.devices[i], "%s", devs[idx[i]].name);
        R.ndevices = n < k ? n : k;
    } else {
        char err[200];
        int n = mg_netdev_parse_list(bind, R.devices, MG_RAILS_MAX, err, sizeof err);
        if (n < 0)
            snprintf(R.pre_err, sizeof R.pre_err, "--rail-bind: %s", err);
        else if (n != k)
            snprintf(R.pre_err, sizeof R.pre_err,
                     "--rail-bind: %d device%s listed for --rails %d", n, n == 1 ? "" : "s", k);
        for (int i = 0; i < n && ndevs > 0 && R.pre_err[0] == '\0'; ++i) {
            /* a listed device must exist here ("mlx5_0:1" names port 1 of mlx5_0) */
            int found = 0;
            size_t len = strcspn(R.devices[i], ":");
            for (int d = 0; d < ndevs; ++d)
                found |= strlen(devs[d].name) == len && strncmp(devs[d].name, R.devices[i], len) == 0;
            if (!found) {
                char host[64] = "?";
                gethostname(host, sizeof host - 1);
                snprintf(R.pre_err, sizeof R.pre_err,
                         "--rail-bind: no network device '%s' on %s (mpigauge-rails lists them)",
                         R.devices[i], host);
            }
        }
        R.ndevices = n > 0 ? n : 0;
    }
    if (R.pre_err[0] == '\0') {
        if (mode == MG_RAIL_LIBRARY || steer == MG_STEER_HINT) {
            size_t o = 0;
            for (int i = 0; i < k; ++i)
                o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? "," : "",
                                      R.devices[i]);
            mg_netdev_setenv(devs, ndevs, list, R.steer_env, sizeof R.steer_env);
        } else {
            R.pre_local_rank = mg_netdev_local_rank(NULL);
            if (R.pre_local_rank < 0) {
                snprintf(R.pre_err, sizeof R.pre_err,
                         "--rail-bind: the launcher gives no local rank (OMPI_COMM_WORLD_LOCAL_"
                         "RANK, MPI_LOCALRANKID, SLURM_LOCALID, ...): cannot pick a device");
            } else {
                R.pre_rail = R.pre_local_rank % k;
                mg_netdev_setenv(devs, ndevs, R.devices[R.pre_rail], R.steer_env,
                                 sizeof R.steer_env);
            }
        }
        if (mode == MG_RAIL_LIBRARY && R.pre_err[0] == '\0') {
            char v[16];
            snprintf(v, sizeof v, "%d", k);
            setenv("UCX_MAX_RNDV_RAILS", v, 1);
            snprintf(R.steer_env + strlen(R.steer_env),
                     sizeof R.steer_env - strlen(R.steer_env), " UCX_MAX_RNDV_RAILS=%d", k);
        }
    }
    if (topo)
        hwloc_topology_destroy(topo);
}

/* ---- setup ---- */

/* The lowest world rank whose message is not empty tells everyone. */
static int agree_error(const char *mine, char *err, size_t errlen)
{
    int me = mine[0] ? R.world_rank : INT_MAX, first = INT_MAX;
    char buf[256];
    MG_MPI_CHECK(MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, R.world));
    if (first == INT_MAX)
        return 0;
    snprintf(buf, sizeof buf, "%s", mine);
    MG_MPI_CHECK(MPI_Bcast(buf, (int)sizeof buf, MPI_CHAR, first, R.world));
    snprintf(err, errlen, "%s", buf);
    return -1;
}

/* This process's device: the one it was steered to, else what the
 * environment says (a launcher or the mpigauge-rails wrapper). */
static void my_device(map_entry *e, hwloc_topology_t topo)
{
    const char *v = getenv("UCX_NET_DEVICES");
    const char *t = getenv("OMPI_MCA_btl_tcp_if_include");
    mg_netdev devs[64];
    int n = topo ? mg_netdev_discover_machine(topo, devs, 64) : 0;

    if (R.steer_env[0])
        snprintf(e->steer_env, sizeof e->steer_env, "%s", R.steer_env);
    else if (v || t)
        snprintf(e->steer_env, sizeof e->steer_env, "%s%s%s%s (from the environment)",
                 v ? "UCX_NET_DEVICES=" : "", v ? v : "", t ? " OMPI_MCA_btl_tcp_if_include=" : "",
                 t ? t : "");
    else
        snprintf(e->steer_env, sizeof e->steer_env, "none (the library's default devices)");
    if (R.mode == MG_RAIL_LIBRARY || R.steer == MG_STEER_HINT)
        snprintf(e->device, sizeof e->device, "%s", v ? v : t ? t : "default");
    else if (R.pre_rail >= 0)
        snprintf(e->device, sizeof e->device, "%s", R.devices[R.pre_rail]);
    else
        snprintf(e->device, sizeof e->device, "%s", v ? v : t ? t : "default");
    e->numa = -1;
    for (int i = 0; i < n; ++i) {
        size_t len = strlen(devs[i].name);
        if (strncmp(e->device, devs[i].name, len) == 0 &&
            (e->device[len] == '\0' || e->device[len] == ':')) {
            e->numa = devs[i].numa;
            e->pci_gbps = devs[i].pci_gbps;
        }
    }
}

static void gather_map(void)
{
    map_entry me;
    hwloc_topology_t topo = NULL;
    int n;
    memset(&me, 0, sizeof me);
    gethostname(me.host, sizeof me.host - 1);
    if (mg_netdev_topology(&topo, NULL) != 0)
        topo = NULL;
    mg_prov_binding(topo, me.binding, sizeof me.binding);
    my_device(&me, topo);
    if (topo)
        hwloc_topology_destroy(topo);
    me.bench_rank = R.bench_rank;
    me.member = R.member;
    /* process steering: the device of the node rank (the group member) */
    me.rail = R.steer == MG_STEER_HINT || R.mode == MG_RAIL_LIBRARY ? -1 : R.local % R.k;
    MG_MPI_CHECK(MPI_Comm_size(R.world, &n));
    me.local_rank = R.pre_local_rank;
    if (R.world_rank == 0) {
        R.map = malloc((size_t)n * sizeof *R.map);
        if (R.map == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
        R.nmap = n;
    }
    MG_MPI_CHECK(MPI_Gather(&me, (int)sizeof me, MPI_BYTE, R.map, (int)sizeof me, MPI_BYTE, 0,
                            R.world));
}

static void hint_comms(void)
{
    for (int r = 0; r < R.k; ++r) {
        MPI_Info info, got;
        int ok = 1;
        size_t o = 0;
        MG_MPI_CHECK(MPI_Info_create(&info));
        for (int h = 0; h < R.nhints; ++h) {
            char v[256];
            mg_rail_hint_value(R.hint_vals[h], r, v, sizeof v);
            MG_MPI_CHECK(MPI_Info_set(info, R.hint_keys[h], v));
        }
        MG_MPI_CHECK(MPI_Comm_dup_with_info(R.world, info, &R.comm[r]));
        MG_MPI_CHECK(MPI_Info_free(&info));
        MG_MPI_CHECK(MPI_Comm_get_info(R.comm[r], &got));
        for (int h = 0; h < R.nhints; ++h) {
            char want[256], have[256] = "";
            int flag = 0;
#if MPI_VERSION >= 4
            int len = (int)sizeof have;
            MG_MPI_CHECK(MPI_Info_get_string(got, R.hint_keys[h], &len, have, &flag));
#else
            MG_MPI_CHECK(MPI_Info_get(got, R.hint_keys[h], (int)sizeof have - 1, have, &flag));
#endif
            mg_rail_hint_value(R.hint_vals[h], r, want, sizeof want);
            if (!flag || strcmp(have, want) != 0)
                ok = 0;
            o += (size_t)snprintf(R.hint_seen[r] + o, sizeof R.hint_seen[r] - o, "%s%s=%s",
                                  h ? ";" : "", R.hint_keys[h], flag ? have : "(not kept)");
            if (o >= sizeof R.hint_seen[r])
                o = sizeof R.hint_seen[r] - 1;
        }
        R.hint_ok[r] = ok;
        MG_MPI_CHECK(MPI_Info_free(&got));
    }
}

int mg_multirail_setup(const mg_rail_opts *o, int max_ranks, MPI_Comm world, MPI_Comm *bench_comm,
                       int *helper, char *err, size_t errlen)
{
    char msg[256] = "";
    MPI_Comm node;
    int local, nlocal, bad, nworld;

    *helper = 0;
    *bench_comm = world;
    R.world = world;
    R.group = MPI_COMM_NULL;
    R.rail_comm = MPI_COMM_NULL;
    for (int r = 0; r < MG_RAILS_MAX; ++r)
        R.comm[r] = MPI_COMM_NULL;
    MG_MPI_CHECK(MPI_Comm_rank(world, &R.world_rank));
    MG_MPI_CHECK(MPI_Comm_size(world, &nworld));
    R.bench_rank = R.world_rank;
    R.k = (int)o->rails;
    R.mode = o->mode;
    R.steer = o->steer;
    R.threshold = o->threshold;
    if (R.k < 2 && o->mode == MG_RAIL_STRIPE && !o->bind && !o->weights && !o->hints &&
        o->steer == MG_STEER_PROCESS)
        return 0; /* no multirail */
    if (R.k < 2)
        snprintf(msg, sizeof msg, "the rail options need --rails K with K >= 2");
    else if (R.pre_err[0])
        snprintf(msg, sizeof msg, "%s", R.pre_err);
    else if (mg_rail_weights_parse(o->weights, R.k, R.w, &R.wsource, msg, sizeof msg) != 0) {
        /* msg says why */
    }
    else if (o->weights && o->mode != MG_RAIL_STRIPE)
        snprintf(msg, sizeof msg, "--rail-weights applies to --rail-mode stripe only");
    else if (o->hints && o->steer != MG_STEER_HINT)
        snprintf(msg, sizeof msg, "--rail-hint needs --rail-steer hint");
    else if (o->hints && (R.nhints = mg_rail_hints_parse(o->hints, R.hint_keys, R.hint_vals,
                                                         MAX_HINTS, msg, sizeof msg)) < 0) {
        /* msg says why */
    }
    if (agree_error(msg, err, errlen) != 0)
        return -1;
    R.on = 1;
    if (o->steer == MG_STEER_HINT && o->hints == NULL) {
        snprintf(R.hint_keys[0], sizeof R.hint_keys[0], "multi_nic_pref_nic");
        snprintf(R.hint_vals[0], sizeof R.hint_vals[0], "%%d");
        R.nhints = 1;
    }
    R.groups = R.mode != MG_RAIL_LIBRARY && R.steer == MG_STEER_PROCESS &&
               (R.mode == MG_RAIL_STRIPE || max_ranks == 2);
    R.active = R.mode != MG_RAIL_LIBRARY && (R.groups || R.steer == MG_STEER_HINT);

    MG_MPI_CHECK(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, R.world_rank, MPI_INFO_NULL,
                                     &node));
    MG_MPI_CHECK(MPI_Comm_rank(node, &local));
    MG_MPI_CHECK(MPI_Comm_size(node, &nlocal));
    if (R.pre_local_rank < 0)
        R.pre_local_rank = local;
    /* the launcher's local rank chose the device: it must be MPI's too */
    bad = R.pre_rail >= 0 && R.pre_rail != local % R.k;
    msg[0] = '\0';
    if (R.groups && nlocal % R.k != 0)
        snprintf(msg, sizeof msg,
                 "--rails %d --rail-steer process: every node needs a multiple of %d processes "
                 "(a rail group per benchmark rank), a node has %d", R.k, R.k, nlocal);
    else if (!R.groups && R.steer == MG_STEER_PROCESS && R.mode == MG_RAIL_BIND && nlocal < R.k)
        snprintf(msg, sizeof msg,
                 "--rails %d --rail-mode bind: every process drives the rail of its node rank, "
                 "so a node needs at least %d processes, a node has %d", R.k, R.k, nlocal);
    if (bad)
        snprintf(msg, sizeof msg,
                 "--rail-bind: the launcher's local rank %d differs from MPI's node rank %d: "
                 "launch ranks in node order", R.pre_local_rank, local);
    if (agree_error(msg, err, errlen) != 0) {
        MG_MPI_CHECK(MPI_Comm_free(&node));
        R.on = R.groups = R.active = 0; /* nothing to stop or free */
        return -1;
    }
    R.local = local;
    R.member = R.groups ? local % R.k : 0;
    if (R.groups) {
        int bench = -1;
        MG_MPI_CHECK(MPI_Comm_split(node, local / R.k, local, &R.group));
        MG_MPI_CHECK(MPI_Comm_split(world, R.member == 0 ? 0 : MPI_UNDEFINED, R.world_rank,
                                    bench_comm));
        if (R.member == 0)
            MG_MPI_CHECK(MPI_Comm_rank(*bench_comm, &bench));
        MG_MPI_CHECK(MPI_Bcast(&bench, 1, MPI_INT, 0, R.group));
        R.bench_rank = bench;
        R.peer_world = malloc((size_t)nworld * sizeof *R.peer_world);
        {
            int mine[2] = {bench, R.member}, *all = malloc((size_t)nworld * 2 * sizeof *all);
            if (R.peer_world == NULL || all == NULL)
                mg_mpi_die(__FILE__, __LINE__, "out of memory");
            MG_MPI_CHECK(MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, world));
            for (int w = 0; w < nworld; ++w)
                R.peer_world[all[2 * w] * R.k + all[2 * w + 1]] = w;
            free(all);
        }
        MG_MPI_CHECK(MPI_Comm_dup(world, &R.rail_comm));
        /* the command rings: allocated by the benchmark rank */
        {
            MPI_Aint size = R.member == 0 ? (MPI_Aint)(R.k - 1) * (MPI_Aint)sizeof(rail_ring) : 0;
            MPI_Aint qsize;
            int disp;
            void *base;
            MG_MPI_CHECK(MPI_Win_allocate_shared(size, 64, MPI_INFO_NULL, R.group, &base,
                                                 &R.ctl_win));
            MG_MPI_CHECK(MPI_Win_shared_query(R.ctl_win, 0, &qsize, &disp, &base));
            R.rings = base;
            if (R.member == 0)
                for (int j = 0; j < R.k - 1; ++j) {
                    atomic_init(&R.rings[j].head, 0);
                    atomic_init(&R.rings[j].tail, 0);
                    atomic_init(&R.rings[j].done, 0);
                }
            MG_MPI_CHECK(MPI_Barrier(R.group));
        }
        *helper = R.member != 0;
    } else if (R.steer == MG_STEER_HINT && R.mode != MG_RAIL_LIBRARY) {
        hint_comms();
    }
    MG_MPI_CHECK(MPI_Comm_free(&node));
    gather_map();
    return 0;
}

int mg_multirail_active(void) { return R.active; }

int mg_multirail_groups(void) { return R.groups ? R.k : 1; }

/* ---- rail helpers ---- */

int mg_multirail_serve(void)
{
    rail_ring *ring = &R.rings[R.member - 1];
    MPI_Request *reqs = NULL;
    int nreq = 0, cap = 0, rc = 0;
    unsigned long spins = 0;

    for (;;) {
        uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
        rail_cmd c;
        if (atomic_load_explicit(&ring->head, memory_order_acquire) == tail) {
            if (nreq > 0) { /* progress what is posted */
                int flag;
                MG_MPI_CHECK(MPI_Testall(nreq, reqs, &flag, MPI_STATUSES_IGNORE));
                if (flag)
                    nreq = 0;
            }
            relax(&spins);
            continue;
        }
        spins = 0;
        c = ring->cmd[tail % RING];
        atomic_store_explicit(&ring->tail, tail + 1, memory_order_release);
        if (c.op == OP_STOP) {
            rc = (int)c.off;
            break;
        }
        switch (c.op) {
        case OP_ISEND:
        case OP_IRECV:
            if (nreq == cap) {
                cap = cap ? 2 * cap : 256;
                reqs = realloc(reqs, (size_t)cap * sizeof *reqs);
                if (reqs == NULL)
                    mg_mpi_die(__FILE__, __LINE__, "out of memory");
            }
            mg_xfer_post_comm(c.op == OP_ISEND, R.rail_comm, R.win_base[c.win] + c.off,
                              (size_t)c.len, c.peer, c.tag, &reqs[nreq++]);
            break;
        case OP_WAIT:
            if (nreq > 0)
                MG_MPI_CHECK(MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
            nreq = 0;
            atomic_fetch_add_explicit(&ring->done, 1, memory_order_release);
            break;
        case OP_ALLOC: {
            MPI_Aint qsize;
            int disp;
            void *base;
            MG_MPI_CHECK(MPI_Win_allocate_shared(0, 1, MPI_INFO_NULL, R.group, &base,
                                                 &R.wins[c.win]));
            MG_MPI_CHECK(MPI_Win_shared_query(R.wins[c.win], 0, &qsize, &disp, &base));
            R.win_base[c.win] = base;
            R.win_size[c.win] = (size_t)qsize;
            R.nwins = c.win + 1;
            break;
        }
        default:
            mg_mpi_die(__FILE__, __LINE__, "rail helper: unknown command");
        }
    }
    free(reqs);
    mg_multirail_finish(rc);
    return rc;
}

static void push(int member, const rail_cmd *c)
{
    rail_ring *ring = &R.rings[member - 1];
    uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    unsigned long spins = 0;
    while (head - atomic_load_explicit(&ring->tail, memory_order_acquire) >= RING)
        relax(&spins);
    ring->cmd[head % RING] = *c;
    atomic_store_explicit(&ring->head, head + 1, memory_order_release);
}

/* ---- buffers ---- */

void *mg_multirail_alloc(size_t bytes)
{
    rail_cmd c;
    void *base;
    if (!R.groups || R.member != 0)
        return mg_buf_alloc(bytes);
    if (R.nwins == MAX_WINS)
        mg_mpi_die(__FILE__, __LINE__, "too many rail windows");
    memset(&c, 0, sizeof c);
    c.op = OP_ALLOC;
    c.win = R.nwins;
    c.len = bytes;
    for (int j = 1; j < R.k; ++j)
        push(j, &c);
    if (bytes < 4096)
        bytes = 4096;
    MG_MPI_CHECK(MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, R.group, &base,
                                         &R.wins[R.nwins]));
    memset(base, 0, bytes);
    R.win_base[R.nwins] = base;
    R.win_size[R.nwins] = bytes;
    R.nwins++;
    return base;
}

void mg_multirail_free(void *p)
{
    for (int w = 0; w < R.nwins; ++w)
        if (R.groups && p == R.win_base[w])
            return; /* freed with the group in mg_multirail_finish */
    mg_buf_free(p);
}

/* ---- posting ---- */

static int window_of(const void *buf, size_t bytes, uint64_t *off)
{
    const char *b = buf;
    for (int w = 0; w < R.nwins; ++w)
        if (b >= R.win_base[w] && b + bytes <= R.win_base[w] + R.win_size[w]) {
            *off = (uint64_t)(b - R.win_base[w]);
            return w;
        }
    return -1;
}

static MPI_Request *extra_slot(void)
{
    if (R.nextra == R.cap_extra) {
        R.cap_extra = R.cap_extra ? 2 * R.cap_extra : 256;
        R.extra = realloc(R.extra, (size_t)R.cap_extra * sizeof *R.extra);
        if (R.extra == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
    }
    return &R.extra[R.nextra++];
}

/* Post part [off, off + len) of buf on rail r: this process posts it into
 * **first (then *first = NULL) or a slot of its own, a helper gets it as a
 * command. */
static void post_part(int send, const void *buf, uint64_t off, uint64_t len, int peer, int tag,
                      int r, MPI_Request **first)
{
    mg_multirail_pending = 1;
    if (!R.groups || r == 0) {
        MPI_Request *slot = *first ? *first : extra_slot();
        *first = NULL;
        if (R.groups)
            mg_xfer_post_comm(send, R.rail_comm, (char *)buf + off, (size_t)len,
                              R.peer_world[peer * R.k], tag, slot);
        else
            mg_xfer_post_comm(send, R.comm[r], (char *)buf + off, (size_t)len, peer, tag, slot);
    } else {
        rail_cmd c;
        uint64_t woff = 0;
        c.win = window_of((const char *)buf + off, (size_t)len, &woff);
        if (c.win < 0)
            mg_mpi_die(__FILE__, __LINE__, "a rail helper's stripe is outside the shared window");
        c.op = send ? OP_ISEND : OP_IRECV;
        c.peer = R.peer_world[peer * R.k + r];
        c.tag = tag;
        c.off = woff;
        c.len = len;
        push(r, &c);
        R.busy[r] = 1;
    }
}

/* Post a whole message on rail r (bind mode, the weight probe). */
static void post_on_rail(int send, const void *buf, size_t bytes, int peer, int tag, int r,
                         MPI_Request *req)
{
    uint64_t dummy;
    MPI_Request *first = req;
    if (R.groups && r != 0 && window_of(buf, bytes, &dummy) < 0)
        r = 0; /* small control messages (acknowledgements) outside the window */
    post_part(send, buf, 0, bytes, peer, tag, r, &first);
    if (first)
        *first = MPI_REQUEST_NULL;
}

void mg_multirail_post(int send, const void *buf, size_t bytes, int peer, int tag,
                       MPI_Request *req)
{
    MPI_Request *first = req;
    uint64_t off[MG_RAILS_MAX], len[MG_RAILS_MAX];
    if (R.mode == MG_RAIL_BIND) {
        int sender = send ? R.bench_rank : peer, receiver = send ? peer : R.bench_rank;
        post_on_rail(send, buf, bytes, peer, tag, mg_rail_bound(R.pair, sender > receiver, R.k),
                     req);
        return;
    }
    if (bytes <= R.threshold || (R.groups && window_of(buf, bytes, &off[0]) < 0)) {
        /* not striped: on this rank's own rail (also small control messages,
         * e.g. acknowledgements, that live outside the shared window) */
        if (R.groups)
            post_on_rail(send, buf, bytes, peer, tag, 0, req);
        else
            mg_xfer_post_comm(send, R.comm[0], (void *)buf, bytes, peer, tag, req);
        return;
    }
    mg_stripe_split(bytes, R.k, R.w, 4096, off, len);
    for (int r = 0; r < R.k; ++r)
        if (len[r] > 0)
            post_part(send, buf, off[r], len[r], peer, tag, r, &first);
    if (first)
        *first = MPI_REQUEST_NULL;
}

void mg_multirail_complete(int n, MPI_Request *reqs)
{
    unsigned long spins = 0;
    rail_cmd c;
    memset(&c, 0, sizeof c);
    c.op = OP_WAIT;
    for (int r = 1; r < R.k && R.groups; ++r)
        if (R.busy[r]) {
            push(r, &c);
            R.waits[r]++;
        }
    if (n > 0)
        MG_MPI_CHECK(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
    if (R.nextra > 0)
        MG_MPI_CHECK(MPI_Waitall(R.nextra, R.extra, MPI_STATUSES_IGNORE));
    R.nextra = 0;
    for (int r = 1; r < R.k && R.groups; ++r) {
        if (!R.busy[r])
            continue;
        while (atomic_load_explicit(&R.rings[r - 1].done, memory_order_acquire) < R.waits[r])
            relax(&spins);
        R.busy[r] = 0;
    }
    mg_multirail_pending = 0;
}

/* ---- pairs and the weight probe ---- */

#define PROBE_MSGS 8
#define PROBE_TAG 28111

void mg_multirail_pairs(MPI_Comm comm, const int *partner_of, int rank, void *sbuf,
                        void *rbuf, size_t buf_bytes)
{
    int peer = partner_of ? partner_of[rank] : -1;
    if (!R.active)
        return;
    R.pair = 0;
    if (peer >= 0) {
        int lo = rank < peer ? rank : peer;
        for (int r = 0; r < lo; ++r)
            R.pair += partner_of[r] > r;
    }
    for (int r = 0; r < R.k; ++r)
        R.probe_mbs[r] = NAN;
    if (R.mode != MG_RAIL_STRIPE || R.wsource != MG_WEIGHTS_AUTO)
        return;
    {
        size_t bytes = buf_bytes < ((size_t)1 << 20) ? buf_bytes : (size_t)1 << 20;
        double w[MG_RAILS_MAX];
        MG_MPI_CHECK(MPI_Barrier(comm));
        if (peer >= 0) {
            int send = rank < peer;
            for (int r = 0; r < R.k; ++r) {
                double t0 = MPI_Wtime();
                char ack = 0;
                for (int m = 0; m < PROBE_MSGS + 1; ++m) {
                    MPI_Request q;
                    if (m == 1)
                        t0 = MPI_Wtime(); /* the first message warms the rail up */
                    post_on_rail(send, send ? sbuf : rbuf, bytes, peer, PROBE_TAG, r, &q);
                    mg_multirail_complete(1, &q);
                }
                if (send) {
                    MG_MPI_CHECK(MPI_Recv(&ack, 1, MPI_CHAR, peer, PROBE_TAG, comm,
                                          MPI_STATUS_IGNORE));
                    R.probe_mbs[r] = (double)PROBE_MSGS * (double)bytes / (MPI_Wtime() - t0) / 1e6;
                } else {
                    MG_MPI_CHECK(MPI_Send(&ack, 1, MPI_CHAR, peer, PROBE_TAG, comm));
                }
            }
            if (send) {
                mg_rail_weights_from_bw(R.probe_mbs, R.k, w);
                MG_MPI_CHECK(MPI_Send(w, R.k, MPI_DOUBLE, peer, PROBE_TAG, comm));
                MG_MPI_CHECK(MPI_Send(R.probe_mbs, R.k, MPI_DOUBLE, peer, PROBE_TAG, comm));
            } else {
                MG_MPI_CHECK(MPI_Recv(w, R.k, MPI_DOUBLE, peer, PROBE_TAG, comm, MPI_STATUS_IGNORE));
                MG_MPI_CHECK(MPI_Recv(R.probe_mbs, R.k, MPI_DOUBLE, peer, PROBE_TAG, comm,
                                      MPI_STATUS_IGNORE));
            }
            memcpy(R.w, w, sizeof w);
        }
        MG_MPI_CHECK(MPI_Barrier(comm));
    }
}

/* ---- the end ---- */

void mg_multirail_finish(int rc)
{
    if (!R.on)
        return;
    if (R.groups) {
        if (R.member == 0) {
            rail_cmd c;
            memset(&c, 0, sizeof c);
            c.op = OP_STOP;
            c.off = (uint64_t)rc;
            for (int j = 1; j < R.k; ++j)
                push(j, &c);
        }
        for (int w = 0; w < R.nwins; ++w)
            MG_MPI_CHECK(MPI_Win_free(&R.wins[w]));
        MG_MPI_CHECK(MPI_Win_free(&R.ctl_win));
        MG_MPI_CHECK(MPI_Comm_free(&R.group));
        MG_MPI_CHECK(MPI_Comm_free(&R.rail_comm));
    }
    for (int r = 0; r < R.k; ++r)
        if (R.comm[r] != MPI_COMM_NULL)
            MG_MPI_CHECK(MPI_Comm_free(&R.comm[r]));
    free(R.peer_world);
    free(R.extra);
    free(R.map);
    R.on = 0;
}

/* ---- reporting ---- */

static const char *role_of(const map_entry *e, char *buf, size_t len)
{
    if (e->member == 0)
        snprintf(buf, len, "rank %d", e->bench_rank);
    else
        snprintf(buf, len, "rail helper of rank %d", e->bench_rank);
    return buf;
}

void mg_multirail_write_json(mg_json *j)
{
    if (!R.on)
        return;
    mg_json_object_begin(j, "rails");
    mg_json_int(j, "k", R.k);
    mg_json_string(j, "mode", mode_names[R.mode]);
    mg_json_string(j, "steer", steer_names[R.steer]);
    mg_json_bool(j, "rail_groups", R.groups);
    if (R.mode == MG_RAIL_STRIPE) {
        mg_json_uint(j, "stripe_threshold_bytes", (unsigned long long)R.threshold);
        mg_json_string(j, "weights_source", R.wsource == MG_WEIGHTS_AUTO    ? "auto"
                                            : R.wsource == MG_WEIGHTS_GIVEN ? "given"
                                                                            : "even");
        mg_json_array_begin(j, "weights");
        for (int r = 0; r < R.k; ++r)
            mg_json_number(j, NULL, R.w[r]);
        mg_json_array_end(j);
        if (R.wsource == MG_WEIGHTS_AUTO) {
            mg_json_array_begin(j, "probe_MB/s");
            for (int r = 0; r < R.k; ++r)
                mg_json_number(j, NULL, R.probe_mbs[r]);
            mg_json_array_end(j);
        }
    }
    if (R.steer == MG_STEER_HINT && R.mode != MG_RAIL_LIBRARY) {
        mg_json_array_begin(j, "hints");
        for (int r = 0; r < R.k; ++r) {
            mg_json_object_begin(j, NULL);
            mg_json_int(j, "rail", r);
            mg_json_string(j, "read_back", R.hint_seen[r]);
            mg_json_bool(j, "kept", R.hint_ok[r]);
            mg_json_object_end(j);
        }
        mg_json_array_end(j);
    }
    mg_json_array_begin(j, "map");
    for (int w = 0; w < R.nmap; ++w) {
        const map_entry *e = &R.map[w];
        char role[64];
        mg_json_object_begin(j, NULL);
        mg_json_int(j, "world_rank", w);
        mg_json_string(j, "host", e->host);
        mg_json_int(j, "local_rank", e->local_rank);
        mg_json_string(j, "role", role_of(e, role, sizeof role));
        if (e->rail >= 0)
            mg_json_int(j, "rail", e->rail);
        else
            mg_json_null(j, "rail");
        mg_json_string(j, "device", e->device);
        if (e->numa >= 0)
            mg_json_int(j, "device_numa", e->numa);
        else
            mg_json_null(j, "device_numa");
        if (e->pci_gbps > 0)
            mg_json_number(j, "device_pci_GB/s", e->pci_gbps);
        else
            mg_json_null(j, "device_pci_GB/s");
        mg_json_string(j, "binding", e->binding);
        mg_json_string(j, "steering", e->steer_env);
        mg_json_object_end(j);
    }
    mg_json_array_end(j);
    mg_json_object_end(j);
}

void mg_multirail_write_comment(FILE *f)
{
    if (!R.on)
        return;
    fprintf(f, "# Rails: %d, mode %s, steering %s", R.k, mode_names[R.mode], steer_names[R.steer]);
    if (R.mode == MG_RAIL_STRIPE) {
        fprintf(f, ", stripe threshold %llu B, weights", (unsigned long long)R.threshold);
        for (int r = 0; r < R.k; ++r)
            fprintf(f, "%s%.3f", r ? "," : " ", R.w[r]);
        fprintf(f, " (%s)", R.wsource == MG_WEIGHTS_AUTO    ? "auto"
                            : R.wsource == MG_WEIGHTS_GIVEN ? "given"
                                                            : "even");
    }
    fputc('\n', f);
    if (R.steer == MG_STEER_HINT && R.mode != MG_RAIL_LIBRARY)
        for (int r = 0; r < R.k; ++r)
            fprintf(f, "# rail %d hints: %s: %s\n", r, R.hint_seen[r],
                    R.hint_ok[r] ? "kept by the library (MPI_Comm_get_info; steering shows only in the devices' counters)" : "dropped by the library");
    for (int w = 0; w < R.nmap; ++w) {
        const map_entry *e = &R.map[w];
        char role[64], numa[16] = "?", pci[32] = "";
        if (e->numa >= 0)
            snprintf(numa, sizeof numa, "%d", e->numa);
        if (e->pci_gbps > 0)
            snprintf(pci, sizeof pci, ", PCI %.2f GB/s", e->pci_gbps);
        fprintf(f, "# rail map: process %d on %s (local %d, %s, cpus %s)", w, e->host,
                e->local_rank, role_of(e, role, sizeof role), e->binding);
        if (e->rail >= 0)
            fprintf(f, " -> rail %d", e->rail);
        fprintf(f, " -> %s (NUMA %s%s); %s\n", e->device, numa, pci, e->steer_env);
    }
}
