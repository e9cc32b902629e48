/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_outfile: the -o file written beside its target and
// renamed whole, what is refused, what is written through, and the
// temporary gone on every way out. One-rank group (mg_group_solo).
#include "mg_outfile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace
{

class OutFile : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/mg-outfile-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir = tmpl;
        mg_group_solo(&g);
    }
    void TearDown() override
    {
        std::string cmd = "rm -rf '" + dir + "'";
        ASSERT_EQ(system(cmd.c_str()), 0);
    }
    std::string path(const char *name) const { return dir + "/" + name; }
    static void write(const std::string &p, const char *text)
    {
        FILE *f = fopen(p.c_str(), "w");
        ASSERT_NE(f, nullptr);
        fputs(text, f);
        fclose(f);
    }
    static std::string read(const std::string &p)
    {
        std::string s;
        FILE *f = fopen(p.c_str(), "r");
        if (f == nullptr)
            return "(absent)";
        for (int c; (c = fgetc(f)) != EOF;)
            s += (char)c;
        fclose(f);
        return s;
    }
    // names in the folder other than the ones given
    int entries() const
    {
        int n = 0;
        DIR *d = opendir(dir.c_str());
        for (dirent *e; (e = readdir(d)) != nullptr;)
            n += e->d_name[0] != '.';
        closedir(d);
        return n;
    }
    std::string dir;
    mg_group g;
    char err[MG_OUT_ERRLEN] = "";
    mg_out_file o{};
};

} // namespace

TEST_F(OutFile, ReplacedWholeAtTheCommitOnly)
{
    const std::string p = path("out.jsonl");
    write(p, "old\n");
    ASSERT_EQ(mg_out_open(&o, p.c_str(), &g, err), 1) << err;
    ASSERT_NE(o.tmp_path, nullptr);
    fputs("new\n", o.f);
    EXPECT_EQ(read(p), "old\n"); // the target as it was until the end
    EXPECT_EQ(entries(), 2);     // beside it, its temporary
    ASSERT_EQ(mg_out_commit(&o, p.c_str()), 0);
    EXPECT_EQ(read(p), "new\n");
    EXPECT_EQ(entries(), 1);
    EXPECT_EQ(o.committed, 1);
}

TEST_F(OutFile, DiscardKeepsTheOldFileAndLeavesNoTemporary)
{
    const std::string p = path("out.jsonl");
    write(p, "old\n");
    ASSERT_EQ(mg_out_open(&o, p.c_str(), &g, err), 1) << err;
    fputs("half a row", o.f);
    mg_out_discard(&o);
    EXPECT_EQ(read(p), "old\n");
    EXPECT_EQ(entries(), 1);
    EXPECT_EQ(o.committed, 0);
}

TEST_F(OutFile, ForgetTemporaryRemovesTheOneBeingWritten)
{
    const std::string p = path("new.jsonl");
    ASSERT_EQ(mg_out_open(&o, p.c_str(), &g, err), 1) << err;
    const std::string tmp = o.tmp_path;
    EXPECT_EQ(access(tmp.c_str(), F_OK), 0);
    mg_out_forget_temporary(); // what an abort does
    EXPECT_NE(access(tmp.c_str(), F_OK), 0);
    mg_out_discard(&o);
    EXPECT_EQ(entries(), 0);   // and no target appeared
    mg_out_forget_temporary(); // nothing to remove: nothing happens
}

TEST_F(OutFile, AFolderIsRefusedWithItsName)
{
    const std::string p = path("sub");
    ASSERT_EQ(mkdir(p.c_str(), 0755), 0);
    EXPECT_EQ(mg_out_check(p.c_str(), &g, err), 0);
    EXPECT_NE(std::string(err).find(p), std::string::npos) << err;
    err[0] = '\0';
    EXPECT_EQ(mg_out_open(&o, p.c_str(), &g, err), 0);
    EXPECT_NE(std::string(err), "");
    EXPECT_EQ(entries(), 1); // the folder, nothing beside it
}

TEST_F(OutFile, ALinkKeepsBeingALinkAndItsTargetIsReplaced)
{
    const std::string real = path("real.jsonl"), link = path("link.jsonl");
    write(real, "old\n");
    ASSERT_EQ(symlink(real.c_str(), link.c_str()), 0);
    ASSERT_EQ(mg_out_open(&o, link.c_str(), &g, err), 1) << err;
    fputs("new\n", o.f);
    ASSERT_EQ(mg_out_commit(&o, link.c_str()), 0);
    struct stat st;
    ASSERT_EQ(lstat(link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
    EXPECT_EQ(read(real), "new\n");
    // a link to nothing is refused
    const std::string dangling = path("dangling.jsonl");
    ASSERT_EQ(symlink(path("nowhere/x").c_str(), dangling.c_str()), 0);
    EXPECT_EQ(mg_out_check(dangling.c_str(), &g, err), 0);
}

TEST_F(OutFile, ADeviceIsWrittenThroughNeverReplaced)
{
    ASSERT_EQ(mg_out_prepare(&o, "/dev/null", &g, err), 1) << err;
    ASSERT_NE(o.f, nullptr);
    EXPECT_EQ(o.direct, 1);
    EXPECT_EQ(o.tmp_path, nullptr);
    fputs("x\n", o.f);
    ASSERT_EQ(mg_out_commit(&o, "/dev/null"), 0);
    struct stat st;
    ASSERT_EQ(stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(OutFile, DistinctSeesTheSameFileUnderTwoNames)
{
    const std::string a = path("a.jsonl"), b = path("b.jsonl"), hard = path("hard.jsonl");
    write(a, "");
    ASSERT_EQ(link(a.c_str(), hard.c_str()), 0);
    EXPECT_EQ(mg_out_distinct(a.c_str(), "-o", b.c_str(), "--samples", &g, err), 1);
    EXPECT_EQ(mg_out_distinct(a.c_str(), "-o", hard.c_str(), "--samples", &g, err), 0);
    EXPECT_NE(std::string(err).find("the same file"), std::string::npos) << err;
    // not there yet, the same name reached through "./"
    const std::string c = path("c.jsonl"), c2 = dir + "/./c.jsonl";
    EXPECT_EQ(mg_out_distinct(c.c_str(), "-o", c2.c_str(), "--samples", &g, err), 0);
    // a device is written through: never the same replaceable file
    EXPECT_EQ(mg_out_distinct("/dev/null", "-o", "/dev/null", "--samples", &g, err), 1);
    EXPECT_EQ(mg_out_distinct(nullptr, "-o", a.c_str(), "--samples", &g, err), 1);
}
