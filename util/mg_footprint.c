/* SPDX-License-Identifier: BSD-3-Clause */
#include "mg_footprint.h"

#include "config.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number of kB after "NAME:" at a line's start, or NaN. */
static double field_kib(const char *text, const char *name)
{
    const size_t len = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, name, len) == 0 && p[len] == ':') {
            char *end;
            double v = strtod(p + len + 1, &end);
            return end == p + len + 1 ? NAN : v;
        }
    }
    return NAN;
}

int mg_footprint_parse(const char *text, mg_footprint *out)
{
    out->rss_kib = field_kib(text, "Rss");
    out->pss_kib = field_kib(text, "Pss");
    out->pss_anon_kib = field_kib(text, "Pss_Anon");
    out->pss_shmem_kib = field_kib(text, "Pss_Shmem");
    return isnan(out->rss_kib) || isnan(out->pss_kib) ? -1 : 0;
}

static double heap_kib(void)
{
#if defined(HAVE_MALLINFO2)
    const struct mallinfo2 m = mallinfo2();
    return ((double)m.uordblks + (double)m.hblkhd) / 1024.0;
#else
    return NAN;
#endif
}

int mg_footprint_read(mg_footprint *out)
{
    char text[4096];
    size_t n;
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (f == NULL)
        return -1;
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    out->heap_kib = heap_kib();
    return mg_footprint_parse(text, out);
}
