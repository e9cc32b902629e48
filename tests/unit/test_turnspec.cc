/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_turnspec: the --turns argument.
#include "mg_turnspec.h"

#include <gtest/gtest.h>

#include <string>

namespace
{

TEST(TurnSpec, NameRoleAndCount)
{
    mg_turns_spec s;
    char err[200] = "";
    ASSERT_EQ(mg_turns_parse("20261123T101010Z-ab12-4242-7:1:4", &s, err, sizeof err), 0) << err;
    EXPECT_STREQ(s.name, "20261123T101010Z-ab12-4242-7");
    EXPECT_EQ(s.role, 1);
    EXPECT_EQ(s.count, 4);
    ASSERT_EQ(mg_turns_parse("g.x_y:63:64", &s, err, sizeof err), 0) << err;
    EXPECT_EQ(s.role, 63);
    EXPECT_EQ(s.count, 64);
}

TEST(TurnSpec, RefusesWhatCannotName)
{
    mg_turns_spec s;
    char err[200];
    const char *bad[] = {
        "",       "g",      "g:0",    ":0:2", "g:0:1",   "g:2:2",   "g:-1:2",  "g: 1:2",
        "g:+1:2", "g:0:65", "g:0:2x", "g:0:", "a/b:0:2", "a b:0:2", "g:0:2:3", "g:001:2"};
    for (const char *t : bad) {
        err[0] = '\0';
        EXPECT_EQ(mg_turns_parse(t, &s, err, sizeof err), -1) << t;
        EXPECT_NE(std::string(err).find("--turns"), std::string::npos) << t;
    }
    std::string longname(MG_TURNS_NAME_MAX, 'n');
    EXPECT_EQ(mg_turns_parse((longname + ":0:2").c_str(), &s, err, sizeof err), -1);
    EXPECT_EQ(mg_turns_parse((longname.substr(1) + ":0:2").c_str(), &s, err, sizeof err), 0);
}

TEST(TurnSpec, MessageNamesTheRule)
{
    mg_turns_spec s;
    char err[200];
    ASSERT_EQ(mg_turns_parse("g:3:2", &s, err, sizeof err), -1);
    EXPECT_STREQ(err, "--turns g:3:2: needs 0 <= ROLE < COUNT and 2 <= COUNT <= 64");
}

} // namespace
