/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_clocksync: clock offsets from ping-pong probes.
#include "mg_clocksync.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>

TEST(ClockSync, SymmetricProbeGivesTheExactOffset)
{
    // remote is 5 s ahead; 2 us each way
    mg_clock_probe p[] = {{100.0, 105.0 + 2e-6, 100.0 + 4e-6}};
    double off = 0, rtt = 0;
    ASSERT_EQ(mg_clock_offset(p, 1, &off, &rtt), 0);
    EXPECT_NEAR(off, 5.0, 1e-12);
    EXPECT_NEAR(rtt, 4e-6, 1e-12);
}

TEST(ClockSync, ChoosesTheProbeWithTheSmallestRoundTrip)
{
    // remote 1 s behind; the second probe was delayed one way (10 us), the
    // third is the tightest and symmetric
    mg_clock_probe p[] = {
        {0.0, -1.0 + 3e-6, 6e-6}, {1.0, 0.0 + 12e-6, 1.0 + 14e-6}, {2.0, 1.0 + 1e-6, 2.0 + 2e-6}};
    double off = 0, rtt = 0;
    ASSERT_EQ(mg_clock_offset(p, 3, &off, &rtt), 0);
    EXPECT_NEAR(off, -1.0, 1e-9);
    EXPECT_NEAR(rtt, 2e-6, 1e-12);
}

TEST(ClockSync, ErrorIsAtMostHalfTheRoundTrip)
{
    // fully asymmetric: the whole round trip on the way back
    mg_clock_probe p[] = {{10.0, 10.0 + 0.0, 10.0 + 8e-6}};
    double off = 0, rtt = 0;
    ASSERT_EQ(mg_clock_offset(p, 1, &off, &rtt), 0);
    EXPECT_LE(std::fabs(off - 0.0), rtt / 2 + 1e-15);
}

TEST(ClockSync, SkipsNegativeAndNonFiniteRoundTrips)
{
    mg_clock_probe p[] = {{5.0, 1.0, 4.0}, {0.0, NAN, 1e-6}, {1.0, 3.0, 1.0 + 2e-6}};
    double off = 0, rtt = 0;
    ASSERT_EQ(mg_clock_offset(p, 3, &off, &rtt), 0);
    EXPECT_NEAR(off, 2.0 - 1e-6, 1e-12);
}

TEST(ClockSync, NoUsableProbeIsAnError)
{
    mg_clock_probe p[] = {{5.0, 1.0, 4.0}};
    double off = 0, rtt = 0;
    EXPECT_EQ(mg_clock_offset(p, 1, &off, &rtt), -EINVAL);
    EXPECT_EQ(mg_clock_offset(p, 0, &off, &rtt), -EINVAL);
}
