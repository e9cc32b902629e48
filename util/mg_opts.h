/* SPDX-License-Identifier: BSD-3-Clause */
/* Declarative command-line options.
 *
 * Each program has tables of options (the common one and its benchmark's
 * own); each table writes into its own struct at the given offsets. The same
 * tables generate --help, so the help cannot drift from the parser.
 * Accepted forms: "-m SPEC", "-mSPEC", "--message-size SPEC",
 * "--message-size=SPEC", flags "-c" / "--validate"; "--" ends the options.
 * Positional arguments, unknown options, missing or malformed values and
 * out-of-range numbers are errors. Pure C: every MPI rank parses the same argv
 * to the same result, so a usage error stops all ranks alike.
 */
#ifndef MG_OPTS_H
#define MG_OPTS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MG_OPT_END = 0,
    MG_OPT_FLAG,    /* int, set to 1 */
    MG_OPT_LONG,    /* long in [min, max] */
    MG_OPT_DOUBLE,  /* double in [min, max] */
    MG_OPT_PERCENT, /* "1", "1%", "0.5%" -> double fraction (0.01) in [min, max] */
    MG_OPT_SIZE,    /* uint64_t bytes with K/M/G suffix, in [min, max] */
    MG_OPT_STRING,  /* const char *, points into argv */
    MG_OPT_CHOICE,  /* int index into the NULL-terminated choices */
    MG_OPT_LIST     /* mg_list: "a,b,c" or "MIN:MAX" (doubling) of whole numbers in
                     * [min, max], or with choices a list of their names (as
                     * indices); a value given twice is an error */
} mg_opt_type;

#define MG_LIST_MAX 64

/* A default written once as a number and shown in a help text:
 * "(default " MG_STR(MG_X) ")". Lists work too: MG_STR(1, 2, 5). */
#define MG_STR_(...) #__VA_ARGS__
#define MG_STR(...) MG_STR_(__VA_ARGS__)

typedef struct {
    int n; /* 0: not given */
    long v[MG_LIST_MAX];
} mg_list;

typedef struct {
    char short_name;       /* 0: none */
    const char *long_name; /* required: names the option in help and the run record */
    mg_opt_type type;
    size_t offset;        /* into the table's struct */
    const char *arg_name; /* shown in help; NULL for flags */
    const char *help;
    double min, max; /* numeric range (inclusive); min == max == 0: no limit */
    const char *const *choices;
    const char *def; /* the default, as it would be typed: applied by
                      * mg_opts_defaults and shown by help as "(default DEF)";
                      * NULL: none, or one the help text describes (computed) */
    const char *key; /* the run record's name; NULL: the long name with '-'
                      * as '_'; "": not recorded */
} mg_opt;

typedef struct {
    const mg_opt *opts;   /* terminated by an entry of type MG_OPT_END */
    void *base;           /* the struct the offsets refer to */
    const char *group;    /* what the table is ("common", "benchmark", ...), for
                         * the help's JSON form; NULL: not named */
    unsigned char *given; /* NULL, or one flag per row, set by mg_opts_parse for
                           * every row the command line gives */
} mg_opt_table;

/* Check the tables (a long or short name used twice is refused) and set
 * every option that has a default to it. 0, or -EINVAL with a message (an
 * error of the program, not of its user). */
int mg_opts_defaults(const mg_opt_table *tables, size_t ntables, char *err, size_t errlen);

/* The run record's name of an option into buf: o->key, else the long name
 * with '-' as '_'. NULL when the option is not recorded. */
const char *mg_opt_key(const mg_opt *o, char *buf, size_t len);

/* Parse argv[1..argc-1]. 0 or -EINVAL with a message naming the option. */
int mg_opts_parse(const mg_opt_table *tables, size_t ntables, int argc, char *const argv[],
                  char *err, size_t errlen);

/* Print one line per option. */
void mg_opts_help(FILE *f, const mg_opt_table *tables, size_t ntables);

/* The last value of an option in argv, read without the option parser
 * (-S V, -SV, --long V, --long=V, none after "--"; short_name 0: no short
 * form), or NULL: for what must be known when the options fail to parse
 * (the -o file's guard, --turns). */
const char *mg_opts_last_value(int argc, char **argv, char short_name, const char *long_name);

#ifdef __cplusplus
}
#endif

#endif
