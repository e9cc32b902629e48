/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_netdev: network devices from hwloc XML fixtures
// (tests/fixtures/topo) and sysfs fixtures (tests/fixtures/sysfs), the choice
// of rails, device lists, the launcher's local rank and the steering
// environment.
#include "mg_netdev.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace
{

std::string fixture(const std::string &rel) { return std::string(MG_FIXTURE_DIR) + "/" + rel; }

// A topology loaded from a fixture and its discovered devices.
struct Topo {
    hwloc_topology_t t = nullptr;
    std::vector<mg_netdev> devs;

    explicit Topo(const char *xml)
    {
        if (mg_netdev_topology(&t, fixture(std::string("topo/") + xml).c_str()) != 0) {
            t = nullptr;
            return;
        }
        devs.resize(64);
        devs.resize((size_t)mg_netdev_discover(t, devs.data(), 64));
    }
    ~Topo()
    {
        if (t)
            hwloc_topology_destroy(t);
    }
    hwloc_const_cpuset_t package(unsigned i) const
    {
        hwloc_obj_t p = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, i);
        return p ? p->cpuset : nullptr;
    }
    std::vector<std::string> names() const
    {
        std::vector<std::string> v;
        for (const mg_netdev &d : devs)
            v.push_back(d.name);
        return v;
    }
    std::vector<std::string> select(hwloc_const_cpuset_t near, int k) const
    {
        std::vector<int> idx((size_t)k, -1);
        int n = mg_netdev_select(devs.data(), (int)devs.size(), t, near, k, idx.data());
        std::vector<std::string> v;
        for (int i = 0; i < n; ++i)
            v.push_back(devs[(size_t)idx[(size_t)i]].name);
        return v;
    }
};

using Names = std::vector<std::string>;

void expect_dev(const mg_netdev &d, const char *name, mg_netdev_kind kind, int numa,
                const char *busid, double gbps, const char *cpuset, const char *netdev)
{
    EXPECT_STREQ(d.name, name);
    EXPECT_EQ(d.kind, kind) << name;
    EXPECT_EQ(d.numa, numa) << name;
    EXPECT_STREQ(d.pci_busid, busid) << name;
    EXPECT_DOUBLE_EQ(d.pci_gbps, gbps) << name;
    EXPECT_STREQ(d.cpuset, cpuset) << name;
    EXPECT_STREQ(d.netdev, netdev) << name;
}

const auto OF = MG_NETDEV_OPENFABRICS;
const auto NET = MG_NETDEV_NETWORK;

} // namespace

TEST(Netdev, NaturalNameOrder)
{
    EXPECT_LT(mg_netdev_name_cmp("mlx5_2", "mlx5_10"), 0);
    EXPECT_GT(mg_netdev_name_cmp("mlx5_10", "mlx5_2"), 0);
    EXPECT_LT(mg_netdev_name_cmp("eth0", "ib0"), 0);
    EXPECT_LT(mg_netdev_name_cmp("ib1", "ib1a"), 0);
    EXPECT_EQ(mg_netdev_name_cmp("mlx5_0", "mlx5_0"), 0);
    // equal as numbers, still a total order
    EXPECT_NE(mg_netdev_name_cmp("a01", "a1"), 0);
    EXPECT_EQ(mg_netdev_name_cmp("a01", "a1") < 0, mg_netdev_name_cmp("a1", "a01") > 0);
}

TEST(Netdev, DiscoverTwoSocketsTwoHcas)
{
    Topo tp("two_socket_two_hca.xml");
    ASSERT_NE(tp.t, nullptr);
    // the NVMe disk is not a network device; natural name order
    ASSERT_EQ(tp.names(), (Names{"eth0", "ib0", "ib1", "mlx5_0", "mlx5_1"}));
    expect_dev(tp.devs[0], "eth0", NET, 0, "0000:17:00.0", 1.0, "0-3", "");
    expect_dev(tp.devs[1], "ib0", NET, 0, "0000:3b:00.0", 15.75, "0-3", "");
    expect_dev(tp.devs[2], "ib1", NET, 1, "0000:86:00.0", 15.75, "4-7", "");
    expect_dev(tp.devs[3], "mlx5_0", OF, 0, "0000:3b:00.0", 15.75, "0-3", "ib0");
    expect_dev(tp.devs[4], "mlx5_1", OF, 1, "0000:86:00.0", 15.75, "4-7", "ib1");
}

TEST(Netdev, DiscoverFourHcas)
{
    Topo tp("two_socket_four_hca.xml");
    ASSERT_NE(tp.t, nullptr);
    ASSERT_EQ(tp.names(), (Names{"ib0", "ib1", "ib2", "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}));
    expect_dev(tp.devs[3], "mlx5_0", OF, 0, "0000:17:00.0", 15.75, "0-3", "ib0");
    expect_dev(tp.devs[4], "mlx5_1", OF, 0, "0000:3b:00.0", 7.875, "0-3", "ib1");
    expect_dev(tp.devs[5], "mlx5_2", OF, 1, "0000:86:00.0", 15.75, "4-7", "ib2");
    expect_dev(tp.devs[6], "mlx5_3", OF, 1, "0000:af:00.0", 15.75, "4-7", ""); // no IPoIB
}

TEST(Netdev, DiscoverOneSocketNoHca)
{
    Topo tp("one_socket_no_hca.xml");
    ASSERT_NE(tp.t, nullptr);
    // lo is never a rail; bond0 hangs off the Machine without PCI parent
    ASSERT_EQ(tp.names(), (Names{"bond0", "eth0"}));
    expect_dev(tp.devs[0], "bond0", NET, 0, "", 0.0, "0-1", "");
    expect_dev(tp.devs[1], "eth0", NET, 0, "0000:00:03.0", 0.0, "0-1", "");
}

TEST(Netdev, DiscoverKeepsTheFirstMaxByName)
{
    Topo tp("two_socket_two_hca.xml");
    std::vector<mg_netdev> two(2);
    ASSERT_EQ(mg_netdev_discover(tp.t, two.data(), 2), 2);
    EXPECT_STREQ(two[0].name, "eth0");
    EXPECT_STREQ(two[1].name, "ib0");
}

TEST(Netdev, TopologyErrors)
{
    hwloc_topology_t t;
    EXPECT_EQ(mg_netdev_topology(&t, fixture("topo/no_such_file.xml").c_str()), -1);
}

TEST(Netdev, ThisMachineLoadsWithoutLoopback)
{
    hwloc_topology_t t;
    std::vector<mg_netdev> d(256);
    ASSERT_EQ(mg_netdev_topology(&t, nullptr), 0);
    int n = mg_netdev_discover_machine(t, d.data(), 256);
    hwloc_topology_destroy(t);
    ASSERT_GE(n, 0);
    for (int i = 0; i < n; ++i) {
        EXPECT_STRNE(d[(size_t)i].name, "lo");
        if (i > 0) {
            EXPECT_LT(mg_netdev_name_cmp(d[(size_t)i - 1].name, d[(size_t)i].name), 0);
        }
    }
}

TEST(Netdev, SysfsAddsVirtualDevicesHwlocDidNotReport)
{
    Topo tp("two_socket_two_hca.xml");
    std::vector<mg_netdev> d(tp.devs);
    d.resize(32);
    int n = mg_netdev_discover_sysfs(fixture("sysfs/net").c_str(), NET, d.data(),
                                     (int)tp.devs.size(), 32);
    n = mg_netdev_discover_sysfs(fixture("sysfs/infiniband").c_str(), OF, d.data(), n, 32);
    d.resize((size_t)n);
    Names got;
    for (const mg_netdev &x : d)
        got.push_back(x.name);
    // eth0, ib0 and mlx5_0 are there already; lo and the file bonding_masters are not devices,
    // ifb0 is down
    EXPECT_EQ(got, (Names{"docker0", "eth0", "ib0", "ib1", "mlx5_0", "mlx5_1", "rxe0", "veth_a",
                          "vxlan9", "vxlan10"}));
    expect_dev(d[0], "docker0", NET, -1, "", 0.0, "", "");
    expect_dev(d[1], "eth0", NET, 0, "0000:17:00.0", 1.0, "0-3", ""); // hwloc's entry kept
    expect_dev(d[6], "rxe0", OF, -1, "", 0.0, "", "");
    // virtual devices come after PCI ones of their kind; OpenFabrics first
    std::vector<int> idx(3);
    ASSERT_EQ(mg_netdev_select(d.data(), n, tp.t, nullptr, 3, idx.data()), 3);
    EXPECT_EQ((Names{d[(size_t)idx[0]].name, d[(size_t)idx[1]].name, d[(size_t)idx[2]].name}),
              (Names{"mlx5_0", "mlx5_1", "rxe0"}));
}

TEST(Netdev, SysfsRespectsMaxAndMissingDirectory)
{
    std::vector<mg_netdev> d(4);
    // in directory (alphabetical) order: docker0 eth0 ib0 [lo] veth_a ...
    EXPECT_EQ(mg_netdev_discover_sysfs(fixture("sysfs/net").c_str(), NET, d.data(), 0, 3), 3);
    EXPECT_STREQ(d[0].name, "docker0");
    EXPECT_STREQ(d[1].name, "eth0");
    EXPECT_STREQ(d[2].name, "ib0");
    EXPECT_EQ(mg_netdev_discover_sysfs(fixture("sysfs/none").c_str(), NET, d.data(), 3, 4), 3);
}

TEST(Netdev, SelectTwoHcas)
{
    Topo tp("two_socket_two_hca.xml");
    hwloc_const_cpuset_t s0 = tp.package(0), s1 = tp.package(1);
    ASSERT_NE(s0, nullptr);
    ASSERT_NE(s1, nullptr);
    EXPECT_EQ(tp.select(s0, 1), (Names{"mlx5_0"}));
    // locality first: the local NIC before the remote HCA; ib0 is mlx5_0's port, not a rail
    EXPECT_EQ(tp.select(s0, 2), (Names{"eth0", "mlx5_0"}));
    EXPECT_EQ(tp.select(s1, 1), (Names{"mlx5_1"}));
    EXPECT_EQ(tp.select(s1, 2), (Names{"mlx5_0", "mlx5_1"})); // in name order
    EXPECT_EQ(tp.select(nullptr, 1), (Names{"mlx5_0"}));
    EXPECT_EQ(tp.select(nullptr, 2), (Names{"mlx5_0", "mlx5_1"}));
    // more than there are distinct devices: three
    EXPECT_EQ(tp.select(nullptr, 5), (Names{"eth0", "mlx5_0", "mlx5_1"}));
    EXPECT_EQ(tp.select(s1, 16), (Names{"eth0", "mlx5_0", "mlx5_1"}));
}

TEST(Netdev, SelectTheKNearestOfFourHcas)
{
    Topo tp("two_socket_four_hca.xml");
    hwloc_const_cpuset_t s0 = tp.package(0), s1 = tp.package(1);
    EXPECT_EQ(tp.select(s0, 1), (Names{"mlx5_0"})); // faster than mlx5_1
    EXPECT_EQ(tp.select(s0, 2), (Names{"mlx5_0", "mlx5_1"}));
    EXPECT_EQ(tp.select(s1, 1), (Names{"mlx5_2"})); // same speed: name
    EXPECT_EQ(tp.select(s1, 2), (Names{"mlx5_2", "mlx5_3"}));
    EXPECT_EQ(tp.select(s1, 3), (Names{"mlx5_0", "mlx5_2", "mlx5_3"}));
    EXPECT_EQ(tp.select(nullptr, 2), (Names{"mlx5_0", "mlx5_2"}));
    EXPECT_EQ(tp.select(nullptr, 16), (Names{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}));
    // a binding across both packages is no preference
    hwloc_bitmap_t both = hwloc_bitmap_alloc();
    hwloc_bitmap_list_sscanf(both, "3-4");
    EXPECT_EQ(tp.select(both, 2), (Names{"mlx5_0", "mlx5_2"}));
    hwloc_bitmap_free(both);
    EXPECT_EQ(tp.select(s0, 0), (Names{}));
}

TEST(Netdev, SelectPciBeforeVirtual)
{
    Topo tp("one_socket_no_hca.xml");
    EXPECT_EQ(tp.select(nullptr, 1), (Names{"eth0"}));
    EXPECT_EQ(tp.select(tp.package(0), 2), (Names{"bond0", "eth0"}));
}

TEST(Netdev, SelectUsesTheNumaNodeWithoutCpuset)
{
    Topo tp("two_socket_two_hca.xml");
    std::vector<mg_netdev> d(tp.devs);
    for (mg_netdev &x : d)
        x.cpuset[0] = '\0';
    std::vector<int> idx(1);
    ASSERT_EQ(mg_netdev_select(d.data(), (int)d.size(), tp.t, tp.package(1), 1, idx.data()), 1);
    EXPECT_STREQ(d[(size_t)idx[0]].name, "mlx5_1");
}

TEST(Netdev, ParseList)
{
    char names[4][64], err[160];
    ASSERT_EQ(mg_netdev_parse_list("rail0,rail1", names, 4, err, sizeof err), 2);
    EXPECT_STREQ(names[0], "rail0");
    EXPECT_STREQ(names[1], "rail1");
    ASSERT_EQ(mg_netdev_parse_list("mlx5_0:1,eth0.100,br-x", names, 4, err, sizeof err), 3);
    EXPECT_STREQ(names[2], "br-x");
    std::string n63(63, 'a'), n64(64, 'a');
    EXPECT_EQ(mg_netdev_parse_list(n63.c_str(), names, 4, err, sizeof err), 1);
    EXPECT_EQ(mg_netdev_parse_list("a,b,c,d", names, 4, err, sizeof err), 4);

    struct {
        const char *spec, *msg;
    } bad[] = {{"", "empty device list"},
               {"a,,b", "empty device name"},
               {"a,", "empty device name"},
               {",a", "empty device name"},
               {"a,b,a", "device 'a' listed twice"},
               {"eth0 ", "bad character ' '"},
               {"a/b", "bad character '/'"},
               {"a\tb", "bad character 0x09"},
               {n64.c_str(), "longer than 63"},
               {"a,b,c,d,e", "more than 4 devices"}};
    for (const auto &b : bad) {
        err[0] = '\0';
        EXPECT_EQ(mg_netdev_parse_list(b.spec, names, 4, err, sizeof err), -1) << b.spec;
        EXPECT_NE(std::string(err).find(b.msg), std::string::npos) << b.spec << ": " << err;
    }
    EXPECT_EQ(mg_netdev_parse_list(nullptr, names, 4, err, sizeof err), -1);
}

namespace
{

std::map<std::string, std::string> fake_env;

const char *fake_getenv(const char *name)
{
    auto it = fake_env.find(name);
    return it == fake_env.end() ? nullptr : it->second.c_str();
}

int local_rank(std::map<std::string, std::string> env)
{
    fake_env = std::move(env);
    return mg_netdev_local_rank(fake_getenv);
}

} // namespace

TEST(Netdev, LocalRankFromEachLauncher)
{
    EXPECT_EQ(local_rank({{"OMPI_COMM_WORLD_LOCAL_RANK", "3"}}), 3);
    EXPECT_EQ(local_rank({{"MPI_LOCALRANKID", "1"}}), 1);
    EXPECT_EQ(local_rank({{"PMI_LOCAL_RANK", "0"}}), 0);
    EXPECT_EQ(local_rank({{"PALS_LOCAL_RANKID", "7"}}), 7);
    EXPECT_EQ(local_rank({{"SLURM_LOCALID", "12"}}), 12);
    EXPECT_EQ(local_rank({{"OMPI_COMM_WORLD_RANK", "5"}}), -1); // not a local rank
    EXPECT_EQ(local_rank({}), -1);
}

TEST(Netdev, LocalRankPrecedence)
{
    EXPECT_EQ(local_rank({{"SLURM_LOCALID", "5"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "2"}}), 2);
    EXPECT_EQ(
        local_rank({{"SLURM_LOCALID", "5"}, {"PMI_LOCAL_RANK", "4"}, {"MPI_LOCALRANKID", "1"}}), 1);
    EXPECT_EQ(local_rank({{"SLURM_LOCALID", "5"}, {"PALS_LOCAL_RANKID", "6"}}), 6);
}

TEST(Netdev, LocalRankGarbage)
{
    for (const char *v :
         {"", "x", "-1", "+1", "1.0", " 1", "1 ", "0x1", "2147483648", "99999999999999999999"})
        EXPECT_EQ(local_rank({{"MPI_LOCALRANKID", v}}), -1) << "'" << v << "'";
    EXPECT_EQ(local_rank({{"MPI_LOCALRANKID", "007"}}), 7);
    EXPECT_EQ(local_rank({{"MPI_LOCALRANKID", "2147483647"}}), 2147483647);
    // the first variable set decides, even when malformed
    EXPECT_EQ(local_rank({{"OMPI_COMM_WORLD_LOCAL_RANK", "abc"}, {"SLURM_LOCALID", "1"}}), -1);
}

TEST(Netdev, LocalRankFromTheProcessEnvironment)
{
    const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK",
                          "PALS_LOCAL_RANKID", "SLURM_LOCALID"};
    std::map<std::string, std::string> saved;
    for (const char *v : vars)
        if (const char *s = getenv(v)) {
            saved[v] = s;
            unsetenv(v);
        }
    EXPECT_EQ(mg_netdev_local_rank(nullptr), -1);
    setenv("PALS_LOCAL_RANKID", "4", 1);
    EXPECT_EQ(mg_netdev_local_rank(nullptr), 4);
    unsetenv("PALS_LOCAL_RANKID");
    for (const auto &kv : saved)
        setenv(kv.first.c_str(), kv.second.c_str(), 1);
}

namespace
{

std::vector<std::string> env_of(const std::vector<mg_netdev> &devs, const char *list, int max = 8)
{
    char env[8][256];
    int n = mg_netdev_env(devs.data(), (int)devs.size(), list, env, max);
    std::vector<std::string> v;
    if (n < 0)
        v.push_back("error");
    for (int i = 0; i < n; ++i)
        v.push_back(env[i]);
    return v;
}

} // namespace

TEST(Netdev, EnvForDiscoveredDevices)
{
    Topo tp("two_socket_two_hca.xml");
    EXPECT_EQ(
        env_of(tp.devs, "mlx5_0"),
        (Names{"UCX_NET_DEVICES=mlx5_0:1", "OMPI_MCA_btl_tcp_if_include=ib0", "FI_TCP_IFACE=ib0"}));
    EXPECT_EQ(
        env_of(tp.devs, "eth0"),
        (Names{"UCX_NET_DEVICES=eth0", "OMPI_MCA_btl_tcp_if_include=eth0", "FI_TCP_IFACE=eth0"}));
    EXPECT_EQ(env_of(tp.devs, "mlx5_1,eth0"),
              (Names{"UCX_NET_DEVICES=mlx5_1:1,eth0", "OMPI_MCA_btl_tcp_if_include=ib1,eth0",
                     "FI_TCP_IFACE=ib1"}));
    // the HCA's interface is listed once
    EXPECT_EQ(env_of(tp.devs, "mlx5_0,ib0"),
              (Names{"UCX_NET_DEVICES=mlx5_0:1,ib0", "OMPI_MCA_btl_tcp_if_include=ib0",
                     "FI_TCP_IFACE=ib0"}));
    // an explicit port is kept
    EXPECT_EQ(
        env_of(tp.devs, "mlx5_1:2"),
        (Names{"UCX_NET_DEVICES=mlx5_1:2", "OMPI_MCA_btl_tcp_if_include=ib1", "FI_TCP_IFACE=ib1"}));
    EXPECT_EQ(env_of(tp.devs, "mlx5_0", 1), (Names{"UCX_NET_DEVICES=mlx5_0:1"}));
}

TEST(Netdev, EnvWithoutTcpInterface)
{
    Topo tp("two_socket_four_hca.xml");
    EXPECT_EQ(env_of(tp.devs, "mlx5_3"), (Names{"UCX_NET_DEVICES=mlx5_3:1"}));
}

TEST(Netdev, EnvForUnknownNames)
{
    std::vector<mg_netdev> none;
    EXPECT_EQ(env_of(none, "rail0,rail1"),
              (Names{"UCX_NET_DEVICES=rail0,rail1", "OMPI_MCA_btl_tcp_if_include=rail0,rail1",
                     "FI_TCP_IFACE=rail0"}));
    EXPECT_EQ(env_of(none, "rail1"),
              (Names{"UCX_NET_DEVICES=rail1", "OMPI_MCA_btl_tcp_if_include=rail1",
                     "FI_TCP_IFACE=rail1"}));
    EXPECT_EQ(env_of(none, "a,,b"), (Names{"error"}));
    // 16 long names do not fit in 255 characters
    std::string longlist;
    for (int i = 0; i < 16; ++i)
        longlist += (i ? "," : "") + std::string(60, 'a') + std::to_string(i);
    EXPECT_EQ(env_of(none, longlist.c_str()), (Names{"error"}));
}

TEST(Netdev, SetenvSetsAndReportsTheSteering)
{
    const char *names[] = {"UCX_NET_DEVICES", "OMPI_MCA_btl_tcp_if_include", "FI_TCP_IFACE"};
    std::map<std::string, std::string> saved;
    for (const char *v : names)
        if (const char *old = std::getenv(v))
            saved[v] = old;
    char applied[256];
    ASSERT_EQ(mg_netdev_setenv(nullptr, 0, "rail0,rail1", applied, sizeof applied), 3);
    EXPECT_STREQ(applied, "UCX_NET_DEVICES=rail0,rail1 OMPI_MCA_btl_tcp_if_include=rail0,rail1 "
                          "FI_TCP_IFACE=rail0");
    EXPECT_STREQ(std::getenv("UCX_NET_DEVICES"), "rail0,rail1");
    EXPECT_STREQ(std::getenv("OMPI_MCA_btl_tcp_if_include"), "rail0,rail1");
    EXPECT_STREQ(std::getenv("FI_TCP_IFACE"), "rail0");
    EXPECT_EQ(mg_netdev_setenv(nullptr, 0, "a b", applied, sizeof applied), -1);
    for (const char *v : names) {
        if (saved.count(v))
            setenv(v, saved[v].c_str(), 1);
        else
            unsetenv(v);
    }
}
