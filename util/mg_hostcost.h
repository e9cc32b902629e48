/* SPDX-License-Identifier: BSD-3-Clause */
/* What the host paid for a row's timed samples (pure C, no MPI; the
 * observer mpi/observe/obs_hostcost.c reads it on every rank and reports it):
 * getrusage(2) of the process right before the first timed sample and
 * right after the last, as the kernel counts it: user and system CPU time,
 * voluntary and involuntary context switches, minor and major page faults.
 *
 * Per rank the differences are divided by the timed iterations (a kernel's
 * iteration: a ping-pong's round trip, a window of a bandwidth test, one
 * collective call) and the CPU time also by the timed wall time (cpu_util:
 * 1.0 is one core busy all the time, as a library that polls); over ranks
 * the row gives the mean of each and the rank that paid the most CPU per
 * iteration. Where the kernel allows (perf_event_open(2), this process's
 * own counts in user space: perf_event_paranoid up to 2), also CPU
 * migrations and the hardware's instructions, cycles and cache misses per
 * iteration; a counter the kernel or the machine does not give (a virtual
 * machine has the software ones only) is NaN. doc/output.md ("host").
 */
#ifndef MG_HOSTCOST_H
#define MG_HOSTCOST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The perf counters, in this order; NaN where not counted. */
enum { MG_PERF_MIGRATIONS, MG_PERF_INSTRUCTIONS, MG_PERF_CYCLES, MG_PERF_CACHE_MISSES, MG_PERF_N };

/* One reading (the process's counts since it started, or since the
 * counters were opened). */
typedef struct mg_host_usage {
    double user_s, sys_s;
    double vol_cs, invol_cs;
    double minor_faults, major_faults;
    double perf[MG_PERF_N];
} mg_host_usage;

/* The perf counters a process opened (-1: not counted). */
typedef struct {
    int fd[MG_PERF_N];
} mg_perf;

/* Open every counter the kernel allows for this process (user space);
 * returns how many. */
int mg_perf_open(mg_perf *p);
void mg_perf_close(mg_perf *p);
/* The counters' values into u->perf (NaN where not counted). */
void mg_perf_read(const mg_perf *p, mg_host_usage *u);

/* The figures of a rank, in this order (MG_HOST_NAMES). */
enum {
    MG_HOST_USER_US,     /* user CPU, us per iteration */
    MG_HOST_SYS_US,      /* system CPU, us per iteration */
    MG_HOST_VOL_CS,      /* voluntary context switches per iteration */
    MG_HOST_INVOL_CS,    /* involuntary context switches per iteration */
    MG_HOST_MINOR_FAULT, /* minor page faults per iteration */
    MG_HOST_MAJOR_FAULT, /* major page faults per iteration */
    MG_HOST_CPU_UTIL,    /* (user + system) / timed wall time */
    MG_HOST_MIGRATIONS,  /* CPU migrations per iteration (perf) */
    MG_HOST_INSTRUCTIONS,
    MG_HOST_CYCLES,
    MG_HOST_CACHE_MISSES, /* hardware counters per iteration (perf) */
    MG_HOST_NFIG
};
extern const char *const mg_host_names[MG_HOST_NFIG];

/* getrusage(RUSAGE_SELF) into *u (its perf counters NaN); 0, or -1 (then
 * the rest is zeroed). */
int mg_host_usage_now(mg_host_usage *u);

/* *sum += b - a, counter by counter (a block's share of the readings). */
void mg_host_add(mg_host_usage *sum, const mg_host_usage *a, const mg_host_usage *b);
/* A rank's figures from its readings before (a) and after (b) the timed
 * samples, iters timed iterations and wall_s their wall time: NaN where
 * they cannot be had (no iterations, no wall time for cpu_util). */
void mg_host_figures(const mg_host_usage *a, const mg_host_usage *b, unsigned long long iters,
                     double wall_s, double out[MG_HOST_NFIG]);

/* Over nranks ranks' figures (rank r's at all[r * MG_HOST_NFIG]): the mean
 * of each over the ranks where it is finite (NaN when none), and the rank
 * with the most CPU per iteration (user + system; the lowest on a tie; -1
 * when no rank has both). */
void mg_host_summary(const double *all, int nranks, double mean[MG_HOST_NFIG], int *busiest);

#ifdef __cplusplus
}
#endif

#endif
