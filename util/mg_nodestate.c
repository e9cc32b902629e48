/* SPDX-License-Identifier: BSD-3-Clause */
/* Node state for the noise sentinels: see mg_nodestate.h. */
#include "mg_nodestate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mg_nodestate_clear(mg_nodestate *s)
{
    s->load1 = s->load5 = s->load15 = NAN;
    s->procs_running = s->ctxt = s->cpu_jiffies = s->steal_jiffies = -1;
    s->cpu_mhz = NAN;
}

int mg_nodestate_parse_loadavg(const char *text, mg_nodestate *s)
{
    double a, b, c;
    long long run, total;
    if (text == NULL || sscanf(text, "%lf %lf %lf %lld/%lld", &a, &b, &c, &run, &total) != 5)
        return -EINVAL;
    s->load1 = a;
    s->load5 = b;
    s->load15 = c;
    s->procs_running = run;
    return 0;
}

/* The line of `text` that starts with `key` followed by a blank, or NULL. */
static const char *line_with(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, key, n) == 0 && (p[n] == ' ' || p[n] == '\t'))
            return p + n;
    return NULL;
}

int mg_nodestate_parse_stat(const char *text, mg_nodestate *s)
{
    const char *cpu, *ctxt;
    int found = 0;
    if (text == NULL)
        return -EINVAL;
    cpu = line_with(text, "cpu");
    if (cpu) {
        long long v[10] = {0}, total = 0;
        int n = 0;
        char *end;
        const char *p = cpu;
        while (n < 10) {
            long long x = strtoll(p, &end, 10);
            if (end == p)
                break;
            v[n++] = x;
            p = end;
        }
        /* guest and guest_nice (fields 9, 10) are already inside user and nice */
        for (int i = 0; i < n && i < 8; ++i)
            total += v[i];
        if (n >= 4) {
            s->cpu_jiffies = total;
            s->steal_jiffies = n >= 8 ? v[7] : 0;
            found = 1;
        }
    }
    ctxt = line_with(text, "ctxt");
    if (ctxt) {
        char *end;
        long long x = strtoll(ctxt, &end, 10);
        if (end != ctxt) {
            s->ctxt = x;
            found = 1;
        }
    }
    return found ? 0 : -EINVAL;
}

/* The value of the first line "KEY<blanks>: VALUE" of TEXT, or NULL; *end is
 * where the line ends. */
static const char *field(const char *text, const char *key, const char **end)
{
    const size_t k = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *eol = strchr(p, '\n'), *q = p + k;
        if (strncmp(p, key, k) != 0)
            continue;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != ':')
            continue;
        *end = eol ? eol : p + strlen(p);
        return q + 1;
    }
    return NULL;
}

double mg_nodestate_parse_cpuinfo_mhz(const char *text)
{
    double sum = 0.0, mhz;
    int n = 0;
    const char *end = text;
    for (const char *v = text ? field(text, "cpu MHz", &end) : NULL; v;
         v = *end ? field(end, "cpu MHz", &end) : NULL)
        if (sscanf(v, "%lf", &mhz) == 1) {
            sum += mhz;
            n++;
        }
    return n ? sum / n : NAN;
}

/* x86: " (family F model M, ISA)" after the model's name, the widest vector
 * extension among the first CPU's flags (a VM's model name may be a
 * generic "Processor"; libraries choose copy kernels by these). */
static void append_x86_id(const char *text, char *out, size_t len)
{
    static const char *const isa[] = {"avx512f", "avx2", "avx", "sse4_2"};
    const char *end, *fam = field(text, "cpu family", &end), *mod = field(text, "model", &end);
    const char *flags = field(text, "flags", &end), *wide = NULL;
    long f, m;
    if (!fam || !mod || sscanf(fam, "%ld", &f) != 1 || sscanf(mod, "%ld", &m) != 1)
        return;
    for (size_t i = 0; flags && i < sizeof isa / sizeof *isa && !wide; ++i) {
        const size_t k = strlen(isa[i]);
        for (const char *q = strstr(flags, isa[i]); q && q < end && !wide;
             q = strstr(q + 1, isa[i]))
            if (q[-1] == ' ' && (q[k] == ' ' || q[k] == '\n' || q[k] == '\0'))
                wide = isa[i];
    }
    const size_t n = strlen(out);
    const int w = snprintf(out + n, len - n, " (family %ld model %ld%s%s)", f, m, wide ? ", " : "",
                           wide ? wide : "");
    if (w < 0 || (size_t)w >= len - n) /* whole or not at all */
        out[n] = '\0';
}

int mg_nodestate_parse_cpu_model(const char *text, char *out, size_t len)
{
    static const char *const keys[] = {"model name", "cpu", "Processor"};
    const char *v = NULL, *end = NULL;
    size_t n = 0;
    for (size_t i = 0; i < sizeof keys / sizeof *keys && v == NULL; ++i)
        v = text ? field(text, keys[i], &end) : NULL;
    for (; v && v < end && n + 1 < len; ++v) {
        const int blank = *v == ' ' || *v == '\t';
        if (blank && (n == 0 || out[n - 1] == ' '))
            continue;
        out[n++] = blank ? ' ' : *v;
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    if (len > 0)
        out[n] = '\0';
    if (n > 0)
        append_x86_id(text, out, len);
    return n > 0 ? 0 : -EINVAL;
}

/* The whole of a small file as a string (NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (f == NULL)
        return NULL;
    for (;;) {
        if (cap - len < 4096) {
            char *nb = realloc(buf, cap + 65536);
            if (nb == NULL)
                break;
            buf = nb;
            cap += 65536;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

void mg_nodestate_read(mg_nodestate *s)
{
    char *t;
    mg_nodestate_clear(s);
    if ((t = slurp("/proc/loadavg")) != NULL) {
        mg_nodestate_parse_loadavg(t, s);
        free(t);
    }
    if ((t = slurp("/proc/stat")) != NULL) {
        mg_nodestate_parse_stat(t, s);
        free(t);
    }
    if ((t = slurp("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq")) != NULL) {
        double khz;
        if (sscanf(t, "%lf", &khz) == 1 && khz > 0)
            s->cpu_mhz = khz / 1000.0;
        free(t);
    }
    if (isnan(s->cpu_mhz) && (t = slurp("/proc/cpuinfo")) != NULL) {
        s->cpu_mhz = mg_nodestate_parse_cpuinfo_mhz(t);
        free(t);
    }
}

void mg_nodestate_cpu_model(char *out, size_t len)
{
    char *t = slurp("/proc/cpuinfo");
    if (mg_nodestate_parse_cpu_model(t, out, len) != 0 && len > 0)
        out[0] = '\0';
    free(t);
}
