/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the option parser (util/mg_opts.c) over a table with
 * every kind of row (flag, long, double, percent, size, string, choice, a
 * list of numbers and a list of choices), defaults applied first and the
 * given-marks kept. The input is the command line, one argument per line.
 * Any input ends in values or an error message; the help prints. */
#include "mg_opts.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int flag, choice;
    long count;
    double seconds, share;
    uint64_t bytes;
    const char *text;
    mg_list numbers, names;
} fuzz_opts;

static const char *const kinds[] = {"alpha", "beta", "gamma", NULL};

static const mg_opt rows[] = {
    {'c', "check", MG_OPT_FLAG, offsetof(fuzz_opts, flag), NULL, "a flag", 0, 0, NULL, NULL, NULL},
    {'i', "iterations", MG_OPT_LONG, offsetof(fuzz_opts, count), "N", "a long", 1, 1e9, NULL, "5",
     NULL},
    {0, "any-long", MG_OPT_LONG, offsetof(fuzz_opts, count), "N", "no range", 0, 0, NULL, NULL,
     NULL},
    {0, "budget", MG_OPT_DOUBLE, offsetof(fuzz_opts, seconds), "S", "a double", 1e-3, 86400, NULL,
     "1", NULL},
    {0, "precision", MG_OPT_PERCENT, offsetof(fuzz_opts, share), "P%", "a percent", 0.0001, 0.5,
     NULL, "1%", NULL},
    {'M', "memory", MG_OPT_SIZE, offsetof(fuzz_opts, bytes), "SIZE", "a size", 1,
     281474976710656.0, NULL, NULL, NULL},
    {'o', "output", MG_OPT_STRING, offsetof(fuzz_opts, text), "FILE", "a string", 0, 0, NULL, NULL,
     NULL},
    {'k', "kind", MG_OPT_CHOICE, offsetof(fuzz_opts, choice), "K", "a choice", 0, 0, kinds, "beta",
     NULL},
    {0, "numbers", MG_OPT_LIST, offsetof(fuzz_opts, numbers), "LIST", "numbers", 0, 0, NULL, NULL,
     NULL},
    {0, "names", MG_OPT_LIST, offsetof(fuzz_opts, names), "LIST", "choices", 0, 0, kinds, NULL,
     NULL},
    {0, NULL, MG_OPT_END, 0, NULL, NULL, 0, 0, NULL, NULL, NULL}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX_ARGS = 24 };
    char text[1024], err[256], *argv[MAX_ARGS + 2], *p;
    unsigned char given[16] = {0};
    fuzz_opts o;
    mg_opt_table t = {rows, &o, "fuzz", given};
    int argc = 1;
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    FILE *devnull;

    memcpy(text, data, n);
    text[n] = '\0';
    argv[0] = "prog";
    for (p = text; argc <= MAX_ARGS;) {
        char *nl = strchr(p, '\n');
        argv[argc++] = p;
        if (nl == NULL)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    argv[argc] = NULL;
    memset(&o, 0, sizeof o);
    if (mg_opts_defaults(&t, 1, err, sizeof err) != 0)
        abort(); /* the table's own defaults are good */
    (void)mg_opts_parse(&t, 1, argc, argv, err, sizeof err);
    if (o.numbers.n > MG_LIST_MAX || o.names.n > MG_LIST_MAX)
        abort();
    if ((devnull = fopen("/dev/null", "w")) != NULL) {
        mg_opts_help(devnull, &t, 1);
        fclose(devnull);
    }
    return 0;
}
