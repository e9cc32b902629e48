/* SPDX-License-Identifier: BSD-3-Clause */
/* The -o file (mg_outfile.h), rank 0. Decided before anything is measured:
 *
 *   FILE absent or a regular file: written to FILE.tmp.HOST.PID.XXXXXX
 *     beside it (util/mg_outname.h) and renamed over FILE at the end, so
 *     FILE is complete or as it was;
 *   a character device or a pipe (/dev/null, a FIFO): written through, no
 *     temporary, never replaced;
 *   a folder, block device or socket: refused (a usage error, exit 2);
 *   a symbolic link: the same rules for what it points to, which is what
 *     gets replaced (the link stays); a link to nothing is refused.
 *
 * The temporary is removed on every exit the process sees: the end of the
 * run, an aborted sweep, a failed set-up, an MPI_Abort whose caller calls
 * mg_out_forget_temporary first (mg_mpi_fail, mg_mpi_die), and SIGINT, SIGTERM, SIGHUP (the handler removes it and lets
 * the signal take its course). A SIGKILL, which launchers send soon after
 * SIGTERM or SIGINT, can come before the handler runs: the guard process
 * (util/mg_guard.h), started before MPI_Init, removes the temporary of a
 * writer that died. One left all the same (the guard killed too, as a job's
 * end under Slurm does) is removed by the next run with the same -o on the
 * same host once its process is gone.
 */
/* realpath(3) is XSI */
#define _XOPEN_SOURCE 700
#include "mg_outfile.h"

#include "mg_group.h"

#include "mg_guard.h"
#include "mg_outname.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary being written, for the signal handler and the abort hook
 * (empty: none). */
static char active_tmp[PATH_MAX + 64];
static volatile sig_atomic_t have_tmp;
/* rank 0's guard (none: pid 0) */
static mg_guard guard = {0, -1};

static void remove_active(void)
{
    if (have_tmp) {
        have_tmp = 0;
        unlink(active_tmp);
    }
}

/* remove_active, outside a signal handler: the guard forgets it too */
static void forget_active(void)
{
    remove_active();
    (void)mg_guard_watch(&guard, NULL);
}

static void on_signal(int sig)
{
    remove_active(); /* unlink(2) is async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void watch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; ++i) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        /* keep a handler someone else installed (the launcher's, a tool's) */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(sigs[i], &sa, NULL);
    }
}

void mg_out_forget_temporary(void) { forget_active(); }

/* The mode a new file gets from open(2): 0666 less the umask (mkstemp's
 * temporary is 0600 whatever the umask). */
static mode_t created_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return (mode_t)0666 & ~mask;
}

static void host_name(char *host, size_t len)
{
    if (gethostname(host, len) != 0 || !host[0])
        snprintf(host, len, "host");
    host[len - 1] = '\0';
}

/* Process pid has ended: no such process, or a zombie nobody reaps (a
 * container whose first process does not reap orphans keeps them). */
static int process_gone(long pid)
{
    char path[64], text[512], *close;
    FILE *f;
    size_t n;
    if (kill((pid_t)pid, 0) != 0)
        return errno == ESRCH;
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    if ((f = fopen(path, "r")) == NULL)
        return 0;
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    /* "pid (comm) S ...": the state follows the last ')' */
    close = strrchr(text, ')');
    return close && close[1] == ' ' && close[2] == 'Z';
}

/* Remove the temporaries of FILE that runs on this host left when they
 * were killed (their process is gone); say how many. */
/* Where the file's notes go: the run's standard error (o->log) or the process's. */
static FILE *log_of(const mg_out_file *o) { return o->log ? o->log : stderr; }

static void remove_stale(const char *path, const char *host, FILE *log)
{
    char dir[PATH_MAX], base[NAME_MAX + 1];
    const char *slash = strrchr(path, '/');
    DIR *d;
    struct dirent *e;
    int removed = 0;

    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : path);
    if ((d = opendir(dir)) == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        long pid = mg_outname_owner(e->d_name, base, host);
        char full[PATH_MAX + NAME_MAX + 2];
        if (pid <= 0 || pid == (long)getpid() || !process_gone(pid))
            continue;
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        removed += unlink(full) == 0;
    }
    closedir(d);
    if (removed)
        fprintf(log, "mpigauge: removed %d temporary file%s of '%s' left by a killed run\n",
                removed, removed == 1 ? "" : "s", path);
}

/* Every link of the chain that path starts (up to 40, as the kernel)
 * passes mg_outname_link_followable; 0, or -1 with the reason in err. */
static int links_followable(const char *path, char *err)
{
    char cur[PATH_MAX], dir[PATH_MAX], next[PATH_MAX];
    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0; hop < 40; ++hop) {
        struct stat ls, ds;
        char *slash;
        ssize_t n;
        if (lstat(cur, &ls) != 0 || !S_ISLNK(ls.st_mode))
            return 0;
        snprintf(dir, sizeof dir, "%s", cur);
        slash = strrchr(dir, '/');
        if (slash == NULL)
            snprintf(dir, sizeof dir, ".");
        else
            slash[slash == dir ? 1 : 0] = '\0';
        if (stat(dir, &ds) != 0)
            return 0; /* realpath() will say what is wrong */
        if (!mg_outname_link_followable(ls.st_uid, ds.st_uid, ds.st_mode, geteuid())) {
            snprintf(err, MG_OUT_ERRLEN,
                     "output file '%.120s' is a link of user %ld in the sticky, world-writable "
                     "folder '%.120s': not followed, not replaced (protected_symlinks rule)",
                     path, (long)ls.st_uid, dir);
            return -1;
        }
        if ((n = readlink(cur, next, sizeof next - 1)) < 0)
            return 0;
        next[n] = '\0';
        if (next[0] == '/' || slash == NULL)
            snprintf(cur, sizeof cur, "%s", next);
        else if (snprintf(cur, sizeof cur, "%s/%s", dir, next) >= (int)sizeof cur)
            return 0;
    }
    return 0;
}

/* Where the file really goes (symbolic links followed) and how; 0, or -1
 * with the reason in err. */
static int classify(const char *path, char *target, size_t len, mg_out_kind *kind, char *err)
{
    struct stat st;
    snprintf(target, len, "%s", path);
    if (lstat(path, &st) != 0) {
        *kind = MG_OUT_REPLACE; /* a new file; mkstemp says what is wrong with the folder */
        return 0;
    }
    if (S_ISLNK(st.st_mode)) {
        char *real;
        if (links_followable(path, err) != 0)
            return -1;
        real = realpath(path, NULL);
        if (real == NULL || stat(real, &st) != 0) {
            snprintf(err, MG_OUT_ERRLEN,
                     "output file '%s' is a symbolic link to nothing (%s): not followed, not "
                     "replaced",
                     path, strerror(errno));
            free(real);
            return -1;
        }
        snprintf(target, len, "%s", real);
        free(real);
    }
    *kind = mg_outname_kind(st.st_mode);
    if (*kind == MG_OUT_REFUSE) {
        snprintf(err, MG_OUT_ERRLEN, "output file '%s' is %s: not replaced", path,
                 S_ISDIR(st.st_mode) ? "a folder"
                                     : "not a regular file, a character device or "
                                       "a pipe");
        return -1;
    }
    return 0;
}

/* A character device or a pipe, opened for writing as it is. */
static int open_through(mg_out_file *o, const char *target, char *err)
{
    int fd = open(target, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 &&
        (o->f = fdopen(fd, "w")) != NULL) {
        o->direct = 1;
        return 0;
    }
    snprintf(err, MG_OUT_ERRLEN, "cannot write output file '%.300s': %s", target,
             errno == ENXIO ? "a pipe with no reader" : strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

static int open_temporary(mg_out_file *o, const char *target, char *err)
{
    char host[256];
    size_t n = strlen(target) + sizeof host + 40;
    int fd;
    host_name(host, sizeof host);
    remove_stale(target, host, log_of(o));
    if ((o->tmp_path = malloc(n)) == NULL) {
        snprintf(err, MG_OUT_ERRLEN, "output file '%.300s': out of memory", target);
        return -1;
    }
    if (mg_outname_template(target, host, (long)getpid(), o->tmp_path, n) != 0 ||
        strlen(o->tmp_path) >= sizeof active_tmp) {
        snprintf(err, MG_OUT_ERRLEN, "output file '%.300s': the path is too long", target);
        free(o->tmp_path);
        o->tmp_path = NULL;
        return -1;
    }
    fd = mkstemp(o->tmp_path);
    if (fd >= 0) {
        memcpy(active_tmp, o->tmp_path, strlen(o->tmp_path) + 1);
        have_tmp = 1;
        watch_signals();
        (void)mg_guard_watch(&guard, o->tmp_path);
    }
    if (fd < 0 || fchmod(fd, created_mode()) != 0 || (o->f = fdopen(fd, "w")) == NULL) {
        snprintf(err, MG_OUT_ERRLEN, "cannot write output file '%.300s': %s", target,
                 strerror(errno));
        if (fd >= 0) {
            close(fd);
            forget_active();
        }
        free(o->tmp_path);
        o->tmp_path = NULL;
        return -1;
    }
    return 0;
}

/* /dev/stdout, /dev/stderr, /proc/self/fd/N: the descriptor itself, written
 * through (under MPICH's Hydra rank 0's standard output is a socket, which
 * the link cannot be opened or resolved to); -1 for any other path. */
static int own_descriptor(const char *path)
{
    char *end;
    long fd;
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    if (strncmp(path, "/proc/self/fd/", 14) != 0 && strncmp(path, "/dev/fd/", 8) != 0)
        return -1;
    fd = strtol(path + (path[1] == 'p' ? 14 : 8), &end, 10);
    return *end == '\0' && end != path && fd >= 0 && fd < 1024 ? (int)fd : -1;
}

static int open_descriptor(mg_out_file *o, int fd, const char *path, char *err)
{
    int copy = dup(fd);
    snprintf(o->target, sizeof o->target, "%s", path);
    if (copy >= 0 && (o->f = fdopen(copy, "w")) != NULL) {
        o->direct = 1;
        return 0;
    }
    snprintf(err, MG_OUT_ERRLEN, "cannot write output file '%.300s': %s", path, strerror(errno));
    if (copy >= 0)
        close(copy);
    return -1;
}

int mg_out_open(mg_out_file *o, const char *path, const mg_group *g, char *err)
{
    int ok = 1;
    const int fd = g->rank == 0 ? own_descriptor(path) : -1;
    FILE *log = o->log;
    memset(o, 0, sizeof *o);
    o->log = log;
    if (fd >= 0) {
        ok = open_descriptor(o, fd, path, err) == 0;
    } else if (g->rank == 0) {
        mg_out_kind kind;
        ok = classify(path, o->target, sizeof o->target, &kind, err) == 0 &&
             (kind == MG_OUT_THROUGH ? open_through(o, o->target, err)
                                     : open_temporary(o, o->target, err)) == 0;
    }
    mg_group_bcast(g, &ok, sizeof ok);
    return ok;
}

/* The temporary's name for target fits (its folder's NAME_MAX, PATH_MAX,
 * the signal handler's copy); 0, or -1 with the reason in err. */
static int temporary_fits(const char *target, char *err)
{
    char host[256], name[PATH_MAX + 64];
    const char *slash = strrchr(target, '/');
    host_name(host, sizeof host);
    if (mg_outname_template(target, host, (long)getpid(), name, sizeof name) != 0 ||
        strlen(name) >= sizeof active_tmp ||
        strlen(slash ? strrchr(name, '/') + 1 : name) > NAME_MAX) {
        snprintf(err, MG_OUT_ERRLEN,
                 "output file '%.300s': the name is too long (its temporary "
                 "would not fit)",
                 target);
        return -1;
    }
    return 0;
}

int mg_out_prepare(mg_out_file *o, const char *path, const mg_group *g, char *err)
{
    int ok = 1;
    FILE *log = o->log;
    memset(o, 0, sizeof *o);
    o->log = log;
    if (g->rank == 0) {
        char target[PATH_MAX];
        mg_out_kind kind = MG_OUT_REPLACE;
        const int fd = own_descriptor(path);
        if (fd >= 0)
            ok = open_descriptor(o, fd, path, err) == 0;
        else if ((ok = classify(path, target, sizeof target, &kind, err) == 0) &&
                 kind == MG_OUT_THROUGH) {
            snprintf(o->target, sizeof o->target, "%s", target);
            ok = open_through(o, target, err) == 0;
        }
    }
    mg_group_bcast(g, &ok, sizeof ok);
    return ok && mg_out_check(path, g, err);
}

int mg_out_check(const char *path, const mg_group *g, char *err)
{
    int ok = 1;
    if (g->rank == 0 && own_descriptor(path) < 0) {
        char target[PATH_MAX], dir[PATH_MAX];
        mg_out_kind kind;
        ok = classify(path, target, sizeof target, &kind, err) == 0;
        if (ok && kind != MG_OUT_THROUGH && temporary_fits(target, err) != 0)
            ok = 0;
        if (ok && kind != MG_OUT_THROUGH) {
            const char *slash = strrchr(target, '/');
            snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - target) + 1 : 1,
                     slash ? target : ".");
            if (access(dir, W_OK | X_OK) != 0) {
                snprintf(err, MG_OUT_ERRLEN, "cannot write output file '%.300s': %s", path,
                         strerror(errno));
                ok = 0;
            }
        }
    }
    mg_group_bcast(g, &ok, sizeof ok);
    return ok;
}

/* path as an absolute name with its folder's links resolved (the file itself
 * may not exist yet); the path as given when its folder cannot be resolved. */
static void canonical(const char *path, char *out, size_t len)
{
    char dir[PATH_MAX], *real;
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    real = realpath(dir, NULL);
    if (real == NULL)
        snprintf(out, len, "%s", path);
    else
        snprintf(out, len, "%s/%s", strcmp(real, "/") == 0 ? "" : real, slash ? slash + 1 : path);
    free(real);
}

/* Whether two output paths end in the same replaceable file: the same
 * device and inode (a hard link), or for a file not there yet the same
 * name once links are resolved. Paths written through (a device, a pipe,
 * a descriptor) and paths that classify refuses are never the same here. */
static int same_replaceable(const char *a, const char *b)
{
    char ta[PATH_MAX], tb[PATH_MAX], ca[PATH_MAX + NAME_MAX + 2], cb[PATH_MAX + NAME_MAX + 2];
    char err[MG_OUT_ERRLEN];
    mg_out_kind ka, kb;
    struct stat sa, sb;
    if (own_descriptor(a) >= 0 || own_descriptor(b) >= 0 ||
        classify(a, ta, sizeof ta, &ka, err) != 0 || classify(b, tb, sizeof tb, &kb, err) != 0 ||
        ka != MG_OUT_REPLACE || kb != MG_OUT_REPLACE)
        return 0;
    if (stat(ta, &sa) == 0 && stat(tb, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    canonical(ta, ca, sizeof ca);
    canonical(tb, cb, sizeof cb);
    return strcmp(ca, cb) == 0;
}

int mg_out_distinct(const char *a, const char *a_opt, const char *b, const char *b_opt,
                    const mg_group *g, char *err)
{
    int ok = 1;
    if (g->rank == 0 && a != NULL && b != NULL && same_replaceable(a, b)) {
        snprintf(err, MG_OUT_ERRLEN,
                 "%s '%.200s' and %s '%.200s' are the same file: one would replace the other "
                 "(nothing measured, nothing written)",
                 a_opt, a, b_opt, b);
        ok = 0;
    }
    mg_group_bcast(g, &ok, sizeof ok);
    return ok;
}

/* Rank 0: make the file appear complete under its name, or not at all. */
int mg_out_commit(mg_out_file *o, const char *path)
{
    int rc = 0;
    if (o->f == NULL)
        return 0;
    if (fflush(o->f) != 0 || ferror(o->f) || (!o->direct && fsync(fileno(o->f)) != 0))
        rc = -1;
    if (fclose(o->f) != 0)
        rc = -1;
    if (rc == 0 && !o->direct && rename(o->tmp_path, o->target) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(log_of(o), "mpigauge: cannot complete output file '%s': %s\n", path,
                strerror(errno));
    if (!o->direct)
        forget_active(); /* after a rename: nothing there any more */
    o->committed = rc == 0;
    free(o->tmp_path);
    o->tmp_path = NULL;
    o->f = NULL;
    return rc;
}

void mg_out_discard(mg_out_file *o)
{
    if (o->f == NULL)
        return;
    fclose(o->f);
    if (!o->direct)
        forget_active();
    free(o->tmp_path);
    o->f = NULL;
    o->tmp_path = NULL;
}

/* Rank 0, after a run that did not complete its -o file: an existing FILE
 * is from an earlier run (it was neither replaced nor removed); say so. */
void mg_out_note_stale(const mg_out_file *o, const char *path)
{
    struct stat st;
    if (path == NULL || o->committed || o->direct || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    fprintf(log_of(o),
            "mpigauge: note: output file '%s' was not written; the file there is from an "
            "earlier run\n",
            path);
}

/* A rank that its launcher's environment names is not 0 needs no guard
 * (only rank 0 writes); unknown: start one all the same. */
static int surely_not_rank0(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                       "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; ++i) {
        const char *v = getenv(vars[i]);
        if (v != NULL && *v != '\0')
            return strcmp(v, "0") != 0;
    }
    return 0;
}

void mg_out_guard_start(const char *path)
{
    if (path == NULL || guard.pid > 0 || own_descriptor(path) >= 0 || surely_not_rank0())
        return;
    (void)mg_guard_start(&guard); /* without one: the signal handler alone */
}

void mg_out_guard_stop(void) { mg_guard_stop(&guard); }
