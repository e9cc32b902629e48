/* SPDX-License-Identifier: BSD-3-Clause */
/* The host's cost of a row's timed samples: see mg_hostcost.h. */
/* syscall(2) (perf_event_open has no wrapper) is not POSIX */
#define _DEFAULT_SOURCE
#include "mg_hostcost.h"

#include <linux/perf_event.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const mg_host_names[MG_HOST_NFIG] = {
    "user_us_per_iter",  "sys_us_per_iter",       "vol_cs_per_iter",
    "invol_cs_per_iter", "minor_faults_per_iter", "major_faults_per_iter",
    "cpu_util",          "migrations_per_iter",   "instructions_per_iter",
    "cycles_per_iter",   "cache_misses_per_iter"};

int mg_perf_open(mg_perf *p)
{
    static const struct {
        unsigned type;
        unsigned long long config;
    } ev[MG_PERF_N] = {{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
                       {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
                       {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
                       {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES}};
    int n = 0;
    for (int k = 0; k < MG_PERF_N; ++k) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = ev[k].type;
        a.config = ev[k].config;
        a.exclude_kernel = 1; /* what perf_event_paranoid 2 lets a process count */
        a.exclude_hv = 1;
        a.inherit = 1; /* the process's threads too */
        p->fd[k] = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        n += p->fd[k] >= 0;
    }
    return n;
}

void mg_perf_close(mg_perf *p)
{
    for (int k = 0; k < MG_PERF_N; ++k) {
        if (p->fd[k] >= 0)
            close(p->fd[k]);
        p->fd[k] = -1;
    }
}

void mg_perf_read(const mg_perf *p, mg_host_usage *u)
{
    for (int k = 0; k < MG_PERF_N; ++k) {
        unsigned long long v;
        u->perf[k] =
            p->fd[k] >= 0 && read(p->fd[k], &v, sizeof v) == (ssize_t)sizeof v ? (double)v : NAN;
    }
}

int mg_host_usage_now(mg_host_usage *u)
{
    struct rusage r;
    memset(u, 0, sizeof *u);
    for (int k = 0; k < MG_PERF_N; ++k)
        u->perf[k] = NAN;
    if (getrusage(RUSAGE_SELF, &r) != 0)
        return -1;
    u->user_s = (double)r.ru_utime.tv_sec + 1e-6 * (double)r.ru_utime.tv_usec;
    u->sys_s = (double)r.ru_stime.tv_sec + 1e-6 * (double)r.ru_stime.tv_usec;
    u->vol_cs = (double)r.ru_nvcsw;
    u->invol_cs = (double)r.ru_nivcsw;
    u->minor_faults = (double)r.ru_minflt;
    u->major_faults = (double)r.ru_majflt;
    return 0;
}

void mg_host_add(mg_host_usage *sum, const mg_host_usage *a, const mg_host_usage *b)
{
    sum->user_s += b->user_s - a->user_s;
    sum->sys_s += b->sys_s - a->sys_s;
    sum->vol_cs += b->vol_cs - a->vol_cs;
    sum->invol_cs += b->invol_cs - a->invol_cs;
    sum->minor_faults += b->minor_faults - a->minor_faults;
    sum->major_faults += b->major_faults - a->major_faults;
    for (int k = 0; k < MG_PERF_N; ++k)
        sum->perf[k] += b->perf[k] - a->perf[k];
}

void mg_host_figures(const mg_host_usage *a, const mg_host_usage *b, unsigned long long iters,
                     double wall_s, double out[MG_HOST_NFIG])
{
    const double n = iters > 0 ? (double)iters : NAN;
    const double cpu = (b->user_s - a->user_s) + (b->sys_s - a->sys_s);
    out[MG_HOST_USER_US] = 1e6 * (b->user_s - a->user_s) / n;
    out[MG_HOST_SYS_US] = 1e6 * (b->sys_s - a->sys_s) / n;
    out[MG_HOST_VOL_CS] = (b->vol_cs - a->vol_cs) / n;
    out[MG_HOST_INVOL_CS] = (b->invol_cs - a->invol_cs) / n;
    out[MG_HOST_MINOR_FAULT] = (b->minor_faults - a->minor_faults) / n;
    out[MG_HOST_MAJOR_FAULT] = (b->major_faults - a->major_faults) / n;
    out[MG_HOST_CPU_UTIL] = wall_s > 0 ? cpu / wall_s : NAN;
    for (int k = 0; k < MG_PERF_N; ++k)
        out[MG_HOST_MIGRATIONS + k] = (b->perf[k] - a->perf[k]) / n;
}

void mg_host_summary(const double *all, int nranks, double mean[MG_HOST_NFIG], int *busiest)
{
    double most = -INFINITY;
    *busiest = -1;
    for (int k = 0; k < MG_HOST_NFIG; ++k) {
        double sum = 0.0;
        int n = 0;
        for (int r = 0; r < nranks; ++r) {
            const double v = all[(size_t)r * MG_HOST_NFIG + (size_t)k];
            if (isfinite(v)) {
                sum += v;
                ++n;
            }
        }
        mean[k] = n > 0 ? sum / n : NAN;
    }
    for (int r = 0; r < nranks; ++r) {
        const double *f = all + (size_t)r * MG_HOST_NFIG;
        const double cpu = f[MG_HOST_USER_US] + f[MG_HOST_SYS_US];
        if (isfinite(cpu) && cpu > most) {
            most = cpu;
            *busiest = r;
        }
    }
}
