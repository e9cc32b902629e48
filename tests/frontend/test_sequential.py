# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge run --until-decided` (its looks, its stop, the rounds it adds
to the undecided lines only) and the self-test's share of A/A series
decided the same, over fake programs (fakerun.py)."""
import json
import os
import subprocess
import sys
import unittest

import helpers as h
from fakerun import FakeRun

mg = h.load_frontend()


class SequentialTest(FakeRun, unittest.TestCase):
    def saw_cli(self, suite, *args):
        """run with the seesaw programs' launch counts in the test's folder."""
        os.environ["FAKE_SEESAW_DIR"] = self.d
        try:
            return self.cli(suite, *args)
        finally:
            del os.environ["FAKE_SEESAW_DIR"]

    def test_until_decided_stops_when_every_series_is_decided(self):
        p = self.cli("envy\n", "--config", "a FAKE_VALUE=1", "--config", "b FAKE_VALUE=2",
                     "--until-decided", "--min-rounds", "6", "--max-rounds", "20")
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = self.records()
        end = recs[-1]
        # identical launches: 2x slower at every look; decided at the first look
        # (6 rounds cannot reach 0.05 / 3 looks, so the looks are 9, 14, 20)
        self.assertEqual(end["sequential"]["looks"], [9, 14, 20])
        self.assertEqual(end["sequential"]["stopped"], "decided after round 9")
        self.assertEqual(len([r for r in recs if r["type"] == "launch"]), 18)
        # compare judges the file at alpha / 4 looks, and says so
        out = subprocess.run([sys.executable, h.FRONTEND, "compare", self.out, "a", "b"],
                             capture_output=True, text=True)
        self.assertIn("sequential run (3 planned looks): tested at alpha 0.01667 = 0.05 / 3",
                      out.stdout)
        self.assertIn("slower", out.stdout)

    def test_until_decided_adds_rounds_to_the_undecided_lines_only(self):
        p = self.saw_cli("envy\nseesaw\n", "--config", "a FAKE_VALUE=1", "--config",
                         "b FAKE_VALUE=2", "--until-decided", "--min-rounds", "6",
                         "--max-rounds", "20", "--seed", "5")
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = self.records()
        launches = [r for r in recs if r["type"] == "launch"]
        by = {b: [l["round"] for l in launches if l["benchmark"] == b] for b in ("envy", "seesaw")}
        # envy is decided at the first look (round 9) and measured no more;
        # seesaw never is, and runs every round to the cap
        self.assertEqual(sorted(set(by["envy"])), list(range(1, 10)))
        self.assertEqual(len(by["envy"]), 18)
        self.assertEqual(sorted(set(by["seesaw"])), list(range(1, 21)))
        self.assertEqual(len(by["seesaw"]), 40)
        seq = recs[-1]["sequential"]
        self.assertEqual(seq["narrowed"], [{"after_round": 9, "lines": 1, "of": 2, "sizes": {}}])
        self.assertIsNone(seq["stopped"])
        self.assertIn("look after round 9: 2 series undecided; the next rounds run the 1 of 2 "
                      "suite lines that hold them", p.stderr)

    def test_a_line_goes_on_at_its_undecided_sizes_only(self):
        p = self.saw_cli("halfsaw\n", "--config", "a FAKE_VALUE=1", "--config",
                         "b FAKE_VALUE=2", "--until-decided", "--min-rounds", "6",
                         "--max-rounds", "14", "--seed", "5")
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = self.records()
        # 8 bytes is decided (x2) at the first look, round 9; from round 10
        # the program is asked for 16 bytes alone (-m 16) and gives only it
        sizes = {}
        rounds = {r["launch_id"]: r["round"] for r in recs if r["type"] == "launch"}
        for r in recs:
            if r["type"] == "result":
                sizes.setdefault(rounds[r["launch_id"]], []).append(r["size_bytes"])
        self.assertEqual({k: sorted(v) for k, v in sizes.items() if k <= 9},
                         {k: [8, 8, 16, 16] for k in range(1, 10)})
        self.assertEqual({k: v for k, v in sizes.items() if k > 9},
                         {k: [16, 16] for k in range(10, 15)})
        late = [r for r in recs if r["type"] == "launch" and r["round"] > 9]
        last_m = [c[len(c) - 1 - c[::-1].index("-m") + 1] for c in (r["command"] for r in late)]
        self.assertEqual(set(last_m), {"16:16"}, late[0]["command"])
        seq = recs[-1]["sequential"]
        (line, kept), = seq["narrowed"][0]["sizes"].items()
        self.assertEqual((line.endswith("s.txt:1"), kept), (True, [16]))
        self.assertIn("1 line(s) only at their undecided sizes", p.stderr)
        out = subprocess.run([sys.executable, h.FRONTEND, "compare", self.out, "a", "b",
                              "--format", "json"], capture_output=True, text=True)
        rows = {r["size_bytes"]: r for r in map(json.loads, out.stdout.splitlines())
                if r.get("type") == "series"}
        self.assertEqual(rows[8]["verdict"], "slower")
        self.assertNotIn(rows[16]["verdict"], ("slower", "faster", "same"))

    def test_a_request_decides_the_pairs_it_names(self):
        # seesaw: a (FAKE_VALUE 1) against b or c alternates x3 and x1/3,
        # never decided; b against c (2 and 2.0: the same value every round)
        # is the same. Base against each never stops; the pair (b, c), as a
        # series step decides its neighbours, stops at the first look
        from mpigauge.measure import runrequest as rq
        req = rq.RunRequest(suite=self.suite("seesaw\n"), output=self.out, bindir=[self.bin],
                            launcher=self.launcher, mpi="openmpi", seed=5, quiet=True,
                            configs=[rq.config(lb, env={"FAKE_VALUE": v})
                                     for lb, v in (("a", "1"), ("b", "2"), ("c", "2.0"))],
                            until_decided=True, min_rounds=6, max_rounds=14,
                            decide_pairs=[("b", "c")])
        os.environ["FAKE_SEESAW_DIR"] = self.d
        try:
            self.assertEqual(rq.run(req), 0)
        finally:
            del os.environ["FAKE_SEESAW_DIR"]
        recs = self.records()
        self.assertEqual(recs[-1]["sequential"]["stopped"], "decided after round 9")
        self.assertEqual(len([r for r in recs if r["type"] == "launch"]), 27)
        req.decide_pairs = [("b", "d")]
        with self.assertRaises(mg.common.UsageError):
            rq.run(req)

    def test_selftest_counts_the_aa_series_decided_the_same(self):
        # envy: base and same identical (x1.000 every round), decided the same
        # within 5%; seesaw: x3 and x1/3 in turns, never decided: half the
        # A/A series, after the walk's 10 rounds and after all 12
        import types
        p = self.saw_cli("envy\nseesaw\n", "--config", "base FAKE_VALUE=1", "--config",
                         "same FAKE_VALUE=1.0", "--repeat", "12", "--seed", "1")
        self.assertEqual(p.returncode, 0, p.stderr)
        a = types.SimpleNamespace(rounds=12, alpha=0.05, error_control="bh", covariate="none")
        res = mg.selftest.analyse(a, [], 0.05, [self.out])
        self.assertEqual((res["aa_trials_with_alarm"], res["series"]), (0, 4))
        self.assertEqual(res["aa_same"], {"12": {"median": 0.5, "min": 0.5, "max": 0.5},
                                          "10": {"median": 0.5, "min": 0.5, "max": 0.5}})


if __name__ == "__main__":
    unittest.main()
