/* SPDX-License-Identifier: BSD-3-Clause */
/* This process's CPU binding (no MPI): for the run record's provenance and
 * the rail map of the multirail transport, which both read it. */
#ifndef MG_BINDING_H
#define MG_BINDING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* This process's CPU binding in hwloc list syntax ("0-3", with " (unbound)"
 * when it may run on every CPU), "unknown" when hwloc cannot tell; topo NULL:
 * load this machine's topology for the purpose. */
struct hwloc_topology;
void mg_binding(struct hwloc_topology *topo, char *out, size_t len);

/* The logical index of the package (socket) of topo that holds every CPU
 * of `cpus` (hwloc list syntax, "4-7"); -1 when they span packages, the
 * list is empty or malformed, or no package holds them. */
int mg_binding_package_of(struct hwloc_topology *topo, const char *cpus);

/* This process's package: mg_binding_package_of its binding (an unbound
 * process on a one-package machine is in package 0); topo NULL: this
 * machine's topology, loaded for the purpose. */
int mg_binding_package(struct hwloc_topology *topo);

#ifdef __cplusplus
}
#endif

#endif
