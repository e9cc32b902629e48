/* Unidirectional windowed bandwidth (seeds 000/002/004, OSU osu_bw).
 *
 * Per iteration rank 0 posts W back-to-back non-blocking sends of N bytes
 * and rank 1 the W matching receives; when all have completed rank 1 returns
 * a 4-byte acknowledgement. Bandwidth = W x N / time per iteration, in MB/s
 * (10^6 bytes/s).
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
                mg_xfer_isend(x, c->sbuf, size, c->peer, TAG_DATA, &c->reqs[k]);
            mg_xfer_waitall(w, c->reqs);
            mg_xfer_recv(x, ack, ACK_BYTES, c->peer, TAG_ACK);
        } else {
            for (int k = 0; k < w; ++k)
                mg_xfer_irecv(x, c->rbuf, size, c->peer, TAG_DATA, &c->reqs[k]);
            mg_xfer_waitall(w, c->reqs);
            mg_xfer_send(x, ack, ACK_BYTES, c->peer, TAG_ACK);
        }
    }
}

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)size * (double)mg_window(c);
}

/* Only rank 1 receives payload. */
static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    return c->rank == 1 ? mg_recv_from_peer(c, size, from, max) : 0;
}

static const mg_bench bench = {
    .name = "bw",
    .description = "unidirectional bandwidth, window of W non-blocking sends from rank 0 to "
                   "rank 1 then a short ack, in MB/s (10^6 bytes/s)",
    MG_PT2PT_WINDOW_BW_FIELDS,
    .bytes_per_iter = bytes_per_iter,
    .iterate = iterate,
    .recv_slots = recv_slots,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
