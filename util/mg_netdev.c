/* SPDX-License-Identifier: BSD-3-Clause */
/* Network devices and rails: see mg_netdev.h. */
#include "mg_netdev.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int mg_netdev_name_cmp(const char *a, const char *b)
{
    const char *p = a, *q = b;

    while (*p && *q) {
        if (isdigit((unsigned char)*p) && isdigit((unsigned char)*q)) {
            size_t lp = 0, lq = 0;
            while (*p == '0')
                ++p;
            while (*q == '0')
                ++q;
            while (isdigit((unsigned char)p[lp]))
                ++lp;
            while (isdigit((unsigned char)q[lq]))
                ++lq;
            if (lp != lq)
                return lp < lq ? -1 : 1;
            int c = strncmp(p, q, lp);
            if (c)
                return c;
            p += lp;
            q += lq;
        } else if (*p != *q) {
            return (unsigned char)*p < (unsigned char)*q ? -1 : 1;
        } else {
            ++p;
            ++q;
        }
    }
    if (*p || *q)
        return *p ? 1 : -1;
    return strcmp(a, b); /* equal as numbers ("a01", "a1"): still a total order */
}

static int cmp_dev(const void *a, const void *b)
{
    return mg_netdev_name_cmp(((const mg_netdev *)a)->name, ((const mg_netdev *)b)->name);
}

static int find_name(const mg_netdev *devs, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(devs[i].name, name) == 0)
            return i;
    return -1;
}

int mg_netdev_topology(hwloc_topology_t *topo, const char *xml)
{
    if (hwloc_topology_init(topo) != 0)
        return -1;
    if (hwloc_topology_set_io_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_ALL) != 0 ||
        (xml && hwloc_topology_set_xml(*topo, xml) != 0) || hwloc_topology_load(*topo) != 0) {
        hwloc_topology_destroy(*topo);
        return -1;
    }
    return 0;
}

/* One OS device: PCI parent, locality of the first non-I/O ancestor, and for
 * an HCA the network interface beside it on the same PCI device. */
static void fill(hwloc_topology_t topo, hwloc_obj_t o, mg_netdev *d)
{
    hwloc_obj_t pci = NULL, anc = hwloc_get_non_io_ancestor_obj(topo, o);

    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", o->name);
    d->kind = o->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS ? MG_NETDEV_OPENFABRICS
                                                                 : MG_NETDEV_NETWORK;
    d->numa = -1;
    for (hwloc_obj_t p = o->parent; p && hwloc_obj_type_is_io(p->type); p = p->parent)
        if (p->type == HWLOC_OBJ_PCI_DEVICE) {
            pci = p;
            break;
        }
    if (pci) {
        const struct hwloc_pcidev_attr_s *a = &pci->attr->pcidev;
        snprintf(d->pci_busid, sizeof d->pci_busid, "%04x:%02x:%02x.%01x", (unsigned)a->domain,
                 (unsigned)a->bus, (unsigned)a->dev, (unsigned)a->func);
        d->pci_gbps = a->linkspeed;
        for (hwloc_obj_t c = pci->io_first_child; c && d->kind == MG_NETDEV_OPENFABRICS;
             c = c->next_sibling)
            if (c->type == HWLOC_OBJ_OS_DEVICE && c->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK &&
                c->name && strlen(c->name) < sizeof d->netdev) {
                snprintf(d->netdev, sizeof d->netdev, "%s", c->name);
                break;
            }
    }
    if (anc && anc->cpuset &&
        hwloc_bitmap_list_snprintf(d->cpuset, sizeof d->cpuset, anc->cpuset) >=
            (int)sizeof d->cpuset)
        d->cpuset[0] = '\0'; /* truncated: unknown rather than wrong */
    if (anc && anc->nodeset && hwloc_bitmap_weight(anc->nodeset) == 1)
        d->numa = hwloc_bitmap_first(anc->nodeset);
}

int mg_netdev_discover(hwloc_topology_t topo, mg_netdev *out, int max)
{
    int n = 0, cap = 0;
    mg_netdev *all;
    hwloc_obj_t o = NULL;

    while ((o = hwloc_get_next_osdev(topo, o)) != NULL)
        ++cap;
    if (cap == 0 || max <= 0 || (all = malloc((size_t)cap * sizeof *all)) == NULL)
        return 0;
    while ((o = hwloc_get_next_osdev(topo, o)) != NULL) {
        hwloc_obj_osdev_type_t t = o->attr->osdev.type;
        if ((t != HWLOC_OBJ_OSDEV_OPENFABRICS && t != HWLOC_OBJ_OSDEV_NETWORK) || !o->name ||
            strcmp(o->name, "lo") == 0 || strlen(o->name) >= sizeof all->name ||
            find_name(all, n, o->name) >= 0)
            continue;
        fill(topo, o, &all[n++]);
    }
    qsort(all, (size_t)n, sizeof *all, cmp_dev);
    if (n > max)
        n = max;
    memcpy(out, all, (size_t)n * sizeof *all);
    free(all);
    return n;
}

/* A device whose sysfs operstate says "down" (administratively or without
 * carrier) carries nothing: not a rail. No operstate file: kept. */
static int is_down(const char *path)
{
    char p[PATH_MAX], state[16] = "";
    FILE *f;
    if (snprintf(p, sizeof p, "%s/operstate", path) >= (int)sizeof p || (f = fopen(p, "r")) == NULL)
        return 0;
    if (fgets(state, sizeof state, f) == NULL)
        state[0] = '\0';
    fclose(f);
    return strncmp(state, "down", 4) == 0;
}

int mg_netdev_discover_sysfs(const char *dir, mg_netdev_kind kind, mg_netdev *devs, int n, int max)
{
    struct dirent **ents = NULL;
    int m = scandir(dir, &ents, NULL, alphasort), n0 = n;

    for (int i = 0; i < m; ++i) {
        const char *name = ents[i]->d_name;
        char path[PATH_MAX];
        struct stat st;
        if (n < max && name[0] != '.' && strcmp(name, "lo") != 0 &&
            strlen(name) < sizeof devs->name && find_name(devs, n, name) < 0 &&
            snprintf(path, sizeof path, "%s/%s", dir, name) < (int)sizeof path &&
            stat(path, &st) == 0 && S_ISDIR(st.st_mode) && !is_down(path)) {
            mg_netdev *d = &devs[n++];
            memset(d, 0, sizeof *d);
            snprintf(d->name, sizeof d->name, "%.63s", name); /* IFNAMSIZ, IB names: short */
            d->kind = kind;
            d->numa = -1;
        }
        free(ents[i]);
    }
    free(ents);
    if (n > n0)
        qsort(devs, (size_t)n, sizeof *devs, cmp_dev);
    return n;
}

int mg_netdev_discover_machine(hwloc_topology_t topo, mg_netdev *out, int max)
{
    int n = mg_netdev_discover(topo, out, max);
    n = mg_netdev_discover_sysfs("/sys/class/net", MG_NETDEV_NETWORK, out, n, max);
    return mg_netdev_discover_sysfs("/sys/class/infiniband", MG_NETDEV_OPENFABRICS, out, n, max);
}

/* The ranking keys of one device (mg_netdev_select). */
typedef struct {
    int i, near, of, pci;
    double gbps;
    const char *name;
} rank_key;

static int cmp_rank(const void *a, const void *b)
{
    const rank_key *x = a, *y = b;
    if (x->near != y->near)
        return y->near - x->near;
    if (x->of != y->of)
        return y->of - x->of;
    if (x->pci != y->pci)
        return y->pci - x->pci;
    if (x->gbps != y->gbps)
        return x->gbps > y->gbps ? -1 : 1;
    return mg_netdev_name_cmp(x->name, y->name);
}

/* 1 if device d is local to near: its cpuset, else its NUMA node's. */
static int is_near(const mg_netdev *d, hwloc_topology_t topo, hwloc_const_cpuset_t near,
                   hwloc_bitmap_t set)
{
    hwloc_obj_t node;
    if (!near || !set)
        return 0;
    if (d->cpuset[0] && hwloc_bitmap_list_sscanf(set, d->cpuset) == 0)
        return hwloc_bitmap_intersects(set, near);
    if (topo && d->numa >= 0 &&
        (node = hwloc_get_numanode_obj_by_os_index(topo, (unsigned)d->numa)))
        return hwloc_bitmap_intersects(node->cpuset, near);
    return 0;
}

int mg_netdev_select(const mg_netdev *devs, int n, hwloc_topology_t topo, hwloc_const_cpuset_t near,
                     int k, int *idx)
{
    rank_key *keys;
    hwloc_bitmap_t set;
    int chosen = 0;

    if (n <= 0 || k <= 0 || (keys = malloc((size_t)n * sizeof *keys)) == NULL)
        return 0;
    set = hwloc_bitmap_alloc();
    for (int i = 0; i < n; ++i) {
        keys[i] = (rank_key){i,
                             is_near(&devs[i], topo, near, set),
                             devs[i].kind == MG_NETDEV_OPENFABRICS,
                             devs[i].pci_busid[0] != '\0',
                             devs[i].pci_gbps,
                             devs[i].name};
    }
    hwloc_bitmap_free(set);
    qsort(keys, (size_t)n, sizeof *keys, cmp_rank);
    for (int r = 0; r < n && chosen < k; ++r) {
        const mg_netdev *d = &devs[keys[r].i];
        int same = 0;
        for (int c = 0; c < chosen && d->pci_busid[0]; ++c)
            same |= strcmp(devs[idx[c]].pci_busid, d->pci_busid) == 0;
        if (!same)
            idx[chosen++] = keys[r].i;
    }
    free(keys);
    for (int i = 1; i < chosen; ++i) /* name order: a few entries, insertion sort */
        for (int j = i; j > 0 && mg_netdev_name_cmp(devs[idx[j - 1]].name, devs[idx[j]].name) > 0;
             --j) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    return chosen;
}

int mg_netdev_parse_list(const char *spec, char names[][64], int max, char *err, size_t errlen)
{
    int n = 0;
    const char *p = spec;

    if (!spec || !*spec) {
        snprintf(err, errlen, "empty device list");
        return -1;
    }
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0) {
            snprintf(err, errlen, "empty device name in list '%s'", spec);
            return -1;
        }
        if (len > 63) {
            snprintf(err, errlen, "device name '%.*s' is longer than 63 characters", (int)len, p);
            return -1;
        }
        for (size_t i = 0; i < len; ++i) {
            unsigned char c = (unsigned char)p[i];
            if (!isalnum(c) && !strchr("_.:-", c)) {
                if (isprint(c))
                    snprintf(err, errlen, "bad character '%c' in device name '%.*s'", c, (int)len,
                             p);
                else
                    snprintf(err, errlen, "bad character 0x%02x in device list", c);
                return -1;
            }
        }
        if (n == max) {
            snprintf(err, errlen, "more than %d devices in list '%s'", max, spec);
            return -1;
        }
        memcpy(names[n], p, len);
        names[n][len] = '\0';
        for (int i = 0; i < n; ++i)
            if (strcmp(names[i], names[n]) == 0) {
                snprintf(err, errlen, "device '%s' listed twice", names[n]);
                return -1;
            }
        ++n;
        if (p[len] == '\0')
            return n;
        p += len + 1;
    }
}

static const char *sys_getenv(const char *name) { return getenv(name); }

int mg_netdev_local_rank(const char *(*getenv_fn)(const char *name))
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                       "PMI_LOCAL_RANK", "PALS_LOCAL_RANKID", "SLURM_LOCALID"};
    if (!getenv_fn)
        getenv_fn = sys_getenv;
    for (size_t v = 0; v < sizeof vars / sizeof vars[0]; ++v) {
        const char *s = getenv_fn(vars[v]);
        long long r = 0;
        if (!s)
            continue;
        if (!*s)
            return -1;
        for (; *s; ++s) {
            if (!isdigit((unsigned char)*s) || (r = r * 10 + (*s - '0')) > INT_MAX)
                return -1;
        }
        return (int)r;
    }
    return -1;
}

/* Append "sep item suffix" to buf (sep only when something is there). */
static int append(char *buf, size_t len, size_t prefix, const char *item, const char *suffix)
{
    size_t used = strlen(buf);
    int w = snprintf(buf + used, len - used, "%s%s%s", used > prefix ? "," : "", item, suffix);
    return w < 0 || (size_t)w >= len - used ? -1 : 0;
}

int mg_netdev_env(const mg_netdev *devs, int n, const char *list, char env[][256], int max)
{
    char names[MG_NETDEV_MAX_RAILS][64], err[160];
    const char *tcp[MG_NETDEV_MAX_RAILS]; /* names or netdevs, each once */
    char ucx[256] = "UCX_NET_DEVICES=", inc[256] = "OMPI_MCA_btl_tcp_if_include=";
    const size_t ucx0 = strlen(ucx), inc0 = strlen(inc);
    int m = mg_netdev_parse_list(list, names, MG_NETDEV_MAX_RAILS, err, sizeof err), ntcp = 0,
        count = 0;

    if (m < 0)
        return -1;
    for (int i = 0; i < m; ++i) {
        char base[64];
        const char *tcpname = names[i], *port = strchr(names[i], ':');
        int d = find_name(devs, n, names[i]);
        if (d < 0 && port) { /* "mlx5_0:2": the device with an explicit port */
            snprintf(base, sizeof base, "%.*s", (int)(port - names[i]), names[i]);
            d = find_name(devs, n, base);
        }
        if (d >= 0 && devs[d].kind == MG_NETDEV_OPENFABRICS) {
            if (append(ucx, sizeof ucx, ucx0, names[i], port ? "" : ":1") != 0)
                return -1;
            tcpname = devs[d].netdev[0] ? devs[d].netdev : NULL;
        } else if (append(ucx, sizeof ucx, ucx0, names[i], "") != 0) {
            return -1;
        }
        int dup = 0;
        for (int t = 0; t < ntcp && tcpname; ++t)
            dup |= strcmp(tcp[t], tcpname) == 0;
        if (tcpname && !dup) {
            tcp[ntcp++] = tcpname;
            if (append(inc, sizeof inc, inc0, tcpname, "") != 0)
                return -1;
        }
    }
    if (count < max)
        snprintf(env[count++], 256, "%s", ucx);
    if (ntcp > 0 && count < max)
        snprintf(env[count++], 256, "%s", inc);
    if (ntcp > 0 && count < max)
        snprintf(env[count++], 256, "FI_TCP_IFACE=%s", tcp[0]);
    return count;
}

int mg_netdev_setenv(const mg_netdev *devs, int n, const char *list, char *applied, size_t len)
{
    char env[MG_NETDEV_MAX_ENV][256];
    int m = mg_netdev_env(devs, n, list, env, MG_NETDEV_MAX_ENV);
    size_t o = 0;
    if (applied && len > 0)
        applied[0] = '\0';
    for (int i = 0; i < m; ++i) {
        char *eq = strchr(env[i], '=');
        int ok;
        *eq = '\0';
        ok = setenv(env[i], eq + 1, 1) == 0;
        *eq = '=';
        if (!ok)
            return -1;
        if (applied && o < len) {
            int w = snprintf(applied + o, len - o, "%s%s", o ? " " : "", env[i]);
            o += w > 0 ? (size_t)w : 0;
        }
    }
    return m;
}
