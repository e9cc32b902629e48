/* SPDX-License-Identifier: BSD-3-Clause */
/* A library problem reproduced without mpigauge (doc/releases.md, "The
 * series that install here"): after MPI_Init, one whole MPI_T session
 * (MPI_T_init_thread, then MPI_T_finalize, nothing read), then MPI_Bcast of
 * 8 bytes on MPI_COMM_WORLD. Prints "bcast ok" from rank 0, or the library
 * crashes in MPI_Bcast. With "nested" as its argument a second MPI_T
 * reference stays open through the broadcast (what mpigauge's driver does:
 * one reference for the whole run). Run by bench/mpit_bcast_by_release.sh. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int provided, rank, nested = argc > 1 && strcmp(argv[1], "nested") == 0;
    char buf[8] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (nested)
        MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_finalize();
    for (int i = 0; i < 10; ++i)
        MPI_Bcast(buf, 8, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (nested)
        MPI_T_finalize();
    if (rank == 0)
        printf("bcast ok\n");
    MPI_Finalize();
    return 0;
}
