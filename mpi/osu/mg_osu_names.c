/* SPDX-License-Identifier: BSD-3-Clause */
/* The OSU drop-in's names (mg_osu.h): every OSU program mpigauge answers
 * to, the program that runs it, OSU's title line, and what its table
 * shows. */
#include "mg_osu.h"

#include <stdio.h>
#include <string.h>

#define E_P2P(o, b, t, k)                                                                          \
    {                                                                                              \
        "osu_" o, "mpigauge_" b, b, t, k                                                           \
    }
#define E_COLL(o, t, k)                                                                            \
    {                                                                                              \
        "osu_" o, "mpigauge_" o, o, "OSU MPI " t " Latency Test", k                                \
    }
#define E_PERS(o, t)                                                                               \
    {                                                                                              \
        "osu_" o "_persistent", "mpigauge_" o "_init", o "_init",                                  \
            "OSU MPI " t " Persistent Latency Test", MG_OSU_PERS                                   \
    }
#define E_NBC(o, t)                                                                                \
    {                                                                                              \
        "osu_i" o, "mpigauge_i" o, "i" o, "OSU MPI Non-blocking " t " Latency Test", MG_OSU_NBC    \
    }

static const mg_osu_entry entries[] = {
    E_P2P("latency", "latency", "OSU MPI Latency Test", MG_OSU_LAT),
    E_P2P("bw", "bw", "OSU MPI Bandwidth Test", MG_OSU_BW),
    E_P2P("bibw", "bibw", "OSU MPI Bi-Directional Bandwidth Test", MG_OSU_BW),
    E_P2P("mbw_mr", "mbw_mr", "OSU MPI Multiple Bandwidth / Message Rate Test", MG_OSU_MBW),
    E_P2P("bw_fan_in", "fan", "OSU MPI Bandwidth Test", MG_OSU_FAN_IN),
    E_P2P("bw_fan_out", "fan", "OSU MPI Bandwidth Test", MG_OSU_FAN_OUT),
    E_P2P("multi_lat", "multi_lat", "OSU MPI Multi Latency Test", MG_OSU_LAT),
    E_P2P("latency_mt", "latency_mt", "OSU MPI Multi-threaded Latency Test", MG_OSU_MT),
    E_P2P("latency_persistent", "latency", "OSU MPI Latency Persistent Test", MG_OSU_LAT_P),
    E_P2P("bw_persistent", "bw", "OSU MPI Bandwidth Persistent Test", MG_OSU_BW_P),
    E_P2P("bibw_persistent", "bibw", "OSU MPI Bi-Directional Bandwidth Persistent Test",
          MG_OSU_BW_P),
    E_P2P("init", "startup", "OSU MPI Init Test", MG_OSU_INIT),
    E_P2P("hello", "hello", "OSU MPI Hello World Test", MG_OSU_HELLO),
    E_COLL("allgather", "Allgather", MG_OSU_COLL),
    E_COLL("allgatherv", "Allgatherv", MG_OSU_COLL),
    E_COLL("allreduce", "Allreduce", MG_OSU_COLL),
    E_COLL("alltoall", "All-to-All Personalized Exchange", MG_OSU_COLL),
    E_COLL("alltoallv", "All-to-Allv Personalized Exchange", MG_OSU_COLL),
    E_COLL("alltoallw", "All-to-Allw Personalized Exchange", MG_OSU_COLL),
    E_COLL("barrier", "Barrier", MG_OSU_BARRIER),
    E_COLL("bcast", "Broadcast", MG_OSU_ROOTED),
    E_COLL("gather", "Gather", MG_OSU_ROOTED),
    E_COLL("gatherv", "Gatherv", MG_OSU_ROOTED),
    E_COLL("reduce", "Reduce", MG_OSU_ROOTED),
    E_COLL("reduce_scatter", "Reduce_scatter", MG_OSU_COLL),
    E_COLL("reduce_scatter_block", "Reduce_scatter_block", MG_OSU_COLL),
    E_COLL("scatter", "Scatter", MG_OSU_ROOTED),
    E_COLL("scatterv", "Scatterv", MG_OSU_ROOTED),
    E_COLL("neighbor_allgather", "Neighborhood Allgather", MG_OSU_COLL),
    E_COLL("neighbor_allgatherv", "Neighborhood Allgatherv", MG_OSU_COLL),
    E_COLL("neighbor_alltoall", "Neighborhood Alltoall", MG_OSU_COLL),
    E_COLL("neighbor_alltoallv", "Neighborhood All-to-Allv", MG_OSU_COLL),
    E_COLL("neighbor_alltoallw", "Neighborhood All-to-Allw", MG_OSU_COLL),
    E_PERS("allgather", "Allgather"),
    E_PERS("allgatherv", "Allgatherv"),
    E_PERS("allreduce", "Allreduce"),
    E_PERS("alltoall", "All-to-All Personalized Exchange"),
    E_PERS("alltoallv", "All-to-Allv Personalized Exchange"),
    E_PERS("alltoallw", "All-to-Allw Personalized Exchange"),
    E_PERS("barrier", "Barrier"),
    E_PERS("bcast", "Broadcast"),
    E_PERS("gather", "Gather"),
    E_PERS("gatherv", "Gatherv"),
    E_PERS("reduce", "Reduce"),
    E_PERS("reduce_scatter", "Reduce_scatter"),
    E_PERS("scatter", "Scatter"),
    E_PERS("scatterv", "Scatterv"),
    E_NBC("allgather", "Allgather"),
    E_NBC("allgatherv", "Allgatherv"),
    E_NBC("allreduce", "Allreduce"),
    E_NBC("alltoall", "All-to-All"),
    E_NBC("alltoallv", "All-to-Allv Personalized Exchange"),
    E_NBC("alltoallw", "All-to-Allw Personalized Exchange"),
    E_NBC("barrier", "Barrier"),
    {"osu_ibcast", "mpigauge_ibcast", "ibcast", "OSU MPI Non-Blocking Broadcast Latency Test",
     MG_OSU_NBC},
    E_NBC("gather", "Gather"),
    E_NBC("gatherv", "Gatherv"),
    E_NBC("reduce", "Reduce"),
    E_NBC("reduce_scatter", "Reduce_scatter"),
    E_NBC("reduce_scatter_block", "Reduce_scatter_block"),
    E_NBC("scatter", "Scatter"),
    E_NBC("scatterv", "Scatterv"),
    E_NBC("neighbor_allgather", "Neighborhood Allgather"),
    E_NBC("neighbor_allgatherv", "Neighborhood Allgatherv"),
    E_NBC("neighbor_alltoall", "Neighborhood Alltoall"),
    E_NBC("neighbor_alltoallv", "Neighborhood Alltoallv"),
    E_NBC("neighbor_alltoallw", "Neighborhood Alltoallw"),
    E_P2P("put_latency", "put_latency", "OSU MPI_Put Latency Test", MG_OSU_RMA_LAT),
    E_P2P("get_latency", "get_latency", "OSU MPI_Get latency Test", MG_OSU_RMA_LAT),
    E_P2P("acc_latency", "acc_latency", "OSU MPI_Accumulate latency Test", MG_OSU_RMA_LAT),
    E_P2P("cas_latency", "cas_latency", "OSU MPI_Compare_and_swap latency Test", MG_OSU_RMA_LAT),
    E_P2P("fop_latency", "fop_latency", "OSU MPI_Fetch_and_op latency Test", MG_OSU_RMA_LAT),
    E_P2P("get_acc_latency", "get_acc_latency", "OSU MPI_Get_accumulate latency Test",
          MG_OSU_RMA_LAT),
    E_P2P("put_bw", "put_bw", "OSU MPI_Put Bandwidth Test", MG_OSU_RMA_BW),
    E_P2P("get_bw", "get_bw", "OSU MPI_Get Bandwidth Test", MG_OSU_RMA_BW),
    E_P2P("put_bibw", "put_bibw", "OSU MPI_Put Bi-directional Bandwidth Test", MG_OSU_RMA_BW),
};

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

const mg_osu_entry *mg_osu_find(const char *argv0)
{
    const char *name = base_name(argv0);
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; ++i)
        if (strcmp(entries[i].osu, name) == 0)
            return &entries[i];
    return NULL;
}

void mg_osu_list(FILE *f)
{
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; ++i)
        fprintf(f, "%s %s %s\n", entries[i].osu, entries[i].prog, entries[i].bench);
}

int mg_osu_exit(int rc) { return rc == 0 ? 0 : 1; }

/* Barriers have no message size. */
int mg_osu_sizeless(const mg_osu_entry *e) { return strstr(e->bench, "barrier") != NULL; }

/* The one-sided programs with an element type: the accumulates and the
 * atomics. */
int mg_osu_rma_typed(const mg_osu_entry *e)
{
    return (e->kind == MG_OSU_RMA_LAT || e->kind == MG_OSU_RMA_BW) &&
           strstr(e->bench, "put") == NULL && strcmp(e->bench, "get_latency") != 0 &&
           strcmp(e->bench, "get_bw") != 0;
}

/* The atomics move one element: OSU prints one row, its size, whatever -m
 * says. */
int mg_osu_one_element(const mg_osu_entry *e)
{
    return strcmp(e->bench, "fop_latency") == 0 || strcmp(e->bench, "cas_latency") == 0;
}

int mg_osu_ddt_rows(unsigned long long min, unsigned long long max, long stride, long block,
                    unsigned long long *size, unsigned long long *sent, int cap)
{
    int n = 0;
    for (unsigned long long s = 1; s <= max && n < cap; s <<= 1) {
        const unsigned long long b =
            stride > 0 ? s / (unsigned long long)stride * (unsigned long long)block : s;
        if (s >= min && b > 0) {
            size[n] = s;
            sent[n++] = b;
        }
        if (s > max / 2) /* the next power of two is past max (or overflows) */
            break;
    }
    return n;
}

void mg_osu_warning(const mg_osu *o, char *buf, size_t len)
{
    if (!o->substituted) {
        snprintf(buf, len, "%s", "");
        return;
    }
    snprintf(buf, len,
             "buffer locations '%s' taken as host memory, as an OSU build without GPU support "
             "takes them: this build has host buffers only",
             o->buffers);
}

void mg_osu_table_meta(const mg_osu *o, mg_osu_table *meta)
{
    static const char *const figure[] = {[MG_OSU_LAT] = "Avg Latency(us)",
                                         [MG_OSU_MT] = "Avg Latency(us)",
                                         [MG_OSU_BW] = "Bandwidth (MB/s)",
                                         [MG_OSU_MBW] = "MB/s",
                                         [MG_OSU_COLL] = "Avg Latency(us)",
                                         [MG_OSU_ROOTED] = "Avg Latency(us)",
                                         [MG_OSU_BARRIER] = "Avg Latency(us)",
                                         [MG_OSU_RMA_LAT] = "Latency (us)",
                                         [MG_OSU_RMA_BW] = "Bandwidth (MB/s)",
                                         [MG_OSU_NBC] = "Overall(us)",
                                         [MG_OSU_PERS] = "Avg Latency(us)",
                                         [MG_OSU_LAT_P] = "Avg Latency(us)",
                                         [MG_OSU_BW_P] = "Bandwidth (MB/s)",
                                         [MG_OSU_FAN_IN] = "Bandwidth (MB/s)",
                                         [MG_OSU_FAN_OUT] = "Bandwidth (MB/s)",
                                         [MG_OSU_INIT] = "",
                                         [MG_OSU_HELLO] = ""};
    const mg_osu_kind k = o->e->kind;
    meta->title = o->e->title;
    meta->figure = figure[k];
    meta->full = o->full && (k == MG_OSU_COLL || k == MG_OSU_ROOTED || k == MG_OSU_BARRIER ||
                             k == MG_OSU_PERS);
    meta->no_size = mg_osu_sizeless(o->e);
    /* the phase OSU reports: start + wait alone (persistent), or with the
     * computation between them (non-blocking, with compute and pure beside) */
    meta->keep = o->keep[0]                              ? o->keep
                 : k == MG_OSU_NBC                       ? "phase=overlap"
                 : k == MG_OSU_PERS                      ? "phase=pure"
                 : k == MG_OSU_LAT_P || k == MG_OSU_BW_P ? "calls=persistent"
                                                         : NULL;
    meta->line = k == MG_OSU_INIT ? 1 : k == MG_OSU_HELLO ? 2 : 0;
    meta->nbc = k == MG_OSU_NBC;
    meta->datatype = !mg_osu_sizeless(o->e) && !meta->line ? o->mpi_type : NULL;
    if (strcmp(o->e->bench, "get_acc_latency") == 0)
        meta->datatype = NULL; /* OSU's osu_get_acc_latency prints no such line */
    meta->ddt_rows = o->ddt_rows;
    meta->ddt_size = o->ddt_size;
    meta->ddt_sent = o->ddt_sent;
    meta->version = MG_OSU_VERSION;
    /* OSU's preamble (a blank line first) on every program but the
     * one-sided ones, osu_mbw_mr, osu_init and osu_hello */
    meta->blank = !(k == MG_OSU_RMA_LAT || k == MG_OSU_RMA_BW || k == MG_OSU_MBW ||
                    k == MG_OSU_INIT || k == MG_OSU_HELLO);
    meta->threads = k == MG_OSU_MT ? o->threads : 0;
    meta->window = k == MG_OSU_MBW ? o->window : 0;
    meta->rate = k == MG_OSU_MBW && o->rate;
}

/* OSU's names of mpigauge's window flavours and synchronisations
 * (onesided/rma_win.c), as its one-sided headers print them. */
static const char *const osu_windows[][2] = {{"create", "MPI_Win_create"},
                                             {"allocate", "MPI_Win_allocate"},
                                             {"dynamic", "MPI_Win_create_dynamic"}};
static const char *const osu_syncs[][2] = {{"lock", "MPI_Win_lock/unlock"},
                                           {"pscw", "MPI_Win_post/start/complete/wait"},
                                           {"fence", "MPI_Win_fence"},
                                           {"flush", "MPI_Win_flush"},
                                           {"flush_local", "MPI_Win_flush_local"},
                                           {"lock_all", "MPI_Win_lock_all/unlock_all"}};

static const char *osu_word(const char *const (*table)[2], size_t n, const char *name)
{
    for (size_t i = 0; name && i < n; ++i)
        if (strcmp(table[i][0], name) == 0)
            return table[i][1];
    return NULL;
}

void mg_osu_window_lines(const char *flavor, const char *sync, mg_osu_table *meta)
{
    meta->win_creation = osu_word(osu_windows, sizeof osu_windows / sizeof osu_windows[0], flavor);
    meta->win_sync = osu_word(osu_syncs, sizeof osu_syncs / sizeof osu_syncs[0], sync);
}
