/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_policy, driven by a fake clock.
#include "mg_policy.h"
#include "policy_fake.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace
{

// Sum of the iterations of all samples of a fixed-mode plan, checking every
// sample but the last has block_iters and the last is in [1, block_iters].
long long fixed_total(const mg_policy &p, size_t *samples)
{
    long long total = 0;
    size_t i = 0;
    for (long b; (b = mg_policy_block_iters(&p, i)) != 0; ++i) {
        EXPECT_GT(b, 0);
        EXPECT_LE(b, p.block_iters);
        if (i + 1 < p.planned) {
            EXPECT_EQ(b, p.block_iters) << "sample " << i;
        }
        total += b;
        if (i > 100000000)
            break;
    }
    *samples = i;
    return total;
}

} // namespace

// ---- configuration -----------------------------------------------------------

TEST(PolicyCfg, DefaultsAreDocumentedValues)
{
    mg_policy_cfg cfg = defaults();
    EXPECT_EQ(cfg.warmup_iters, -1);
    EXPECT_EQ(cfg.iterations, 0);
    EXPECT_EQ(cfg.precision, 0.01);
    EXPECT_EQ(cfg.budget_s, 1.0);
    EXPECT_EQ(cfg.warmup_s, 0.02);
    EXPECT_EQ(cfg.warmup_max, 1000);
    EXPECT_EQ(cfg.min_samples, 10u);
    EXPECT_EQ(cfg.max_samples, 10000u);
    EXPECT_EQ(cfg.min_sample_s, 1e-5);
    EXPECT_EQ(cfg.precision_rule, 1);
}

TEST(PolicyCfg, DefaultsPassTheCheck)
{
    mg_policy_cfg cfg = defaults();
    char err[128] = "";
    EXPECT_EQ(mg_policy_cfg_check(&cfg, err, sizeof err), 0);
    EXPECT_STREQ(err, "");
}

TEST(PolicyCfg, CheckRejectsBadConfigs)
{
    struct Case {
        const char *what;
        void (*mutate)(mg_policy_cfg *);
        const char *msg_part;
    };
    const Case cases[] = {
        {"precision 0", [](mg_policy_cfg *c) { c->precision = 0.0; }, "precision"},
        {"precision 1", [](mg_policy_cfg *c) { c->precision = 1.0; }, "precision"},
        {"precision negative", [](mg_policy_cfg *c) { c->precision = -0.1; }, "precision"},
        {"precision NaN", [](mg_policy_cfg *c) { c->precision = NAN; }, "precision"},
        {"budget 0", [](mg_policy_cfg *c) { c->budget_s = 0.0; }, "budget"},
        {"budget negative", [](mg_policy_cfg *c) { c->budget_s = -1.0; }, "budget"},
        {"budget NaN", [](mg_policy_cfg *c) { c->budget_s = NAN; }, "budget"},
        {"min_samples 0", [](mg_policy_cfg *c) { c->min_samples = 0; }, "min-samples"},
        {"max below min",
         [](mg_policy_cfg *c) {
             c->min_samples = 20;
             c->max_samples = 19;
         },
         "max-samples"},
        {"iterations negative", [](mg_policy_cfg *c) { c->iterations = -1; }, "iterations"},
    };
    for (const Case &k : cases) {
        mg_policy_cfg cfg = defaults();
        k.mutate(&cfg);
        char err[128] = "";
        EXPECT_EQ(mg_policy_cfg_check(&cfg, err, sizeof err), -EINVAL) << k.what;
        EXPECT_NE(std::string(err).find(k.msg_part), std::string::npos) << k.what << ": " << err;
    }
}

TEST(PolicyCfg, CheckAcceptsEdgeValues)
{
    mg_policy_cfg cfg = defaults();
    cfg.min_samples = cfg.max_samples = 1;
    cfg.precision = 0.999;
    cfg.iterations = 1;
    char err[128];
    EXPECT_EQ(mg_policy_cfg_check(&cfg, err, sizeof err), 0) << err;
}

TEST(Policy, StopReasonNames)
{
    EXPECT_STREQ(mg_stop_reason_name(MG_STOP_NONE), "none");
    EXPECT_STREQ(mg_stop_reason_name(MG_STOP_PRECISION), "precision");
    EXPECT_STREQ(mg_stop_reason_name(MG_STOP_BUDGET), "budget");
    EXPECT_STREQ(mg_stop_reason_name(MG_STOP_CAP), "max-samples");
    EXPECT_STREQ(mg_stop_reason_name(MG_STOP_FIXED), "fixed");
    EXPECT_STREQ(mg_stop_reason_name(static_cast<mg_stop_reason>(42)), "none");
}

// ---- warm-up -----------------------------------------------------------------

TEST(PolicyWarmup, FixedCountIsOneChunkThenZero)
{
    FakeClock fc{100.0};
    mg_policy_cfg cfg = defaults();
    cfg.warmup_iters = 5;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    EXPECT_EQ(mg_policy_warmup_next(&p), 5);
    mg_policy_warmup_record(&p, 5, 0.5);
    EXPECT_EQ(mg_policy_warmup_next(&p), 0);
    EXPECT_EQ(mg_policy_warmup_next(&p), 0);
    EXPECT_EQ(p.warm_done, 5);
}

TEST(PolicyWarmup, FixedZeroIsOverAtOnce)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.warmup_iters = 0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    EXPECT_EQ(mg_policy_warmup_next(&p), 0);
    EXPECT_EQ(mg_policy_warmup_next(&p), 0);
}

TEST(PolicyWarmup, FixedCountIgnoresTheClock)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.warmup_iters = 7;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    fc.t = 1000.0; // far past warmup_s
    EXPECT_EQ(mg_policy_warmup_next(&p), 7);
}

TEST(PolicyWarmup, TimedChunksDoubleUntilWarmupMax)
{
    FakeClock fc{50.0}; // the clock never advances: only warmup_max stops it
    mg_policy_cfg cfg = defaults();
    cfg.warmup_max = 20;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    std::vector<long> chunks;
    for (long c; (c = mg_policy_warmup_next(&p)) != 0;) {
        chunks.push_back(c);
        mg_policy_warmup_record(&p, c, 0.0);
        ASSERT_LT(chunks.size(), 100u);
    }
    // 1+2+4+8 = 15, then the last chunk is cut to the 5 left
    EXPECT_EQ(chunks, (std::vector<long>{1, 2, 4, 8, 5}));
    EXPECT_EQ(p.warm_done, 20);
    EXPECT_EQ(mg_policy_warmup_next(&p), 0);
}

TEST(PolicyWarmup, TimedChunksStopWhenWarmupTimeHasPassed)
{
    FakeClock fc{10.0};
    mg_policy_cfg cfg = defaults();
    cfg.warmup_s = 0.02;
    cfg.warmup_max = 1000000;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    const double per_iter = 0.001;
    std::vector<long> chunks;
    for (long c; (c = mg_policy_warmup_next(&p)) != 0;) {
        chunks.push_back(c);
        fc.t += per_iter * (double)c;
        mg_policy_warmup_record(&p, c, per_iter * (double)c);
        ASSERT_LT(chunks.size(), 100u);
    }
    // elapsed after each chunk: 1, 3, 7, 15, 31 ms; 31 ms >= 20 ms ends it
    EXPECT_EQ(chunks, (std::vector<long>{1, 2, 4, 8, 16}));
    EXPECT_EQ(p.warm_done, 31);
    EXPECT_EQ(p.warm_last_chunk, 16);
}

TEST(PolicyWarmup, TimedWarmupWithTimeAlreadyPassedDoesNothing)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    fc.t = cfg.warmup_s; // exactly warmup_s has elapsed
    EXPECT_EQ(mg_policy_warmup_next(&p), 0);
}

TEST(PolicyWarmup, TimedWarmupBeforeAnyTimePassesStartsWithOne)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    EXPECT_EQ(mg_policy_warmup_next(&p), 1);
}

// ---- calibration -------------------------------------------------------------

TEST(PolicyCalibrate, BlockIsCeilOfMinSampleOverPerIterTime)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_sample_s = 1e-5;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_warmup_record(&p, 8, 8 * 3e-6); // 3 us per iteration
    mg_policy_calibrate(&p, 0.0);
    EXPECT_EQ(p.block_iters, 4); // ceil(10 / 3)
}

TEST(PolicyCalibrate, ExactRatioIsNotRoundedUp)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_sample_s = 1.0 / 1024.0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_calibrate(&p, 1.0 / 16384.0);
    EXPECT_EQ(p.block_iters, 16);
}

TEST(PolicyCalibrate, UsesOnlyTheLastWarmupChunk)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_sample_s = 1.0 / 1024.0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_warmup_record(&p, 1, 1.0);          // a slow first iteration
    mg_policy_warmup_record(&p, 4, 4.0 / 4096.0); // then 1/4096 s each
    mg_policy_calibrate(&p, 0.0);
    EXPECT_EQ(p.block_iters, 4);
}

TEST(PolicyCalibrate, ExplicitPerIterTimeOverridesWarmup)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_sample_s = 1.0 / 1024.0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_warmup_record(&p, 8, 8.0 / 4096.0); // would give 4
    mg_policy_calibrate(&p, 1.0 / 32768.0);       // gives 32
    EXPECT_EQ(p.block_iters, 32);
}

TEST(PolicyCalibrate, SlowIterationsGetBlocksOfOne)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_warmup_record(&p, 2, 2 * 1e-3);
    mg_policy_calibrate(&p, 0.0);
    EXPECT_EQ(p.block_iters, 1);
}

TEST(PolicyCalibrate, NoEstimateGivesBlocksOfOne)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.warmup_iters = 0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    EXPECT_EQ(mg_policy_warmup_next(&p), 0);
    mg_policy_calibrate(&p, 0.0);
    EXPECT_EQ(p.block_iters, 1);
    EXPECT_EQ(p.check_every, 1u);
}

TEST(PolicyCalibrate, ZeroTimeWarmupGivesBlocksOfOne)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_warmup_record(&p, 16, 0.0); // clock too coarse to see it
    mg_policy_calibrate(&p, 0.0);
    EXPECT_EQ(p.block_iters, 1);
}

TEST(PolicyCalibrate, AbsurdlyFastIterationsCapTheBlockAtOneBillion)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_sample_s = 1.0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_calibrate(&p, 1e-12);
    EXPECT_EQ(p.block_iters, 1000000000L);
}

TEST(PolicyCalibrate, ChecksAboutEveryCheckPeriod)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_sample_s = 1.0 / 1024.0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_calibrate(&p, 1.0 / 16384.0); // samples of 1/1024 s
    EXPECT_EQ(p.block_iters, 16);
    EXPECT_EQ(p.check_every, 20u); // floor(0.02 * 1024)
}

TEST(PolicyCalibrate, RestartsTheBudgetClock)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.budget_s = 1.0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    fc.t = 5.0; // a long warm-up must not eat the sampling budget
    mg_policy_calibrate(&p, 1e-3);
    EXPECT_EQ(p.t_begin_s, 5.0);
    const std::vector<double> spread = {1, 100, 1, 100, 1, 100, 1, 100, 1, 100};
    EXPECT_EQ(mg_policy_check(&p, spread.data(), spread.size()), MG_STOP_NONE);
    fc.t = 6.0;
    EXPECT_EQ(mg_policy_check(&p, spread.data(), spread.size()), MG_STOP_BUDGET);
}

// ---- fixed mode ------------------------------------------------------------------

namespace
{

mg_policy fixed_policy(FakeClock *fc, long n, long block, long max_samples)
{
    mg_policy_cfg cfg = defaults();
    cfg.iterations = n;
    cfg.max_samples = max_samples;
    cfg.min_samples = 1;
    cfg.min_sample_s = (double)block / 1024.0;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(fc));
    mg_policy_calibrate(&p, 1.0 / 1024.0); // block = ceil(min_sample_s * 1024) = block
    return p;
}

} // namespace

TEST(PolicyFixed, DivisibleCountGivesEqualBlocks)
{
    FakeClock fc{0.0};
    mg_policy p = fixed_policy(&fc, 96, 16, 10000);
    EXPECT_EQ(p.block_iters, 16);
    EXPECT_EQ(p.planned, 6u);
    size_t samples;
    EXPECT_EQ(fixed_total(p, &samples), 96);
    EXPECT_EQ(samples, 6u);
    EXPECT_EQ(mg_policy_block_iters(&p, 5), 16);
}

TEST(PolicyFixed, RemainderGoesToTheLastBlock)
{
    FakeClock fc{0.0};
    mg_policy p = fixed_policy(&fc, 100, 16, 10000);
    EXPECT_EQ(p.planned, 7u);
    EXPECT_EQ(mg_policy_block_iters(&p, 0), 16);
    EXPECT_EQ(mg_policy_block_iters(&p, 5), 16);
    EXPECT_EQ(mg_policy_block_iters(&p, 6), 4);
    EXPECT_EQ(mg_policy_block_iters(&p, 7), 0);
    size_t samples;
    EXPECT_EQ(fixed_total(p, &samples), 100);
    EXPECT_EQ(samples, 7u);
}

TEST(PolicyFixed, CountBelowBlockIsOneSampleOfThatCount)
{
    FakeClock fc{0.0};
    mg_policy p = fixed_policy(&fc, 5, 16, 10000);
    EXPECT_EQ(p.block_iters, 5);
    EXPECT_EQ(p.planned, 1u);
    EXPECT_EQ(mg_policy_block_iters(&p, 0), 5);
    EXPECT_EQ(mg_policy_block_iters(&p, 1), 0);
}

TEST(PolicyFixed, OneIterationIsOneSample)
{
    FakeClock fc{0.0};
    mg_policy p = fixed_policy(&fc, 1, 16, 10000);
    size_t samples;
    EXPECT_EQ(fixed_total(p, &samples), 1);
    EXPECT_EQ(samples, 1u);
}

TEST(PolicyFixed, MaxSamplesGrowsBlocksAndKeepsCountExact)
{
    FakeClock fc{0.0};
    mg_policy p = fixed_policy(&fc, 1000000, 1, 10000);
    EXPECT_EQ(p.block_iters, 100);
    EXPECT_EQ(p.planned, 10000u);
    size_t samples;
    EXPECT_EQ(fixed_total(p, &samples), 1000000);
    EXPECT_EQ(samples, 10000u);
}

TEST(PolicyFixed, MaxSamplesWithRemainderKeepsCountExact)
{
    FakeClock fc{0.0};
    mg_policy p = fixed_policy(&fc, 10001, 1, 10000);
    EXPECT_EQ(p.block_iters, 2);
    EXPECT_EQ(p.planned, 5001u);
    EXPECT_EQ(mg_policy_block_iters(&p, 5000), 1);
    size_t samples;
    EXPECT_EQ(fixed_total(p, &samples), 10001);
    EXPECT_LE(samples, 10000u);
}

TEST(PolicyFixed, ManyCountsAndBlocksSumExactly)
{
    FakeClock fc{0.0};
    const long counts[] = {1, 2, 3, 7, 15, 16, 17, 99, 100, 101, 1000, 12345, 999983};
    const long blocks[] = {1, 2, 3, 16, 37, 1000};
    const size_t caps[] = {1, 2, 7, 100, 10000};
    for (long n : counts)
        for (long b : blocks)
            for (size_t cap : caps) {
                mg_policy p = fixed_policy(&fc, n, b, cap);
                size_t samples;
                EXPECT_EQ(fixed_total(p, &samples), n) << n << " " << b << " " << cap;
                EXPECT_EQ(samples, p.planned) << n << " " << b << " " << cap;
                EXPECT_LE(samples, cap) << n << " " << b << " " << cap;
            }
}

TEST(PolicyFixed, CheckSaysFixedOnlyWhenPlanIsDone)
{
    FakeClock fc{0.0};
    mg_policy p = fixed_policy(&fc, 100, 16, 10000);
    std::vector<double> s(7, 1e-6);
    EXPECT_EQ(mg_policy_check(&p, s.data(), 6), MG_STOP_NONE);
    fc.t = 1e6; // the budget does not apply in fixed mode
    EXPECT_EQ(mg_policy_check(&p, s.data(), 6), MG_STOP_NONE);
    EXPECT_EQ(mg_policy_check(&p, s.data(), 7), MG_STOP_FIXED);
}

TEST(PolicyFixed, IsNeverACheckpoint)
{
    FakeClock fc{0.0};
    mg_policy p = fixed_policy(&fc, 100, 16, 10000);
    for (size_t n = 0; n < 50; ++n)
        EXPECT_FALSE(mg_policy_is_checkpoint(&p, n)) << n;
}

// ---- adaptive mode -----------------------------------------------------------

TEST(PolicyBlock, MinBlockItersRaisesACalibratedBlock)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.min_sample_s = 4.0 / 1024.0;
    cfg.min_block_iters = 20;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_calibrate(&p, 1.0 / 1024.0); // the timer rule alone asks for 4
    EXPECT_EQ(p.block_iters, 20);
    EXPECT_EQ(mg_policy_block_iters(&p, 0), 20);
}

TEST(PolicyBlock, MinBlockItersNeverExceedsAFixedCount)
{
    FakeClock fc{0.0};
    mg_policy_cfg cfg = defaults();
    cfg.iterations = 7;
    cfg.min_block_iters = 20;
    mg_policy p;
    mg_policy_begin(&p, &cfg, clock_of(&fc));
    mg_policy_calibrate(&p, 1.0);
    EXPECT_EQ(p.planned, 1u);
    EXPECT_EQ(mg_policy_block_iters(&p, 0), 7);
    EXPECT_EQ(mg_policy_block_iters(&p, 1), 0);
}

TEST(PolicySchedule, AFollowerTakesTheSameSamplesAsTheDecider)
{
    // rank 0 calibrates; another rank, begun with the same configuration,
    // follows the schedule it receives as plain numbers
    FakeClock fc{0.0}, other{123.0};
    mg_policy decider = fixed_policy(&fc, 100, 16, 10000);
    mg_policy_cfg cfg = decider.cfg;
    mg_policy follower;
    mg_policy_begin(&follower, &cfg, clock_of(&other));
    const mg_policy_schedule s = mg_policy_get_schedule(&decider);
    EXPECT_EQ(s.block_iters, 16);
    EXPECT_EQ(s.planned, 7u);
    EXPECT_EQ(s.last_block_iters, 4);
    mg_policy_follow(&follower, &s);
    for (size_t i = 0; i < 8; ++i)
        EXPECT_EQ(mg_policy_block_iters(&follower, i), mg_policy_block_iters(&decider, i)) << i;
    EXPECT_EQ(mg_policy_block_iters(&follower, 7), 0);
}
