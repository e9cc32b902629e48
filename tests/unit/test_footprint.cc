// SPDX-License-Identifier: BSD-3-Clause
// mg_footprint_parse: smaps_rollup's fields exactly, old kernels' missing
// fields as NaN, and a text without Rss or Pss refused.
#include <gtest/gtest.h>

#include <cmath>

extern "C" {
#include "mg_footprint.h"
}

namespace
{

const char *const kRollup = "55a7598b6000-7ffc42112000 ---p 00000000 00:00 0   [rollup]\n"
                            "Rss:                1712 kB\n"
                            "Pss:                 246 kB\n"
                            "Pss_Dirty:           116 kB\n"
                            "Pss_Anon:            116 kB\n"
                            "Pss_File:            130 kB\n"
                            "Pss_Shmem:            64 kB\n"
                            "Shared_Clean:       1556 kB\n";

TEST(Footprint, ParsesTheRollupFields)
{
    mg_footprint f;
    f.heap_kib = 7.0;
    ASSERT_EQ(mg_footprint_parse(kRollup, &f), 0);
    EXPECT_EQ(f.rss_kib, 1712.0);
    EXPECT_EQ(f.pss_kib, 246.0);
    EXPECT_EQ(f.pss_anon_kib, 116.0);
    EXPECT_EQ(f.pss_shmem_kib, 64.0);
    EXPECT_EQ(f.heap_kib, 7.0); // not the parser's
}

TEST(Footprint, OldKernelLacksTheSplit)
{
    mg_footprint f;
    ASSERT_EQ(mg_footprint_parse("Rss: 10 kB\nPss: 4 kB\nPss_Dirty: 1 kB\n", &f), 0);
    EXPECT_EQ(f.rss_kib, 10.0);
    EXPECT_EQ(f.pss_kib, 4.0);
    EXPECT_TRUE(std::isnan(f.pss_anon_kib));
    EXPECT_TRUE(std::isnan(f.pss_shmem_kib));
}

TEST(Footprint, RefusesTextWithoutRssOrPss)
{
    mg_footprint f;
    EXPECT_EQ(mg_footprint_parse("Pss: 4 kB\n", &f), -1);
    EXPECT_EQ(mg_footprint_parse("Rss: 4 kB\nPss_Anon: 3 kB\n", &f), -1);
    EXPECT_EQ(mg_footprint_parse("Rss: kB\nPss: 1 kB\n", &f), -1);
    EXPECT_EQ(mg_footprint_parse("", &f), -1);
}

TEST(Footprint, ReadsThisProcess)
{
    mg_footprint f;
    ASSERT_EQ(mg_footprint_read(&f), 0);
    EXPECT_GT(f.rss_kib, 0.0);
    EXPECT_GT(f.pss_kib, 0.0);
    EXPECT_LE(f.pss_kib, f.rss_kib);
}

} // namespace
