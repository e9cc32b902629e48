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

TEST(FanHubs, RankZeroIsEveryRanksHub)
{
    const int node_of[5] = {0, 0, 1, 1, 1};
    int hub[5];
    EXPECT_EQ(mg_fan_hubs(0, 5, node_of, 2, hub), 4);
    EXPECT_EQ(std::vector<int>(hub, hub + 5), (std::vector<int>{-1, 0, 0, 0, 0}));
}

TEST(FanHubs, ByNodeMatchesLocalIndexOnRankZerosNode)
{
    // nodes interleaved: node 0 holds ranks 0 and 3 (local 0 and 1); node 1
    // ranks 1, 2 (local 0, 1); node 2 ranks 4, 5, 6 (local 0, 1, 2: the third
    // has no hub of its index and is idle)
    const int node_of[7] = {0, 1, 1, 0, 2, 2, 2};
    int hub[7];
    EXPECT_EQ(mg_fan_hubs(1, 7, node_of, 3, hub), 4);
    EXPECT_EQ(std::vector<int>(hub, hub + 7), (std::vector<int>{-1, 0, 3, -1, 0, 3, -1}));
}

TEST(FanHubs, ByNodeOnOneNodeHasNoLeaves)
{
    const int node_of[3] = {0, 0, 0};
    int hub[3];
    EXPECT_EQ(mg_fan_hubs(1, 3, node_of, 1, hub), 0);
    EXPECT_EQ(std::vector<int>(hub, hub + 3), (std::vector<int>{-1, -1, -1}));
}
