/* SPDX-License-Identifier: BSD-3-Clause */
/* The rail map and settings (mg_mr.h): the run record's "rails" object and
 * the "# " lines above the table. */
#include "mg_mr.h"

#include <stdio.h>

static const char *role_of(const map_entry *e, char *buf, size_t len)
{
    if (e->member == 0)
        snprintf(buf, len, "rank %d", e->bench_rank);
    else
        snprintf(buf, len, "rail helper of rank %d", e->bench_rank);
    return buf;
}

void mg_multirail_write_json(const mg_rails *R, mg_json *j)
{
    if (R == NULL || !R->on)
        return;
    mg_json_object_begin(j, "rails");
    mg_json_int(j, "k", R->k);
    mg_json_string(j, "mode", mg_mr_mode_names[R->mode]);
    mg_json_string(j, "steer", mg_mr_steer_names[R->steer]);
    mg_json_bool(j, "rail_groups", R->groups);
    if (R->mode == MG_RAIL_STRIPE) {
        mg_json_uint(j, "stripe_threshold_bytes", (unsigned long long)R->threshold);
        mg_json_string(j, "weights_source",
                       R->wsource == MG_WEIGHTS_AUTO    ? "auto"
                       : R->wsource == MG_WEIGHTS_GIVEN ? "given"
                                                        : "even");
        mg_json_array_begin(j, "weights");
        for (int r = 0; r < R->k; ++r)
            mg_json_number(j, NULL, R->w[r]);
        mg_json_array_end(j);
        if (R->wsource == MG_WEIGHTS_AUTO) {
            mg_json_array_begin(j, "probe_MB/s");
            for (int r = 0; r < R->k; ++r)
                mg_json_number(j, NULL, R->probe_mbs[r]);
            mg_json_array_end(j);
        }
    }
    if (R->steer == MG_STEER_HINT && R->mode != MG_RAIL_LIBRARY) {
        mg_json_array_begin(j, "hints");
        for (int r = 0; r < R->k; ++r) {
            mg_json_object_begin(j, NULL);
            mg_json_int(j, "rail", r);
            mg_json_string(j, "read_back", R->hint_seen[r]);
            mg_json_bool(j, "kept", R->hint_ok[r]);
            mg_json_object_end(j);
        }
        mg_json_array_end(j);
    }
    mg_json_array_begin(j, "map");
    for (int w = 0; w < R->nmap; ++w) {
        const map_entry *e = &R->map[w];
        char role[64];
        mg_json_object_begin(j, NULL);
        mg_json_int(j, "world_rank", w);
        mg_json_string(j, "host", e->host);
        mg_json_int(j, "local_rank", e->local_rank);
        mg_json_string(j, "role", role_of(e, role, sizeof role));
        if (e->rail >= 0)
            mg_json_int(j, "rail", e->rail);
        else
            mg_json_null(j, "rail");
        mg_json_string(j, "device", e->device);
        if (e->numa >= 0)
            mg_json_int(j, "device_numa", e->numa);
        else
            mg_json_null(j, "device_numa");
        if (e->pci_gbps > 0)
            mg_json_number(j, "device_pci_GB/s", e->pci_gbps);
        else
            mg_json_null(j, "device_pci_GB/s");
        mg_json_string(j, "binding", e->binding);
        mg_json_string(j, "steering", e->steer_env);
        mg_json_object_end(j);
    }
    mg_json_array_end(j);
    mg_json_object_end(j);
}

void mg_multirail_write_comment(const mg_rails *R, FILE *f)
{
    if (R == NULL || !R->on)
        return;
    fprintf(f, "# Rails: %d, mode %s, steering %s", R->k, mg_mr_mode_names[R->mode],
            mg_mr_steer_names[R->steer]);
    if (R->mode == MG_RAIL_STRIPE) {
        fprintf(f, ", stripe threshold %llu B, weights", (unsigned long long)R->threshold);
        for (int r = 0; r < R->k; ++r)
            fprintf(f, "%s%.3f", r ? "," : " ", R->w[r]);
        fprintf(f, " (%s)",
                R->wsource == MG_WEIGHTS_AUTO    ? "auto"
                : R->wsource == MG_WEIGHTS_GIVEN ? "given"
                                                 : "even");
    }
    fputc('\n', f);
    if (R->steer == MG_STEER_HINT && R->mode != MG_RAIL_LIBRARY)
        for (int r = 0; r < R->k; ++r)
            fprintf(f, "# rail %d hints: %s: %s\n", r, R->hint_seen[r],
                    R->hint_ok[r] ? "kept by the library (MPI_Comm_get_info; steering shows only "
                                    "in the devices' counters)"
                                  : "dropped by the library");
    for (int w = 0; w < R->nmap; ++w) {
        const map_entry *e = &R->map[w];
        char role[64], numa[16] = "?", pci[32] = "";
        if (e->numa >= 0)
            snprintf(numa, sizeof numa, "%d", e->numa);
        if (e->pci_gbps > 0)
            snprintf(pci, sizeof pci, ", PCI %.2f GB/s", e->pci_gbps);
        fprintf(f, "# rail map: process %d on %s (local %d, %s, cpus %s)", w, e->host,
                e->local_rank, role_of(e, role, sizeof role), e->binding);
        if (e->rail >= 0)
            fprintf(f, " -> rail %d", e->rail);
        fprintf(f, " -> %s (NUMA %s%s); %s\n", e->device, numa, pci, e->steer_env);
    }
}
