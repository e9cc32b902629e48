/* SPDX-License-Identifier: BSD-3-Clause */
// The driver in one process: the real plan, sweep, stop rules, validation and
// sinks run a fake benchmark on a fake clock with a one-rank group
// (driver_fake.h). Exact values: the fake clock makes every sample known.
#include "driver_fake.h"

#include "golden.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace
{

struct Outcome {
    int exit_code = -1;
    std::string out, err;
    double clock_s = 0.0;
    long calls = 0, iters = 0;
    long setups = 0, teardowns = 0;
    long probe_closes = 0;
};

Outcome run(std::initializer_list<const char *> args, const char *program = "mpigauge_fake")
{
    std::vector<const char *> argv{program};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back(nullptr);
    mgt_result r;
    Outcome out;
    EXPECT_EQ(mgt_run(static_cast<int>(argv.size()) - 1, argv.data(), &r), 0);
    out.exit_code = r.exit_code;
    out.out = r.out ? r.out : "";
    out.err = r.err ? r.err : "";
    out.clock_s = r.clock_s;
    out.calls = r.kernel_calls;
    out.iters = r.kernel_iters;
    out.setups = r.setups;
    out.teardowns = r.teardowns;
    out.probe_closes = r.probe_closes;
    mgt_result_free(&r);
    return out;
}

std::vector<std::string> lines_of(const std::string &text, const char *type)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    const std::string want = std::string("{\"type\":\"") + type + "\"";
    while (std::getline(in, line))
        if (line.compare(0, want.size(), want) == 0)
            out.push_back(line);
    return out;
}

// The raw text of a member "key":VALUE (a number, a string with its quotes,
// or a literal) of a JSON line, first occurrence.
std::string field(const std::string &line, const std::string &key)
{
    std::smatch m;
    const std::regex re("\"" + key + "\":(\"[^\"]*\"|[^,}\\]]*)");
    if (!std::regex_search(line, m, re))
        return "<missing " + key + ">";
    return m[1];
}

double number(const std::string &line, const std::string &key)
{
    return std::strtod(field(line, key).c_str(), nullptr);
}

std::string temp_dir()
{
    char tmpl[] = "/tmp/mg_driver_test.XXXXXX";
    const char *d = mkdtemp(tmpl);
    EXPECT_NE(d, nullptr);
    return d ? d : "/tmp";
}

// A fixed run with variation: every format of it is a golden file.
const std::initializer_list<const char *> kFixed = {"-m", "1:4", "-i",       "40", "-x",
                                                    "4",  "-c",  "--jitter", "0.1"};

TEST(DriverGolden, JsonLinesRunRecordRowsAndSummary)
{
    Outcome r =
        run({"-m", "1:4", "-i", "40", "-x", "4", "-c", "--jitter", "0.1", "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    expect_golden("driver_fixed.jsonl", r.out);
    // the fake environment's SLURM_JWT is named, its value never written
    EXPECT_NE(r.out.find("\"SLURM_JWT\":\"<redacted>\""), std::string::npos);
    EXPECT_EQ(r.out.find("eyJhbGciOi"), std::string::npos);
}

TEST(DriverGolden, Table)
{
    Outcome r = run(kFixed);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    expect_golden("driver_fixed_table.txt", r.out);
}

TEST(DriverGolden, Csv)
{
    Outcome r =
        run({"-m", "1:4", "-i", "40", "-x", "4", "-c", "--jitter", "0.1", "--format", "csv"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    expect_golden("driver_fixed.csv", r.out);
}

// The result lines' members, in sweep order.
std::vector<std::string> column(const Outcome &r, const std::string &key)
{
    std::vector<std::string> out;
    for (const std::string &line : lines_of(r.out, "result"))
        out.push_back(field(line, key));
    return out;
}

using Strings = std::vector<std::string>;

TEST(DriverStop, FixedCountIsExactAndSplitIntoBlocks)
{
    Outcome r = run({"-m", "8:8", "-i", "1000", "-x", "0", "--ways", "1", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(column(r, "stop"), Strings({"\"fixed\""}));
    EXPECT_EQ(column(r, "iterations"), Strings({"1000"}));
    // no warm-up (-x 0) and validation off: the kernel ran the 1000 timed
    // iterations only, and every sample is the exact fake cost (1 us + 8 ns)
    EXPECT_EQ(r.iters, 1000);
    // iterations of 1.008 us, and 1 ns more per sample (the fake clock's tick)
    const std::string row = lines_of(r.out, "result").at(0);
    const double per_sample = 1000.0 / number(row, "samples");
    EXPECT_NEAR(number(row, "min"), 1.008 + 0.001 / per_sample, 1e-6);
    EXPECT_NEAR(number(row, "max"), 1.008 + 0.001 / per_sample, 1e-6);
    EXPECT_EQ(field(row, "samples"), "1000");
}

TEST(DriverStop, SteadyKernelStopsOnPrecisionAtMinSamples)
{
    Outcome r = run({"-m", "1:2", "--ways", "1", "--min-samples", "12", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(column(r, "stop"), Strings({"\"precision\"", "\"precision\""}));
    EXPECT_EQ(column(r, "samples"), Strings({"12", "12"}));
}

TEST(DriverStop, NoisyKernelStopsOnTheTimeBudget)
{
    // +-90% per call cannot reach 0.01% precision: each size runs until its
    // budget of 5 ms of fake time is spent
    Outcome r = run({"-m", "64:64", "--ways", "1", "--jitter", "0.9", "--precision", "0.01%",
                     "--time-budget", "0.005", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(column(r, "stop"), Strings({"\"budget\""}));
    const std::string row = lines_of(r.out, "result").at(0);
    const double spent_s = number(row, "mean") * 1e-6 * number(row, "iterations");
    EXPECT_GT(spent_s, 0.005 * 0.5);
    EXPECT_LT(spent_s, 0.005 * 1.5);
}

TEST(DriverStop, NoisyKernelStopsAtMaxSamples)
{
    Outcome r = run({"-m", "64:64", "--ways", "1", "--jitter", "0.9", "--precision", "0.01%",
                     "--max-samples", "30", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(column(r, "stop"), Strings({"\"max-samples\""}));
    EXPECT_EQ(column(r, "samples"), Strings({"30"}));
}

TEST(DriverVariants, ReferenceFirstAndRatiosFromIt)
{
    Outcome r = run({"-m", "16:16", "-i", "100", "--ways", "2,1,4", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(column(r, "variant"), Strings({"\"ways=2\"", "\"ways=1\"", "\"ways=4\""}));
    const auto rows = lines_of(r.out, "result");
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_NEAR(number(rows[0], "ratio_to_ref"), 1.0, 1e-9);
    EXPECT_NEAR(number(rows[1], "ratio_to_ref"), 0.5, 1e-3);
    EXPECT_NEAR(number(rows[2], "ratio_to_ref"), 2.0, 1e-3);
    const auto summary = lines_of(r.out, "summary");
    ASSERT_EQ(summary.size(), 1u);
    EXPECT_EQ(field(summary[0], "variant"), "\"ways=4\"");
    EXPECT_EQ(field(summary[0], "rows"), "3");
}

TEST(DriverCall, BarrierSyncTakesOneSamplePerCall)
{
    Outcome r = run({"-m", "4:4", "--ways", "1", "-i", "50", "-x", "5", "--format", "json"},
                    "mpigauge_fake_call");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(column(r, "stop"), Strings({"\"fixed\""}));
    EXPECT_EQ(column(r, "samples"), Strings({"50"}));
    EXPECT_EQ(column(r, "iterations"), Strings({"50"}));
    EXPECT_EQ(column(r, "late"), Strings({"0"}));
    EXPECT_NE(r.out.find("\"time_mode\":\"call\""), std::string::npos);
}

TEST(DriverCall, WindowTooShortDropsLateCallsAndGrows)
{
    // 1 us windows for 5 us calls: calls start late and are dropped (and
    // counted) until the window has doubled past the call time
    Outcome r = run({"-m", "4:4", "--ways", "1", "--sync", "window", "--sync-window", "1",
                     "--cost-us", "5", "-i", "50", "-x", "5", "--format", "json"},
                    "mpigauge_fake_call");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string row = lines_of(r.out, "result").at(0);
    EXPECT_GT(number(row, "late"), 0.0);
    EXPECT_EQ(field(row, "samples"), "50");
    EXPECT_NEAR(number(row, "median"), 5.004, 0.01);
}

TEST(DriverValidation, CorruptDeliveryFailsWithExitOneAndKeepsTheRows)
{
    Outcome r =
        run({"-m", "8:8", "-i", "10", "--ways", "1", "-c", "--corrupt", "--format", "json"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(column(r, "validation"), Strings({"\"failed\""}));
    EXPECT_NE(r.err.find("validation failed: rank 0, size 8, pass 0, message from rank 0 (slot "
                         "0): first bad byte at offset 4"),
              std::string::npos)
        << r.err;
}

TEST(DriverFailure, AgreedFailureEndsTheSweepAndDropsTheOutputFile)
{
    const std::string dir = temp_dir(), path = dir + "/out.jsonl";
    Outcome r = run({"-m", "1:8", "-i", "10", "--ways", "1", "--fail-at", "4", "-o", path.c_str(),
                     "--format", "json"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(column(r, "size_bytes"), Strings({"1", "2"}));
    const auto errors = lines_of(r.out, "error");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(field(errors[0], "message"),
              "\"size 4: the fake kernel fails at this size (--fail-at)\"");
    EXPECT_EQ(lines_of(r.out, "summary").size(), 0u);
    EXPECT_NE(access(path.c_str(), F_OK), 0) << "an incomplete -o file was kept";
    EXPECT_EQ(rmdir(dir.c_str()), 0) << "a temporary file was left in " << dir;
}

TEST(DriverOutput, OutputFileHoldsWhatStandardOutputShows)
{
    const std::string dir = temp_dir(), path = dir + "/out.jsonl";
    Outcome r = run({"-m", "1:2", "-i", "20", "-o", path.c_str(), "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string file;
    ASSERT_TRUE(read_file(path, &file));
    EXPECT_EQ(file, r.out);
    EXPECT_EQ(lines_of(file, "result").size(), 4u);
    EXPECT_EQ(unlink(path.c_str()), 0);
    EXPECT_EQ(rmdir(dir.c_str()), 0);
}

// The -o file gets the mode any new file gets: 0666 less the umask.
mode_t output_mode(mode_t mask)
{
    const std::string dir = temp_dir(), path = dir + "/out.jsonl";
    const mode_t old = umask(mask);
    Outcome r = run({"-m", "1:1", "-i", "10", "--ways", "1", "-o", path.c_str()});
    umask(old);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    struct stat st {
    };
    EXPECT_EQ(stat(path.c_str(), &st), 0);
    unlink(path.c_str());
    rmdir(dir.c_str());
    return st.st_mode & 07777;
}

TEST(DriverOutput, OutputFileHonoursTheUmask)
{
    EXPECT_EQ(output_mode(022), 0644u);
    EXPECT_EQ(output_mode(077), 0600u);
    EXPECT_EQ(output_mode(002), 0664u);
}

TEST(DriverPlan, UsageErrorSaysWhatAndExitsTwoBeforeMeasuring)
{
    Outcome r = run({"--ways", "0"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.calls, 0);
    EXPECT_NE(r.err.find("mpigauge_fake: error: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--ways"), std::string::npos) << r.err;
    r = run({"-m", "0"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.calls, 0);
}

TEST(DriverSink, AnInjectedSinkGetsTheRowsAndTheErrorAsData)
{
    const char *argv[] = {"mpigauge_fake", "-m",  "1:4",  "-i", "40", "-x", "4",
                          "--ways",        "1,2", nullptr};
    mgt_result r;
    ASSERT_EQ(mgt_run(9, argv, &r), 0);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_TRUE(r.plan_unchanged);
    EXPECT_EQ(r.begins, 1);
    EXPECT_EQ(r.summaries, 1);
    EXPECT_EQ(r.errors, 0);
    ASSERT_EQ(r.nrows, 6);
    const unsigned long long sizes[] = {1, 1, 2, 2, 4, 4};
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(r.row_size[i], sizes[i]) << i;
        EXPECT_STREQ(r.row_variant[i], i % 2 ? "ways=2" : "ways=1") << i;
        EXPECT_STREQ(r.row_stop[i], "fixed") << i;
        EXPECT_GT(r.row_median[i], 0.0) << i;
    }
    mgt_result_free(&r);

    const char *bad[] = {"mpigauge_fake", "--ways", "0", nullptr};
    ASSERT_EQ(mgt_run(3, bad, &r), 0);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.nrows, 0);
    EXPECT_EQ(r.errors, 1);
    EXPECT_STREQ(r.error_code, "usage");
    mgt_result_free(&r);
}

// The plan is made before MPI_Init, once: its errors are kept for rank 0 to
// say, a form that takes rails the program has no options for is refused as an internal error, and the
// run that reads it leaves it as it was (the -M guard the session clamps
// goes to the run record's copy of the configuration).
TEST(DriverPlan, MadeOnceRefusesAFormWithOtherRailsAndStaysUnchanged)
{
    char err[512];
    const char *rogue[] = {"mpigauge_fake_rogue", "-m", "8", nullptr};
    EXPECT_EQ(mgt_plan(3, rogue, err, sizeof err), 2);
    EXPECT_NE(std::string(err).find("differs in its rails"), std::string::npos) << err;
    const char *fine[] = {"mpigauge_fake", "-m", "8", nullptr};
    EXPECT_EQ(mgt_plan(3, fine, err, sizeof err), 0) << err;
    const char *tiny[] = {"mpigauge_fake", "-m", "abc", nullptr};
    EXPECT_EQ(mgt_plan(3, tiny, err, sizeof err), 1);
    EXPECT_NE(std::string(err).find("-m: "), std::string::npos) << err;

    const char *argv[] = {"mpigauge_fake", "-m", "1:8", "-i", "10",   "--ways", "1",
                          "--own-bytes",   "1K", "-M",  "1G", nullptr};
    mgt_result r;
    ASSERT_EQ(mgt_run(11, argv, &r), 0);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.plan_unchanged);
    mgt_result_free(&r);
}

TEST(DriverPlan, HelpShowsTheBenchmarksDefaultsFromItsRows)
{
    Outcome r = run({"--help"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.calls, 0);
    EXPECT_NE(r.out.find("--ways LIST"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(default 1,2)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("--sync"), std::string::npos) << "a block-sampling program has no --sync";
    r = run({"--help"}, "mpigauge_fake_call");
    EXPECT_NE(r.out.find("--sync"), std::string::npos) << r.out;
}

} // namespace

// A kernel's own memory (an RMA window): the -M guard counts it with the
// buffers, setup runs once before the run record, which carries describe's
// members, and teardown once after the sweep.
TEST(DriverKernelObjects, OwnMemoryIsGuardedSetUpOnceAndDescribed)
{
    Outcome r = run({"-m", "64", "-i", "10", "--ways", "1", "--own-bytes", "1M", "-M", "1M"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.calls, 0);
    EXPECT_EQ(r.setups, 0);
    EXPECT_NE(r.err.find("need 1048704 bytes"), std::string::npos) << r.err;
    r = run({"-m", "8,64", "-i", "10", "--ways", "1", "--own-bytes", "4K", "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.setups, 1);
    EXPECT_EQ(r.teardowns, 1);
    std::vector<std::string> run_rec = lines_of(r.out, "run");
    ASSERT_EQ(run_rec.size(), 1u);
    EXPECT_NE(run_rec[0].find("\"fake_own\":{\"bytes\":4096,\"setups\":1}"), std::string::npos)
        << run_rec[0];
    r = run({"-m", "8", "-i", "10", "--ways", "1", "--own-bytes", "4K"});
    EXPECT_NE(r.out.find("# fake_own: bytes=4096 setups=1\n"), std::string::npos) << r.out;
}

// An observer (mpi/observe/mg_observe.h) joins when it says so, sees every row's
// timed samples begin and end once, and its values reach the JSON record
// (an object named after it) and the default table (its column); it is
// closed once. Without --probe it stays out of both.
TEST(DriverObserver, ValuesReachTheRecordAndTheTableAndItIsClosedOnce)
{
    Outcome r =
        run({"-m", "1:4", "-i", "40", "-x", "4", "--ways", "1", "--probe", "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> rows = lines_of(r.out, "result");
    ASSERT_EQ(rows.size(), 3u);
    for (const std::string &row : rows) {
        const std::string want =
            "\"probe\":{\"timed_iters\":" + field(row, "iterations") + ",\"begins\":1,\"ends\":1}";
        EXPECT_NE(row.find(want), std::string::npos) << row;
    }
    EXPECT_EQ(r.probe_closes, 1);
    Outcome t = run({"-m", "1:4", "-i", "40", "-x", "4", "--ways", "1", "--probe"});
    EXPECT_EQ(t.exit_code, 0) << t.err;
    std::istringstream in(t.out);
    std::string line;
    int header = 0, cells = 0;
    while (std::getline(in, line)) {
        if (line.rfind("# Size", 0) == 0) {
            header += line.find(" probe_iters  ways") != std::string::npos;
            continue;
        }
        if (line.empty() || line[0] == '#')
            continue;
        // a row: ... Samples Iterations Stop Validation? ratio_to_ref probe_iters ways
        std::istringstream cols(line);
        std::vector<std::string> v;
        for (std::string c; cols >> c;)
            v.push_back(c);
        ASSERT_GE(v.size(), 4u) << line;
        EXPECT_EQ(v[v.size() - 2], "40") << line; // the cell: 40 timed iterations
        cells++;
    }
    EXPECT_EQ(header, 1) << t.out;
    EXPECT_EQ(cells, 3) << t.out;
    Outcome n = run({"-m", "1:4", "-i", "40", "-x", "4", "--ways", "1", "--format", "json"});
    EXPECT_EQ(n.out.find("\"probe\":{"), std::string::npos);
    EXPECT_EQ(n.out.find("probe_iters"), std::string::npos);
    EXPECT_EQ(n.probe_closes, 0);
}
