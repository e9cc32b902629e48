/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: --rail-weights and --rail-hint (util/mg_rails.c), and
 * the stripes the weights cut: every weight finite and in [0, 1], summing
 * to 1; the stripes cover the message exactly, in order. The first byte
 * picks the rail count and the message size. */
#include "mg_rails.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_stripes(const double *w, int k, uint64_t bytes, uint64_t align)
{
    uint64_t off[MG_RAILS_MAX], len[MG_RAILS_MAX], at = 0;
    mg_stripe_split(bytes, k, w, align, off, len);
    for (int j = 0; j < k; ++j) {
        if (off[j] != at)
            abort();
        at += len[j];
    }
    if (at != bytes)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char spec[512], err[256], keys[8][64], vals[8][256], out[512];
    double w[MG_RAILS_MAX], sum = 0.0;
    int k, source = 0;
    uint64_t bytes;
    size_t n;
    if (size < 1)
        return 0;
    k = 1 + data[0] % 4;
    bytes = ((uint64_t)data[0] << 24) * 977 + data[0];
    n = size - 1 < sizeof spec - 1 ? size - 1 : sizeof spec - 1;
    memcpy(spec, data + 1, n);
    spec[n] = '\0';
    if (mg_rail_weights_parse(spec, k, w, &source, err, sizeof err) == 0) {
        for (int j = 0; j < k; ++j) {
            if (!isfinite(w[j]) || w[j] < 0.0 || w[j] > 1.0)
                abort();
            sum += w[j];
        }
        if (fabs(sum - 1.0) > 1e-9)
            abort();
        check_stripes(w, k, bytes, 4096);
        check_stripes(w, k, bytes % 100000, 1);
    }
    n = (size_t)mg_rail_hints_parse(spec, keys, vals, 8, err, sizeof err) + 0u;
    if ((int)n > 0)
        for (int r = 0; r < 3; ++r)
            mg_rail_hint_value(vals[0], r, out, sizeof out);
    return 0;
}
