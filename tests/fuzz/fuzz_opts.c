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

static const mg_opt rows[] = {{.short_name = 'c',
                               .long_name = "check",
                               .type = MG_OPT_FLAG,
                               .offset = offsetof(fuzz_opts, flag),
                               .help = "a flag"},
                              {.short_name = 'i',
                               .long_name = "iterations",
                               .type = MG_OPT_LONG,
                               .offset = offsetof(fuzz_opts, count),
                               .arg_name = "N",
                               .help = "a long",
                               .min = 1,
                               .max = 1e9,
                               .def = "5"},
                              {.long_name = "any-long",
                               .type = MG_OPT_LONG,
                               .offset = offsetof(fuzz_opts, count),
                               .arg_name = "N",
                               .help = "no range"},
                              {.long_name = "budget",
                               .type = MG_OPT_DOUBLE,
                               .offset = offsetof(fuzz_opts, seconds),
                               .arg_name = "S",
                               .help = "a double",
                               .min = 1e-3,
                               .max = 86400,
                               .def = "1"},
                              {.long_name = "precision",
                               .type = MG_OPT_PERCENT,
                               .offset = offsetof(fuzz_opts, share),
                               .arg_name = "P%",
                               .help = "a percent",
                               .min = 0.0001,
                               .max = 0.5,
                               .def = "1%"},
                              {.short_name = 'M',
                               .long_name = "memory",
                               .type = MG_OPT_SIZE,
                               .offset = offsetof(fuzz_opts, bytes),
                               .arg_name = "SIZE",
                               .help = "a size",
                               .min = 1,
                               .max = 281474976710656.0},
                              {.short_name = 'o',
                               .long_name = "output",
                               .type = MG_OPT_STRING,
                               .offset = offsetof(fuzz_opts, text),
                               .arg_name = "FILE",
                               .help = "a string"},
                              {.short_name = 'k',
                               .long_name = "kind",
                               .type = MG_OPT_CHOICE,
                               .offset = offsetof(fuzz_opts, choice),
                               .arg_name = "K",
                               .help = "a choice",
                               .choices = kinds,
                               .def = "beta"},
                              {.long_name = "numbers",
                               .type = MG_OPT_LIST,
                               .offset = offsetof(fuzz_opts, numbers),
                               .arg_name = "LIST",
                               .help = "numbers"},
                              {.long_name = "names",
                               .type = MG_OPT_LIST,
                               .offset = offsetof(fuzz_opts, names),
                               .arg_name = "LIST",
                               .help = "choices",
                               .choices = kinds},
                              {.type = MG_OPT_END}};

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
