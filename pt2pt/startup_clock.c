/* SPDX-License-Identifier: BSD-3-Clause */
/* The start-up programs' clock and launch time: see startup.h. */
#include "startup.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

double mg_startup_wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

mg_startup_marks mg_startup_mark(void)
{
    const char *env = getenv("MG_LAUNCH_TIME");
    char *end = NULL;
    mg_startup_marks m = {.main_wall = mg_startup_wall(), .launch_wall = NAN, .launch_bad = 0};
    if (env == NULL)
        return m;
    errno = 0;
    m.launch_wall = strtod(env, &end);
    if (errno != 0 || end == env || *end != '\0' || !isfinite(m.launch_wall) ||
        m.launch_wall <= 0) {
        m.launch_bad = 1;
        m.launch_wall = NAN;
    }
    return m;
}
