/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_json: string escaping and the streaming writer.
#include "mg_json.h"

#include "capture.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>

namespace
{

std::string quoted(const char *s)
{
    return capture([&](FILE *f) { mg_json_write_string(f, s); });
}

std::string writer(const std::function<void(mg_json *)> &fn)
{
    return capture([&](FILE *f) {
        mg_json j;
        mg_json_init(&j, f);
        fn(&j);
    });
}

} // namespace

// ---- escaping ------------------------------------------------------------------

TEST(JsonString, PlainAsciiIsOnlyQuoted)
{
    EXPECT_EQ(quoted("hello world"), "\"hello world\"");
    EXPECT_EQ(quoted(""), "\"\"");
}

TEST(JsonString, QuoteIsEscaped) { EXPECT_EQ(quoted("say \"hi\""), "\"say \\\"hi\\\"\""); }

TEST(JsonString, BackslashIsEscaped) { EXPECT_EQ(quoted("C:\\tmp"), "\"C:\\\\tmp\""); }

TEST(JsonString, NewlineAndTabUseShortEscapes)
{
    EXPECT_EQ(quoted("a\nb\tc"), "\"a\\nb\\tc\"");
    EXPECT_EQ(quoted("\r\b\f"), "\"\\r\\b\\f\"");
}

TEST(JsonString, ControlCharacterBecomesUnicodeEscape)
{
    EXPECT_EQ(quoted("\x01"), "\"\\u0001\"");
    EXPECT_EQ(quoted("a\x1f"
                     "b"),
              "\"a\\u001fb\"");
    EXPECT_EQ(quoted("\x1b[0m"), "\"\\u001b[0m\"");
}

TEST(JsonString, DelBecomesUnicodeEscape) { EXPECT_EQ(quoted("\x7f"), "\"\\u007f\""); }

TEST(JsonString, SlashIsNotEscaped) { EXPECT_EQ(quoted("/usr/bin"), "\"/usr/bin\""); }

TEST(JsonString, InvalidByteFFBecomesReplacementCharacter)
{
    EXPECT_EQ(quoted("a\xff"
                     "b"),
              "\"a\\ufffdb\"");
    EXPECT_EQ(quoted("\xfe"), "\"\\ufffd\"");
}

TEST(JsonString, LoneContinuationByteIsReplaced)
{
    EXPECT_EQ(quoted("\x80"), "\"\\ufffd\"");
    EXPECT_EQ(quoted("\xbf"
                     "x"),
              "\"\\ufffdx\"");
}

TEST(JsonString, OverlongTwoByteSlashIsReplacedBytewise)
{
    // C0 AF is an overlong '/': each byte becomes one U+FFFD
    EXPECT_EQ(quoted("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
    EXPECT_EQ(quoted("\xc1\xbf"), "\"\\ufffd\\ufffd\"");
}

TEST(JsonString, OverlongThreeAndFourByteSequencesAreReplaced)
{
    EXPECT_EQ(quoted("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\"");
    EXPECT_EQ(quoted("\xf0\x80\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

TEST(JsonString, SurrogateCodePointIsReplaced)
{
    // ED A0 80 would be U+D800
    EXPECT_EQ(quoted("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
    EXPECT_EQ(quoted("\xed\xbf\xbf"), "\"\\ufffd\\ufffd\\ufffd\"");
}

TEST(JsonString, CodePointAbove10FFFFIsReplaced)
{
    EXPECT_EQ(quoted("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
    EXPECT_EQ(quoted("\xf5\x80\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

TEST(JsonString, TruncatedSequenceAtEndIsReplaced)
{
    // E2 82 without its last byte: the string ends
    EXPECT_EQ(quoted("x\xe2\x82"), "\"x\\ufffd\\ufffd\"");
    // and followed by ASCII: the ASCII survives
    EXPECT_EQ(quoted("\xe2\x82z"), "\"\\ufffd\\ufffdz\"");
}

TEST(JsonString, ValidMultibyteUtf8PassesThroughUnchanged)
{
    const char *cases[] = {
        "caf\xc3\xa9",              // U+00E9
        "\xc2\x80",                 // U+0080, smallest 2-byte
        "\xdf\xbf",                 // U+07FF
        "\xe0\xa0\x80",             // U+0800, smallest 3-byte
        "\xe2\x82\xac",             // U+20AC euro
        "\xed\x9f\xbf",             // U+D7FF, just below the surrogates
        "\xee\x80\x80",             // U+E000, just above them
        "\xef\xbf\xbd",             // U+FFFD itself
        "\xf0\x90\x80\x80",         // U+10000, smallest 4-byte
        "\xf0\x9f\x98\x80",         // U+1F600
        "\xf4\x8f\xbf\xbf",         // U+10FFFF, the last code point
        "\xe6\x97\xa5\xe6\x9c\xac", // two CJK characters
    };
    for (const char *s : cases)
        EXPECT_EQ(quoted(s), "\"" + std::string(s) + "\"") << s;
}

// ---- writer ----------------------------------------------------------------------

TEST(JsonWriter, EmptyObjectAndArray)
{
    EXPECT_EQ(writer([](mg_json *j) {
                  mg_json_object_begin(j, nullptr);
                  mg_json_object_end(j);
              }),
              "{}");
    EXPECT_EQ(writer([](mg_json *j) {
                  mg_json_array_begin(j, nullptr);
                  mg_json_array_end(j);
              }),
              "[]");
}

TEST(JsonWriter, ObjectMembersAreCommaSeparated)
{
    std::string s = writer([](mg_json *j) {
        mg_json_object_begin(j, nullptr);
        mg_json_string(j, "a", "x");
        mg_json_int(j, "b", -3);
        mg_json_bool(j, "c", 1);
        mg_json_bool(j, "d", 0);
        mg_json_null(j, "e");
        mg_json_string(j, "f", nullptr);
        mg_json_object_end(j);
    });
    EXPECT_EQ(s, "{\"a\":\"x\",\"b\":-3,\"c\":true,\"d\":false,\"e\":null,\"f\":null}");
}

TEST(JsonWriter, NestedContainersHaveCommasOnlyBetweenSiblings)
{
    std::string s = writer([](mg_json *j) {
        mg_json_object_begin(j, nullptr);
        mg_json_string(j, "type", "run");
        mg_json_object_begin(j, "host");
        mg_json_string(j, "name", "n1");
        mg_json_uint(j, "cores", 64);
        mg_json_object_end(j);
        mg_json_array_begin(j, "argv");
        mg_json_string(j, nullptr, "-m");
        mg_json_string(j, nullptr, "1:8");
        mg_json_array_end(j);
        mg_json_array_begin(j, "empty");
        mg_json_array_end(j);
        mg_json_array_begin(j, "matrix");
        mg_json_array_begin(j, nullptr);
        mg_json_int(j, nullptr, 1);
        mg_json_int(j, nullptr, 2);
        mg_json_array_end(j);
        mg_json_array_begin(j, nullptr);
        mg_json_object_begin(j, nullptr);
        mg_json_object_end(j);
        mg_json_array_end(j);
        mg_json_array_end(j);
        mg_json_int(j, "after", 7);
        mg_json_object_end(j);
    });
    EXPECT_EQ(s, "{\"type\":\"run\",\"host\":{\"name\":\"n1\",\"cores\":64},"
                 "\"argv\":[\"-m\",\"1:8\"],\"empty\":[],\"matrix\":[[1,2],[{}]],"
                 "\"after\":7}");
}

TEST(JsonWriter, KeysAreEscapedToo)
{
    std::string s = writer([](mg_json *j) {
        mg_json_object_begin(j, nullptr);
        mg_json_int(j, "we\"ird\n", 1);
        mg_json_object_end(j);
    });
    EXPECT_EQ(s, "{\"we\\\"ird\\n\":1}");
}

TEST(JsonWriter, StringValuesAreEscaped)
{
    std::string s = writer([](mg_json *j) {
        mg_json_object_begin(j, nullptr);
        mg_json_string(j, "env", "A=1\tB=\xff");
        mg_json_object_end(j);
    });
    EXPECT_EQ(s, "{\"env\":\"A=1\\tB=\\ufffd\"}");
}

TEST(JsonWriter, NonFiniteNumbersAreNull)
{
    std::string s = writer([](mg_json *j) {
        mg_json_array_begin(j, nullptr);
        mg_json_number(j, nullptr, std::numeric_limits<double>::quiet_NaN());
        mg_json_number(j, nullptr, std::numeric_limits<double>::infinity());
        mg_json_number(j, nullptr, -std::numeric_limits<double>::infinity());
        mg_json_number(j, nullptr, 1.5);
        mg_json_array_end(j);
    });
    EXPECT_EQ(s, "[null,null,null,1.5]");
}

TEST(JsonWriter, NumbersUseTenSignificantDigits)
{
    std::string s = writer([](mg_json *j) {
        mg_json_array_begin(j, nullptr);
        mg_json_number(j, nullptr, 0.0);
        mg_json_number(j, nullptr, 2.0);
        mg_json_number(j, nullptr, 1.0 / 3.0);
        mg_json_number(j, nullptr, 12345.678901234);
        mg_json_number(j, nullptr, 1e-7);
        mg_json_number(j, nullptr, 1e20);
        mg_json_number(j, nullptr, -0.25);
        mg_json_array_end(j);
    });
    EXPECT_EQ(s, "[0,2,0.3333333333,12345.6789,1e-07,1e+20,-0.25]");
}

TEST(JsonWriter, IntsCoverTheFullRange)
{
    std::string s = writer([](mg_json *j) {
        mg_json_array_begin(j, nullptr);
        mg_json_int(j, nullptr, 0);
        mg_json_int(j, nullptr, -1);
        mg_json_int(j, nullptr, LLONG_MAX);
        mg_json_int(j, nullptr, LLONG_MIN);
        mg_json_array_end(j);
    });
    EXPECT_EQ(s, "[0,-1,9223372036854775807,-9223372036854775808]");
}

TEST(JsonWriter, UintsCoverTheFullRange)
{
    std::string s = writer([](mg_json *j) {
        mg_json_array_begin(j, nullptr);
        mg_json_uint(j, nullptr, 0);
        mg_json_uint(j, nullptr, 4294967296ULL);
        mg_json_uint(j, nullptr, ULLONG_MAX);
        mg_json_array_end(j);
    });
    EXPECT_EQ(s, "[0,4294967296,18446744073709551615]");
}

TEST(JsonWriter, TopLevelValuesAreCommaSeparated)
{
    // Several top-level values in one writer (not JSON Lines usage, but the
    // comma logic must still be consistent at depth 0).
    std::string s = writer([](mg_json *j) {
        mg_json_int(j, nullptr, 1);
        mg_json_int(j, nullptr, 2);
    });
    EXPECT_EQ(s, "1,2");
}

TEST(JsonWriter, DeepNestingBelowTheLimitStaysValid)
{
    const int depth = MG_JSON_MAX_DEPTH - 1;
    std::string s = writer([&](mg_json *j) {
        for (int i = 0; i < depth; ++i)
            mg_json_array_begin(j, nullptr);
        mg_json_int(j, nullptr, 1);
        mg_json_int(j, nullptr, 2);
        for (int i = 0; i < depth; ++i)
            mg_json_array_end(j);
        mg_json_int(j, nullptr, 3);
    });
    EXPECT_EQ(s, std::string(depth, '[') + "1,2" + std::string(depth, ']') + ",3");
}
