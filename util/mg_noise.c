/* SPDX-License-Identifier: BSD-3-Clause */
#define _POSIX_C_SOURCE 200809L
#include "mg_noise.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define MG_NOISE_MAX_US 1e6

static volatile sig_atomic_t detours;
static long detour_ns;
static struct sigaction previous;
static int running;

static int fail(char *err, size_t errlen, const char *spec, const char *why)
{
    snprintf(err, errlen, "--noise '%s': %s (give period:US,len:US)", spec, why);
    return -1;
}

static int number(const char **p, const char *name, double *v)
{
    char *end = NULL;
    size_t k = strlen(name);
    if (strncmp(*p, name, k) != 0)
        return -1;
    errno = 0;
    *v = strtod(*p + k, &end);
    if (end == *p + k || errno != 0 || !isfinite(*v))
        return -1;
    *p = end;
    return 0;
}

int mg_noise_parse(const char *spec, mg_noise *out, char *err, size_t errlen)
{
    const char *p = spec;
    memset(out, 0, sizeof *out);
    if (spec == NULL || strcmp(spec, "none") == 0)
        return 0;
    if (number(&p, "period:", &out->period_us) != 0 || *p++ != ',' ||
        number(&p, "len:", &out->len_us) != 0 || *p != '\0')
        return fail(err, errlen, spec, "not of that form");
    if (out->period_us <= 0.0 || out->period_us > MG_NOISE_MAX_US || out->len_us <= 0.0)
        return fail(err, errlen, spec, "microseconds above 0, the period at most 1e6");
    if (out->len_us >= out->period_us)
        return fail(err, errlen, spec, "the detour must be shorter than its period");
    if (out->period_us < 10.0)
        return fail(err, errlen, spec, "a period of at least 10 us (a timer signal costs about 1)");
    return 0;
}

double mg_noise_phase_s(const mg_noise *n, int rank)
{
    /* the golden ratio's fractional part: well spread offsets for any count */
    double f = fmod(0.6180339887498949 * (double)(rank + 1), 1.0);
    return f * n->period_us * 1e-6;
}

static void detour(int sig)
{
    struct timespec t0, t;
    long ns;
    int saved = errno;
    (void)sig;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        clock_gettime(CLOCK_MONOTONIC, &t);
        ns = (t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec);
    } while (ns < detour_ns);
    detours = detours + 1;
    errno = saved;
}

static struct timeval tv_of(double s)
{
    struct timeval tv;
    tv.tv_sec = (time_t)s;
    tv.tv_usec = (suseconds_t)((s - (double)tv.tv_sec) * 1e6);
    if (tv.tv_sec == 0 && tv.tv_usec == 0)
        tv.tv_usec = 1; /* zero would disarm the timer */
    return tv;
}

int mg_noise_start(const mg_noise *n, int rank)
{
    struct sigaction sa;
    struct itimerval it;
    if (n->period_us <= 0.0 || running)
        return 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = detour;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    detours = 0;
    detour_ns = (long)(n->len_us * 1e3);
    if (sigaction(SIGALRM, &sa, &previous) != 0)
        return -1;
    it.it_interval = tv_of(n->period_us * 1e-6);
    it.it_value = tv_of(mg_noise_phase_s(n, rank));
    if (setitimer(ITIMER_REAL, &it, NULL) != 0) {
        int e = errno;
        sigaction(SIGALRM, &previous, NULL);
        errno = e;
        return -1;
    }
    running = 1;
    return 0;
}

unsigned long mg_noise_stop(void)
{
    struct itimerval off;
    if (!running)
        return 0;
    memset(&off, 0, sizeof off);
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, &previous, NULL);
    running = 0;
    return (unsigned long)detours;
}
