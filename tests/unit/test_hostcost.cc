// SPDX-License-Identifier: BSD-3-Clause
// The host's cost of a row (util/mg_hostcost.h): a rank's figures per timed
// iteration, their mean over ranks and the busiest rank, exactly.
extern "C" {
#include "mg_hostcost.h"
}

#include <gtest/gtest.h>

#include <cmath>

TEST(HostCost, FiguresArePerTimedIteration)
{
    const mg_host_usage a = {1.0, 0.5, 10, 2, 100, 1};
    const mg_host_usage b = {1.004, 0.501, 30, 3, 140, 1};
    double f[MG_HOST_NFIG];
    mg_host_figures(&a, &b, 1000, 0.01, f);
    EXPECT_NEAR(f[MG_HOST_USER_US], 4.0, 1e-9); // 4 ms of user time over 1000 iterations
    EXPECT_NEAR(f[MG_HOST_SYS_US], 1.0, 1e-9);
    EXPECT_DOUBLE_EQ(f[MG_HOST_VOL_CS], 0.02);
    EXPECT_DOUBLE_EQ(f[MG_HOST_INVOL_CS], 0.001);
    EXPECT_DOUBLE_EQ(f[MG_HOST_MINOR_FAULT], 0.04);
    EXPECT_DOUBLE_EQ(f[MG_HOST_MAJOR_FAULT], 0.0);
    EXPECT_NEAR(f[MG_HOST_CPU_UTIL], 0.5, 1e-9); // 5 ms of CPU in 10 ms
    mg_host_figures(&a, &b, 0, 0.0, f);          // nothing timed: nothing to say
    for (double v : f)
        EXPECT_TRUE(std::isnan(v));
}

TEST(HostCost, SummaryIsTheMeanOverRanksAndTheBusiestRank)
{
    double all[3 * MG_HOST_NFIG];
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < MG_HOST_NFIG; ++k)
            all[r * MG_HOST_NFIG + k] = r + 1;     // rank r: r + 1 everywhere
    all[2 * MG_HOST_NFIG + MG_HOST_VOL_CS] = NAN;  // rank 2 could not say
    all[0 * MG_HOST_NFIG + MG_HOST_SYS_US] = 10.0; // rank 0 pays most CPU: 1 + 10
    double mean[MG_HOST_NFIG];
    int busiest;
    mg_host_summary(all, 3, mean, &busiest);
    EXPECT_DOUBLE_EQ(mean[MG_HOST_USER_US], 2.0);
    EXPECT_DOUBLE_EQ(mean[MG_HOST_SYS_US], 5.0); // (10 + 2 + 3) / 3
    EXPECT_DOUBLE_EQ(mean[MG_HOST_VOL_CS], 1.5); // ranks 0 and 1 only
    EXPECT_EQ(busiest, 0);
    for (int k = 0; k < 3 * MG_HOST_NFIG; ++k)
        all[k] = NAN;
    mg_host_summary(all, 3, mean, &busiest);
    EXPECT_TRUE(std::isnan(mean[MG_HOST_CPU_UTIL]));
    EXPECT_EQ(busiest, -1);
}

TEST(HostCost, PerfCountersArePerIterationAndNaNWhereNotCounted)
{
    mg_host_usage a = {}, b = {};
    for (int k = 0; k < MG_PERF_N; ++k) {
        a.perf[k] = 100.0;
        b.perf[k] = 100.0 + 1000.0 * (k + 1);
    }
    a.perf[MG_PERF_CACHE_MISSES] = b.perf[MG_PERF_CACHE_MISSES] = NAN;
    double f[MG_HOST_NFIG];
    mg_host_figures(&a, &b, 500, 1.0, f);
    EXPECT_DOUBLE_EQ(f[MG_HOST_MIGRATIONS], 2.0);
    EXPECT_DOUBLE_EQ(f[MG_HOST_INSTRUCTIONS], 4.0);
    EXPECT_DOUBLE_EQ(f[MG_HOST_CYCLES], 6.0);
    EXPECT_TRUE(std::isnan(f[MG_HOST_CACHE_MISSES]));
    // what the kernel gives here: every counter it opened reads a number
    mg_perf p;
    const int opened = mg_perf_open(&p);
    mg_host_usage u;
    ASSERT_EQ(mg_host_usage_now(&u), 0);
    mg_perf_read(&p, &u);
    int read = 0;
    for (int k = 0; k < MG_PERF_N; ++k) {
        EXPECT_EQ(p.fd[k] >= 0, !std::isnan(u.perf[k])) << k;
        read += !std::isnan(u.perf[k]);
    }
    EXPECT_EQ(read, opened);
    mg_perf_close(&p);
    for (int fd : p.fd)
        EXPECT_EQ(fd, -1);
}

TEST(HostCost, TheProcessUsageIsRead)
{
    mg_host_usage u;
    ASSERT_EQ(mg_host_usage_now(&u), 0);
    EXPECT_GE(u.user_s + u.sys_s, 0.0);
    EXPECT_GE(u.minor_faults, 1.0); // a process that runs has touched a page
    EXPECT_STREQ(mg_host_names[MG_HOST_SYS_US], "sys_us_per_iter");
}
