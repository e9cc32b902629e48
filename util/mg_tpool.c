/* SPDX-License-Identifier: BSD-3-Clause */
/* The thread team of mg_tpool.h: a generation counter under a mutex starts
 * a run, a count of running members ends it; `quit` tells the members to
 * leave. */
#include "mg_tpool.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

enum { SPINS_BEFORE_YIELD = 4000 };

struct mg_tpool {
    int n, made; /* members, and threads made (n - 1 once complete) */
    pthread_t *tid;
    pthread_mutex_t mu;
    pthread_cond_t go, fin;
    unsigned long gen; /* runs started */
    int running;       /* members 1..n-1 still in this run */
    int quit;
    mg_tpool_fn fn;
    void *arg;
    atomic_int arrived, sense; /* mg_tpool_barrier */
    int *my_sense;             /* each member's sense, n entries */
};

typedef struct {
    mg_tpool *p;
    int member;
} member_arg;

static void *member_main(void *a)
{
    member_arg m = *(member_arg *)a;
    mg_tpool *p = m.p;
    unsigned long seen = 0;
    free(a);
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->gen == seen && !p->quit)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->quit)
            break;
        seen = p->gen;
        mg_tpool_fn fn = p->fn;
        void *arg = p->arg;
        pthread_mutex_unlock(&p->mu);
        fn(arg, m.member);
        pthread_mutex_lock(&p->mu);
        if (--p->running == 0)
            pthread_cond_signal(&p->fin);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

void mg_tpool_destroy(mg_tpool *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->made; ++i)
        pthread_join(p->tid[i], NULL);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->fin);
    pthread_mutex_destroy(&p->mu);
    free(p->my_sense);
    free(p->tid);
    free(p);
}

mg_tpool *mg_tpool_create(int n)
{
    mg_tpool *p;
    int rc = 0;
    if (n < 1 || n > MG_TPOOL_MAX) {
        errno = EINVAL;
        return NULL;
    }
    if ((p = calloc(1, sizeof *p)) == NULL ||
        (p->tid = calloc((size_t)n, sizeof *p->tid)) == NULL ||
        (p->my_sense = calloc((size_t)n, sizeof *p->my_sense)) == NULL) {
        if (p)
            free(p->tid);
        free(p);
        errno = ENOMEM;
        return NULL;
    }
    p->n = n;
    atomic_init(&p->arrived, 0);
    atomic_init(&p->sense, 0);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->fin, NULL);
    while (p->made < n - 1) {
        member_arg *m = malloc(sizeof *m);
        if (m == NULL) {
            rc = ENOMEM;
            break;
        }
        m->p = p;
        m->member = p->made + 1;
        if ((rc = pthread_create(&p->tid[p->made], NULL, member_main, m)) != 0) {
            free(m);
            break;
        }
        ++p->made;
    }
    if (p->made < n - 1) {
        mg_tpool_destroy(p);
        errno = rc;
        return NULL;
    }
    return p;
}

void mg_tpool_run(mg_tpool *p, mg_tpool_fn fn, void *arg)
{
    if (p->n > 1) {
        pthread_mutex_lock(&p->mu);
        p->fn = fn;
        p->arg = arg;
        p->running = p->n - 1;
        ++p->gen;
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
    fn(arg, 0);
    if (p->n > 1) {
        pthread_mutex_lock(&p->mu);
        while (p->running > 0)
            pthread_cond_wait(&p->fin, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
}

int mg_tpool_size(const mg_tpool *p) { return p->n; }

void mg_tpool_barrier(mg_tpool *p, int member)
{
    int want = !p->my_sense[member];
    p->my_sense[member] = want;
    if (p->n == 1)
        return;
    if (atomic_fetch_add(&p->arrived, 1) == p->n - 1) {
        atomic_store(&p->arrived, 0);
        atomic_store(&p->sense, want);
        return;
    }
    for (long k = 0; atomic_load(&p->sense) != want; ++k)
        if (k > SPINS_BEFORE_YIELD)
            sched_yield();
}
