/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_opts: the declarative option parser and its help.
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

struct TestOpts {
    int validate;
    long iterations;
    double budget;
    double precision;
    uint64_t buffer;
    const char *output;
    int format;
    long nolimit;
};

const char *const kFormats[] = {"table", "csv", "json", nullptr};

const mg_opt kOpts[] = {
    {'c', "validate", MG_OPT_FLAG, offsetof(TestOpts, validate), nullptr, "check received data", 0,
     0, nullptr, nullptr, nullptr},
    {'i', "iterations", MG_OPT_LONG, offsetof(TestOpts, iterations), "N", "timed iterations", 1,
     1000000, nullptr, nullptr, nullptr},
    {'t', "budget", MG_OPT_DOUBLE, offsetof(TestOpts, budget), "SECONDS", "time budget per size",
     0.001, 3600, nullptr, nullptr, nullptr},
    {'p', "precision", MG_OPT_PERCENT, offsetof(TestOpts, precision), "PCT", "target precision",
     0.0001, 0.5, nullptr, nullptr, nullptr},
    {'b', "buffer", MG_OPT_SIZE, offsetof(TestOpts, buffer), "BYTES", "buffer size", 1,
     1073741824.0, nullptr, nullptr, nullptr},
    {'o', "output", MG_OPT_STRING, offsetof(TestOpts, output), "FILE", "write results to FILE", 0,
     0, nullptr, nullptr, nullptr},
    {'f', "format", MG_OPT_CHOICE, offsetof(TestOpts, format), "FMT", "output format", 0, 0,
     kFormats, nullptr, nullptr},
    {0, "no-limit", MG_OPT_LONG, offsetof(TestOpts, nolimit), "N", "a long without range", 0, 0,
     nullptr, nullptr, nullptr},
    {0, nullptr, MG_OPT_END, 0, nullptr, nullptr, 0, 0, nullptr, nullptr, nullptr},
};

struct Result {
    int rc;
    TestOpts o;
    std::string err;
    // STRING options point into argv: keep it alive as long as the result
    std::shared_ptr<std::vector<std::string>> args;
};

// Parse a command line (program name added) into a fresh TestOpts.
Result parse(std::initializer_list<const char *> args)
{
    Result r{};
    r.args = std::make_shared<std::vector<std::string>>();
    r.args->push_back("prog");
    for (const char *a : args)
        r.args->emplace_back(a);
    std::vector<char *> argv;
    for (std::string &s : *r.args)
        argv.push_back(&s[0]);
    argv.push_back(nullptr);

    r.o.iterations = -7;
    r.o.budget = -7.0;
    r.o.precision = -7.0;
    r.o.buffer = 7;
    r.o.format = -7;
    r.o.nolimit = -7;
    mg_opt_table t = {kOpts, &r.o, NULL, NULL};
    char err[256] = "";
    r.rc = mg_opts_parse(&t, 1, (int)argv.size() - 1, argv.data(), err, sizeof err);
    r.err = err;
    return r;
}

bool contains(const std::string &s, const std::string &part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

// ---- value forms ---------------------------------------------------------------

TEST(Opts, NoArgumentsChangeNothing)
{
    Result r = parse({});
    EXPECT_EQ(r.rc, 0);
    EXPECT_EQ(r.o.validate, 0);
    EXPECT_EQ(r.o.iterations, -7);
    EXPECT_EQ(r.o.output, nullptr);
}

TEST(Opts, ShortValueAttached)
{
    Result r = parse({"-i5"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.o.iterations, 5);
}

TEST(Opts, ShortValueSeparate)
{
    Result r = parse({"-i", "5"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.o.iterations, 5);
}

TEST(Opts, LongValueWithEquals)
{
    Result r = parse({"--iterations=5"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.o.iterations, 5);
}

TEST(Opts, LongValueSeparate)
{
    Result r = parse({"--iterations", "5"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.o.iterations, 5);
}

TEST(Opts, LongValueMayContainEquals)
{
    Result r = parse({"--output=a=b.txt"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_STREQ(r.o.output, "a=b.txt");
}

TEST(Opts, SeparateValueMayStartWithDash)
{
    Result r = parse({"--output", "-"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_STREQ(r.o.output, "-");
}

TEST(Opts, LastOccurrenceWins)
{
    Result r = parse({"-i", "5", "--iterations=9"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.o.iterations, 9);
}

TEST(Opts, AllTypesTogether)
{
    Result r = parse({"-c", "-i", "100", "--budget=0.5", "-p2%", "--buffer", "64K", "-o",
                      "out.json", "--format=json", "--no-limit", "-123456789"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.o.validate, 1);
    EXPECT_EQ(r.o.iterations, 100);
    EXPECT_EQ(r.o.budget, 0.5);
    EXPECT_DOUBLE_EQ(r.o.precision, 0.02);
    EXPECT_EQ(r.o.buffer, UINT64_C(65536));
    EXPECT_STREQ(r.o.output, "out.json");
    EXPECT_EQ(r.o.format, 2);
    EXPECT_EQ(r.o.nolimit, -123456789);
}

// ---- flags ---------------------------------------------------------------------

TEST(Opts, FlagShortAndLongSetOne)
{
    EXPECT_EQ(parse({"-c"}).o.validate, 1);
    EXPECT_EQ(parse({"--validate"}).o.validate, 1);
}

TEST(Opts, FlagGivenValueWithEqualsIsAnError)
{
    Result r = parse({"--validate=1"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "--validate takes no value");
}

TEST(Opts, ShortFlagWithAttachedTextIsAnError)
{
    Result r = parse({"-c1"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_TRUE(contains(r.err, "-c takes no value")) << r.err;
}

// ---- errors ----------------------------------------------------------------------

TEST(Opts, UnknownLongOptionIsNamed)
{
    Result r = parse({"--bogus=3"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "unknown option '--bogus'");
}

TEST(Opts, UnknownShortOptionIsNamed)
{
    Result r = parse({"-z"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "unknown option '-z'");
}

TEST(Opts, LongNamePrefixIsNotAccepted)
{
    Result r = parse({"--iter=5"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "unknown option '--iter'");
}

TEST(Opts, MissingValueAtEndIsAnError)
{
    Result r = parse({"--iterations"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "--iterations needs a value (N)");
    Result s = parse({"-c", "-i"});
    EXPECT_EQ(s.rc, -EINVAL);
    EXPECT_EQ(s.err, "--iterations needs a value (N)");
}

TEST(Opts, EmptyEqualsValueIsMalformed)
{
    Result r = parse({"--iterations="});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_TRUE(contains(r.err, "is not a whole number")) << r.err;
    EXPECT_EQ(parse({"--output="}).rc, -EINVAL);
    EXPECT_EQ(parse({"--budget="}).rc, -EINVAL);
}

TEST(Opts, LongOutOfRangeIsAnError)
{
    Result r = parse({"-i", "0"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "--iterations: 0 is out of range [1, 1000000]");
    EXPECT_EQ(parse({"-i", "1000001"}).rc, -EINVAL);
    EXPECT_EQ(parse({"-i", "-1"}).rc, -EINVAL);
    EXPECT_EQ(parse({"-i", "1000000"}).o.iterations, 1000000);
    EXPECT_EQ(parse({"-i", "1"}).o.iterations, 1);
}

TEST(Opts, LongOverflowIsAnError)
{
    EXPECT_EQ(parse({"--no-limit", "99999999999999999999"}).rc, -EINVAL);
    EXPECT_EQ(parse({"-i", "99999999999999999999"}).rc, -EINVAL);
}

TEST(Opts, LongOverflowWithoutRangeSaysTooLarge)
{
    Result r = parse({"--no-limit", "99999999999999999999"});
    EXPECT_NE(r.err.find("too large"), std::string::npos) << r.err;
}

TEST(Opts, NumberWithLeadingWhiteSpaceIsAnError)
{
    EXPECT_EQ(parse({"-i", " 5"}).rc, -EINVAL);
    EXPECT_EQ(parse({"-t", " 1.5"}).rc, -EINVAL);
    EXPECT_EQ(parse({"-b", " 4K"}).rc, -EINVAL);
}

TEST(Opts, MalformedLongIsAnError)
{
    const char *bad[] = {"5x", "abc", "1.5", "0x10", "1e3", ""};
    for (const char *v : bad) {
        Result r = parse({"-i", v});
        EXPECT_EQ(r.rc, -EINVAL) << v;
        EXPECT_EQ(r.err, "--iterations: '" + std::string(v) + "' is not a whole number");
    }
}

TEST(Opts, MalformedDoubleIsAnError)
{
    const char *bad[] = {"fast", "1.5s", "nan", "inf", "1e999", ""};
    for (const char *v : bad) {
        Result r = parse({"--budget", v});
        EXPECT_EQ(r.rc, -EINVAL) << v;
        EXPECT_EQ(r.err, "--budget: '" + std::string(v) + "' is not a number");
    }
}

TEST(Opts, DoubleRangeIsInclusive)
{
    EXPECT_EQ(parse({"-t", "3600"}).o.budget, 3600.0);
    EXPECT_EQ(parse({"-t", "0.001"}).o.budget, 0.001);
    Result r = parse({"-t", "3601"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "--budget: 3601 is out of range [0.001, 3600]");
    EXPECT_EQ(parse({"-t", "0"}).rc, -EINVAL);
}

// ---- percent -----------------------------------------------------------------------

TEST(Opts, PercentWithSignIsAFraction)
{
    Result r = parse({"-p", "1%"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_DOUBLE_EQ(r.o.precision, 0.01);
}

TEST(Opts, PercentWithoutSignIsStillPercent)
{
    Result r = parse({"--precision", "0.5"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_DOUBLE_EQ(r.o.precision, 0.005);
    EXPECT_DOUBLE_EQ(parse({"--precision=0.5%"}).o.precision, 0.005);
    EXPECT_DOUBLE_EQ(parse({"-p1"}).o.precision, 0.01);
}

TEST(Opts, PercentOutOfRangeIsReportedInPercent)
{
    Result r = parse({"-p", "60%"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "--precision: 60% is out of range [0.01%, 50%]");
}

TEST(Opts, MalformedPercentIsAnError)
{
    EXPECT_EQ(parse({"-p", "%"}).rc, -EINVAL);
    EXPECT_EQ(parse({"-p", "1%%"}).rc, -EINVAL);
    EXPECT_EQ(parse({"-p", "1 %"}).rc, -EINVAL);
    EXPECT_EQ(parse({"-p", "one"}).rc, -EINVAL);
}

// ---- size -------------------------------------------------------------------------

TEST(Opts, SizeTakesSuffixes)
{
    EXPECT_EQ(parse({"-b", "4K"}).o.buffer, UINT64_C(4096));
    EXPECT_EQ(parse({"--buffer=1G"}).o.buffer, UINT64_C(1) << 30);
    EXPECT_EQ(parse({"-b1"}).o.buffer, UINT64_C(1));
}

TEST(Opts, MalformedSizeCarriesTheSizeMessage)
{
    Result r = parse({"-b", "4KB"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err.rfind("--buffer: size '4KB' has trailing characters", 0), 0u) << r.err;
}

TEST(Opts, SizeOutOfRangeIsAnError)
{
    Result r = parse({"-b", "2G"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "--buffer: 2G is out of range [1, 1073741824] bytes");
    EXPECT_EQ(parse({"-b", "0"}).rc, -EINVAL);
}

// ---- string and choice ---------------------------------------------------------

TEST(Opts, StringPointsIntoArgv)
{
    Result r = parse({"-o", "results.csv"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_STREQ(r.o.output, "results.csv");
}

TEST(Opts, EmptyStringIsAnError)
{
    Result r = parse({"-o", ""});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "--output: empty value");
}

TEST(Opts, ChoiceStoresIndex)
{
    EXPECT_EQ(parse({"-f", "table"}).o.format, 0);
    EXPECT_EQ(parse({"-fcsv"}).o.format, 1);
    EXPECT_EQ(parse({"--format", "json"}).o.format, 2);
}

TEST(Opts, UnknownChoiceListsTheChoices)
{
    Result r = parse({"--format=xml"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "--format: unknown value 'xml' (one of: table csv json)");
    EXPECT_EQ(parse({"-f", "CSV"}).rc, -EINVAL);
}

TEST(Opts, UnknownChoiceMessageIsTruncatedSafely)
{
    const char *argv[] = {"prog", "--format=xml", nullptr};
    TestOpts o{};
    mg_opt_table t = {kOpts, &o, NULL, NULL};
    char err[24];
    std::memset(err, 'Z', sizeof err);
    EXPECT_EQ(mg_opts_parse(&t, 1, 2, const_cast<char *const *>(argv), err, sizeof err), -EINVAL);
    EXPECT_EQ(std::string(err),
              std::string("--format: unknown value 'xml' (one of:").substr(0, sizeof err - 1));
}

// ---- positional arguments and "--" --------------------------------------------

TEST(Opts, PositionalArgumentIsAnError)
{
    Result r = parse({"-c", "extra"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "unexpected argument 'extra'");
}

TEST(Opts, OsuHostBufferLocationsAreAccepted)
{
    Result r = parse({"H", "H", "-c"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.o.validate, 1);
    EXPECT_EQ(parse({"-c", "H"}).rc, 0);
}

TEST(Opts, OsuDeviceBufferLocationsAreRefused)
{
    for (const char *loc : {"D", "M"}) {
        Result r = parse({"H", loc});
        EXPECT_EQ(r.rc, -EINVAL) << loc;
        EXPECT_EQ(r.err, std::string("buffer location '") + loc +
                             "': device buffers need a build with GPU support; this one has "
                             "host buffers (H) only");
    }
    Result r = parse({"H", "H", "H"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "more than two buffer locations (OSU's H H: sender, receiver)");
    EXPECT_EQ(parse({"h"}).err, "unexpected argument 'h'");
    EXPECT_EQ(parse({"HH"}).err, "unexpected argument 'HH'");
}

TEST(Opts, LoneDashIsAPositionalArgument)
{
    Result r = parse({"-"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "unexpected argument '-'");
}

TEST(Opts, DoubleDashAtEndEndsOptions)
{
    Result r = parse({"-c", "--"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.o.validate, 1);
}

TEST(Opts, ArgumentAfterDoubleDashIsStillAnError)
{
    Result r = parse({"--", "-c"});
    EXPECT_EQ(r.rc, -EINVAL);
    EXPECT_EQ(r.err, "unexpected argument '-c'");
    EXPECT_EQ(r.o.validate, 0);
}

TEST(Opts, DoubleDashCanBeAValue)
{
    Result r = parse({"-o", "--"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_STREQ(r.o.output, "--");
}

// ---- several tables ------------------------------------------------------------

namespace
{
struct Extra {
    long window;
};
const mg_opt kExtraOpts[] = {
    {'W', "window", MG_OPT_LONG, offsetof(Extra, window), "N", "messages in flight", 1, 64, nullptr,
     nullptr, nullptr},
    {0, nullptr, MG_OPT_END, 0, nullptr, nullptr, 0, 0, nullptr, nullptr, nullptr},
};
} // namespace

TEST(Opts, EachTableWritesIntoItsOwnStruct)
{
    TestOpts o{};
    Extra e{};
    const mg_opt_table t[] = {{kOpts, &o, NULL}, {kExtraOpts, &e, NULL}};
    const char *argv[] = {"prog", "-W", "8", "-i", "3", "--window=16", nullptr};
    char err[128] = "";
    ASSERT_EQ(mg_opts_parse(t, 2, 6, const_cast<char *const *>(argv), err, sizeof err), 0) << err;
    EXPECT_EQ(e.window, 16);
    EXPECT_EQ(o.iterations, 3);
}

// ---- help ---------------------------------------------------------------------------

TEST(OptsHelp, ListsEveryLongOptionWithItsHelp)
{
    TestOpts o{};
    Extra e{};
    const mg_opt_table t[] = {{kOpts, &o, NULL}, {kExtraOpts, &e, NULL}};
    std::string out = capture([&](FILE *f) { mg_opts_help(f, t, 2); });

    for (const mg_opt *op = kOpts; op->type != MG_OPT_END; ++op) {
        EXPECT_TRUE(contains(out, std::string("--") + op->long_name)) << op->long_name;
        EXPECT_TRUE(contains(out, op->help)) << op->help;
    }
    EXPECT_TRUE(contains(out, "--window N")) << out;
    EXPECT_TRUE(contains(out, "  -i, --iterations N")) << out;
    EXPECT_TRUE(contains(out, "      --no-limit N")) << out;
    EXPECT_TRUE(contains(out, "  -c, --validate ")) << out;
    size_t lines = 0;
    for (char c : out)
        lines += c == '\n';
    EXPECT_EQ(lines, 9u);
}

// ---- option values as JSON (mg_opts_json) ------------------------------------

TEST(OptsJson, EveryOptionIsAMemberNamedByItsLongNameInSnakeCase)
{
    Result r = parse({"-c", "-i", "100", "--budget=0.5", "-p2%", "--buffer", "64K", "-o",
                      "out \"1\".json", "--format=csv", "--no-limit", "-3"});
    ASSERT_EQ(r.rc, 0) << r.err;
    mg_opt_table t = {kOpts, &r.o, NULL, NULL};
    FILE *f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    mg_json j;
    mg_json_init(&j, f);
    mg_json_object_begin(&j, nullptr);
    mg_opts_json(&j, "options", &t, 1);
    mg_json_object_end(&j);
    std::fflush(f);
    std::rewind(f);
    char buf[1024];
    size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    std::fclose(f);
    EXPECT_STREQ(buf, "{\"options\":{\"validate\":true,\"iterations\":100,\"budget\":0.5,"
                      "\"precision\":0.02,\"buffer\":65536,\"output\":\"out \\\"1\\\".json\","
                      "\"format\":\"csv\",\"no_limit\":-3}}");
}

TEST(OptsJson, UnsetStringIsNullAndUnsetFlagIsFalse)
{
    TestOpts o{};
    mg_opt_table t = {kOpts, &o, NULL, NULL};
    FILE *f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    mg_json j;
    mg_json_init(&j, f);
    mg_opts_json(&j, nullptr, &t, 1);
    std::fflush(f);
    std::rewind(f);
    char buf[1024];
    size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    std::fclose(f);
    EXPECT_STREQ(buf, "{\"validate\":false,\"iterations\":0,\"budget\":0,\"precision\":0,"
                      "\"buffer\":0,\"output\":null,\"format\":\"table\",\"no_limit\":0}");
}

// A table with a given-array learns which rows the command line named, by
// short or long name, with a value attached or apart.
TEST(Opts, GivenRowsAreMarked)
{
    TestOpts o{};
    unsigned char given[16] = {0};
    mg_opt_table t = {kOpts, &o, nullptr, given};
    char a0[] = "prog", a1[] = "-i", a2[] = "5", a3[] = "--output=x", a4[] = "-c";
    char *argv[] = {a0, a1, a2, a3, a4, nullptr};
    char err[256];
    ASSERT_EQ(mg_opts_parse(&t, 1, 5, argv, err, sizeof err), 0) << err;
    EXPECT_EQ(given[0], 1); // -c
    EXPECT_EQ(given[1], 1); // -i
    EXPECT_EQ(given[2], 0);
    EXPECT_EQ(given[5], 1); // --output
    EXPECT_EQ(given[6], 0);
    EXPECT_EQ(given[7], 0);
}
