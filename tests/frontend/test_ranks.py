# SPDX-License-Identifier: BSD-3-Clause
"""`report --ranks BENCH:SIZE`: every rank of a row run with --per-rank,
the slowest rank and its host named."""
import os
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()


def records():
    run = h.run_record("allreduce", nranks=4, hosts=("nodeA", "nodeA", "nodeB", "nodeB"),
                       bindings=("0", "1", "0", "1"), sizes=(8, 65536), launch_id="L1",
                       family="collective")
    res = [h.result_record("allreduce", 8, "us", 3.0, launch_id="L1"),
           h.result_record("allreduce", 65536, "us", 40.0, launch_id="L1",
                           rank_median_us=[40.0, 41.0, 80.0, 79.5])]
    return [run] + res


class Ranks(unittest.TestCase):
    def test_the_slowest_rank_and_host_of_a_row_are_named(self):
        with tempfile.TemporaryDirectory() as d:
            p, out = os.path.join(d, "r.jsonl"), os.path.join(d, "rep.html")
            h.write_jsonl(p, records())
            rc, _, err = h.cli("report", p, "--ranks", "allreduce:64K", "--no-plot", "-o", out)
            self.assertEqual(rc, 0, err)
            with open(out) as f:
                page = f.read()
            self.assertIn("slowest rank 2 on nodeB 80 us, fastest rank 0 on nodeA 40 us (2.00x)",
                          page)
            self.assertIn("<td>3</td><td>nodeB</td><td>79.5</td>", page)
            rc, _, err = h.cli("report", p, "--ranks", "allreduce:8", "--no-plot", "-o", out)
            self.assertEqual(rc, 2)
            self.assertIn("run it with --per-rank", err)
            with self.assertRaises(SystemExit) as cm:     # argparse: usage, exit 2
                h.cli("report", p, "--ranks", "allreduce", "-o", out)
            self.assertEqual(cm.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
