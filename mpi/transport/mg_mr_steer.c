/* SPDX-License-Identifier: BSD-3-Clause */
/* Multirail steering (mg_mr.h): every process's device chosen before
 * MPI_Init from the parsed options, the device each process ended up with,
 * the rail map, and the hint communicators. */
#include "mg_mr.h"

#include "mg_binding.h"
#include "mg_netdev.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --rail-bind auto: the K devices hwloc finds (one process driving all K
 * takes the K nearest to its binding; under process steering rail r must be
 * the same device for every process of the node: the node's K rails, by
 * name). */
static void bind_auto(mg_rails *R, const mg_rail_opts *o, hwloc_topology_t topo,
                      const mg_netdev *devs, int ndevs)
{
    int idx[MG_RAILS_MAX], n, k = (int)o->rails;
    int one = o->mode == MG_RAIL_LIBRARY || o->steer == MG_STEER_HINT;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();

    if (!one || topo == NULL || set == NULL ||
        hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
        if (set)
            hwloc_bitmap_free(set);
        set = NULL;
    }
    n = ndevs > 0 ? mg_netdev_select(devs, ndevs, topo, set, k, idx) : 0;
    if (set)
        hwloc_bitmap_free(set);
    if (n < k)
        snprintf(R->pre_err, sizeof R->pre_err,
                 "--rail-bind auto: hwloc found %d network device%s here, --rails asks for "
                 "%d (give the devices: --rail-bind DEV1,DEV2)",
                 n, n == 1 ? "" : "s", k);
    for (int i = 0; i < n && i < k; ++i)
        snprintf(R->devices[i], sizeof R->devices[i], "%s", devs[idx[i]].name);
    R->ndevices = n < k ? n : k;
}

/* --rail-bind DEV1,DEV2,..: K devices that exist here ("mlx5_0:1" names
 * port 1 of mlx5_0). */
static void bind_list(mg_rails *R, const mg_rail_opts *o, const mg_netdev *devs, int ndevs)
{
    char err[200];
    int k = (int)o->rails,
        n = mg_netdev_parse_list(o->bind, R->devices, MG_RAILS_MAX, err, sizeof err);
    if (n < 0)
        snprintf(R->pre_err, sizeof R->pre_err, "--rail-bind: %s", err);
    else if (n != k)
        snprintf(R->pre_err, sizeof R->pre_err, "--rail-bind: %d device%s listed for --rails %d", n,
                 n == 1 ? "" : "s", k);
    for (int i = 0; i < n && ndevs > 0 && R->pre_err[0] == '\0'; ++i) {
        int found = 0;
        size_t len = strcspn(R->devices[i], ":");
        for (int d = 0; d < ndevs; ++d)
            found |= strlen(devs[d].name) == len && strncmp(devs[d].name, R->devices[i], len) == 0;
        if (!found) {
            char host[64] = "?";
            gethostname(host, sizeof host - 1);
            snprintf(R->pre_err, sizeof R->pre_err,
                     "--rail-bind: no network device '%s' on %s (mpigauge-rails lists them)",
                     R->devices[i], host);
        }
    }
    R->ndevices = n > 0 ? n : 0;
}

/* Set the library's device environment: all K devices for one process
 * (library mode, hint steering), else the device of this local rank. */
static void steer_env(mg_rails *R, const mg_rail_opts *o, const mg_netdev *devs, int ndevs)
{
    int k = (int)o->rails;
    if (o->mode == MG_RAIL_LIBRARY || o->steer == MG_STEER_HINT) {
        char list[MG_RAILS_MAX * 65] = "";
        size_t off = 0;
        for (int i = 0; i < k; ++i)
            off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", i ? "," : "",
                                    R->devices[i]);
        mg_netdev_setenv(devs, ndevs, list, R->steer_env, sizeof R->steer_env);
    } else {
        R->pre_local_rank = mg_netdev_local_rank(NULL);
        if (R->pre_local_rank < 0) {
            snprintf(R->pre_err, sizeof R->pre_err,
                     "--rail-bind: the launcher gives no local rank (OMPI_COMM_WORLD_LOCAL_"
                     "RANK, MPI_LOCALRANKID, SLURM_LOCALID, ...): cannot pick a device");
            return;
        }
        R->pre_rail = R->pre_local_rank % k;
        mg_netdev_setenv(devs, ndevs, R->devices[R->pre_rail], R->steer_env, sizeof R->steer_env);
    }
    if (o->mode == MG_RAIL_LIBRARY) {
        char v[16];
        snprintf(v, sizeof v, "%d", k);
        setenv("UCX_MAX_RNDV_RAILS", v, 1);
        snprintf(R->steer_env + strlen(R->steer_env), sizeof R->steer_env - strlen(R->steer_env),
                 " UCX_MAX_RNDV_RAILS=%d", k);
    }
}

mg_rails *mg_multirail_pre_init(const mg_rail_opts *o)
{
    mg_rails *R = calloc(1, sizeof *R);
    mg_netdev devs[64];
    int ndevs = 0;
    hwloc_topology_t topo = NULL;

    if (R == NULL)
        return NULL;
    R->pre_local_rank = -1;
    R->pre_rail = -1;
    if (o->rails < 2 || o->bind == NULL || strcmp(o->bind, "none") == 0)
        return R;
    if (mg_netdev_topology(&topo, NULL) == 0)
        ndevs = mg_netdev_discover_machine(topo, devs, 64);
    if (strcmp(o->bind, "auto") == 0)
        bind_auto(R, o, topo, devs, ndevs);
    else
        bind_list(R, o, devs, ndevs);
    if (R->pre_err[0] == '\0')
        steer_env(R, o, devs, ndevs);
    if (topo)
        hwloc_topology_destroy(topo);
    return R;
}

/* This process's device: the one it was steered to, else what the
 * environment says (a launcher or the mpigauge-rails wrapper). */
static void my_device(const mg_rails *R, map_entry *e, hwloc_topology_t topo)
{
    const char *v = getenv("UCX_NET_DEVICES");
    const char *t = getenv("OMPI_MCA_btl_tcp_if_include");
    mg_netdev devs[64];
    int n = topo ? mg_netdev_discover_machine(topo, devs, 64) : 0;

    if (R->steer_env[0])
        snprintf(e->steer_env, sizeof e->steer_env, "%s", R->steer_env);
    else if (v || t)
        snprintf(e->steer_env, sizeof e->steer_env, "%s%s%s%s (from the environment)",
                 v ? "UCX_NET_DEVICES=" : "", v ? v : "", t ? " OMPI_MCA_btl_tcp_if_include=" : "",
                 t ? t : "");
    else
        snprintf(e->steer_env, sizeof e->steer_env, "none (the library's default devices)");
    if (R->mode == MG_RAIL_LIBRARY || R->steer == MG_STEER_HINT)
        snprintf(e->device, sizeof e->device, "%s", v ? v : t ? t : "default");
    else if (R->pre_rail >= 0)
        snprintf(e->device, sizeof e->device, "%s", R->devices[R->pre_rail]);
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

void mg_mr_gather_map(mg_rails *R)
{
    map_entry me;
    hwloc_topology_t topo = NULL;
    int n;
    memset(&me, 0, sizeof me);
    gethostname(me.host, sizeof me.host - 1);
    if (mg_netdev_topology(&topo, NULL) != 0)
        topo = NULL;
    mg_binding(topo, me.binding, sizeof me.binding);
    my_device(R, &me, topo);
    if (topo)
        hwloc_topology_destroy(topo);
    me.bench_rank = R->bench_rank;
    me.member = R->member;
    /* process steering: the device of the node rank (the group member) */
    me.rail = R->steer == MG_STEER_HINT || R->mode == MG_RAIL_LIBRARY ? -1 : R->local % R->k;
    MG_MPI_CHECK(MPI_Comm_size(R->world, &n));
    me.local_rank = R->pre_local_rank;
    if (R->world_rank == 0) {
        R->map = malloc((size_t)n * sizeof *R->map);
        if (R->map == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
        R->nmap = n;
    }
    MG_MPI_CHECK(
        MPI_Gather(&me, (int)sizeof me, MPI_BYTE, R->map, (int)sizeof me, MPI_BYTE, 0, R->world));
}

void mg_mr_hint_comms(mg_rails *R)
{
    for (int r = 0; r < R->k; ++r) {
        MPI_Info info, got;
        int ok = 1;
        size_t o = 0;
        char seen[sizeof R->hint_seen[0]] = "";
        MG_MPI_CHECK(MPI_Info_create(&info));
        for (int h = 0; h < R->nhints; ++h) {
            char v[256];
            mg_rail_hint_value(R->hint_vals[h], r, v, sizeof v);
            MG_MPI_CHECK(MPI_Info_set(info, R->hint_keys[h], v));
        }
        MG_MPI_CHECK(MPI_Comm_dup_with_info(R->world, info, &R->comm[r]));
        MG_MPI_CHECK(MPI_Info_free(&info));
        MG_MPI_CHECK(MPI_Comm_get_info(R->comm[r], &got));
        for (int h = 0; h < R->nhints; ++h) {
            char want[256], have[256] = "";
            int flag = 0;
#if MPI_VERSION >= 4
            int len = (int)sizeof have;
            MG_MPI_CHECK(MPI_Info_get_string(got, R->hint_keys[h], &len, have, &flag));
#else
            MG_MPI_CHECK(MPI_Info_get(got, R->hint_keys[h], (int)sizeof have - 1, have, &flag));
#endif
            mg_rail_hint_value(R->hint_vals[h], r, want, sizeof want);
            if (!flag || strcmp(have, want) != 0)
                ok = 0;
            o += (size_t)snprintf(seen + o, sizeof seen - o, "%s%s=%s", h ? ";" : "",
                                  R->hint_keys[h], flag ? have : "(not kept)");
            if (o >= sizeof seen)
                o = sizeof seen - 1;
        }
        memcpy(R->hint_seen[r], seen, sizeof seen);
        R->hint_ok[r] = ok;
        MG_MPI_CHECK(MPI_Info_free(&got));
    }
}
