/* SPDX-License-Identifier: BSD-3-Clause */
/* This process's CPU binding: see mg_binding.h. */
#include "mg_binding.h"

#include <hwloc.h>
#include <stdio.h>
#include <string.h>

void mg_binding(struct hwloc_topology *topo, char *out, size_t len)
{
    hwloc_topology_t own = NULL;
    hwloc_bitmap_t set;

    snprintf(out, len, "unknown");
    if (topo == NULL) {
        if (hwloc_topology_init(&own) != 0)
            return;
        if (hwloc_topology_load(own) != 0) {
            hwloc_topology_destroy(own);
            return;
        }
        topo = own;
    }
    set = hwloc_bitmap_alloc();
    if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) {
        int whole = hwloc_bitmap_isequal(set, hwloc_topology_get_complete_cpuset(topo));
        int w = hwloc_bitmap_list_snprintf(out, len, set);
        if (whole && w >= 0 && (size_t)w < len)
            snprintf(out + w, len - (size_t)w, " (unbound)");
    }
    if (set)
        hwloc_bitmap_free(set);
    if (own)
        hwloc_topology_destroy(own);
}

int mg_binding_package_of(struct hwloc_topology *topo, const char *cpus)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int pkg = -1;
    if (set && hwloc_bitmap_list_sscanf(set, cpus) == 0 && !hwloc_bitmap_iszero(set)) {
        hwloc_obj_t o = hwloc_get_obj_covering_cpuset(topo, set);
        while (o && o->type != HWLOC_OBJ_PACKAGE)
            o = o->parent;
        if (o)
            pkg = (int)o->logical_index;
    }
    if (set)
        hwloc_bitmap_free(set);
    return pkg;
}

int mg_binding_package(struct hwloc_topology *topo)
{
    hwloc_topology_t own = NULL;
    char cpus[1024];
    int pkg;
    if (topo == NULL) {
        if (hwloc_topology_init(&own) != 0)
            return -1;
        if (hwloc_topology_load(own) != 0) {
            hwloc_topology_destroy(own);
            return -1;
        }
        topo = own;
    }
    mg_binding(topo, cpus, sizeof cpus);
    cpus[strcspn(cpus, " ")] = '\0'; /* " (unbound)" */
    pkg = strcmp(cpus, "unknown") == 0 ? -1 : mg_binding_package_of(topo, cpus);
    if (own)
        hwloc_topology_destroy(own);
    return pkg;
}
