/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_size: sizes, sweeps and their human form.
#include "mg_size.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

namespace
{

struct Parsed {
    int rc;
    uint64_t bytes;
    std::string err;
};

Parsed parse_size(const char *text)
{
    Parsed p{0, UINT64_C(0xdeadbeef), ""};
    char err[256] = "";
    p.rc = mg_size_parse(text, &p.bytes, err, sizeof err);
    p.err = err;
    return p;
}

struct Sweep {
    int rc;
    std::vector<uint64_t> sizes;
    std::string err;
};

Sweep parse_sweep(const char *spec, uint64_t min_allowed = 0, uint64_t default_min = 0,
                  uint64_t default_max = UINT64_C(4) << 20)
{
    Sweep s{0, {}, ""};
    mg_sweep sw;
    char err[256] = "";
    s.rc = mg_sweep_parse(spec, min_allowed, default_min, default_max, &sw, err, sizeof err);
    s.err = err;
    if (s.rc == 0) {
        s.sizes.assign(sw.sizes_bytes, sw.sizes_bytes + sw.n);
        mg_sweep_free(&sw);
    } else {
        // On failure the sweep is left empty, never half-filled.
        EXPECT_EQ(sw.n, 0u);
        EXPECT_EQ(sw.sizes_bytes, nullptr);
    }
    return s;
}

std::string format_size(uint64_t bytes)
{
    char buf[32];
    int n = mg_size_format(bytes, buf, sizeof buf);
    EXPECT_EQ(n, (int)std::string(buf).size());
    return buf;
}

using V = std::vector<uint64_t>;

} // namespace

// ---- mg_size_parse -------------------------------------------------------

TEST(Size, PlainDecimalIsBytes)
{
    Parsed p = parse_size("4096");
    EXPECT_EQ(p.rc, 0);
    EXPECT_EQ(p.bytes, 4096u);
    EXPECT_EQ(parse_size("0").bytes, 0u);
    EXPECT_EQ(parse_size("0").rc, 0);
    EXPECT_EQ(parse_size("1").bytes, 1u);
}

TEST(Size, UpperCaseSuffixesAreBinaryMultiples)
{
    EXPECT_EQ(parse_size("4K").bytes, UINT64_C(4096));
    EXPECT_EQ(parse_size("3M").bytes, UINT64_C(3) << 20);
    EXPECT_EQ(parse_size("2G").bytes, UINT64_C(2) << 30);
}

TEST(Size, LowerCaseSuffixesEqualUpperCase)
{
    EXPECT_EQ(parse_size("4k").bytes, UINT64_C(4096));
    EXPECT_EQ(parse_size("1m").bytes, UINT64_C(1) << 20);
    EXPECT_EQ(parse_size("5g").bytes, UINT64_C(5) << 30);
    EXPECT_EQ(parse_size("1m").rc, 0);
}

TEST(Size, ValuesAboveTwoToThe31AreExact)
{
    Parsed p = parse_size("2147483649"); // 2G + 1
    EXPECT_EQ(p.rc, 0);
    EXPECT_EQ(p.bytes, UINT64_C(2147483649));
    EXPECT_EQ(parse_size("4294967297").bytes, UINT64_C(4294967297)); // 4G + 1
    EXPECT_EQ(parse_size("3G").bytes, UINT64_C(3221225472));
    EXPECT_EQ(parse_size("8G").bytes, UINT64_C(8589934592));
}

TEST(Size, LimitItselfIsAccepted)
{
    EXPECT_EQ(parse_size("281474976710656").bytes, MG_SIZE_LIMIT);
    EXPECT_EQ(parse_size("262144G").bytes, MG_SIZE_LIMIT);
    EXPECT_EQ(parse_size("262144G").rc, 0);
}

TEST(Size, LettersAreNotANumber)
{
    Parsed p = parse_size("abc");
    EXPECT_EQ(p.rc, -EINVAL);
    EXPECT_NE(p.err.find("not a number"), std::string::npos) << p.err;
}

TEST(Size, NegativeIsAnError)
{
    Parsed p = parse_size("-5");
    EXPECT_EQ(p.rc, -EINVAL);
    EXPECT_NE(p.err.find("negative"), std::string::npos) << p.err;
}

TEST(Size, EmptyIsAnError)
{
    Parsed p = parse_size("");
    EXPECT_EQ(p.rc, -EINVAL);
    EXPECT_EQ(p.err, "empty size");
    EXPECT_EQ(parse_size(nullptr).rc, -EINVAL);
}

TEST(Size, ErrorLeavesOutputUntouched) { EXPECT_EQ(parse_size("1T").bytes, UINT64_C(0xdeadbeef)); }

TEST(Size, SuffixTIsAnErrorNotOne)
{
    Parsed p = parse_size("1T");
    EXPECT_EQ(p.rc, -EINVAL);
    EXPECT_NE(p.err.find("unknown suffix 'T'"), std::string::npos) << p.err;
}

TEST(Size, UnknownSuffixXIsAnError)
{
    Parsed p = parse_size("10x");
    EXPECT_EQ(p.rc, -EINVAL);
    EXPECT_NE(p.err.find("unknown suffix 'x'"), std::string::npos) << p.err;
}

TEST(Size, KBIsTrailingCharactersNotKilobytes)
{
    Parsed p = parse_size("4KB");
    EXPECT_EQ(p.rc, -EINVAL);
    EXPECT_NE(p.err.find("trailing characters 'B'"), std::string::npos) << p.err;
}

TEST(Size, LeadingSpaceIsNotANumber)
{
    EXPECT_EQ(parse_size(" 8").rc, -EINVAL);
    EXPECT_EQ(parse_size("8 ").rc, -EINVAL);
    EXPECT_EQ(parse_size("+8").rc, -EINVAL);
}

TEST(Size, TwentyDigitsOverflowIsERANGE)
{
    Parsed p = parse_size("99999999999999999999");
    EXPECT_EQ(p.rc, -ERANGE);
    EXPECT_NE(p.err.find("too large"), std::string::npos) << p.err;
}

TEST(Size, OneAboveLimitIsERANGE) { EXPECT_EQ(parse_size("281474976710657").rc, -ERANGE); }

TEST(Size, SuffixedOverflowIsERANGE)
{
    Parsed p = parse_size("300000G");
    EXPECT_EQ(p.rc, -ERANGE);
    EXPECT_NE(p.err.find("too large"), std::string::npos) << p.err;
    EXPECT_EQ(parse_size("262145G").rc, -ERANGE);
    EXPECT_EQ(parse_size("268435457M").rc, -ERANGE);
}

// ---- mg_sweep_parse: ranges -----------------------------------------------

TEST(Sweep, RangeDoublesFromMinToMax)
{
    Sweep s = parse_sweep("1:8");
    EXPECT_EQ(s.rc, 0) << s.err;
    EXPECT_EQ(s.sizes, (V{1, 2, 4, 8}));
}

TEST(Sweep, RangeFromZeroGoesToOneNext)
{
    Sweep s = parse_sweep("0:4");
    EXPECT_EQ(s.rc, 0) << s.err;
    EXPECT_EQ(s.sizes, (V{0, 1, 2, 4}));
}

TEST(Sweep, RangeStopsAtLastDoublingNotAboveMax)
{
    Sweep s = parse_sweep("3:20");
    EXPECT_EQ(s.rc, 0) << s.err;
    EXPECT_EQ(s.sizes, (V{3, 6, 12}));
}

TEST(Sweep, RangeWithEqualEndsHasOneSize) { EXPECT_EQ(parse_sweep("64:64").sizes, (V{64})); }

TEST(Sweep, RangeAcceptsSuffixes)
{
    EXPECT_EQ(parse_sweep("1K:8K").sizes, (V{1024, 2048, 4096, 8192}));
}

TEST(Sweep, MaxAloneUsesDefaultMin)
{
    Sweep s = parse_sweep("4M", 0, 0, 1);
    EXPECT_EQ(s.rc, 0) << s.err;
    ASSERT_EQ(s.sizes.size(), 24u); // 0, then 1, 2, 4, ..., 2^22
    EXPECT_EQ(s.sizes.front(), 0u);
    EXPECT_EQ(s.sizes[1], 1u);
    EXPECT_EQ(s.sizes.back(), UINT64_C(4) << 20);

    Sweep t = parse_sweep("4M", 1, 1024, 1);
    EXPECT_EQ(t.rc, 0) << t.err;
    ASSERT_EQ(t.sizes.size(), 13u); // 2^10 .. 2^22
    EXPECT_EQ(t.sizes.front(), 1024u);
    EXPECT_EQ(t.sizes.back(), UINT64_C(4) << 20);
}

TEST(Sweep, EmptyMaxUsesDefaultMax)
{
    Sweep s = parse_sweep("4:", 0, 0, 64);
    EXPECT_EQ(s.rc, 0) << s.err;
    EXPECT_EQ(s.sizes, (V{4, 8, 16, 32, 64}));
}

TEST(Sweep, EmptyMinUsesDefaultMin)
{
    Sweep s = parse_sweep(":16", 1, 2, 1024);
    EXPECT_EQ(s.rc, 0) << s.err;
    EXPECT_EQ(s.sizes, (V{2, 4, 8, 16}));
}

TEST(Sweep, LoneColonIsAnError) { EXPECT_EQ(parse_sweep(":").rc, -EINVAL); }

TEST(Sweep, TwoColonsIsAnError)
{
    Sweep s = parse_sweep("1:8:64");
    EXPECT_EQ(s.rc, -EINVAL);
    EXPECT_NE(s.err.find("more than one ':'"), std::string::npos) << s.err;
}

TEST(Sweep, ReversedRangeIsAnError)
{
    Sweep s = parse_sweep("5:2");
    EXPECT_EQ(s.rc, -EINVAL);
    EXPECT_NE(s.err.find("reversed"), std::string::npos) << s.err;
}

TEST(Sweep, ZeroBelowMinAllowedIsAnError)
{
    EXPECT_EQ(parse_sweep("0", 1, 1, 1024).rc, -EINVAL);
    Sweep s = parse_sweep("0:8", 1, 1, 1024);
    EXPECT_EQ(s.rc, -EINVAL);
    EXPECT_NE(s.err.find("below the smallest size 1"), std::string::npos) << s.err;
    EXPECT_EQ(parse_sweep("0,8", 1, 1, 1024).rc, -EINVAL);
}

TEST(Sweep, MaximumBelowMinAllowedSaysSo)
{
    Sweep s = parse_sweep("0", 1, 1, 1024);
    EXPECT_EQ(s.rc, -EINVAL);
    EXPECT_NE(s.err.find("largest size 0 is below the smallest size 1"), std::string::npos)
        << s.err;
}

TEST(Sweep, ZeroIsFineWhenMinAllowedIsZero)
{
    EXPECT_EQ(parse_sweep("0", 0, 0, 1024).sizes, (V{0}));
}

TEST(Sweep, MalformedEndOfRangeIsAnError)
{
    EXPECT_EQ(parse_sweep("1:4KB").rc, -EINVAL);
    EXPECT_EQ(parse_sweep("x:4").rc, -EINVAL);
    EXPECT_EQ(parse_sweep("1:300000G").rc, -ERANGE);
}

TEST(Sweep, EmptySpecIsAnError)
{
    EXPECT_EQ(parse_sweep("").rc, -EINVAL);
    EXPECT_EQ(parse_sweep(nullptr).rc, -EINVAL);
}

TEST(Sweep, FullRangeUpToLimitHas49Sizes)
{
    Sweep s = parse_sweep("1:262144G");
    EXPECT_EQ(s.rc, 0) << s.err;
    ASSERT_EQ(s.sizes.size(), 49u);
    EXPECT_EQ(s.sizes.back(), MG_SIZE_LIMIT);
}

// ---- mg_sweep_parse: lists ------------------------------------------------

TEST(Sweep, ListKeepsGivenOrder)
{
    Sweep s = parse_sweep("8,64,1K,1M");
    EXPECT_EQ(s.rc, 0) << s.err;
    EXPECT_EQ(s.sizes, (V{8, 64, 1024, 1048576}));
}

TEST(Sweep, ListIsNotSortedOrDeduplicated)
{
    EXPECT_EQ(parse_sweep("1M,8,8,3").sizes, (V{1048576, 8, 8, 3}));
}

TEST(Sweep, ListWithEmptyEntryIsAnError)
{
    Sweep s = parse_sweep("8,,64");
    EXPECT_EQ(s.rc, -EINVAL);
    EXPECT_NE(s.err.find("empty entry"), std::string::npos) << s.err;
    EXPECT_EQ(parse_sweep("8,64,").rc, -EINVAL);
    EXPECT_EQ(parse_sweep(",8").rc, -EINVAL);
}

TEST(Sweep, ListWithBadEntryIsAnError)
{
    EXPECT_EQ(parse_sweep("8,1T,64").rc, -EINVAL);
    EXPECT_EQ(parse_sweep("8,1:4").rc, -EINVAL);
}

TEST(Sweep, ListOfMoreThan4096SizesIsAnError)
{
    std::string spec = "1";
    for (int i = 0; i < 4096; ++i)
        spec += ",1";
    Sweep s = parse_sweep(spec.c_str());
    EXPECT_EQ(s.rc, -E2BIG);

    std::string ok = "1";
    for (int i = 1; i < 4096; ++i)
        ok += ",2";
    Sweep t = parse_sweep(ok.c_str());
    EXPECT_EQ(t.rc, 0) << t.err;
    EXPECT_EQ(t.sizes.size(), 4096u);
}

// ---- mg_sweep_max, mg_sweep_free ---------------------------------------------

TEST(Sweep, MaxIsLargestEntryNotLast)
{
    mg_sweep sw;
    char err[128];
    ASSERT_EQ(mg_sweep_parse("8,1M,64", 0, 0, 0, &sw, err, sizeof err), 0);
    EXPECT_EQ(mg_sweep_max(&sw), UINT64_C(1048576));
    mg_sweep_free(&sw);
    EXPECT_EQ(sw.n, 0u);
    EXPECT_EQ(sw.sizes_bytes, nullptr);
}

TEST(Sweep, MaxOfRangeIsLastPowerNotRequestedMax)
{
    mg_sweep sw;
    char err[128];
    ASSERT_EQ(mg_sweep_parse("3:20", 0, 0, 0, &sw, err, sizeof err), 0);
    EXPECT_EQ(mg_sweep_max(&sw), 12u);
    mg_sweep_free(&sw);
}

TEST(Sweep, MaxOfEmptySweepIsZero)
{
    mg_sweep sw = {nullptr, 0};
    EXPECT_EQ(mg_sweep_max(&sw), 0u);
    mg_sweep_free(&sw); // freeing an empty sweep is harmless
    EXPECT_EQ(sw.n, 0u);
}

// ---- mg_size_format --------------------------------------------------------

TEST(SizeFormat, ExactMultiplesGetASuffix)
{
    EXPECT_EQ(format_size(4096), "4K");
    EXPECT_EQ(format_size(1048576), "1M");
    EXPECT_EQ(format_size(UINT64_C(2) << 30), "2G");
    EXPECT_EQ(format_size(3072), "3K");
}

TEST(SizeFormat, LargestExactUnitWins)
{
    EXPECT_EQ(format_size(UINT64_C(1) << 30), "1G");
    EXPECT_EQ(format_size(UINT64_C(1024) << 20), "1G");
    EXPECT_EQ(format_size(MG_SIZE_LIMIT), "262144G");
    EXPECT_EQ(format_size((UINT64_C(1) << 30) + 1024), "1048577K");
}

TEST(SizeFormat, OtherValuesArePlainDecimal)
{
    EXPECT_EQ(format_size(1000), "1000");
    EXPECT_EQ(format_size(0), "0");
    EXPECT_EQ(format_size(1), "1");
    EXPECT_EQ(format_size(1536), "1536");
    EXPECT_EQ(format_size(UINT64_C(2147483649)), "2147483649");
}

TEST(SizeFormat, FormatThenParseRoundTrips)
{
    const uint64_t vals[] = {
        0, 1, 1000, 1024, 1536, 4096, 1048576, UINT64_C(3) << 30, UINT64_C(2147483649)};
    for (uint64_t v : vals) {
        std::string s = format_size(v);
        EXPECT_EQ(parse_size(s.c_str()).bytes, v) << s;
    }
}

TEST(SizeFormat, ReturnsFullLengthWhenTruncated)
{
    char buf[3];
    EXPECT_EQ(mg_size_format(1000, buf, sizeof buf), 4);
    EXPECT_STREQ(buf, "10");
}
