/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_pattern: deterministic validation patterns.
#include "mg_pattern.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

namespace
{

const size_t kLengths[] = {0, 1, 7, 8, 9, 15, 16, 17, 4096, 4099};

} // namespace

TEST(Pattern, FillThenCheckPassesForEveryLength)
{
    const uint64_t seed = mg_pattern_seed(3, 4096, 17);
    for (size_t len : kLengths) {
        std::vector<unsigned char> buf(len + 1, 0xAA);
        mg_pattern_fill(buf.data(), len, seed);
        size_t bad = 12345;
        EXPECT_EQ(mg_pattern_check(buf.data(), len, seed, &bad), 0) << "len " << len;
        EXPECT_EQ(bad, 12345u) << "first_bad is untouched on success, len " << len;
        EXPECT_EQ(buf[len], 0xAA) << "fill wrote past the end, len " << len;
    }
}

TEST(Pattern, ZeroLengthChecksWithoutTouchingTheBuffer)
{
    size_t bad = 7;
    EXPECT_EQ(mg_pattern_check(nullptr, 0, 42, &bad), 0);
    mg_pattern_fill(nullptr, 0, 42);
    EXPECT_EQ(bad, 7u);
}

TEST(Pattern, FlippedByteIsReportedAtItsOffset)
{
    const uint64_t seed = mg_pattern_seed(0, 4096, 0);
    for (size_t len : kLengths) {
        if (len == 0)
            continue;
        std::vector<unsigned char> ref(len);
        mg_pattern_fill(ref.data(), len, seed);
        const size_t offsets[] = {0, len / 2, len - 1, 7 < len ? 7 : len - 1,
                                  8 < len ? 8 : len - 1};
        for (size_t k : offsets) {
            std::vector<unsigned char> buf = ref;
            buf[k] ^= 0x01;
            size_t bad = 99999;
            EXPECT_EQ(mg_pattern_check(buf.data(), len, seed, &bad), -1)
                << "len " << len << " k " << k;
            EXPECT_EQ(bad, k) << "len " << len;
        }
    }
}

TEST(Pattern, FirstOfSeveralBadBytesIsReported)
{
    const uint64_t seed = 12345;
    std::vector<unsigned char> buf(100);
    mg_pattern_fill(buf.data(), buf.size(), seed);
    buf[90] ^= 0xFF;
    buf[41] ^= 0x80;
    buf[60] ^= 0x10;
    size_t bad = 0;
    EXPECT_EQ(mg_pattern_check(buf.data(), buf.size(), seed, &bad), -1);
    EXPECT_EQ(bad, 41u);
}

TEST(Pattern, EveryByteOfTheTailIsChecked)
{
    const uint64_t seed = 99;
    for (size_t k = 4096; k < 4099; ++k) {
        std::vector<unsigned char> buf(4099);
        mg_pattern_fill(buf.data(), buf.size(), seed);
        buf[k] = (unsigned char)(buf[k] + 1);
        size_t bad = 0;
        EXPECT_EQ(mg_pattern_check(buf.data(), buf.size(), seed, &bad), -1);
        EXPECT_EQ(bad, k);
    }
}

TEST(Pattern, ByteAgreesWithFill)
{
    const uint64_t seeds[] = {0, 1, mg_pattern_seed(5, 1024, 3), UINT64_MAX};
    for (uint64_t seed : seeds) {
        std::vector<unsigned char> buf(4099);
        mg_pattern_fill(buf.data(), buf.size(), seed);
        for (size_t i = 0; i < buf.size(); ++i)
            ASSERT_EQ(buf[i], mg_pattern_byte(seed, i)) << "seed " << seed << " off " << i;
    }
}

TEST(Pattern, ShorterFillIsAPrefixOfLongerFill)
{
    const uint64_t seed = mg_pattern_seed(1, 9, 2);
    std::vector<unsigned char> a(9), b(4096);
    mg_pattern_fill(a.data(), a.size(), seed);
    mg_pattern_fill(b.data(), b.size(), seed);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
}

TEST(Pattern, IsDeterministic)
{
    EXPECT_EQ(mg_pattern_seed(2, 64, 5), mg_pattern_seed(2, 64, 5));
    EXPECT_EQ(mg_pattern_byte(77, 1000), mg_pattern_byte(77, 1000));
}

TEST(Pattern, SeedDependsOnRankSizeAndIteration)
{
    const uint64_t base = mg_pattern_seed(0, 1024, 0);
    EXPECT_NE(mg_pattern_seed(1, 1024, 0), base);
    EXPECT_NE(mg_pattern_seed(0, 2048, 0), base);
    EXPECT_NE(mg_pattern_seed(0, 1024, 1), base);
    // the fields do not cancel when swapped
    EXPECT_NE(mg_pattern_seed(1, 0, 0), mg_pattern_seed(0, 1, 0));
    EXPECT_NE(mg_pattern_seed(0, 1, 0), mg_pattern_seed(0, 0, 1));
    EXPECT_NE(mg_pattern_seed(1, 0, 0), mg_pattern_seed(0, 0, 1));
}

TEST(Pattern, SeedsOfAGridAreAllDistinct)
{
    std::set<uint64_t> seen;
    size_t count = 0;
    for (int rank = 0; rank < 16; ++rank)
        for (uint64_t size = 0; size <= (UINT64_C(1) << 22); size = size ? size * 2 : 1)
            for (uint64_t it = 0; it < 8; ++it) {
                seen.insert(mg_pattern_seed(rank, size, it));
                ++count;
            }
    EXPECT_EQ(seen.size(), count);
}

TEST(Pattern, NegativeRankIsValidAndDistinct)
{
    EXPECT_NE(mg_pattern_seed(-1, 8, 0), mg_pattern_seed(0, 8, 0));
    EXPECT_NE(mg_pattern_seed(-1, 8, 0), mg_pattern_seed(1, 8, 0));
}

TEST(Pattern, StaleBufferFromAnotherIterationFailsTheCheck)
{
    const size_t len = 64;
    const uint64_t old_seed = mg_pattern_seed(1, len, 6);
    const uint64_t new_seed = mg_pattern_seed(1, len, 7);
    std::vector<unsigned char> buf(len);
    mg_pattern_fill(buf.data(), len, old_seed);
    size_t expect_bad = len;
    for (size_t i = 0; i < len; ++i)
        if (mg_pattern_byte(new_seed, i) != buf[i]) {
            expect_bad = i;
            break;
        }
    ASSERT_LT(expect_bad, len);
    size_t bad = 12345;
    EXPECT_EQ(mg_pattern_check(buf.data(), len, new_seed, &bad), -1);
    EXPECT_EQ(bad, expect_bad);
}

TEST(Pattern, MessageFromAnotherRankFailsTheCheck)
{
    const size_t len = 4096;
    std::vector<unsigned char> buf(len);
    mg_pattern_fill(buf.data(), len, mg_pattern_seed(2, len, 0));
    size_t bad = 0;
    EXPECT_EQ(mg_pattern_check(buf.data(), len, mg_pattern_seed(3, len, 0), &bad), -1);
    EXPECT_LT(bad, len);
}

TEST(Pattern, ZeroedBufferFailsTheCheck)
{
    const size_t len = 4096;
    std::vector<unsigned char> buf(len, 0);
    size_t bad = len;
    EXPECT_EQ(mg_pattern_check(buf.data(), len, mg_pattern_seed(0, len, 0), &bad), -1);
    EXPECT_LT(bad, 8u); // some byte of the first word is non-zero
}

TEST(Pattern, BytesAreNotConstantOrPeriodicInEightByteWords)
{
    const uint64_t seed = mg_pattern_seed(0, 4096, 0);
    std::vector<unsigned char> buf(4096);
    mg_pattern_fill(buf.data(), buf.size(), seed);
    std::set<unsigned char> distinct(buf.begin(), buf.end());
    EXPECT_GT(distinct.size(), 200u);
    size_t same_as_previous_word = 0;
    for (size_t i = 8; i < buf.size(); ++i)
        same_as_previous_word += buf[i] == buf[i - 8];
    EXPECT_LT(same_as_previous_word, 64u); // about 4088 / 256 = 16 expected
}

TEST(Pattern, DifferentSeedsGiveDifferentPatterns)
{
    std::vector<unsigned char> a(256), b(256);
    mg_pattern_fill(a.data(), a.size(), mg_pattern_seed(0, 256, 0));
    mg_pattern_fill(b.data(), b.size(), mg_pattern_seed(0, 256, 1));
    size_t equal = 0;
    for (size_t i = 0; i < a.size(); ++i)
        equal += a[i] == b[i];
    EXPECT_LT(equal, 16u); // about 1 in 256 bytes agree by chance
}

TEST(Pattern, PoisonDiffersInEveryByte)
{
    for (size_t len : {1u, 7u, 8u, 9u, 300u}) {
        std::vector<unsigned char> good(len), bad(len);
        mg_pattern_fill(good.data(), len, 42);
        mg_pattern_poison(bad.data(), len, 42);
        for (size_t i = 0; i < len; ++i)
            EXPECT_EQ(bad[i], (unsigned char)~good[i]) << "len " << len << " offset " << i;
        size_t first = 99;
        EXPECT_EQ(mg_pattern_check(bad.data(), len, 42, &first), -1);
        EXPECT_EQ(first, 0u);
    }
}
