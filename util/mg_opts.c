/* SPDX-License-Identifier: BSD-3-Clause */
/* Declarative option parsing: see mg_opts.h. */
#include "mg_opts.h"

#include "mg_size.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int has_range(const mg_opt *o) { return !(o->min == 0.0 && o->max == 0.0); }

static int out_of_range(const mg_opt *o, double v)
{
    return has_range(o) && (v < o->min || v > o->max);
}

static void opt_name(const mg_opt *o, char *buf, size_t len)
{
    if (o->long_name)
        snprintf(buf, len, "--%s", o->long_name);
    else
        snprintf(buf, len, "-%c", o->short_name);
}

static int list_push(mg_list *l, long v, const char *name, const char *item, char *err,
                     size_t errlen)
{
    for (int i = 0; i < l->n; ++i) {
        if (l->v[i] == v) {
            snprintf(err, errlen, "%s: '%s' is listed twice", name, item);
            return -EINVAL;
        }
    }
    if (l->n == MG_LIST_MAX) {
        snprintf(err, errlen, "%s: more than %d values", name, MG_LIST_MAX);
        return -EINVAL;
    }
    l->v[l->n++] = v;
    return 0;
}

/* One whole number of a list, in the option's range. */
static int list_number(const mg_opt *o, const char *name, const char *item, long *out, char *err,
                       size_t errlen)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(item, &end, 10);
    if (end == item || *end != '\0' || isspace((unsigned char)*item)) {
        snprintf(err, errlen, "%s: '%s' is not a whole number", name, item);
        return -EINVAL;
    }
    if (errno == ERANGE || out_of_range(o, (double)v)) {
        snprintf(err, errlen, "%s: %s is out of range [%.0f, %.0f]", name, item, o->min, o->max);
        return -EINVAL;
    }
    *out = (long)v;
    return 0;
}

static int parse_list(const mg_opt *o, const char *name, const char *arg, mg_list *l, char *err,
                      size_t errlen)
{
    char item[64];
    const char *colon = o->choices ? NULL : strchr(arg, ':');
    long lo, hi;
    int rc;

    l->n = 0;
    if (colon) {
        size_t n = (size_t)(colon - arg);
        if (n >= sizeof item || strchr(colon + 1, ':') || strchr(arg, ',')) {
            snprintf(err, errlen, "%s: '%s' is not MIN:MAX", name, arg);
            return -EINVAL;
        }
        memcpy(item, arg, n);
        item[n] = '\0';
        if ((rc = list_number(o, name, item, &lo, err, errlen)) != 0 ||
            (rc = list_number(o, name, colon + 1, &hi, err, errlen)) != 0)
            return rc;
        if (hi < lo) {
            snprintf(err, errlen, "%s: range '%s' is reversed", name, arg);
            return -EINVAL;
        }
        for (long v = lo;; v = v > 0 ? v * 2 : 1) {
            if ((rc = list_push(l, v, name, arg, err, errlen)) != 0)
                return rc;
            if (v >= hi || v > hi / 2)
                break; /* the next doubling passes hi (or LONG_MAX) */
        }
        return 0;
    }
    for (const char *p = arg;;) {
        size_t n = strcspn(p, ",");
        long v = 0;
        if (n == 0 || n >= sizeof item) {
            snprintf(err, errlen, "%s: %s entry in '%s'", name, n ? "overlong" : "empty", arg);
            return -EINVAL;
        }
        memcpy(item, p, n);
        item[n] = '\0';
        if (o->choices) {
            while (o->choices[v] && strcmp(o->choices[v], item) != 0)
                ++v;
            if (!o->choices[v]) {
                snprintf(err, errlen, "%s: unknown value '%s'", name, item);
                return -EINVAL;
            }
        } else if ((rc = list_number(o, name, item, &v, err, errlen)) != 0) {
            return rc;
        }
        if ((rc = list_push(l, v, name, item, err, errlen)) != 0)
            return rc;
        if (p[n] == '\0')
            return 0;
        p += n + 1;
    }
}

static int set_long(const mg_opt *o, const char *name, const char *arg, long *dst, char *err,
                    size_t errlen)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(arg, &end, 10);
    if (end == arg || *end != '\0') {
        snprintf(err, errlen, "%s: '%s' is not a whole number", name, arg);
        return -EINVAL;
    }
    if (errno == ERANGE || v > LONG_MAX || v < LONG_MIN) {
        snprintf(err, errlen, "%s: %s is too large", name, arg);
        return -EINVAL;
    }
    if (out_of_range(o, (double)v)) {
        snprintf(err, errlen, "%s: %s is out of range [%.0f, %.0f]", name, arg, o->min, o->max);
        return -EINVAL;
    }
    *dst = (long)v;
    return 0;
}

/* A number, or with MG_OPT_PERCENT a percentage (50 or 50%: 0.5). */
static int set_double(const mg_opt *o, const char *name, const char *arg, double *dst, char *err,
                      size_t errlen)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(arg, &end);
    if (end == arg) {
        snprintf(err, errlen, "%s: '%s' is not a number", name, arg);
        return -EINVAL;
    }
    if (o->type == MG_OPT_PERCENT) {
        if (*end == '%')
            ++end;
        v /= 100.0;
    }
    if (*end != '\0' || !isfinite(v)) {
        snprintf(err, errlen, "%s: '%s' is not a number", name, arg);
        return -EINVAL;
    }
    if (errno == ERANGE || out_of_range(o, v)) {
        if (o->type == MG_OPT_PERCENT)
            snprintf(err, errlen, "%s: %s is out of range [%g%%, %g%%]", name, arg, o->min * 100.0,
                     o->max * 100.0);
        else
            snprintf(err, errlen, "%s: %s is out of range [%g, %g]", name, arg, o->min, o->max);
        return -EINVAL;
    }
    *dst = v;
    return 0;
}

static int set_size(const mg_opt *o, const char *name, const char *arg, uint64_t *dst, char *err,
                    size_t errlen)
{
    uint64_t v;
    char msg[160];
    if (mg_size_parse(arg, &v, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "%s: %s", name, msg);
        return -EINVAL;
    }
    if (out_of_range(o, (double)v)) {
        snprintf(err, errlen, "%s: %s is out of range [%.0f, %.0f] bytes", name, arg, o->min,
                 o->max);
        return -EINVAL;
    }
    *dst = v;
    return 0;
}

static int set_choice(const mg_opt *o, const char *name, const char *arg, int *dst, char *err,
                      size_t errlen)
{
    size_t used;
    for (int i = 0; o->choices && o->choices[i]; ++i) {
        if (strcmp(o->choices[i], arg) == 0) {
            *dst = i;
            return 0;
        }
    }
    used = (size_t)snprintf(err, errlen, "%s: unknown value '%s' (one of:", name, arg);
    for (int i = 0; o->choices && o->choices[i] && used < errlen; ++i)
        used += (size_t)snprintf(err + used, errlen - used, " %s", o->choices[i]);
    if (used < errlen)
        snprintf(err + used, errlen - used, ")");
    return -EINVAL;
}

static int set_value(const mg_opt *o, void *base, const char *arg, char *err, size_t errlen)
{
    char *dst = (char *)base + o->offset;
    char name[64];
    opt_name(o, name, sizeof name);

    if (o->type != MG_OPT_FLAG && o->type != MG_OPT_STRING && isspace((unsigned char)*arg)) {
        snprintf(err, errlen, "%s: '%s' starts with white space", name, arg);
        return -EINVAL;
    }
    switch (o->type) {
    case MG_OPT_FLAG: *(int *)dst = 1; return 0;
    case MG_OPT_STRING:
        if (*arg == '\0') {
            snprintf(err, errlen, "%s: empty value", name);
            return -EINVAL;
        }
        *(const char **)dst = arg;
        return 0;
    case MG_OPT_LONG: return set_long(o, name, arg, (long *)dst, err, errlen);
    case MG_OPT_DOUBLE:
    case MG_OPT_PERCENT: return set_double(o, name, arg, (double *)dst, err, errlen);
    case MG_OPT_SIZE: return set_size(o, name, arg, (uint64_t *)dst, err, errlen);
    case MG_OPT_CHOICE: return set_choice(o, name, arg, (int *)dst, err, errlen);
    case MG_OPT_LIST: return parse_list(o, name, arg, (mg_list *)dst, err, errlen);
    case MG_OPT_END: break;
    }
    snprintf(err, errlen, "%s: internal error (bad option type)", name);
    return -EINVAL;
}

static const mg_opt *find(const mg_opt_table *tables, size_t nt, char s, const char *l, size_t llen,
                          void **base)
{
    for (size_t t = 0; t < nt; ++t) {
        for (const mg_opt *o = tables[t].opts; o->type != MG_OPT_END; ++o) {
            if ((s && o->short_name == s) || (l && o->long_name && strlen(o->long_name) == llen &&
                                              strncmp(o->long_name, l, llen) == 0)) {
                *base = tables[t].base;
                if (tables[t].given)
                    tables[t].given[o - tables[t].opts] = 1;
                return o;
            }
        }
    }
    return NULL;
}

static int same_name(const mg_opt *a, const mg_opt *b)
{
    return (a->short_name && a->short_name == b->short_name) ||
           (a->long_name && b->long_name && strcmp(a->long_name, b->long_name) == 0);
}

/* A name given to two options (in one table or two) is refused. */
static int check_names(const mg_opt_table *tables, size_t nt, char *err, size_t errlen)
{
    for (size_t t = 0; t < nt; ++t) {
        for (const mg_opt *o = tables[t].opts; o->type != MG_OPT_END; ++o) {
            for (size_t u = t; u < nt; ++u) {
                const mg_opt *q = u == t ? o + 1 : tables[u].opts;
                for (; q->type != MG_OPT_END; ++q) {
                    if (same_name(o, q)) {
                        char name[64];
                        opt_name(o, name, sizeof name);
                        snprintf(err, errlen, "internal: option %s is defined twice", name);
                        return -EINVAL;
                    }
                }
            }
        }
    }
    return 0;
}

int mg_opts_defaults(const mg_opt_table *tables, size_t ntables, char *err, size_t errlen)
{
    int rc = check_names(tables, ntables, err, errlen);
    if (rc != 0)
        return rc;
    for (size_t t = 0; rc == 0 && t < ntables; ++t) {
        for (const mg_opt *o = tables[t].opts; rc == 0 && o->type != MG_OPT_END; ++o) {
            if (o->def && o->type != MG_OPT_FLAG)
                rc = set_value(o, tables[t].base, o->def, err, errlen);
        }
    }
    if (rc != 0) {
        size_t n = strlen(err);
        snprintf(err + n, errlen > n ? errlen - n : 0, " (internal: a bad default)");
    }
    return rc;
}

const char *mg_opt_key(const mg_opt *o, char *buf, size_t len)
{
    size_t i;
    if (o->key)
        return *o->key ? o->key : NULL;
    if (o->long_name == NULL || len == 0)
        return NULL;
    for (i = 0; o->long_name[i] && i + 1 < len; ++i)
        buf[i] = o->long_name[i] == '-' ? '_' : o->long_name[i];
    buf[i] = '\0';
    return buf;
}

/* OSU's positional buffer locations (`osu_latency H H`): H, the host, is
 * what every mpigauge program uses, so up to two are accepted and do
 * nothing; D (device) and M (managed) are refused. 1: taken; 0: not a
 * location; -EINVAL with a message. */
static int buffer_location(const char *a, int *n, char *err, size_t errlen)
{
    if ((a[0] != 'H' && a[0] != 'D' && a[0] != 'M') || a[1] != '\0')
        return 0;
    if (a[0] != 'H') {
        snprintf(err, errlen,
                 "buffer location '%s': device buffers need a build with GPU support; this one "
                 "has host buffers (H) only",
                 a);
        return -EINVAL;
    }
    if (++*n > 2) {
        snprintf(err, errlen, "more than two buffer locations (OSU's H H: sender, receiver)");
        return -EINVAL;
    }
    return 1;
}

int mg_opts_parse(const mg_opt_table *tables, size_t ntables, int argc, char *const argv[],
                  char *err, size_t errlen)
{
    int locations = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *value = NULL;
        const mg_opt *o;
        void *base = NULL;
        int rc;

        if (strcmp(a, "--") == 0) {
            if (i + 1 < argc) {
                snprintf(err, errlen, "unexpected argument '%s'", argv[i + 1]);
                return -EINVAL;
            }
            return 0;
        }
        if (a[0] == '-' && a[1] == '-' && a[2] != '\0') {
            const char *eq = strchr(a + 2, '=');
            size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
            o = find(tables, ntables, 0, a + 2, len, &base);
            if (o == NULL) {
                snprintf(err, errlen, "unknown option '%.*s'", (int)(len + 2), a);
                return -EINVAL;
            }
            if (eq) {
                if (o->type == MG_OPT_FLAG) {
                    snprintf(err, errlen, "--%s takes no value", o->long_name);
                    return -EINVAL;
                }
                value = eq + 1;
            }
        } else if (a[0] == '-' && a[1] != '\0' && a[1] != '-') {
            o = find(tables, ntables, a[1], NULL, 0, &base);
            if (o == NULL) {
                snprintf(err, errlen, "unknown option '-%c'", a[1]);
                return -EINVAL;
            }
            if (a[2] != '\0') {
                if (o->type == MG_OPT_FLAG) {
                    snprintf(err, errlen, "-%c takes no value (got '%s')", a[1], a);
                    return -EINVAL;
                }
                value = a + 2;
            }
        } else if ((rc = buffer_location(a, &locations, err, errlen)) != 0) {
            if (rc < 0)
                return rc;
            continue;
        } else {
            snprintf(err, errlen, "unexpected argument '%s'", a);
            return -EINVAL;
        }
        if (o->type != MG_OPT_FLAG && value == NULL) {
            char name[64];
            opt_name(o, name, sizeof name);
            if (i + 1 >= argc) {
                snprintf(err, errlen, "%s needs a value (%s)", name, o->arg_name);
                return -EINVAL;
            }
            value = argv[++i];
        }
        if ((rc = set_value(o, base, value, err, errlen)) != 0)
            return rc;
    }
    return 0;
}

void mg_opts_help(FILE *f, const mg_opt_table *tables, size_t ntables)
{
    for (size_t t = 0; t < ntables; ++t) {
        for (const mg_opt *o = tables[t].opts; o->type != MG_OPT_END; ++o) {
            char left[80];
            int n = 0;
            if (o->short_name)
                n = snprintf(left, sizeof left, "  -%c, ", o->short_name);
            else
                n = snprintf(left, sizeof left, "      ");
            snprintf(left + n, sizeof left - (size_t)n, "%s%s%s%s", o->long_name ? "--" : "",
                     o->long_name ? o->long_name : "", o->arg_name ? " " : "",
                     o->arg_name ? o->arg_name : "");
            if (strlen(left) > 34)
                fprintf(f, "%s\n%-34s ", left, "");
            else
                fprintf(f, "%-34s ", left);
            if (o->def)
                fprintf(f, "%s (default %s)\n", o->help, o->def);
            else
                fprintf(f, "%s\n", o->help);
        }
    }
}

/* The last value of an option in argv, read without the option parser
 * (-S V, -SV, --long V, --long=V; short 0: none), for what must be known
 * when the options fail to parse. */
const char *mg_opts_last_value(int argc, char **argv, char short_name, const char *long_name)
{
    const char *v = NULL;
    const size_t n = strlen(long_name);
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            break;
        if (a[0] == '-' && a[1] == '-' && strncmp(a + 2, long_name, n) == 0 && a[2 + n] == '=')
            v = a + 3 + n;
        else if (((a[0] == '-' && a[1] == '-' && strcmp(a + 2, long_name) == 0) ||
                  (short_name && a[0] == '-' && a[1] == short_name && !a[2])) &&
                 i + 1 < argc)
            v = argv[++i];
        else if (short_name && a[0] == '-' && a[1] == short_name && a[2])
            v = a + 2;
    }
    return v;
}
