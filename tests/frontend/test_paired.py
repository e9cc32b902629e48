# SPDX-License-Identifier: BSD-3-Clause
"""Statistics of the paired comparison, exact values: the signed-rank test,
the Hodges-Lehmann estimate and CI, p-value adjustment, rounds needed,
launch regimes."""
import unittest

from helpers import load_frontend

mg = load_frontend()


class TestSignedRank(unittest.TestCase):
    def test_null_distribution_counts(self):
        # subsets of {1,2,3}: sums 0,1,2,3,3,4,5,6
        self.assertEqual(mg.stats._signed_rank_counts(3), [1, 1, 1, 2, 1, 1, 1])
        self.assertEqual(sum(mg.stats._signed_rank_counts(10)), 1024)

    def test_all_positive_gives_the_smallest_p(self):
        w, p, n, method = mg.signed_rank([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        self.assertEqual((w, n, method), (21.0, 6, "exact"))
        self.assertAlmostEqual(p, 2 / 64)
        self.assertAlmostEqual(mg.min_signed_rank_p(6), 2 / 64)

    def test_one_small_negative(self):
        # ranks 1..6, the smallest negative: W+ = 20, P(W >= 20) = 2/64
        _, p, _, _ = mg.signed_rank([-0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        self.assertAlmostEqual(p, 4 / 64)

    def test_fewest_pairs_that_can_reach_alpha(self):
        self.assertEqual(mg.min_pairs(0.05), 6)       # 2/64 = 0.031; 5 pairs: 2/32 = 0.0625
        self.assertEqual(mg.min_pairs(0.0125), 8)     # 2/256 = 0.0078; 7 pairs: 0.0156

    def test_zeros_are_dropped(self):
        _, p, n, _ = mg.signed_rank([0.0, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        self.assertEqual(n, 6)
        self.assertAlmostEqual(p, 2 / 64)
        self.assertEqual(mg.signed_rank([0.0, 0.0])[1], 1.0)

    def test_symmetric_differences_give_p_one(self):
        self.assertAlmostEqual(mg.signed_rank([1.0, -2.0, -3.0, 4.0])[1], 1.0)


class TestHodgesLehmann(unittest.TestCase):
    def test_estimate_is_median_of_walsh_averages(self):
        est, lo, hi, cov = mg.hodges_lehmann([1.0, 2.0, 4.0])
        # Walsh averages 1, 1.5, 2.5, 2, 3, 4 -> median 2.25
        self.assertAlmostEqual(est, 2.25)
        self.assertEqual((lo, hi), (1.0, 4.0))     # too few pairs for 95%: min..max
        self.assertAlmostEqual(cov, 1 - 2 / 8)

    def test_ci_of_ten_pairs_has_at_least_95_percent(self):
        d = [0.05, 0.07, 0.09, 0.1, 0.11, 0.12, 0.13, 0.15, 0.2, -0.02]
        est, lo, hi, cov = mg.hodges_lehmann(d)
        self.assertGreaterEqual(cov, 0.95)
        self.assertLess(lo, est)
        self.assertLess(est, hi)
        self.assertGreater(lo, 0)   # excludes 0, as the test (p < 0.05)
        self.assertLess(mg.signed_rank(d)[1], 0.05)


class TestAdjust(unittest.TestCase):
    P = [0.01, 0.04, 0.03, 0.2, None]

    def test_holm(self):
        out = mg.adjust_pvalues(self.P, "holm")
        self.assertEqual([round(x, 6) for x in out[:4]], [0.04, 0.09, 0.09, 0.2])
        self.assertIsNone(out[4])

    def test_benjamini_hochberg(self):
        out = mg.adjust_pvalues(self.P, "bh")
        self.assertEqual([round(x, 6) for x in out[:4]], [0.04, 0.053333, 0.053333, 0.2])

    def test_none_and_unknown(self):
        self.assertEqual(mg.adjust_pvalues(self.P, "none"), self.P)
        with self.assertRaises(ValueError):
            mg.adjust_pvalues(self.P, "bonferroni-ish")

    def test_all_small_survive_bh_but_not_holm(self):
        ps = [0.02] * 10
        self.assertTrue(all(p < 0.05 for p in mg.adjust_pvalues(ps, "bh")))
        self.assertFalse(any(p < 0.05 for p in mg.adjust_pvalues(ps, "holm")))


class TestRoundsNeeded(unittest.TestCase):
    def test_pairs_needed(self):
        # z(0.975) + z(0.8) = 2.8016; (2.8016 * 0.1 / 0.05)^2 * 1.05 = 32.97 -> 33
        self.assertEqual(mg.pairs_needed(0.1, 0.05, 0.05), 33)
        self.assertEqual(mg.pairs_needed(0.001, 0.1, 0.05), 6)   # floor: exact test reaches 0.05
        self.assertIsNone(mg.pairs_needed(0.1, 0.0, 0.05))


class TestCovariate(unittest.TestCase):
    def test_theil_sen_is_the_median_pairwise_slope(self):
        self.assertAlmostEqual(mg.theil_sen([0, 1, 2, 3, 4], [0, 2, 4, 6, 100]), 2.0)
        self.assertEqual(mg.theil_sen([1, 1, 1], [1, 2, 3]), 0.0)

    def test_adjustment_keeps_the_mean_and_removes_the_covariate(self):
        c = [0.1, -0.2, 0.0, 0.3, -0.1, -0.1]
        d = [0.1 + 0.5 * x for x in c]             # effect 0.1, all scatter from c
        adj, b = mg.adjust_for_covariate(d, c)
        self.assertAlmostEqual(b, 0.5)
        for x in adj:
            self.assertAlmostEqual(x, 0.1)
        self.assertAlmostEqual(sum(adj) / 6, sum(d) / 6)

    def test_a_shift_of_the_covariate_itself_is_not_removed(self):
        # the probe is slowed as much as the figure: centring keeps the effect
        c = [0.1 + x for x in (0.02, -0.03, 0.0, 0.04, -0.01, -0.02)]
        d = [0.1 + (x - 0.1) for x in c]
        adj, _ = mg.adjust_for_covariate(d, c)
        self.assertAlmostEqual(sum(adj) / 6, 0.1)

    def test_too_few_pairs_are_left_alone(self):
        self.assertEqual(mg.adjust_for_covariate([1.0, 2.0], [3.0, 4.0]), ([1.0, 2.0], 0.0))


class TestRegimes(unittest.TestCase):
    def test_one_group_for_ordinary_noise(self):
        self.assertEqual(len(mg.clusters([1.0, 1.02, 0.98, 1.05, 0.97])), 1)

    def test_two_separated_groups(self):
        g = mg.clusters([56, 57, 55, 95, 98, 58, 56, 92])
        self.assertEqual([sorted(x) for x in g], [[0, 1, 2, 5, 6], [3, 4, 7]])
        self.assertEqual(mg.describe([56, 57, 55, 95, 98, 58, 56, 92], g), [(56, 5), (95, 3)])

    def test_wide_noise_is_not_cut(self):
        # a 46% step inside values spread by 44% is not a regime
        vals = [0.18, 0.19, 0.2, 0.2, 0.21, 0.22, 0.25, 0.28, 0.41, 0.48]
        self.assertEqual(len(mg.clusters(vals)), 1)

    def test_pairs_that_straddle_a_change_are_dropped(self):
        base = [1.0, 1.01, 0.99, 2.0, 2.02, 1.0]
        new = [1.1, 1.11, 2.2, 2.21, 2.2, 1.1]
        kept, gb, gn = mg.match_pairs(base, new)
        self.assertEqual(kept, [0, 1, 3, 4, 5])     # round 3: base fast, new slow
        self.assertEqual((len(gb), len(gn)), (2, 2))

    def test_an_effect_alone_is_not_a_regime(self):
        kept, gb, gn = mg.match_pairs([1.0, 1.01, 0.99, 1.0], [2.0, 2.02, 1.98, 2.0])
        self.assertEqual(kept, [0, 1, 2, 3])

    def test_regime_on_one_side_only(self):
        # base hit the slow state twice, new never: those two pairs say nothing
        kept, gb, gn = mg.match_pairs([1.0, 1.6, 1.0, 1.6, 1.0, 1.0], [1.1] * 6)
        self.assertEqual(kept, [0, 2, 4, 5])
        self.assertFalse(mg.same_mixture(gb, gn))

    def test_explain_names_the_slow_probe(self):
        s = mg.sentinel_summary({"probe_latency_us": 0.35, "nodes": [{"host": "a", "ctxt": 10,
                                                                      "steal_jiffies": 5}]},
                                {"probe_latency_us": 0.30, "nodes": [{"host": "a", "ctxt": 50,
                                                                      "steal_jiffies": 9}]})
        self.assertEqual((s["probe_us"], s["ctxt_delta"], s["steal_delta"]), (0.35, 40, 4))
        why = mg.explain(s, {"probe_us": 0.10})
        self.assertIn("slow regime: probe 0.35 us against 0.1 us", why)
        self.assertIn("stole 4 jiffies", why)
        self.assertEqual(mg.explain({"probe_us": 0.11}, {"probe_us": 0.10}), "")


if __name__ == "__main__":
    unittest.main()


class TestLevels(unittest.TestCase):
    """hodges_lehmann_levels: each level's interval exactly as a call of its own."""

    def test_levels_as_separate_calls(self):
        d = [0.03, -0.01, 0.02, 0.05, 0.00, 0.04, 0.01, 0.02, 0.06, -0.02, 0.03]
        est, got = mg.stats.hodges_lehmann_levels(d, (0.95, 0.90))
        for level, (lo, hi, cov) in zip((0.95, 0.90), got):
            self.assertEqual((est, lo, hi, cov), mg.hodges_lehmann(d, level))
        # the equivalence interval (90%) lies inside the 95% one
        self.assertLessEqual(got[0][0], got[1][0])
        self.assertLessEqual(got[1][1], got[0][1])
        self.assertGreaterEqual(got[1][2], 0.90)
        big = [0.01 * ((7 * i) % 13 - 6) for i in range(60)]  # the normal approximation
        est, got = mg.stats.hodges_lehmann_levels(big, (0.95, 0.90))
        self.assertEqual((est,) + got[1], mg.hodges_lehmann(big, 0.90))


class TestPairsWithinASession(unittest.TestCase):
    """A file of several sessions (--append, or the K allocations that
    `run --allocations` joins) numbers its rounds from 1 in each: a launch
    is paired with the other configuration's launch of its own session and
    round, never with another session's."""

    def test_rounds_of_two_sessions_are_not_mixed(self):
        from mpigauge.data.results import Launch
        from mpigauge.verdict.verdicts import paired_items

        def items(config, value):
            out = []
            for sid in ("s1", "s2"):
                for rnd in (1, 2):
                    la = Launch({"type": "run"}, f"{sid}-{config}-{rnd}")
                    la.meta = {"session_id": sid, "round": rnd, "config": config}
                    out.append((la, {"median": value(sid, rnd)}))
            return out
        base = items("a", lambda sid, rnd: 1.0)
        new = items("b", lambda sid, rnd: 2.0 if sid == "s2" else 1.0)
        pairs = paired_items(base, new)
        self.assertEqual([(b[0].launch_id, n[0].launch_id) for b, n in pairs],
                         [("s1-a-1", "s1-b-1"), ("s1-a-2", "s1-b-2"),
                          ("s2-a-1", "s2-b-1"), ("s2-a-2", "s2-b-2")])
        self.assertEqual([n[1]["median"] / b[1]["median"] for b, n in pairs], [1, 1, 2, 2])


class TestManyLaunches(unittest.TestCase):
    """1,000 launches a side: normal approximations, no overflow (how long
    it takes is bench/frontend_scale.py's, not a unit test's)."""

    def test_thousand_pairs(self):
        import random
        rng = random.Random(1)
        d = [0.1 + rng.gauss(0, 0.05) for _ in range(1000)]
        est, lo, hi, cov = mg.hodges_lehmann(d)
        _, p, n, method = mg.signed_rank(d)
        self.assertAlmostEqual(est, 0.1, delta=0.01)
        self.assertLess(lo, est)
        self.assertLess(est, hi)
        self.assertAlmostEqual(cov, 0.95, delta=0.002)
        self.assertEqual((n, method), (1000, "normal"))
        self.assertLess(p, 1e-10)
        self.assertEqual(mg.min_signed_rank_p(1100), 0.0)

    def test_thousand_launches_unpaired_and_median(self):
        import random
        rng = random.Random(2)
        a = [1.0 + rng.random() * 0.1 for _ in range(1000)]
        b = [1.1 + rng.random() * 0.1 for _ in range(1000)]
        lo, hi, cov = mg.ratio_ci(a, b)
        self.assertTrue(1.08 < lo < 1.095 < hi < 1.11, (lo, hi))   # medians 1.05 and 1.15
        self.assertAlmostEqual(cov, 0.95, delta=0.002)
        mlo, mhi, mcov = mg.median_ci(a)
        self.assertLess(mlo, mhi)
        self.assertTrue(0.95 <= mcov < 0.96, mcov)
        # the approximation takes over (161 values) with the rank the exact rule gave (160)
        self.assertEqual(mg.median_ci(list(range(1, 161)))[0], 68)
        self.assertEqual(mg.median_ci(list(range(1, 162)))[0], 68)
