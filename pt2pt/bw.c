/* Unidirectional windowed bandwidth (seeds 000/002/004, OSU osu_bw).
 *
 * Per iteration rank 0 posts W back-to-back non-blocking sends of N bytes
 * and rank 1 the W matching receives; when all have completed rank 1 returns
 * a 4-byte acknowledgement. Bandwidth = W x N / time per iteration, in MB/s
 * (10^6 bytes/s). -b multiple gives every window slot its own buffer.
 */
#include "mg_driver.h"
#include "pt2pt.h"

enum { TAG_DATA = 1, TAG_ACK = 2, ACK_BYTES = 4 };

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    const int w = (int)mg_window(c);
    char ack[ACK_BYTES] = {0};
    for (long i = 0; i < iters; ++i) {
        if (c->rank == 0) {
            for (int k = 0; k < w; ++k)
                mg_xfer_isend(x, mg_slot(c, c->sbuf, size, k), size, c->peer, TAG_DATA,
                              &c->reqs[k]);
            mg_xfer_waitall(w, c->reqs);
            mg_xfer_recv(x, ack, ACK_BYTES, c->peer, TAG_ACK);
        } else {
            for (int k = 0; k < w; ++k)
                mg_xfer_irecv(x, mg_slot(c, c->rbuf, size, k), size, c->peer, TAG_DATA,
                              &c->reqs[k]);
            mg_xfer_waitall(w, c->reqs);
            mg_xfer_send(x, ack, ACK_BYTES, c->peer, TAG_ACK);
        }
    }
}

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)size * (double)mg_window(c);
}

static const mg_opt opts[] = {MG_OPT_WINDOW, MG_OPT_BUFFERS, MG_OPT_LAST};

static const mg_bench bench = {
    .name = "bw",
    .description = "unidirectional bandwidth, window of W non-blocking sends from rank 0 to "
                   "rank 1 then a short ack, in MB/s (10^6 bytes/s)",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_WINDOW_FIELDS,
    .params_default = &mg_pt2pt_default,
    .opts = opts,
    .bytes_per_iter = bytes_per_iter,
    .iterate = iterate,
    .recv_slots = mg_recv_if_receiver,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
