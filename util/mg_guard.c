/* SPDX-License-Identifier: BSD-3-Clause */
/* The -o temporary's guard: see mg_guard.h. On the pipe a message is a
 * length (uint32_t, native order) and that many bytes of path; length 0
 * clears the path. */
#define _XOPEN_SOURCE 700
#include "mg_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { GUARD_PATH_MAX = PATH_MAX + 64 };

/* n bytes from fd; 0 at a clean end or a short read (the writer died). */
static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        p += r;
        n -= (size_t)r;
    }
    return 1;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

void mg_guard_follow(int fd, char *path, size_t len)
{
    char buf[GUARD_PATH_MAX];
    uint32_t n;
    path[0] = '\0';
    while (read_all(fd, &n, sizeof n)) {
        if (n >= sizeof buf || !read_all(fd, buf, n))
            break; /* a torn message: keep the last complete one */
        buf[n] = '\0';
        if (n < len)
            memcpy(path, buf, (size_t)n + 1);
        else
            path[0] = '\0';
    }
}

/* The child: detached from the writer's signals and descriptors. */
static void guard_main(int fd)
{
    char path[GUARD_PATH_MAX];
    int null = open("/dev/null", O_RDWR);
    long maxfd = sysconf(_SC_OPEN_MAX);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; ++i)
        signal(sigs[i], SIG_IGN);
    (void)setsid();
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
    }
    for (long d = 3; d < (maxfd > 0 && maxfd < 65536 ? maxfd : 1024); ++d)
        if (d != fd)
            close((int)d);
    mg_guard_follow(fd, path, sizeof path);
    if (path[0] != '\0')
        unlink(path);
    _exit(0);
}

int mg_guard_start(mg_guard *g)
{
    int fds[2];
    pid_t pid;
    g->pid = 0;
    g->fd = -1;
    if (pipe(fds) != 0)
        return -1;
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[1]);
        guard_main(fds[0]);
    }
    close(fds[0]);
    (void)fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    g->pid = pid;
    g->fd = fds[1];
    return 0;
}

int mg_guard_watch(mg_guard *g, const char *path)
{
    uint32_t n = path ? (uint32_t)strlen(path) : 0;
    void (*old)(int);
    int rc;
    if (g->fd < 0 || n >= GUARD_PATH_MAX)
        return -1;
    old = signal(SIGPIPE, SIG_IGN); /* a guard that is gone: an error, not a signal */
    rc = write_all(g->fd, &n, sizeof n) == 0 && (n == 0 || write_all(g->fd, path, n) == 0) ? 0 : -1;
    signal(SIGPIPE, old);
    return rc;
}

void mg_guard_stop(mg_guard *g)
{
    if (g->fd >= 0) {
        (void)mg_guard_watch(g, NULL);
        close(g->fd);
        g->fd = -1;
    }
    if (g->pid > 0) {
        while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        g->pid = 0;
    }
}
