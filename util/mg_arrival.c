/* SPDX-License-Identifier: BSD-3-Clause */
#include "mg_arrival.h"
#include "mg_pattern.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MG_ARRIVAL_MAX_US 1e6 /* a second: anything longer is a typo */

static int fail(char *err, size_t errlen, const char *spec, const char *why)
{
    snprintf(err, errlen, "--arrival '%s': %s (give skew:US, random:US or one-late:US[@RANK])",
             spec, why);
    return -1;
}

int mg_arrival_parse(const char *spec, mg_arrival *out, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        mg_arrival_kind kind;
    } kinds[] = {{"skew:", MG_ARRIVAL_SKEW},
                 {"random:", MG_ARRIVAL_RANDOM},
                 {"one-late:", MG_ARRIVAL_ONE_LATE}};
    const char *num = NULL;
    char *end = NULL;
    memset(out, 0, sizeof *out);
    out->late_rank = -1;
    if (spec == NULL || strcmp(spec, "none") == 0)
        return 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i)
        if (strncmp(spec, kinds[i].name, strlen(kinds[i].name)) == 0) {
            out->kind = kinds[i].kind;
            num = spec + strlen(kinds[i].name);
        }
    if (num == NULL)
        return fail(err, errlen, spec, "unknown pattern");
    errno = 0;
    out->us = strtod(num, &end);
    if (end == num || errno != 0 || !isfinite(out->us) || out->us <= 0.0 ||
        out->us > MG_ARRIVAL_MAX_US)
        return fail(err, errlen, spec, "the delay must be microseconds above 0, at most 1e6");
    if (*end == '@' && out->kind == MG_ARRIVAL_ONE_LATE) {
        const char *r = end + 1;
        long v;
        errno = 0;
        v = strtol(r, &end, 10);
        if (end == r || errno != 0 || v < 0 || v > 1000000000L)
            return fail(err, errlen, spec, "the late rank must be a rank number");
        out->late_rank = (int)v;
    }
    if (*end != '\0')
        return fail(err, errlen, spec, "unexpected text after the delay");
    return 0;
}

double mg_arrival_delay_s(const mg_arrival *a, int rank, int nranks, uint64_t call, uint64_t seed)
{
    const double s = a->us * 1e-6;
    switch (a->kind) {
    case MG_ARRIVAL_SKEW: return nranks > 1 ? s * (double)rank / (double)(nranks - 1) : 0.0;
    case MG_ARRIVAL_RANDOM: {
        uint64_t h = mg_mix64(mg_mix64(mg_mix64(seed) ^ (uint64_t)rank) ^ call);
        return s * (double)(h >> 11) / 9007199254740992.0; /* [0, 1) of 53 bits */
    }
    case MG_ARRIVAL_ONE_LATE: {
        int late = a->late_rank >= 0 && a->late_rank < nranks ? a->late_rank : nranks - 1;
        return rank == late ? s : 0.0;
    }
    default: return 0.0;
    }
}

double mg_arrival_last_s(const mg_arrival *a, int nranks, uint64_t call, uint64_t seed)
{
    double last = 0.0;
    if (a->kind == MG_ARRIVAL_RANDOM) {
        for (int r = 0; r < nranks; ++r)
            last = fmax(last, mg_arrival_delay_s(a, r, nranks, call, seed));
        return last;
    }
    if (a->kind == MG_ARRIVAL_SKEW)
        return nranks > 1 ? a->us * 1e-6 : 0.0;
    return a->kind == MG_ARRIVAL_ONE_LATE ? a->us * 1e-6 : 0.0;
}

void mg_arrival_format(const mg_arrival *a, char *buf, size_t len)
{
    static const char *const names[] = {"none", "skew", "random", "one-late"};
    if (a->kind == MG_ARRIVAL_NONE)
        snprintf(buf, len, "none");
    else if (a->kind == MG_ARRIVAL_ONE_LATE && a->late_rank >= 0)
        snprintf(buf, len, "%s:%g@%d", names[a->kind], a->us, a->late_rank);
    else
        snprintf(buf, len, "%s:%g", names[a->kind], a->us);
}
