/* SPDX-License-Identifier: BSD-3-Clause */
// Shared by the unit tests: compare output with a golden file.
//
// The golden files under MG_GOLDEN_DIR are the exact expected output. To
// regenerate them after an intended format change, run with
// MG_UPDATE_GOLDEN=1 (the tests then fail on purpose), inspect the diff by
// hand, and rerun.
#ifndef MG_TEST_GOLDEN_H
#define MG_TEST_GOLDEN_H

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#ifndef MG_GOLDEN_DIR
#define MG_GOLDEN_DIR "tests/golden"
#endif

inline bool read_file(const std::string &path, std::string *out)
{
    FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr)
        return false;
    char buf[4096];
    size_t n;
    out->clear();
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        out->append(buf, n);
    std::fclose(f);
    return true;
}

// Compare `actual` byte for byte with the golden file `name`.
inline void expect_golden(const char *name, const std::string &actual)
{
    const std::string path = std::string(MG_GOLDEN_DIR) + "/" + name;
    const char *update = std::getenv("MG_UPDATE_GOLDEN");
    if (update != nullptr && *update != '\0' && *update != '0') {
        FILE *f = std::fopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr) << "cannot write " << path;
        std::fwrite(actual.data(), 1, actual.size(), f);
        std::fclose(f);
        ADD_FAILURE() << "rewrote " << path << ": inspect it, then rerun without "
                      << "MG_UPDATE_GOLDEN";
        return;
    }
    std::string expected;
    ASSERT_TRUE(read_file(path, &expected)) << "cannot read golden file " << path;
    EXPECT_EQ(actual, expected) << "output differs from " << path;
}

#endif
