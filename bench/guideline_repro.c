/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal program that reproduces a guideline violation without
 * mpigauge (doc/collectives.md, "Guidelines study"): plain MPI, the two
 * sides of one guideline called in turns, each call timed by every rank
 * after a barrier (not timed), the slowest rank's time kept; the medians of
 * both sides over the calls and their ratio, for a report to the library's
 * developers.
 *
 *   mpicc -O2 -o guideline_repro bench/guideline_repro.c
 *   mpirun -n 2 ./guideline_repro scan 65536 2000 [turns|blocks]
 *
 * RULE: scan      MPI_Scan(n)      against MPI_Exscan(n) + MPI_Reduce_local(n)
 *       reduce    MPI_Reduce(n)    against MPI_Allreduce(n)
 *       gather    MPI_Gather(n/P)  against MPI_Allgather(n/P)
 *       allreduce MPI_Allreduce(n) against MPI_Reduce(n) + MPI_Bcast(n)
 *       scatter   MPI_Scatter(n/P) against MPI_Scatterv(n/P each)
 *       allgather MPI_Allgather(n/P) against MPI_Alltoall(n/P)
 *       scatter-bcast        MPI_Scatter(n/P) against MPI_Bcast(n)
 *       gather-reduce        MPI_Gather(n/P) against MPI_Reduce(n) (blocks in place)
 *       allgather-allreduce  MPI_Allgather(n/P) against MPI_Allreduce(n)
 *       rsb-allreduce        MPI_Reduce_scatter_block(n/P) against MPI_Allreduce(n)
 * n: bytes of the whole result (floats, MPI_SUM), a multiple of 4 P.
 * turns (default): the two sides alternate call by call, each going first
 * in every other pair; blocks: every call of the collective, then every
 * call of the mock-up (the order in which mpigauge measures them).
 * Output: "# LIBRARY" (the first line of MPI_Get_library_version: the
 * library the program loaded), then "RULE n P: collective MED us, mock-up
 * MED us, ratio R (calls C, ORDER)"; exit 0, or 2 on a usage error. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One side of the rules that stand in a more general collective, once;
 * 0 when RULE is not one of them. */
static int side_general(const char *rule, int mock, float *a, float *b, int count, int p)
{
    const int block = count / p;
    if (strcmp(rule, "scatter-bcast") == 0) {
        if (!mock)
            MPI_Scatter(a, block, MPI_FLOAT, b, block, MPI_FLOAT, 0, MPI_COMM_WORLD);
        else
            MPI_Bcast(a, count, MPI_FLOAT, 0, MPI_COMM_WORLD);
    } else if (strcmp(rule, "gather-reduce") == 0) {
        if (!mock)
            MPI_Gather(a, block, MPI_FLOAT, b, block, MPI_FLOAT, 0, MPI_COMM_WORLD);
        else
            MPI_Reduce(a, b, count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
    } else if (strcmp(rule, "allgather-allreduce") == 0) {
        if (!mock)
            MPI_Allgather(a, block, MPI_FLOAT, b, block, MPI_FLOAT, MPI_COMM_WORLD);
        else
            MPI_Allreduce(a, b, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    } else if (strcmp(rule, "rsb-allreduce") == 0) {
        if (!mock)
            MPI_Reduce_scatter_block(a, b, block, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Allreduce(a, b, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    } else {
        return 0;
    }
    return 1;
}

/* One side of the rule, once. */
static void side(const char *rule, int mock, float *a, float *b, int count, int p,
                 const int *counts, const int *displs)
{
    const int block = count / p;
    if (side_general(rule, mock, a, b, count, p))
        return;
    if (strcmp(rule, "scan") == 0) {
        if (!mock) {
            MPI_Scan(a, b, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        } else {
            MPI_Exscan(a, b, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            MPI_Reduce_local(a, b, count, MPI_FLOAT, MPI_SUM);
        }
    } else if (strcmp(rule, "reduce") == 0) {
        if (!mock)
            MPI_Reduce(a, b, count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        else
            MPI_Allreduce(a, b, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    } else if (strcmp(rule, "gather") == 0) {
        if (!mock)
            MPI_Gather(a, block, MPI_FLOAT, b, block, MPI_FLOAT, 0, MPI_COMM_WORLD);
        else
            MPI_Allgather(a, block, MPI_FLOAT, b, block, MPI_FLOAT, MPI_COMM_WORLD);
    } else if (strcmp(rule, "scatter") == 0) {
        if (!mock)
            MPI_Scatter(a, block, MPI_FLOAT, b, block, MPI_FLOAT, 0, MPI_COMM_WORLD);
        else
            MPI_Scatterv(a, counts, displs, MPI_FLOAT, b, block, MPI_FLOAT, 0, MPI_COMM_WORLD);
    } else if (strcmp(rule, "allgather") == 0) {
        if (!mock)
            MPI_Allgather(a, block, MPI_FLOAT, b, block, MPI_FLOAT, MPI_COMM_WORLD);
        else /* every rank's own block to every rank: the allgather's result */
            MPI_Alltoall(a, block, MPI_FLOAT, b, block, MPI_FLOAT, MPI_COMM_WORLD);
    } else {
        if (!mock) {
            MPI_Allreduce(a, b, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        } else {
            MPI_Reduce(a, b, count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
            MPI_Bcast(b, count, MPI_FLOAT, 0, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    static const char *const rules[] = {
        "scan",      "reduce",        "gather",        "allreduce",           "scatter",
        "allgather", "scatter-bcast", "gather-reduce", "allgather-allreduce", "rsb-allreduce",
        NULL};
    int rank, p, ok = argc == 4 || argc == 5, calls = 0, blocks = 0;
    long n = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (ok) {
        int known = 0;
        for (const char *const *r = rules; *r; ++r)
            known |= strcmp(argv[1], *r) == 0;
        n = atol(argv[2]);
        calls = atoi(argv[3]);
        blocks = argc == 5 && strcmp(argv[4], "blocks") == 0;
        ok = known && n > 0 && n % (4L * p) == 0 && calls > 0 && calls <= 1000000 &&
             (argc == 4 || blocks || strcmp(argv[4], "turns") == 0);
    }
    if (!ok) {
        if (rank == 0)
            fprintf(stderr, "usage: guideline_repro RULE N CALLS [turns|blocks] (RULE: scan, "
                            "reduce, gather, allreduce, scatter, allgather, scatter-bcast, "
                            "gather-reduce, allgather-allreduce, rsb-allreduce; N: bytes, a "
                            "multiple of 4 x ranks)\n");
        MPI_Finalize();
        return 2;
    }
    const int count = (int)(n / 4);
    float *a = malloc((size_t)n), *b = malloc((size_t)n);
    double *t[2] = {malloc((size_t)calls * sizeof(double)), malloc((size_t)calls * sizeof(double))};
    int *counts = malloc((size_t)p * sizeof(int)), *displs = malloc((size_t)p * sizeof(int));
    for (int i = 0; i < count; ++i)
        a[i] = (float)(1 + (rank + i) % 4);
    for (int r = 0; r < p; ++r) {
        counts[r] = count / p;
        displs[r] = r * (count / p);
    }
    if (strcmp(argv[1], "allgather") == 0) /* the alltoall sends its own block to all */
        for (int i = 0; i < count; ++i)
            a[i] = (float)(1 + rank % 4);
    const int warm = calls / 10 + 1; /* a tenth of warm-up */
    for (int j = 0; j < 2 * (warm + calls); ++j) {
        /* turns: pair k = j / 2, the sides taking turns going first;
         * blocks: the collective's warm-up and calls, then the mock-up's */
        const int k = blocks ? j % (warm + calls) - warm : j / 2 - warm;
        const int mock = blocks ? j >= warm + calls : (k + j % 2) % 2 != 0;
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        side(argv[1], mock, a, b, count, p, counts, displs);
        double dt = MPI_Wtime() - t0, worst;
        MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (k >= 0)
            t[mock][k] = worst * 1e6;
    }
    if (rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, "\n")] = '\0';
        printf("# %s\n", lib);
        const double c = median(t[0], calls), m = median(t[1], calls);
        printf("%s %ld %d: collective %.3f us, mock-up %.3f us, ratio %.2f (calls %d, %s)\n",
               argv[1], n, p, c, m, c / m, calls, blocks ? "blocks" : "turns");
    }
    free(a);
    free(b);
    free(counts);
    free(displs);
    free(t[0]);
    free(t[1]);
    MPI_Finalize();
    return 0;
}
