/* SPDX-License-Identifier: BSD-3-Clause */
/* mpigauge_screen's output (rank 0): the table (a pair matrix per metric up
 * to 10 units, else the flagged and the worst pairs; then the verdict) or
 * JSON Lines (doc/screen.md: records screen, screen_pair, screen_verdict,
 * screen_summary). */
#include "screen.h"

#include "mg_exit.h"
#include "mg_json.h"
#include "mg_size.h"

#include "config.h"

#include <math.h>
#include <string.h>

enum { MATRIX_MAX = 10, WORST_LISTED = 10 };
static const char *const metric_key[] = {"bw", "lat"};
static const char *const metric_unit[] = {"MB/s", "us"};

static const char *unit_word(const sc_run *s)
{
    static const char *const words[] = {"node", "rank", "socket"};
    return words[s->o.unit];
}

/* A unit's label: its host (node mode), or "rank R (HOST)". */
static const char *label(const sc_run *s, int u, char *buf, size_t len)
{
    if (s->o.unit == SC_UNIT_NODE)
        snprintf(buf, len, "%s", s->host[u]);
    else if (s->o.unit == SC_UNIT_SOCKET)
        snprintf(buf, len, "%s socket %d", s->host[u], s->package[u]);
    else
        snprintf(buf, len, "rank %d (%s)", s->unit_rank[u], s->host[u]);
    return buf;
}

/* A value in at most 6 characters. */
static void cell(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "?");
    else if (fabs(v) >= 999.5)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

double sc_share(const sc_run *s, int a, int b, double mbps)
{
    const double g = fmin(s->link[a].gbps, s->link[b].gbps);
    const int across = strcmp(s->host[a], s->host[b]) != 0;
    return across && g > 0 && !isnan(mbps) ? mbps * 8e-3 / g : NAN;
}

/* Bandwidth: the link rates and the reference's share of the slowest. */
static void link_line(FILE *f, const sc_run *s, const sc_verdict *v)
{
    double lo = INFINITY, hi = 0;
    int same_device = 1, across = 0;
    for (int u = 1; u < s->nunits; ++u)
        across |= strcmp(s->host[u], s->host[0]) != 0;
    if (!across) {
        fprintf(f, "no pair crosses a link (one node): no link rate applies\n");
        return;
    }
    for (int u = 0; u < s->nunits; ++u) {
        lo = fmin(lo, s->link[u].gbps);
        hi = fmax(hi, s->link[u].gbps);
        same_device &= strcmp(s->link[u].device, s->link[0].device) == 0;
    }
    if (!(lo > 0)) {
        fprintf(f, "link rate not known (sysfs; --link-gbps gives it)\n");
        return;
    }
    char rate[64];
    snprintf(rate, sizeof rate, hi > lo ? "%g-%g Gbit/s" : "%g Gbit/s", lo, hi);
    fprintf(f, "link %s (%s): the reference is %.0f%% of %g Gbit/s\n", rate,
            same_device ? s->link[0].device : "several devices", 100 * v->sum.reference * 8e-3 / lo,
            lo);
}

static char mark(const mg_screen_pair *q) { return q->outlier ? '*' : q->below_floor ? '!' : ' '; }

static void matrix(FILE *f, const sc_run *s, const sc_verdict *v)
{
    const int n = s->nunits;
    fprintf(f, "     ");
    for (int b = 0; b < n; ++b)
        fprintf(f, " %5d ", b);
    fputc('\n', f);
    for (int a = 0; a < n; ++a) {
        fprintf(f, "%5d", a);
        for (int b = 0; b < n; ++b) {
            char c[32];
            if (a == b) {
                fprintf(f, " %5s ", "-");
                continue;
            }
            const mg_screen_pair *q = &v->pairs[mg_screen_pair_index(n, a, b)];
            cell(q->median, c, sizeof c);
            fprintf(f, " %5s%c", c, mark(q));
        }
        fputc('\n', f);
    }
}

/* More than MATRIX_MAX units: the flagged pairs and the worst others. */
static void worst(FILE *f, const sc_run *s, const sc_verdict *v)
{
    const long np = mg_screen_npairs(s->nunits);
    int listed = 0;
    for (int pass = 0; pass < 2; ++pass) {
        double last = -1;
        while (listed < (pass ? WORST_LISTED : (int)np)) {
            long pick = -1;
            for (long p = 0; p < np; ++p) {
                const mg_screen_pair *q = &v->pairs[p];
                const int flagged = q->outlier || q->below_floor;
                if (q->n == 0 || flagged != !pass || q->ratio <= last ||
                    (pick >= 0 && q->ratio >= v->pairs[pick].ratio))
                    continue;
                pick = p;
            }
            if (pick < 0)
                break;
            int a, b;
            char la[SC_HOST_LEN + 32], lb[SC_HOST_LEN + 32], c[32];
            const mg_screen_pair *q = &v->pairs[pick];
            mg_screen_pair_units(s->nunits, pick, &a, &b);
            label(s, a, la, sizeof la);
            label(s, b, lb, sizeof lb);
            cell(q->median, c, sizeof c);
            fprintf(f, "  %-24s %-24s %8s%c x%.2f\n", la, lb, c, mark(q), q->ratio);
            last = q->ratio;
            ++listed;
        }
        if (pass == 0 && listed == 0)
            fprintf(f, "  (no pair flagged; the worst:)\n");
    }
}

static void table_metric(FILE *f, const sc_run *s, const sc_verdict *v, int m)
{
    char size[32];
    const uint64_t bytes = m == SC_BW ? s->o.bw_bytes : s->o.lat_bytes;
    mg_size_format(bytes, size, sizeof size);
    if (strspn(size, "0123456789") == strlen(size))
        snprintf(size, sizeof size, "%llu B", (unsigned long long)bytes);
    if (m == SC_BW)
        fprintf(f,
                "\nBandwidth, %s x %ld (MB/s, the slower direction; median of the repetitions)\n",
                size, s->o.window);
    else
        fprintf(f, "\nLatency, %s (us, half round trip; median of the repetitions)\n", size);
    if (s->nunits <= MATRIX_MAX)
        matrix(f, s, v);
    else
        worst(f, s, v);
    char ref[32];
    const long np = mg_screen_npairs(s->nunits);
    cell(v->sum.reference, ref, sizeof ref);
    fprintf(f,
            "reference %s %s; * more than %.0f%% %s it\n  (sign test, Holm over %ld pair%s, "
            "alpha %g)\n",
            ref, metric_unit[m], s->o.threshold * 100, m == SC_BW ? "below" : "above", np,
            np == 1 ? "" : "s", s->o.alpha);
    if (m == SC_BW)
        link_line(f, s, v);
    if (v->cfg.expect > 0)
        fprintf(f, "! %s the expected %g %s\n", m == SC_BW ? "below" : "above", v->cfg.expect,
                metric_unit[m]);
}

/* The ratio span of a named unit's flagged pairs. */
static void unit_span(const sc_run *s, const sc_verdict *v, int u, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int w = 0; w < s->nunits; ++w) {
        const mg_screen_pair *q = w == u ? NULL : &v->pairs[mg_screen_pair_index(s->nunits, u, w)];
        if (q && (q->outlier || q->below_floor)) {
            *lo = fmin(*lo, q->ratio);
            *hi = fmax(*hi, q->ratio);
        }
    }
}

/* A slow link: a flagged pair that no named unit explains. */
static int is_link(const mg_screen_pair *q)
{
    return (q->outlier || q->below_floor) && q->named_end < 0;
}

/* From pair index p on, the next slow link of v: its index (its units in a
 * and b), or -1. */
static long next_link(const sc_run *s, const sc_verdict *v, long p, int *a, int *b)
{
    for (; p < mg_screen_npairs(s->nunits); ++p)
        if (is_link(&v->pairs[p])) {
            mg_screen_pair_units(s->nunits, p, a, b);
            return p;
        }
    return -1;
}

static void verdict_lines(FILE *f, const sc_run *s, const sc_verdict *v, int m, int *said)
{
    char la[SC_HOST_LEN + 32], lb[SC_HOST_LEN + 32];
    for (int u = 0; u < s->nunits; ++u) {
        double lo, hi;
        if (!v->named[u])
            continue;
        unit_span(s, v, u, &lo, &hi);
        label(s, u, la, sizeof la);
        char span[64];
        snprintf(span, sizeof span, "x%.2f", lo);
        if (hi - lo >= 0.005)
            snprintf(span, sizeof span, "x%.2f-%.2f", lo, hi);
        fprintf(f, "  slow %s  %s\n    %s: %d of %d pairs flagged, %s of the reference\n",
                unit_word(s), la, metric_key[m], v->flagged[u], s->nunits - 1, span);
        ++*said;
    }
    int a, b;
    for (long p = next_link(s, v, 0, &a, &b); p >= 0; p = next_link(s, v, p + 1, &a, &b)) {
        const mg_screen_pair *q = &v->pairs[p];
        label(s, a, la, sizeof la);
        label(s, b, lb, sizeof lb);
        fprintf(f, "  slow link  %s - %s\n    %s: x%.2f [%.2f, %.2f] of the reference, %.4g %s\n",
                la, lb, metric_key[m], q->ratio, q->ratio_low, q->ratio_high, q->median,
                metric_unit[m]);
        ++*said;
    }
}

static void table(FILE *f, const sc_run *s, const sc_verdict *v)
{
    fprintf(f, "mpigauge_screen: %d %ss, %ld pair%s, %d of %d repetitions of %d rounds, %.3g s%s\n",
            s->nunits, unit_word(s), mg_screen_npairs(s->nunits),
            mg_screen_npairs(s->nunits) == 1 ? "" : "s", s->reps, s->reps_planned,
            mg_screen_rounds(s->nunits), s->seconds, s->stopped_by_budget ? " (time budget)" : "");
    fprintf(f, "%ss:", unit_word(s));
    for (int u = 0, col = 7; u < s->nunits; ++u) {
        char l[SC_HOST_LEN + 32], item[SC_HOST_LEN + 48];
        label(s, u, l, sizeof l);
        const int w = snprintf(item, sizeof item, "  %d %s", u, l);
        if (col + w > 79) {
            fprintf(f, "\n     ");
            col = 5;
        }
        fputs(item, f);
        col += w;
    }
    fputc('\n', f);
    for (int m = 0; m < SC_NMETRICS; ++m)
        if (v[m].on)
            table_metric(f, s, &v[m], m);
    fprintf(f, "\nVerdict\n");
    int said = 0, unclear = 0;
    char which[16] = "";
    for (int m = 0; m < SC_NMETRICS; ++m)
        if (v[m].on) {
            verdict_lines(f, s, &v[m], m, &said);
            if (!v[m].sum.conclusive)
                snprintf(which + strlen(which), sizeof which - strlen(which), "%s%s",
                         unclear++ ? "," : "", metric_key[m]);
        }
    if (unclear)
        fprintf(f,
                "  inconclusive (%s): %d repetitions, %d needed to flag one of %ld pair%s\n"
                "  %s\n",
                which, s->reps, s->min_reps, mg_screen_npairs(s->nunits),
                mg_screen_npairs(s->nunits) == 1 ? "" : "s",
                s->nunits < 3 ? "two units: only a floor judges (--expect-bw, --expect-lat)"
                              : "more repetitions: --reps, --time-budget");
    else if (said == 0)
        fprintf(f, "  nothing found: no pair more than %.0f%% worse than the reference%s\n",
                s->o.threshold * 100,
                v[0].cfg.expect > 0 || v[1].cfg.expect > 0 ? " or worse than the expected floor"
                                                           : "");
}

static void json_pair_fields(mg_json *j, const mg_screen_pair *q)
{
    mg_json_int(j, "n", q->n);
    mg_json_number(j, "median", q->median);
    mg_json_array_begin(j, "ci95");
    mg_json_number(j, NULL, q->ci_low);
    mg_json_number(j, NULL, q->ci_high);
    mg_json_array_end(j);
    mg_json_number(j, "ratio", q->ratio);
    mg_json_array_begin(j, "ratio_ci95");
    mg_json_number(j, NULL, q->ratio_low);
    mg_json_number(j, NULL, q->ratio_high);
    mg_json_array_end(j);
    mg_json_int(j, "worse", q->worse);
    mg_json_number(j, "p", q->p);
    mg_json_bool(j, "outlier", q->outlier);
    mg_json_bool(j, "below_expect", q->below_floor);
    mg_json_int(j, "worse_than_expect", q->worse_floor);
}

static void json_pairs(const sc_run *s, const sc_verdict *v, int m, mg_json *j)
{
    for (long p = 0; p < mg_screen_npairs(s->nunits); ++p) {
        const mg_screen_pair *q = &v->pairs[p];
        int a, b;
        mg_screen_pair_units(s->nunits, p, &a, &b);
        mg_json_init(j, j->f);
        mg_json_object_begin(j, NULL);
        mg_json_string(j, "type", "screen_pair");
        mg_json_string(j, "metric", metric_key[m]);
        mg_json_int(j, "a", a);
        mg_json_int(j, "b", b);
        mg_json_string(j, "host_a", s->host[a]);
        mg_json_string(j, "host_b", s->host[b]);
        json_pair_fields(j, q);
        if (m == SC_BW)
            mg_json_number(j, "link_share", sc_share(s, a, b, q->median));
        const int flagged = q->outlier || q->below_floor;
        mg_json_string(j, "cause", !flagged ? NULL : q->named_end >= 0 ? unit_word(s) : "link");
        if (flagged && q->named_end >= 0)
            mg_json_int(j, "named", q->named_end);
        else
            mg_json_null(j, "named");
        mg_json_array_begin(j, "values");
        for (int r = 0; r < s->reps; ++r)
            mg_json_number(j, NULL, s->x[m][p * s->reps + r]);
        mg_json_array_end(j);
        if (m == SC_BW)
            for (int d = 0; d < 2; ++d) {
                mg_json_array_begin(j, d ? "values_ba" : "values_ab");
                const int from = d ? b : a, to = d ? a : b;
                for (int r = 0; r < s->reps; ++r)
                    mg_json_number(j, NULL,
                                   s->bw_dir[((size_t)from * s->nunits + to) * s->reps + r]);
                mg_json_array_end(j);
            }
        mg_json_object_end(j);
        fputc('\n', j->f);
    }
}

static void json_verdict(const sc_run *s, const sc_verdict *v, int m, mg_json *j)
{
    mg_json_object_begin(j, NULL);
    mg_json_string(j, "type", "screen_verdict");
    mg_json_string(j, "metric", metric_key[m]);
    mg_json_string(j, "unit", metric_unit[m]);
    mg_json_number(j, "reference", v->sum.reference);
    mg_json_number(j, "expect", v->cfg.expect > 0 ? v->cfg.expect : NAN);
    mg_json_int(j, "outliers", v->sum.outliers);
    mg_json_int(j, "below_expect", v->sum.below_floor);
    mg_json_bool(j, "conclusive", v->sum.conclusive);
    mg_json_array_begin(j, "named");
    for (int u = 0; u < s->nunits; ++u)
        if (v->named[u]) {
            mg_json_object_begin(j, NULL);
            mg_json_int(j, "unit", u);
            mg_json_string(j, "host", s->host[u]);
            mg_json_int(j, "rank", s->unit_rank[u]);
            mg_json_int(j, "flagged", v->flagged[u]);
            mg_json_int(j, "pairs", s->nunits - 1);
            mg_json_object_end(j);
        }
    mg_json_array_end(j);
    mg_json_array_begin(j, "links");
    int a, b;
    for (long p = next_link(s, v, 0, &a, &b); p >= 0; p = next_link(s, v, p + 1, &a, &b)) {
        mg_json_array_begin(j, NULL);
        mg_json_int(j, NULL, a);
        mg_json_int(j, NULL, b);
        mg_json_array_end(j);
    }
    mg_json_array_end(j);
    mg_json_object_end(j);
    fputc('\n', j->f);
}

static void json_run(const sc_run *s, mg_json *j)
{
    mg_json_object_begin(j, NULL);
    mg_json_string(j, "type", "screen");
    mg_json_string(j, "program", "mpigauge_screen");
    mg_json_string(j, "mpigauge_version", MG_VERSION_STRING);
    mg_json_string(j, "mpi_library", s->library);
    mg_json_string(j, "unit", unit_word(s));
    mg_json_int(j, "nunits", s->nunits);
    mg_json_int(j, "nranks", s->nranks);
    mg_json_int(j, "ranks_per_node_max", s->ranks_per_node_max);
    mg_json_array_begin(j, "units");
    for (int u = 0; u < s->nunits; ++u) {
        mg_json_object_begin(j, NULL);
        mg_json_int(j, "unit", u);
        mg_json_string(j, "host", s->host[u]);
        mg_json_int(j, "rank", s->unit_rank[u]);
        if (s->package[u] >= 0)
            mg_json_int(j, "package", s->package[u]);
        else
            mg_json_null(j, "package");
        if (s->link[u].gbps > 0) {
            mg_json_object_begin(j, "link");
            mg_json_string(j, "device", s->link[u].device);
            mg_json_number(j, "gbps", s->link[u].gbps);
            mg_json_object_end(j);
        } else {
            mg_json_null(j, "link");
        }
        mg_json_object_end(j);
    }
    mg_json_array_end(j);
    mg_json_array_begin(j, "metrics");
    for (int m = 0; m < SC_NMETRICS; ++m)
        if (sc_wants(&s->o, m))
            mg_json_string(j, NULL, metric_key[m]);
    mg_json_array_end(j);
    mg_json_uint(j, "lat_bytes", s->o.lat_bytes);
    mg_json_int(j, "lat_iters", s->o.lat_iters);
    mg_json_uint(j, "bw_bytes", s->o.bw_bytes);
    mg_json_int(j, "window", s->o.window);
    mg_json_int(j, "bw_iters", s->o.bw_iters);
    mg_json_int(j, "rounds", mg_screen_rounds(s->nunits));
    mg_json_int(j, "reps_planned", s->reps_planned);
    mg_json_int(j, "reps", s->reps);
    mg_json_int(j, "min_reps", s->min_reps);
    mg_json_number(j, "rep_seconds", s->rep_s);
    mg_json_number(j, "seconds", s->seconds);
    mg_json_number(j, "time_budget", s->o.budget_s > 0 ? s->o.budget_s : NAN);
    mg_json_bool(j, "stopped_by_budget", s->stopped_by_budget);
    mg_json_number(j, "threshold", s->o.threshold);
    mg_json_number(j, "alpha", s->o.alpha);
    mg_json_object_end(j);
    fputc('\n', j->f);
}

/* Whether any metric names something, and whether every one is conclusive. */
static void outcome(const sc_run *s, const sc_verdict *v, int *found, int *conclusive)
{
    *found = 0;
    *conclusive = 1;
    for (int m = 0; m < SC_NMETRICS; ++m)
        if (v[m].on) {
            *found |= v[m].sum.outliers > 0 || v[m].sum.below_floor > 0;
            *conclusive &= v[m].sum.conclusive;
        }
    (void)s;
}

int sc_exit_code(const sc_run *s, const sc_verdict *v)
{
    int found, conclusive;
    outcome(s, v, &found, &conclusive);
    return found ? SC_EXIT_FOUND : conclusive ? MG_EXIT_OK : SC_EXIT_UNCLEAR;
}

static void json_summary(const sc_run *s, const sc_verdict *v, mg_json *j)
{
    int found, conclusive;
    outcome(s, v, &found, &conclusive);
    mg_json_object_begin(j, NULL);
    char l[SC_HOST_LEN + 32];
    mg_json_string(j, "type", "screen_summary");
    mg_json_bool(j, "found", found);
    mg_json_bool(j, "conclusive", conclusive);
    mg_json_int(j, "exit_code", sc_exit_code(s, v));
    mg_json_array_begin(j, "named");
    for (int u = 0; u < s->nunits; ++u)
        if ((v[SC_BW].on && v[SC_BW].named[u]) || (v[SC_LAT].on && v[SC_LAT].named[u]))
            mg_json_string(j, NULL, label(s, u, l, sizeof l));
    mg_json_array_end(j);
    mg_json_array_begin(j, "links");
    for (long p = 0; p < mg_screen_npairs(s->nunits); ++p) {
        int a, b, link = 0;
        for (int m = 0; m < SC_NMETRICS; ++m) {
            const mg_screen_pair *q = v[m].on ? &v[m].pairs[p] : NULL;
            link |= q && is_link(q);
        }
        if (!link)
            continue;
        mg_screen_pair_units(s->nunits, p, &a, &b);
        mg_json_array_begin(j, NULL);
        mg_json_string(j, NULL, label(s, a, l, sizeof l));
        mg_json_string(j, NULL, label(s, b, l, sizeof l));
        mg_json_array_end(j);
    }
    mg_json_array_end(j);
    mg_json_object_end(j);
    fputc('\n', j->f);
}

void sc_write(const sc_run *s, const sc_verdict *v, FILE *f)
{
    if (s->o.format == SC_TABLE) {
        table(f, s, v);
        return;
    }
    mg_json j;
    mg_json_init(&j, f);
    json_run(s, &j);
    for (int m = 0; m < SC_NMETRICS; ++m)
        if (v[m].on)
            json_pairs(s, &v[m], m, &j);
    for (int m = 0; m < SC_NMETRICS; ++m)
        if (v[m].on) {
            mg_json_init(&j, f);
            json_verdict(s, &v[m], m, &j);
        }
    mg_json_init(&j, f);
    json_summary(s, v, &j);
}
