/* SPDX-License-Identifier: BSD-3-Clause */
/* mpigauge-rails: the network devices of a node and the rails chosen from
 * them (mg_netdev.h), or a wrapper that steers one MPI process to one rail:
 *
 *   mpirun -n 8 mpigauge-rails bind --rails 2 -- mpigauge_mbw_mr ...
 *
 * Local rank L (from the launcher's environment, before MPI_Init) gets rail
 * L % K. The rails are the --devices list, or the K devices chosen for the
 * node as a whole (no binding preference, so that every local rank sees the
 * same list). The wrapper sets UCX_NET_DEVICES, OMPI_MCA_btl_tcp_if_include
 * and FI_TCP_IFACE (mg_netdev_env; overriding the user's values) and execs the
 * command. No MPI: it runs before the MPI library is loaded.
 */
#include "mg_exit.h"
#include "mg_json.h"
#include "mg_netdev.h"
#include "mg_opts.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_DEVS 256
#define EXIT_EXEC 127

typedef struct {
    long rails; /* 0: not given */
    const char *input, *near, *devices;
    int format, verbose, help;
} rails_opts;

static const char *const formats[] = {"table", "json", NULL};

static const mg_opt opts[] = {
    {.short_name = 'k',
     .long_name = "rails",
     .type = MG_OPT_LONG,
     .offset = offsetof(rails_opts, rails),
     .arg_name = "K",
     .help = "number of rails (default: the --devices count, else 1)",
     .min = 1,
     .max = MG_NETDEV_MAX_RAILS},
    {.short_name = 'i',
     .long_name = "input",
     .type = MG_OPT_STRING,
     .offset = offsetof(rails_opts, input),
     .arg_name = "FILE",
     .help = "an hwloc XML topology instead of this machine"},
    {.long_name = "near",
     .type = MG_OPT_STRING,
     .offset = offsetof(rails_opts, near),
     .arg_name = "CPUS",
     .help = "list: choose for these CPUs (hwloc list, 0-3; default: this process's binding)"},
    {.long_name = "format",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(rails_opts, format),
     .arg_name = "table|json",
     .help = "list: output format",
     .choices = formats},
    {.short_name = 'd',
     .long_name = "devices",
     .type = MG_OPT_STRING,
     .offset = offsetof(rails_opts, devices),
     .arg_name = "LIST",
     .help = "bind: the rails, comma-separated (rail r = entry r)"},
    {.short_name = 'v',
     .long_name = "verbose",
     .type = MG_OPT_FLAG,
     .offset = offsetof(rails_opts, verbose),
     .help = "bind: print the rail of each process on stderr"},
    {.short_name = 'h',
     .long_name = "help",
     .type = MG_OPT_FLAG,
     .offset = offsetof(rails_opts, help),
     .help = "this help"},
    {.type = MG_OPT_END},
};

static void usage(FILE *f, const mg_opt_table *t)
{
    fprintf(
        f,
        "usage: mpigauge-rails [--rails K] [--input topo.xml] [--near CPUS] [--format table|json]\n"
        "         list the network devices and the K rails chosen for this process's binding\n"
        "       mpigauge-rails bind [--rails K] [--devices LIST] [--verbose] -- COMMAND [ARGS...]\n"
        "         run COMMAND steered to rail L %% K, L the launcher's local rank: sets\n"
        "         UCX_NET_DEVICES, OMPI_MCA_btl_tcp_if_include and FI_TCP_IFACE\n"
        "exit status: 0; 2 usage error, no device or unknown local rank; 127 COMMAND not run\n\n");
    mg_opts_help(f, t, 1);
}

static int fail(const char *msg, const char *arg)
{
    fprintf(stderr, "mpigauge-rails: %s%s\n", msg, arg ? arg : "");
    return MG_EXIT_USAGE;
}

static const char *or_null(const char *s) { return s && *s ? s : NULL; }

static void list(const mg_netdev *d, int n, const int *idx, int chosen, int k, const char *binding,
                 int json)
{
    static const char *const kinds[] = {"openfabrics", "network"};
    if (json) {
        mg_json j;
        mg_json_init(&j, stdout);
        mg_json_object_begin(&j, NULL);
        mg_json_array_begin(&j, "devices");
        for (int i = 0; i < n; ++i) {
            mg_json_object_begin(&j, NULL);
            mg_json_string(&j, "name", d[i].name);
            mg_json_string(&j, "kind", kinds[d[i].kind]);
            if (d[i].numa >= 0)
                mg_json_int(&j, "numa", d[i].numa);
            else
                mg_json_null(&j, "numa");
            mg_json_string(&j, "pci_busid", or_null(d[i].pci_busid));
            if (d[i].pci_gbps > 0)
                mg_json_number(&j, "pci_gbps", d[i].pci_gbps);
            else
                mg_json_null(&j, "pci_gbps");
            mg_json_string(&j, "cpuset", or_null(d[i].cpuset));
            mg_json_string(&j, "netdev", or_null(d[i].netdev));
            mg_json_object_end(&j);
        }
        mg_json_array_end(&j);
        mg_json_string(&j, "binding", binding);
        mg_json_int(&j, "rails_requested", k);
        mg_json_array_begin(&j, "rails");
        for (int r = 0; r < chosen; ++r)
            mg_json_string(&j, NULL, d[idx[r]].name);
        mg_json_array_end(&j);
        mg_json_object_end(&j);
        putchar('\n');
        return;
    }
    printf("%-16s %-11s %4s  %-12s  %8s  %-16s %s\n", "device", "kind", "numa", "pci_busid",
           "pci_GB/s", "cpuset", "netdev");
    for (int i = 0; i < n; ++i) {
        char numa[16] = "-", gbps[32] = "-";
        if (d[i].numa >= 0)
            snprintf(numa, sizeof numa, "%d", d[i].numa);
        if (d[i].pci_gbps > 0)
            snprintf(gbps, sizeof gbps, "%.2f", d[i].pci_gbps);
        printf("%-16s %-11s %4s  %-12s  %8s  %-16s %s\n", d[i].name, kinds[d[i].kind], numa,
               d[i].pci_busid[0] ? d[i].pci_busid : "-", gbps, d[i].cpuset[0] ? d[i].cpuset : "-",
               d[i].netdev[0] ? d[i].netdev : "-");
    }
    printf("binding: %s\nrails (%d of %d):", binding ? binding : "none", chosen, k);
    for (int r = 0; r < chosen; ++r)
        printf(" %s", d[idx[r]].name);
    putchar('\n');
}

/* The listing: the devices, the K chosen for a binding (--near or this
 * process's). Destroys topo. */
static int do_list(const rails_opts *o, const mg_netdev *devs, int n, hwloc_topology_t topo)
{
    hwloc_bitmap_t near = hwloc_bitmap_alloc();
    char *binding = NULL;
    int k = o->rails ? (int)o->rails : 1, have = 0, rc = MG_EXIT_OK;
    int idx[MG_NETDEV_MAX_RAILS];

    if (o->near)
        have = hwloc_bitmap_list_sscanf(near, o->near) == 0 && !hwloc_bitmap_iszero(near);
    else if (!o->input)
        have = hwloc_get_cpubind(topo, near, HWLOC_CPUBIND_PROCESS) == 0;
    if (o->near && !have) {
        rc = fail("--near: not a CPU list (hwloc list syntax, e.g. 0-3,8): ", o->near);
    } else if (n == 0) {
        rc = fail("no network device found", NULL);
    } else {
        int chosen;
        if (have)
            hwloc_bitmap_list_asprintf(&binding, near);
        chosen = mg_netdev_select(devs, n, topo, have ? near : NULL, k, idx);
        list(devs, n, idx, chosen, k, binding, o->format == 1);
        free(binding);
    }
    hwloc_bitmap_free(near);
    hwloc_topology_destroy(topo);
    return rc;
}

/* bind: steer this process to the device of its local rank, then run the
 * command (argv from cmd). Destroys topo (may be NULL). */
static int do_bind(const rails_opts *o, const mg_netdev *devs, int n, hwloc_topology_t topo,
                   char **cmd)
{
    char names[MG_NETDEV_MAX_RAILS][64], host[256] = "?", err[256];
    const char *dev = NULL;
    int local = mg_netdev_local_rank(NULL), k = 0, rail = 0, rc = MG_EXIT_USAGE;
    int idx[MG_NETDEV_MAX_RAILS];

    if (o->devices) {
        int m = mg_netdev_parse_list(o->devices, names, MG_NETDEV_MAX_RAILS, err, sizeof err);
        if (m < 0)
            rc = fail("--devices: ", err);
        else if ((k = o->rails ? (int)o->rails : m) > m) {
            rc = fail("--rails is larger than the number of --devices: ", o->devices);
            k = 0;
        }
    } else if (n == 0) {
        rc = fail("no network device found", NULL);
    } else {
        /* the node's choice, the same in every local rank; fewer rails if fewer exist */
        k = mg_netdev_select(devs, n, topo, NULL, o->rails ? (int)o->rails : 1, idx);
    }
    if (topo)
        hwloc_topology_destroy(topo);
    if (k == 0)
        return rc;
    if (local < 0)
        return fail("unknown local rank: the first set of OMPI_COMM_WORLD_LOCAL_RANK, "
                    "MPI_LOCALRANKID, PMI_LOCAL_RANK, PALS_LOCAL_RANKID, SLURM_LOCALID must be a "
                    "non-negative integer (run under an MPI launcher)",
                    NULL);
    rail = local % k;
    dev = o->devices ? names[rail] : devs[idx[rail]].name;
    if (mg_netdev_setenv(devs, n, dev, NULL, 0) < 0)
        return fail("cannot steer to the device (bad name, or setenv failed): ", dev);
    if (o->verbose) {
        gethostname(host, sizeof host - 1);
        fprintf(stderr, "mpigauge-rails: %s local rank %d -> rail %d (%s)\n", host, local, rail,
                dev);
    }
    execvp(cmd[0], cmd);
    fprintf(stderr, "mpigauge-rails: cannot run '%s': %s\n", cmd[0], strerror(errno));
    return EXIT_EXEC;
}

int main(int argc, char **argv)
{
    mg_netdev devs[MAX_DEVS]; /* 90 KB of main's stack */
    rails_opts o = {0};
    mg_opt_table table = {opts, &o, "rails-tool", NULL};
    hwloc_topology_t topo;
    char err[256];
    int bind = argc > 1 && strcmp(argv[1], "bind") == 0, first = bind ? 2 : 1, end = argc, n = 0;

    for (int i = first; i < argc && end == argc; ++i)
        if (strcmp(argv[i], "--") == 0)
            end = i;
    /* argv[first - 1] stands in for the program name */
    if (mg_opts_parse(&table, 1, end - first + 1, argv + first - 1, err, sizeof err) != 0)
        return fail(err, NULL);
    if (o.help) {
        usage(stdout, &table);
        return MG_EXIT_OK;
    }
    if (!bind && (end < argc || o.devices || o.verbose))
        return fail("-- COMMAND, --devices and --verbose are for 'mpigauge-rails bind'", NULL);
    if (bind && (o.near || o.format))
        return fail("--near and --format are for the listing (without 'bind')", NULL);
    if (bind && end + 1 >= argc)
        return fail("bind: missing -- COMMAND [ARGS...]", NULL);
    /* The devices (for bind with --devices only to know their kinds). */
    if (mg_netdev_topology(&topo, o.input) == 0) {
        n = o.input ? mg_netdev_discover(topo, devs, MAX_DEVS)
                    : mg_netdev_discover_machine(topo, devs, MAX_DEVS);
    } else if (o.input || !o.devices) {
        return fail("cannot load the hwloc topology ", o.input ? o.input : "of this machine");
    } else {
        topo = NULL;
    }
    return bind ? do_bind(&o, devs, n, topo, argv + end + 1) : do_list(&o, devs, n, topo);
}
