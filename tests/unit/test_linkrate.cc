/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_linkrate: the link rates of a sysfs tree made here.
#include "mg_linkrate.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <sys/stat.h>

namespace
{

struct Tree {
    std::string root;
    Tree()
    {
        char tmpl[] = "/tmp/mg-linkrate.XXXXXX";
        root = mkdtemp(tmpl);
    }
    ~Tree() { std::system(("rm -rf '" + root + "'").c_str()); }
    void file(const std::string &rel, const std::string &text)
    {
        std::string path = root;
        size_t from = 0, slash;
        while ((slash = rel.find('/', from)) != std::string::npos) {
            path = root + "/" + rel.substr(0, slash);
            mkdir(path.c_str(), 0755);
            from = slash + 1;
        }
        FILE *f = std::fopen((root + "/" + rel).c_str(), "w");
        std::fputs(text.c_str(), f);
        std::fclose(f);
    }
    void net(const std::string &dev, const std::string &speed, const std::string &state = "up\n")
    {
        file("class/net/" + dev + "/speed", speed);
        file("class/net/" + dev + "/operstate", state);
    }
    void ib(const std::string &dev, int port, const std::string &rate, const std::string &state)
    {
        const std::string p = "class/infiniband/" + dev + "/ports/" + std::to_string(port) + "/";
        file(p + "rate", rate);
        file(p + "state", state);
    }
};

std::map<std::string, std::string> env;
const char *fake_getenv(const char *name)
{
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
}

} // namespace

TEST(LinkRate, ParsesRates)
{
    EXPECT_DOUBLE_EQ(mg_link_parse_ib_rate("100 Gb/sec (4X EDR)\n"), 100.0);
    EXPECT_DOUBLE_EQ(mg_link_parse_ib_rate("2.5 Gb/sec (1X SDR)"), 2.5);
    EXPECT_DOUBLE_EQ(mg_link_parse_ib_rate("400 Gb/sec (4X NDR)"), 400.0);
    EXPECT_EQ(mg_link_parse_ib_rate("fast"), -1);
    EXPECT_EQ(mg_link_parse_ib_rate("100 Mb/sec"), -1);
    EXPECT_DOUBLE_EQ(mg_link_parse_net_speed("25000\n"), 25.0);
    EXPECT_DOUBLE_EQ(mg_link_parse_net_speed("1000"), 1.0);
    EXPECT_EQ(mg_link_parse_net_speed("-1\n"), -1);
    EXPECT_EQ(mg_link_parse_net_speed("0"), -1);
    EXPECT_EQ(mg_link_parse_net_speed("10G"), -1);
}

TEST(LinkRate, DiscoversActiveLinksInOrder)
{
    Tree t;
    t.ib("mlx5_10", 1, "200 Gb/sec (4X HDR)\n", "4: ACTIVE\n");
    t.ib("mlx5_2", 1, "100 Gb/sec (4X EDR)\n", "4: ACTIVE\n");
    t.ib("mlx5_2", 2, "100 Gb/sec (4X EDR)\n", "1: DOWN\n");
    t.net("lo", "10000\n");
    t.net("eth0", "25000\n");
    t.net("eth1", "10000\n", "down\n");
    t.net("ib0", "-1\n");
    mg_link l[8];
    const int n = mg_link_discover(t.root.c_str(), l, 8);
    ASSERT_EQ(n, 3);
    EXPECT_STREQ(l[0].device, "mlx5_2:1");
    EXPECT_EQ(l[0].infiniband, 1);
    EXPECT_STREQ(l[1].device, "mlx5_10:1");
    EXPECT_DOUBLE_EQ(l[1].gbps, 200.0);
    EXPECT_STREQ(l[2].device, "eth0");
    EXPECT_DOUBLE_EQ(l[2].gbps, 25.0);
    EXPECT_EQ(mg_link_discover((t.root + "/none").c_str(), l, 8), 0);
}

TEST(LinkRate, ChoosesTheSteeredDeviceElseTheFastest)
{
    mg_link l[3] = {{"eth0", 100.0, 0}, {"mlx5_0:1", 100.0, 1}, {"rail0", 10.0, 0}};
    env.clear();
    EXPECT_EQ(mg_link_choose(l, 3, fake_getenv), 1); // InfiniBand first at equal rate
    env["OMPI_MCA_btl_tcp_if_include"] = "rail0";
    EXPECT_EQ(mg_link_choose(l, 3, fake_getenv), 2);
    env["UCX_NET_DEVICES"] = "mlx5_0";
    EXPECT_EQ(mg_link_choose(l, 3, fake_getenv), 1); // UCX's before Open MPI's tcp
    env["MG_LINK_DEVICE"] = "unknown0,eth0";
    EXPECT_EQ(mg_link_choose(l, 3, fake_getenv), 0);
    env.clear();
    env["FI_TCP_IFACE"] = "eth"; // a prefix is not a name
    EXPECT_EQ(mg_link_choose(l, 3, fake_getenv), 1);
    EXPECT_EQ(mg_link_choose(l, 0, fake_getenv), -1);
}
