// SPDX-License-Identifier: BSD-3-Clause
// --topo graph:FILE: exact lists in file order, and every malformed file
// refused with the line that is wrong.
#include "mg_graph.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace
{

std::vector<int> list(const mg_graph &g, int r)
{
    return std::vector<int>(g.adj + g.off[r], g.adj + g.off[r + 1]);
}

TEST(Graph, ListsInFileOrderWithCommentsAndBlankLines)
{
    mg_graph g;
    char err[200] = "";
    const char *text = "# a ring of 4 with one chord\n"
                       "\n"
                       "2: 1, 3 0\n"
                       "0: 1 3 2   # the chord 0-2\n"
                       "1: 0 2\r\n"
                       "3: 2 0";
    ASSERT_EQ(mg_graph_parse(text, 4, &g, err, sizeof err), 0) << err;
    EXPECT_EQ(list(g, 0), (std::vector<int>{1, 3, 2}));
    EXPECT_EQ(list(g, 1), (std::vector<int>{0, 2}));
    EXPECT_EQ(list(g, 2), (std::vector<int>{1, 3, 0}));
    EXPECT_EQ(list(g, 3), (std::vector<int>{2, 0}));
    EXPECT_EQ(mg_graph_degree(&g, 0), 3);
    EXPECT_EQ(mg_graph_index_of(&g, 2, 0), 2);
    EXPECT_EQ(mg_graph_index_of(&g, 1, 3), -1);
    mg_graph_free(&g);
}

TEST(Graph, AnIsolatedRankIsAllowed)
{
    mg_graph g;
    char err[200] = "";
    ASSERT_EQ(mg_graph_parse("0: 1\n1: 0\n2:\n", 3, &g, err, sizeof err), 0) << err;
    EXPECT_EQ(mg_graph_degree(&g, 2), 0);
    mg_graph_free(&g);
}

TEST(Graph, RefusesWhatIsNotAnUndirectedGraphOfTheRanks)
{
    struct Case {
        const char *text, *says;
    } cases[] = {
        {"0: 1\n", "rank 1 has no line"},
        {"0: 1\n1: 0\n0: 1\n", "line 3: rank 0 has a line already"},
        {"0: 1\n1 0\n", "line 2: want"},
        {"0: 2\n1: 0\n", "line 1: neighbour 2 of rank 0 is not a rank"},
        {"0: 0\n1:\n", "the rank itself"},
        {"0: 1 1\n1: 0\n", "lists 1 twice"},
        {"0: 1\n1:\n", "rank 0 lists 1, but 1 does not list 0"},
        {"0: 1x\n1: 0\n", "line 1: a neighbour is not a whole number"},
        {"5: 1\n", "line 1: want"},
        {"-1: 0\n", "line 1: want"},
    };
    for (const auto &k : cases) {
        mg_graph g;
        char err[200] = "";
        EXPECT_EQ(mg_graph_parse(k.text, 2, &g, err, sizeof err), -1) << k.text;
        EXPECT_NE(std::string(err).find(k.says), std::string::npos) << k.text << " -> " << err;
        mg_graph_free(&g);
    }
}

TEST(Graph, ReadFileSaysWhyNot)
{
    char err[200] = "";
    EXPECT_EQ(mg_graph_read_file("/nonexistent/graph.txt", err, sizeof err), nullptr);
    EXPECT_NE(std::string(err).find("/nonexistent/graph.txt"), std::string::npos);
    EXPECT_EQ(mg_graph_read_file("/", err, sizeof err), nullptr);
}

} // namespace
