/* SPDX-License-Identifier: BSD-3-Clause */
/* part_pingpong: the smallest program that shows doc/releases.md's second
 * partitioned finding, without mpigauge. Ranks 0 and 1 each hold one
 * partitioned send and one partitioned receive of P partitions (MPI_Psend_init,
 * MPI_Precv_init, the same tag) and start both with MPI_Startall; rank 0 marks
 * every partition ready, rank 1 marks partition p of its reply ready as soon
 * as partition p has arrived (MPI_Parrived), rank 0 polls the reply's
 * partitions; both MPI_Waitall. ITERS times per size, sizes 1 B to 64 KiB per
 * partition. Prints "ok P ITERS" and exits 0; a library that leaves a request
 * incomplete hangs (run it under timeout, and with the cores busy: the hang
 * needs a preempted rank).
 *   mpicc -o part_pingpong bench/part_pingpong.c
 *   yes >/dev/null & yes >/dev/null &
 *   timeout 20 mpirun -n 2 ./part_pingpong 8 50; kill %1 %2
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_P = 64, MAX_SIZE = 65536 };

static void arrived(MPI_Request r, int p)
{
    int flag = 0;
    while (!flag)
        MPI_Parrived(r, p, &flag);
}

static void round_trip(int rank, int parts, MPI_Request req[2])
{
    MPI_Startall(2, req);
    for (int p = 0; p < parts; ++p) {
        if (rank == 1)
            arrived(req[1], p);
        MPI_Pready(p, req[0]);
    }
    if (rank == 0)
        for (int p = 0; p < parts; ++p)
            arrived(req[1], p);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, provided, parts = argc > 1 ? atoi(argv[1]) : 8, iters = argc > 2 ? atoi(argv[2]) : 50;
    static char sbuf[MAX_P * MAX_SIZE], rbuf[MAX_P * MAX_SIZE];
    MPI_Request req[2];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (parts < 1 || parts > MAX_P || iters < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: part_pingpong P (1..%d) [ITERS]\n", MAX_P);
        MPI_Finalize();
        return 2;
    }
    for (int size = 1; size <= MAX_SIZE; size *= 2) {
        MPI_Psend_init(sbuf, parts, size, MPI_BYTE, 1 - rank, 3, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &req[0]);
        MPI_Precv_init(rbuf, parts, size, MPI_BYTE, 1 - rank, 3, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &req[1]);
        for (int it = 0; it < iters; ++it)
            round_trip(rank, parts, req);
        MPI_Request_free(&req[0]);
        MPI_Request_free(&req[1]);
    }
    if (rank == 0)
        printf("ok %d %d\n", parts, iters);
    MPI_Finalize();
    return 0;
}
