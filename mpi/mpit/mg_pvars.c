/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's performance variables through MPI_T (mg_mpit.h): --pvars
 * list, and --pvars NAME,...|all read around every row's timed samples. */
#include "mg_mpit.h"

#include "mg_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 256
#define DESC_MAX_LEN 1024

static const char *pvar_class_name(int c)
{
    static const struct {
        int c;
        const char *name;
    } names[] = {{MPI_T_PVAR_CLASS_STATE, "state"},
                 {MPI_T_PVAR_CLASS_LEVEL, "level"},
                 {MPI_T_PVAR_CLASS_SIZE, "size"},
                 {MPI_T_PVAR_CLASS_PERCENTAGE, "percentage"},
                 {MPI_T_PVAR_CLASS_HIGHWATERMARK, "highwatermark"},
                 {MPI_T_PVAR_CLASS_LOWWATERMARK, "lowwatermark"},
                 {MPI_T_PVAR_CLASS_COUNTER, "counter"},
                 {MPI_T_PVAR_CLASS_AGGREGATE, "aggregate"},
                 {MPI_T_PVAR_CLASS_TIMER, "timer"},
                 {MPI_T_PVAR_CLASS_GENERIC, "generic"}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k)
        if (names[k].c == c)
            return names[k].name;
    return "other";
}

static const char *bind_name(int b)
{
    static const struct {
        int b;
        const char *name;
    } names[] = {{MPI_T_BIND_NO_OBJECT, "none"},
                 {MPI_T_BIND_MPI_COMM, "comm"},
                 {MPI_T_BIND_MPI_DATATYPE, "datatype"},
                 {MPI_T_BIND_MPI_ERRHANDLER, "errhandler"},
                 {MPI_T_BIND_MPI_FILE, "file"},
                 {MPI_T_BIND_MPI_GROUP, "group"},
                 {MPI_T_BIND_MPI_OP, "op"},
                 {MPI_T_BIND_MPI_REQUEST, "request"},
                 {MPI_T_BIND_MPI_WIN, "win"},
                 {MPI_T_BIND_MPI_MESSAGE, "message"},
                 {MPI_T_BIND_MPI_INFO, "info"}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k)
        if (names[k].b == b)
            return names[k].name;
    return "other";
}

/* One pvar's line: NAME CLASS TYPE BINDING continuous|started, and its
 * description's first line; or its JSON record (f NULL: nothing). 1, or 0
 * when the index answers nothing (a variable its component deregistered). */
static int pvar_line(FILE *f, int json, int i)
{
    char name[NAME_MAX_LEN], desc[DESC_MAX_LEN];
    int nlen = sizeof name, dlen = sizeof desc, verbosity, cls, bind, ro, cont, atomic;
    MPI_Datatype t;
    MPI_T_enum e;

    if (MPI_T_pvar_get_info(i, name, &nlen, &verbosity, &cls, &t, &e, desc, &dlen, &bind, &ro,
                            &cont, &atomic) != MPI_SUCCESS)
        return 0;
    desc[strcspn(desc, "\n")] = '\0';
    if (f == NULL)
        return 1;
    if (!json) {
        fprintf(f, "%-48s %-13s %-18s %-8s %-10s %s\n", name, pvar_class_name(cls),
                mg_mpit_type_name(t, e), bind_name(bind), cont ? "continuous" : "started", desc);
        return 1;
    }
    mg_json j;
    mg_json_init(&j, f);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "pvar");
    mg_json_string(&j, "name", name);
    mg_json_string(&j, "class", pvar_class_name(cls));
    mg_json_string(&j, "datatype", mg_mpit_type_name(t, e));
    mg_json_string(&j, "binding", bind_name(bind));
    mg_json_bool(&j, "continuous", cont);
    mg_json_bool(&j, "readonly", ro);
    mg_json_string(&j, "description", desc);
    mg_json_object_end(&j);
    fputc('\n', f);
    return 1;
}

int mg_pvars_list(FILE *f, int json)
{
    int provided = 0, num = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return -1;
    if (MPI_T_pvar_get_num(&num) != MPI_SUCCESS)
        num = -1;
    int valid = 0; /* indices of variables a component deregistered answer nothing */
    for (int i = 0; i < num; ++i)
        valid += pvar_line(NULL, json, i);
    if (num >= 0 && f != NULL && !json)
        fprintf(f, "# %d performance variables (MPI_T pvars)\n# %-46s %-13s %-18s %-8s %-10s %s\n",
                valid, "NAME", "CLASS", "TYPE", "BINDING", "READ", "DESCRIPTION");
    for (int i = 0; f != NULL && i < num; ++i)
        pvar_line(f, json, i);
    MPI_T_finalize();
    return num < 0 ? -1 : 0;
}

/* Performance variables a library crashes on when a handle is allocated:
 * Open MPI 4.1's PSM2 counters when the PSM2 MTL is not in use (a
 * segmentation fault in psm2_mq_get_stats). Never read. */
static int known_broken(const char *name) { return strncmp(name, "mtl_psm2_", 9) == 0; }

int mg_pvars_queue_name(const char *name)
{
    static const char *const words[] = {"unexpected", "posted", "recvq",
                                        "msgq",       "rndv",   "rendezvous"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; ++i)
        if (strstr(name, words[i]) != NULL)
            return 1;
    return 0;
}

static int in_list(const char *spec, const char *name)
{
    if (strcmp(spec, "all") == 0)
        return 1;
    if (strcmp(spec, "queues") == 0)
        return mg_pvars_queue_name(name);
    const size_t n = strlen(name);
    for (const char *s = spec; *s;) {
        const size_t len = strcspn(s, ",");
        if (len == n && strncmp(s, name, n) == 0)
            return 1;
        s += len + (s[len] == ',');
    }
    return 0;
}

/* The name of spec's list that index i answers to is kept; 1 when i was
 * selected, 0 when not, -1 when it could not be started. */
static int select_one(mg_pvars *p, int i, const char *spec, MPI_Comm *comm)
{
    char name[NAME_MAX_LEN], desc[8];
    int nlen = sizeof name, dlen = sizeof desc, verbosity, cls, bind, ro, cont, atomic, count = 0;
    MPI_Datatype t;
    MPI_T_enum e;
    const int k = p->n;

    if (MPI_T_pvar_get_info(i, name, &nlen, &verbosity, &cls, &t, &e, desc, &dlen, &bind, &ro,
                            &cont, &atomic) != MPI_SUCCESS)
        return 0;
    if (!in_list(spec, name) || known_broken(name) ||
        (bind != MPI_T_BIND_NO_OBJECT && bind != MPI_T_BIND_MPI_COMM) ||
        mg_mpit_type_bytes(t) == 0 || t == MPI_CHAR)
        return 0;
    if (MPI_T_pvar_handle_alloc(p->session, i, bind == MPI_T_BIND_MPI_COMM ? (void *)comm : NULL,
                                &p->h[k], &count) != MPI_SUCCESS ||
        count < 1)
        return -1;
    if (!cont && MPI_T_pvar_start(p->session, p->h[k]) != MPI_SUCCESS) {
        MPI_T_pvar_handle_free(p->session, &p->h[k]);
        return -1;
    }
    p->cls[k] = pvar_class_name(cls);
    for (int j = 0; j < k; ++j)
        if (strcmp(p->name[j], name) == 0) {
            /* one name, two classes (Intel MPI's idle: a timer and a
             * counter): the second is NAME/CLASS */
            snprintf(name + strlen(name), sizeof name - strlen(name), "/%s", p->cls[k]);
            break;
        }
    p->name[k] = strdup(name);
    p->delta[k] = cls == MPI_T_PVAR_CLASS_COUNTER || cls == MPI_T_PVAR_CLASS_AGGREGATE ||
                  cls == MPI_T_PVAR_CLASS_TIMER;
    p->type[k] = t;
    p->count[k] = count;
    p->n++;
    return 1;
}

/* Every name of spec among the selected ones (or spec is "all"); else the
 * first missing in err. */
static int all_found(const mg_pvars *p, const char *spec, char *err, size_t errlen)
{
    if (strcmp(spec, "all") == 0 || strcmp(spec, "queues") == 0)
        return 1;
    for (const char *s = spec; *s;) {
        const size_t len = strcspn(s, ",");
        int found = 0;
        for (int k = 0; k < p->n && !found; ++k)
            found = strncmp(p->name[k], s, len) == 0 &&
                    (p->name[k][len] == '\0' || p->name[k][len] == '/');
        if (!found) {
            snprintf(err, errlen,
                     "--pvars: this MPI library has no performance variable '%.*s' that "
                     "mpigauge can read (--pvars list shows them%s)",
                     (int)len, s,
                     strncmp(s, "mtl_psm2_", 9) == 0
                         ? "; Open MPI crashes allocating the PSM2 counters when PSM2 is not "
                           "in use, so mpigauge never reads them"
                         : "");
            return 0;
        }
        s += len + (s[len] == ',');
    }
    return 1;
}

int mg_pvars_open(mg_pvars *p, const char *spec, MPI_Comm *comm, char *err, size_t errlen)
{
    int provided = 0, num = 0, rc = 0;
    memset(p, 0, sizeof *p);
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        snprintf(err, errlen, "--pvars: MPI_T is not available in this MPI library");
        return -1;
    }
    p->open = 1;
    if (MPI_T_pvar_get_num(&num) != MPI_SUCCESS || num < 0 ||
        MPI_T_pvar_session_create(&p->session) != MPI_SUCCESS) {
        snprintf(err, errlen, "--pvars: this MPI library's performance variables cannot be read");
        return -1;
    }
    p->open = 2; /* and a session */
    p->name = calloc((size_t)num + 1, sizeof *p->name);
    p->cls = calloc((size_t)num + 1, sizeof *p->cls);
    p->delta = calloc((size_t)num + 1, sizeof *p->delta);
    p->h = calloc((size_t)num + 1, sizeof *p->h);
    p->type = calloc((size_t)num + 1, sizeof *p->type);
    p->count = calloc((size_t)num + 1, sizeof *p->count);
    p->before = calloc((size_t)num + 1, sizeof *p->before);
    p->value = calloc((size_t)num + 1, sizeof *p->value);
    if (!p->name || !p->cls || !p->delta || !p->h || !p->type || !p->count || !p->before ||
        !p->value) {
        snprintf(err, errlen, "--pvars: out of memory");
        return -1;
    }
    for (int i = 0; i < num && rc == 0; ++i)
        rc = select_one(p, i, spec, comm) < 0 ? -1 : 0;
    if (rc != 0)
        snprintf(err, errlen, "--pvars: a performance variable could not be started");
    else if (!all_found(p, spec, err, errlen))
        rc = -1;
    return rc;
}

/* Pvar k now, its elements summed. */
static double read_one(mg_pvars *p, int k)
{
    const size_t bytes = mg_mpit_type_bytes(p->type[k]) * (size_t)p->count[k];
    double v = 0.0;
    void *buf = calloc(1, bytes);
    if (buf == NULL || MPI_T_pvar_read(p->session, p->h[k], buf) != MPI_SUCCESS) {
        free(buf);
        return NAN;
    }
    for (int i = 0; i < p->count[k]; ++i) {
        long long iv;
        double dv;
        if (mg_mpit_element(buf, i, p->type[k], &iv, &dv) != 0)
            v += dv;
    }
    free(buf);
    return v;
}

void mg_pvars_mark(mg_pvars *p, int end)
{
    for (int k = 0; k < p->n; ++k) {
        const double now = read_one(p, k);
        if (!end)
            p->before[k] = now;
        else
            p->value[k] = p->delta[k] ? now - p->before[k] : now;
    }
}

void mg_pvars_close(mg_pvars *p)
{
    if (!p->open)
        return;
    for (int k = 0; k < p->n; ++k) {
        MPI_T_pvar_handle_free(p->session, &p->h[k]);
        free(p->name[k]);
    }
    if (p->open == 2)
        MPI_T_pvar_session_free(&p->session);
    free(p->name);
    free(p->cls);
    free(p->delta);
    free(p->h);
    free(p->type);
    free(p->count);
    free(p->before);
    free(p->value);
    MPI_T_finalize();
    memset(p, 0, sizeof *p);
}
