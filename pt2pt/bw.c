/* SPDX-License-Identifier: BSD-3-Clause */
/* Unidirectional windowed bandwidth (seeds 000/002/004, OSU osu_bw).
 *
 * Per iteration rank 0 posts W back-to-back non-blocking sends of N bytes
 * and rank 1 the W matching receives; when all have completed rank 1 returns
 * a 4-byte acknowledgement. Bandwidth = W x N / time per iteration, in MB/s
 * (10^6 bytes/s). -b multiple gives every window slot its own buffer.
 */
#include "mg_driver.h"
#include "pt2pt.h"

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)size * (double)mg_window(c);
}

static const mg_opt opts[] = {MG_OPT_WINDOW, MG_OPT_BUFFERS, MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "bw",
    .id.description = "unidirectional bandwidth, window of W non-blocking sends from rank 0 to "
                      "rank 1 then a short ack, in MB/s (10^6 bytes/s)",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_WINDOW_FIELDS,
    .params.opts = opts,
    .timing.bytes_per_iter = bytes_per_iter,
    .kernel.iterate = mg_window_stream,
    .kernel.rails = 1,
    .valid.recv_slots = mg_recv_if_receiver,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
