/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_group: the one-rank fake, and the agreement calls
// built on the four calls, seen from one rank of a scripted larger group.
#include "mg_group.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace
{

// One rank of a group whose other ranks are scripted: reduce_max returns the
// largest of this rank's value and `others_max`, and so does a bcast from
// rank 0 (its decision); a bcast from another rank writes `root_message`;
// every call is logged.
struct Scripted {
    double others_max = 0.0;
    std::string root_message;
    int rank = 0;
    std::vector<std::string> log;
};

Scripted *self(void *impl) { return static_cast<Scripted *>(impl); }

void s_barrier(void *impl) { self(impl)->log.push_back("barrier"); }

void s_bcast(void *impl, void *buf, size_t bytes, int root)
{
    Scripted *s = self(impl);
    s->log.push_back("bcast from " + std::to_string(root) + " " + std::to_string(bytes));
    if (root == s->rank)
        return;
    if (root == 0) {
        // rank 0's decision: the maximum it reduced
        double v;
        std::memcpy(&v, buf, sizeof v);
        v = v > s->others_max ? v : s->others_max;
        std::memcpy(buf, &v, sizeof v);
        return;
    }
    std::memset(buf, 0, bytes);
    std::memcpy(buf, s->root_message.c_str(),
                s->root_message.size() < bytes ? s->root_message.size() : bytes);
}

void s_reduce(void *impl, const double *in, double *out, size_t n)
{
    Scripted *s = self(impl);
    s->log.push_back("reduce_max " + std::to_string(n));
    for (size_t i = 0; i < n; ++i)
        out[i] = in[i] > s->others_max ? in[i] : s->others_max;
}

void s_gather(void *impl, const double *in, size_t n, double *out)
{
    self(impl)->log.push_back("gather " + std::to_string(n));
    std::memcpy(out, in, n * sizeof *in);
}

const mg_group_ops scripted_ops = {s_barrier, s_bcast, s_reduce, s_gather};

mg_group scripted(Scripted *s, int rank, int size)
{
    s->rank = rank;
    return mg_group{&scripted_ops, s, rank, size};
}

TEST(GroupSolo, IsRankZeroOfOneAndCopies)
{
    mg_group g;
    mg_group_solo(&g);
    EXPECT_EQ(g.rank, 0);
    EXPECT_EQ(g.size, 1);
    double in[3] = {1.5, -2.0, 7.0}, out[3] = {0, 0, 0};
    mg_group_reduce_max(&g, in, out, 3);
    EXPECT_EQ(out[0], 1.5);
    EXPECT_EQ(out[1], -2.0);
    EXPECT_EQ(out[2], 7.0);
    double all[2] = {0, 0};
    mg_group_gather(&g, in, 2, all);
    EXPECT_EQ(all[0], 1.5);
    EXPECT_EQ(all[1], -2.0);
    long x = 42;
    mg_group_bcast(&g, &x, sizeof x);
    mg_group_barrier(&g);
    EXPECT_EQ(x, 42);
}

TEST(GroupSolo, AgreementIsThisRanksOwn)
{
    mg_group g;
    mg_group_solo(&g);
    EXPECT_EQ(mg_group_all_true(&g, 1), 1);
    EXPECT_EQ(mg_group_all_true(&g, 0), 0);
    EXPECT_EQ(mg_group_max(&g, -3.25), -3.25);
    char msg[32] = "";
    EXPECT_EQ(mg_group_agree_message(&g, msg, sizeof msg), 0);
    EXPECT_STREQ(msg, "");
    std::strcpy(msg, "mine");
    EXPECT_EQ(mg_group_agree_message(&g, msg, sizeof msg), -1);
    EXPECT_STREQ(msg, "mine");
}

TEST(GroupAgree, AllTrueIsFalseWhenAnotherRankSaysNo)
{
    Scripted s;
    s.others_max = 1.0; // some other rank passed 0
    mg_group g = scripted(&s, 0, 4);
    EXPECT_EQ(mg_group_all_true(&g, 1), 0);
    s.others_max = 0.0;
    EXPECT_EQ(mg_group_all_true(&g, 1), 1);
    EXPECT_EQ(mg_group_all_true(&g, 0), 0);
    // one reduce and one broadcast of the decision per call
    ASSERT_EQ(s.log.size(), 6u);
    EXPECT_EQ(s.log[0], "reduce_max 1");
    EXPECT_EQ(s.log[1], "bcast from 0 8");
}

TEST(GroupAgree, LowestFailingRanksMessageReachesEveryRank)
{
    // rank 3 of 5 failed; rank 1 failed too (the lowest: 5 - 1 = 4 is the
    // largest reduced value), and its message reaches rank 3
    Scripted s;
    s.others_max = 4.0;
    s.root_message = "rank 1 says no";
    mg_group g = scripted(&s, 3, 5);
    char msg[32] = "rank 3 says no";
    EXPECT_EQ(mg_group_agree_message(&g, msg, sizeof msg), -1);
    EXPECT_STREQ(msg, "rank 1 says no");
    EXPECT_EQ(s.log.back(), "bcast from 1 32");
}

TEST(GroupAgree, OwnMessageWhenThisRankIsTheLowest)
{
    Scripted s;
    s.others_max = 2.0; // rank 3 of 5 failed too
    s.root_message = "not this";
    mg_group g = scripted(&s, 1, 5);
    char msg[16] = "rank 1";
    EXPECT_EQ(mg_group_agree_message(&g, msg, sizeof msg), -1);
    EXPECT_STREQ(msg, "rank 1");
    EXPECT_EQ(s.log.back(), "bcast from 1 16");
}

TEST(GroupAgree, NothingWhenNoRankFailed)
{
    Scripted s;
    mg_group g = scripted(&s, 2, 3);
    char msg[8] = "";
    EXPECT_EQ(mg_group_agree_message(&g, msg, sizeof msg), 0);
    EXPECT_STREQ(msg, "");
    EXPECT_EQ(s.log.size(), 2u); // the reduce and the decision only
}

} // namespace
