# SPDX-License-Identifier: BSD-3-Clause
"""What the host paid per iteration (the result records' "host" object,
mpi/observe/obs_hostcost.c): the sides' medians, the differences worth naming and
their place beside a verdict in compare (frontend/mpigauge/hostcost.py)."""
import os
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
import mpigauge.data.hostcost as hc  # noqa: E402 (load_frontend put the package on the path)


def host(sys_us, user_us=1.0, vol=0.0):
    return {"user_us_per_iter": user_us, "sys_us_per_iter": sys_us, "vol_cs_per_iter": vol,
            "invol_cs_per_iter": 0.0, "minor_faults_per_iter": 0.0,
            "major_faults_per_iter": 0.0, "cpu_util": 1.0, "busiest_rank": 0}


def items(*hosts):
    return [(None, {"host": x}) for x in hosts]


class Differences(unittest.TestCase):
    def test_medians_over_launches_and_what_is_named(self):
        base = items(host(0.01), host(0.02), host(0.03))
        new = items(host(1.9, vol=0.9), host(2.0, vol=1.0), host(2.1, vol=1.1))
        self.assertEqual(hc.side_medians(base)["sys_us_per_iter"], 0.02)
        d = hc.differences(base, new)
        self.assertEqual([x[0] for x in d], ["vol_cs_per_iter", "sys_us_per_iter"])
        self.assertEqual(d[1][3:], (0.02, 2.0))
        self.assertEqual(hc.describe(d[1:]),
                         "system CPU 0.020 -> 2.00 us per iteration (x100)")
        self.assertEqual(hc.describe(d[:1]),
                         "voluntary context switches 0 -> 1.00 per iteration")

    def test_small_or_alike_values_are_not_named(self):
        # below the floor (0.05 us), and within the factor (1.5)
        self.assertEqual(hc.differences(items(host(0.001)), items(host(0.04))), [])
        self.assertEqual(hc.differences(items(host(1.0)), items(host(1.4))), [])
        self.assertEqual(len(hc.differences(items(host(1.0)), items(host(1.5)))), 1)
        # files without the object, or with nulls, say nothing
        self.assertEqual(hc.differences([(None, {})], items(host(5.0))), [])
        self.assertEqual(hc.side_medians(items({"sys_us_per_iter": None})), {})

    def test_compare_names_it_beside_a_changed_verdict(self):
        def launches(factor, sys_us):
            recs = h.synthetic_set("L", factor)
            for r in recs:
                if r["type"] == "result":
                    r["host"] = host(sys_us)
            return recs
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.jsonl"), os.path.join(d, "b.jsonl")
            h.write_jsonl(a, launches({}, 0.01))
            h.write_jsonl(b, launches({("latency", 8): 1.5}, 1.9))
            rc, out, _ = h.cli("compare", a, b)
            self.assertIn(rc, (0, 1))
            self.assertIn("note: latency 8: slower, the host paid: system CPU 0.010 -> 1.90 us "
                          "per iteration (x190)", out)
            self.assertNotIn("latency 1K: same, the host paid", out)
            rc, out, _ = h.cli("compare", a, b, "--format", "json")
            self.assertIn('"host":[{"field":"sys_us_per_iter","base":0.01,"new":1.9}]', out)


if __name__ == "__main__":
    unittest.main()
