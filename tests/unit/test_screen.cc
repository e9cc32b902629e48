/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_screen: the all-pairs screen's tournament and verdict.
#include "mg_screen.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <utility>
#include <vector>

namespace
{

// Every unordered pair meets exactly once per repetition; in each round a
// unit meets at most one other (partner symmetric).
void expect_tournament(int n)
{
    std::set<std::pair<int, int>> met;
    const int rounds = mg_screen_rounds(n);
    for (int r = 0; r < rounds; ++r) {
        std::vector<int> partner(n, -7);
        mg_screen_round(n, r, partner.data());
        int idle = 0;
        for (int u = 0; u < n; ++u) {
            const int v = partner[u];
            if (v < 0) {
                ++idle;
                continue;
            }
            ASSERT_NE(v, u);
            ASSERT_EQ(partner[v], u) << "n " << n << " round " << r;
            if (u < v) {
                EXPECT_TRUE(met.insert({u, v}).second) << "pair met twice: " << u << "-" << v;
            }
        }
        EXPECT_EQ(idle, n % 2) << "n " << n << " round " << r;
    }
    EXPECT_EQ((long)met.size(), mg_screen_npairs(n));
}

struct Screen {
    mg_screen_cfg cfg{};
    std::vector<double> x;
    std::vector<mg_screen_pair> pairs;
    std::vector<int> flagged, named;
    mg_screen_summary sum{};

    Screen(int n, int reps, int higher, double base)
    {
        cfg.nunits = n;
        cfg.reps = reps;
        cfg.higher_better = higher;
        cfg.threshold = 0.2;
        cfg.alpha = 0.05;
        const long np = mg_screen_npairs(n);
        x.assign((size_t)(np * reps), base);
        // a little deterministic noise, +-3%, different per pair and repetition
        for (long p = 0; p < np; ++p)
            for (int r = 0; r < reps; ++r)
                x[(size_t)(p * reps + r)] *= 1.0 + 0.03 * std::sin(1.7 * (double)p + 2.3 * r);
        pairs.resize((size_t)np);
        flagged.assign((size_t)n, -1);
        named.assign((size_t)n, -1);
    }
    void scale(int a, int b, double f)
    {
        const long p = mg_screen_pair_index(cfg.nunits, a, b);
        for (int r = 0; r < cfg.reps; ++r)
            x[(size_t)(p * cfg.reps + r)] *= f;
    }
    void scale_unit(int u, double f)
    {
        for (int v = 0; v < cfg.nunits; ++v)
            if (v != u)
                scale(u, v, f);
    }
    int run()
    {
        return mg_screen_analyse(&cfg, x.data(), pairs.data(), flagged.data(), named.data(),
                                 nullptr, &sum);
    }
    const mg_screen_pair &pair(int a, int b) const
    {
        return pairs[(size_t)mg_screen_pair_index(cfg.nunits, a, b)];
    }
};

} // namespace

TEST(Screen, RoundRobinMeetsEveryPairOnce)
{
    for (int n = 2; n <= 17; ++n)
        expect_tournament(n);
    EXPECT_EQ(mg_screen_rounds(4), 3);
    EXPECT_EQ(mg_screen_rounds(5), 5);
}

TEST(Screen, FourUnitsFirstRound)
{
    std::vector<int> partner(4);
    mg_screen_round(4, 0, partner.data());
    EXPECT_EQ(partner, (std::vector<int>{3, 2, 1, 0}));
}

TEST(Screen, PairIndexRoundTrips)
{
    const int n = 7;
    long k = 0;
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b, ++k) {
            EXPECT_EQ(mg_screen_pair_index(n, a, b), k);
            EXPECT_EQ(mg_screen_pair_index(n, b, a), k);
            int x = -1, y = -1;
            mg_screen_pair_units(n, k, &x, &y);
            EXPECT_EQ(x, a);
            EXPECT_EQ(y, b);
        }
    EXPECT_EQ(k, mg_screen_npairs(n));
    EXPECT_EQ(mg_screen_npairs(4), 6);
}

TEST(Screen, SignTestExactValues)
{
    EXPECT_DOUBLE_EQ(mg_screen_sign_p(10, 0), 1.0);
    EXPECT_NEAR(mg_screen_sign_p(10, 10), 1.0 / 1024, 1e-15);
    EXPECT_NEAR(mg_screen_sign_p(10, 9), 11.0 / 1024, 1e-14);
    EXPECT_NEAR(mg_screen_sign_p(4, 2), 11.0 / 16, 1e-14);
    EXPECT_EQ(mg_screen_min_reps(6, 0.05), 7); // 2^-7 = 0.0078 <= 0.0083
    EXPECT_EQ(mg_screen_min_reps(1, 0.05), 5); // 2^-5 = 0.031
    EXPECT_EQ(mg_screen_min_reps(4950, 0.05), 17);
}

TEST(Screen, HealthyNamesNothing)
{
    Screen s(4, 12, 1, 100.0);
    ASSERT_EQ(s.run(), 0);
    EXPECT_EQ(s.sum.outliers, 0);
    EXPECT_EQ(s.sum.named, 0);
    EXPECT_EQ(s.sum.links, 0);
    EXPECT_TRUE(s.sum.conclusive);
    EXPECT_NEAR(s.sum.reference, 100.0, 3.0);
}

TEST(Screen, SlowNodeIsNamed)
{
    Screen s(4, 12, 1, 100.0);
    s.scale_unit(3, 0.4);
    ASSERT_EQ(s.run(), 0);
    EXPECT_EQ(s.named, (std::vector<int>{0, 0, 0, 1}));
    EXPECT_EQ(s.flagged, (std::vector<int>{1, 1, 1, 3}));
    EXPECT_EQ(s.sum.outliers, 3);
    EXPECT_EQ(s.sum.links, 0);
    EXPECT_EQ(s.pair(0, 3).named_end, 3);
    EXPECT_EQ(s.pair(0, 1).named_end, -1);
    EXPECT_NEAR(s.pair(1, 3).ratio, 0.4, 0.03);
    EXPECT_NEAR(s.sum.reference, 100.0, 3.0);
}

TEST(Screen, SlowNodeOfThreeIsNamed)
{
    Screen s(3, 12, 1, 100.0);
    s.scale_unit(1, 0.5);
    ASSERT_EQ(s.run(), 0);
    EXPECT_EQ(s.named, (std::vector<int>{0, 1, 0}));
    EXPECT_EQ(s.sum.links, 0);
}

TEST(Screen, SlowLinkIsALink)
{
    Screen s(4, 12, 1, 100.0);
    s.scale(0, 2, 0.5);
    ASSERT_EQ(s.run(), 0);
    EXPECT_EQ(s.named, (std::vector<int>{0, 0, 0, 0}));
    EXPECT_EQ(s.sum.links, 1);
    EXPECT_TRUE(s.pair(0, 2).outlier);
    EXPECT_EQ(s.pair(0, 2).named_end, -1);
    EXPECT_EQ(s.pair(0, 2).worse, 12);
}

TEST(Screen, LatencyLowerIsBetter)
{
    Screen s(5, 12, 0, 20.0);
    s.scale_unit(2, 3.0); // three times the latency
    ASSERT_EQ(s.run(), 0);
    EXPECT_EQ(s.named, (std::vector<int>{0, 0, 1, 0, 0}));
    EXPECT_NEAR(s.pair(2, 4).ratio, 1.0 / 3, 0.03);
}

TEST(Screen, SmallDifferenceIsNotAnOutlier)
{
    Screen s(4, 12, 1, 100.0);
    s.scale(1, 2, 0.9); // 10% slower, inside the 20% threshold
    ASSERT_EQ(s.run(), 0);
    EXPECT_EQ(s.sum.outliers, 0);
}

TEST(Screen, TooFewRepetitionsAreInconclusive)
{
    Screen s(4, 6, 1, 100.0);
    s.scale_unit(0, 0.3);
    ASSERT_EQ(s.run(), 0);
    EXPECT_FALSE(s.sum.conclusive);
    // 6 of 6 below: p = 1/64 > 0.05 / 6, so nothing can be flagged
    EXPECT_EQ(s.sum.outliers, 0);
}

TEST(Screen, OneNoisyRepetitionDoesNotFlag)
{
    Screen s(4, 12, 1, 100.0);
    // pair 0-1 halved in 6 of 12 repetitions only
    const long p = mg_screen_pair_index(4, 0, 1);
    for (int r = 0; r < 6; ++r)
        s.x[(size_t)(p * 12 + r)] *= 0.5;
    ASSERT_EQ(s.run(), 0);
    EXPECT_FALSE(s.pair(0, 1).outlier);
    EXPECT_EQ(s.pair(0, 1).worse, 6);
}

TEST(Screen, FloorOnTwoUnits)
{
    Screen s(2, 8, 1, 100.0);
    s.cfg.expect = 150.0;
    ASSERT_EQ(s.run(), 0);
    EXPECT_EQ(s.sum.outliers, 0); // no population with one pair
    EXPECT_EQ(s.sum.below_floor, 1);
    EXPECT_TRUE(s.sum.conclusive);
    EXPECT_EQ(s.sum.links, 1);
    Screen ok(2, 8, 1, 100.0);
    ok.cfg.expect = 90.0;
    ASSERT_EQ(ok.run(), 0);
    EXPECT_EQ(ok.sum.below_floor, 0);
    Screen none(2, 8, 1, 100.0);
    ASSERT_EQ(none.run(), 0);
    EXPECT_FALSE(none.sum.conclusive); // two units and no floor: nothing to judge against
}

TEST(Screen, MissingValuesAreSkipped)
{
    Screen s(4, 12, 1, 100.0);
    const long p = mg_screen_pair_index(4, 1, 3);
    for (int r = 0; r < 12; ++r)
        s.x[(size_t)(p * 12 + r)] = NAN;
    ASSERT_EQ(s.run(), 0);
    EXPECT_EQ(s.pair(1, 3).n, 0);
    EXPECT_TRUE(std::isnan(s.pair(1, 3).median));
    EXPECT_EQ(s.sum.outliers, 0);
}

TEST(Screen, RefusesBadConfig)
{
    Screen s(1, 4, 1, 100.0);
    EXPECT_EQ(s.run(), -1);
    Screen t(4, 4, 1, 100.0);
    t.cfg.threshold = 1.0;
    EXPECT_EQ(t.run(), -1);
}

#include "mg_binding.h"
#include "mg_netdev.h"

TEST(Screen, PackageOfABinding)
{
    hwloc_topology_t t = nullptr;
    ASSERT_EQ(mg_netdev_topology(&t, MG_FIXTURE_DIR "/topo/two_socket_two_hca.xml"), 0);
    EXPECT_EQ(mg_binding_package_of(t, "0"), 0);
    EXPECT_EQ(mg_binding_package_of(t, "0-3"), 0);
    EXPECT_EQ(mg_binding_package_of(t, "5"), 1);
    EXPECT_EQ(mg_binding_package_of(t, "4-7"), 1);
    EXPECT_EQ(mg_binding_package_of(t, "3-4"), -1); // across both
    EXPECT_EQ(mg_binding_package_of(t, "0-7"), -1);
    EXPECT_EQ(mg_binding_package_of(t, ""), -1);
    EXPECT_EQ(mg_binding_package_of(t, "x"), -1);
    hwloc_topology_destroy(t);
}
