/* SPDX-License-Identifier: BSD-3-Clause */
/* The traffic matrix of alltoallv --matrix: entry (i, j) is what rank i
 * sends to rank j, row by row. Either a CSV file of bytes (P lines of P
 * whole numbers joined by commas; '#' lines are comments) or a generator
 * whose entries are multiples of the message size N:
 *   uniform        every entry 1 (alltoall's pattern)
 *   hotspot[:H]    every entry 1, but H (default 8) to rank 0
 *   sparse[:D]     each rank sends to itself and to D (default max(1, P/4))
 *                  others, chosen at random (the same on every rank, seeded
 *                  by the row), 0 elsewhere
 * Plain C, no MPI. */
#ifndef MG_MATRIX_H
#define MG_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int n;       /* ranks */
    int scaled;  /* 1: entries are multiples of N (a generator); 0: bytes (a file) */
    uint64_t *m; /* n x n, row-major */
} mg_matrix;

/* A generator name ("uniform", "hotspot:4", "sparse") or, failing that, a
 * file path: the matrix for n ranks, or -1 with a message (freed either
 * way with mg_matrix_free). */
int mg_matrix_make(const char *spec, int n, mg_matrix *out, char *err, size_t errlen);

/* The CSV text of a file for n ranks. */
int mg_matrix_parse(const char *text, int n, mg_matrix *out, char *err, size_t errlen);

void mg_matrix_free(mg_matrix *x);

static inline uint64_t mg_matrix_at(const mg_matrix *x, int i, int j)
{
    return x->m[(size_t)i * (size_t)x->n + (size_t)j];
}

/* Row i's and column j's sums; the largest row or column sum; the total. */
uint64_t mg_matrix_row(const mg_matrix *x, int i);
uint64_t mg_matrix_col(const mg_matrix *x, int j);
uint64_t mg_matrix_busiest(const mg_matrix *x);
uint64_t mg_matrix_total(const mg_matrix *x);

#ifdef __cplusplus
}
#endif

#endif
