/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_opts: the defaults and run-record names the option
// rows carry, and the refusal of a name defined twice.
#include "mg_opts.h"
#include "mg_opts_json.h"

#include "capture.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <string>

namespace
{

struct Row {
    long window;
    double budget;
    double precision;
    int mode;
    int flag;
    const char *hint;
};

const char *const kModes[] = {"stripe", "bind", nullptr};

const mg_opt kRows[] = {
    {'W', "window", MG_OPT_LONG, offsetof(Row, window), "N", "messages in flight", 1, 1024, nullptr,
     "64", nullptr},
    {0, "time-budget", MG_OPT_DOUBLE, offsetof(Row, budget), "SECONDS", "budget per size", 1e-3, 60,
     nullptr, "1", "time_budget_s"},
    {0, "precision", MG_OPT_PERCENT, offsetof(Row, precision), "P%", "target", 1e-6, 0.5, nullptr,
     "1%", nullptr},
    {0, "rail-mode", MG_OPT_CHOICE, offsetof(Row, mode), "stripe|bind", "how", 0, 0, kModes, "bind",
     nullptr},
    {0, "flag", MG_OPT_FLAG, offsetof(Row, flag), nullptr, "a flag", 0, 0, nullptr, nullptr, ""},
    {0, "hint", MG_OPT_STRING, offsetof(Row, hint), "TEXT", "a hint (default: computed)", 0, 0,
     nullptr, nullptr, nullptr},
    {0, nullptr, MG_OPT_END, 0, nullptr, nullptr, 0, 0, nullptr, nullptr, nullptr},
};

std::string json_of(const mg_opt_table *t, size_t n)
{
    return capture([&](FILE *f) {
        mg_json j;
        mg_json_init(&j, f);
        mg_json_object_begin(&j, nullptr);
        mg_opts_json_members(&j, t, n);
        mg_json_object_end(&j);
    });
}

} // namespace

TEST(OptsRows, DefaultsComeFromTheRows)
{
    Row r{};
    r.window = 7;
    const mg_opt_table t = {kRows, &r, NULL, NULL};
    char err[160] = "";
    ASSERT_EQ(mg_opts_defaults(&t, 1, err, sizeof err), 0) << err;
    EXPECT_EQ(r.window, 64);
    EXPECT_EQ(r.budget, 1.0);
    EXPECT_EQ(r.precision, 0.01);
    EXPECT_EQ(r.mode, 1);
    EXPECT_EQ(r.flag, 0);
    EXPECT_EQ(r.hint, nullptr);
}

TEST(OptsRows, TheCommandLineOverridesADefault)
{
    Row r{};
    const mg_opt_table t = {kRows, &r, NULL, NULL};
    const char *argv[] = {"prog", "-W", "8", nullptr};
    char err[160] = "";
    ASSERT_EQ(mg_opts_defaults(&t, 1, err, sizeof err), 0) << err;
    ASSERT_EQ(mg_opts_parse(&t, 1, 3, const_cast<char *const *>(argv), err, sizeof err), 0) << err;
    EXPECT_EQ(r.window, 8);
    EXPECT_EQ(r.budget, 1.0);
}

TEST(OptsRows, HelpShowsTheRowsDefault)
{
    Row r{};
    const mg_opt_table t = {kRows, &r, NULL, NULL};
    std::string out = capture([&](FILE *f) { mg_opts_help(f, &t, 1); });
    EXPECT_NE(out.find("messages in flight (default 64)\n"), std::string::npos) << out;
    EXPECT_NE(out.find("target (default 1%)\n"), std::string::npos) << out;
    EXPECT_NE(out.find("how (default bind)\n"), std::string::npos) << out;
    EXPECT_NE(out.find("a flag\n"), std::string::npos) << out;
    EXPECT_NE(out.find("a hint (default: computed)\n"), std::string::npos) << out;
}

TEST(OptsRows, TheRecordUsesTheKeyAndSkipsTheUnrecorded)
{
    Row r{};
    const mg_opt_table t = {kRows, &r, NULL, NULL};
    char err[160] = "";
    ASSERT_EQ(mg_opts_defaults(&t, 1, err, sizeof err), 0) << err;
    EXPECT_EQ(json_of(&t, 1), "{\"window\":64,\"time_budget_s\":1,\"precision\":0.01,"
                              "\"rail_mode\":\"bind\",\"hint\":null}");
}

TEST(OptsRows, KeyNames)
{
    char buf[32];
    EXPECT_STREQ(mg_opt_key(&kRows[0], buf, sizeof buf), "window");
    EXPECT_STREQ(mg_opt_key(&kRows[1], buf, sizeof buf), "time_budget_s");
    EXPECT_STREQ(mg_opt_key(&kRows[3], buf, sizeof buf), "rail_mode");
    EXPECT_EQ(mg_opt_key(&kRows[4], buf, sizeof buf), nullptr);
    char tiny[5];
    EXPECT_STREQ(mg_opt_key(&kRows[3], tiny, sizeof tiny), "rail"); // cut, terminated
}

TEST(OptsRows, ANameDefinedTwiceIsRefused)
{
    struct Other {
        long w;
    } o{};
    const mg_opt same_long[] = {
        {0, "window", MG_OPT_LONG, offsetof(Other, w), "N", "again", 1, 9, nullptr, nullptr,
         nullptr},
        {0, nullptr, MG_OPT_END, 0, nullptr, nullptr, 0, 0, nullptr, nullptr, nullptr}};
    const mg_opt same_short[] = {
        {'W', "width", MG_OPT_LONG, offsetof(Other, w), "N", "again", 1, 9, nullptr, nullptr,
         nullptr},
        {0, nullptr, MG_OPT_END, 0, nullptr, nullptr, 0, 0, nullptr, nullptr, nullptr}};
    Row r{};
    char err[160] = "";
    const mg_opt_table a[] = {{kRows, &r, NULL}, {same_long, &o, NULL}};
    EXPECT_EQ(mg_opts_defaults(a, 2, err, sizeof err), -EINVAL);
    EXPECT_STREQ(err, "internal: option --window is defined twice");
    const mg_opt_table b[] = {{kRows, &r, NULL}, {same_short, &o, NULL}};
    EXPECT_EQ(mg_opts_defaults(b, 2, err, sizeof err), -EINVAL);
    EXPECT_STREQ(err, "internal: option --window is defined twice");
    const mg_opt_table c[] = {{kRows, &r, NULL}};
    EXPECT_EQ(mg_opts_defaults(c, 1, err, sizeof err), 0) << err;
}

TEST(OptsRows, ABadDefaultIsAnInternalError)
{
    struct Other {
        long w;
    } o{};
    const mg_opt bad[] = {
        {0, "count", MG_OPT_LONG, offsetof(Other, w), "N", "how many", 1, 9, nullptr, "10",
         nullptr},
        {0, nullptr, MG_OPT_END, 0, nullptr, nullptr, 0, 0, nullptr, nullptr, nullptr}};
    const mg_opt_table t = {bad, &o, NULL, NULL};
    char err[160] = "";
    EXPECT_EQ(mg_opts_defaults(&t, 1, err, sizeof err), -EINVAL);
    EXPECT_STREQ(err, "--count: 10 is out of range [1, 9] (internal: a bad default)");
}

TEST(OptsRows, HelpInJsonIsOneRecordPerRowWithItsGroup)
{
    Row r{};
    const mg_opt two[] = {kRows[0], kRows[3], kRows[6]};
    const mg_opt_table t[] = {{two, &r, "benchmark", nullptr}, {kRows + 5, &r, nullptr, nullptr}};
    const std::string out = capture([&](FILE *f) { mg_opts_json_help(f, "bw", t, 2); });
    EXPECT_EQ(out,
              "{\"type\":\"option\",\"program\":\"bw\",\"group\":\"benchmark\",\"short\":\"W\","
              "\"long\":\"window\",\"arg\":\"N\",\"default\":\"64\",\"key\":\"window\","
              "\"help\":\"messages in flight\"}\n"
              "{\"type\":\"option\",\"program\":\"bw\",\"group\":\"benchmark\",\"short\":null,"
              "\"long\":\"rail-mode\",\"arg\":\"stripe|bind\",\"choices\":[\"stripe\",\"bind\"],"
              "\"default\":\"bind\",\"key\":\"rail_mode\",\"help\":\"how\"}\n"
              "{\"type\":\"option\",\"program\":\"bw\",\"group\":null,\"short\":null,"
              "\"long\":\"hint\",\"arg\":\"TEXT\",\"default\":null,\"key\":\"hint\","
              "\"help\":\"a hint (default: computed)\"}\n");
}

TEST(OptsRows, StringifiedDefaultsReadAsWritten)
{
#define MG_TEST_LIST 1, 2, 5
#define MG_TEST_NUMBER 20
    EXPECT_STREQ(MG_STR(MG_TEST_NUMBER), "20");
    EXPECT_STREQ("(default " MG_STR(MG_TEST_LIST) ")", "(default 1, 2, 5)");
#undef MG_TEST_LIST
#undef MG_TEST_NUMBER
}
