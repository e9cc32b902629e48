/* SPDX-License-Identifier: BSD-3-Clause */
/* The --turns argument (mpi/driver/mg_turns.h): a group name, this launch's role
 * and the group's size. Pure. */
#ifndef MG_TURNSPEC_H
#define MG_TURNSPEC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_TURNS_NAME_MAX 64

typedef struct {
    char name[MG_TURNS_NAME_MAX];
    int role, count;
} mg_turns_spec;

/* "NAME:ROLE:COUNT": NAME of letters, digits, '-', '_' and '.'; 2 <= COUNT
 * <= 64. 0, or -1 with a message in err. Pure. */
int mg_turns_parse(const char *text, mg_turns_spec *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
