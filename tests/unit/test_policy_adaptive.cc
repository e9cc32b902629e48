/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_policy's adaptive mode, driven by a fake clock.
#include "mg_policy.h"
#include "policy_fake.h"

#include <gtest/gtest.h>

#include <vector>

namespace
{

// Sample as the driver does until the policy stops: sample i is value(i)
// and advances the clock by dt. Returns the reason; samples keeps them.
template <typename F>
mg_stop_reason sample_until_stop(mg_policy *p, FakeClock *fc, double dt, F value,
                                 std::vector<double> *samples)
{
    for (size_t i = 0; mg_policy_block_iters(p, i) != 0; ++i) {
        samples->push_back(value(i));
        fc->t += dt;
        size_t n = samples->size();
        mg_stop_reason why;
        if (mg_policy_is_checkpoint(p, n) &&
            (why = mg_policy_check(p, samples->data(), n)) != MG_STOP_NONE)
            return why;
    }
    return MG_STOP_NONE;
}

mg_policy adaptive_policy(FakeClock *fc, size_t min_samples, size_t max_samples)
{
    mg_policy_cfg cfg = defaults();
    cfg.min_samples = min_samples;
    cfg.max_samples = max_samples;
    cfg.budget_s = 1.0;
    cfg.precision = 0.01;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(fc));
    mg_policy_calibrate(&p, 1.0); // slow: blocks of 1, a check every sample
    return p;
}

} // namespace

TEST(PolicyAdaptive, BlockIsConstantUntilMaxSamples)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 10, 50);
    EXPECT_EQ(mg_policy_block_iters(&p, 0), 1);
    EXPECT_EQ(mg_policy_block_iters(&p, 49), 1);
    EXPECT_EQ(mg_policy_block_iters(&p, 50), 0);
}

TEST(PolicyAdaptive, NoCheckpointBeforeMinSamples)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 10, 1000);
    for (size_t n = 0; n < 10; ++n)
        EXPECT_FALSE(mg_policy_is_checkpoint(&p, n)) << n;
    EXPECT_TRUE(mg_policy_is_checkpoint(&p, 10));
    EXPECT_TRUE(mg_policy_is_checkpoint(&p, 11));
}

namespace
{

// The sample counts at which is_checkpoint says yes, asking once per sample.
std::vector<size_t> checkpoints_up_to(mg_policy *p, size_t last)
{
    std::vector<size_t> at;
    for (size_t n = 1; n <= last; ++n)
        if (mg_policy_is_checkpoint(p, n))
            at.push_back(n);
    return at;
}

} // namespace

TEST(PolicyAdaptive, CheckpointsGrowByTenPercentUpToCheckEvery)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_samples = 10;
    cfg.min_sample_s = 1.0 / 1024.0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_calibrate(&p, 1.0 / 16384.0); // samples of 1/1024 s
    ASSERT_EQ(p.check_every, 20u);          // floor(20 ms / (1/1024 s))
    // every sample up to 20, then steps of n/10, at most 20
    const std::vector<size_t> want = {10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,
                                      22,  24,  26,  28,  30,  33,  36,  39,  42,  46,  50,
                                      55,  60,  66,  72,  79,  86,  94,  103, 113, 124, 136,
                                      149, 163, 179, 196, 215, 235, 255, 275, 295};
    EXPECT_EQ(checkpoints_up_to(&p, 300), want);
}

TEST(PolicyAdaptive, SlowSamplesAreCheckedEveryTime)
{
    FakeClock fc{0.0};
    mg_policy p;
    mg_policy_cfg cfg = defaults();
    cfg.min_samples = 3;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_calibrate(&p, 0.5); // 0.5 s per sample: above the check period
    EXPECT_EQ(p.check_every, 1u);
    std::vector<size_t> want;
    for (size_t n = 3; n <= 500; ++n)
        want.push_back(n);
    EXPECT_EQ(checkpoints_up_to(&p, 500), want);
}

TEST(PolicyAdaptive, BeginRestartsTheCheckSchedule)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_samples = 10;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_calibrate(&p, 1.0);
    checkpoints_up_to(&p, 100);
    mg_policy_begin(&p, &cfg, clock_of(&fc)); // next message size
    mg_policy_calibrate(&p, 1.0);
    EXPECT_FALSE(mg_policy_is_checkpoint(&p, 9));
    EXPECT_TRUE(mg_policy_is_checkpoint(&p, 10));
}

TEST(PolicyAdaptive, IdenticalSamplesStopOnPrecisionAtFirstCheckpoint)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 10, 1000);
    std::vector<double> samples;
    mg_stop_reason why = sample_until_stop(
        &p, &fc, 1e-3, [](size_t) { return 2.5e-6; }, &samples);
    EXPECT_EQ(why, MG_STOP_PRECISION);
    EXPECT_EQ(samples.size(), 10u);
}

TEST(PolicyAdaptive, PrecisionIsNotCheckedBeforeMinSamples)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 10, 1000);
    std::vector<double> s(9, 1.0);
    EXPECT_EQ(mg_policy_check(&p, s.data(), s.size()), MG_STOP_NONE);
    s.push_back(1.0);
    EXPECT_EQ(mg_policy_check(&p, s.data(), s.size()), MG_STOP_PRECISION);
}

TEST(PolicyAdaptive, TightButNotTightEnoughDoesNotStop)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 10, 1000);
    // sorted: 100..109; CI = [101, 108], median 104.5: half-width 3.5/104.5 > 1%
    std::vector<double> s = {100, 101, 102, 103, 104, 105, 106, 107, 108, 109};
    EXPECT_EQ(mg_policy_check(&p, s.data(), s.size()), MG_STOP_NONE);
    // within 1%: CI [1000, 1002], median 1001, half-width 1/1001
    std::vector<double> t = {999, 1000, 1001, 1001, 1001, 1001, 1001, 1001, 1002, 1003};
    EXPECT_EQ(mg_policy_check(&p, t.data(), t.size()), MG_STOP_PRECISION);
}

TEST(PolicyAdaptive, SpreadSamplesStopOnBudget)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 10, 1000);
    std::vector<double> samples;
    // 30 ms per sample: 1 s budget spent after 34 samples
    mg_stop_reason why = sample_until_stop(
        &p, &fc, 0.03, [](size_t i) { return i % 2 ? 1e-6 : 9e-6; }, &samples);
    EXPECT_EQ(why, MG_STOP_BUDGET);
    EXPECT_EQ(samples.size(), 34u);
}

TEST(PolicyAdaptive, BudgetIsMeasuredFromCalibrate)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 2, 1000);
    const double s[] = {1.0, 9.0};
    fc.t = 0.999;
    EXPECT_EQ(mg_policy_check(&p, s, 2), MG_STOP_NONE);
    fc.t = 1.0;
    EXPECT_EQ(mg_policy_check(&p, s, 2), MG_STOP_BUDGET);
}

TEST(PolicyAdaptive, MaxSamplesStopsWithCap)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 10, 40);
    std::vector<double> samples;
    // never precise; the clock stands still
    mg_stop_reason why = sample_until_stop(
        &p, &fc, 0.0, [](size_t i) { return i % 2 ? 1e-6 : 9e-6; }, &samples);
    EXPECT_EQ(why, MG_STOP_CAP);
    EXPECT_EQ(samples.size(), 40u);
}

TEST(PolicyAdaptive, CapWinsOverPrecisionAndBudget)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 5, 10);
    std::vector<double> s(10, 1.0);
    fc.t = 100.0;
    EXPECT_EQ(mg_policy_check(&p, s.data(), s.size()), MG_STOP_CAP);
}

TEST(PolicyAdaptive, PrecisionWinsOverBudget)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 5, 100);
    std::vector<double> s(10, 1.0);
    fc.t = 100.0;
    EXPECT_EQ(mg_policy_check(&p, s.data(), s.size()), MG_STOP_PRECISION);
}

TEST(PolicyAdaptive, ZeroSamplesNeverStopOnPrecision)
{
    FakeClock fc{0.0};
    mg_policy p = adaptive_policy(&fc, 5, 100);
    std::vector<double> s(10, 0.0); // median 0: relative half-width is infinite
    EXPECT_EQ(mg_policy_check(&p, s.data(), s.size()), MG_STOP_NONE);
}

TEST(PolicyAdaptive, WithoutThePrecisionRuleOnlyBudgetAndCapStop)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_samples = 5;
    cfg.max_samples = 20;
    cfg.precision_rule = 0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_calibrate(&p, 1.0);
    std::vector<double> s(10, 1.0); // identical: the precision rule would stop
    EXPECT_EQ(mg_policy_check(&p, s.data(), s.size()), MG_STOP_NONE);
    fc.t = 0.999;
    EXPECT_EQ(mg_policy_check(&p, s.data(), s.size()), MG_STOP_NONE);
    fc.t = 1.0;
    EXPECT_EQ(mg_policy_check(&p, s.data(), s.size()), MG_STOP_BUDGET);
    fc.t = 0.0;
    std::vector<double> full(20, 1.0);
    EXPECT_EQ(mg_policy_check(&p, full.data(), full.size()), MG_STOP_CAP);
}
