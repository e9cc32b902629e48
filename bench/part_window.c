/* SPDX-License-Identifier: BSD-3-Clause */
/* part_window: the smallest program that shows doc/releases.md's partitioned
 * finding, without mpigauge. Rank 0 starts W partitioned sends to rank 1 (one
 * partition of 8 bytes each, the same tag), rank 1 W partitioned receives,
 * both MPI_Startall, rank 0 MPI_Pready every partition, both MPI_Waitall;
 * ITERS times. MPI-4 allows any number of such requests at once (they match
 * in the order they were started, as persistent ones do). Prints "ok W" and
 * exits 0; a library that cannot complete them hangs (run it under timeout).
 *   mpicc -o part_window bench/part_window.c
 *   timeout 20 mpirun -n 2 ./part_window W [ITERS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_W = 256 };

int main(int argc, char **argv)
{
    int rank, w = argc > 1 ? atoi(argv[1]) : 2, iters = argc > 2 ? atoi(argv[2]) : 10;
    MPI_Request req[MAX_W];
    static char buf[MAX_W][8];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (w < 1 || w > MAX_W || iters < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: part_window W (1..%d) [ITERS]\n", MAX_W);
        MPI_Finalize();
        return 2;
    }
    for (int i = 0; i < w; ++i) {
        if (rank == 0)
            MPI_Psend_init(buf[i], 1, 8, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req[i]);
        else
            MPI_Precv_init(buf[i], 1, 8, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req[i]);
    }
    for (int it = 0; it < iters; ++it) {
        MPI_Startall(w, req);
        if (rank == 0)
            for (int i = 0; i < w; ++i)
                MPI_Pready(0, req[i]);
        MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
    }
    for (int i = 0; i < w; ++i)
        MPI_Request_free(&req[i]);
    if (rank == 0)
        printf("ok %d\n", w);
    MPI_Finalize();
    return 0;
}
