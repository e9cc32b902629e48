# SPDX-License-Identifier: BSD-3-Clause
"""The verdict: A/A gives "same", a shifted sample "slower" (or "faster"),
the direction follows the unit, few launches give "unclear"."""
import random
import unittest

from helpers import load_frontend

mg = load_frontend()


def noisy(center, n, rel, seed):
    rng = random.Random(seed)
    return [center * (1 + rng.uniform(-rel, rel)) for _ in range(n)]


class TestVerdict(unittest.TestCase):
    def test_a_a_is_same(self):
        for seed in range(20):
            a = noisy(1.5, 8, 0.02, seed)
            b = noisy(1.5, 8, 0.02, seed + 1000)
            for unit in ("us", "MB/s"):
                v = mg.verdict(a, b, unit)
                self.assertEqual(v.verdict, "same", (seed, unit, v))

    def test_identical_data_is_never_an_alarm(self):
        a = [2.0, 2.1, 1.9, 2.05, 1.95]
        v = mg.verdict(a, list(a), "us")
        # 5 launches spread over +-5% cannot show "within 5%": not enough evidence
        self.assertEqual(v.verdict, "unclear")
        self.assertAlmostEqual(v.ratio, 1.0)
        self.assertLessEqual(v.ci[0], 1.0)
        self.assertGreaterEqual(v.ci[1], 1.0)
        tight = [2.0, 2.01, 1.99, 2.005, 1.995]
        self.assertEqual(mg.verdict(tight, list(tight), "us").verdict, "same")

    def test_higher_latency_is_slower(self):
        base = noisy(1.0, 6, 0.02, 1)
        new = [x * 1.2 for x in noisy(1.0, 6, 0.02, 2)]
        v = mg.verdict(base, new, "us")
        self.assertEqual(v.verdict, "slower")
        self.assertLess(v.p, 0.05)
        self.assertGreater(v.ratio, 1.1)
        self.assertLess(v.ci[0], v.ratio)
        self.assertGreater(v.ci[1], v.ratio)

    def test_lower_latency_is_faster(self):
        base = noisy(1.0, 6, 0.02, 3)
        new = [x * 0.8 for x in noisy(1.0, 6, 0.02, 4)]
        self.assertEqual(mg.verdict(base, new, "us").verdict, "faster")

    def test_bandwidth_direction_is_reversed(self):
        base = noisy(5000, 6, 0.02, 5)
        lower = [x * 0.8 for x in noisy(5000, 6, 0.02, 6)]
        higher = [x * 1.25 for x in noisy(5000, 6, 0.02, 7)]
        self.assertEqual(mg.verdict(base, lower, "MB/s").verdict, "slower")
        self.assertEqual(mg.verdict(base, higher, "MB/s").verdict, "faster")

    def test_significant_but_small_is_same(self):
        base = [1.000, 1.001, 1.002, 1.003, 1.004, 1.005]
        new = [x * 1.02 for x in base]   # clearly different, but only 2%
        v = mg.verdict(base, new, "us", threshold=0.05)
        self.assertLess(v.p, 0.05)
        self.assertEqual(v.verdict, "same")
        self.assertEqual(mg.verdict(base, new, "us", threshold=0.01).verdict, "slower")

    def test_a_certain_change_about_the_threshold_is_slightly_slower(self):
        def row(ratio, ci, p, unit="us"):
            return mg.decide(mg.Row(unit=unit, ratio=ratio, ci=ci, p=p, p_adjusted=p),
                             0.05, 0.05).verdict
        # doc/releases.md's "edge" series: bw 1 KiB, 0.957 [0.946, 0.966]
        self.assertEqual(row(0.957, (0.946, 0.966), 0.0004, "MB/s"), "slightly slower")
        self.assertEqual(row(1.043, (1.030, 1.060), 0.001), "slightly slower")
        self.assertEqual(row(0.960, (0.940, 0.975), 0.001), "slightly faster")
        self.assertEqual(row(1.043, (1.030, 1.060), 0.001, "things"), "slightly higher")
        # beyond the band it stays slower; the CI within the band stays same
        self.assertEqual(row(1.08, (1.06, 1.10), 0.001), "slower")
        self.assertEqual(row(1.02, (1.01, 1.03), 0.001), "same")
        # not significant, or the CI holds 1: unclear, as before
        self.assertEqual(row(1.043, (1.030, 1.060), 0.06), "unclear")
        self.assertEqual(row(1.03, (0.99, 1.07), 0.01), "unclear")
        self.assertIn("slightly slower", mg.DECIDED)
        self.assertNotIn("same", mg.DIFFERENCES)
        self.assertEqual(mg.undecided([mg.Row(verdict="slightly faster"),
                                       mg.Row(verdict="unclear")]), [mg.Row(verdict="unclear")])

    def test_same_is_two_one_sided_tests(self):
        # "same": the (1 - 2 alpha) interval (eq_ci) inside the band
        # [1/1.05, 1.05], where the 95% one may reach out of it (Schuirmann)
        def row(ci, eq_ci, unit="us"):
            return mg.decide(mg.Row(unit=unit, ratio=1.0, ci=ci, eq_ci=eq_ci, p=0.5,
                                    p_adjusted=0.5), 0.05, 0.05).verdict
        self.assertEqual(row((0.94, 1.06), (0.96, 1.04)), "same")
        self.assertEqual(row((0.94, 1.06), (0.94, 1.04)), "unclear")   # speedup up to 1.064
        self.assertEqual(row((0.94, 1.06), (0.96, 1.06)), "unclear")   # speedup down to 0.943
        self.assertEqual(row((0.94, 1.06), (0.96, 1.04), "MB/s"), "same")
        self.assertEqual(row((0.94, 1.06), (0.95, 1.04), "MB/s"), "unclear")  # 0.95 < 1/1.05
        # a row without one (a single launch a side) decides on its CI
        self.assertEqual(row((0.96, 1.04), (float("nan"), float("nan"))), "same")
        self.assertEqual(row((0.94, 1.06), (float("nan"), float("nan"))), "unclear")

    def test_too_few_launches_is_unclear(self):
        base = [1.0, 1.01, 0.99]
        new = [2.0, 2.02, 1.98]
        v = mg.verdict(base, new, "us")
        self.assertEqual(v.verdict, "unclear")
        self.assertIn("at least 4 launches", v.note)

    def test_single_launch_uses_the_launch_cis(self):
        v = mg.verdict([1.0], [1.5], "us", base_ci=(0.98, 1.02), new_ci=(1.45, 1.55))
        self.assertEqual(v.verdict, "slower")
        self.assertAlmostEqual(v.ci[0], 1.45 / 1.02)
        overlap = mg.verdict([1.0], [1.5], "us", base_ci=(0.5, 1.6), new_ci=(1.0, 2.0))
        self.assertEqual(overlap.verdict, "unclear")

    def test_unknown_unit_reports_higher_or_lower(self):
        v = mg.verdict([1, 1.01, 0.99, 1.0, 1.02], [2, 2.01, 1.99, 2.0, 2.02], "widgets")
        self.assertEqual(v.verdict, "higher")

    def test_direction_table(self):
        self.assertFalse(mg.higher_is_better("us"))
        self.assertTrue(mg.higher_is_better("MB/s"))
        self.assertTrue(mg.higher_is_better("%"))
        self.assertIsNone(mg.higher_is_better("widgets"))

    def test_threshold_parsing(self):
        self.assertAlmostEqual(mg.parse_threshold("5%"), 0.05)
        self.assertAlmostEqual(mg.parse_threshold("0.1"), 0.1)
        self.assertAlmostEqual(mg.parse_threshold("10"), 0.10)
        with self.assertRaises(mg.UsageError):
            mg.parse_threshold("five")


if __name__ == "__main__":
    unittest.main()
