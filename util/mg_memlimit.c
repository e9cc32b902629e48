/* SPDX-License-Identifier: BSD-3-Clause */
/* What memory a node can give: see mg_memlimit.h. */
#include "mg_memlimit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* v1 writes "no limit" as the largest page-aligned signed 64-bit value. */
#define V1_UNLIMITED (UINT64_C(1) << 62)

uint64_t mg_cgroup_limit_parse(const char *text)
{
    char *end;
    unsigned long long v;
    while (*text == ' ' || *text == '\t')
        ++text;
    if (strncmp(text, "max", 3) == 0 && (text[3] == '\0' || text[3] == '\n'))
        return UINT64_MAX;
    if (*text < '0' || *text > '9')
        return 0;
    v = strtoull(text, &end, 10);
    if (*end != '\0' && *end != '\n')
        return 0;
    return v >= V1_UNLIMITED ? UINT64_MAX : (uint64_t)v;
}

int mg_cgroup_limit_file(const char *proc_cgroup, const char *root, char *out, size_t len)
{
    const char *line = proc_cgroup, *v1 = NULL, *v2 = NULL;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        if (strncmp(line, "0::", 3) == 0)
            v2 = line + 3;
        else {
            const char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
            if (c2 && (!nl || c2 < nl) && (size_t)(c2 - c1 - 1) >= 6) {
                /* the controller list may be "memory" or hold it among others */
                for (const char *p = c1 + 1; p + 6 <= c2; ++p)
                    if (strncmp(p, "memory", 6) == 0 && (p == c1 + 1 || p[-1] == ',') &&
                        (p + 6 == c2 || p[6] == ','))
                        v1 = c2 + 1;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    if (v1) {
        int n = (int)strcspn(v1, "\n");
        if (n == 1 && v1[0] == '/')
            n = 0;
        return snprintf(out, len, "%s/memory%.*s/memory.limit_in_bytes", root, n, v1) < (int)len
                   ? 0
                   : -1;
    }
    if (v2) {
        int n = (int)strcspn(v2, "\n");
        if (n == 1 && v2[0] == '/')
            n = 0;
        return snprintf(out, len, "%s%.*s/memory.max", root, n, v2) < (int)len ? 0 : -1;
    }
    return -1;
}

static int read_text(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n;
    if (f == NULL)
        return -1;
    n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
    return 0;
}

uint64_t mg_node_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t node = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_C(1) << 32;
    char text[4096], file[4096 + 64], limit[64];
    if (read_text("/proc/self/cgroup", text, sizeof text) == 0 &&
        mg_cgroup_limit_file(text, "/sys/fs/cgroup", file, sizeof file) == 0 &&
        read_text(file, limit, sizeof limit) == 0) {
        uint64_t cg = mg_cgroup_limit_parse(limit);
        if (cg > 0 && cg < node)
            node = cg;
    }
    return node;
}

uint64_t mg_memory_guard(uint64_t requested, uint64_t node, int local_ranks, unsigned num,
                         unsigned den, int *clamped)
{
    const uint64_t share = node / (uint64_t)(local_ranks > 0 ? local_ranks : 1);
    *clamped = 0;
    if (requested == 0)
        return share / den * num;
    if (requested > share) {
        *clamped = 1;
        return share;
    }
    return requested;
}
