/* SPDX-License-Identifier: BSD-3-Clause */
/* --persistent for latency, bw and bibw (pt2pt/persistent.c): the form
 * their choose returns, with a second sweep dimension calls=plain|persistent
 * (plain first, the reference). For the persistent variant every request of
 * an iteration is made once per (size, variant) with MPI_Send_init and
 * MPI_Recv_init (begin_size: not timed) and started with MPI_Start or
 * MPI_Startall in the timed loop, then freed (end_size). Messages above
 * INT_MAX bytes use one derived datatype of exactly that size, freed with
 * the requests. The extra ratio_to_plain is the variant's median over the
 * plain calls' at that size. */
#ifndef MG_PT2PT_PERSISTENT_H
#define MG_PT2PT_PERSISTENT_H

#include "pt2pt.h"

enum { MG_CALLS_PLAIN = 0, MG_CALLS_PERSISTENT = 1 };

/* Request k: a send (send = 1) or receive of `size` bytes at buf with the
 * peer, into c->reqs[k]. */
void mg_persist_init(mg_ctx *c, int k, int send, void *buf, uint64_t size, int tag);
/* Free every request made for this (size, variant) and the datatype. */
void mg_persist_free(mg_ctx *c, uint64_t size);

int mg_persist_variants(const mg_ctx *c, long *values, int max);
void mg_persist_extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                       double *out);
extern const char *const mg_persist_labels[];
extern const char *const mg_persist_extra_names[];

/* Free the persistent variant's requests after a size (the end_size of
 * every persistent form). */
void mg_persist_end_size(mg_ctx *c, uint64_t size);

/* The persistent form of b, a pure function from form to form: the calls
 * variant (plain, the reference, and persistent), begin_size making the
 * requests, mg_persist_end_size, iterate, the ratio extra. */
mg_bench mg_persist_form(mg_bench b, void (*iterate)(mg_ctx *, uint64_t, long),
                         void (*begin_size)(mg_ctx *, uint64_t));
/* A program's choose: 0 (b itself), or with --persistent 1 and
 * mg_persist_form(b) in *form. */
int mg_persist_choose(const mg_ctx *c, const mg_bench *b, mg_form *out,
                      void (*iterate)(mg_ctx *, uint64_t, long),
                      void (*begin_size)(mg_ctx *, uint64_t));

#endif
