/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_memlimit: cgroup limit files and the -M guard.
#include "mg_memlimit.h"

#include <gtest/gtest.h>

#include <string>

TEST(MemLimit, CgroupLimitText)
{
    EXPECT_EQ(mg_cgroup_limit_parse("max\n"), UINT64_MAX);
    EXPECT_EQ(mg_cgroup_limit_parse("8589934592\n"), UINT64_C(8589934592));
    EXPECT_EQ(mg_cgroup_limit_parse("9223372036854771712\n"), UINT64_MAX); // v1: no limit
    EXPECT_EQ(mg_cgroup_limit_parse("maximum"), 0u);
    EXPECT_EQ(mg_cgroup_limit_parse("12k"), 0u);
    EXPECT_EQ(mg_cgroup_limit_parse(""), 0u);
}

TEST(MemLimit, CgroupLimitFileV2AndV1)
{
    char out[256];
    ASSERT_EQ(mg_cgroup_limit_file("0::/user.slice/job42\n", "/sys/fs/cgroup", out, sizeof out), 0);
    EXPECT_EQ(std::string(out), "/sys/fs/cgroup/user.slice/job42/memory.max");
    ASSERT_EQ(mg_cgroup_limit_file("0::/\n", "/R", out, sizeof out), 0);
    EXPECT_EQ(std::string(out), "/R/memory.max");
    ASSERT_EQ(mg_cgroup_limit_file("5:cpu,cpuacct:/\n4:memory:/slurm/uid_0/job_7\n0::/\n", "/R",
                                   out, sizeof out),
              0);
    EXPECT_EQ(std::string(out), "/R/memory/slurm/uid_0/job_7/memory.limit_in_bytes");
    ASSERT_EQ(mg_cgroup_limit_file("3:cpu,memory:/a\n", "/R", out, sizeof out), 0);
    EXPECT_EQ(std::string(out), "/R/memory/a/memory.limit_in_bytes");
    EXPECT_EQ(mg_cgroup_limit_file("3:memoryx:/a\n", "/R", out, sizeof out), -1);
    EXPECT_EQ(mg_cgroup_limit_file("", "/R", out, sizeof out), -1);
}

TEST(MemLimit, GuardIsTheShareOrTheRequestAtMostTheNodesShare)
{
    int clamped = -1;
    const uint64_t node = UINT64_C(16) << 30;
    EXPECT_EQ(mg_memory_guard(0, node, 4, 3, 4, &clamped), UINT64_C(3) << 30);
    EXPECT_EQ(clamped, 0);
    EXPECT_EQ(mg_memory_guard(UINT64_C(1) << 30, node, 4, 3, 4, &clamped), UINT64_C(1) << 30);
    EXPECT_EQ(clamped, 0);
    EXPECT_EQ(mg_memory_guard(UINT64_C(100) << 30, node, 4, 3, 4, &clamped), UINT64_C(4) << 30);
    EXPECT_EQ(clamped, 1);
    EXPECT_EQ(mg_memory_guard(UINT64_C(5) << 30, node, 0, 3, 4, &clamped), UINT64_C(5) << 30);
}
