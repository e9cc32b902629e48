// SPDX-License-Identifier: BSD-3-Clause
// The MPI_T helpers that need no MPI library: the cvar set's digest and the
// names --pvars queues selects (mpi/mg_mpit.h).
extern "C" {
#include "mg_mpit_names.h"
}

#include <gtest/gtest.h>

TEST(Cvars, DigestIsFnv1aOfNameEqualsValueLines)
{
    mg_cvar v[2] = {};
    v[0].name = const_cast<char *>("btl_sm_eager_limit");
    v[0].value = const_cast<char *>("4096");
    v[1].name = const_cast<char *>("mpi_yield_when_idle");
    v[1].value = const_cast<char *>("false");
    // FNV-1a 64 of "btl_sm_eager_limit=4096\nmpi_yield_when_idle=false\n"
    EXPECT_EQ(mg_cvars_digest(v, 2), 0x1fc89c310e96abddULL);
    EXPECT_EQ(mg_cvars_digest(v, 0), 14695981039346656037ULL);
    v[0].value = const_cast<char *>("8192");
    EXPECT_NE(mg_cvars_digest(v, 2), 0x1fc89c310e96abddULL);
}

TEST(Pvars, QueuesSelectsMessageQueuesAndRendezvousCounters)
{
    for (const char *yes : {"pml_ob1_unexpected_msgq_length", "pml_ob1_posted_recvq_length",
                            "mtl_psm2_tx_rndv_num", "ch4_rendezvous_count", "posted_recvq"})
        EXPECT_EQ(mg_pvars_queue_name(yes), 1) << yes;
    for (const char *no : {"idle", "mpool_hugepage_bytes_allocated", "osc_rdma_put_retry_count", "",
                           "mtl_psm2_tx_eager_num"})
        EXPECT_EQ(mg_pvars_queue_name(no), 0) << no;
}
