/* SPDX-License-Identifier: BSD-3-Clause */
/* The state of a node as Linux reports it, for the noise sentinels: load
 * average, runnable tasks, context switches, steal and total CPU time, and
 * the CPU clock where it is readable. Taken before and after a benchmark, it
 * tells whether the machine was busy or shared while the numbers were taken.
 *
 * The parsers are pure (text in, fields out) so recorded /proc contents test
 * them; mg_nodestate_read reads the live files. Fields a file does not give
 * stay at their "unknown" value: -1 for counters, NAN for the rest.
 */
#ifndef MG_NODESTATE_H
#define MG_NODESTATE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double load1, load5, load15; /* /proc/loadavg */
    long long procs_running;     /* /proc/loadavg: runnable tasks (incl. ours) */
    long long ctxt;              /* /proc/stat: context switches since boot */
    long long cpu_jiffies;       /* /proc/stat "cpu": all time of all CPUs */
    long long steal_jiffies;     /* /proc/stat "cpu": time a hypervisor gave away */
    double cpu_mhz;              /* mean "cpu MHz" of /proc/cpuinfo (or cpufreq) */
} mg_nodestate;

/* Every field unknown. */
void mg_nodestate_clear(mg_nodestate *s);

/* Parse the text of /proc/loadavg ("0.52 0.58 0.59 2/345 12345").
 * 0, or -EINVAL when the text is not of that form (fields left unknown). */
int mg_nodestate_parse_loadavg(const char *text, mg_nodestate *s);

/* Parse the text of /proc/stat: the aggregate "cpu" line (user nice system
 * idle iowait irq softirq steal ...) and the "ctxt" line. 0, or -EINVAL when
 * neither is there. */
int mg_nodestate_parse_stat(const char *text, mg_nodestate *s);

/* The mean of the "cpu MHz" lines of /proc/cpuinfo; NAN when there are none. */
double mg_nodestate_parse_cpuinfo_mhz(const char *text);

/* The CPU's model from the text of /proc/cpuinfo: the first "model name"
 * (x86), else "cpu" (POWER) or "Processor" (older Arm kernels), its value
 * with surrounding blanks removed and inner runs of blanks made one, and on
 * x86 " (family F model M, ISA)" after it (ISA: the widest of avx512f,
 * avx2, avx, sse4_2 in the flags); cut to LEN - 1 bytes. 0, or -EINVAL when
 * no model is there (OUT is ""). */
int mg_nodestate_parse_cpu_model(const char *text, char *out, size_t len);

/* This node's CPU model (mg_nodestate_parse_cpu_model of /proc/cpuinfo);
 * "" when unknown. */
void mg_nodestate_cpu_model(char *out, size_t len);

/* Read the live files (missing files leave their fields unknown); the CPU
 * clock comes from cpufreq's scaling_cur_freq of cpu0 when it exists, else
 * from /proc/cpuinfo. */
void mg_nodestate_read(mg_nodestate *s);

#ifdef __cplusplus
}
#endif

#endif
