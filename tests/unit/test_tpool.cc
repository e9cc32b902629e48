// SPDX-License-Identifier: BSD-3-Clause
// The thread team: every member runs each function exactly once per run, on
// its own thread, and runs do not overlap.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <set>
#include <thread>

extern "C" {
#include "mg_tpool.h"
#include <pthread.h>
}

namespace
{

struct Tally {
    std::atomic<int> calls[8];
    std::atomic<int> inside{0}, most_inside{0};
    pthread_t who[8];
};

void count(void *arg, int m)
{
    auto *t = static_cast<Tally *>(arg);
    int now = ++t->inside;
    int seen = t->most_inside.load();
    while (now > seen && !t->most_inside.compare_exchange_weak(seen, now)) {
    }
    ++t->calls[m];
    t->who[m] = pthread_self();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --t->inside;
}

TEST(Tpool, EveryMemberOncePerRunOnItsOwnThread)
{
    Tally t;
    for (auto &c : t.calls)
        c = 0;
    mg_tpool *p = mg_tpool_create(4);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(mg_tpool_size(p), 4);
    for (int r = 0; r < 50; ++r)
        mg_tpool_run(p, count, &t);
    for (int m = 0; m < 4; ++m)
        EXPECT_EQ(t.calls[m].load(), 50) << "member " << m;
    for (int m = 4; m < 8; ++m)
        EXPECT_EQ(t.calls[m].load(), 0);
    EXPECT_EQ(t.inside.load(), 0);      // every run had ended when run returned
    EXPECT_EQ(t.most_inside.load(), 4); // the members of a run ran at once
    EXPECT_TRUE(pthread_equal(t.who[0], pthread_self()));
    std::set<unsigned long> ids;
    for (int m = 0; m < 4; ++m)
        ids.insert((unsigned long)t.who[m]);
    EXPECT_EQ(ids.size(), 4u);
    mg_tpool_destroy(p);
}

TEST(Tpool, OneMemberIsTheCaller)
{
    Tally t;
    for (auto &c : t.calls)
        c = 0;
    mg_tpool *p = mg_tpool_create(1);
    ASSERT_NE(p, nullptr);
    mg_tpool_run(p, count, &t);
    EXPECT_EQ(t.calls[0].load(), 1);
    EXPECT_TRUE(pthread_equal(t.who[0], pthread_self()));
    mg_tpool_destroy(p);
    mg_tpool_destroy(nullptr);
}

struct Steps {
    mg_tpool *p;
    std::atomic<int> step[3];
    std::atomic<int> out_of_step{0};
};

// Between two barriers every member sees the others at the same step.
void lockstep(void *arg, int m)
{
    auto *s = static_cast<Steps *>(arg);
    for (int k = 1; k <= 200; ++k) {
        s->step[m] = k;
        mg_tpool_barrier(s->p, m);
        for (int o = 0; o < 3; ++o)
            if (s->step[o].load() != k)
                ++s->out_of_step;
        mg_tpool_barrier(s->p, m);
    }
}

TEST(Tpool, BarrierKeepsMembersInStep)
{
    Steps s;
    s.p = mg_tpool_create(3);
    ASSERT_NE(s.p, nullptr);
    for (auto &x : s.step)
        x = 0;
    mg_tpool_run(s.p, lockstep, &s);
    mg_tpool_run(s.p, lockstep, &s); // the senses carry over between runs
    EXPECT_EQ(s.out_of_step.load(), 0);
    for (auto &x : s.step)
        EXPECT_EQ(x.load(), 200);
    mg_tpool_destroy(s.p);
}

TEST(Tpool, RefusesBadSizes)
{
    errno = 0;
    EXPECT_EQ(mg_tpool_create(0), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(mg_tpool_create(MG_TPOOL_MAX + 1), nullptr);
}

} // namespace
