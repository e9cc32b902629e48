/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_coll: reduction inputs and expected values,
// v-variant counts and displacements, the overlap formula.
#include "mg_coll.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

// The closed forms must equal the brute-force reduction of the inputs.
static double brute(mg_red_op op, mg_elem_type t, int nranks, int n, uint64_t i)
{
    double acc = mg_red_input(op, nranks, 0, i);
    for (int r = 1; r < n; ++r) {
        double v = mg_red_input(op, nranks, r, i);
        switch (op) {
        case MG_RED_SUM: acc += v; break;
        case MG_RED_PROD: acc *= v; break;
        case MG_RED_MAX: acc = std::max(acc, v); break;
        default: acc = std::min(acc, v);
        }
    }
    if (t == MG_ELEM_CHAR) {
        acc = std::fmod(acc, 256.0);
        if (acc >= 128.0)
            acc -= 256.0;
    }
    return acc;
}

TEST(Coll, ExpectedValuesMatchTheBruteForceReduction)
{
    const int sizes[] = {1, 2, 3, 4, 5, 7, 64, 99, 100, 101, 250};
    for (int op = MG_RED_SUM; op <= MG_RED_MIN; ++op)
        for (int P : sizes)
            for (int n = 1; n <= P; n += (P > 20 ? 7 : 1))
                for (uint64_t i = 0; i < 300; i += 7)
                    for (int t = MG_ELEM_CHAR; t <= MG_ELEM_LONG; ++t)
                        ASSERT_EQ(mg_red_expected((mg_red_op)op, (mg_elem_type)t, P, n, i),
                                  brute((mg_red_op)op, (mg_elem_type)t, P, n, i))
                            << mg_red_op_names[op] << " P=" << P << " n=" << n << " i=" << i;
}

TEST(Coll, InputsFitEveryType)
{
    for (int op = MG_RED_SUM; op <= MG_RED_MIN; ++op)
        for (int r = 0; r < 300; r += 3)
            for (uint64_t i = 0; i < 50; ++i) {
                double v = mg_red_input((mg_red_op)op, 300, r, i);
                EXPECT_GE(v, 0.0);
                EXPECT_LE(v, 127.0);
            }
}

TEST(Coll, SumOfCharWrapsLikeASignedChar)
{
    // 256 ranks, element 0: sum of (r mod 4) = 64 x 6 = 384 -> 128 -> -128
    EXPECT_EQ(mg_red_expected(MG_RED_SUM, MG_ELEM_CHAR, 256, 256, 0), -128.0);
    EXPECT_EQ(mg_red_expected(MG_RED_SUM, MG_ELEM_INT, 256, 256, 0), 384.0);
}

TEST(Coll, VCountsAreUnequalAndNeverAboveTheCount)
{
    EXPECT_EQ(mg_coll_vcount(10, 0, 0), 10u);
    EXPECT_EQ(mg_coll_vcount(10, 1, 0), 5u);
    EXPECT_EQ(mg_coll_vcount(11, 1, 0), 6u);
    EXPECT_EQ(mg_coll_vcount(11, 2, 1), 6u);
    EXPECT_EQ(mg_coll_vcount(11, 1, 2), mg_coll_vcount(11, 2, 1));
    EXPECT_EQ(mg_coll_vcount(1, 1, 0), 1u);
}

TEST(Coll, DisplacementsArePackedPrefixSums)
{
    for (uint64_t count : {0u, 1u, 7u, 8u, 1000u}) {
        uint64_t d = 0;
        for (int r = 0; r < 50; ++r) {
            EXPECT_EQ(mg_coll_vdispl(count, r), d) << count << " " << r;
            d += mg_coll_vcount(count, r, 0);
        }
    }
}

TEST(Coll, OverlapIsImbNbcsFormula)
{
    // nothing hidden: overall = pure + cpu
    EXPECT_DOUBLE_EQ(mg_coll_overlap_pct(10.0, 10.0, 20.0), 0.0);
    // fully hidden
    EXPECT_DOUBLE_EQ(mg_coll_overlap_pct(10.0, 10.0, 10.0), 100.0);
    // half hidden
    EXPECT_DOUBLE_EQ(mg_coll_overlap_pct(10.0, 10.0, 15.0), 50.0);
    // divided by the smaller of the two
    EXPECT_DOUBLE_EQ(mg_coll_overlap_pct(10.0, 4.0, 12.0), 50.0);
}

TEST(Coll, OverlapIsClampedAndUndefinedWithoutTimes)
{
    EXPECT_DOUBLE_EQ(mg_coll_overlap_pct(10.0, 10.0, 25.0), 0.0);
    EXPECT_DOUBLE_EQ(mg_coll_overlap_pct(10.0, 10.0, 5.0), 100.0);
    EXPECT_TRUE(std::isnan(mg_coll_overlap_pct(0.0, 10.0, 5.0)));
    EXPECT_TRUE(std::isnan(mg_coll_overlap_pct(10.0, NAN, 5.0)));
    EXPECT_TRUE(std::isnan(mg_coll_overlap_pct(10.0, 10.0, 0.0)));
}

TEST(Coll, NamesAndSizes)
{
    EXPECT_STREQ(mg_elem_type_names[MG_ELEM_DOUBLE], "double");
    EXPECT_STREQ(mg_red_op_names[MG_RED_MIN], "min");
    EXPECT_STREQ(mg_elem_type_names[MG_ELEM_LONG], "long");
    EXPECT_EQ(mg_elem_type_names[5], nullptr);
    EXPECT_EQ(mg_elem_size(MG_ELEM_LONG), 8u);
    EXPECT_EQ(mg_elem_size(MG_ELEM_CHAR), 1u);
    EXPECT_EQ(mg_elem_size(MG_ELEM_DOUBLE), 8u);
}

// Elements of every type hold the small whole numbers exactly; a char wraps
// modulo 256 into a signed char.
TEST(Coll, ElementsStoreAndLoadExactly)
{
    unsigned char buf[64];
    for (int t = MG_ELEM_CHAR; t <= MG_ELEM_LONG; ++t) {
        mg_elem_store(t, buf, 0, -3.0);
        mg_elem_store(t, buf, 1, 100.0);
        EXPECT_EQ(mg_elem_load(t, buf, 0), -3.0) << t;
        EXPECT_EQ(mg_elem_load(t, buf, 1), 100.0) << t;
    }
    mg_elem_store(MG_ELEM_CHAR, buf, 2, 300.0);
    EXPECT_EQ(mg_elem_load(MG_ELEM_CHAR, buf, 2), 44.0);
    mg_elem_store(MG_ELEM_CHAR, buf, 3, 200.0);
    EXPECT_EQ(mg_elem_load(MG_ELEM_CHAR, buf, 3), -56.0);
    mg_elem_store(MG_ELEM_DOUBLE, buf, 4, 0.1);
    EXPECT_EQ(mg_elem_load(MG_ELEM_DOUBLE, buf, 4), 0.1);
}

// A buffer at any byte (MPICH's MPI_Win_allocate under ASan gave a base 4
// bytes off a double's alignment): every type stores and loads there, and
// UBSan (the suite's sanitizer stage) finds no misaligned access.
TEST(Coll, ElementsAtAnOddAddress)
{
    alignas(16) unsigned char buf[80] = {0};
    for (int t = MG_ELEM_CHAR; t <= MG_ELEM_LONG; ++t)
        for (int off = 1; off < 8; ++off) {
            mg_elem_store(t, buf + off, 2, -7.0);
            EXPECT_EQ(mg_elem_load(t, buf + off, 2), -7.0) << t << " " << off;
        }
    double d = 0.0;
    mg_elem_store(MG_ELEM_DOUBLE, buf + 4, 1, 2.5);
    memcpy(&d, buf + 4 + sizeof d, sizeof d);
    EXPECT_EQ(d, 2.5);
}

// nccl-tests' conversion: S / t, and the bus factor of each kind.
TEST(CollBusBw, NcclTestsFactorsOnMpigaugeSizes)
{
    double alg, bus;
    mg_coll_bus_bw(MG_BUS_ALLRED, 1000000, 4, 1000.0, &alg, &bus); // 1 MB in 1 ms
    EXPECT_DOUBLE_EQ(alg, 1.0);
    EXPECT_DOUBLE_EQ(bus, 1.5);                                    // 2 (P - 1) / P
    mg_coll_bus_bw(MG_BUS_BLOCKS, 1000000, 4, 1000.0, &alg, &bus); // S = 4 blocks
    EXPECT_DOUBLE_EQ(alg, 4.0);
    EXPECT_DOUBLE_EQ(bus, 3.0); // (P - 1) / P
    mg_coll_bus_bw(MG_BUS_WHOLE, 500000, 8, 250.0, &alg, &bus);
    EXPECT_DOUBLE_EQ(alg, 2.0);
    EXPECT_DOUBLE_EQ(bus, 2.0);
    mg_coll_bus_bw(MG_BUS_ALLRED, 1000000, 1, 1000.0, &alg, &bus); // one rank moves nothing
    EXPECT_DOUBLE_EQ(bus, 0.0);
    mg_coll_bus_bw(MG_BUS_NONE, 1000000, 4, 1000.0, &alg, &bus);
    EXPECT_TRUE(std::isnan(alg) && std::isnan(bus));
    mg_coll_bus_bw(MG_BUS_BLOCKS, 1000000, 4, 0.0, &alg, &bus); // no time: no figure
    EXPECT_TRUE(std::isnan(alg) && std::isnan(bus));
}
