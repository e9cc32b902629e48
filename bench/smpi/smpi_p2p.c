/* SPDX-License-Identifier: BSD-3-Clause */
/* The two point-to-point patterns of mpigauge's latency and bw programs in
 * plain MPI, for SimGrid's SMPI (smpicc), where the suite's driver (MPI_T,
 * hwloc, MPI-4) does not build: a ping-pong of MPI_Send/MPI_Recv (the
 * one-way time, half a round trip, in us) and a window of W MPI_Isend /
 * MPI_Irecv then MPI_Waitall and a 4-byte acknowledgement (MB/s, 10^6
 * bytes/s), as pt2pt/latency.c and pt2pt/bw.c time them.
 * A third pattern, allreduce, runs on every rank (the time of one
 * MPI_Allreduce as rank 0 saw it, us): the platform at many simulated ranks.
 *   smpi_p2p latency|bw|allreduce SIZE[,SIZE...] [ITERS] [WINDOW]
 * Prints "BENCH SIZE FIGURE" per size on rank 0; in latency and bw, ranks
 * past 1 wait. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_DATA = 1, TAG_ACK = 2, ACK_BYTES = 4, MAX_WINDOW = 1024 };

static double pingpong(char *buf, int size, int iters, int rank)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
        if (rank == 0) {
            MPI_Send(buf, size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(buf, size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) * 1e6 / (2.0 * iters);
}

static double window(char *buf, int size, int iters, int w, int rank)
{
    MPI_Request reqs[MAX_WINDOW];
    char ack[ACK_BYTES] = {0};
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
        for (int k = 0; k < w; ++k) {
            if (rank == 0)
                MPI_Isend(buf, size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, &reqs[k]);
            else
                MPI_Irecv(buf, size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, &reqs[k]);
        }
        MPI_Waitall(w, reqs, MPI_STATUSES_IGNORE);
        if (rank == 0)
            MPI_Recv(ack, ACK_BYTES, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Send(ack, ACK_BYTES, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
    }
    double secs = MPI_Wtime() - t0;
    return (double)size * w * iters / secs / 1e6;
}

/* Every rank: MPI_Allreduce of SIZE bytes (MPI_BOR over MPI_BYTE), the
 * calls after a barrier; the mean time of a call in us, as rank 0 saw it. */
static double allreduce(char *buf, char *out, int size, int iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i)
        MPI_Allreduce(buf, out, size, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
    return (MPI_Wtime() - t0) * 1e6 / iters;
}

int main(int argc, char **argv)
{
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int bw = argc > 1 && strcmp(argv[1], "bw") == 0;
    int coll = argc > 1 && strcmp(argv[1], "allreduce") == 0;
    int iters = argc > 3 ? atoi(argv[3]) : 20, w = argc > 4 ? atoi(argv[4]) : 64;
    if (argc < 3 || nranks < 2 || (!bw && !coll && strcmp(argv[1], "latency") != 0) || iters < 1 ||
        w < 1 || w > MAX_WINDOW) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: smpi_p2p latency|bw|allreduce SIZE[,SIZE...] [ITERS] [WINDOW<=%d], "
                    "two ranks or more\n",
                    MAX_WINDOW);
        MPI_Finalize();
        return 2;
    }
    /* strtol, not strtok: the simulated ranks share one process and libc */
    for (const char *p = argv[2]; *p; p += (*p == ',')) {
        char *end;
        int size = (int)strtol(p, &end, 10);
        if (end == p || size < 0)
            break;
        p = end;
        char *buf = calloc(size > 0 ? (size_t)size : 1, 1);
        double v = 0.0;
        if (coll) { /* every rank; a warm-up call first */
            char *out = malloc(size > 0 ? (size_t)size : 1);
            allreduce(buf, out, size, 1);
            v = allreduce(buf, out, size, iters);
            free(out);
        } else if (rank < 2) { /* a warm-up pass first, as the suite's programs make */
            v = bw ? window(buf, size, 1, w, rank) : pingpong(buf, size, 1, rank);
            v = bw ? window(buf, size, iters, w, rank) : pingpong(buf, size, iters, rank);
        }
        if (rank == 0)
            printf("%s %d %.6g\n", coll ? "allreduce" : bw ? "bw" : "latency", size, v);
        free(buf);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
