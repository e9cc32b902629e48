/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_outname: the -o file's temporary names and what an
// existing target is.
#include "mg_outname.h"

#include <gtest/gtest.h>

#include <string>
#include <sys/stat.h>

TEST(OutName, TemplateNamesFileHostAndProcess)
{
    char buf[128];
    ASSERT_EQ(mg_outname_template("res/out.jsonl", "node1.cluster", 4242, buf, sizeof buf), 0);
    EXPECT_EQ(std::string(buf), "res/out.jsonl.tmp.node1.cluster.4242.XXXXXX");
    EXPECT_EQ(mg_outname_template("out.jsonl", "node1", 1, buf, 20), -1); // does not fit
}

TEST(OutName, OwnerIsTheProcessOfThisHostsTemporary)
{
    EXPECT_EQ(
        mg_outname_owner("out.jsonl.tmp.node1.cluster.4242.aB3xYz", "out.jsonl", "node1.cluster"),
        4242);
    EXPECT_EQ(mg_outname_owner("out.jsonl.tmp.node1.4242.aB3xYz", "out.jsonl", "node1"), 4242);
    // another host, another file, a prefix of the host, no pid, letters in the pid
    EXPECT_EQ(mg_outname_owner("out.jsonl.tmp.node2.4242.aB3xYz", "out.jsonl", "node1"), -1);
    EXPECT_EQ(mg_outname_owner("other.jsonl.tmp.node1.4242.aB3xYz", "out.jsonl", "node1"), -1);
    EXPECT_EQ(mg_outname_owner("out.jsonl.tmp.node12.4242.aB3xYz", "out.jsonl", "node1"), -1);
    EXPECT_EQ(mg_outname_owner("out.jsonl.tmp.node1..aB3xYz", "out.jsonl", "node1"), -1);
    EXPECT_EQ(mg_outname_owner("out.jsonl.tmp.node1.42x2.aB3xYz", "out.jsonl", "node1"), -1);
    // the old form without host and pid, a short suffix, the file itself
    EXPECT_EQ(mg_outname_owner("out.jsonl.tmp.aB3xYz", "out.jsonl", "node1"), -1);
    EXPECT_EQ(mg_outname_owner("out.jsonl.tmp.node1.4242.aB3", "out.jsonl", "node1"), -1);
    EXPECT_EQ(mg_outname_owner("out.jsonl", "out.jsonl", "node1"), -1);
}

TEST(OutName, KindOfAnExistingTarget)
{
    EXPECT_EQ(mg_outname_kind(S_IFREG | 0644), MG_OUT_REPLACE);
    EXPECT_EQ(mg_outname_kind(S_IFCHR | 0666), MG_OUT_THROUGH);
    EXPECT_EQ(mg_outname_kind(S_IFIFO | 0644), MG_OUT_THROUGH);
    EXPECT_EQ(mg_outname_kind(S_IFDIR | 0755), MG_OUT_REFUSE);
    EXPECT_EQ(mg_outname_kind(S_IFBLK | 0660), MG_OUT_REFUSE);
    EXPECT_EQ(mg_outname_kind(S_IFSOCK | 0755), MG_OUT_REFUSE);
}

// The kernel's protected_symlinks rule, which realpath() + rename bypass.
TEST(OutName, LinkFollowableOnlyWhereTheKernelWouldFollowIt)
{
    const mode_t shared = S_IFDIR | 01777, plain = S_IFDIR | 0755, group = S_IFDIR | 01775;
    // a sticky world-writable folder (/tmp): your own links and the folder owner's only
    EXPECT_EQ(mg_outname_link_followable(65534, 0, shared, 0), 0);   // nobody's link, root follows
    EXPECT_EQ(mg_outname_link_followable(0, 0, shared, 1000), 1);    // the folder owner's link
    EXPECT_EQ(mg_outname_link_followable(1000, 0, shared, 1000), 1); // one's own link
    EXPECT_EQ(mg_outname_link_followable(1001, 1002, shared, 1000), 0);
    // not sticky, or not world-writable: any link
    EXPECT_EQ(mg_outname_link_followable(65534, 0, plain, 0), 1);
    EXPECT_EQ(mg_outname_link_followable(65534, 0, group, 0), 1);
    EXPECT_EQ(mg_outname_link_followable(65534, 0, S_IFDIR | 0777, 0), 1);
}
