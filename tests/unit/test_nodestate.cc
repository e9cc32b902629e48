/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_nodestate: parsing recorded /proc contents.
#include "mg_nodestate.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>

namespace
{

TEST(NodeState, ClearMakesEveryFieldUnknown)
{
    mg_nodestate s;
    mg_nodestate_clear(&s);
    EXPECT_TRUE(std::isnan(s.load1));
    EXPECT_EQ(s.ctxt, -1);
    EXPECT_EQ(s.steal_jiffies, -1);
    EXPECT_TRUE(std::isnan(s.cpu_mhz));
}

TEST(NodeState, LoadavgGivesThreeLoadsAndRunnableTasks)
{
    mg_nodestate s;
    mg_nodestate_clear(&s);
    ASSERT_EQ(mg_nodestate_parse_loadavg("0.52 1.25 2.00 3/345 12345\n", &s), 0);
    EXPECT_DOUBLE_EQ(s.load1, 0.52);
    EXPECT_DOUBLE_EQ(s.load5, 1.25);
    EXPECT_DOUBLE_EQ(s.load15, 2.00);
    EXPECT_EQ(s.procs_running, 3);
}

TEST(NodeState, MalformedLoadavgIsRefusedAndLeavesFieldsUnknown)
{
    mg_nodestate s;
    mg_nodestate_clear(&s);
    EXPECT_EQ(mg_nodestate_parse_loadavg("load: high", &s), -EINVAL);
    EXPECT_TRUE(std::isnan(s.load1));
    EXPECT_EQ(mg_nodestate_parse_loadavg(nullptr, &s), -EINVAL);
}

TEST(NodeState, StatGivesTotalStealAndContextSwitches)
{
    const char *text = "cpu  100 2 30 400 5 6 7 8 9 10\n"
                       "cpu0 50 1 15 200 2 3 3 4 0 0\n"
                       "intr 12345 0 0\n"
                       "ctxt 987654321\n"
                       "btime 1700000000\n";
    mg_nodestate s;
    mg_nodestate_clear(&s);
    ASSERT_EQ(mg_nodestate_parse_stat(text, &s), 0);
    EXPECT_EQ(s.cpu_jiffies, 100 + 2 + 30 + 400 + 5 + 6 + 7 + 8); // guests not counted twice
    EXPECT_EQ(s.steal_jiffies, 8);
    EXPECT_EQ(s.ctxt, 987654321LL);
}

TEST(NodeState, StatOfAnOldKernelWithoutStealCountsStealAsZero)
{
    mg_nodestate s;
    mg_nodestate_clear(&s);
    ASSERT_EQ(mg_nodestate_parse_stat("cpu 1 2 3 4\nctxt 5\n", &s), 0);
    EXPECT_EQ(s.cpu_jiffies, 10);
    EXPECT_EQ(s.steal_jiffies, 0);
    EXPECT_EQ(s.ctxt, 5);
}

TEST(NodeState, StatWithNeitherLineIsRefused)
{
    mg_nodestate s;
    mg_nodestate_clear(&s);
    EXPECT_EQ(mg_nodestate_parse_stat("cpu0 1 2 3 4\nintr 5\n", &s), -EINVAL);
    EXPECT_EQ(s.cpu_jiffies, -1);
    EXPECT_EQ(s.ctxt, -1);
}

TEST(NodeState, CpuinfoMhzIsTheMeanOverCpus)
{
    const char *text = "processor\t: 0\ncpu MHz\t\t: 2000.000\ncache size\t: 512 KB\n\n"
                       "processor\t: 1\ncpu MHz\t\t: 3000.500\n";
    EXPECT_DOUBLE_EQ(mg_nodestate_parse_cpuinfo_mhz(text), 2500.25);
    EXPECT_TRUE(std::isnan(mg_nodestate_parse_cpuinfo_mhz("processor : 0\n")));
}

TEST(NodeState, ReadingTheLiveFilesGivesALoadAndAContextSwitchCount)
{
    mg_nodestate s;
    mg_nodestate_read(&s);
    EXPECT_GE(s.load1, 0.0);
    EXPECT_GT(s.ctxt, 0);
    EXPECT_GT(s.cpu_jiffies, 0);
    EXPECT_GE(s.steal_jiffies, 0);
}

} // namespace
