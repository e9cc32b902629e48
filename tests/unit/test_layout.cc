// SPDX-License-Identifier: BSD-3-Clause
// -D layouts: exact blocks of every layout and the parser's limits.
#include "mg_layout.h"

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

} // namespace
