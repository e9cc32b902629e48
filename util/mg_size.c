/* SPDX-License-Identifier: BSD-3-Clause */
/* Size and sweep parsing: see mg_size.h for the grammar. */
#include "mg_size.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MG_SWEEP_MAX_ENTRIES 4096

int mg_size_parse(const char *text, uint64_t *out_bytes, char *err, size_t errlen)
{
    const char *p = text;
    uint64_t value = 0;

    if (text == NULL || *text == '\0') {
        snprintf(err, errlen, "empty size");
        return -EINVAL;
    }
    if (*p == '-') {
        snprintf(err, errlen, "size '%s' is negative", text);
        return -EINVAL;
    }
    if (!isdigit((unsigned char)*p)) {
        snprintf(err, errlen, "size '%s' is not a number", text);
        return -EINVAL;
    }
    for (; isdigit((unsigned char)*p); ++p) {
        value = value * 10 + (uint64_t)(*p - '0');
        if (value > MG_SIZE_LIMIT) {
            snprintf(err, errlen, "size '%s' is too large (limit 2^48 bytes)", text);
            return -ERANGE;
        }
    }
    if (*p != '\0') {
        unsigned shift;
        switch (*p) {
        case 'k':
        case 'K': shift = 10; break;
        case 'm':
        case 'M': shift = 20; break;
        case 'g':
        case 'G': shift = 30; break;
        default:
            snprintf(err, errlen, "size '%s' has an unknown suffix '%s' (use K, M or G)", text, p);
            return -EINVAL;
        }
        if (p[1] != '\0') {
            snprintf(err, errlen, "size '%s' has trailing characters '%s'", text, p + 1);
            return -EINVAL;
        }
        if (value > (MG_SIZE_LIMIT >> shift)) {
            snprintf(err, errlen, "size '%s' is too large (limit 2^48 bytes)", text);
            return -ERANGE;
        }
        value <<= shift;
    }
    *out_bytes = value;
    return 0;
}

static int check_min(uint64_t v, uint64_t min_allowed, const char *text, char *err, size_t errlen)
{
    if (v < min_allowed) {
        snprintf(err, errlen, "size '%s' is below the smallest size %llu allowed here", text,
                 (unsigned long long)min_allowed);
        return -EINVAL;
    }
    return 0;
}

static int push(mg_sweep *sw, size_t *cap, uint64_t v, char *err, size_t errlen)
{
    if (sw->n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        uint64_t *ns;
        if (ncap > MG_SWEEP_MAX_ENTRIES) {
            snprintf(err, errlen, "too many sizes (at most %d)", MG_SWEEP_MAX_ENTRIES);
            return -E2BIG;
        }
        ns = realloc(sw->sizes_bytes, ncap * sizeof *ns);
        if (ns == NULL) {
            snprintf(err, errlen, "out of memory");
            return -ENOMEM;
        }
        sw->sizes_bytes = ns;
        *cap = ncap;
    }
    sw->sizes_bytes[sw->n++] = v;
    return 0;
}

static int parse_list(char *copy, uint64_t min_allowed, mg_sweep *sw, char *err, size_t errlen)
{
    size_t cap = 0;
    char *item = copy;
    for (;;) {
        char *comma = strchr(item, ',');
        uint64_t v;
        int rc;
        if (comma)
            *comma = '\0';
        if (*item == '\0') {
            snprintf(err, errlen, "empty entry in size list");
            return -EINVAL;
        }
        if ((rc = mg_size_parse(item, &v, err, errlen)) != 0)
            return rc;
        if ((rc = check_min(v, min_allowed, item, err, errlen)) != 0)
            return rc;
        if ((rc = push(sw, &cap, v, err, errlen)) != 0)
            return rc;
        if (!comma)
            return 0;
        item = comma + 1;
    }
}

static int parse_range(char *copy, uint64_t min_allowed, uint64_t default_min, uint64_t default_max,
                       mg_sweep *sw, char *err, size_t errlen)
{
    char *colon = strchr(copy, ':');
    uint64_t lo = default_min, hi = default_max, v;
    size_t cap = 0;
    int rc;

    if (colon) {
        *colon = '\0';
        if (strchr(colon + 1, ':')) {
            snprintf(err, errlen, "size range has more than one ':'");
            return -EINVAL;
        }
        if (*copy && (rc = mg_size_parse(copy, &lo, err, errlen)) != 0)
            return rc;
        if (colon[1] && (rc = mg_size_parse(colon + 1, &hi, err, errlen)) != 0)
            return rc;
        if (!*copy && !colon[1]) {
            snprintf(err, errlen, "size range ':' names neither a minimum nor a maximum");
            return -EINVAL;
        }
    } else if ((rc = mg_size_parse(copy, &hi, err, errlen)) != 0) {
        return rc;
    }
    if (hi < min_allowed) {
        snprintf(err, errlen, "largest size %llu is below the smallest size %llu allowed here",
                 (unsigned long long)hi, (unsigned long long)min_allowed);
        return -EINVAL;
    }
    if ((rc = check_min(lo, min_allowed, colon ? copy : "minimum", err, errlen)) != 0)
        return rc;
    if (hi < lo) {
        snprintf(err, errlen, "size range is reversed: minimum %llu is above maximum %llu",
                 (unsigned long long)lo, (unsigned long long)hi);
        return -EINVAL;
    }
    for (v = lo; v <= hi; v = v ? v * 2 : 1)
        if ((rc = push(sw, &cap, v, err, errlen)) != 0)
            return rc;
    return 0;
}

int mg_sweep_parse(const char *spec, uint64_t min_allowed, uint64_t default_min,
                   uint64_t default_max, mg_sweep *out, char *err, size_t errlen)
{
    char *copy;
    int rc;

    out->sizes_bytes = NULL;
    out->n = 0;
    if (spec == NULL || *spec == '\0') {
        snprintf(err, errlen, "empty message-size specification");
        return -EINVAL;
    }
    copy = strdup(spec);
    if (copy == NULL) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    if (strchr(copy, ','))
        rc = parse_list(copy, min_allowed, out, err, errlen);
    else
        rc = parse_range(copy, min_allowed, default_min, default_max, out, err, errlen);
    free(copy);
    if (rc != 0)
        mg_sweep_free(out);
    return rc;
}

uint64_t mg_sweep_max(const mg_sweep *sw)
{
    uint64_t m = 0;
    for (size_t i = 0; i < sw->n; ++i)
        if (sw->sizes_bytes[i] > m)
            m = sw->sizes_bytes[i];
    return m;
}

void mg_sweep_free(mg_sweep *sw)
{
    free(sw->sizes_bytes);
    sw->sizes_bytes = NULL;
    sw->n = 0;
}

int mg_size_format(uint64_t bytes, char *buf, size_t len)
{
    static const char suffix[] = "GMK";
    for (int i = 0; i < 3; ++i) {
        unsigned shift = (unsigned)(30 - 10 * i);
        uint64_t unit = UINT64_C(1) << shift;
        if (bytes >= unit && bytes % unit == 0)
            return snprintf(buf, len, "%llu%c", (unsigned long long)(bytes >> shift), suffix[i]);
    }
    return snprintf(buf, len, "%llu", (unsigned long long)bytes);
}
