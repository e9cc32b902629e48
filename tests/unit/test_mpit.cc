// SPDX-License-Identifier: BSD-3-Clause
// The MPI_T helpers that need no MPI library: the cvar set's digest, the
// names --pvars queues selects (mpi/mpit/mg_mpit.h) and what the cvars say served
// a collective (mg_cvars_served_by).
extern "C" {
#include "mg_mpit_names.h"
}

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

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

// served_by: the algorithm only when a cvar forces it and nothing serves the
// collective first (mpi/mpit/mg_mpit.c).
namespace
{
std::string served(std::vector<std::pair<const char *, const char *>> kv, const char *bench)
{
    std::vector<mg_cvar> v(kv.size());
    for (size_t i = 0; i < kv.size(); ++i) {
        v[i].name = const_cast<char *>(kv[i].first);
        v[i].value = const_cast<char *>(kv[i].second);
    }
    char out[160];
    mg_cvars_served_by(v.data(), v.size(), bench, out, sizeof out);
    return out;
}
} // namespace

TEST(ServedBy, OpenMpiTunedNeedsDynamicRules)
{
    EXPECT_EQ(served({{"coll_tuned_allreduce_algorithm", "recursive_doubling"}}, "allreduce"),
              "unknown");
    EXPECT_EQ(served({{"coll_tuned_allreduce_algorithm", "recursive_doubling"},
                      {"coll_tuned_use_dynamic_rules", "true"}},
                     "allreduce"),
              "coll_tuned_allreduce_algorithm=recursive_doubling");
    EXPECT_EQ(served({{"coll_tuned_allreduce_algorithm", "ignore"},
                      {"coll_tuned_use_dynamic_rules", "true"}},
                     "allreduce"),
              "unknown");
}

TEST(ServedBy, MpichMpirCvarOnlyWhereThePosixModuleCannotServeFirst)
{
    const char *mpir = "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM";
    // no POSIX algorithm cvar for the operation: the MPIR level decides
    EXPECT_EQ(served({{mpir, "3"}}, "allreduce"), "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=3");
    EXPECT_EQ(served({{mpir, "0"}}, "allreduce"), "unknown"); // auto
    // POSIX auto (2), device collectives percoll (2) and allowed: unknown
    EXPECT_EQ(served({{mpir, "3"},
                      {"MPIR_CVAR_ALLREDUCE_POSIX_INTRA_ALGORITHM", "2"},
                      {"MPIR_CVAR_DEVICE_COLLECTIVES", "2"},
                      {"MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE", "1"}},
                     "allreduce"),
              "unknown");
    // device collectives none (1), POSIX mpir (0), or this collective's off
    EXPECT_EQ(served({{mpir, "3"},
                      {"MPIR_CVAR_ALLREDUCE_POSIX_INTRA_ALGORITHM", "2"},
                      {"MPIR_CVAR_DEVICE_COLLECTIVES", "1"}},
                     "allreduce"),
              "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=3");
    EXPECT_EQ(
        served({{mpir, "3"}, {"MPIR_CVAR_ALLREDUCE_POSIX_INTRA_ALGORITHM", "0"}}, "allreduce_init"),
        "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=3");
    EXPECT_EQ(served({{mpir, "3"},
                      {"MPIR_CVAR_ALLREDUCE_POSIX_INTRA_ALGORITHM", "2"},
                      {"MPIR_CVAR_DEVICE_COLLECTIVES", "2"},
                      {"MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE", "0"}},
                     "allreduce"),
              "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=3");
    // alltoall has no POSIX algorithm in MPICH: its MPIR cvar decides
    EXPECT_EQ(served({{"MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM", "2"},
                      {"MPIR_CVAR_ALLREDUCE_POSIX_INTRA_ALGORITHM", "2"},
                      {"MPIR_CVAR_DEVICE_COLLECTIVES", "2"}},
                     "alltoall"),
              "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=2");
}
