/* SPDX-License-Identifier: BSD-3-Clause */
/* The facts recorded once per run and their contributors: see mg_facts.h. */
#include "mg_facts.h"

#include "mg_nodestate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* cpu_model: what a library may choose its algorithms and tuning by; rank 0
 * only (/proc/cpuinfo is large on big nodes). */
static void cpu_model_collect(void *state, const mg_fact_world *w)
{
    mg_fact_cpu_model *s = state;
    if (w->rank == 0)
        mg_nodestate_cpu_model(s->model, sizeof s->model);
}

static void cpu_model_write(mg_json *j, const void *state, int nranks)
{
    const mg_fact_cpu_model *s = state;
    (void)nranks;
    if (s->model[0])
        mg_json_string(j, "cpu_model", s->model);
}

static const mg_fact_contributor cpu_model = {
    "cpu_model", MG_FACT_NODE, sizeof(mg_fact_cpu_model), cpu_model_collect, cpu_model_write, NULL};

/* kernel: uname's system and release of rank 0's node. */
static void kernel_collect(void *state, const mg_fact_world *w)
{
    mg_fact_kernel *s = state;
    struct utsname u;
    if (w->rank == 0 && uname(&u) == 0)
        snprintf(s->text, sizeof s->text, "%.40s %.80s", u.sysname, u.release);
}

static void kernel_write(mg_json *j, const void *state, int nranks)
{
    const mg_fact_kernel *s = state;
    (void)nranks;
    if (s->text[0])
        mg_json_string(j, "kernel", s->text);
}

static const mg_fact_contributor kernel = {"kernel",       MG_FACT_NODE, sizeof(mg_fact_kernel),
                                           kernel_collect, kernel_write, NULL};

/* links: every rank's node link ({"device","gbps"}, null unknown), what a
 * bandwidth between nodes can be set against (doc/output.md). */
static void links_collect(void *state, const mg_fact_world *w)
{
    mg_fact_links *s = state;
    mg_link mine;
    if (mg_link_of_node(&mine) != 0)
        memset(&mine, 0, sizeof mine);
    if ((s->link = calloc((size_t)w->nranks, sizeof *s->link)) == NULL)
        w->die("out of memory for the ranks' links");
    w->allgather(w, &mine, sizeof mine, s->link);
    if (w->rank != 0) { /* only rank 0 writes them */
        free(s->link);
        s->link = NULL;
    }
}

static void links_write(mg_json *j, const void *state, int nranks)
{
    const mg_fact_links *s = state;
    if (s->link == NULL)
        return;
    mg_json_array_begin(j, "links");
    for (int i = 0; i < nranks; ++i) {
        const mg_link *l = &s->link[i];
        if (l->device[0] == '\0' || !(l->gbps > 0)) {
            mg_json_null(j, NULL);
            continue;
        }
        mg_json_object_begin(j, NULL);
        mg_json_string(j, "device", l->device);
        mg_json_number(j, "gbps", l->gbps);
        mg_json_object_end(j);
    }
    mg_json_array_end(j);
}

static void links_free(void *state)
{
    mg_fact_links *s = state;
    free(s->link);
    s->link = NULL;
}

static const mg_fact_contributor links = {"links",       MG_FACT_PLACEMENT, sizeof(mg_fact_links),
                                          links_collect, links_write,       links_free};

/* allocation: rank 0's Slurm job variables (the launch's rank 0 runs in the
 * job step; its own step and the job's nodes, partition, array index). */
const char *const mg_fact_allocation_vars[MG_ALLOC_VARS][2] = {
    {"job_id", "SLURM_JOB_ID"},
    {"array_job_id", "SLURM_ARRAY_JOB_ID"},
    {"array_task_id", "SLURM_ARRAY_TASK_ID"},
    {"step_id", "SLURM_STEP_ID"},
    {"nodelist", "SLURM_JOB_NODELIST"},
    {"num_nodes", "SLURM_JOB_NUM_NODES"},
    {"partition", "SLURM_JOB_PARTITION"},
    {"constraint", "SLURM_JOB_CONSTRAINTS"},
    {"cluster", "SLURM_CLUSTER_NAME"},
};

static void allocation_collect(void *state, const mg_fact_world *w)
{
    mg_fact_allocation *s = state;
    if (w->rank != 0)
        return;
    for (int i = 0; i < MG_ALLOC_VARS; ++i) {
        const char *v = getenv(mg_fact_allocation_vars[i][1]);
        if (v == NULL || v[0] == '\0')
            continue;
        if ((s->value[i] = strndup(v, MG_ALLOC_VALUE_MAX)) == NULL)
            w->die("out of memory for the run's allocation");
    }
}

static void allocation_write(mg_json *j, const void *state, int nranks)
{
    const mg_fact_allocation *s = state;
    (void)nranks;
    if (s->value[0] == NULL) /* no job: no allocation */
        return;
    mg_json_object_begin(j, "allocation");
    mg_json_string(j, "scheduler", "slurm");
    for (int i = 0; i < MG_ALLOC_VARS; ++i)
        if (s->value[i])
            mg_json_string(j, mg_fact_allocation_vars[i][0], s->value[i]);
    mg_json_object_end(j);
}

static void allocation_free(void *state)
{
    mg_fact_allocation *s = state;
    for (int i = 0; i < MG_ALLOC_VARS; ++i) {
        free(s->value[i]);
        s->value[i] = NULL;
    }
}

static const mg_fact_contributor allocation = {
    "allocation",       MG_FACT_PLACEMENT, sizeof(mg_fact_allocation),
    allocation_collect, allocation_write,  allocation_free};

const mg_fact_contributor *const mg_fact_contributors[] = {&links, &allocation, &cpu_model, &kernel,
                                                           NULL};

_Static_assert(sizeof mg_fact_contributors / sizeof mg_fact_contributors[0] <= MG_FACTS_MAX + 1,
               "more fact contributors than mg_facts has room for (MG_FACTS_MAX)");

static void *state_of(mg_facts *f, int i)
{
    if (f->state[i] == NULL)
        f->state[i] = calloc(1, mg_fact_contributors[i]->state_size);
    return f->state[i];
}

void mg_facts_collect(mg_facts *f, const mg_fact_world *w)
{
    f->nranks = w->nranks;
    for (int i = 0; mg_fact_contributors[i]; ++i) {
        void *s = state_of(f, i);
        if (s == NULL)
            w->die("out of memory for the run record's facts");
        mg_fact_contributors[i]->collect(s, w);
    }
}

void *mg_facts_state(mg_facts *f, const char *name)
{
    for (int i = 0; mg_fact_contributors[i]; ++i)
        if (strcmp(mg_fact_contributors[i]->name, name) == 0)
            return state_of(f, i);
    return NULL;
}

void mg_facts_write(mg_json *j, const mg_facts *f, mg_fact_part part)
{
    for (int i = 0; mg_fact_contributors[i]; ++i)
        if (f->state[i] && mg_fact_contributors[i]->part == part)
            mg_fact_contributors[i]->write(j, f->state[i], f->nranks);
}

void mg_facts_free(mg_facts *f)
{
    for (int i = 0; mg_fact_contributors[i]; ++i) {
        if (f->state[i] && mg_fact_contributors[i]->free)
            mg_fact_contributors[i]->free(f->state[i]);
        free(f->state[i]);
        f->state[i] = NULL;
    }
}
