/* SPDX-License-Identifier: BSD-3-Clause */
/* The start-up programs' clock and launch time: see startup.h. */
#include "startup.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

mg_startup_times mg_startup = {.launch_wall = NAN, .first_ring_s = NAN};

double mg_startup_wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void mg_startup_mark(void)
{
    const char *env = getenv("MG_LAUNCH_TIME");
    char *end = NULL;
    mg_startup.main_wall = mg_startup_wall();
    if (env == NULL)
        return;
    errno = 0;
    mg_startup.launch_wall = strtod(env, &end);
    if (errno != 0 || end == env || *end != '\0' || !isfinite(mg_startup.launch_wall) ||
        mg_startup.launch_wall <= 0) {
        mg_startup.launch_bad = 1;
        mg_startup.launch_wall = NAN;
    }
}

