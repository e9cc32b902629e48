/* SPDX-License-Identifier: BSD-3-Clause */
// Shared by the unit tests: what a writer function puts into a FILE.
#ifndef MG_TEST_CAPTURE_H
#define MG_TEST_CAPTURE_H

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>

// Everything fn writes to a temporary FILE, as a string.
inline std::string capture(const std::function<void(FILE *)> &fn)
{
    FILE *f = std::tmpfile();
    EXPECT_NE(f, nullptr);
    if (f == nullptr)
        return "<tmpfile failed>";
    fn(f);
    std::fflush(f);
    std::rewind(f);
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        out.append(buf, n);
    std::fclose(f);
    return out;
}

#endif
