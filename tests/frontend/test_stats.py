# SPDX-License-Identifier: BSD-3-Clause
"""Statistics of the front-end: median, quantiles, CIs, Mann-Whitney U."""
import itertools
import math
import unittest

from helpers import load_frontend

mg = load_frontend()


class TestBasics(unittest.TestCase):
    def test_median(self):
        self.assertEqual(mg.median([3, 1, 2]), 2)
        self.assertEqual(mg.median([4, 1, 3, 2]), 2.5)
        self.assertEqual(mg.median([7.5]), 7.5)
        with self.assertRaises(ValueError):
            mg.median([])

    def test_quantile_type7(self):
        xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        self.assertAlmostEqual(mg.quantile(xs, 0.9), 9.1)   # numpy.percentile(xs, 90)
        self.assertAlmostEqual(mg.quantile(xs, 0.5), 5.5)
        self.assertEqual(mg.quantile([3], 0.99), 3)

    def test_median_ci_matches_the_c_side(self):
        # doc/measurement.md: n=10 -> [x(2), x(9)] 97.9%; n=20 -> [x(6), x(15)] 95.9%;
        # n=100 -> [x(40), x(61)] 96.5%; below 6 -> [min, max]
        for n, lo, hi, cov in ((10, 2, 9, 0.979), (20, 6, 15, 0.959), (100, 40, 61, 0.965)):
            xs = list(range(1, n + 1))
            l, h, c = mg.median_ci(xs)
            self.assertEqual((l, h), (lo, hi), n)
            self.assertAlmostEqual(c, cov, places=3)
        self.assertEqual(mg.median_ci([5, 1, 3, 2, 4])[:2], (1, 5))

    def test_binomial(self):
        self.assertAlmostEqual(mg._binom_cdf_half(2, 4), 11 / 16)
        self.assertEqual(mg._binom_cdf_half(-1, 4), 0.0)


class TestMannWhitney(unittest.TestCase):
    def test_u_distribution_sums_to_all_orderings(self):
        for m, n in ((1, 1), (3, 3), (4, 6), (5, 5)):
            c = mg._u_counts(m, n)
            self.assertEqual(len(c), m * n + 1)
            self.assertEqual(sum(c), math.comb(m + n, m))
            self.assertEqual(c, c[::-1])  # symmetric

    def test_exact_p_values(self):
        # complete separation: p = 2 / C(m+n, m)
        self.assertAlmostEqual(mg.mann_whitney([1, 2, 3], [4, 5, 6])[1], 0.1)
        self.assertAlmostEqual(mg.mann_whitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])[1], 2 / 252)
        # against brute force over all C(10, 4) assignments of the ranks
        x, y = [1, 4, 6, 8], [2, 3, 5, 7, 9, 10]
        u, p, method = mg.mann_whitney(x, y)
        self.assertEqual((u, method), (9.0, "exact"))
        us = [sum(r) - 10 for r in itertools.combinations(range(1, 11), 4)]
        lower = sum(1 for v in us if v <= 9) / len(us)
        self.assertAlmostEqual(p, 2 * lower)

    def test_identical_samples(self):
        u, p, method = mg.mann_whitney([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])
        self.assertEqual(p, 1.0)
        self.assertEqual(method, "normal")

    def test_normal_approximation_with_ties(self):
        x = [1, 2, 2, 3, 4, 5, 6, 7]
        y = [2, 5, 8, 9, 9, 10, 11, 12]
        u, p, method = mg.mann_whitney(x, y)
        self.assertEqual(method, "normal")
        self.assertEqual(u, 8.5)  # pairs x > y, ties count 1/2
        # tie groups: 2 (x3), 5 (x2), 9 (x2)
        var = 8 * 8 / 12 * (17 - ((27 - 3) + (8 - 2) + (8 - 2)) / (16 * 15))
        z = (abs(8.5 - 32) - 0.5) / math.sqrt(var)
        self.assertAlmostEqual(p, math.erfc(z / math.sqrt(2)))
        self.assertLess(p, 0.05)

    def test_min_p(self):
        self.assertAlmostEqual(mg.min_p_value(3, 3), 0.1)
        self.assertLess(mg.min_p_value(4, 4), 0.05)
        # C(2000, 1000) is beyond a float: 0, not an OverflowError (compare of
        # 1,000 launches a side ended in a traceback)
        self.assertEqual(mg.min_p_value(1000, 1000), 0.0)


class TestRatioCI(unittest.TestCase):
    def test_contains_true_ratio_and_reports_coverage(self):
        base = [1.0, 1.1, 0.9, 1.05, 0.95]
        new = [2 * v for v in base]
        lo, hi, cov = mg.ratio_ci(base, new)
        self.assertLess(lo, 2.0)
        self.assertGreater(hi, 2.0)
        self.assertAlmostEqual(cov, 1 - 8 / 252)  # k = 3 for 5 vs 5

    def test_few_launches_use_the_widest_interval(self):
        lo, hi, cov = mg.ratio_ci([1.0, 1.1, 0.9], [2.0, 2.1, 1.9])
        self.assertAlmostEqual(lo, 1.9 / 1.1)
        self.assertAlmostEqual(hi, 2.1 / 0.9)
        self.assertAlmostEqual(cov, 0.9)


class TestKthDifference(unittest.TestCase):
    def test_every_order_statistic_of_the_pairwise_differences(self):
        a = sorted([0.3, -1.2, 0.3, 2.5, 0.1, 0.7])
        b = sorted([1.0, 0.3, -0.4, 0.3, 2.2])
        diffs = sorted(y - x for y in b for x in a)
        for k in range(1, len(diffs) + 1):
            self.assertEqual(mg.kth_difference(a, b, k), diffs[k - 1], k)

    def test_selection_gives_the_same_interval_as_the_listing(self):
        base = [1.0 + 0.001 * ((i * 37) % 101) for i in range(2100)]
        new = [1.05 + 0.001 * ((i * 53) % 97) for i in range(2000)]
        self.assertGreater(len(base) * len(new), mg.stats.PAIRWISE_MAX)
        by_selection = mg.ratio_ci(base, new)
        saved = mg.stats.PAIRWISE_MAX
        mg.stats.PAIRWISE_MAX = 10 ** 12
        try:
            by_listing = mg.ratio_ci(base, new)
        finally:
            mg.stats.PAIRWISE_MAX = saved
        self.assertEqual(by_selection, by_listing)


if __name__ == "__main__":
    unittest.main()
