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

TEST(NodeState, CpuModelIsTheFirstModelNameWithBlanksMadeOne)
{
    const char *x86 = "processor\t: 0\ncpu family\t: 6\nmodel\t\t: 143\n"
                      "model name\t:  Intel(R) Xeon(R)   Platinum 8480+  \n"
                      "flags\t\t: fpu avx avx2 avx512fp16 avx512f avx512bw\nprocessor\t: 1\n"
                      "model name\t: Other\n";
    char out[96];
    EXPECT_EQ(mg_nodestate_parse_cpu_model(x86, out, sizeof out), 0);
    EXPECT_STREQ(out, "Intel(R) Xeon(R) Platinum 8480+ (family 6 model 143, avx512f)");
    EXPECT_EQ(mg_nodestate_parse_cpu_model("cpu family : 23\nmodel : 49\nmodel name : AMD EPYC\n"
                                           "flags : sse4_2 avx avx2 avx2x\n",
                                           out, sizeof out),
              0);
    EXPECT_STREQ(out, "AMD EPYC (family 23 model 49, avx2)");
    EXPECT_EQ(mg_nodestate_parse_cpu_model("model name : Old\ncpu family : 6\nmodel : 1\n", out,
                                           sizeof out),
              0);
    EXPECT_STREQ(out, "Old (family 6 model 1)");
    EXPECT_EQ(mg_nodestate_parse_cpu_model("processor : 0\ncpu\t\t: POWER9 (raw), altivec\n", out,
                                           sizeof out),
              0);
    EXPECT_STREQ(out, "POWER9 (raw), altivec");
    EXPECT_EQ(mg_nodestate_parse_cpu_model("Processor\t: ARMv7 rev 4 (v7l)\n", out, sizeof out), 0);
    EXPECT_STREQ(out, "ARMv7 rev 4 (v7l)");
    char small[6];
    EXPECT_EQ(mg_nodestate_parse_cpu_model(x86, small, sizeof small), 0);
    EXPECT_STREQ(small, "Intel");
}

TEST(NodeState, CpuModelUnknownIsRefusedAndEmpty)
{
    char out[16] = "x";
    EXPECT_EQ(mg_nodestate_parse_cpu_model("processor : 0\ncpu MHz : 2000\n", out, sizeof out),
              -EINVAL);
    EXPECT_STREQ(out, "");
    EXPECT_EQ(mg_nodestate_parse_cpu_model("model name :   \n", out, sizeof out), -EINVAL);
    EXPECT_EQ(mg_nodestate_parse_cpu_model(nullptr, out, sizeof out), -EINVAL);
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
