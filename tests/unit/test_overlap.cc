/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_overlap: the overlap and progress arithmetic.
#include "mg_overlap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

TEST(Overlap, ComputeGrowsByTenPercentOfL0PerStep)
{
    EXPECT_DOUBLE_EQ(mg_overlap_compute(0, 20.0, 0.1), 0.0);
    EXPECT_DOUBLE_EQ(mg_overlap_compute(3, 20.0, 0.1), 6.0);
}

TEST(Overlap, StopsOnlyWhenTheLowerBoundReachesTenPercentMore)
{
    EXPECT_FALSE(mg_overlap_stop(10.0, 10.99, 1.1));
    EXPECT_TRUE(mg_overlap_stop(10.0, 11.0, 1.1));
    EXPECT_TRUE(mg_overlap_stop(10.0, 15.0, 1.1));
}

TEST(Overlap, RatioIsOneWhenComputationHidesCompletely)
{
    // l0 = 10, c = 9 hidden: l_m stays 10
    EXPECT_DOUBLE_EQ(mg_overlap_ratio(10.0, 10.0, 9.0), 0.9);
    EXPECT_DOUBLE_EQ(mg_overlap_ratio(10.0, 10.5, 10.0), 0.95);
}

TEST(Overlap, RatioIsZeroWhenComputationAddsUp)
{
    EXPECT_DOUBLE_EQ(mg_overlap_ratio(10.0, 13.0, 3.0), 0.0);
}

TEST(Overlap, RatioIsClampedToZeroAndOne)
{
    EXPECT_DOUBLE_EQ(mg_overlap_ratio(10.0, 14.0, 3.0), 0.0); // noise: -0.1
    EXPECT_DOUBLE_EQ(mg_overlap_ratio(10.0, 9.0, 11.0), 1.0); // 1.2
    EXPECT_DOUBLE_EQ(mg_overlap_ratio(0.0, 1.0, 1.0), 0.0);
}

TEST(Progress, PostDelayWorkIsTheShareOfLatencyLeft)
{
    EXPECT_DOUBLE_EQ(mg_post_delay_work(10.0, 110.0, 100.0), 1.0); // nothing moved
    EXPECT_DOUBLE_EQ(mg_post_delay_work(10.0, 104.0, 100.0), 0.4);
    EXPECT_DOUBLE_EQ(mg_post_delay_work(10.0, 100.5, 100.0), 0.05);
    EXPECT_DOUBLE_EQ(mg_post_delay_work(10.0, 10.0, 100.0), 0.0); // done during the delay
}

TEST(Progress, LatencyGrowsWhenItRisesByHalfTheDelay)
{
    EXPECT_TRUE(mg_progress_grows(10.0, 110.0, 100.0));
    EXPECT_TRUE(mg_progress_grows(10.0, 60.0, 100.0));
    EXPECT_FALSE(mg_progress_grows(10.0, 59.0, 100.0));
    EXPECT_FALSE(mg_progress_grows(10.0, 10.0, 0.0));
}

namespace
{

std::vector<double> sizes_pow2(int n, double first)
{
    std::vector<double> s;
    for (int i = 0; i < n; ++i)
        s.push_back(first * std::pow(2.0, i));
    return s;
}

} // namespace

TEST(Switch, AStepAboveTheTrendIsFound)
{
    // 256 B .. 64 KiB: 0.2 us + 0.1 ns/B, plus 2.5 us from 8 KiB on (rendezvous)
    std::vector<double> s = sizes_pow2(9, 256), l;
    for (double b : s)
        l.push_back(0.2 + 1e-4 * b + (b >= 8192 ? 2.5 : 0.0));
    mg_switch sw[4];
    int n = mg_detect_steps(s.data(), l.data(), s.size(), 1.5, sw, 4);
    ASSERT_EQ(n, 1);
    EXPECT_EQ(sw[0].index, 5u); // sizes[5] = 8192
    EXPECT_GT(sw[0].ratio, 2.0);
}

TEST(Switch, AStepSeenFromTheNewPathsTrendIsFound)
{
    // 512 B .. 64 KiB: eager 0.5 us + 0.15 ns/B below 4 KiB, rendezvous 1.3 us
    // + 0.025 ns/B from there: 1.26x over the eager trend carried forward, but
    // the rendezvous trend carried back to 2 KiB is 1.67x over it
    std::vector<double> s = sizes_pow2(8, 512), l;
    for (double b : s)
        l.push_back(b < 4096 ? 0.5 + 1.5e-4 * b : 1.3 + 2.5e-5 * b);
    mg_switch sw[4];
    ASSERT_EQ(mg_detect_steps(s.data(), l.data(), s.size(), 1.5, sw, 4), 1);
    EXPECT_EQ(sw[0].index, 3u); // sizes[3] = 4096
    EXPECT_NEAR(sw[0].ratio, (1.3 + 2.5e-5 * 2048) / (0.5 + 1.5e-4 * 2048), 1e-12);
    // the same 1.26x jump followed by a path as steep as the one before: no step
    l[4] = l[3] + (l[3] - l[2]) * 2.0;
    for (size_t i = 5; i < l.size(); ++i)
        l[i] = l[i - 1] * 2.0;
    EXPECT_EQ(mg_detect_steps(s.data(), l.data(), s.size(), 1.5, sw, 4), 0);
}

TEST(Switch, ABandwidthBoundCurveHasNoStep)
{
    // latency doubling with size (pure bandwidth) is the trend, not a step
    std::vector<double> s = sizes_pow2(12, 1024), l;
    for (double b : s)
        l.push_back(1.0 + b / 5000.0);
    mg_switch sw[4];
    EXPECT_EQ(mg_detect_steps(s.data(), l.data(), s.size(), 1.5, sw, 4), 0);
}

TEST(Switch, NoiseOfTwentyPercentIsNotAStep)
{
    std::vector<double> s = sizes_pow2(8, 1), l = {0.20, 0.24, 0.20, 0.23, 0.19, 0.22, 0.25, 0.21};
    mg_switch sw[4];
    EXPECT_EQ(mg_detect_steps(s.data(), l.data(), s.size(), 1.5, sw, 4), 0);
}

TEST(Switch, TwoStepsAreBothFound)
{
    std::vector<double> s = sizes_pow2(10, 1024), l;
    for (double b : s)
        l.push_back(0.3 + 1e-5 * b + (b >= 4096 ? 2.0 : 0.0) + (b >= 65536 ? 20.0 : 0.0));
    mg_switch sw[4];
    ASSERT_EQ(mg_detect_steps(s.data(), l.data(), s.size(), 1.5, sw, 4), 2);
    EXPECT_EQ(sw[0].index, 2u);
    EXPECT_EQ(sw[1].index, 6u);
}

TEST(Switch, RiseInPostDelayWorkIsFound)
{
    const double v[] = {0.02, 0.0, 0.05, 0.97, 1.0, 0.99};
    EXPECT_EQ(mg_detect_rise(v, 6, 0.5), 3u);
    const double flat[] = {0.9, 1.0, 0.95};
    EXPECT_EQ(mg_detect_rise(flat, 3, 0.5), 3u);
}
