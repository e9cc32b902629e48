/* SPDX-License-Identifier: BSD-3-Clause */
// Multirail arithmetic: stripes, weights, bound rails, hints.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "mg_rails.h"

namespace
{

struct Split {
    uint64_t off[MG_RAILS_MAX], len[MG_RAILS_MAX];
};

Split split(uint64_t bytes, int k, const double *w = nullptr, uint64_t align = 1)
{
    Split s{};
    mg_stripe_split(bytes, k, w, align, s.off, s.len);
    return s;
}

TEST(Stripe, EvenDivides)
{
    Split s = split(4194304, 2, nullptr, 64);
    EXPECT_EQ(s.off[0], 0u);
    EXPECT_EQ(s.len[0], 2097152u);
    EXPECT_EQ(s.off[1], 2097152u);
    EXPECT_EQ(s.len[1], 2097152u);
}

TEST(Stripe, UnevenSizeLastTakesRemainder)
{
    Split s = split(10, 3);
    EXPECT_EQ(s.len[0], 3u);
    EXPECT_EQ(s.len[1], 3u);
    EXPECT_EQ(s.len[2], 4u);
    EXPECT_EQ(s.off[2], 6u);
}

TEST(Stripe, AlignedBoundaries)
{
    // 1000 bytes, 2 rails, 64-byte boundaries: 500 -> 448
    Split s = split(1000, 2, nullptr, 64);
    EXPECT_EQ(s.len[0], 448u);
    EXPECT_EQ(s.len[1], 552u);
    // too small to align per rail (< k x align): byte-exact
    s = split(100, 2, nullptr, 64);
    EXPECT_EQ(s.len[0], 50u);
    EXPECT_EQ(s.len[1], 50u);
}

TEST(Stripe, SmallerThanK)
{
    Split s = split(1, 2);
    EXPECT_EQ(s.len[0], 0u);
    EXPECT_EQ(s.len[1], 1u);
    s = split(2, 4);
    EXPECT_EQ(s.len[0] + s.len[1] + s.len[2] + s.len[3], 2u);
    EXPECT_EQ(s.len[0], 0u);
    EXPECT_EQ(s.len[1], 1u);
    EXPECT_EQ(s.len[2], 0u);
    EXPECT_EQ(s.len[3], 1u);
    s = split(0, 3);
    for (int j = 0; j < 3; ++j) {
        EXPECT_EQ(s.off[j], 0u);
        EXPECT_EQ(s.len[j], 0u);
    }
}

TEST(Stripe, Weighted)
{
    const double w[2] = {3.0, 1.0};
    Split s = split(4096, 2, w);
    EXPECT_EQ(s.len[0], 3072u);
    EXPECT_EQ(s.len[1], 1024u);
    const double z[3] = {1.0, 0.0, 1.0}; // a rail with no weight gets nothing
    s = split(4096, 3, z);
    EXPECT_EQ(s.len[0], 2048u);
    EXPECT_EQ(s.len[1], 0u);
    EXPECT_EQ(s.len[2], 2048u);
}

TEST(Stripe, LargeCountCoversExactly)
{
    const uint64_t big = (uint64_t(1) << 31) + 7;
    Split s = split(big, 3, nullptr, 4096);
    EXPECT_EQ(s.off[0], 0u);
    EXPECT_EQ(s.off[1] + s.len[1], s.off[2]);
    EXPECT_EQ(s.off[2] + s.len[2], big);
    EXPECT_EQ(s.off[1] % 4096, 0u);
    EXPECT_EQ(s.off[2] % 4096, 0u);
}

TEST(Weights, Parse)
{
    double w[MG_RAILS_MAX];
    int src = -1;
    char err[256];
    ASSERT_EQ(mg_rail_weights_parse("even", 2, w, &src, err, sizeof err), 0);
    EXPECT_EQ(src, MG_WEIGHTS_EVEN);
    EXPECT_DOUBLE_EQ(w[0], 0.5);
    ASSERT_EQ(mg_rail_weights_parse("auto", 4, w, &src, err, sizeof err), 0);
    EXPECT_EQ(src, MG_WEIGHTS_AUTO);
    EXPECT_DOUBLE_EQ(w[3], 0.25);
    ASSERT_EQ(mg_rail_weights_parse("3,1", 2, w, &src, err, sizeof err), 0);
    EXPECT_EQ(src, MG_WEIGHTS_GIVEN);
    EXPECT_DOUBLE_EQ(w[0], 0.75);
    EXPECT_DOUBLE_EQ(w[1], 0.25);
    EXPECT_EQ(mg_rail_weights_parse("3,1", 3, w, &src, err, sizeof err), -1);
    EXPECT_STREQ(err, "--rail-weights: 2 weights given for 3 rails (--rails)");
    EXPECT_EQ(mg_rail_weights_parse("1,0", 2, w, &src, err, sizeof err), -1);
    EXPECT_EQ(mg_rail_weights_parse("1,-2", 2, w, &src, err, sizeof err), -1);
    EXPECT_EQ(mg_rail_weights_parse("1,", 2, w, &src, err, sizeof err), -1);
    EXPECT_EQ(mg_rail_weights_parse("1,x", 2, w, &src, err, sizeof err), -1);
    EXPECT_EQ(mg_rail_weights_parse("", 1, w, &src, err, sizeof err), -1);
    EXPECT_EQ(mg_rail_weights_parse("nan,1", 2, w, &src, err, sizeof err), -1);
}

TEST(Weights, FromBandwidth)
{
    double w[3];
    const double bw[3] = {120.0, 60.0, 0.0};
    mg_rail_weights_from_bw(bw, 3, w);
    EXPECT_DOUBLE_EQ(w[0], 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(w[1], 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(w[2], 0.0);
    const double none[2] = {0.0, NAN};
    mg_rail_weights_from_bw(none, 2, w);
    EXPECT_DOUBLE_EQ(w[0], 0.5);
    EXPECT_DOUBLE_EQ(w[1], 0.5);
}

TEST(Bind, DirectionsAndPairsTakeDifferentRails)
{
    EXPECT_EQ(mg_rail_bound(0, 0, 2), 0); // pair 0: low -> high on rail 0
    EXPECT_EQ(mg_rail_bound(0, 1, 2), 1); // high -> low on rail 1
    EXPECT_EQ(mg_rail_bound(1, 0, 2), 1); // pair 1 starts on rail 1
    EXPECT_EQ(mg_rail_bound(3, 1, 2), 0);
    EXPECT_EQ(mg_rail_bound(5, 0, 1), 0);
}

TEST(Hints, Parse)
{
    char k[4][64], v[4][256], err[256];
    ASSERT_EQ(mg_rail_hints_parse("multi_nic_pref_nic=%d", k, v, 4, err, sizeof err), 1);
    EXPECT_STREQ(k[0], "multi_nic_pref_nic");
    EXPECT_STREQ(v[0], "%d");
    ASSERT_EQ(mg_rail_hints_parse("a=1;b.c=x=y;d=", k, v, 4, err, sizeof err), 3);
    EXPECT_STREQ(k[1], "b.c");
    EXPECT_STREQ(v[1], "x=y");
    EXPECT_STREQ(v[2], "");
    EXPECT_EQ(mg_rail_hints_parse("novalue", k, v, 4, err, sizeof err), -1);
    EXPECT_STREQ(err, "--rail-hint: 'novalue' is not KEY=VALUE");
    EXPECT_EQ(mg_rail_hints_parse("=1", k, v, 4, err, sizeof err), -1);
    EXPECT_EQ(mg_rail_hints_parse("a b=1", k, v, 4, err, sizeof err), -1);
    EXPECT_EQ(mg_rail_hints_parse("a=1;b=2;c=3", k, v, 2, err, sizeof err), -1);
    EXPECT_EQ(mg_rail_hints_parse("", k, v, 4, err, sizeof err), 0);
}

TEST(Hints, Value)
{
    char out[64];
    mg_rail_hint_value("%d", 3, out, sizeof out);
    EXPECT_STREQ(out, "3");
    mg_rail_hint_value("nic%d-100%%", 12, out, sizeof out);
    EXPECT_STREQ(out, "nic12-100%");
    mg_rail_hint_value("abcdef%d", 7, out, 5);
    EXPECT_STREQ(out, "abcd");
}

} // namespace

// Weights at the ends of the double range: their sum would overflow (1e308
// twice gave 0/0 and a NaN cast into the stripe lengths); scaled by the
// largest first they divide as they should.
TEST(Weights, HugeAndTinyWeightsStayFinite)
{
    double w[MG_RAILS_MAX];
    int src = 0;
    char err[256];
    uint64_t off[2], len[2];
    ASSERT_EQ(mg_rail_weights_parse("1e308,1e308", 2, w, &src, err, sizeof err), 0);
    EXPECT_DOUBLE_EQ(w[0], 0.5);
    EXPECT_DOUBLE_EQ(w[1], 0.5);
    mg_stripe_split(1000, 2, w, 1, off, len);
    EXPECT_EQ(len[0], 500u);
    EXPECT_EQ(len[1], 500u);
    ASSERT_EQ(mg_rail_weights_parse("1.7e308,1e-300", 2, w, &src, err, sizeof err), 0);
    EXPECT_DOUBLE_EQ(w[0], 1.0);
    EXPECT_GE(w[1], 0.0);
    mg_stripe_split(1000, 2, w, 1, off, len);
    EXPECT_EQ(len[0] + len[1], 1000u);
    EXPECT_EQ(len[0], 1000u);
}

// Weights that cannot divide (a zero or infinite total) give even stripes.
TEST(Stripe, WeightsWithoutATotalSplitEvenly)
{
    const double zero[2] = {0.0, 0.0}, inf[2] = {INFINITY, 1.0};
    uint64_t off[2], len[2];
    mg_stripe_split(1000, 2, zero, 1, off, len);
    EXPECT_EQ(len[0], 500u);
    EXPECT_EQ(len[1], 500u);
    mg_stripe_split(1000, 2, inf, 1, off, len);
    EXPECT_EQ(len[0], 500u);
    EXPECT_EQ(len[1], 500u);
}
