/* SPDX-License-Identifier: BSD-3-Clause */
/* The all-pairs screen's schedule and verdict: see mg_screen.h. */
#include "mg_screen.h"

#include "mg_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int mg_screen_rounds(int n) { return n % 2 == 0 ? n - 1 : n; }

void mg_screen_round(int n, int r, int *partner)
{
    const int m = n % 2 == 0 ? n : n + 1; /* unit n: the dummy */
    for (int u = 0; u < n; ++u)
        partner[u] = -1;
    for (int i = 0; i < m / 2; ++i) {
        /* position 0 holds unit 0; the others turn by one each round */
        const int j = m - 1 - i;
        const int a = i == 0 ? 0 : 1 + (i - 1 + r) % (m - 1);
        const int b = 1 + (j - 1 + r) % (m - 1);
        if (a < n && b < n) {
            partner[a] = b;
            partner[b] = a;
        }
    }
}

long mg_screen_npairs(int n) { return (long)n * (n - 1) / 2; }

long mg_screen_pair_index(int n, int a, int b)
{
    if (a > b) {
        const int t = a;
        a = b;
        b = t;
    }
    return (long)a * (2L * n - a - 1) / 2 + (b - a - 1);
}

void mg_screen_pair_units(int n, long p, int *a, int *b)
{
    int u = 0;
    while (p >= n - 1 - u) {
        p -= n - 1 - u;
        ++u;
    }
    *a = u;
    *b = u + 1 + (int)p;
}

double mg_screen_sign_p(int n, int k)
{
    double sum = 0.0;
    if (k <= 0)
        return 1.0;
    for (int i = k; i <= n; ++i)
        sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * log(2.0));
    return sum < 1.0 ? sum : 1.0;
}

int mg_screen_min_reps(long npairs, double alpha)
{
    int n = 1;
    while (ldexp(1.0, -n) > alpha / (double)(npairs > 0 ? npairs : 1))
        ++n;
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The better median of v[0..m-1] (reordered): the upper middle when higher is
 * better, the lower middle otherwise; NaN for m == 0. */
static double better_median(double *v, int m, int higher_better)
{
    if (m == 0)
        return NAN;
    qsort(v, (size_t)m, sizeof *v, cmp_double);
    return v[higher_better ? m / 2 : (m - 1) / 2];
}

/* Repetition r's reference: the better median of the units' levels. */
static double rep_reference(const mg_screen_cfg *c, const double *x, int r, double *level,
                            double *tmp)
{
    const int n = c->nunits;
    int nl = 0;
    for (int u = 0; u < n; ++u) {
        int m = 0;
        for (int v = 0; v < n; ++v) {
            if (v == u)
                continue;
            const double y = x[mg_screen_pair_index(n, u, v) * c->reps + r];
            if (!isnan(y))
                tmp[m++] = y;
        }
        if (m > 0)
            level[nl++] = better_median(tmp, m, c->higher_better);
    }
    return better_median(level, nl, c->higher_better);
}

/* Holm's step-down at family-wise rate alpha over the p-values p[k] of the
 * pairs with want[k]: flag[k] set for the rejected ones. */
static int holm(const double *p, const int *want, long np, double alpha, int *flag, long *order)
{
    long m = 0;
    for (long k = 0; k < np; ++k)
        if (want[k])
            order[m++] = k;
    /* insertion order by p (stable; the families are small next to the run) */
    for (long i = 1; i < m; ++i)
        for (long j = i; j > 0 && p[order[j]] < p[order[j - 1]]; --j) {
            const long t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int nflag = 0;
    for (long i = 0; i < m; ++i) {
        if (p[order[i]] > alpha / (double)(m - i))
            break;
        flag[order[i]] = 1;
        ++nflag;
    }
    return nflag;
}

static void pair_stats(const mg_screen_cfg *c, const double *xp, const double *ref,
                       mg_screen_pair *o, double *val, double *good)
{
    int n = 0;
    memset(o, 0, sizeof *o);
    o->named_end = -1;
    for (int r = 0; r < c->reps; ++r) {
        if (isnan(xp[r]) || isnan(ref[r]) || xp[r] <= 0)
            continue;
        val[n] = xp[r];
        good[n] = c->higher_better ? xp[r] / ref[r] : ref[r] / xp[r];
        o->worse += good[n] < 1.0 - c->threshold;
        if (c->expect > 0)
            o->worse_floor += c->higher_better ? xp[r] < c->expect : xp[r] > c->expect;
        ++n;
    }
    o->n = n;
    o->median = o->ci_low = o->ci_high = o->ratio = o->ratio_low = o->ratio_high = NAN;
    o->p = o->p_floor = 1.0;
    if (n == 0)
        return;
    mg_stats s;
    if (mg_stats_compute(val, (size_t)n, &s) == 0) {
        o->median = s.median;
        o->ci_low = s.ci95_low;
        o->ci_high = s.ci95_high;
    }
    if (mg_stats_compute(good, (size_t)n, &s) == 0) {
        o->ratio = s.median;
        o->ratio_low = s.ci95_low;
        o->ratio_high = s.ci95_high;
    }
    o->p = mg_screen_sign_p(n, o->worse);
    o->p_floor = mg_screen_sign_p(n, o->worse_floor);
}

/* The units named and the flagged pairs each explains. */
static void name_units(const mg_screen_cfg *c, mg_screen_pair *pairs, int *flagged, int *named,
                       mg_screen_summary *sum)
{
    const int n = c->nunits;
    const long np = mg_screen_npairs(n);
    for (int u = 0; u < n; ++u) {
        int with_data = 0;
        flagged[u] = 0;
        for (int v = 0; v < n; ++v) {
            if (v == u)
                continue;
            const mg_screen_pair *q = &pairs[mg_screen_pair_index(n, u, v)];
            with_data += q->n > 0;
            flagged[u] += q->outlier || q->below_floor;
        }
        named[u] = flagged[u] >= 2 && 2 * flagged[u] > with_data;
        sum->named += named[u];
    }
    for (long p = 0; p < np; ++p) {
        int a, b;
        if (!pairs[p].outlier && !pairs[p].below_floor)
            continue;
        mg_screen_pair_units(n, p, &a, &b);
        pairs[p].named_end = named[a] ? a : named[b] ? b : -1;
        sum->links += pairs[p].named_end < 0;
    }
}

int mg_screen_analyse(const mg_screen_cfg *c, const double *x, mg_screen_pair *pairs,
                      int *unit_flagged, int *unit_named, double *ref_out, mg_screen_summary *sum)
{
    const int n = c->nunits, reps = c->reps;
    const long np = mg_screen_npairs(n);
    if (n < 2 || reps < 1 || !(c->threshold >= 0 && c->threshold < 1) || !(c->alpha > 0))
        return -1;
    const size_t wide = (size_t)(n > reps ? n : reps) + 1;
    double *ref = calloc((size_t)reps, sizeof *ref), *level = calloc(wide, sizeof *level),
           *tmp = calloc(wide, sizeof *tmp), *val = calloc(wide, sizeof *val),
           *good = calloc(wide, sizeof *good), *p = calloc((size_t)np, sizeof *p);
    int *want = calloc((size_t)np, sizeof *want), *flag = calloc((size_t)np, sizeof *flag);
    long *order = calloc((size_t)np, sizeof *order);
    int rc = -1;
    if (!ref || !level || !tmp || !val || !good || !p || !want || !flag || !order)
        goto out;
    memset(sum, 0, sizeof *sum);
    for (int r = 0; r < reps; ++r)
        ref[r] = rep_reference(c, x, r, level, tmp);
    {
        int m = 0;
        for (int r = 0; r < reps; ++r)
            if (!isnan(ref[r]))
                level[m++] = ref[r];
        mg_stats s;
        sum->reference = m > 0 && mg_stats_compute(level, (size_t)m, &s) == 0 ? s.median : NAN;
    }
    int most = 0;
    for (long k = 0; k < np; ++k) {
        pair_stats(c, x + k * reps, ref, &pairs[k], val, good);
        want[k] = pairs[k].n > 0;
        p[k] = pairs[k].p;
        most = pairs[k].n > most ? pairs[k].n : most;
    }
    if (n >= 3) {
        sum->outliers = holm(p, want, np, c->alpha, flag, order);
        for (long k = 0; k < np; ++k)
            pairs[k].outlier = flag[k];
    }
    if (c->expect > 0) {
        for (long k = 0; k < np; ++k) {
            p[k] = pairs[k].p_floor;
            flag[k] = 0;
        }
        sum->below_floor = holm(p, want, np, c->alpha, flag, order);
        for (long k = 0; k < np; ++k)
            pairs[k].below_floor = flag[k];
    }
    sum->conclusive = most >= mg_screen_min_reps(np, c->alpha) && (n >= 3 || c->expect > 0);
    name_units(c, pairs, unit_flagged, unit_named, sum);
    if (ref_out)
        memcpy(ref_out, ref, (size_t)reps * sizeof *ref);
    rc = 0;
out:
    free(ref);
    free(level);
    free(tmp);
    free(val);
    free(good);
    free(p);
    free(want);
    free(flag);
    free(order);
    return rc;
}
