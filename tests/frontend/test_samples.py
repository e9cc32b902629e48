# SPDX-License-Identifier: BSD-3-Clause
"""Every timed sample (--samples FILE): the file read back, spikes merged
into events, a periodic disturbance found with its period (and none where
the spikes are irregular), `plot --timeline` and `report --samples`."""
import os
import random
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
S = mg.samples


def series(n=2000, dt=1e-5, base=2e-7, spikes_at=(), size=8):
    """n samples of dt seconds each, per iteration base (+1% noise), with a
    spike of 3 ms at each time in spikes_at."""
    rng = random.Random(7)
    start, per, iters, t = [], [], [], 0.0
    hits = sorted(spikes_at)
    for _ in range(n):
        d = base * (1 + 0.01 * rng.random())
        if hits and t >= hits[0]:
            hits.pop(0)
            d = 3e-3 / 50
        start.append(t)
        per.append(d)
        iters.append(50)
        t += d * 50
    return S.Series(size, "", start, per, iters)


def write(path, ss):
    recs = [{"type": "samples", "benchmark": "latency", "fields": ["start_s", "per_iteration_s",
                                                                   "iterations"]}]
    recs += [{"type": "sample_series", "size_bytes": s.size, "start_s": s.start,
              "per_iteration_s": s.per_iter, "iterations": s.iters} for s in ss]
    h.write_jsonl(path, recs)


class Period(unittest.TestCase):
    def test_a_disturbance_every_20_ms_is_found_with_its_period(self):
        s = series(n=20000, spikes_at=[0.005 + 0.020 * k for k in range(30)])
        ev = S.events(S.spikes([s]))
        self.assertGreaterEqual(len(ev), 10)
        p, share = S.period(ev)
        self.assertAlmostEqual(p, 0.020, delta=0.001)
        self.assertEqual(share, 1.0)
        self.assertTrue(S.describe_spikes([s]).startswith("periodic disturbance: every 20 ms"),
                        S.describe_spikes([s]))

    def test_a_missed_event_still_counts_as_regular(self):
        at = [0.005 + 0.020 * k for k in range(30) if k not in (7, 8, 19)]
        p, share = S.period(S.events(S.spikes([series(n=20000, spikes_at=at)])))
        self.assertAlmostEqual(p, 0.020, delta=0.001)
        self.assertEqual(share, 1.0)

    def test_irregular_spikes_have_no_period_and_no_spikes_say_so(self):
        rng = random.Random(3)
        at = sorted(rng.uniform(0, 0.9) for _ in range(12))
        self.assertIsNone(S.period(S.events(S.spikes([series(n=20000, spikes_at=at)]))))
        self.assertIn("no period found", S.describe_spikes([series(n=20000, spikes_at=at)]))
        self.assertEqual(S.describe_spikes([series()]), "no spikes among 2000 samples")

    def test_spikes_closer_than_twice_the_longest_are_one_event(self):
        self.assertEqual(S.events([(0.0, 0.001), (0.0015, 0.001), (0.01, 0.001)]), [0.0, 0.01])


class Files(unittest.TestCase):
    def test_the_file_read_back_and_refused_when_it_is_not_one(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "s.jsonl")
            write(p, [series(n=20), series(n=30, size=1024)])
            head, ss = S.load(p)
            self.assertEqual(head["benchmark"], "latency")
            self.assertEqual([(s.size, len(s.start)) for s in ss], [(8, 20), (1024, 30)])
            h.write_jsonl(p, [{"type": "run", "benchmark": "latency"}])
            with self.assertRaisesRegex(mg.UsageError, "not a samples file"):
                S.load(p)
            h.write_jsonl(p, [{"type": "samples"}, {"type": "sample_series", "size_bytes": 8,
                                                    "start_s": [0, 1], "per_iteration_s": [1],
                                                    "iterations": [1, 1]}])
            with self.assertRaisesRegex(mg.UsageError, "s.jsonl:2: arrays of different"):
                S.load(p)

    def test_report_names_the_period_and_plot_draws_the_timeline(self):
        with tempfile.TemporaryDirectory() as d:
            p, res = os.path.join(d, "s.jsonl"), os.path.join(d, "r.jsonl")
            write(p, [series(n=20000, spikes_at=[0.003 + 0.025 * k for k in range(20)])])
            h.write_jsonl(res, h.synthetic_set("L", {}, launches=1))
            rc, _, err = h.cli("report", res, "--samples", p, "--no-plot", "-o",
                               os.path.join(d, "rep.html"))
            self.assertEqual(rc, 0, err)
            self.assertIn("periodic disturbance: every 25 ms", err)
            with open(os.path.join(d, "rep.html")) as f:
                self.assertIn("periodic disturbance: every 25 ms", f.read())
            if mg.plot.import_pyplot() is None:
                self.skipTest("matplotlib is not installed")
            out = os.path.join(d, "t.png")
            rc, _, err = h.cli("plot", "--timeline", p, "-o", out)
            self.assertEqual(rc, 0, err)
            self.assertGreater(os.path.getsize(out), 1000)


if __name__ == "__main__":
    unittest.main()
