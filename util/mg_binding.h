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

#ifdef __cplusplus
}
#endif

#endif
