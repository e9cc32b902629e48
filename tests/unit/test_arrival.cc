/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_arrival: the --arrival patterns and their delays.
#include "mg_arrival.h"

#include <gtest/gtest.h>

#include <string>

namespace
{
mg_arrival parsed(const char *spec)
{
    mg_arrival a;
    char err[256] = "";
    EXPECT_EQ(mg_arrival_parse(spec, &a, err, sizeof err), 0) << err;
    return a;
}

std::string refused(const char *spec)
{
    mg_arrival a;
    char err[256] = "";
    EXPECT_EQ(mg_arrival_parse(spec, &a, err, sizeof err), -1) << spec;
    return err;
}

std::string formatted(const mg_arrival &a)
{
    char buf[64];
    mg_arrival_format(&a, buf, sizeof buf);
    return buf;
}
} // namespace

TEST(Arrival, NoneIsNoDelay)
{
    mg_arrival a = parsed(nullptr);
    EXPECT_EQ(a.kind, MG_ARRIVAL_NONE);
    EXPECT_EQ(parsed("none").kind, MG_ARRIVAL_NONE);
    EXPECT_EQ(mg_arrival_delay_s(&a, 3, 4, 7, 1), 0.0);
    EXPECT_EQ(mg_arrival_last_s(&a, 4, 7, 1), 0.0);
    EXPECT_EQ(formatted(a), "none");
}

TEST(Arrival, SkewIsLinearInTheRank)
{
    mg_arrival a = parsed("skew:30");
    EXPECT_EQ(a.kind, MG_ARRIVAL_SKEW);
    EXPECT_DOUBLE_EQ(mg_arrival_delay_s(&a, 0, 4, 0, 0), 0.0);
    EXPECT_DOUBLE_EQ(mg_arrival_delay_s(&a, 1, 4, 0, 0), 10e-6);
    EXPECT_DOUBLE_EQ(mg_arrival_delay_s(&a, 3, 4, 99, 5), 30e-6);
    EXPECT_DOUBLE_EQ(mg_arrival_last_s(&a, 4, 0, 0), 30e-6);
    EXPECT_EQ(mg_arrival_last_s(&a, 1, 0, 0), 0.0); // one rank: nobody is late
    EXPECT_EQ(formatted(a), "skew:30");
}

TEST(Arrival, OneLateIsTheLastRankOrTheOneNamed)
{
    mg_arrival a = parsed("one-late:50");
    EXPECT_EQ(a.late_rank, -1);
    EXPECT_EQ(mg_arrival_delay_s(&a, 0, 4, 0, 0), 0.0);
    EXPECT_DOUBLE_EQ(mg_arrival_delay_s(&a, 3, 4, 0, 0), 50e-6);
    mg_arrival b = parsed("one-late:2.5@0");
    EXPECT_EQ(b.late_rank, 0);
    EXPECT_DOUBLE_EQ(mg_arrival_delay_s(&b, 0, 4, 0, 0), 2.5e-6);
    EXPECT_EQ(mg_arrival_delay_s(&b, 3, 4, 0, 0), 0.0);
    EXPECT_DOUBLE_EQ(mg_arrival_last_s(&b, 4, 11, 0), 2.5e-6);
    EXPECT_EQ(formatted(b), "one-late:2.5@0");
}

TEST(Arrival, RandomIsReproducibleWithinItsRangeAndItsLastIsTheLargest)
{
    mg_arrival a = parsed("random:100");
    double lo = 1.0, hi = 0.0, sum = 0.0;
    const int calls = 2000, ranks = 8;
    for (int c = 0; c < calls; ++c) {
        double last = 0.0;
        for (int r = 0; r < ranks; ++r) {
            double d = mg_arrival_delay_s(&a, r, ranks, (uint64_t)c, 64);
            EXPECT_EQ(d, mg_arrival_delay_s(&a, r, ranks, (uint64_t)c, 64)); // every rank agrees
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
            last = d > last ? d : last;
            sum += d;
        }
        EXPECT_EQ(mg_arrival_last_s(&a, ranks, (uint64_t)c, 64), last);
    }
    EXPECT_GE(lo, 0.0);
    EXPECT_LT(hi, 100e-6);
    EXPECT_NEAR(sum / (calls * ranks), 50e-6, 2e-6); // uniform: mean half the range
    // another seed (size) draws other delays
    EXPECT_NE(mg_arrival_delay_s(&a, 1, ranks, 0, 64), mg_arrival_delay_s(&a, 1, ranks, 0, 128));
}

TEST(Arrival, BadSpecsAreRefusedWithTheReason)
{
    EXPECT_NE(refused("late:5").find("unknown pattern"), std::string::npos);
    EXPECT_NE(refused("skew:").find("microseconds above 0"), std::string::npos);
    EXPECT_NE(refused("skew:-3").find("microseconds above 0"), std::string::npos);
    EXPECT_NE(refused("skew:nan").find("microseconds above 0"), std::string::npos);
    EXPECT_NE(refused("random:2e6").find("at most 1e6"), std::string::npos);
    EXPECT_NE(refused("skew:5us").find("unexpected text"), std::string::npos);
    EXPECT_NE(refused("skew:5@1").find("unexpected text"), std::string::npos);
    EXPECT_NE(refused("one-late:5@x").find("a rank number"), std::string::npos);
    EXPECT_NE(refused("one-late:5@-1").find("a rank number"), std::string::npos);
    EXPECT_NE(refused("one-late:5@").find("a rank number"), std::string::npos);
}
