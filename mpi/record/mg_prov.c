/* SPDX-License-Identifier: BSD-3-Clause */
/* Provenance collection and the run record: see mg_prov.h. */
#include "mg_prov.h"

#include "mg_text.h"

#include "config.h"
#include "mg_binding.h"
#include "mg_json.h"
#include "mg_opts_json.h"
#include "mg_report.h"
#include "mg_secret.h"

#include <ctype.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern char **environ;

/* Environment variables that change how an MPI library or launcher behaves. */
static const char *const env_prefixes[] = {"OMPI_", "UCX_",   "MPIR_CVAR_", "FI_",    "I_MPI_",
                                           "MV2_",  "SLURM_", "PMIX_",      "HYDRA_", NULL};

/* Gather one string per rank to rank 0 (O(total length) at the root). */
static char **gather_strings(const char *mine, MPI_Comm comm)
{
    int rank, n, len = (int)strlen(mine) + 1, total = 0;
    int *lens = NULL, *offs = NULL;
    char *all = NULL, **out = NULL;

    MG_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MG_MPI_CHECK(MPI_Comm_size(comm, &n));
    if (rank == 0) {
        lens = malloc((size_t)n * sizeof *lens);
        offs = malloc((size_t)n * sizeof *offs);
        if (!lens || !offs)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
    }
    MG_MPI_CHECK(MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, comm));
    if (rank == 0) {
        for (int i = 0; i < n; ++i) {
            offs[i] = total;
            total += lens[i];
        }
        all = malloc((size_t)total);
        out = malloc((size_t)n * sizeof *out);
        if (!all || !out)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
    }
    MG_MPI_CHECK(MPI_Gatherv(mine, len, MPI_CHAR, all, lens, offs, MPI_CHAR, 0, comm));
    if (rank == 0) {
        for (int i = 0; i < n; ++i)
            out[i] = all + offs[i];
        free(lens);
        free(offs);
    }
    return out;
}

/* The facts' world over MPI (mg_facts.h). */
static void world_allgather(const mg_fact_world *w, const void *mine, size_t bytes, void *all)
{
    MG_MPI_CHECK(MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE,
                               *(const MPI_Comm *)w->impl));
}

static void world_die(const char *msg) { mg_mpi_die(__FILE__, __LINE__, msg); }

void mg_prov_collect(mg_prov *p, const mg_ctx *ctx)
{
    MPI_Comm comm = ctx->comm;
    const mg_fact_world world = {ctx->rank, ctx->nranks, world_allgather, world_die, &comm};
    char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len = 0;
    char bind[256];
    time_t now = time(NULL);
    struct tm tm;

    memset(p, 0, sizeof *p);
    p->nranks = ctx->nranks;
    p->nnodes = ctx->nnodes;
    MG_MPI_CHECK(MPI_Get_processor_name(host, &len));
    MG_MPI_CHECK(MPI_Get_library_version(p->library, &len));
    MG_MPI_CHECK(MPI_Get_version(&p->mpi_version, &p->mpi_subversion));
    p->timer_overhead_s = mg_timer_overhead_s();
    p->timer_resolution_s = MPI_Wtick();
    gmtime_r(&now, &tm);
    strftime(p->date_utc, sizeof p->date_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(p->version, sizeof p->version, "%s", MG_VERSION_STRING);
    mg_prov_collect_env(p, environ);

    mg_binding(NULL, bind, sizeof bind);
    p->hosts = gather_strings(host, ctx->comm);
    p->bindings = gather_strings(bind, ctx->comm);
    mg_facts_collect(&p->facts, &world);
    if (ctx->rank == 0 && !ctx->cfg->no_cvars)
        mg_cvars_read(&p->cvars, ctx->comm);
}

void mg_prov_free(mg_prov *p)
{
    if (p->hosts) {
        free(p->hosts[0]);
        free(p->hosts);
    }
    if (p->bindings) {
        free(p->bindings[0]);
        free(p->bindings);
    }
    mg_facts_free(&p->facts);
    mg_cvars_free(&p->cvars);
    for (size_t i = 0; i < p->nenv; ++i)
        free(p->env[i]);
    free(p->env);
    p->hosts = p->bindings = NULL;
    p->env = NULL;
    p->nenv = 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int recorded(const char *var)
{
    for (const char *const *pre = env_prefixes; *pre; ++pre)
        if (strncmp(var, *pre, strlen(*pre)) == 0)
            return 1;
    return 0;
}

/* NAME=VALUE, or NAME=<redacted> when the name looks like a secret or the
 * value holds one (mg_secret.h). */
static char *copy_var(const char *var)
{
    const char *eq = strchr(var, '=');
    size_t n = eq ? (size_t)(eq - var) : strlen(var);
    char *out;
    if (!mg_env_is_secret(var) && !(eq && mg_env_value_has_secret(eq + 1)))
        return strdup(var);
    if ((out = malloc(n + sizeof MG_REDACTED + 1)) == NULL)
        return NULL;
    memcpy(out, var, n);
    out[n] = '=';
    memcpy(out + n + 1, MG_REDACTED, sizeof MG_REDACTED);
    return out;
}

void mg_prov_collect_env(mg_prov *p, char **envp)
{
    size_t n = 0;
    for (char **e = envp; *e; ++e)
        n += (size_t)recorded(*e);
    p->env = malloc((n + 1) * sizeof *p->env);
    if (p->env == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    p->nenv = 0;
    for (char **e = envp; *e; ++e)
        if (recorded(*e) && (p->env[p->nenv++] = copy_var(*e)) == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
    qsort(p->env, p->nenv, sizeof *p->env, cmp_str);
}

static void write_env(mg_json *j, const mg_prov *p)
{
    mg_json_object_begin(j, "env");
    for (size_t i = 0; i < p->nenv; ++i) {
        const char *eq = strchr(p->env[i], '=');
        char name[256];
        size_t len = eq ? (size_t)(eq - p->env[i]) : strlen(p->env[i]);
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, p->env[i], len);
        name[len] = '\0';
        mg_json_string(j, name, eq ? eq + 1 : "");
    }
    mg_json_object_end(j);
}

static void first_line(const char *s, char *out, size_t len)
{
    size_t n = strcspn(s, "\n");
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == ','))
        --n;
    if (n >= len)
        n = len - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* The other end of rank r's link, or -1 (each link listed once). */
static int link_of(const mg_run_info *ri, int nranks, int r)
{
    int q;
    switch (ri->partner_of ? MG_LINKS_PAIRS : ri->links) {
    case MG_LINKS_RING: q = (r + 1) % nranks; return nranks < 2 || (nranks == 2 && r == 1) ? -1 : q;
    case MG_LINKS_STAR: return r > 0 ? 0 : -1;
    default: q = ri->partner_of[r]; return q > r ? q : -1;
    }
}

/* Where each pair (or link) runs: same node or not, and both bindings. */
static void write_pairs(mg_json *j, const mg_prov *p, const mg_run_info *ri)
{
    mg_json_array_begin(j, "pairs");
    for (int r = 0; r < p->nranks; ++r) {
        int q = link_of(ri, p->nranks, r);
        if (q < 0)
            continue;
        mg_json_object_begin(j, NULL);
        mg_json_array_begin(j, "ranks");
        mg_json_int(j, NULL, r);
        mg_json_int(j, NULL, q);
        mg_json_array_end(j);
        mg_json_bool(j, "same_node", ri->node_of[r] == ri->node_of[q]);
        mg_json_array_begin(j, "hosts");
        mg_json_string(j, NULL, p->hosts[r]);
        mg_json_string(j, NULL, p->hosts[q]);
        mg_json_array_end(j);
        mg_json_array_begin(j, "bindings");
        mg_json_string(j, NULL, p->bindings[r]);
        mg_json_string(j, NULL, p->bindings[q]);
        mg_json_array_end(j);
        mg_json_object_end(j);
    }
    mg_json_array_end(j);
}

/* Where the ranks ran: hosts, bindings, nodes, pairs, the computation. */
static void write_placement(mg_json *j, const mg_prov *p, const mg_run_info *ri)
{
    mg_json_int(j, "nranks", p->nranks);
    mg_json_int(j, "nnodes", p->nnodes);
    mg_json_array_begin(j, "hosts");
    for (int i = 0; i < p->nranks; ++i)
        mg_json_string(j, NULL, p->hosts[i]);
    mg_json_array_end(j);
    mg_json_array_begin(j, "bindings");
    for (int i = 0; i < p->nranks; ++i)
        mg_json_string(j, NULL, p->bindings[i]);
    mg_json_array_end(j);
    mg_facts_write(j, &p->facts, MG_FACT_PLACEMENT);
    mg_json_array_begin(j, "node_of_rank");
    for (int i = 0; i < p->nranks; ++i)
        mg_json_int(j, NULL, ri->node_of[i]);
    mg_json_array_end(j);
    if (ri->partner_of || ri->links)
        write_pairs(j, p, ri);
    if (ri->compute) {
        mg_json_object_begin(j, "compute");
        mg_json_string(j, "loop", "mg_compute_spin (dependent xorshift/multiply chain)");
        mg_json_number(j, "units_per_s", ri->compute->units_per_s);
        mg_json_number(j, "calibration_run_s", ri->compute->run_s);
        mg_json_number(j, "calibration_error_max", ri->compute_err_max);
        mg_json_object_end(j);
    }
}

/* The "options" object: the sweep, the policy, the benchmark's own. */
static void write_options(mg_json *j, const mg_run_info *ri)
{
    mg_json_object_begin(j, "options");
    mg_json_array_begin(j, "sizes_bytes");
    for (size_t i = 0; i < ri->nsizes; ++i)
        mg_json_uint(j, NULL, (unsigned long long)ri->sizes[i]);
    mg_json_array_end(j);
    if (ri->variant_name) {
        mg_json_array_begin(j, "variants");
        for (int i = 0; i < ri->nvariants; ++i)
            mg_json_string(j, NULL, ri->variants[i]);
        mg_json_array_end(j);
    }
    mg_opts_json_members(j, ri->common, ri->ncommon);
    mg_json_bool(j, "precision_rule", ri->precision_rule);
    mg_json_string(j, "time_mode", ri->time_mode);
    if (ri->bench_options)
        mg_opts_json(j, "benchmark", ri->bench_options, 1);
    mg_json_object_end(j);
}

/* What the run record says of the control variables: how many were read
 * and their set's digest (the set itself is the cvars record), or why none
 * were. */
static void write_cvars_summary(mg_json *j, const mg_cvars *c)
{
    char hex[17];
    mg_json_object_begin(j, "cvars");
    if (c->state == MG_CVARS_READ) {
        mg_cvars_digest_hex(c, hex);
        mg_json_string(j, "state", "read");
        mg_json_string(j, "digest", hex);
        mg_json_uint(j, "read", c->n);
        mg_json_uint(j, "total", c->total);
        mg_json_uint(j, "unreadable", c->unreadable);
        mg_json_uint(j, "other_binding", c->other_bind);
        mg_json_uint(j, "per_launch", c->per_launch);
    } else if (c->state == MG_CVARS_ABSENT) {
        mg_json_string(j, "state", "absent");
        mg_json_string(j, "why", c->why);
    } else
        mg_json_string(j, "state", "off");
    mg_json_object_end(j);
}

void mg_prov_served_by(const mg_prov *p, const char *benchmark, char *out, size_t len)
{
    mg_cvars_served_by(p->cvars.v, p->cvars.n, benchmark, out, len);
}

static void write_algorithm(mg_json *j, const mg_prov *p, const mg_run_info *ri)
{
    char op[64], served[160];
    const mg_cvars *c = &p->cvars;

    if (!ri->algorithm)
        return;
    mg_cvar_op_name(ri->benchmark, op, sizeof op);
    mg_json_object_begin(j, "algorithm");
    mg_json_array_begin(j, "selection");
    for (size_t i = 0; i < c->n; ++i) {
        if (!mg_cvar_selects(c->v[i].name, op))
            continue;
        mg_json_array_begin(j, NULL);
        mg_json_string(j, NULL, c->v[i].name);
        mg_json_string(j, NULL, c->v[i].value);
        mg_json_array_end(j);
    }
    mg_json_array_end(j);
    mg_prov_served_by(p, ri->benchmark, served, sizeof served);
    mg_json_string(j, "served_by", served);
    mg_json_object_end(j);
}

void mg_prov_write_cvars(FILE *f, const mg_prov *p)
{
    static const char *const fields[] = {"name", "value", "type", "scope", "binding"};
    const mg_cvars *c = &p->cvars;
    char hex[17], lib[256];
    mg_json j;

    if (c->state != MG_CVARS_READ || c->n == 0)
        return;
    first_line(p->library, lib, sizeof lib);
    mg_cvars_digest_hex(c, hex);
    mg_json_init(&j, f);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "cvars");
    mg_json_string(&j, "digest", hex);
    mg_json_string(&j, "mpi_library", lib);
    mg_json_array_begin(&j, "fields");
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; ++k)
        mg_json_string(&j, NULL, fields[k]);
    mg_json_array_end(&j);
    mg_json_array_begin(&j, "cvars");
    for (size_t i = 0; i < c->n; ++i) {
        mg_json_array_begin(&j, NULL);
        mg_json_string(&j, NULL, c->v[i].name);
        mg_json_string(&j, NULL, c->v[i].value);
        mg_json_string(&j, NULL, c->v[i].type);
        mg_json_string(&j, NULL, c->v[i].scope);
        mg_json_string(&j, NULL, c->v[i].bind);
        mg_json_array_end(&j);
    }
    mg_json_array_end(&j);
    mg_json_object_end(&j);
    fputc('\n', f);
}

/* "osu": the OSU name the program ran under, OSU's command line, and the
 * buffers (doc/osu.md). */
static void write_osu(mg_json *j, const mg_run_info *ri)
{
    if (ri->osu_name == NULL)
        return;
    mg_json_object_begin(j, "osu");
    mg_json_string(j, "name", ri->osu_name);
    mg_json_array_begin(j, "command_line");
    for (int i = 0; i < ri->osu_argc; ++i)
        mg_json_string(j, NULL, ri->osu_argv[i]);
    mg_json_array_end(j);
    mg_json_string(j, "buffer_locations", ri->osu_buffers);
    mg_json_string(j, "memory", "host");
    mg_json_bool(j, "device_buffers_taken_as_host", ri->osu_substituted);
    mg_json_object_end(j);
}

void mg_prov_write(FILE *f, const mg_prov *p, const mg_run_info *ri)
{
    char lib[256], ver[16];
    mg_json j;

    first_line(p->library, lib, sizeof lib);
    snprintf(ver, sizeof ver, "%d.%d", p->mpi_version, p->mpi_subversion);
    mg_json_init(&j, f);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "run");
    mg_json_int(&j, "schema", 1);
    mg_json_string(&j, "benchmark", ri->benchmark);
    mg_json_string(&j, "description", ri->description);
    mg_json_string(&j, "family", ri->family ? ri->family : "pt2pt");
    mg_json_string(&j, "mpigauge_version", p->version);
    mg_json_string(&j, "mpi_library", lib);
    mg_json_string(&j, "mpi_library_version", p->library);
    mg_json_string(&j, "mpi_version", ver);
    write_placement(&j, p, ri);
    if (ri->transport)
        mg_xfer_describe_json(ri->transport, &j);
    mg_json_string(&j, "timer", "MPI_Wtime");
    mg_json_number(&j, "timer_resolution_s", p->timer_resolution_s);
    mg_json_number(&j, "timer_overhead_s", p->timer_overhead_s);
    mg_json_string(&j, "date_utc", p->date_utc);
    mg_facts_write(&j, &p->facts, MG_FACT_NODE);
    mg_json_array_begin(&j, "command_line");
    for (int i = 0; i < ri->argc; ++i)
        mg_json_string(&j, NULL, ri->argv[i]);
    mg_json_array_end(&j);
    write_osu(&j, ri);
    write_env(&j, p);
    write_cvars_summary(&j, &p->cvars);
    write_algorithm(&j, p, ri);
    if (ri->kernel)
        mg_kv_write_json(&j, ri->kernel);
    write_options(&j, ri);
    mg_json_object_end(&j);
    fputc('\n', f);
}

void mg_prov_where(const mg_prov *p, char *buf, size_t len)
{
    char lib[64];
    mg_library_short(p->library, lib, sizeof lib);
    snprintf(buf, len, "%s, %d rank%s on %d node%s", lib, p->nranks, p->nranks == 1 ? "" : "s",
             p->nnodes, p->nnodes == 1 ? "" : "s");
}

void mg_prov_write_comment(FILE *f, const mg_prov *p, const mg_run_info *ri)
{
    char where[128];
    /* one short line (the whole version string, the MPI version and the
     * timer are in the run record: -o, --format json) */
    mg_prov_where(p, where, sizeof where);
    fprintf(f, "# MPI: %s\n", where);
    if (ri->transport)
        mg_xfer_describe_comment(ri->transport, f);
    if (ri->kernel)
        mg_kv_write_lines(f, ri->kernel);
}
