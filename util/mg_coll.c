/* SPDX-License-Identifier: BSD-3-Clause */
/* Arithmetic of the collective benchmarks: see mg_coll.h. */
#include "mg_coll.h"

#include <math.h>
#include <string.h>

const char *const mg_elem_type_names[] = {"char", "int", "float", "double", "long", NULL};
const char *const mg_red_op_names[] = {"sum", "prod", "max", "min", NULL};

size_t mg_elem_size(mg_elem_type t)
{
    switch (t) {
    case MG_ELEM_CHAR: return sizeof(signed char);
    case MG_ELEM_INT: return sizeof(int);
    case MG_ELEM_FLOAT: return sizeof(float);
    case MG_ELEM_LONG: return sizeof(long long);
    default: return sizeof(double);
    }
}

static uint64_t modulus(int nranks) { return nranks < 100 ? (uint64_t)nranks : 100; }

double mg_red_input(mg_red_op op, int nranks, int rank, uint64_t i)
{
    switch (op) {
    case MG_RED_SUM: return (double)(((uint64_t)rank + i) % 4);
    case MG_RED_PROD: return (uint64_t)rank == i % (uint64_t)nranks ? (double)(2 + i % 3) : 1.0;
    default: return (double)(((uint64_t)rank + i) % modulus(nranks) + i % 5);
    }
}

double mg_red_expected(mg_red_op op, mg_elem_type t, int nranks, int n, uint64_t i)
{
    const uint64_t m = modulus(nranks), a = i % m, un = (uint64_t)n;
    double v;
    switch (op) {
    case MG_RED_SUM: {
        uint64_t sum = 6 * (un / 4);
        for (uint64_t k = 0; k < un % 4; ++k)
            sum += (k + i) % 4;
        v = (double)sum;
        break;
    }
    case MG_RED_PROD: v = i % (uint64_t)nranks < un ? (double)(2 + i % 3) : 1.0; break;
    case MG_RED_MAX: v = (double)((un >= m || a + un - 1 >= m ? m - 1 : a + un - 1) + i % 5); break;
    default: v = (double)((un >= m || a + un - 1 >= m ? 0 : a) + i % 5); break;
    }
    if (t == MG_ELEM_CHAR) {
        v = fmod(v, 256.0);
        if (v >= 128.0)
            v -= 256.0;
    }
    return v;
}

uint64_t mg_coll_vcount(uint64_t count, int src, int dst)
{
    return ((unsigned)src + (unsigned)dst) % 2 ? count - count / 2 : count;
}

uint64_t mg_coll_vdispl(uint64_t count, int r)
{
    const uint64_t ur = (uint64_t)r;
    return ur * count - (ur / 2) * (count / 2);
}

double mg_coll_overlap_pct(double pure_s, double cpu_s, double overall_s)
{
    double lo = fmin(pure_s, cpu_s), x;
    if (!(lo > 0.0) || !isfinite(pure_s) || !isfinite(cpu_s) || !(overall_s > 0.0) ||
        !isfinite(overall_s))
        return NAN;
    x = (pure_s + cpu_s - overall_s) / lo;
    return 100.0 * fmin(1.0, fmax(0.0, x));
}

/* Element i of a buffer of type t, by memcpy: a buffer may sit at any byte
 * of a window or a slot (MPICH's MPI_Win_allocate under ASan gave a base 4
 * bytes off a double's alignment), and a cast store there is undefined. */
void mg_elem_store(int t, void *buf, size_t i, double v)
{
    char *p = buf;
    switch (t) {
    case MG_ELEM_CHAR: {
        signed char x = (signed char)(int)fmod(v, 256.0);
        memcpy(p + i, &x, sizeof x);
        break;
    }
    case MG_ELEM_INT: {
        int x = (int)v;
        memcpy(p + i * sizeof x, &x, sizeof x);
        break;
    }
    case MG_ELEM_FLOAT: {
        float x = (float)v;
        memcpy(p + i * sizeof x, &x, sizeof x);
        break;
    }
    case MG_ELEM_LONG: {
        long long x = (long long)v;
        memcpy(p + i * sizeof x, &x, sizeof x);
        break;
    }
    default: memcpy(p + i * sizeof v, &v, sizeof v);
    }
}

double mg_elem_load(int t, const void *buf, size_t i)
{
    const char *p = buf;
    switch (t) {
    case MG_ELEM_CHAR: return (double)((const signed char *)p)[i];
    case MG_ELEM_INT: {
        int x;
        memcpy(&x, p + i * sizeof x, sizeof x);
        return x;
    }
    case MG_ELEM_FLOAT: {
        float x;
        memcpy(&x, p + i * sizeof x, sizeof x);
        return x;
    }
    case MG_ELEM_LONG: {
        long long x;
        memcpy(&x, p + i * sizeof x, sizeof x);
        return (double)x;
    }
    default: {
        double x;
        memcpy(&x, p + i * sizeof x, sizeof x);
        return x;
    }
    }
}

void mg_coll_bus_bw(int bus, uint64_t size, int nranks, double t_us, double *alg, double *busbw)
{
    const double p = (double)nranks;
    double s = (double)size, f = 1.0;
    *alg = *busbw = NAN;
    if (bus == MG_BUS_NONE || nranks < 1 || !(t_us > 0.0))
        return;
    if (bus == MG_BUS_ALLRED)
        f = 2.0 * (p - 1.0) / p;
    else if (bus == MG_BUS_BLOCKS) {
        s *= p;
        f = (p - 1.0) / p;
    }
    *alg = s / (t_us * 1e3); /* bytes per us / 1e3 = GB/s */
    *busbw = *alg * f;
}
