/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_noise: --noise's form, its phases, its detours.
#include "mg_noise.h"

#include <gtest/gtest.h>

#include <string>
#include <time.h>

namespace
{
std::string refused(const char *spec)
{
    mg_noise n;
    char err[256] = "";
    EXPECT_EQ(mg_noise_parse(spec, &n, err, sizeof err), -1) << spec;
    return err;
}

double now_s()
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
} // namespace

TEST(Noise, ParsesPeriodAndLength)
{
    mg_noise n;
    char err[256] = "";
    ASSERT_EQ(mg_noise_parse("period:1000,len:25.5", &n, err, sizeof err), 0) << err;
    EXPECT_EQ(n.period_us, 1000.0);
    EXPECT_EQ(n.len_us, 25.5);
    ASSERT_EQ(mg_noise_parse(nullptr, &n, err, sizeof err), 0);
    EXPECT_EQ(n.period_us, 0.0);
    ASSERT_EQ(mg_noise_parse("none", &n, err, sizeof err), 0);
    EXPECT_EQ(n.period_us, 0.0);
}

TEST(Noise, BadSpecsAreRefusedWithTheReason)
{
    EXPECT_NE(refused("1000,25").find("not of that form"), std::string::npos);
    EXPECT_NE(refused("period:1000").find("not of that form"), std::string::npos);
    EXPECT_NE(refused("period:1000,len:25x").find("not of that form"), std::string::npos);
    EXPECT_NE(refused("period:1000,len:0").find("above 0"), std::string::npos);
    EXPECT_NE(refused("period:2e6,len:1").find("at most 1e6"), std::string::npos);
    EXPECT_NE(refused("period:100,len:100").find("shorter than its period"), std::string::npos);
    EXPECT_NE(refused("period:5,len:1").find("at least 10 us"), std::string::npos);
}

TEST(Noise, PhasesAreSpreadOverThePeriod)
{
    mg_noise n = {1000.0, 10.0};
    for (int r = 0; r < 64; ++r) {
        double p = mg_noise_phase_s(&n, r);
        EXPECT_GE(p, 0.0);
        EXPECT_LT(p, 1e-3);
        EXPECT_EQ(p, mg_noise_phase_s(&n, r));
    }
    EXPECT_NE(mg_noise_phase_s(&n, 0), mg_noise_phase_s(&n, 1));
}

TEST(Noise, DetoursHappenWhileStartedAndNotAfter)
{
    mg_noise n = {2000.0, 50.0};
    const double t0 = now_s();
    ASSERT_EQ(mg_noise_start(&n, 0), 0);
    while (now_s() - t0 < 0.05) {
    }
    unsigned long taken = mg_noise_stop();
    const double elapsed = now_s() - t0;
    // 50 ms at one detour every 2 ms: about 25; a busy machine may merge
    // some, never add any beyond the periods that passed
    EXPECT_GE(taken, 1UL);
    EXPECT_LE((double)taken, elapsed / 2e-3 + 1.0);
    EXPECT_EQ(mg_noise_stop(), 0UL); // stopped: nothing more
    mg_noise none = {0.0, 0.0};
    EXPECT_EQ(mg_noise_start(&none, 0), 0);
    EXPECT_EQ(mg_noise_stop(), 0UL);
}
