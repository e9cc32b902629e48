/* The one generic driver: every benchmark is a descriptor run by mg_main.
 *
 * A benchmark supplies what is particular to it (rank limits, metric, size
 * limits, its own options, and a kernel that runs N iterations of the
 * pattern); the driver owns everything else: option parsing on every rank,
 * the size sweep, buffers and the memory guard, warm-up, the timed samples
 * and the iteration policy, statistics, gathering to rank 0, validation,
 * provenance and output.
 */
#ifndef MG_DRIVER_H
#define MG_DRIVER_H

#include "mg_mpi.h"
#include "mg_opts.h"

#include <stddef.h>
#include <stdint.h>

typedef enum {
    MG_METRIC_LATENCY,  /* microseconds per iteration x time_scale */
    MG_METRIC_BANDWIDTH /* MB/s (10^6 bytes) of bytes_per_iter */
} mg_metric;

typedef enum {
    MG_TIME_ROOT, /* the sample is rank 0's time */
    MG_TIME_MAX   /* the sample is the maximum over ranks of their times */
} mg_time_mode;

/* Options common to every program (filled from the command line). */
typedef struct {
    const char *sizes_spec; /* -m; NULL: the benchmark's default range */
    long iterations;        /* -i; 0: adaptive */
    long warmup;            /* -x; -1: timed warm-up */
    double precision;       /* --precision (fraction) */
    double budget_s;        /* --time-budget */
    long min_samples, max_samples;
    int validate;           /* -c */
    uint64_t max_memory;    /* -M; 0: automatic */
    int format;             /* mg_format */
    const char *output;     /* -o */
    int help, version;
} mg_config;

typedef struct mg_ctx mg_ctx;

/* What a kernel sees. */
struct mg_ctx {
    MPI_Comm comm;
    int rank, nranks;
    int peer;          /* the partner rank for pairwise benchmarks, -1 otherwise */
    mg_xfer xfer;
    void *sbuf, *rbuf; /* page-aligned, max size each (times the bench's count) */
    size_t buf_bytes;  /* size of each of sbuf and rbuf */
    void *params;      /* the benchmark's own option struct */
    MPI_Request *reqs; /* bench->requests(ctx) requests for the kernel */
    const mg_config *cfg;
};

typedef struct {
    const char *name;        /* "latency": program mpigauge_latency */
    const char *description; /* one line: what is measured, in which unit */
    const char *headline;    /* table column title: "Latency (us)" */
    int min_ranks, max_ranks;
    mg_metric metric;
    mg_time_mode time_mode;
    double time_scale;       /* latency: seconds per iteration x this (0.5 = RTT/2) */
    uint64_t min_size, default_min_size, default_max_size;
    const mg_opt *opts;      /* the benchmark's options over params, or NULL */
    size_t params_size;
    const void *params_default;

    /* Check the benchmark's options; 0 or -EINVAL with a message. Pure: it
     * runs on every rank with the same inputs. */
    int (*check)(const mg_ctx *ctx, char *err, size_t errlen);
    /* Bytes per buffer the kernel needs for messages of max_size. */
    size_t (*buf_bytes)(const mg_ctx *ctx, uint64_t max_size);
    /* Number of MPI requests the kernel needs in ctx->reqs (NULL: none). */
    size_t (*requests)(const mg_ctx *ctx);
    /* Bytes moved per iteration (bandwidth metric). */
    double (*bytes_per_iter)(const mg_ctx *ctx, uint64_t size);
    /* Run `iters` iterations of the pattern with messages of `size` bytes. */
    void (*iterate)(mg_ctx *ctx, uint64_t size, long iters);
    /* The rank whose pattern this rank's rbuf holds after one iteration, or -1
     * when this rank receives no payload. */
    int (*received_from)(const mg_ctx *ctx);
} mg_bench;

/* Run a benchmark: the whole program. Returns the process exit code. */
int mg_main(const mg_bench *bench, int argc, char **argv);

#endif
