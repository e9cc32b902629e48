/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_stats: summary statistics and the median CI.
#include "mg_stats.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace
{

mg_stats compute(const std::vector<double> &x)
{
    mg_stats s;
    int rc = mg_stats_compute(x.data(), x.size(), &s);
    EXPECT_EQ(rc, 0);
    return s;
}

// The median CI rule computed exactly with integers: the largest 1-based r
// with 2 P(Binomial(n, 1/2) <= r - 1) <= 0.05, i.e. 40 * sum_{k<r} C(n,k) <= 2^n.
// Returns 0 when no r qualifies. Exact for n <= 120 (fits in 128 bits).
struct ExactCi {
    size_t r;
    long double coverage; // of [x(r), x(n+1-r)], or of [min, max] when r == 0
};

ExactCi exact_ci(size_t n)
{
    using u128 = unsigned __int128;
    const u128 total = (u128)1 << n;
    u128 c = 1;   // C(n, k)
    u128 cdf = 0; // sum_{j<=k} C(n, j)
    ExactCi best{0, 0.0L};
    for (size_t r = 1; 2 * r <= n + 1; ++r) {
        size_t k = r - 1;
        if (k > 0)
            c = c * (u128)(n - k + 1) / (u128)k;
        cdf += c;
        if ((u128)40 * cdf > total)
            break;
        best.r = r;
        best.coverage = 1.0L - 2.0L * (long double)cdf / (long double)total;
    }
    if (best.r == 0) {
        long double cov = 1.0L - 2.0L / (long double)total;
        best.coverage = cov > 0 ? cov : 0;
    }
    return best;
}

} // namespace

// ---- n = 1 and ties ----------------------------------------------------------

TEST(Stats, OneSampleMakesEveryStatisticThatSample)
{
    mg_stats s = compute({3.25});
    EXPECT_EQ(s.n, 1u);
    EXPECT_EQ(s.min, 3.25);
    EXPECT_EQ(s.max, 3.25);
    EXPECT_EQ(s.mean, 3.25);
    EXPECT_EQ(s.median, 3.25);
    EXPECT_EQ(s.p50, 3.25);
    EXPECT_EQ(s.p90, 3.25);
    EXPECT_EQ(s.p99, 3.25);
    EXPECT_EQ(s.stddev, 0.0);
    EXPECT_EQ(s.ci95_low, 3.25);
    EXPECT_EQ(s.ci95_high, 3.25);
}

TEST(Stats, PercentileOfOneSampleIsThatSample)
{
    const double x[] = {7.5};
    EXPECT_EQ(mg_percentile_sorted(x, 1, 0.0), 7.5);
    EXPECT_EQ(mg_percentile_sorted(x, 1, 0.37), 7.5);
    EXPECT_EQ(mg_percentile_sorted(x, 1, 1.0), 7.5);
}

TEST(Stats, AllEqualSamplesHaveZeroSpreadAndPointCi)
{
    mg_stats s = compute(std::vector<double>(37, 1.5));
    EXPECT_EQ(s.n, 37u);
    EXPECT_EQ(s.min, 1.5);
    EXPECT_EQ(s.max, 1.5);
    EXPECT_EQ(s.mean, 1.5);
    EXPECT_EQ(s.median, 1.5);
    EXPECT_EQ(s.p90, 1.5);
    EXPECT_EQ(s.p99, 1.5);
    EXPECT_EQ(s.stddev, 0.0);
    EXPECT_EQ(s.ci95_low, 1.5);
    EXPECT_EQ(s.ci95_high, 1.5);
    EXPECT_EQ(mg_stats_rel_halfwidth(&s), 0.0);
}

// ---- known small data sets ---------------------------------------------------

TEST(Stats, OneToFourHasType7Percentiles)
{
    mg_stats s = compute({4, 1, 3, 2});
    EXPECT_EQ(s.n, 4u);
    EXPECT_EQ(s.min, 1.0);
    EXPECT_EQ(s.max, 4.0);
    EXPECT_EQ(s.mean, 2.5);
    EXPECT_EQ(s.median, 2.5);
    EXPECT_EQ(s.p50, 2.5);
    EXPECT_DOUBLE_EQ(s.p90, 3.7);  // h = 3 * 0.9 = 2.7
    EXPECT_DOUBLE_EQ(s.p99, 3.97); // h = 3 * 0.99 = 2.97
    // sum of squared deviations = 2.25 + 0.25 + 0.25 + 2.25 = 5; / 3
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(5.0 / 3.0));
    // n = 4 < 6: the CI is [min, max]
    EXPECT_EQ(s.ci95_low, 1.0);
    EXPECT_EQ(s.ci95_high, 4.0);
}

TEST(Stats, OddCountMedianIsMiddleSample)
{
    mg_stats s = compute({9, 1, 5, 3, 7});
    EXPECT_EQ(s.median, 5.0);
    EXPECT_EQ(s.mean, 5.0);
    // deviations 4,2,0,2,4 -> 16+4+0+4+16 = 40; / 4 = 10
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(10.0));
    EXPECT_DOUBLE_EQ(s.p90, 8.2);  // h = 3.6 between 7 and 9
    EXPECT_DOUBLE_EQ(s.p99, 8.92); // h = 3.96
}

TEST(Stats, TwoToNineHasTextbookStddev)
{
    // The classic {2,4,4,4,5,5,7,9}: mean 5, sum of squares 32, s = sqrt(32/7).
    mg_stats s = compute({2, 4, 4, 4, 5, 5, 7, 9});
    EXPECT_EQ(s.mean, 5.0);
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(32.0 / 7.0));
    EXPECT_EQ(s.median, 4.5);
    EXPECT_DOUBLE_EQ(s.p90, 7.6); // h = 6.3 between 7 and 9
    EXPECT_EQ(s.ci95_low, 2.0);   // n = 8: r = 1
    EXPECT_EQ(s.ci95_high, 9.0);
}

TEST(Stats, TenSamplesCiIsSecondAndNinthOrderStatistic)
{
    mg_stats s = compute({10, 20, 30, 40, 50, 60, 70, 80, 90, 100});
    EXPECT_EQ(s.median, 55.0);
    EXPECT_EQ(s.ci95_low, 20.0);
    EXPECT_EQ(s.ci95_high, 90.0);
    EXPECT_EQ(mg_stats_rel_halfwidth(&s), 35.0 / 55.0);
}

TEST(Stats, PercentileEndpointsAreMinAndMax)
{
    const double x[] = {1, 2, 3, 4};
    EXPECT_EQ(mg_percentile_sorted(x, 4, 0.0), 1.0);
    EXPECT_EQ(mg_percentile_sorted(x, 4, 1.0), 4.0);
    EXPECT_EQ(mg_percentile_sorted(x, 4, 1.0 / 3.0), 2.0);
    EXPECT_EQ(mg_percentile_sorted(x, 4, 0.25), 1.75);
    EXPECT_EQ(mg_percentile_sorted(x, 4, 0.5), 2.5);
    EXPECT_EQ(mg_percentile_sorted(x, 4, -0.5), 1.0);
    EXPECT_EQ(mg_percentile_sorted(x, 4, 1.5), 4.0);
}

TEST(Stats, PercentileInterpolatesLinearly)
{
    const double x[] = {0, 100};
    EXPECT_EQ(mg_percentile_sorted(x, 2, 0.5), 50.0);
    EXPECT_EQ(mg_percentile_sorted(x, 2, 0.25), 25.0);
    EXPECT_DOUBLE_EQ(mg_percentile_sorted(x, 2, 0.9), 90.0);
    EXPECT_DOUBLE_EQ(mg_percentile_sorted(x, 2, 0.99), 99.0);
}

TEST(Stats, PercentilesOfHundredSamplesMatchNumpy)
{
    std::vector<double> x;
    for (int i = 1; i <= 100; ++i)
        x.push_back(i);
    mg_stats s = compute(x);
    EXPECT_EQ(s.median, 50.5);
    EXPECT_DOUBLE_EQ(s.p90, 90.1);  // numpy.percentile(range(1,101), 90)
    EXPECT_DOUBLE_EQ(s.p99, 99.01); // numpy.percentile(range(1,101), 99)
    EXPECT_EQ(s.mean, 50.5);
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(100.0 * 101.0 / 12.0)); // n(n+1)/12
    EXPECT_EQ(s.ci95_low, 40.0);                                 // 0-based 39
    EXPECT_EQ(s.ci95_high, 61.0);                                // 0-based 60
}

TEST(Stats, NegativeSamplesWork)
{
    mg_stats s = compute({-3, -1, -2});
    EXPECT_EQ(s.min, -3.0);
    EXPECT_EQ(s.max, -1.0);
    EXPECT_EQ(s.median, -2.0);
    EXPECT_EQ(s.mean, -2.0);
    EXPECT_EQ(s.stddev, 1.0);
}

// ---- input handling ------------------------------------------------------

TEST(Stats, UnsortedInputIsLeftUnchanged)
{
    const std::vector<double> orig = {5, 3, 9, 1, 7, 2};
    std::vector<double> x = orig;
    mg_stats s;
    ASSERT_EQ(mg_stats_compute(x.data(), x.size(), &s), 0);
    EXPECT_EQ(x, orig);
    EXPECT_EQ(s.min, 1.0);
    EXPECT_EQ(s.max, 9.0);
    EXPECT_EQ(s.median, 4.0);
}

TEST(Stats, SortedEntryPointGivesSameResultAsUnsorted)
{
    const double unsorted[] = {5, 3, 9, 1, 7, 2, 8};
    const double sorted[] = {1, 2, 3, 5, 7, 8, 9};
    mg_stats a, b;
    ASSERT_EQ(mg_stats_compute(unsorted, 7, &a), 0);
    ASSERT_EQ(mg_stats_compute_sorted(sorted, 7, &b), 0);
    EXPECT_EQ(a.median, b.median);
    EXPECT_EQ(a.mean, b.mean);
    EXPECT_EQ(a.stddev, b.stddev);
    EXPECT_EQ(a.p90, b.p90);
    EXPECT_EQ(a.ci95_low, b.ci95_low);
    EXPECT_EQ(a.ci95_high, b.ci95_high);
    EXPECT_EQ(b.median, 5.0);
    EXPECT_EQ(b.ci95_low, 1.0); // n = 7: r = 1
    EXPECT_EQ(b.ci95_high, 9.0);
}

TEST(Stats, NaNSampleIsEINVAL)
{
    const double x[] = {1.0, std::numeric_limits<double>::quiet_NaN(), 3.0};
    mg_stats s;
    EXPECT_EQ(mg_stats_compute(x, 3, &s), -EINVAL);
    const double y[] = {1.0, 2.0, std::numeric_limits<double>::quiet_NaN()};
    EXPECT_EQ(mg_stats_compute_sorted(y, 3, &s), -EINVAL);
}

TEST(Stats, InfiniteSampleIsEINVAL)
{
    const double x[] = {1.0, std::numeric_limits<double>::infinity()};
    const double y[] = {-std::numeric_limits<double>::infinity(), 1.0};
    mg_stats s;
    EXPECT_EQ(mg_stats_compute(x, 2, &s), -EINVAL);
    EXPECT_EQ(mg_stats_compute(y, 2, &s), -EINVAL);
}

TEST(Stats, NoSamplesIsEINVAL)
{
    const double x[] = {1.0};
    mg_stats s;
    EXPECT_EQ(mg_stats_compute(x, 0, &s), -EINVAL);
    EXPECT_EQ(mg_stats_compute_sorted(x, 0, &s), -EINVAL);
}

// ---- median CI ranks -------------------------------------------------------

TEST(MedianCi, FiveSamplesIsMinMaxWithCoverage0_9375)
{
    size_t lo = 99, hi = 99;
    double cov = -1;
    mg_median_ci_ranks(5, 0.95, &lo, &hi, &cov);
    EXPECT_EQ(lo, 0u);
    EXPECT_EQ(hi, 4u);
    EXPECT_NEAR(cov, 0.9375, 1e-12); // 1 - 2/32: below the 95% level
}

TEST(MedianCi, SixSamplesIsMinMaxWithCoverage1Minus2Over64)
{
    size_t lo = 99, hi = 99;
    double cov = -1;
    mg_median_ci_ranks(6, 0.95, &lo, &hi, &cov);
    EXPECT_EQ(lo, 0u);
    EXPECT_EQ(hi, 5u);
    EXPECT_NEAR(cov, 1.0 - 2.0 / 64.0, 1e-12);
}

TEST(MedianCi, TenSamplesIsRanks1To8)
{
    size_t lo = 99, hi = 99;
    double cov = -1;
    mg_median_ci_ranks(10, 0.95, &lo, &hi, &cov);
    EXPECT_EQ(lo, 1u);
    EXPECT_EQ(hi, 8u);
    EXPECT_NEAR(cov, 0.978515625, 1e-12); // 1 - 2 * 11/1024
}

TEST(MedianCi, TwentySamplesIsRanks5To14)
{
    size_t lo = 99, hi = 99;
    double cov = -1;
    mg_median_ci_ranks(20, 0.95, &lo, &hi, &cov);
    EXPECT_EQ(lo, 5u);
    EXPECT_EQ(hi, 14u);
    EXPECT_NEAR(cov, 1.0 - 2.0 * 21700.0 / 1048576.0, 1e-12);
}

TEST(MedianCi, HundredSamplesIsRanks39To60)
{
    size_t lo = 0, hi = 0;
    double cov = -1;
    mg_median_ci_ranks(100, 0.95, &lo, &hi, &cov);
    EXPECT_EQ(lo, 39u);
    EXPECT_EQ(hi, 60u);
    EXPECT_GE(cov, 0.95);
    EXPECT_NEAR(cov, (double)exact_ci(100).coverage, 1e-12);
}

TEST(MedianCi, OneSampleIsThatSampleWithZeroCoverage)
{
    size_t lo = 99, hi = 99;
    double cov = -1;
    mg_median_ci_ranks(1, 0.95, &lo, &hi, &cov);
    EXPECT_EQ(lo, 0u);
    EXPECT_EQ(hi, 0u);
    EXPECT_EQ(cov, 0.0);
}

TEST(MedianCi, TwoSamplesCoverHalf)
{
    size_t lo = 99, hi = 99;
    double cov = -1;
    mg_median_ci_ranks(2, 0.95, &lo, &hi, &cov);
    EXPECT_EQ(lo, 0u);
    EXPECT_EQ(hi, 1u);
    EXPECT_NEAR(cov, 0.5, 1e-12);
}

TEST(MedianCi, MatchesExactBinomialForEveryNUpTo120)
{
    for (size_t n = 1; n <= 120; ++n) {
        ExactCi e = exact_ci(n);
        size_t lo = 9999, hi = 9999;
        double cov = -1;
        mg_median_ci_ranks(n, 0.95, &lo, &hi, &cov);
        size_t want_lo = e.r ? e.r - 1 : 0;
        size_t want_hi = e.r ? n - e.r : n - 1;
        EXPECT_EQ(lo, want_lo) << "n=" << n;
        EXPECT_EQ(hi, want_hi) << "n=" << n;
        EXPECT_EQ(lo + hi, n - 1) << "interval is symmetric, n=" << n;
        EXPECT_NEAR(cov, (double)e.coverage, 1e-12) << "n=" << n;
        if (n >= 6)
            EXPECT_GE(cov, 0.95) << "n=" << n;
        else
            EXPECT_LT(cov, 0.95) << "n=" << n;
    }
}

TEST(MedianCi, LargeNStaysInsideAndNarrows)
{
    size_t lo = 0, hi = 0;
    double cov = 0;
    mg_median_ci_ranks(10000, 0.95, &lo, &hi, &cov);
    // Normal approximation: n/2 -+ 1.96 sqrt(n)/2 = 5000 -+ 98.
    EXPECT_EQ(lo + hi, 9999u);
    EXPECT_GE(lo, 4895u);
    EXPECT_LE(lo, 4905u);
    EXPECT_GE(cov, 0.95);
    EXPECT_LT(cov, 0.96);
}

TEST(MedianCi, StatsUseTheseRanks)
{
    std::vector<double> x;
    for (int i = 0; i < 20; ++i)
        x.push_back(100.0 + i); // sorted: x[k] = 100 + k
    mg_stats s = compute(x);
    EXPECT_EQ(s.ci95_low, 105.0);
    EXPECT_EQ(s.ci95_high, 114.0);
}

// ---- relative half-width -----------------------------------------------------

TEST(Stats, RelHalfwidthIsHalfCiOverMedian)
{
    mg_stats s{};
    s.median = 4.0;
    s.ci95_low = 3.0;
    s.ci95_high = 5.0;
    EXPECT_EQ(mg_stats_rel_halfwidth(&s), 0.25);
}

TEST(Stats, RelHalfwidthUsesAbsoluteMedian)
{
    mg_stats s{};
    s.median = -4.0;
    s.ci95_low = -5.0;
    s.ci95_high = -3.0;
    EXPECT_EQ(mg_stats_rel_halfwidth(&s), 0.25);
}

TEST(Stats, RelHalfwidthOfZeroMedianIsInfinite)
{
    mg_stats s = compute({0, 0, 0});
    EXPECT_TRUE(std::isinf(mg_stats_rel_halfwidth(&s)));
    EXPECT_GT(mg_stats_rel_halfwidth(&s), 0.0);
}

TEST(Stats, ChosenPercentilesComeFromTheSortedSamples)
{
    const double x[] = {4.0, 1.0, 3.0, 2.0, 5.0}; // sorted 1..5: h = 4 p
    const double pct[] = {25.0, 62.5, 99.0, 100.0};
    double v[4];
    mg_stats s;
    ASSERT_EQ(mg_stats_compute_pct(x, 5, pct, 4, v, &s), 0);
    EXPECT_DOUBLE_EQ(v[0], 2.0);
    EXPECT_DOUBLE_EQ(v[1], 3.5);
    EXPECT_DOUBLE_EQ(v[2], 4.96);
    EXPECT_DOUBLE_EQ(v[3], 5.0);
    EXPECT_DOUBLE_EQ(s.median, 3.0);
    EXPECT_EQ(x[0], 4.0); // the input is left alone
}
