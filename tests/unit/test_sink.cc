/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_sink: the key-value list and the table, CSV and
// JSON Lines sinks (begin with a fake run record, rows, summary), against
// golden files.
#include "mg_sink.h"

#include "capture.h"
#include "golden.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace
{

// A stand-in for the MPI layer's provenance writer.
void fake_record(FILE *f, const void *arg, int as_comment)
{
    const char *who = static_cast<const char *>(arg);
    if (as_comment)
        std::fprintf(f, "# run of %s\n", who);
    else
        std::fprintf(f, "{\"type\":\"run\",\"who\":\"%s\"}\n", who);
}

mg_result row(uint64_t size, double median, const char *variant, long value, double extra0,
              double extra1)
{
    static const char *const names[] = {"latency_us", "post_delay_work"};
    mg_result r{};
    r.benchmark = "protocol";
    r.size_bytes = size;
    r.unit = "us";
    r.stats.n = 10;
    r.stats.median = r.stats.p50 = r.stats.mean = median;
    r.stats.min = median - 0.25;
    r.stats.max = median + 0.5;
    r.stats.stddev = 0.125;
    r.stats.p90 = r.stats.p99 = median + 0.25;
    r.stats.ci95_low = median - 0.125;
    r.stats.ci95_high = median + 0.125;
    r.iterations = 10;
    r.stop = "precision";
    r.variant = variant;
    r.variant_value = value;
    r.nextra = 2;
    r.extra_names[0] = names[0];
    r.extra_names[1] = names[1];
    r.extra[0] = extra0;
    r.extra[1] = extra1;
    return r;
}

// A key-value list freed at the end of its scope.
struct Kv {
    mg_kvlist l{};
    Kv() { mg_kv_init(&l); }
    ~Kv() { mg_kv_free(&l); }
    Kv(const Kv &) = delete;
    Kv &operator=(const Kv &) = delete;
};

// Every kind of key-value: an array of objects, an empty array, an object,
// null, a string and a number.
void summary_kv(mg_kvlist &kv)
{
    mg_kv_array(&kv, "latency_steps");
    mg_kv_object(&kv, nullptr);
    mg_kv_number(&kv, "below_bytes", 2048);
    mg_kv_number(&kv, "above_bytes", 4096);
    mg_kv_number(&kv, "ratio", 3.125);
    mg_kv_end(&kv);
    mg_kv_end(&kv);
    mg_kv_array(&kv, "other_steps");
    mg_kv_end(&kv);
    mg_kv_object(&kv, "recv_progress_lost");
    mg_kv_number(&kv, "below_bytes", 8192);
    mg_kv_number(&kv, "post_delay_work_above", 0.875);
    mg_kv_end(&kv);
    mg_kv_null(&kv, "send_progress_lost");
    mg_kv_string(&kv, "verdict", "rendezvous from 16384");
    mg_kv_number(&kv, "sizes", 7);
}

std::string render(mg_format fmt)
{
    static const char *const extra_names[] = {"latency_us", "post_delay_work", nullptr};
    const mg_table_meta meta = {"protocol",  "protocol switch", "Time (us)",        "0.1.0",
                                extra_names, "phase",           MG_COLUMNS_DEFAULT, 0};
    Kv own;
    summary_kv(own.l);
    const mg_kvlist &kv = own.l;
    return capture([&](FILE *f) {
        mg_sink s;
        mg_sink_init(&s, fmt, f);
        s.ops->begin(&s, &meta, fake_record, "test");
        mg_result a = row(2048, 1.5, "phase=pingpong", 0, 0.75, NAN);
        mg_result b = row(2048, 2.25, "phase=send_progress", 1, NAN, 0.125);
        s.ops->row(&s, &a);
        s.ops->row(&s, &b);
        s.ops->summary(&s, "protocol", &kv);
    });
}

} // namespace

TEST(SinkGolden, Table) { expect_golden("sink_table.txt", render(MG_FORMAT_TABLE)); }
TEST(SinkGolden, Csv) { expect_golden("sink.csv", render(MG_FORMAT_CSV)); }
TEST(SinkGolden, JsonLines) { expect_golden("sink.jsonl", render(MG_FORMAT_JSON)); }

TEST(SinkKv, CompleteListIsAccepted)
{
    Kv own;
    summary_kv(own.l);
    const mg_kvlist &kv = own.l;
    EXPECT_TRUE(mg_kv_complete(&kv));
    EXPECT_EQ(kv.n, 16);
}

TEST(SinkKv, UnclosedObjectIsIncompleteAndNotWritten)
{
    Kv own;
    mg_kvlist &kv = own.l;
    mg_kv_object(&kv, "open");
    mg_kv_number(&kv, "x", 1);
    EXPECT_FALSE(mg_kv_complete(&kv));
    std::string out = capture([&](FILE *f) {
        mg_sink s;
        mg_sink_init(&s, MG_FORMAT_JSON, f);
        s.ops->summary(&s, "b", &kv);
        mg_sink_init(&s, MG_FORMAT_TABLE, f);
        s.ops->summary(&s, "b", &kv);
    });
    EXPECT_EQ(out, "");
}

TEST(SinkKv, EndWithoutOpenIsIncomplete)
{
    Kv own;
    mg_kvlist &kv = own.l;
    mg_kv_number(&kv, "x", 1);
    mg_kv_end(&kv);
    EXPECT_FALSE(mg_kv_complete(&kv));
}

TEST(SinkKv, OverflowIsCountedAndIncomplete)
{
    Kv own;
    mg_kvlist &kv = own.l;
    for (int i = 0; i < MG_KV_MAX + 3; ++i)
        mg_kv_number(&kv, "x", i);
    EXPECT_EQ(kv.n, MG_KV_MAX);
    EXPECT_EQ(kv.overflow, 3);
    EXPECT_FALSE(mg_kv_complete(&kv));
    mg_kv_clear(&kv); // empty again, its storage kept, and complete
    EXPECT_EQ(kv.n, 0);
    EXPECT_EQ(kv.cap, MG_KV_MAX);
    mg_kv_number(&kv, "x", 1);
    EXPECT_TRUE(mg_kv_complete(&kv));
}

TEST(SinkKv, NestingDeeperThanARecordIsIncomplete)
{
    Kv own;
    mg_kvlist &kv = own.l;
    for (int i = 0; i < 20; ++i)
        mg_kv_object(&kv, "o");
    for (int i = 0; i < 20; ++i)
        mg_kv_end(&kv);
    EXPECT_FALSE(mg_kv_complete(&kv));
}

TEST(SinkKv, NullStringIsNullAndLongStringIsCut)
{
    Kv own;
    mg_kvlist &kv = own.l;
    mg_kv_string(&kv, "a", nullptr);
    mg_kv_string(&kv, "b", std::string(MG_KV_STRLEN + 40, 'x').c_str());
    EXPECT_EQ(kv.item[0].kind, MG_KV_NULL);
    EXPECT_EQ(std::string(kv.item[1].string), std::string(MG_KV_STRLEN - 1, 'x'));
}

TEST(SinkCsv, SummaryWritesNothing)
{
    Kv own;
    summary_kv(own.l);
    const mg_kvlist &kv = own.l;
    std::string out = capture([&](FILE *f) {
        mg_sink s;
        mg_sink_init(&s, MG_FORMAT_CSV, f);
        s.ops->summary(&s, "protocol", &kv);
    });
    EXPECT_EQ(out, "");
}

TEST(SinkJson, NoRecordWriterWritesNoRunRecord)
{
    std::string out = capture([&](FILE *f) {
        mg_sink s;
        mg_sink_init(&s, MG_FORMAT_JSON, f);
        s.ops->begin(&s, nullptr, nullptr, nullptr);
    });
    EXPECT_EQ(out, "");
}

TEST(SinkRecord, OnlyJsonWritesOtherRecords)
{
    for (mg_format fmt : {MG_FORMAT_TABLE, MG_FORMAT_CSV, MG_FORMAT_JSON}) {
        std::string out = capture([&](FILE *f) {
            mg_sink s;
            mg_sink_init(&s, fmt, f);
            s.ops->record(&s, fake_record, "sentinel");
        });
        EXPECT_EQ(out, fmt == MG_FORMAT_JSON ? "{\"type\":\"run\",\"who\":\"sentinel\"}\n" : "")
            << "format " << fmt;
    }
}

// The run record's members from a benchmark's describe (an RMA window): an
// object with strings, a number and an array, inside an open JSON object,
// and the same as "# key: value" lines above a table.
TEST(SinkKv, MembersOfAnOpenObjectAndCommentLines)
{
    Kv own;
    mg_kvlist &kv = own.l;
    mg_kv_object(&kv, "window");
    mg_kv_string(&kv, "win_model", "unified");
    mg_kv_number(&kv, "bytes_per_rank", 4096);
    mg_kv_array(&kv, "info");
    mg_kv_string(&kv, nullptr, "no_locks=false");
    mg_kv_end(&kv);
    mg_kv_end(&kv);
    std::string json = capture([&](FILE *f) {
        mg_json j;
        mg_json_init(&j, f);
        mg_json_object_begin(&j, nullptr);
        mg_json_string(&j, "type", "run");
        mg_kv_write_json(&j, &kv);
        mg_json_object_end(&j);
    });
    EXPECT_EQ(json,
              "{\"type\":\"run\",\"window\":{\"win_model\":\"unified\",\"bytes_per_rank\":4096,"
              "\"info\":[\"no_locks=false\"]}}");
    std::string lines = capture([&](FILE *f) { mg_kv_write_lines(f, &kv); });
    EXPECT_EQ(lines, "# window: win_model=unified bytes_per_rank=4096 info=no_locks=false\n");
}

TEST(SinkError, JsonWritesTheErrorRecordTheTableAndCsvNothing)
{
    const mg_error_info usage = {"latency", "usage", "-m: bad \"size\"", 2, -1, -1, -1};
    const mg_error_info ranks = {"bw", "ranks", "needs 2 ranks", 2, 2, 2, 3};
    auto with = [](mg_format fmt, const mg_error_info *e) {
        return capture([&](FILE *f) {
            mg_sink s;
            mg_sink_init(&s, fmt, f);
            s.ops->error(&s, e);
        });
    };
    EXPECT_EQ(with(MG_FORMAT_JSON, &usage),
              "{\"type\":\"error\",\"code\":\"usage\",\"benchmark\":\"latency\",\"exit_code\":2,"
              "\"message\":\"-m: bad \\\"size\\\"\"}\n");
    EXPECT_EQ(with(MG_FORMAT_JSON, &ranks),
              "{\"type\":\"error\",\"code\":\"ranks\",\"benchmark\":\"bw\",\"exit_code\":2,"
              "\"message\":\"needs 2 ranks\",\"ranks_min\":2,\"ranks_max\":2,\"ranks_got\":3}\n");
    EXPECT_EQ(with(MG_FORMAT_TABLE, &usage), "");
    EXPECT_EQ(with(MG_FORMAT_CSV, &usage), "");
}

// The layouts are sinks of their own, chosen once: OSU's table under an OSU
// name (only the kept phase's rows, OSU's title and columns), IMB's with
// --columns imb, the default table's size and figure with --columns osu and
// no OSU name; CSV and JSON whatever the columns.
TEST(SinkLayout, OsuImbAndPlainChosenOnce)
{
    static const char *const extra_names[] = {"latency_us", "post_delay_work", nullptr};
    mg_table_meta meta = {"protocol",  "protocol switch", "Time (us)",    "0.1.0",
                          extra_names, "phase",           MG_COLUMNS_OSU, 0};
    mg_osu_table osu{};
    osu.title = "OSU MPI Latency Test";
    osu.figure = "Avg Latency(us)";
    osu.version = "7.4";
    osu.blank = 1;
    snprintf(osu.note, sizeof osu.note, "%s", "mpigauge 0.1.0: every figure a median");
    osu.datatype = "MPI_CHAR";
    osu.keep = "phase=pingpong";
    auto with = [&](mg_format fmt, int columns, const mg_osu_table *t) {
        meta.columns = columns;
        return capture([&](FILE *f) {
            mg_sink s;
            mg_sink_layout(&s, fmt, columns, t, f);
            s.ops->begin(&s, &meta, nullptr, nullptr);
            mg_result a = row(2048, 1.5, "phase=pingpong", 0, 0.75, NAN);
            mg_result b = row(2048, 2.25, "phase=send_progress", 1, NAN, 0.125);
            s.ops->row(&s, &a);
            s.ops->row(&s, &b);
        });
    };
    EXPECT_EQ(with(MG_FORMAT_TABLE, MG_COLUMNS_OSU, &osu),
              "\n# OSU MPI Latency Test v7.4\n# mpigauge 0.1.0: every figure a median\n"
              "# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n"
              "2048                    1.50\n");
    EXPECT_EQ(with(MG_FORMAT_TABLE, MG_COLUMNS_OSU, nullptr),
              "# mpigauge protocol 0.1.0\n# protocol switch\n"
              "# Size               Time (us)  phase\n"
              "2048                      1.50  pingpong\n"
              "2048                      2.25  send_progress\n");
    const std::string imb = with(MG_FORMAT_TABLE, MG_COLUMNS_IMB, &osu);
    EXPECT_NE(imb.find("#bytes #repetitions"), std::string::npos) << imb;
    EXPECT_EQ(with(MG_FORMAT_CSV, MG_COLUMNS_OSU, &osu),
              with(MG_FORMAT_CSV, MG_COLUMNS_DEFAULT, nullptr));
}
