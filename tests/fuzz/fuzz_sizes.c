/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the size parser and the sweep (-m), util/mg_size.c.
 * Any input ends in a sweep or an error message, never in a crash, a
 * sanitizer report or an endless loop; a sweep holds sizes within its
 * bounds, in range order for MIN:MAX. */
#include "mg_size.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char spec[256], err[256], buf[64];
    uint64_t bytes = 0;
    mg_sweep sw;
    size_t n = size < sizeof spec - 1 ? size : sizeof spec - 1;
    memcpy(spec, data, n);
    spec[n] = '\0';
    if (mg_size_parse(spec, &bytes, err, sizeof err) == 0)
        mg_size_format(bytes, buf, sizeof buf);
    for (uint64_t min_allowed = 0; min_allowed < 2; ++min_allowed) {
        if (mg_sweep_parse(spec, min_allowed, 1, 4194304, &sw, err, sizeof err) != 0)
            continue;
        for (size_t i = 0; i < sw.n; ++i)
            if (sw.sizes_bytes[i] < min_allowed)
                abort();
        (void)mg_sweep_max(&sw);
        mg_sweep_free(&sw);
    }
    return 0;
}
