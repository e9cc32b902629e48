/* SPDX-License-Identifier: BSD-3-Clause */
/* What memory a node can give its ranks: physical memory and the memory
 * cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes), the smaller;
 * and the -M guard clamped to it. The parsers are pure; mg_node_memory
 * reads /proc and /sys. No MPI.
 */
#ifndef MG_MEMLIMIT_H
#define MG_MEMLIMIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A cgroup limit file's text: "max" (v2: none) or a byte count; v1's
 * "no limit" (a number near 2^63) counts as none. UINT64_MAX for none, 0
 * when the text is not a limit. */
uint64_t mg_cgroup_limit_parse(const char *text);

/* The memory cgroup of this process from /proc/self/cgroup's text: the
 * path of the limit file under root ("/sys/fs/cgroup") into out, v2 first
 * ("0::/a/b" -> ROOT/a/b/memory.max), else v1 ("4:memory:/a" ->
 * ROOT/memory/a/memory.limit_in_bytes). 0, or -1 when there is none. */
int mg_cgroup_limit_file(const char *proc_cgroup, const char *root, char *out, size_t len);

/* The node's memory: physical memory, lowered to the cgroup's limit. */
uint64_t mg_node_memory(void);

/* -M for one rank: `requested` (0: the default share, num/den of the node
 * divided by local_ranks), at most node / local_ranks. *clamped = 1 when a
 * requested value was lowered. */
uint64_t mg_memory_guard(uint64_t requested, uint64_t node, int local_ranks, unsigned num,
                         unsigned den, int *clamped);

#ifdef __cplusplus
}
#endif

#endif
