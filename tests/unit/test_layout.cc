// SPDX-License-Identifier: BSD-3-Clause
// -D layouts: exact blocks of every layout, the parser's limits, and the
// check of a received message (payload and untouched gaps).
#include "mg_layout.h"
#include "mg_pattern.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace
{

using Blocks = std::vector<std::pair<uint64_t, uint64_t>>;

void add(void *arg, uint64_t off, uint64_t len)
{
    static_cast<Blocks *>(arg)->emplace_back(off, len);
}

Blocks blocks(const char *spec, size_t e, uint64_t size, uint64_t *extent)
{
    mg_dt_layout l;
    char err[200];
    Blocks b;
    EXPECT_EQ(mg_dt_parse(spec, &l, err, sizeof err), 0) << err;
    *extent = mg_dt_blocks(&l, e, size, add, &b);
    return b;
}

TEST(Layout, BasicAndContiguousAreOneBlock)
{
    uint64_t ext = 0;
    EXPECT_EQ(blocks("basic", 8, 64, &ext), (Blocks{{0, 64}}));
    EXPECT_EQ(ext, 64u);
    EXPECT_EQ(blocks("contiguous", 4, 12, &ext), (Blocks{{0, 12}}));
    EXPECT_EQ(blocks("basic", 8, 0, &ext), Blocks{});
    EXPECT_EQ(ext, 0u);
}

TEST(Layout, VectorHasBlocksEveryStrideAndAShortTail)
{
    uint64_t ext = 0;
    // 10 ints in blocks of 4 every 8: [0,16) [32,48) and a tail of 2 at 64
    EXPECT_EQ(blocks("vector:4:8", 4, 40, &ext), (Blocks{{0, 16}, {32, 16}, {64, 8}}));
    EXPECT_EQ(ext, 72u);
    EXPECT_EQ(blocks("vector:2:2", 1, 6, &ext), (Blocks{{0, 2}, {2, 2}, {4, 2}}));
    EXPECT_EQ(ext, 6u);
    EXPECT_EQ(blocks("vector:8:9", 1, 3, &ext), (Blocks{{0, 3}}));
}

TEST(Layout, IndexedBlocksGrowOneToEightWithEqualGaps)
{
    uint64_t ext = 0;
    // chars: lengths 1,2,3,4 then the last cut to what is left (10 = 1+2+3+4)
    EXPECT_EQ(blocks("indexed", 1, 10, &ext), (Blocks{{0, 1}, {2, 2}, {6, 3}, {12, 4}}));
    EXPECT_EQ(ext, 16u);
    // doubles, 40 elements: blocks of 1..8 hold 36; the ninth has 1 + 8 % 8 = 1
    // element, the tenth 2, the eleventh the 1 left of its 3
    Blocks b = blocks("indexed", 8, 320, &ext);
    ASSERT_EQ(b.size(), 11u);
    EXPECT_EQ(b[7], (std::pair<uint64_t, uint64_t>{8 * 56, 64}));
    EXPECT_EQ(b[8], (std::pair<uint64_t, uint64_t>{8 * 72, 8}));
    EXPECT_EQ(b[10], (std::pair<uint64_t, uint64_t>{8 * 78, 8}));
    EXPECT_EQ(ext, 8u * 79);
}

TEST(Layout, ResizedIsEveryOtherElement)
{
    uint64_t ext = 0;
    EXPECT_EQ(blocks("resized", 4, 12, &ext), (Blocks{{0, 4}, {8, 4}, {16, 4}}));
    EXPECT_EQ(ext, 20u);
}

TEST(Layout, ParserRefusesWhatIsNotALayout)
{
    mg_dt_layout l;
    char err[200];
    for (const char *bad :
         {"", "vector", "vector:", "vector:4", "vector:4:", "vector:0:4", "vector:5:4",
          "vector:4:8:1", "vector:x:8", "vector:4:2000000", "struct", "Basic"}) {
        err[0] = 0;
        EXPECT_EQ(mg_dt_parse(bad, &l, err, sizeof err), -1) << bad;
        EXPECT_NE(std::string(err).find("-D"), std::string::npos) << bad;
    }
    ASSERT_EQ(mg_dt_parse("vector:3:7", &l, err, sizeof err), 0);
    EXPECT_EQ(l.kind, MG_DT_VECTOR);
    EXPECT_EQ(l.block, 3);
    EXPECT_EQ(l.stride, 7);
}

// A received vector:2:4 message of 6 int elements: payload at bytes 0-7,
// 16-23, 32-39 (extent 40), gaps 8-15 and 24-31.
TEST(Layout, CheckFindsPayloadAndGapBytes)
{
    mg_dt_layout l;
    char err[200];
    ASSERT_EQ(mg_dt_parse("vector:2:4", &l, err, sizeof err), 0);
    const uint64_t pay = 11, poison = 12;
    std::vector<unsigned char> buf(40), good(40);
    mg_pattern_poison(buf.data(), buf.size(), poison);
    for (uint64_t i = 0; i < 40; ++i)
        if (i % 16 < 8)
            buf[i] = mg_pattern_byte(pay, i);
    good = buf;
    uint64_t bad = 99;
    int gap = -1;
    EXPECT_EQ(mg_dt_check(&l, 4, 24, buf.data(), pay, poison, &bad, &gap), 0);
    EXPECT_EQ(gap, 0);
    buf[17] ^= 1; // payload
    EXPECT_EQ(mg_dt_check(&l, 4, 24, buf.data(), pay, poison, &bad, &gap), -1);
    EXPECT_EQ(bad, 17u);
    EXPECT_EQ(gap, 0);
    buf = good;
    buf[26] ^= 0x80; // a gap written
    EXPECT_EQ(mg_dt_check(&l, 4, 24, buf.data(), pay, poison, &bad, &gap), -1);
    EXPECT_EQ(bad, 26u);
    EXPECT_EQ(gap, 1);
    // the same bytes as one contiguous block: the gaps are payload now
    ASSERT_EQ(mg_dt_parse("contiguous", &l, err, sizeof err), 0);
    EXPECT_EQ(mg_dt_check(&l, 4, 40, good.data(), pay, poison, &bad, &gap), -1);
    EXPECT_EQ(bad, 8u);
    EXPECT_EQ(gap, 0);
}

TEST(Layout, ExtentAndLabel)
{
    mg_dt_layout l;
    char err[200], label[64];
    ASSERT_EQ(mg_dt_parse("vector:2:4", &l, err, sizeof err), 0);
    EXPECT_EQ(mg_dt_extent(&l, 4, 24), 40u); // blocks at 0, 16, 32 of 8 bytes
    mg_dt_label(&l, "int", label, sizeof label);
    EXPECT_STREQ(label, "vector:2:4/int");
    ASSERT_EQ(mg_dt_parse("resized", &l, err, sizeof err), 0);
    EXPECT_EQ(mg_dt_extent(&l, 8, 32), 56u); // 4 doubles every 16 bytes
    mg_dt_label(&l, "double", label, sizeof label);
    EXPECT_STREQ(label, "resized/double");
    ASSERT_EQ(mg_dt_parse("basic", &l, err, sizeof err), 0);
    mg_dt_label(&l, "char", label, sizeof label);
    EXPECT_STREQ(label, "char");
}

} // namespace
