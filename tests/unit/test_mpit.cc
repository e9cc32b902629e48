// SPDX-License-Identifier: BSD-3-Clause
// The MPI_T helpers that need no MPI library: the cvar set's digest, the
// names --pvars queues selects (mpi/mpit/mg_mpit.h) and what the cvars say served
// a collective (mg_cvars_served_by); the run record's facts (mg_facts.h).
extern "C" {
#include "mg_facts.h"
#include "mg_json.h"
#include "mg_mpit_names.h"
}

#include <cstdio>
#include <cstdlib>
#include <cstring>

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

/* The run record's facts (mpi/record/mg_facts.h) written from made-up
 * states: each in its part, in the contributors' order; an unknown link as
 * null; a fact without state, or with nothing known, not written. */
static void fake_die(const char *msg)
{
    ADD_FAILURE() << msg;
    abort();
}

static std::string facts_json(const mg_facts *f)
{
    char *text = nullptr;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    mg_json j;
    mg_json_init(&j, m);
    mg_json_object_begin(&j, NULL);
    mg_facts_write(&j, f, MG_FACT_PLACEMENT);
    mg_json_string(&j, "between", "parts");
    mg_facts_write(&j, f, MG_FACT_NODE);
    mg_json_object_end(&j);
    fclose(m);
    std::string out(text, len);
    free(text);
    return out;
}

TEST(Facts, EachContributorWritesItsPartFromItsState)
{
    mg_facts f = {};
    f.nranks = 3;
    EXPECT_EQ(facts_json(&f), "{\"between\":\"parts\"}");
    auto *links = static_cast<mg_fact_links *>(mg_facts_state(&f, "links"));
    ASSERT_NE(links, nullptr);
    links->link = static_cast<mg_link *>(calloc(3, sizeof(mg_link)));
    ASSERT_NE(links->link, nullptr);
    snprintf(links->link[0].device, sizeof links->link[0].device, "mlx5_0:1");
    links->link[0].gbps = 100;
    links->link[2].gbps = 25; /* a rate without a device is not a link */
    auto *kernel = static_cast<mg_fact_kernel *>(mg_facts_state(&f, "kernel"));
    snprintf(kernel->text, sizeof kernel->text, "Linux 6.1.0");
    ASSERT_NE(mg_facts_state(&f, "cpu_model"), nullptr); /* known: nothing, so not written */
    EXPECT_EQ(mg_facts_state(&f, "no_such_fact"), nullptr);
    EXPECT_EQ(facts_json(&f), "{\"links\":[{\"device\":\"mlx5_0:1\",\"gbps\":100},null,null],"
                              "\"between\":\"parts\",\"kernel\":\"Linux 6.1.0\"}");
    mg_facts_free(&f);
    for (void *s : f.state)
        EXPECT_EQ(s, nullptr);
}

/* The allocation: rank 0's Slurm job variables, each under its member, the
 * unset ones left out; outside a job (no SLURM_JOB_ID) nothing; another
 * rank reads nothing. */
static const mg_fact_contributor *contributor(const char *name)
{
    for (int i = 0; mg_fact_contributors[i]; ++i)
        if (strcmp(mg_fact_contributors[i]->name, name) == 0)
            return mg_fact_contributors[i];
    return nullptr;
}

TEST(Facts, AllocationIsRankZerosSlurmJob)
{
    const mg_fact_contributor *c = contributor("allocation");
    ASSERT_NE(c, nullptr);
    for (const auto &v : mg_fact_allocation_vars)
        unsetenv(v[1]);
    setenv("SLURM_JOB_ID", "4711", 1);
    setenv("SLURM_JOB_NODELIST", "node[01-02]", 1);
    setenv("SLURM_JOB_PARTITION", "debug", 1);
    setenv("SLURM_ARRAY_TASK_ID", "", 1); /* empty: not set */
    mg_fact_world w0 = {0, 2, nullptr, fake_die, nullptr};
    mg_fact_world w1 = {1, 2, nullptr, fake_die, nullptr};
    mg_facts f = {};
    f.nranks = 2;
    auto *mine = static_cast<mg_fact_allocation *>(mg_facts_state(&f, "allocation"));
    c->collect(mine, &w0);
    EXPECT_EQ(facts_json(&f), "{\"allocation\":{\"scheduler\":\"slurm\",\"job_id\":\"4711\","
                              "\"nodelist\":\"node[01-02]\",\"partition\":\"debug\"},"
                              "\"between\":\"parts\"}");
    mg_fact_allocation other = {};
    c->collect(&other, &w1);
    for (char *v : other.value)
        EXPECT_EQ(v, nullptr);
    mg_facts_free(&f);
    unsetenv("SLURM_JOB_ID");
    mine = static_cast<mg_fact_allocation *>(mg_facts_state(&f, "allocation"));
    c->collect(mine, &w0); /* a node list but no job: not an allocation */
    EXPECT_EQ(facts_json(&f), "{\"between\":\"parts\"}");
    mg_facts_free(&f);
    for (const auto &v : mg_fact_allocation_vars)
        unsetenv(v[1]);
}

/* A world of 2 ranks seen from rank 1: the collect step makes the links'
 * one collective call (each rank's mg_link), and keeps nothing to write. */
static int fake_allgathers;
static void fake_allgather(const mg_fact_world *w, const void *mine, size_t bytes, void *all)
{
    ++fake_allgathers;
    EXPECT_EQ(bytes, sizeof(mg_link));
    for (int r = 0; r < w->nranks; ++r)
        memcpy(static_cast<char *>(all) + r * bytes, mine, bytes);
}

TEST(Facts, CollectIsOneCollectiveCallAndRankZeroKeepsTheFacts)
{
    mg_fact_world w = {1, 2, fake_allgather, fake_die, nullptr};
    mg_facts f = {};
    fake_allgathers = 0;
    mg_facts_collect(&f, &w);
    EXPECT_EQ(fake_allgathers, 1);
    EXPECT_EQ(f.nranks, 2);
    EXPECT_EQ(facts_json(&f), "{\"between\":\"parts\"}");
    mg_facts_free(&f);
}
