/* SPDX-License-Identifier: BSD-3-Clause */
/* session_then_init: the smallest program that shows doc/releases.md's
 * Intel MPI finding, without mpigauge. Each rank starts a session
 * (MPI_Session_init, a communicator from the mpi://WORLD process set) and
 * then MPI_Init: MPI-4 allows the sessions and the world model in one
 * process. Rank 0 prints "MPI_Init after MPI_Session_init: rc 0"; Intel MPI
 * 2021.19 aborts instead ("Cannot call MPI_INIT or MPI_INIT_THREAD more
 * than once"), Open MPI 5.0.11 and MPICH 5.0.2 print the line.
 *   mpicc -o session_then_init bench/session_then_init.c
 *   mpiexec -n 2 ./session_then_init
 */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm c;
    int rank;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, "x", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
    MPI_Group_free(&g);
    int rc = MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("MPI_Init after MPI_Session_init: rc %d\n", rc);
    MPI_Comm_free(&c);
    MPI_Session_finalize(&s);
    MPI_Finalize();
    return 0;
}
