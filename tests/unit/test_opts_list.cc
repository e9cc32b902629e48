/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_opts: list options ("a,b,c", "MIN:MAX", names) and their JSON.
#include "mg_opts.h"
#include "mg_opts_json.h"

#include "capture.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace
{

struct ListOpts {
    mg_list counts;
    mg_list names;
    mg_list big;
};

const char *const kMethods[] = {"recv", "wait", "test", nullptr};

const mg_opt kListOpts[] = {
    {0, "counts", MG_OPT_LIST, offsetof(ListOpts, counts), "LIST", "counts", 0, 100, nullptr,
     nullptr, nullptr},
    {0, "names", MG_OPT_LIST, offsetof(ListOpts, names), "LIST", "names", 0, 0, kMethods, nullptr,
     nullptr},
    {0, "big", MG_OPT_LIST, offsetof(ListOpts, big), "LIST", "no limit", 0, 0, nullptr, nullptr,
     nullptr},
    {0, nullptr, MG_OPT_END, 0, nullptr, nullptr, 0, 0, nullptr, nullptr, nullptr},
};

struct ListResult {
    int rc;
    ListOpts o;
    std::string err;
};

ListResult parse_list(const char *opt, const char *value)
{
    ListResult r{};
    std::string a0 = "prog", a1 = opt, a2 = value;
    char *argv[] = {&a0[0], &a1[0], &a2[0], nullptr};
    mg_opt_table t = {kListOpts, &r.o, NULL, NULL};
    char err[256] = "";
    r.rc = mg_opts_parse(&t, 1, 3, argv, err, sizeof err);
    r.err = err;
    return r;
}

std::vector<long> values(const mg_list &l) { return std::vector<long>(l.v, l.v + l.n); }

} // namespace

TEST(OptsList, CommaListKeepsOrder)
{
    ListResult r = parse_list("--counts", "5,1,25");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(values(r.o.counts), (std::vector<long>{5, 1, 25}));
}

TEST(OptsList, RangeDoubles)
{
    ListResult r = parse_list("--counts", "1:32");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(values(r.o.counts), (std::vector<long>{1, 2, 4, 8, 16, 32}));
    EXPECT_EQ(values(parse_list("--counts", "0:4").o.counts), (std::vector<long>{0, 1, 2, 4}));
}

TEST(OptsList, OneValueIsAListOfOne)
{
    EXPECT_EQ(values(parse_list("--counts", "7").o.counts), (std::vector<long>{7}));
}

TEST(OptsList, NamesBecomeIndices)
{
    ListResult r = parse_list("--names", "test,recv");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(values(r.o.names), (std::vector<long>{2, 0}));
}

TEST(OptsList, ErrorsNameTheProblem)
{
    const struct {
        const char *opt, *value, *needle;
    } cases[] = {
        {"--counts", "1,1", "listed twice"},      {"--counts", "1,,2", "empty entry"},
        {"--counts", "101", "out of range"},      {"--counts", "-1", "out of range"},
        {"--counts", "4:2", "reversed"},          {"--counts", "x", "not a whole number"},
        {"--counts", "1:2:3", "not MIN:MAX"},     {"--names", "wait,nope", "unknown value 'nope'"},
        {"--names", "test,test", "listed twice"}, {"--counts", "3,", "empty entry"},
    };
    for (const auto &c : cases) {
        ListResult r = parse_list(c.opt, c.value);
        EXPECT_EQ(r.rc, -EINVAL) << c.value;
        EXPECT_NE(r.err.find(c.needle), std::string::npos) << c.value << ": " << r.err;
    }
}

TEST(OptsJson, ListsAreArrays)
{
    ListOpts o{};
    o.counts.n = 2;
    o.counts.v[0] = 3;
    o.counts.v[1] = 9;
    o.names.n = 1;
    o.names.v[0] = 1;
    mg_opt_table t = {kListOpts, &o, NULL, NULL};
    std::string out = capture([&](FILE *f) {
        mg_json j;
        mg_json_init(&j, f);
        mg_opts_json(&j, nullptr, &t, 1);
    });
    EXPECT_EQ(out, "{\"counts\":[3,9],\"names\":[\"wait\"],\"big\":[]}");
}

// A range whose doubling would pass LONG_MAX stops at the last value within
// it (the doubling overflowed before: undefined behaviour).
TEST(OptsList, RangeNearLongMaxStopsWithoutOverflow)
{
    ListResult r = parse_list("--big", "4611686018427387904:9223372036854775807");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(values(r.o.big), (std::vector<long>{4611686018427387904L}));
    r = parse_list("--big", "1152921504606846976:9223372036854775807");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(values(r.o.big), (std::vector<long>{1152921504606846976L, 2305843009213693952L,
                                                  4611686018427387904L}));
    r = parse_list("--counts", "0:8");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(values(r.o.counts), (std::vector<long>{0, 1, 2, 4, 8}));
    r = parse_list("--counts", "3:40");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(values(r.o.counts), (std::vector<long>{3, 6, 12, 24}));
}

TEST(Opts, LastValueReadWithoutTheParser)
{
    char p[] = "prog", o[] = "-o", a[] = "a.jsonl", ob[] = "-ob.jsonl", lo[] = "--output",
         c[] = "c.jsonl", eq[] = "--output=d.jsonl", dd[] = "--", e[] = "-oe.jsonl",
         t[] = "--turns", tv[] = "2/3";
    char *none[] = {p, t, tv};
    EXPECT_EQ(mg_opts_last_value(3, none, 'o', "output"), nullptr);
    EXPECT_STREQ(mg_opts_last_value(3, none, 0, "turns"), "2/3");
    char *sep[] = {p, o, a};
    EXPECT_STREQ(mg_opts_last_value(3, sep, 'o', "output"), "a.jsonl");
    char *glued[] = {p, o, a, ob};
    EXPECT_STREQ(mg_opts_last_value(4, glued, 'o', "output"), "b.jsonl"); // the last one
    char *longs[] = {p, ob, lo, c};
    EXPECT_STREQ(mg_opts_last_value(4, longs, 'o', "output"), "c.jsonl");
    char *equals[] = {p, lo, c, eq};
    EXPECT_STREQ(mg_opts_last_value(4, equals, 'o', "output"), "d.jsonl");
    char *after[] = {p, o, a, dd, e}; // nothing after "--" is an option
    EXPECT_STREQ(mg_opts_last_value(5, after, 'o', "output"), "a.jsonl");
    char *dangling[] = {p, o}; // -o without its value
    EXPECT_EQ(mg_opts_last_value(2, dangling, 'o', "output"), nullptr);
    char *no_short[] = {p, o, a}; // short_name 0: -o is not --output
    EXPECT_EQ(mg_opts_last_value(3, no_short, 0, "output"), nullptr);
}
