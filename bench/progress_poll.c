/* SPDX-License-Identifier: BSD-3-Clause */
/* What one call that only polls the library costs, without mpigauge
 * (doc/releases.md, MPICH's one-sided series): rank 0 times N calls of
 * MPI_Win_flush to rank 1 with nothing outstanding (a window of
 * MPI_Win_allocate, locked with MPI_Win_lock_all), of MPI_Iprobe with
 * nothing pending, of a flush after a put of 8 bytes, and of one put of
 * 8 bytes in epochs of 64 puts and a flush, while rank 1 waits in a
 * barrier; and how many times the library calls malloc per put (this
 * program defines malloc, which the library's calls reach first, and
 * counts them in one more block of puts, outside the timed ones; glibc's
 * __libc_malloc does the work).
 * Prints the library's version and one line:
 *   flush_empty NS  iprobe NS  put8_flush NS  put8_of_64 NS  mallocs_per_put M
 * (nanoseconds per call, the median of 9 blocks of N calls; the last two
 * per put). Run by bench/progress_by_release.sh. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCKS = 9 };

extern void *__libc_malloc(size_t n);
static volatile int counting;
static unsigned long mallocs;

void *malloc(size_t n)
{
    if (counting)
        ++mallocs;
    return __libc_malloc(n);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median over `blocks` blocks of n calls of the ns per call. kind 0:
 * flush alone, 1: iprobe, 2: put of 8 bytes then flush, 3: a put of 8
 * bytes, a flush after every 64th */
static double ns_per_call(int kind, long n, int blocks, MPI_Win win, char *src)
{
    double t[BLOCKS];
    int flag;
    for (int b = 0; b < blocks; ++b) {
        double t0 = MPI_Wtime();
        for (long i = 0; i < n; ++i) {
            if (kind == 1) {
                MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
                continue;
            }
            if (kind >= 2)
                MPI_Put(src, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win);
            if (kind != 3 || i % 64 == 63)
                MPI_Win_flush(1, win);
        }
        if (kind == 3)
            MPI_Win_flush(1, win);
        t[b] = (MPI_Wtime() - t0) / (double)n * 1e9;
    }
    qsort(t, (size_t)blocks, sizeof t[0], cmp_double);
    return t[blocks / 2];
}

int main(int argc, char **argv)
{
    int rank, size, len;
    long n = argc > 1 ? atol(argv[1]) : 200000;
    char version[MPI_MAX_LIBRARY_VERSION_STRING], *base, src[8] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || n < 1) {
        if (rank == 0)
            fprintf(stderr, "progress_poll: 2 ranks or more, and N >= 1\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Get_library_version(version, &len);
        for (int i = 0; i < len; ++i)
            if (version[i] == '\n')
                version[i] = ' ';
        printf("# %.80s\n", version);
        double f = ns_per_call(0, n, BLOCKS, win, src);
        double p = ns_per_call(1, n, BLOCKS, win, src);
        double pf = ns_per_call(2, n, BLOCKS, win, src);
        double p64 = ns_per_call(3, n, BLOCKS, win, src);
        counting = 1;
        (void)ns_per_call(3, n, 1, win, src);
        counting = 0;
        printf("flush_empty %.1f  iprobe %.1f  put8_flush %.1f  put8_of_64 %.1f  "
               "mallocs_per_put %.2f\n",
               f, p, pf, p64, (double)mallocs / (double)n);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
