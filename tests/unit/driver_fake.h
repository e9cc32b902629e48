/* SPDX-License-Identifier: BSD-3-Clause */
/* The driver in one process (tests/unit/test_driver.cc): the real plan,
 * layout and sweep stages (mpi/driver/mg_run.h) run a fake benchmark with a
 * one-rank group (util/mg_group.h) and a fake clock, under a made-up run
 * record, without MPI_Init. No MPI type appears here: the C++ tests include
 * this header only.
 *
 * The fake benchmark, "fake" (block samples; "fake_call": per-call samples
 * with --sync), costs per iteration
 *   (cost_us + per_byte_ns x size / 1000) x ways x (1 + jitter x u)
 * microseconds of fake time, u a deterministic sequence in [-1, 1] (one
 * value per kernel call), and the fake clock advances 1 ns at every reading.
 * Its options: --cost-us, --per-byte-ns, --jitter (fraction), --ways LIST
 * (the variants, default 1,2), --corrupt (validation sees a wrong byte),
 * --fail-at SIZE (the kernel reports a condition the user's settings cause
 * at that size: mg_ctx_fail), --probe (the observer "probe" joins: each
 * row's timed iterations and phase counts as "probe":{...} and a table
 * column probe_iters). Its extra column ratio_to_ref is the median
 * over the reference variant's; its summary names the slowest row.
 */
#ifndef MG_TEST_DRIVER_FAKE_H
#define MG_TEST_DRIVER_FAKE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int exit_code;
    char *out;              /* everything written to standard output */
    char *err;              /* ... and to standard error */
    double clock_s;         /* the fake clock at the end */
    long kernel_calls;      /* calls of the kernel's iterate */
    long kernel_iters;      /* iterations over all calls */
    long setups, teardowns; /* calls of the kernel's setup and teardown */
    long probe_closes;      /* --probe: calls of the observer probe's close */
    /* What the sink the test injects (mg_run.inject) was given, as data. */
    int begins, summaries, errors;
    int nrows;
    unsigned long long row_size[64];
    char row_variant[64][32], row_stop[64][16];
    double row_median[64];
    char error_code[32];
    int plan_unchanged; /* the plan (and its options) the same bytes after the run */
} mgt_result;

/* Run "mpigauge_fake ARGS..." or "mpigauge_fake_call ARGS..." (argv[0]
 * included) in this process. What the run writes goes to two temporary
 * files given to it as its streams, read back into out and err. Returns 0,
 * or -1 when they could not be set up. */
int mgt_run(int argc, const char *const *argv, mgt_result *r);
/* Only the plan (mg_plan_make) of ARGS: its failed (0, 1 usage, 2
 * internal) and its message in err. "mpigauge_fake_rogue" is a program
 * whose choose returns a form that takes rails. */
int mgt_plan(int argc, const char *const *argv, char *err, size_t errlen);
void mgt_result_free(mgt_result *r);

#ifdef __cplusplus
}
#endif

#endif
