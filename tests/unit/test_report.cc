/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_report: table, CSV and JSON Lines writers.
//
// The golden files under MG_GOLDEN_DIR are the exact expected output for the
// three results below. To regenerate them after an intended format change,
// run with MG_UPDATE_GOLDEN=1 (the tests then fail on purpose), inspect the
// diff by hand, and rerun.
#include "mg_report.h"

#include "capture.h"
#include "golden.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

namespace
{

mg_stats make_stats(size_t n, double median, double mean, double min, double max, double stddev,
                    double p90, double p99, double lo, double hi)
{
    mg_stats s{};
    s.n = n;
    s.median = median;
    s.p50 = median;
    s.mean = mean;
    s.min = min;
    s.max = max;
    s.stddev = stddev;
    s.p90 = p90;
    s.p99 = p99;
    s.ci95_low = lo;
    s.ci95_high = hi;
    return s;
}

// Three realistic latency results: a small message stopped on precision, a
// 1 KiB one, and a 4 MiB one stopped by the time budget after 12 samples.
std::vector<mg_result> golden_results()
{
    std::vector<mg_result> r(3);
    r[0].benchmark = "latency";
    r[0].size_bytes = 1;
    r[0].unit = "us";
    r[0].stats = make_stats(1000, 1.52, 1.5437, 1.47, 9.86, 0.31, 1.61, 2.43, 1.51, 1.53);
    r[0].iterations = 64000;
    r[0].stop = "precision";

    r[1].benchmark = "latency";
    r[1].size_bytes = 1024;
    r[1].unit = "us";
    r[1].stats = make_stats(250, 2.6137, 2.70432, 2.55, 11.2, 0.4567, 2.81, 4.02, 2.6, 2.63);
    r[1].iterations = 8000;
    r[1].stop = "precision";

    r[2].benchmark = "latency";
    r[2].size_bytes = 4194304;
    r[2].unit = "us";
    r[2].stats = make_stats(12, 1234.56789, 1240.5, 1229.25, 1290.4, 17.3205, 1251.03, 1285.21,
                            1230.5, 1249.75);
    r[2].iterations = 12;
    r[2].stop = "budget";
    return r;
}

mg_table_meta golden_meta()
{
    mg_table_meta m{};
    m.benchmark = "latency";
    m.description = "Point-to-point latency: half the round-trip time of a ping-pong";
    m.headline = "Latency (us)";
    m.version = "0.1.0";
    return m;
}

std::string render(mg_format fmt)
{
    const std::vector<mg_result> rs = golden_results();
    const mg_table_meta meta = golden_meta();
    return capture([&](FILE *f) {
        mg_report_header(f, fmt, &meta);
        for (const mg_result &r : rs)
            mg_report_row(f, fmt, &r);
    });
}

mg_result with_nan_stddev()
{
    mg_result r = golden_results()[0];
    r.stats.stddev = std::numeric_limits<double>::quiet_NaN();
    return r;
}

} // namespace

// ---- format names ---------------------------------------------------------------

TEST(ReportFormat, ParsesTheThreeNames)
{
    EXPECT_EQ(mg_format_parse("table"), MG_FORMAT_TABLE);
    EXPECT_EQ(mg_format_parse("csv"), MG_FORMAT_CSV);
    EXPECT_EQ(mg_format_parse("json"), MG_FORMAT_JSON);
}

TEST(ReportFormat, UnknownOrMiscasedNameIsMinusOne)
{
    EXPECT_EQ(mg_format_parse("xml"), -1);
    EXPECT_EQ(mg_format_parse(""), -1);
    EXPECT_EQ(mg_format_parse("CSV"), -1);
    EXPECT_EQ(mg_format_parse("jsonl"), -1);
    EXPECT_EQ(mg_format_parse("tab"), -1);
}

// ---- golden files ---------------------------------------------------------------

TEST(ReportGolden, TableMatchesGoldenFile)
{
    expect_golden("report_table.txt", render(MG_FORMAT_TABLE));
}

TEST(ReportGolden, CsvMatchesGoldenFile) { expect_golden("report.csv", render(MG_FORMAT_CSV)); }

TEST(ReportGolden, JsonLinesMatchGoldenFile)
{
    expect_golden("report.jsonl", render(MG_FORMAT_JSON));
}

// ---- table layout ----------------------------------------------------------------

TEST(ReportTable, FirstTwoColumnsKeepOsuLayout)
{
    const mg_result r = golden_results()[1];
    std::string row = capture([&](FILE *f) { mg_report_table_row(f, &r); });
    // "# Size" column: 10 characters, left-aligned; headline: 20, right-aligned
    EXPECT_EQ(row.substr(0, 30), "1024                      2.61");
    const mg_table_meta meta = golden_meta();
    std::string hdr = capture([&](FILE *f) { mg_report_table_header(f, &meta); });
    std::string third = hdr.substr(hdr.find('\n', hdr.find('\n') + 1) + 1);
    EXPECT_EQ(third.substr(0, 30), "# Size            Latency (us)");
}

TEST(ReportTable, HeaderStartsWithProgramAndDescription)
{
    const mg_table_meta meta = golden_meta();
    std::string hdr = capture([&](FILE *f) { mg_report_table_header(f, &meta); });
    EXPECT_EQ(hdr.rfind("# mpigauge latency 0.1.0\n# Point-to-point latency: half the "
                        "round-trip time of a ping-pong\n",
                        0),
              0u);
}

TEST(ReportTable, NonFiniteValuePrintsDash)
{
    const mg_result r = with_nan_stddev();
    mg_table_meta meta = golden_meta();
    meta.columns = MG_COLUMNS_ALL;
    std::string row = capture([&](FILE *f) { mg_report_table_row_meta(f, &meta, &r); });
    // size, median, then P50 Mean Min Max in 12-wide columns, then Stddev
    EXPECT_EQ(row.substr(30 + 4 * 12, 12), "           -");
    EXPECT_EQ(row.find("nan"), std::string::npos);
    EXPECT_EQ(row.find("inf"), std::string::npos);
}

TEST(ReportTable, InfiniteMedianPrintsDashInHeadline)
{
    mg_result r = golden_results()[0];
    r.stats.median = std::numeric_limits<double>::infinity();
    std::string row = capture([&](FILE *f) { mg_report_table_row(f, &r); });
    EXPECT_EQ(row.substr(0, 30), "1                            -");
}

TEST(ReportTable, MissingStopPrintsDash)
{
    mg_result r = golden_results()[0];
    r.stop = nullptr;
    mg_table_meta meta = golden_meta();
    meta.columns = MG_COLUMNS_ALL;
    std::string row = capture([&](FILE *f) { mg_report_table_row_meta(f, &meta, &r); });
    EXPECT_EQ(row.substr(row.size() - 12), "          -\n");
}

TEST(ReportTable, EveryRowIsAsWideAsTheHeader)
{
    std::string t = render(MG_FORMAT_TABLE);
    std::vector<std::string> lines;
    for (size_t pos = 0, nl; (nl = t.find('\n', pos)) != std::string::npos; pos = nl + 1)
        lines.push_back(t.substr(pos, nl - pos));
    ASSERT_EQ(lines.size(), 6u);
    for (size_t i = 3; i < lines.size(); ++i)
        EXPECT_EQ(lines[i].size(), lines[2].size()) << lines[i];
}

// ---- CSV ---------------------------------------------------------------------------

TEST(ReportCsv, NonFiniteValueIsEmptyField)
{
    const mg_result r = with_nan_stddev();
    std::string row = capture([&](FILE *f) { mg_report_csv_row(f, &r); });
    EXPECT_EQ(row, "latency,1,us,1.52,1.5437,1.47,9.86,,1.52,1.61,2.43,1.51,1.53,1000,"
                   "64000,precision,,\n");
}

TEST(ReportCsv, HeaderHasEighteenFieldsLikeEachRow)
{
    std::string hdr = capture([](FILE *f) { mg_report_csv_header(f); });
    const mg_result r = golden_results()[2];
    std::string row = capture([&](FILE *f) { mg_report_csv_row(f, &r); });
    auto count = [](const std::string &s, char c) {
        size_t k = 0;
        for (char x : s)
            k += x == c;
        return k;
    };
    EXPECT_EQ(count(hdr, ','), 17u);
    EXPECT_EQ(count(row, ','), 17u);
}

TEST(ReportCsv, FieldsNeedingQuotesAreQuotedRfc4180)
{
    mg_result r = golden_results()[0];
    r.benchmark = "lat,\"x\"";
    r.stop = nullptr;
    std::string row = capture([&](FILE *f) { mg_report_csv_row(f, &r); });
    EXPECT_EQ(row, "\"lat,\"\"x\"\"\",1,us,1.52,1.5437,1.47,9.86,0.31,1.52,1.61,2.43,1.51,"
                   "1.53,1000,64000,,,\n");
}

// ---- JSON --------------------------------------------------------------------------

TEST(ReportJson, NonFiniteValueIsNull)
{
    const mg_result r = with_nan_stddev();
    std::string line = capture([&](FILE *f) { mg_report_json_result(f, &r); });
    EXPECT_NE(line.find("\"stddev\":null,"), std::string::npos) << line;
    EXPECT_EQ(line.back(), '\n');
}

TEST(ReportJson, MissingStopIsNull)
{
    mg_result r = golden_results()[0];
    r.stop = nullptr;
    std::string line = capture([&](FILE *f) { mg_report_json_result(f, &r); });
    EXPECT_NE(line.find(",\"stop\":null}\n"), std::string::npos) << line;
}

TEST(ReportJson, HeaderWritesNothing)
{
    const mg_table_meta meta = golden_meta();
    EXPECT_EQ(capture([&](FILE *f) { mg_report_header(f, MG_FORMAT_JSON, &meta); }), "");
}

namespace
{

mg_result with_variant_and_extras()
{
    mg_result r = golden_results()[0];
    r.variant = "slaves=3";
    r.validation = "passed";
    r.nextra = 2;
    r.extra_names[0] = "msg_rate_per_s";
    r.extra[0] = 1250000.5;
    r.extra_names[1] = "pair_min_MB/s";
    r.extra[1] = std::nan("");
    return r;
}

} // namespace

TEST(ReportJson, VariantValidationAndExtrasAreMembers)
{
    const mg_result r = with_variant_and_extras();
    std::string line = capture([&](FILE *f) { mg_report_json_result(f, &r); });
    EXPECT_NE(line.find("\"stop\":\"precision\",\"variant\":\"slaves=3\",\"validation\":"
                        "\"passed\",\"extra\":{\"msg_rate_per_s\":1250000.5,"
                        "\"pair_min_MB/s\":null}}\n"),
              std::string::npos)
        << line;
}

TEST(ReportJson, NoVariantNoExtrasMeansNoSuchMembers)
{
    const mg_result r = golden_results()[0];
    std::string line = capture([&](FILE *f) { mg_report_json_result(f, &r); });
    EXPECT_EQ(line.find("variant"), std::string::npos);
    EXPECT_EQ(line.find("extra"), std::string::npos);
    EXPECT_EQ(line.find("validation"), std::string::npos);
}

TEST(ReportCsv, VariantAndExtrasAreTheLastTwoFields)
{
    const mg_result r = with_variant_and_extras();
    std::string row = capture([&](FILE *f) { mg_report_csv_row(f, &r); });
    EXPECT_EQ(row.substr(row.find("precision,")),
              "precision,slaves=3,msg_rate_per_s=1250000.5;pair_min_MB/s=\n");
}

TEST(ReportTable, ExtrasAreColumnsAfterStop)
{
    const mg_result r = with_variant_and_extras();
    const char *const names[] = {"msg_rate_per_s", "pair_min_MB/s", nullptr};
    mg_table_meta meta = golden_meta();
    meta.extra_names = names;
    meta.columns = MG_COLUMNS_ALL;
    std::string hdr = capture([&](FILE *f) { mg_report_table_header(f, &meta); });
    std::string row = capture([&](FILE *f) { mg_report_table_row_meta(f, &meta, &r); });
    EXPECT_NE(hdr.find("         Stop msg_rate_per_s  pair_min_MB/s\n"), std::string::npos) << hdr;
    EXPECT_NE(row.find("precision     1250000.50              -  3\n"), std::string::npos) << row;
}

TEST(ReportTable, VariantValueIsTheLastColumn)
{
    const mg_result r = with_variant_and_extras();
    const char *const names[] = {"msg_rate_per_s", "pair_min_MB/s", nullptr};
    mg_table_meta meta = golden_meta();
    meta.extra_names = names;
    meta.variant_name = "slaves";
    meta.columns = MG_COLUMNS_ALL;
    std::string hdr = capture([&](FILE *f) { mg_report_table_header(f, &meta); });
    std::string row = capture([&](FILE *f) { mg_report_table_row_meta(f, &meta, &r); });
    EXPECT_NE(hdr.find("pair_min_MB/s  slaves\n"), std::string::npos) << hdr;
    EXPECT_NE(row.find("              -  3\n"), std::string::npos) << row;
}

// The default table: OSU's two fields, the CI as one short column, the
// sample count; within 80 columns with a variant and -c; the other
// statistics and the benchmark's own figures only with --columns all.
TEST(ReportTable, DefaultIsTheFigureItsCiAndSamplesWithin80Columns)
{
    mg_result r = with_variant_and_extras();
    const char *const names[] = {"msg_rate_per_s", "pair_min_MB/s", nullptr};
    mg_table_meta meta = golden_meta();
    meta.extra_names = names;
    meta.variant_name = "slaves";
    meta.validated = 1;
    r.validation = "passed";
    r.stats.median = 2.0;
    r.stats.ci95_low = 1.98;
    r.stats.ci95_high = 2.02;
    std::string hdr = capture([&](FILE *f) { mg_report_table_header(f, &meta); });
    std::string row = capture([&](FILE *f) { mg_report_table_row_meta(f, &meta, &r); });
    EXPECT_NE(hdr.find("\n# Size            Latency (us)      CI95  Samples  Validation  slaves\n"),
              std::string::npos)
        << hdr;
    EXPECT_EQ(row.substr(0, 49), "1                         2.00    +-1.0%     1000");
    EXPECT_EQ(row.substr(49), "        Pass  3\n");
    for (const std::string &t : {hdr, row}) {
        size_t start = 0;
        for (size_t nl; (nl = t.find('\n', start)) != std::string::npos; start = nl + 1)
            EXPECT_LE(nl - start, 80u) << t.substr(start, nl - start);
    }
    EXPECT_EQ(hdr.find("Mean"), std::string::npos);
    EXPECT_EQ(hdr.find("msg_rate_per_s"), std::string::npos);
}

TEST(ReportTable, CiCellIsTheHalfWidthInPercentOrADash)
{
    mg_stats s{};
    char buf[32];
    s.median = 4.0;
    s.ci95_low = 3.9;
    s.ci95_high = 4.1;
    mg_report_ci_cell(buf, sizeof buf, &s);
    EXPECT_STREQ(buf, "+-2.5%");
    s.ci95_low = 0.0;
    s.ci95_high = 12.0;
    mg_report_ci_cell(buf, sizeof buf, &s);
    EXPECT_STREQ(buf, "+-150%");
    // a wild interval keeps the column's leading space (a row of a loaded machine)
    s.median = 0.20;
    s.ci95_low = 0.0;
    s.ci95_high = 6754.7;
    mg_report_ci_cell(buf, sizeof buf, &s);
    EXPECT_STREQ(buf, "+->99999%");
    s.ci95_high = 399.9;
    mg_report_ci_cell(buf, sizeof buf, &s);
    EXPECT_STREQ(buf, "+-99975%");
    s.median = 4.0;
    s.ci95_low = std::numeric_limits<double>::quiet_NaN();
    mg_report_ci_cell(buf, sizeof buf, &s);
    EXPECT_STREQ(buf, "-");
    s.ci95_low = 3.9;
    s.median = 0.0;
    mg_report_ci_cell(buf, sizeof buf, &s);
    EXPECT_STREQ(buf, "-");
}

// ---- -z, --percentiles ----------------------------------------------------------

TEST(ReportPercentiles, ParsesAnIncreasingList)
{
    mg_pctl p;
    char err[160];
    ASSERT_EQ(mg_pctl_parse("50,99,99.9,100", &p, err, sizeof err), 0) << err;
    ASSERT_EQ(p.n, 4);
    EXPECT_EQ(p.p[0], 50.0);
    EXPECT_EQ(p.p[1], 99.0);
    EXPECT_EQ(p.p[2], 99.9);
    EXPECT_EQ(p.p[3], 100.0);
    ASSERT_EQ(mg_pctl_parse(".5", &p, err, sizeof err), 0) << err;
    EXPECT_EQ(p.n, 1);
    EXPECT_EQ(p.p[0], 0.5);
}

TEST(ReportPercentiles, RefusesWhatIsNoPercentileList)
{
    mg_pctl p;
    char err[160];
    for (const char *bad : {"", "0", "100.5", "-5", "0x10", "1e1", "nan", "inf", "50,", ",50",
                            "50;90", "90,50", "50,50", "1,2,3,4,5,6,7,8,9", "50 ,90"}) {
        EXPECT_EQ(mg_pctl_parse(bad, &p, err, sizeof err), -1) << bad;
        EXPECT_NE(std::string(err).find("-z '"), std::string::npos) << err;
    }
}

TEST(ReportPercentiles, NamesArePlainNumbers)
{
    char name[32];
    mg_pctl_name(99.9, name, sizeof name);
    EXPECT_STREQ(name, "99.9");
    mg_pctl_name(50, name, sizeof name);
    EXPECT_STREQ(name, "50");
    mg_pctl_name(99.999, name, sizeof name);
    EXPECT_STREQ(name, "99.999");
}

namespace
{
// The first golden result with the percentiles `list` chosen and these values.
mg_result with_pctl(const char *list, mg_pctl &p, std::initializer_list<double> values)
{
    char err[160];
    EXPECT_EQ(mg_pctl_parse(list, &p, err, sizeof err), 0) << err;
    mg_result r = golden_results()[0];
    r.pctl = &p;
    int i = 0;
    for (double v : values)
        r.pctl_v[i++] = v;
    return r;
}
} // namespace

TEST(ReportPercentiles, ChosenColumnsReplaceP90AndP99InTableAndCsv)
{
    mg_pctl p;
    mg_result r = with_pctl("50,99.9", p, {1.52, 7.25});
    mg_table_meta meta = golden_meta();
    meta.pctl = &p;
    meta.columns = MG_COLUMNS_ALL; // the chosen list replaces all's P50 too
    std::string hdr = capture([&](FILE *f) { mg_report_table_header(f, &meta); });
    std::string row = capture([&](FILE *f) { mg_report_table_row_meta(f, &meta, &r); });
    EXPECT_NE(hdr.find("      Stddev         P50       P99.9    CI95-low"), std::string::npos)
        << hdr;
    EXPECT_EQ(hdr.find("P90"), std::string::npos) << hdr;
    EXPECT_NE(row.find("        0.31        1.52        7.25        1.51"), std::string::npos)
        << row;
    std::string csvh = capture([&](FILE *f) { mg_report_csv_header_meta(f, &meta); });
    EXPECT_EQ(csvh, "benchmark,size_bytes,unit,median,mean,min,max,stddev,p50,p99.9,ci95_low,"
                    "ci95_high,samples,iterations,stop,variant,extra\n");
    std::string csvr = capture([&](FILE *f) { mg_report_csv_row(f, &r); });
    EXPECT_EQ(csvr, "latency,1,us,1.52,1.5437,1.47,9.86,0.31,1.52,7.25,1.51,1.53,1000,64000,"
                    "precision,,\n");
}

TEST(ReportPercentiles, JsonKeepsTheThreeAndAddsTheChosen)
{
    mg_pctl p;
    mg_result r = with_pctl("99.9", p, {7.25});
    std::string line = capture([&](FILE *f) { mg_report_json_result(f, &r); });
    EXPECT_NE(line.find("\"p90\":1.61,\"p99\":2.43,\"percentiles\":{\"p99.9\":7.25},"),
              std::string::npos)
        << line;
}

// The slowest and fastest rank of a row: idle ranks (0) and non-finite
// medians left out, the lowest rank on a tie.
TEST(ReportRanks, ExtremesSkipIdleRanksAndTakeTheLowestOnATie)
{
    const double med[] = {2e-6, 0.0, 5e-6, 1e-6, 5e-6, NAN, 1e-6};
    int slow = 9, fast = 9;
    double mean = 0.0;
    EXPECT_EQ(mg_rank_extremes(med, 7, &slow, &fast, &mean), 5);
    EXPECT_EQ(slow, 2);
    EXPECT_EQ(fast, 3);
    EXPECT_DOUBLE_EQ(mean, 14e-6 / 5); // over the five timed ranks
    const double idle[] = {0.0, -1.0, INFINITY};
    EXPECT_EQ(mg_rank_extremes(idle, 3, &slow, &fast, &mean), 0);
    EXPECT_EQ(slow, -1);
    EXPECT_TRUE(std::isnan(mean));
    EXPECT_EQ(fast, -1);
    EXPECT_EQ(mg_rank_extremes(med, 7, &slow, &fast, NULL), 5); // no mean asked
}
