/* SPDX-License-Identifier: BSD-3-Clause */
/* A program with a call mix known exactly, for `mpigauge profile`'s tests
 * (tests/profile.sh): on 2 ranks every rank makes exactly the calls that
 * tests/profile/profile_mix.expected lists (call, size class,
 * communicator size, count, bytes, datatype). Any rank count works; the
 * point-to-point part runs between ranks 0 and 1. With MG_PROFILE_MIX_EXIT
 * set it exits after MPI_Init, never reaching MPI_Finalize; with
 * MG_PROFILE_MIX_REPEAT=N it makes the mix N times (bench/profile_predict.sh);
 * with MG_PROFILE_MIX_HANG set it sleeps after MPI_Finalize. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    char *big, *big2, msg[1024];
    double *d, *e;
} bufs;

/* The mix once (MG_PROFILE_MIX_REPEAT times over: every count times N). */
static void mix(int rank, bufs *b)
{
    double x = 1, y = 0;
    MPI_Request r[2];
    MPI_Status st[2];
    if (rank < 2) {
        const int peer = 1 - rank;
        for (int i = 0; i < 10; ++i) /* 10 x 8 B: 0 sends, 1 receives */
            if (rank == 0)
                MPI_Send(b->msg, 8, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            else
                MPI_Recv(b->msg, 8, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 5; ++i) /* 5 x 64 KiB each way */
            MPI_Sendrecv(b->d, 8192, MPI_DOUBLE, peer, 2, b->e, 8192, MPI_DOUBLE, peer, 2,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 4; ++i) { /* 4 x 1 MiB each way, non-blocking */
            MPI_Irecv(b->big2, 1 << 20, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &r[0]);
            MPI_Isend(b->big, 1 << 20, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &r[1]);
            MPI_Waitall(2, r, st);
        }
    }
    for (int i = 0; i < 7; ++i) /* 7 x 8 B, one double */
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 3; ++i) /* 3 x 1000 B (size class 1024) */
        MPI_Bcast(b->msg, 1000, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, size;
    const char *rep = getenv("MG_PROFILE_MIX_REPEAT");
    const long repeat = rep ? atol(rep) : 1;
    bufs b = {.big = calloc(1 << 20, 1), .big2 = calloc(1 << 20, 1)};
    MPI_Comm self_half;

    b.d = calloc(8192, sizeof *b.d);
    b.e = calloc(8192, sizeof *b.e);
    memset(b.msg, 0, sizeof b.msg);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (b.big == NULL || b.big2 == NULL || b.d == NULL || b.e == NULL)
        MPI_Abort(MPI_COMM_WORLD, 99);
    if (getenv("MG_PROFILE_MIX_EXIT")) /* the test of a program that never finalizes */
        exit(3);
    for (long k = 0; k < repeat; ++k)
        mix(rank, &b);
    /* a communicator of one rank each: 1 split, 1 allreduce of 3 ints */
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &self_half);
    {
        int a[3] = {1, 2, 3}, b[3];
        MPI_Allreduce(a, b, 3, MPI_INT, MPI_MAX, self_half);
    }
    MPI_Comm_free(&self_half);
    if (rank == 0)
        printf("profile_mix: %d ranks, done\n", size);
    free(b.big);
    free(b.big2);
    free(b.d);
    free(b.e);
    MPI_Finalize();
    if (getenv("MG_PROFILE_MIX_HANG")) /* as a library that hangs at its end */
        sleep(600);
    return 0;
}
