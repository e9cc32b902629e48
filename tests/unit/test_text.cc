/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_text: the libraries' names in a few words, exactly,
// and comment lines wrapped within the width.
#include "mg_text.h"

#include "capture.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace
{

std::string shortened(const char *lib)
{
    char out[64];
    mg_library_short(lib, out, sizeof out);
    return out;
}

TEST(Text, LibraryNamesInAFewWords)
{
    EXPECT_EQ(shortened("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: "
                        "v4.1.4, May 26, 2022"),
              "Open MPI 4.1.4");
    EXPECT_EQ(shortened("Open MPI v5.0.11, package: Open MPI user@host Distribution"),
              "Open MPI 5.0.11");
    EXPECT_EQ(shortened("MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 2022\n"),
              "MPICH 4.0.2");
    EXPECT_EQ(shortened("MPICH Version:      5.0.2\nMPICH Release date: Fri Sep 25"),
              "MPICH 5.0.2");
    EXPECT_EQ(shortened("MPICH Version:      4.3.0rc1\n"), "MPICH 4.3.0rc1");
    EXPECT_EQ(shortened("Intel(R) MPI Library 2021.19.0 for Linux* OS\n"), "Intel MPI 2021.19.0");
    EXPECT_EQ(shortened("FakeMPI 1.0, one process\nbuilt for tests"), "FakeMPI 1.0");
    EXPECT_EQ(shortened("Open MPI without a version"), "Open MPI without a version");
    EXPECT_EQ(shortened(nullptr), "an unknown MPI library");
    char tiny[6];
    mg_library_short("MPICH Version: 4.0.2", tiny, sizeof tiny);
    EXPECT_EQ(std::string(tiny), "MPICH");
}

std::string wrapped(const std::string &text, int width)
{
    return capture([&](FILE *f) { mg_comment_wrapped(f, text.c_str(), width); });
}

TEST(Text, CommentsWrapAtSpacesWithinTheWidth)
{
    EXPECT_EQ(wrapped("short", 80), "# short\n");
    EXPECT_EQ(wrapped("", 80), "# \n");
    EXPECT_EQ(wrapped("aaa bbb ccc", 9), "# aaa bbb\n# ccc\n"); // 7 of 7 columns, then one
    EXPECT_EQ(wrapped("aaa bbb ccc", 10), "# aaa bbb\n# ccc\n");
    EXPECT_EQ(wrapped("aaa bbb ccc", 13), "# aaa bbb ccc\n");
    EXPECT_EQ(wrapped("averyveryverylongword x", 10), "# averyveryverylongword\n# x\n");
    EXPECT_EQ(wrapped("  lead  and  gaps  ", 80), "# lead  and  gaps\n");
    const std::string d =
        "MPI_Allreduce: time per call in us, the slowest rank of each call; ranks "
        "synchronised before every call (--sync), not timed";
    const std::string out = wrapped(d, 80);
    std::istringstream in(out);
    std::string line, words;
    while (std::getline(in, line)) {
        EXPECT_LE(line.size(), 80u) << line;
        EXPECT_EQ(line.rfind("# ", 0), 0u) << line;
        words += (words.empty() ? "" : " ") + line.substr(2);
    }
    EXPECT_EQ(words, d); // nothing lost, nothing added
}

} // namespace

// A command line being built: copies, NULL after the last, emptied by free.
TEST(Argv, PushCopiesAndTerminates)
{
    mg_argv a{};
    char word[8] = "-m";
    mg_argv_push(&a, "prog");
    mg_argv_push(&a, word);
    word[1] = 'x';
    for (int i = 0; i < 40; ++i) // past the first allocation of 32
        mg_argv_push(&a, "8");
    ASSERT_EQ(a.failed, 0);
    ASSERT_EQ(a.n, 42);
    EXPECT_STREQ(a.v[0], "prog");
    EXPECT_STREQ(a.v[1], "-m");
    EXPECT_STREQ(a.v[41], "8");
    EXPECT_EQ(a.v[42], nullptr);
    mg_argv_free(&a);
    EXPECT_EQ(a.n, 0);
    EXPECT_EQ(a.v, nullptr);
}
