/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_pairing: who pairs with whom in multi-pair tests.
#include "mg_pairing.h"

#include <gtest/gtest.h>

#include <vector>

namespace
{

std::vector<int> pairs(mg_pairing_mode mode, std::vector<int> node_of, int *npairs = nullptr)
{
    std::vector<int> partner(node_of.size(), -7);
    int n = mg_pairing(mode, (int)node_of.size(), node_of.data(), partner.data());
    if (npairs)
        *npairs = n;
    return partner;
}

} // namespace

TEST(Pairing, BlockPairsFirstHalfWithSecondHalf)
{
    int n = 0;
    EXPECT_EQ(pairs(MG_PAIR_BLOCK, {0, 0, 0, 0, 0, 0}, &n), (std::vector<int>{3, 4, 5, 0, 1, 2}));
    EXPECT_EQ(n, 3);
}

TEST(Pairing, CyclicPairsNeighbours)
{
    EXPECT_EQ(pairs(MG_PAIR_CYCLIC, {0, 0, 0, 0}), (std::vector<int>{1, 0, 3, 2}));
}

TEST(Pairing, OddRankCountLeavesTheLastRankIdle)
{
    int n = 0;
    EXPECT_EQ(pairs(MG_PAIR_BLOCK, {0, 0, 0}, &n), (std::vector<int>{1, 0, -1}));
    EXPECT_EQ(n, 1);
    EXPECT_EQ(pairs(MG_PAIR_CYCLIC, {0, 0, 0}), (std::vector<int>{1, 0, -1}));
    EXPECT_EQ(pairs(MG_PAIR_INTERNODE, {0, 0, 1}), (std::vector<int>{2, -1, 0}));
}

TEST(Pairing, InternodeCrossesNodesWhenRanksAreBlockPlaced)
{
    // ranks 0,1 on node 0 and 2,3 on node 1: cyclic would pair inside a node
    EXPECT_EQ(pairs(MG_PAIR_INTERNODE, {0, 0, 1, 1}), (std::vector<int>{2, 3, 0, 1}));
    EXPECT_EQ(pairs(MG_PAIR_CYCLIC, {0, 0, 1, 1}), (std::vector<int>{1, 0, 3, 2}));
}

TEST(Pairing, InternodeCrossesNodesWhenRanksAreRoundRobin)
{
    EXPECT_EQ(pairs(MG_PAIR_INTERNODE, {0, 1, 0, 1}), (std::vector<int>{1, 0, 3, 2}));
}

TEST(Pairing, InternodePairsLeftoversOnTheirNode)
{
    // three ranks on node 0, one on node 1: one cross pair, then 1 with 2
    EXPECT_EQ(pairs(MG_PAIR_INTERNODE, {0, 0, 0, 1}), (std::vector<int>{3, 2, 1, 0}));
}

TEST(Pairing, InternodeOnOneNodeFallsBackToRankOrder)
{
    EXPECT_EQ(pairs(MG_PAIR_INTERNODE, {0, 0, 0, 0}), (std::vector<int>{1, 0, 3, 2}));
}

TEST(Pairing, OneRankHasNoPair)
{
    int n = 5;
    EXPECT_EQ(pairs(MG_PAIR_BLOCK, {0}, &n), (std::vector<int>{-1}));
    EXPECT_EQ(n, 0);
}

TEST(Pairing, ValidityRequiresSymmetry)
{
    const int good[] = {1, 0, -1};
    const int asym[] = {1, 2, 0};
    const int self[] = {0, -1};
    const int range[] = {5, 0};
    EXPECT_EQ(mg_pairing_is_valid(3, good), 1);
    EXPECT_EQ(mg_pairing_is_valid(3, asym), 0);
    EXPECT_EQ(mg_pairing_is_valid(2, self), 0);
    EXPECT_EQ(mg_pairing_is_valid(2, range), 0);
}

TEST(Pairing, EveryModeGivesAValidPairing)
{
    for (int np = 1; np <= 9; ++np) {
        std::vector<int> node_of(np);
        for (int r = 0; r < np; ++r)
            node_of[r] = r % 3;
        for (mg_pairing_mode m : {MG_PAIR_BLOCK, MG_PAIR_CYCLIC, MG_PAIR_INTERNODE}) {
            int n = 0;
            std::vector<int> p = pairs(m, node_of, &n);
            EXPECT_EQ(mg_pairing_is_valid(np, p.data()), 1) << "np " << np << " mode " << m;
            EXPECT_EQ(n, np / 2) << "np " << np << " mode " << m;
        }
    }
}
