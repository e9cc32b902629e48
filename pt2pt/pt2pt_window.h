/* The window option shared by the windowed bandwidth benchmarks. */
#ifndef MG_PT2PT_WINDOW_H
#define MG_PT2PT_WINDOW_H

#include "mg_driver.h"

#include <stddef.h>

typedef struct {
    long window; /* messages in flight per iteration (-W) */
} mg_window_params;

static const mg_window_params mg_window_default = {64};

static const mg_opt mg_window_opts[] = {
    {'W', "window", MG_OPT_LONG, offsetof(mg_window_params, window), "N",
     "messages posted back to back per iteration (default 64)", 1, 65536, NULL},
    {0, NULL, MG_OPT_END, 0, NULL, NULL, 0, 0, NULL}};

static inline long mg_window(const mg_ctx *c)
{
    return ((const mg_window_params *)c->params)->window;
}

#endif
