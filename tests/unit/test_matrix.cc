// SPDX-License-Identifier: BSD-3-Clause
// alltoallv --matrix: the generators' exact entries, the CSV parser and its
// refusals, and the sums the buffers are sized by.
#include "mg_matrix.h"

#include <gtest/gtest.h>

#include <string>

namespace
{

TEST(Matrix, UniformAndHotspot)
{
    mg_matrix x;
    char err[200] = "";
    ASSERT_EQ(mg_matrix_make("uniform", 3, &x, err, sizeof err), 0) << err;
    EXPECT_EQ(x.scaled, 1);
    EXPECT_EQ(mg_matrix_total(&x), 9u);
    EXPECT_EQ(mg_matrix_busiest(&x), 3u);
    mg_matrix_free(&x);
    ASSERT_EQ(mg_matrix_make("hotspot:5", 4, &x, err, sizeof err), 0) << err;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            EXPECT_EQ(mg_matrix_at(&x, i, j), j == 0 ? 5u : 1u) << i << "," << j;
    EXPECT_EQ(mg_matrix_col(&x, 0), 20u);
    EXPECT_EQ(mg_matrix_row(&x, 2), 8u);
    EXPECT_EQ(mg_matrix_busiest(&x), 20u);
    mg_matrix_free(&x);
    ASSERT_EQ(mg_matrix_make("hotspot", 2, &x, err, sizeof err), 0);
    EXPECT_EQ(mg_matrix_at(&x, 1, 0), 8u); // the default H
    mg_matrix_free(&x);
}

TEST(Matrix, SparseRowsHaveSelfAndDOthersTheSameEveryTime)
{
    mg_matrix a, b;
    char err[200] = "";
    ASSERT_EQ(mg_matrix_make("sparse:3", 10, &a, err, sizeof err), 0) << err;
    ASSERT_EQ(mg_matrix_make("sparse:3", 10, &b, err, sizeof err), 0) << err;
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(mg_matrix_at(&a, i, i), 1u);
        EXPECT_EQ(mg_matrix_row(&a, i), 4u) << "row " << i;
        for (int j = 0; j < 10; ++j) {
            EXPECT_LE(mg_matrix_at(&a, i, j), 1u);
            EXPECT_EQ(mg_matrix_at(&a, i, j), mg_matrix_at(&b, i, j));
        }
    }
    mg_matrix_free(&a);
    mg_matrix_free(&b);
    // more others than there are: every rank
    ASSERT_EQ(mg_matrix_make("sparse:9", 3, &a, err, sizeof err), 0);
    EXPECT_EQ(mg_matrix_total(&a), 9u);
    mg_matrix_free(&a);
    // the default: P/4 others (at least 1)
    ASSERT_EQ(mg_matrix_make("sparse", 8, &a, err, sizeof err), 0);
    EXPECT_EQ(mg_matrix_row(&a, 5), 3u);
    mg_matrix_free(&a);
}

TEST(Matrix, CsvBytesRowByRow)
{
    mg_matrix x;
    char err[200] = "";
    const char *csv = "# bytes from rank i (row) to rank j (column)\n"
                      "0, 100, 4096\r\n"
                      "\n"
                      "8,0,0\n"
                      " 1 ,2, 3 \n";
    ASSERT_EQ(mg_matrix_parse(csv, 3, &x, err, sizeof err), 0) << err;
    EXPECT_EQ(x.scaled, 0);
    EXPECT_EQ(mg_matrix_at(&x, 0, 2), 4096u);
    EXPECT_EQ(mg_matrix_at(&x, 1, 0), 8u);
    EXPECT_EQ(mg_matrix_at(&x, 2, 1), 2u);
    EXPECT_EQ(mg_matrix_row(&x, 0), 4196u);
    EXPECT_EQ(mg_matrix_col(&x, 0), 9u);
    mg_matrix_free(&x);
}

TEST(Matrix, RefusesMalformedInput)
{
    struct Case {
        const char *text, *says;
    } cases[] = {
        {"1,2\n3,4\n5,6\n", "line 3: more than 2 rows"},
        {"1,2\n3\n", "line 2: 1 entries"},
        {"1,2,3\n3,4\n", "line 1: want 2 whole numbers"},
        {"1,x\n3,4\n", "line 1: want 2 whole numbers"},
        {"1,-2\n3,4\n", "line 1: want 2 whole numbers"},
        {"1 2\n3,4\n", "line 1: want numbers joined by commas"},
        {"1,2\n", "1 rows"},
        {"1,2\n3,2000000000000\n", "at most 1 TiB"},
    };
    for (const auto &k : cases) {
        mg_matrix x;
        char err[200] = "";
        EXPECT_EQ(mg_matrix_parse(k.text, 2, &x, err, sizeof err), -1) << k.text;
        EXPECT_NE(std::string(err).find(k.says), std::string::npos) << k.text << " -> " << err;
        mg_matrix_free(&x);
    }
    mg_matrix x;
    char err[200] = "";
    EXPECT_EQ(mg_matrix_make("hotspot:0", 2, &x, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("hotspot:H"), std::string::npos);
    mg_matrix_free(&x);
    EXPECT_EQ(mg_matrix_make("/nonexistent.csv", 2, &x, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("/nonexistent.csv"), std::string::npos);
    mg_matrix_free(&x);
}

} // namespace
