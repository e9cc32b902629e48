/* SPDX-License-Identifier: BSD-3-Clause */
/* What the network hardware promises: see mg_linkrate.h. */
#include "mg_linkrate.h"

#include "mg_netdev.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double mg_link_parse_ib_rate(const char *text)
{
    char *end;
    const double g = strtod(text, &end);
    if (end == text || g <= 0)
        return -1;
    while (*end == ' ')
        ++end;
    return strncmp(end, "Gb/sec", 6) == 0 ? g : -1;
}

double mg_link_parse_net_speed(const char *text)
{
    char *end;
    const long mbps = strtol(text, &end, 10);
    if (end == text || mbps <= 0 || (*end != '\0' && *end != '\n'))
        return -1;
    return (double)mbps / 1000.0;
}

/* The first line of root/rel into buf; 0, or -1. */
static int read_line(const char *root, const char *rel, char *buf, size_t len)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", root, rel);
    if ((f = fopen(path, "r")) == NULL)
        return -1;
    const int ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    return ok ? 0 : -1;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return mg_netdev_name_cmp((*a)->d_name, (*b)->d_name);
}

static int visible(const struct dirent *d) { return d->d_name[0] != '.'; }

/* The entries of root/rel in natural name order; the count, or -1. */
static int entries(const char *root, const char *rel, struct dirent ***list)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    return scandir(path, list, visible, by_name);
}

static void free_entries(struct dirent **list, int n)
{
    for (int i = 0; i < n; ++i)
        free(list[i]);
    free(list);
}

static int add(mg_link *out, int n, int max, const char *device, double gbps, int ib)
{
    if (n >= max || gbps <= 0 || strlen(device) >= sizeof out->device)
        return n;
    snprintf(out[n].device, sizeof out[n].device, "%s", device);
    out[n].gbps = gbps;
    out[n].infiniband = ib;
    return n + 1;
}

static int infiniband_ports(const char *root, mg_link *out, int n, int max)
{
    struct dirent **devs;
    const int nd = entries(root, "class/infiniband", &devs);
    for (int i = 0; i < nd; ++i) {
        char rel[512], line[128], name[160];
        struct dirent **ports;
        snprintf(rel, sizeof rel, "class/infiniband/%.200s/ports", devs[i]->d_name);
        const int np = entries(root, rel, &ports);
        for (int k = 0; k < np; ++k) {
            char state[600], rate[600];
            snprintf(state, sizeof state, "%s/%.60s/state", rel, ports[k]->d_name);
            snprintf(rate, sizeof rate, "%s/%.60s/rate", rel, ports[k]->d_name);
            if (read_line(root, state, line, sizeof line) != 0 || !strstr(line, "ACTIVE"))
                continue;
            if (read_line(root, rate, line, sizeof line) != 0)
                continue;
            snprintf(name, sizeof name, "%.80s:%.60s", devs[i]->d_name, ports[k]->d_name);
            n = add(out, n, max, name, mg_link_parse_ib_rate(line), 1);
        }
        if (np > 0)
            free_entries(ports, np);
    }
    if (nd > 0)
        free_entries(devs, nd);
    return n;
}

static int interfaces(const char *root, mg_link *out, int n, int max)
{
    struct dirent **ifs;
    const int ni = entries(root, "class/net", &ifs);
    for (int i = 0; i < ni; ++i) {
        char rel[512], line[128];
        const char *name = ifs[i]->d_name;
        if (strcmp(name, "lo") == 0)
            continue;
        snprintf(rel, sizeof rel, "class/net/%.200s/operstate", name);
        if (read_line(root, rel, line, sizeof line) == 0 && strncmp(line, "up", 2) != 0 &&
            strncmp(line, "unknown", 7) != 0)
            continue;
        snprintf(rel, sizeof rel, "class/net/%.200s/speed", name);
        if (read_line(root, rel, line, sizeof line) == 0)
            n = add(out, n, max, name, mg_link_parse_net_speed(line), 0);
    }
    if (ni > 0)
        free_entries(ifs, ni);
    return n;
}

int mg_link_discover(const char *root, mg_link *out, int max)
{
    return interfaces(root, out, infiniband_ports(root, out, 0, max), max);
}

/* The index of the link a steering name means ("mlx5_0", "mlx5_0:1",
 * "eth0"), or -1. */
static int named(const mg_link *l, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; ++i) {
        const size_t dl = strlen(l[i].device);
        if ((dl == len || (dl > len && l[i].device[len] == ':')) &&
            strncmp(l[i].device, name, len) == 0)
            return i;
    }
    return -1;
}

int mg_link_choose(const mg_link *l, int n, const char *(*getenv_fn)(const char *))
{
    static const char *const steer[] = {"MG_LINK_DEVICE", "UCX_NET_DEVICES",
                                        "OMPI_MCA_btl_tcp_if_include", "FI_TCP_IFACE", NULL};
    int best = -1;
    for (const char *const *v = steer; *v; ++v) {
        const char *val = getenv_fn ? getenv_fn(*v) : getenv(*v);
        while (val && *val) {
            const size_t len = strcspn(val, ",");
            const int k = named(l, n, val, len);
            if (k >= 0)
                return k;
            val += len + (val[len] == ',');
        }
    }
    for (int i = 0; i < n; ++i)
        if (best < 0 || l[i].gbps > l[best].gbps ||
            (l[i].gbps == l[best].gbps && l[i].infiniband && !l[best].infiniband))
            best = i;
    return best;
}

int mg_link_of_node(mg_link *out)
{
    mg_link l[64];
    const char *root = getenv("MG_SYSFS_ROOT");
    const int n = mg_link_discover(root && *root ? root : "/sys", l, 64);
    const int k = mg_link_choose(l, n, NULL);
    if (k < 0)
        return -1;
    *out = l[k];
    return 0;
}
