/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_compute: the calibrated computation.
#include "mg_compute.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>

namespace
{

// A fake machine: the clock advances only when the fake spin "runs", by
// seconds_per_unit per unit, plus an optional disturbance on one run.
struct FakeMachine {
    double t = 0.0;
    double seconds_per_unit = 1e-9;
    int runs = 0;
    int slow_run = -1; // this run takes slow_factor times longer
    double slow_factor = 1.0;
};

FakeMachine *machine = nullptr;

double fake_now(void *ctx) { return static_cast<FakeMachine *>(ctx)->t; }

uint64_t fake_spin(uint64_t units, uint64_t seed)
{
    double f = machine->runs == machine->slow_run ? machine->slow_factor : 1.0;
    machine->t += (double)units * machine->seconds_per_unit * f;
    machine->runs++;
    return seed;
}

uint64_t frozen_spin(uint64_t units, uint64_t seed)
{
    (void)units;
    return seed;
}

} // namespace

TEST(Compute, CalibrationFindsTheRateOfAStableMachine)
{
    FakeMachine m;
    machine = &m;
    mg_compute_calib c{};
    ASSERT_EQ(mg_compute_calibrate(&c, mg_clock{fake_now, &m}, fake_spin, 1e-3, 5), 0);
    // 1 ns per unit: the first power of two lasting >= 1 ms is 2^20 units
    EXPECT_EQ(c.units, UINT64_C(1) << 20);
    EXPECT_DOUBLE_EQ(c.units_per_s, 1e9);
    EXPECT_DOUBLE_EQ(c.rel_error, 0.0);
    EXPECT_EQ(mg_compute_units(&c, 1e-6), 1000u);
}

TEST(Compute, OneDisturbedRepeatIsTheReportedErrorNotTheRate)
{
    FakeMachine m;
    m.slow_run = 23; // 21 doubling runs (2^0..2^20), then repeats 21..25
    m.slow_factor = 1.5;
    machine = &m;
    mg_compute_calib c{};
    ASSERT_EQ(mg_compute_calibrate(&c, mg_clock{fake_now, &m}, fake_spin, 1e-3, 5), 0);
    EXPECT_DOUBLE_EQ(c.units_per_s, 1e9); // the median ignores the slow repeat
    EXPECT_NEAR(c.rel_error, 0.5, 1e-12);
}

TEST(Compute, AFrozenClockIsAnErrorNotAnEndlessLoop)
{
    FakeMachine m;
    mg_compute_calib c{};
    EXPECT_EQ(mg_compute_calibrate(&c, mg_clock{fake_now, &m}, frozen_spin, 1e-3, 3), -EINVAL);
}

TEST(Compute, UnitsRoundAndNeverGoNegative)
{
    mg_compute_calib c{};
    c.units_per_s = 2.5e8;
    EXPECT_EQ(mg_compute_units(&c, 1e-6), 250u);
    EXPECT_EQ(mg_compute_units(&c, 0.0), 0u);
    EXPECT_EQ(mg_compute_units(&c, -1.0), 0u);
}

TEST(Compute, SpinIsDeterministicAndDependsOnUnitsAndSeed)
{
    EXPECT_EQ(mg_compute_spin(1000, 7), mg_compute_spin(1000, 7));
    EXPECT_NE(mg_compute_spin(1000, 7), mg_compute_spin(1001, 7));
    EXPECT_NE(mg_compute_spin(1000, 7), mg_compute_spin(1000, 8));
    EXPECT_EQ(mg_compute_spin(0, 6), 7u); // the seed with its low bit set
}
