/* SPDX-License-Identifier: BSD-3-Clause */
/* bare_pt2pt: the simplest correct MPI ping-pong and windowed bandwidth, the
 * reference that bench/overhead.sh compares mpigauge's driver with.
 *
 * Usage: mpirun -n 2 bare_pt2pt lat|bw ITERS WARMUP WINDOW SIZE[K|M]...
 *
 *  lat: rank 0 MPI_Send + MPI_Recv of SIZE bytes, rank 1 the mirror; one-way
 *       latency = round trip / 2, in us. (WINDOW is ignored.)
 *  bw:  rank 0 posts WINDOW MPI_Isend of SIZE bytes, rank 1 WINDOW MPI_Irecv,
 *       MPI_Waitall, then a 4-byte ack 1 -> 0 (MPI_Send/MPI_Recv); MB/s
 *       (10^6 bytes/s) of WINDOW x SIZE bytes per iteration.
 *
 * The library's state: before measuring, the program makes and frees a
 * node communicator (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED), as
 * mpigauge's session does to learn the placement. With Open MPI 4.1.4 that
 * alone makes the 512 B - 1 KiB ping-pong 2-4% slower afterwards
 * (doc/measurement.md), a property of the library, not of either loop; so
 * the reference is the bare loop in the same state. MG_BARE_PLAIN=1 skips
 * it (the state of a program that never makes a communicator, like OSU's).
 *
 * Per size: barrier, WARMUP untimed iterations, then ITERS timed iterations
 * in blocks of B, each block bracketed by MPI_Wtime on rank 0. B is chosen
 * like mpigauge's fixed mode (-i/-x), so both medians are over blocks of the
 * same length: a block lasts >= 100 x max(MPI_Wtime cost, MPI_Wtick) and
 * >= 1 us by the warm-up's estimate, with at most 10000 blocks.
 * Prints CSV benchmark,size_bytes,median,mean: the median over blocks of the
 * per-iteration metric, and the whole timed loop's mean (total time / ITERS).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TAG_DATA = 1, TAG_ACK = 2, MAX_BLOCKS = 10000 };

static int rank, window;
static char *sbuf, *rbuf;
static MPI_Request *reqs;

static void lat(int size, long n)
{
    int peer = 1 - rank;
    for (long i = 0; i < n; ++i) {
        if (rank == 0) {
            MPI_Send(sbuf, size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(rbuf, size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(rbuf, size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
        }
    }
}

static void bw(int size, long n)
{
    char ack[4] = {0};
    for (long i = 0; i < n; ++i) {
        if (rank == 0) {
            for (int k = 0; k < window; ++k)
                MPI_Isend(sbuf, size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, &reqs[k]);
            MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
            MPI_Recv(ack, 4, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int k = 0; k < window; ++k)
                MPI_Irecv(rbuf, size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, &reqs[k]);
            MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
            MPI_Send(ack, 4, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One size: warm-up, block size from it (rank 0's choice), timed blocks;
 * rank 0 prints the median and the mean over the whole loop. */
static void run_size(int size, long iters, long warm, int is_bw, double min_block_s, double *x)
{
    void (*kernel)(int, long) = is_bw ? bw : lat;
    long b = 1, nb = 0;
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    kernel(size, warm);
    double est = warm > 0 ? (MPI_Wtime() - t0) / warm : 0.0;
    if (est > 0.0 && min_block_s > est)
        b = (long)ceil(min_block_s / est);
    if (b > iters)
        b = iters;
    if ((iters + b - 1) / b > MAX_BLOCKS)
        b = (iters + MAX_BLOCKS - 1) / MAX_BLOCKS;
    MPI_Bcast(&b, 1, MPI_LONG, 0, MPI_COMM_WORLD); /* rank 0's choice */

    double start = MPI_Wtime();
    for (long done = 0; done < iters; done += b) {
        long bi = iters - done < b ? iters - done : b;
        t0 = MPI_Wtime();
        kernel(size, bi);
        x[nb++] = (MPI_Wtime() - t0) / (double)bi;
    }
    double whole = (MPI_Wtime() - start) / (double)iters;
    if (rank != 0)
        return;
    double bytes = (double)window * size, med, mean;
    for (long i = 0; i < nb; ++i)
        x[i] = is_bw ? bytes / x[i] / 1e6 : x[i] * 0.5e6;
    qsort(x, (size_t)nb, sizeof *x, cmp);
    med = nb % 2 ? x[nb / 2] : (x[nb / 2 - 1] + x[nb / 2]) / 2.0;
    mean = is_bw ? bytes / whole / 1e6 : whole * 0.5e6;
    printf("%s,%d,%.6f,%.6f\n", is_bw ? "bw" : "latency", size, med, mean);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int nranks, is_bw, nsizes = argc - 5;
    long iters, warm, maxsize = 1, page = sysconf(_SC_PAGESIZE);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!getenv("MG_BARE_PLAIN")) {
        MPI_Comm node;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
        MPI_Comm_free(&node);
    }
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (argc < 6 || nranks != 2 || (strcmp(argv[1], "lat") && strcmp(argv[1], "bw")) ||
        (iters = atol(argv[2])) < 1 || (warm = atol(argv[3])) < 0 || (window = atoi(argv[4])) < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -n 2 %s lat|bw ITERS WARMUP WINDOW SIZE[K|M]...\n",
                    argv[0]);
        MPI_Finalize();
        return 2;
    }
    is_bw = argv[1][0] == 'b';
    long sizes[nsizes];
    for (int s = 0; s < nsizes; ++s) {
        char *end;
        sizes[s] = strtol(argv[5 + s], &end, 10);
        sizes[s] <<= *end == 'K' ? 10 : *end == 'M' ? 20 : 0;
        if (sizes[s] > maxsize)
            maxsize = sizes[s];
    }
    /* page-aligned, every page touched before timing (as mpigauge) */
    size_t len = maxsize < page ? (size_t)page : (size_t)maxsize;
    if (posix_memalign((void **)&sbuf, page, len) || posix_memalign((void **)&rbuf, page, len))
        MPI_Abort(MPI_COMM_WORLD, 3);
    memset(sbuf, 0, len);
    memset(rbuf, 0, len);
    reqs = malloc(window * sizeof *reqs);
    double *x = malloc(MAX_BLOCKS * sizeof *x);

    /* shortest block: 100 timer costs (mean of 2000 MPI_Wtime calls) or ticks */
    double t = MPI_Wtime(), t0 = t;
    for (int i = 0; i < 2000; ++i)
        t = MPI_Wtime();
    double min_block_s = 100.0 * fmax((t - t0) / 2000, MPI_Wtick());
    min_block_s = fmax(min_block_s, 1e-6);

    if (rank == 0)
        printf("benchmark,size_bytes,median,mean\n");
    for (int s = 0; s < nsizes; ++s)
        run_size((int)sizes[s], iters, warm, is_bw, min_block_s, x);
    free(x);
    free(reqs);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
