/* SPDX-License-Identifier: BSD-3-Clause */
/* The --turns argument: see mg_turnspec.h. */
#include "mg_turnspec.h"

#include <stdio.h>
#include <string.h>

/* Digits only between s and end, at most 2 of them: the value, or -1. */
static long small_number(const char *s, const char *end)
{
    long v = 0;
    if (end <= s || end - s > 2)
        return -1;
    for (; s < end; ++s) {
        if (*s < '0' || *s > '9')
            return -1;
        v = 10 * v + (*s - '0');
    }
    return v;
}

static int name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '-' || ch == '_' || ch == '.';
}

int mg_turns_parse(const char *text, mg_turns_spec *out, char *err, size_t errlen)
{
    const char *c1 = strchr(text, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    long role, count;
    size_t n = c1 ? (size_t)(c1 - text) : 0;

    if (c1 == NULL || c2 == NULL || n == 0 || n >= MG_TURNS_NAME_MAX) {
        snprintf(err, errlen, "--turns: expected NAME:ROLE:COUNT (NAME of 1 to %d characters)",
                 MG_TURNS_NAME_MAX - 1);
        return -1;
    }
    for (size_t i = 0; i < n; ++i) {
        if (!name_char(text[i])) {
            snprintf(err, errlen, "--turns: NAME may hold letters, digits, '-', '_' and '.'");
            return -1;
        }
    }
    role = small_number(c1 + 1, c2);
    count = small_number(c2 + 1, c2 + 1 + strlen(c2 + 1));
    if (count < 2 || count > 64 || role < 0 || role >= count) {
        snprintf(err, errlen, "--turns %s: needs 0 <= ROLE < COUNT and 2 <= COUNT <= 64", text);
        return -1;
    }
    memcpy(out->name, text, n);
    out->name[n] = '\0';
    out->role = (int)role;
    out->count = (int)count;
    return 0;
}
