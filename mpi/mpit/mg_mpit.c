/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's control variables through MPI_T (mg_mpit.h). */
#include "mg_mpit.h"

#include "mg_secret.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 256
#define VALUE_MAX_LEN 1024

const char *mg_mpit_type_name(MPI_Datatype t, MPI_T_enum e)
{
    if (e != MPI_T_ENUM_NULL)
        return "enum";
    if (t == MPI_INT)
        return "int";
    if (t == MPI_UNSIGNED)
        return "unsigned";
    if (t == MPI_UNSIGNED_LONG)
        return "unsigned_long";
    if (t == MPI_UNSIGNED_LONG_LONG)
        return "unsigned_long_long";
    if (t == MPI_COUNT)
        return "count";
    if (t == MPI_CHAR)
        return "char";
    if (t == MPI_DOUBLE)
        return "double";
    if (t == MPI_C_BOOL)
        return "bool";
    return "other";
}

static const char *scope_name(int s)
{
    switch (s) {
    case MPI_T_SCOPE_CONSTANT: return "constant";
    case MPI_T_SCOPE_READONLY: return "readonly";
    case MPI_T_SCOPE_LOCAL: return "local";
    case MPI_T_SCOPE_GROUP: return "group";
    case MPI_T_SCOPE_GROUP_EQ: return "group_eq";
    case MPI_T_SCOPE_ALL: return "all";
    case MPI_T_SCOPE_ALL_EQ: return "all_eq";
    default: return "other";
    }
}

/* The name of value v among enumeration e's items, or NULL. */
static const char *enum_item(MPI_T_enum e, long long v, char *name, int len)
{
    char ename[NAME_MAX_LEN];
    int nitems = 0, item = 0, nlen = sizeof ename;
    if (e == MPI_T_ENUM_NULL || MPI_T_enum_get_info(e, &nitems, ename, &nlen) != MPI_SUCCESS)
        return NULL;
    for (int k = 0; k < nitems; ++k) {
        nlen = len;
        if (MPI_T_enum_get_item(e, k, &item, name, &nlen) == MPI_SUCCESS && item == v)
            return name;
    }
    return NULL;
}

int mg_mpit_element(const void *buf, int i, MPI_Datatype t, long long *iv, double *dv)
{
    if (t == MPI_UNSIGNED_LONG || t == MPI_UNSIGNED_LONG_LONG) {
        const unsigned long long u = t == MPI_UNSIGNED_LONG ? ((const unsigned long *)buf)[i]
                                                            : ((const unsigned long long *)buf)[i];
        *iv = (long long)u;
        *dv = (double)u;
        return 1;
    }
    if (t == MPI_INT)
        *iv = ((const int *)buf)[i];
    else if (t == MPI_UNSIGNED)
        *iv = ((const unsigned *)buf)[i];
    else if (t == MPI_COUNT)
        *iv = (long long)((const MPI_Count *)buf)[i];
    else if (t == MPI_C_BOOL)
        *iv = ((const _Bool *)buf)[i];
    else if (t == MPI_DOUBLE) {
        *dv = ((const double *)buf)[i];
        return 2;
    } else
        return 0;
    *dv = (double)*iv;
    return 1;
}

/* One element of a value as text, read as its datatype says (an
 * enumeration may come with any integer type, Open MPI's booleans with
 * MPI_C_BOOL), then named by the enumeration's item when it has one. */
static void element_text(const void *buf, int i, MPI_Datatype t, MPI_T_enum e, char *out,
                         size_t len)
{
    char iname[NAME_MAX_LEN];
    long long v = 0;
    double d = 0.0;
    const int kind = mg_mpit_element(buf, i, t, &v, &d);

    if (kind == 1 && enum_item(e, v, iname, sizeof iname) != NULL)
        snprintf(out, len, "%s", iname);
    else if (t == MPI_C_BOOL)
        snprintf(out, len, "%s", v ? "true" : "false");
    else if (t == MPI_UNSIGNED_LONG || t == MPI_UNSIGNED_LONG_LONG)
        snprintf(out, len, "%llu", (unsigned long long)v);
    else if (kind == 1)
        snprintf(out, len, "%lld", v);
    else if (kind == 2)
        snprintf(out, len, "%.17g", d);
    else
        snprintf(out, len, "?");
}

size_t mg_mpit_type_bytes(MPI_Datatype t)
{
    if (t == MPI_CHAR)
        return 1;
    if (t == MPI_INT)
        return sizeof(int);
    if (t == MPI_UNSIGNED)
        return sizeof(unsigned);
    if (t == MPI_UNSIGNED_LONG)
        return sizeof(unsigned long);
    if (t == MPI_UNSIGNED_LONG_LONG)
        return sizeof(unsigned long long);
    if (t == MPI_COUNT)
        return sizeof(MPI_Count);
    if (t == MPI_DOUBLE)
        return sizeof(double);
    if (t == MPI_C_BOOL)
        return sizeof(_Bool);
    return 0;
}

/* Read cvar i (bound to obj, or NULL) as text into out; 0, or -1 when it
 * cannot be read. */
static int read_value(int i, void *obj, MPI_Datatype t, MPI_T_enum e, char *out, size_t len)
{
    MPI_T_cvar_handle h;
    int count = 0, rc = -1;
    size_t bytes = mg_mpit_type_bytes(t);
    void *buf;

    if (bytes == 0 || MPI_T_cvar_handle_alloc(i, obj, &h, &count) != MPI_SUCCESS)
        return -1;
    if (count >= 0 && (buf = calloc((size_t)count + 1, bytes)) != NULL) {
        if (MPI_T_cvar_read(h, buf) == MPI_SUCCESS) {
            rc = 0;
            if (t == MPI_CHAR) {
                ((char *)buf)[count] = '\0';
                snprintf(out, len, "%s", (const char *)buf);
            } else {
                size_t at = 0;
                out[0] = '\0';
                for (int k = 0; k < count && at + 1 < len; ++k) {
                    char one[NAME_MAX_LEN];
                    element_text(buf, k, t, e, one, sizeof one);
                    at += (size_t)snprintf(out + at, len - at, "%s%s", k ? "," : "", one);
                }
            }
        }
        free(buf);
    }
    MPI_T_cvar_handle_free(&h);
    return rc;
}

/* Variables whose value is new at every launch (a job's id, a daemon's
 * address, a session directory: Open MPI's ess_base_jobid, orte_hnp_uri,
 * orte_jobfam_session_dir): left out of the set, which would otherwise
 * differ between any two launches. */
static int per_launch(const char *name)
{
    static const char *const marks[] = {"jobid", "_uri", "session_dir", "jobfam", "_nspace"};
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; ++k)
        if (strstr(name, marks[k]) != NULL)
            return 1;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const mg_cvar *)a)->name, ((const mg_cvar *)b)->name);
}

uint64_t mg_cvars_digest(const mg_cvar *v, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; ++i) {
        const char *parts[4] = {v[i].name, "=", v[i].value, "\n"};
        for (int p = 0; p < 4; ++p)
            for (const unsigned char *s = (const unsigned char *)parts[p]; *s; ++s) {
                h ^= *s;
                h *= 1099511628211ULL;
            }
    }
    return h;
}

void mg_cvars_digest_hex(const mg_cvars *c, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)c->digest);
}

/* Cvar i into c->v[c->n] when it can be read. */
static void read_one(mg_cvars *c, int i, MPI_Comm *comm)
{
    char name[NAME_MAX_LEN], desc[8], value[VALUE_MAX_LEN];
    int nlen = sizeof name, dlen = sizeof desc, verbosity, bind, scope;
    MPI_Datatype t;
    MPI_T_enum e;
    void *obj = NULL;

    if (MPI_T_cvar_get_info(i, name, &nlen, &verbosity, &t, &e, desc, &dlen, &bind, &scope) !=
        MPI_SUCCESS) {
        c->unreadable++;
        return;
    }
    if (per_launch(name)) {
        c->per_launch++;
        return;
    }
    if (bind == MPI_T_BIND_MPI_COMM)
        obj = comm;
    else if (bind != MPI_T_BIND_NO_OBJECT) {
        c->other_bind++;
        return;
    }
    if (read_value(i, obj, t, e, value, sizeof value) != 0) {
        c->unreadable++;
        return;
    }
    mg_cvar *v = &c->v[c->n];
    /* the one secrets rule (mg_secret.h) on every value: one holding a
     * secret's NAME=... (Open MPI's mca_base_env_list=AWS_SECRET_ACCESS_KEY=...),
     * and a string under a secret-looking name; a number, a switch or an
     * enum under such a name (MPICH's ..._MR_PROV_KEY) is a setting, kept */
    if (mg_cvar_is_secret(name, value, strcmp(mg_mpit_type_name(t, e), "char") == 0))
        snprintf(value, sizeof value, "%s", MG_REDACTED);
    if ((v->name = strdup(name)) == NULL || (v->value = strdup(value)) == NULL) {
        free(v->name);
        c->unreadable++;
        return;
    }
    v->type = mg_mpit_type_name(t, e);
    v->scope = scope_name(scope);
    v->bind = obj ? "comm" : "none";
    c->n++;
}

void mg_cvars_read(mg_cvars *c, MPI_Comm comm)
{
    int provided = 0, num = 0;

    memset(c, 0, sizeof *c);
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        c->state = MG_CVARS_ABSENT;
        snprintf(c->why, sizeof c->why, "MPI_T_init_thread failed");
        return;
    }
    if (MPI_T_cvar_get_num(&num) != MPI_SUCCESS || num < 0) {
        c->state = MG_CVARS_ABSENT;
        snprintf(c->why, sizeof c->why, "MPI_T_cvar_get_num failed");
    } else if (num > 0 && (c->v = calloc((size_t)num, sizeof *c->v)) == NULL) {
        c->state = MG_CVARS_ABSENT;
        snprintf(c->why, sizeof c->why, "out of memory for %d cvars", num);
    } else {
        c->state = MG_CVARS_READ;
        c->total = (size_t)num;
        for (int i = 0; i < num; ++i)
            read_one(c, i, &comm);
        if (c->n > 1)
            qsort(c->v, c->n, sizeof *c->v, by_name);
        c->digest = mg_cvars_digest(c->v, c->n);
    }
    MPI_T_finalize();
}

void mg_cvars_free(mg_cvars *c)
{
    for (size_t i = 0; i < c->n; ++i) {
        free(c->v[i].name);
        free(c->v[i].value);
    }
    free(c->v);
    c->v = NULL;
    c->n = 0;
}

/* A cvar that selects op's algorithm: its name holds "_OP_" (any case) and
 * ends in "_algorithm" (Open MPI's coll_tuned_allreduce_algorithm and
 * coll_han_use_allreduce_algorithm; MPICH's MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM). */
int mg_cvar_selects(const char *name, const char *op)
{
    char low[256], pat[80];
    size_t n = strlen(name);
    if (n >= sizeof low || n < 10)
        return 0;
    for (size_t i = 0; i <= n; ++i)
        low[i] = (char)tolower((unsigned char)name[i]);
    snprintf(pat, sizeof pat, "_%s_", op);
    return strstr(low, pat) != NULL && strcmp(low + n - 10, "_algorithm") == 0;
}

/* Which algorithm served a collective: what the library's cvars say of the
 * selection (its algorithm cvars as they were). mpigauge does not guess
 * from timings: served_by is the algorithm only when a cvar forces one
 * (Open MPI's coll_tuned with coll_tuned_use_dynamic_rules, MPICH's
 * MPIR_CVAR_<OP>_INTRA_ALGORITHM other than auto where nothing in the
 * device serves op first: mpir_decides), else "unknown". */
/* The collective's name without _init (persistent: the blocking
 * operation's cvars). */
void mg_cvar_op_name(const char *benchmark, char *op, size_t len)
{
    snprintf(op, len, "%s", benchmark);
    if (strlen(op) > 5 && strcmp(op + strlen(op) - 5, "_init") == 0)
        op[strlen(op) - 5] = '\0';
}

static const char *cvar_value(const mg_cvar *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; ++i)
        if (strcmp(v[i].name, name) == 0)
            return v[i].value;
    return NULL;
}

static int is(const char *v, const char *num, const char *word)
{
    return v != NULL && (strcmp(v, num) == 0 || strcmp(v, word) == 0);
}

/* MPICH: an MPIR-level algorithm cvar decides op within a node only where
 * the device's shared-memory module cannot serve op first: the library
 * has no MPIR_CVAR_<OP>_POSIX_INTRA_ALGORITHM, or it is mpir (0), or the
 * device collectives are off (MPIR_CVAR_DEVICE_COLLECTIVES none (1), or
 * percoll (2) with MPIR_CVAR_<OP>_DEVICE_COLLECTIVE off). MPICH 5's POSIX
 * module serves allreduce, bcast, reduce and barrier first (doc/mpit.md);
 * the cvars cannot tell when, so served_by stays unknown. Enumerations
 * come as numbers (MPI_T), booleans as 0/1. */
static int mpir_decides(const mg_cvar *v, size_t n, const char *op)
{
    char up[64], name[128];
    const char *posix, *dev;
    size_t k = 0;
    for (; op[k] && k + 1 < sizeof up; ++k)
        up[k] = (char)toupper((unsigned char)op[k]);
    up[k] = '\0';
    snprintf(name, sizeof name, "MPIR_CVAR_%s_POSIX_INTRA_ALGORITHM", up);
    posix = cvar_value(v, n, name);
    if (posix == NULL || is(posix, "0", "mpir"))
        return 1;
    dev = cvar_value(v, n, "MPIR_CVAR_DEVICE_COLLECTIVES");
    if (is(dev, "1", "none"))
        return 1;
    snprintf(name, sizeof name, "MPIR_CVAR_%s_DEVICE_COLLECTIVE", up);
    return is(dev, "2", "percoll") && is(cvar_value(v, n, name), "0", "false");
}

void mg_cvars_served_by(const mg_cvar *v, size_t n, const char *benchmark, char *out, size_t len)
{
    char op[64];
    int dynamic = 0;

    mg_cvar_op_name(benchmark, op, sizeof op);
    snprintf(out, len, "unknown");
    for (size_t i = 0; i < n; ++i)
        if (strcmp(v[i].name, "coll_tuned_use_dynamic_rules") == 0)
            dynamic = strcmp(v[i].value, "true") == 0 || strcmp(v[i].value, "1") == 0;
    for (size_t i = 0; i < n; ++i) {
        const mg_cvar *c = &v[i];
        const int tuned = strncmp(c->name, "coll_tuned_", 11) == 0;
        const int mpir = strncmp(c->name, "MPIR_CVAR_", 10) == 0 && strstr(c->name, "_INTRA_") &&
                         !strstr(c->name, "_POSIX_");
        if (mg_cvar_selects(c->name, op) &&
            ((tuned && dynamic && strcmp(c->value, "ignore") != 0 && strcmp(c->value, "0") != 0) ||
             (mpir && strcmp(c->value, "0") != 0 && strcmp(c->value, "auto") != 0 &&
              mpir_decides(v, n, op)))) {
            snprintf(out, len, "%s=%s", c->name, c->value);
            return;
        }
    }
}
