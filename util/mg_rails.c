/* SPDX-License-Identifier: BSD-3-Clause */
/* Multirail arithmetic: see mg_rails.h. */
#include "mg_rails.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mg_stripe_split(uint64_t bytes, int k, const double *w, uint64_t align, uint64_t *off,
                     uint64_t *len)
{
    double total = 0.0, cum = 0.0;
    uint64_t prev = 0;

    if (align == 0 || bytes < (uint64_t)k * align)
        align = 1;
    for (int j = 0; j < k; ++j)
        total += w ? w[j] : 1.0;
    if (!(total > 0.0) || !isfinite(total))
        w = NULL; /* weights that cannot divide the message: even stripes */
    for (int j = 0; j < k; ++j) {
        uint64_t end;
        if (j == k - 1) {
            end = bytes;
        } else if (w == NULL) {
            /* exact integer arithmetic for even stripes */
            end = (uint64_t)((unsigned __int128)bytes * (unsigned)(j + 1) / (unsigned)k);
            end -= end % align;
        } else {
            cum += w[j];
            end = (uint64_t)floorl((long double)bytes * cum / total);
            end -= end % align;
        }
        if (end < prev)
            end = prev;
        if (end > bytes)
            end = bytes;
        off[j] = prev;
        len[j] = end - prev;
        prev = end;
    }
}

int mg_rail_weights_parse(const char *spec, int k, double *w, int *source, char *err, size_t errlen)
{
    const char *p = spec;
    double sum = 0.0, top = 0.0;
    int n = 0;

    if (spec == NULL || strcmp(spec, "even") == 0 || strcmp(spec, "auto") == 0) {
        for (int j = 0; j < k; ++j)
            w[j] = 1.0 / k;
        *source = spec && strcmp(spec, "auto") == 0 ? MG_WEIGHTS_AUTO : MG_WEIGHTS_EVEN;
        return 0;
    }
    while (*p) {
        char *end;
        double v;
        errno = 0;
        v = strtod(p, &end);
        if (end == p || errno != 0 || !(v > 0.0) || !isfinite(v) || (*end != ',' && *end != '\0')) {
            snprintf(err, errlen,
                     "--rail-weights: '%s' is not 'even', 'auto' or a list of "
                     "positive numbers like 3,1",
                     spec);
            return -1;
        }
        if (n < MG_RAILS_MAX)
            w[n] = v;
        ++n;
        top = fmax(top, v);
        p = *end == ',' ? end + 1 : end;
        if (*end == ',' && *p == '\0') {
            snprintf(err, errlen, "--rail-weights: '%s' ends with a comma", spec);
            return -1;
        }
    }
    if (n != k) {
        snprintf(err, errlen, "--rail-weights: %d weight%s given for %d rail%s (--rails)", n,
                 n == 1 ? "" : "s", k, k == 1 ? "" : "s");
        return -1;
    }
    /* scaled by the largest first: 1e308,1e308 would overflow the sum */
    for (int j = 0; j < k; ++j)
        sum += (w[j] /= top);
    for (int j = 0; j < k; ++j)
        w[j] /= sum;
    *source = MG_WEIGHTS_GIVEN;
    return 0;
}

void mg_rail_weights_from_bw(const double *mbs, int k, double *w)
{
    double sum = 0.0;
    for (int j = 0; j < k; ++j)
        sum += isfinite(mbs[j]) && mbs[j] > 0.0 ? mbs[j] : 0.0;
    for (int j = 0; j < k; ++j)
        w[j] = sum > 0.0 ? (isfinite(mbs[j]) && mbs[j] > 0.0 ? mbs[j] / sum : 0.0) : 1.0 / k;
}

static int key_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == ':' || c == '-'; }

int mg_rail_hints_parse(const char *spec, char (*keys)[64], char (*vals)[256], int max, char *err,
                        size_t errlen)
{
    const char *p = spec;
    int n = 0;
    while (p && *p) {
        const char *eq = strchr(p, '='), *semi = strchr(p, ';');
        size_t klen, vlen;
        if (semi == NULL)
            semi = p + strlen(p);
        if (eq == NULL || eq > semi || eq == p) {
            snprintf(err, errlen, "--rail-hint: '%.*s' is not KEY=VALUE", (int)(semi - p), p);
            return -1;
        }
        klen = (size_t)(eq - p);
        vlen = (size_t)(semi - eq - 1);
        for (const char *c = p; c < eq; ++c)
            if (!key_char((unsigned char)*c)) {
                snprintf(err, errlen, "--rail-hint: bad character '%c' in key '%.*s'", *c,
                         (int)klen, p);
                return -1;
            }
        if (klen >= 64 || vlen >= 256) {
            snprintf(err, errlen, "--rail-hint: key or value too long in '%.*s'", (int)(semi - p),
                     p);
            return -1;
        }
        if (n >= max) {
            snprintf(err, errlen, "--rail-hint: at most %d hints", max);
            return -1;
        }
        memcpy(keys[n], p, klen);
        keys[n][klen] = '\0';
        memcpy(vals[n], eq + 1, vlen);
        vals[n][vlen] = '\0';
        ++n;
        p = *semi ? semi + 1 : semi;
    }
    return n;
}

void mg_rail_hint_value(const char *tmpl, int r, char *out, size_t len)
{
    size_t o = 0;
    if (len == 0)
        return;
    for (const char *p = tmpl; *p && o + 1 < len; ++p) {
        if (p[0] == '%' && p[1] == 'd') {
            int w = snprintf(out + o, len - o, "%d", r);
            o += w > 0 ? (size_t)w : 0;
            if (o >= len)
                o = len - 1;
            ++p;
        } else if (p[0] == '%' && p[1] == '%') {
            out[o++] = '%';
            ++p;
        } else {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
}
