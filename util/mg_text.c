/* SPDX-License-Identifier: BSD-3-Clause */
/* Short texts for a person: see mg_text.h. */
#include "mg_text.h"

#include <stdlib.h>
#include <string.h>

/* The version that follows prefix in s (skipping blanks, a colon and a
 * 'v'), into out after name; 0 when s does not start with prefix. */
static int named_version(const char *s, const char *prefix, const char *name, char *out, size_t len)
{
    size_t n = strlen(prefix), v;
    if (strncmp(s, prefix, n) != 0)
        return 0;
    s += n;
    s += strspn(s, " \t:");
    if (*s == 'v')
        s++;
    v = strspn(s, "0123456789.abrc");
    while (v > 0 && s[v - 1] == '.')
        v--;
    if (v == 0)
        return 0;
    snprintf(out, len, "%s %.*s", name, (int)v, s);
    return 1;
}

void mg_library_short(const char *lib, char *out, size_t len)
{
    size_t n;
    if (len == 0)
        return;
    if (lib == NULL) {
        snprintf(out, len, "an unknown MPI library");
        return;
    }
    if (named_version(lib, "Open MPI", "Open MPI", out, len) ||
        named_version(lib, "MPICH Version", "MPICH", out, len) ||
        named_version(lib, "Intel(R) MPI Library", "Intel MPI", out, len))
        return;
    n = strcspn(lib, ",\n");
    while (n > 0 && (lib[n - 1] == ' ' || lib[n - 1] == '\t'))
        n--;
    snprintf(out, len, "%.*s", (int)n, lib);
}

void mg_comment_wrapped(FILE *f, const char *text, int width)
{
    const int room = width > 3 ? width - 2 : 1; /* after "# " */
    const char *p = text, *start = NULL, *end = NULL;
    int lines = 0;
    for (;;) {
        const char *w_end;
        p += strspn(p, " ");
        if (*p == '\0')
            break;
        w_end = p + strcspn(p, " ");
        if (start != NULL && w_end - start > room) { /* the word starts a new line */
            fprintf(f, "# %.*s\n", (int)(end - start), start);
            lines++;
            start = NULL;
        }
        if (start == NULL)
            start = p;
        end = w_end;
        p = w_end;
    }
    if (start != NULL || lines == 0)
        fprintf(f, "# %.*s\n", start ? (int)(end - start) : 0, start ? start : "");
}

void mg_argv_push(mg_argv *a, const char *s)
{
    if (a->failed)
        return;
    if (a->n + 2 > a->cap) {
        int cap = a->cap ? 2 * a->cap : 32;
        char **v = realloc(a->v, (size_t)cap * sizeof *v);
        if (v == NULL) {
            a->failed = 1;
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    if ((a->v[a->n] = strdup(s)) == NULL)
        a->failed = 1;
    else
        a->v[++a->n] = NULL;
}

void mg_argv_free(mg_argv *a)
{
    for (int i = 0; i < a->n; ++i)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}
