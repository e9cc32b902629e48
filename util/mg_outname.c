/* SPDX-License-Identifier: BSD-3-Clause */
/* The -o file's temporary names: see mg_outname.h. */
/* S_ISVTX is XSI */
#define _XOPEN_SOURCE 700
#include "mg_outname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SUFFIX_LEN 6 /* mkstemp's XXXXXX */

int mg_outname_template(const char *path, const char *host, long pid, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s.tmp.%s.%ld.XXXXXX", path, host, pid);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

long mg_outname_owner(const char *name, const char *base, const char *host)
{
    const size_t nb = strlen(base), nn = strlen(name), nh = strlen(host);
    const char *p, *pid_start, *end;
    char *stop;
    long pid;
    /* base ".tmp." host "." digits "." 6 characters */
    if (nn < nb + 5 + nh + 1 + 1 + 1 + SUFFIX_LEN || strncmp(name, base, nb) != 0 ||
        strncmp(name + nb, ".tmp.", 5) != 0)
        return -1;
    p = name + nb + 5;
    if (strncmp(p, host, nh) != 0 || p[nh] != '.')
        return -1;
    pid_start = p + nh + 1;
    end = name + nn - SUFFIX_LEN - 1;
    if (end <= pid_start || *end != '.')
        return -1;
    for (const char *q = pid_start; q < end; ++q)
        if (*q < '0' || *q > '9')
            return -1;
    pid = strtol(pid_start, &stop, 10);
    return stop == end && pid > 0 ? pid : -1;
}

mg_out_kind mg_outname_kind(mode_t mode)
{
    if (S_ISREG(mode))
        return MG_OUT_REPLACE;
    if (S_ISCHR(mode) || S_ISFIFO(mode))
        return MG_OUT_THROUGH;
    return MG_OUT_REFUSE;
}

int mg_outname_link_followable(uid_t link_uid, uid_t dir_uid, mode_t dir_mode, uid_t euid)
{
    if (!(dir_mode & S_ISVTX) || !(dir_mode & S_IWOTH))
        return 1;
    return link_uid == euid || link_uid == dir_uid;
}
