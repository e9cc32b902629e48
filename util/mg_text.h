/* SPDX-License-Identifier: BSD-3-Clause */
/* Short texts for a person (pure C): an MPI library's name and version in a
 * few words, and comment lines wrapped to a terminal's width; and a command
 * line being built (mg_argv). */
#ifndef MG_TEXT_H
#define MG_TEXT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The width the tables a person reads keep within. */
#define MG_TEXT_WIDTH 80

/* MPI_Get_library_version's string in a few words: "Open MPI 4.1.4",
 * "MPICH 4.0.2", "Intel MPI 2021.19.0"; another library: its first line up
 * to the first comma. Always terminated (cut to len - 1). */
void mg_library_short(const char *lib, char *out, size_t len);

/* text as "# " comment lines of at most width columns, broken at spaces (a
 * word longer than a line stands alone on its line). */
void mg_comment_wrapped(FILE *f, const char *text, int width);

/* A command line being built: n strings (copies) in v, v[n] NULL once one
 * was pushed; failed 1 when memory ran out (a push then changes nothing).
 * All-zero bytes are an empty one. */
typedef struct {
    char **v;
    int n, cap;
    int failed;
} mg_argv;

void mg_argv_push(mg_argv *a, const char *s);
/* Its strings and array freed: empty again. */
void mg_argv_free(mg_argv *a);

#ifdef __cplusplus
}
#endif

#endif
