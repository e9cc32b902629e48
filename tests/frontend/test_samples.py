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

    def test_one_long_stall_does_not_swallow_the_period(self):
        s = series(n=20000, spikes_at=[0.005 + 0.020 * k for k in range(30)])
        k = next(i for i, d in enumerate(s.per_iter) if d > 1e-5)
        late = 0.2 - s.per_iter[k] * s.iters[k]  # the first event lasts 200 ms
        s.per_iter[k] = 0.2 / s.iters[k]
        s.start[k + 1:] = [t + late for t in s.start[k + 1:]]
        p, share = S.period(S.events(S.spikes([s])))
        self.assertAlmostEqual(p, 0.020, delta=0.001)
        self.assertEqual(share, 1.0)

    def test_irregular_spikes_have_no_period_and_no_spikes_say_so(self):
        rng = random.Random(3)
        at = sorted(rng.uniform(0, 0.9) for _ in range(12))
        self.assertIsNone(S.period(S.events(S.spikes([series(n=20000, spikes_at=at)]))))
        self.assertIn("no period found", S.describe_spikes([series(n=20000, spikes_at=at)]))
        self.assertEqual(S.describe_spikes([series()]), "no spikes among 2000 samples")

    def test_spikes_closer_than_twice_the_median_spike_are_one_event(self):
        self.assertEqual(S.events([(0.0, 0.001), (0.0015, 0.001), (0.01, 0.001)]), [0.0, 0.01])
        self.assertEqual(S.events([(0.0, 0.001), (0.004, 0.3), (0.31, 0.001)]), [0.0, 0.004, 0.31])

    def test_events_at_random_times_are_not_called_periodic(self):
        # 400 runs of 6 to 80 spikes at random times (30 ms apart on average)
        # and of random lengths (0.5 to 30 ms): the old rule (60% of the gaps
        # regular, nothing more) called one in five of the short ones periodic
        rng, called = random.Random(1), 0
        for k in range(400):
            t, spk = 0.0, []
            for _ in range((6, 10, 20, 40, 80)[k % 5]):
                t += rng.expovariate(1 / 0.03)
                spk.append((t, 10 ** rng.uniform(-3.3, -1.5)))
                t += spk[-1][1]
            called += S.periodic(spk) is not None
        self.assertEqual(called, 0)

    def test_a_periodic_stall_among_shorter_irregular_ones_is_found_by_its_length(self):
        # 12 ms every 50 ms, and 4 ms slices lost to load every 6 to 16 ms
        rng = random.Random(5)
        spk = [(0.01 + 0.05 * k, 0.012) for k in range(25)]
        t = 0.0
        while t < 1.25:
            t += rng.uniform(0.006, 0.016)
            if all(abs(t - a) > 0.013 for a, _ in spk):
                spk.append((t, 0.004))
        spk.sort()
        self.assertIsNone(S.period(S.events(spk)))
        p, share, n, stall = S.periodic(spk)
        self.assertAlmostEqual(p, 0.05, delta=1e-9)
        self.assertEqual((share, n, stall), (1.0, 25, 0.012))

    def test_binomial_tail(self):
        self.assertAlmostEqual(S.binom_tail(4, 4, 0.5), 1 / 16)
        self.assertAlmostEqual(S.binom_tail(3, 2, 0.5), 0.5)
        self.assertAlmostEqual(S.binom_tail(5, 0, 0.3), 1.0)
        self.assertEqual(S.duration_classes([(0, 1.0), (1, 4.0), (2, 1.1), (3, 4.5)]),
                         [[(0, 1.0), (2, 1.1)], [(1, 4.0), (3, 4.5)]])


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
            # an iteration count beyond 64 bits (found by tests/fuzz/frontend.py)
            h.write_jsonl(p, [{"type": "samples"}, {"type": "sample_series", "size_bytes": 8,
                                                    "start_s": [0], "per_iteration_s": [1],
                                                    "iterations": [2 ** 70]}])
            with self.assertRaisesRegex(mg.UsageError, "a count out of range"):
                S.load(p)

    def test_read_as_a_stream_across_chunk_boundaries(self):
        # chunks of 7 bytes: keys, numbers and closing brackets cut anywhere;
        # the per-rank arrays (nested) skipped; the values exact
        import io
        text = ('{"type":"samples","benchmark":"latency","fields":["start_s","per_iteration_s"]}\n'
                '{"type":"sample_series","size_bytes":8,"variant":"ways=2","start_s":[0,0.5,1e-3],'
                '"per_iteration_s":[2.5e-07,3e-07,0.012],"iterations":[10,20,30],'
                '"rank_per_iteration_s":[[1,2,3],[4,[5],6]]}\n'
                '{"type":"sample_series","size_bytes":1024,"start_s":[],"per_iteration_s":[],'
                '"iterations":[]}\n')
        old = S.CHUNK
        try:
            S.CHUNK = 7
            got = list(S._lines(io.BytesIO(text.encode())))
        finally:
            S.CHUNK = old
        self.assertEqual(len(got), 3)
        head, arrays = got[1]
        rec = __import__("json").loads(head)
        self.assertEqual((rec["size_bytes"], rec["variant"]), (8, "ways=2"))
        self.assertEqual(list(arrays[b"start_s"]), [0.0, 0.5, 1e-3])
        self.assertEqual(list(arrays[b"per_iteration_s"]), [2.5e-07, 3e-07, 0.012])
        self.assertEqual(list(arrays[b"iterations"]), [10, 20, 30])
        self.assertNotIn(b"rank_per_iteration_s", arrays)
        self.assertEqual(list(got[2][1][b"start_s"]), [])

    def test_long_series_are_summarised_and_drawn_bounded(self):
        from array import array
        per = array("d", [1.0] * 2_500_000)
        per[1234] = 50.0
        m, mad = S.typical(per)     # an even subsample of at most a million
        self.assertEqual((m, mad), (1.0, 0.0))
        s = S.Series(8, "", array("d", range(len(per))), per, array("q", [1] * len(per)))
        ts, ds, k = S.drawn(s, most=1000)
        self.assertEqual((k, len(ds)), (2500, 1000))
        self.assertEqual((ds[0], ts[0]), (50.0, 1234.0))    # the spike is what is drawn
        self.assertEqual(ds[1], 1.0)
        self.assertEqual(S.drawn(S.Series(8, "", [0, 1], [2, 3], [1, 1]))[2], 1)

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
