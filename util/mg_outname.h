/* SPDX-License-Identifier: BSD-3-Clause */
/* The -o file's temporary names and what an existing target is (pure C,
 * no MPI; mpi/driver/mg_outfile.c does the file work).
 *
 * A program writes FILE through a temporary FILE.tmp.HOST.PID.XXXXXX beside
 * it (mkstemp's six characters last) and renames it at the end. A run killed
 * with SIGKILL cannot remove its temporary; the next run with the same -o
 * on the same host recognises it by name and removes it when process PID is
 * gone.
 */
#ifndef MG_OUTNAME_H
#define MG_OUTNAME_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The mkstemp template for FILE on this host and process into buf:
 * "FILE.tmp.HOST.PID.XXXXXX" (HOST: the host name, dots kept). 0, or -1
 * when it does not fit. */
int mg_outname_template(const char *path, const char *host, long pid, char *buf, size_t len);

/* For an entry `name` of FILE's folder, FILE's base name `base`: the PID of
 * the temporary of a run on `host`, or -1 when name is not one (another
 * file, another host, a malformed name). */
long mg_outname_owner(const char *name, const char *base, const char *host);

/* What an existing target is, from its st_mode (lstat: a symbolic link is
 * resolved first by the caller). */
typedef enum {
    MG_OUT_REPLACE = 0, /* a regular file (or none): write a temporary, rename */
    MG_OUT_THROUGH,     /* a character device or a pipe: write to it, no rename */
    MG_OUT_REFUSE       /* a folder, block device, socket: never replaced */
} mg_out_kind;
mg_out_kind mg_outname_kind(mode_t mode);

/* Whether a symbolic link owned by link_uid in a folder (dir_uid, dir_mode)
 * may be followed by a process of effective uid euid: the kernel's
 * protected_symlinks rule, which it applies to open() but not to a path
 * resolved with realpath() and then renamed over. In a sticky,
 * world-writable folder (/tmp, a shared scratch folder) a link is followed
 * only when its owner is the follower or the folder's owner. 1 or 0. */
int mg_outname_link_followable(uid_t link_uid, uid_t dir_uid, mode_t dir_mode, uid_t euid);

#ifdef __cplusplus
}
#endif

#endif
