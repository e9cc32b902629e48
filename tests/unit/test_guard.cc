/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_guard: the process that removes the -o temporary
// of a writer that died, and leaves it alone once the writer cleared it.
#include "mg_guard.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <signal.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace
{

std::string make_file(const char *tag)
{
    char name[64];
    snprintf(name, sizeof name, "/tmp/mg-guard-%s-%ld.XXXXXX", tag, (long)getpid());
    int fd = mkstemp(name);
    EXPECT_GE(fd, 0);
    close(fd);
    return name;
}

bool exists(const std::string &p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0;
}

// up to 5 s for the guard to act
bool gone_soon(const std::string &p)
{
    for (int i = 0; i < 500 && exists(p); ++i)
        usleep(10000);
    return !exists(p);
}

// A writer in a child process: starts a guard, watches `watch`, then
// clears it when `clear`, and dies by SIGKILL.
void writer_killed(const std::string &watch, bool clear)
{
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        mg_guard g;
        if (mg_guard_start(&g) != 0 || mg_guard_watch(&g, watch.c_str()) != 0)
            _exit(3);
        if (clear && mg_guard_watch(&g, NULL) != 0)
            _exit(4);
        raise(SIGKILL);
        _exit(5);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
}

void send(int fd, const char *path)
{
    uint32_t n = path ? (uint32_t)strlen(path) : 0;
    ASSERT_EQ(write(fd, &n, sizeof n), (ssize_t)sizeof n);
    if (n)
        ASSERT_EQ(write(fd, path, n), (ssize_t)n);
}

} // namespace

TEST(Guard, RemovesTheTemporaryOfAWriterKilledBySigkill)
{
    std::string f = make_file("killed");
    writer_killed(f, false);
    EXPECT_TRUE(gone_soon(f));
}

TEST(Guard, LeavesAFileTheWriterCleared)
{
    std::string f = make_file("cleared");
    writer_killed(f, true);
    usleep(200000);
    EXPECT_TRUE(exists(f));
    unlink(f.c_str());
}

TEST(Guard, StopRemovesNothingAndReaps)
{
    std::string f = make_file("stopped");
    mg_guard g;
    ASSERT_EQ(mg_guard_start(&g), 0);
    pid_t pid = g.pid;
    ASSERT_EQ(mg_guard_watch(&g, f.c_str()), 0);
    mg_guard_stop(&g); // clears, then ends the pipe
    EXPECT_EQ(g.pid, 0);
    EXPECT_EQ(g.fd, -1);
    EXPECT_TRUE(exists(f));
    EXPECT_EQ(kill(pid, 0), -1); // reaped: no such process
    EXPECT_EQ(mg_guard_watch(&g, f.c_str()), -1);
    unlink(f.c_str());
}

TEST(Guard, FollowKeepsTheLastPathSetAndNotCleared)
{
    int fds[2];
    char path[64];
    ASSERT_EQ(pipe(fds), 0);
    send(fds[1], "/tmp/a");
    send(fds[1], NULL);
    send(fds[1], "/tmp/b");
    uint32_t torn = 40; // a message cut short: the writer died while writing it
    ASSERT_EQ(write(fds[1], &torn, sizeof torn), (ssize_t)sizeof torn);
    ASSERT_EQ(write(fds[1], "/tmp/c", 6), 6);
    close(fds[1]);
    mg_guard_follow(fds[0], path, sizeof path);
    close(fds[0]);
    EXPECT_STREQ(path, "/tmp/b");

    ASSERT_EQ(pipe(fds), 0);
    send(fds[1], "/tmp/a");
    send(fds[1], NULL);
    close(fds[1]);
    mg_guard_follow(fds[0], path, sizeof path);
    close(fds[0]);
    EXPECT_STREQ(path, "");
}
