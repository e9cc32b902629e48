/* SPDX-License-Identifier: BSD-3-Clause */
// A fake clock for the policy tests (util/mg_policy takes its clock injected).
#ifndef MG_TEST_POLICY_FAKE_H
#define MG_TEST_POLICY_FAKE_H

#include "mg_policy.h"

namespace
{

struct FakeClock {
    double t;
};

inline double fake_now(void *ctx) { return static_cast<FakeClock *>(ctx)->t; }

inline mg_clock clock_of(FakeClock *c) { return mg_clock{fake_now, c}; }

inline mg_policy_cfg defaults()
{
    mg_policy_cfg cfg;
    mg_policy_cfg_default(&cfg);
    return cfg;
}

} // namespace

#endif
