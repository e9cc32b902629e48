# SPDX-License-Identifier: BSD-3-Clause
"""Rank-count scaling (frontend/mpigauge/model/scaling.py): the classes'
fits with exact values, the steps named and not named, the changes between
two sides, and `model --scaling`, compare's and series' sections."""
import json
import math
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helpers as h  # noqa: E402

h.load_frontend()
from mpigauge.model import scaling as S  # noqa: E402
from mpigauge.model import scaling_compare as C  # noqa: E402
from mpigauge.data.results import load_config_sets  # noqa: E402

COUNTS = list(range(2, 9))


def sweep_records(sides, bench="bcast", size=8):
    """An interleaved run's records: sides[label] is a list over rounds of
    {count: median}, each launch a --ranks-sweep (variant ranks=N)."""
    labels = list(sides)
    recs = [{"type": "session", "session_id": "S", "seed": 1,
             "configs": [{"label": lb} for lb in labels]}]
    seq = 0
    for r in range(1, len(sides[labels[0]]) + 1):
        for lb in labels:
            seq += 1
            lid = f"S-{seq:04d}"
            recs.append({"type": "launch", "launch_id": lid, "session_id": "S",
                         "benchmark": bench, "config": lb, "round": r, "source": "suite:1",
                         "status": "ok"})
            recs.append(dict(h.run_record(bench, launch_id=lid, nranks=max(sides[lb][0]),
                                          sizes=(size,)), config=lb, round=r))
            for n, v in sorted(sides[lb][r - 1].items()):
                recs.append(h.result_record(bench, size, "us", round(v, 6), launch_id=lid,
                                            variant=f"ranks={n}"))
    return recs


def line(f, launches=10, noise=0.02, step_at=None, factor=3.0, seed=1, counts=COUNTS, add=0.0):
    """Launches of t(P) = f(P) (x factor, + add us, above step_at), each
    value times 1 +- noise."""
    rng = random.Random(seed)
    return [{p: (f(p) * factor + add if step_at and p > step_at else f(p)) *
             (1 + rng.uniform(-noise, noise)) for p in counts} for _ in range(launches)]


def one_sweep(launches):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.jsonl")
        h.write_jsonl(path, sweep_records({"a": launches}))
        rs, = load_config_sets(path, ["a"])
    sw = S.sweeps(rs)
    assert len(sw) == 1
    return sw[0]


class Fits(unittest.TestCase):
    def test_each_class_recovers_its_own_line_exactly(self):
        for cls, f in S.CLASSES:
            ys = [2.0 + (3.0 * f(p) if f else 0.0) for p in COUNTS]
            got = S.fit_class(COUNTS, ys, cls)
            self.assertAlmostEqual(got.a, 2.0, places=9)
            self.assertAlmostEqual(got.b, 3.0 if f else 0.0, places=9)
            self.assertEqual(S.choose_class(COUNTS, ys).cls, cls)

    def test_a_shift_at_a_step(self):
        # 1 + 0.5 P, and 10 us more from 6 ranks on (the boundary 5 -> 6 is index 3)
        ys = [1.0 + 0.5 * p + (10.0 if p > 5 else 0.0) for p in COUNTS]
        got = S.fit_class(COUNTS, ys, "a + b P", [3])
        self.assertAlmostEqual(got.a, 1.0, places=9)
        self.assertAlmostEqual(got.b, 0.5, places=9)
        self.assertAlmostEqual(got.shifts[0], 10.0, places=9)
        self.assertAlmostEqual(S.predict(got, COUNTS, 4), 14.0, places=9)
        self.assertEqual(S.choose_class(COUNTS, ys, [3]).cls, "a + b P")

    def test_a_negative_a_is_refitted_at_zero_and_b_below_zero_refused(self):
        got = S.fit_class(COUNTS, [p - 1.0 for p in COUNTS], "a + b P")
        self.assertEqual(got.a, 0.0)
        self.assertGreater(got.b, 0.0)
        self.assertIsNone(S.fit_class(COUNTS, [10.0 - p for p in COUNTS], "a + b P"))
        self.assertIsNone(S.choose_class([2, 3, 4], [1.0, 2.0, 3.0]))

    def test_steepest_growth_of_a_boundary(self):
        sw = one_sweep(line(lambda p: 1.0, launches=3))
        self.assertAlmostEqual(S.steepest(sw, 0), 2 * math.log(1.5), places=12)


class Steps(unittest.TestCase):
    def test_a_planted_step_is_named_alone(self):
        sw = one_sweep(line(lambda p: 1.0 + 0.1 * p, step_at=5))
        idx, fit, steps, note = S.find_steps(sw, 0.10, 1 - 0.05 / 6)
        self.assertEqual((idx, note), ([3], ""))
        self.assertEqual((steps[0].lo, steps[0].hi), (5, 6))
        # 3 x (1.6 / 1.5), beyond the steepest class's (6 / 5)^2
        self.assertAlmostEqual(steps[0].ratio, 3 * 1.6 / 1.5 / 1.44, delta=0.06)
        self.assertEqual(fit.cls, "a + b P^2")   # a factor is no level shift: another class
        # 5 us more from 6 ranks on (as bench/libmgslow.so plants it): the class
        # and its shift
        sw = one_sweep(line(lambda p: 1.0 + 0.1 * p, step_at=5, factor=1.0, add=5.0))
        idx, fit, steps, note = S.find_steps(sw, 0.10, 1 - 0.05 / 6)
        self.assertEqual((idx, fit.cls), ([3], "a + b P"))
        self.assertAlmostEqual(fit.shifts[0], 5.0, delta=0.2)

    def test_smooth_growth_of_every_class_names_none(self):
        for cls, f in S.CLASSES:
            g = (lambda p, f=f: 1.0 + (0.5 * f(p) if f else 0.0))
            sw = one_sweep(line(g, noise=0.05, seed=3))
            self.assertEqual(S.find_steps(sw, 0.10, 1 - 0.05 / 6)[2], [], cls)

    def test_a_drop_is_a_step_down(self):
        sw = one_sweep(line(lambda p: 2.0, step_at=6, factor=0.5))
        steps = S.find_steps(sw, 0.10, 1 - 0.05 / 6)[2]
        self.assertEqual([(s.lo, s.hi) for s in steps], [(6, 7)])
        self.assertAlmostEqual(steps[0].ratio, 0.5, delta=0.03)

    def test_a_jump_some_launches_make_is_no_step(self):
        # 4 of 10 launches x20 above 4 ranks (oversubscribed ranks scheduled
        # apart), the others not: the median's interval holds 1
        launches = line(lambda p: 1.0, seed=5)
        for la in launches[:4]:
            for p in la:
                la[p] *= 20.0 if p > 4 else 1.0
        self.assertEqual(S.find_steps(one_sweep(launches), 0.10, 1 - 0.05 / 6)[2], [])

    def test_launches_at_several_counts_are_a_sweep_too(self):
        # one launch per count (-n 2 ... -n 8), 10 each: no launch measures two
        # counts, so a jump is the Mann-Whitney interval of the two counts'
        recs = []
        for k, la in enumerate(line(lambda p: 1.0 + 0.1 * p, step_at=5, seed=7)):
            for p, v in la.items():
                lid = f"L-{k}-{p}"
                recs.append(h.run_record("bcast", launch_id=lid, nranks=p, sizes=(8,)))
                recs.append(h.result_record("bcast", 8, "us", round(v, 6), launch_id=lid))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "n.jsonl")
            h.write_jsonl(path, recs)
            from mpigauge.data.results import load_results
            sw, = S.sweeps(load_results(path))
        self.assertEqual((sw.counts, S.log_jumps(sw, 0)[0]), (COUNTS, False))
        steps = S.find_steps(sw, 0.10, 1 - 0.05 / 6)[2]
        self.assertEqual([(s.lo, s.hi) for s in steps], [(5, 6)])

    def test_too_few_launches_say_so(self):
        sw = one_sweep(line(lambda p: 1.0, launches=4, step_at=5))
        idx, _, steps, note = S.find_steps(sw, 0.10, 1 - 0.05 / 6)
        self.assertEqual(steps, [])
        self.assertIn("too few launches for intervals at 0.9917", note)

    def test_support_of_a_clear_class(self):
        sw = one_sweep(line(lambda p: 1.0 + 2.0 * p * math.log2(p), noise=0.01))
        sc = S.analyse(sw, 0.10, 1 - 0.05 / 6)
        self.assertEqual(sc.fit.cls, "a + b P log P")
        self.assertGreaterEqual(sc.support, 0.9)


class Changes(unittest.TestCase):
    def sets(self, base, new):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "ab.jsonl")
            h.write_jsonl(path, sweep_records({"base": base, "new": new}))
            return load_config_sets(path, ["base", "new"])

    def test_a_step_added_is_named_and_the_same_line_says_nothing(self):
        f = (lambda p: 1.0 + 0.1 * p)
        b, n = self.sets(line(f, seed=1), line(f, step_at=5, seed=2))
        (ab, an, changes, cls), = C.compare(b, n, 0.10, 0.05)
        self.assertEqual([(c.what, c.lo, c.hi) for c in changes], [("added", 5, 6)])
        self.assertAlmostEqual(changes[0].ratio, 3.0, delta=0.15)
        b, n = self.sets(line(f, seed=1), line(f, seed=2))
        (ab, an, changes, cls), = C.compare(b, n, 0.10, 0.05)
        self.assertEqual((changes, cls), ([], "same"))

    def test_levels_find_a_step_the_jumps_hide(self):
        # oversubscribed ranks: at 3 and 4 ranks each launch is 0.3 or 7 us at
        # random, from 5 on 8 us; the planted side 50 us more from 5 on. The
        # jumps 4 -> 5 of both sides spread over x1-x30; the levels: slower
        # from 5 on, not at 4
        def bimodal(seed, add):
            rng = random.Random(seed)
            return [{p: (0.2 if p == 2 else rng.choice((0.3, 7.0)) if p < 5 else 8.0 + add)
                     * (1 + rng.uniform(-0.03, 0.03)) for p in range(2, 7)} for _ in range(8)]
        b, n = self.sets(bimodal(1, 0.0), bimodal(2, 50.0))
        (ab, an, changes, cls), = C.compare(b, n, 0.10, 0.05)
        self.assertEqual([(c.what, c.lo, c.hi, c.route) for c in changes],
                         [("added", 4, 5, "level")])
        self.assertGreater(changes[0].ci[0], 4.0)
        b, n = self.sets(bimodal(1, 0.0), bimodal(3, 0.0))
        self.assertEqual(C.compare(b, n, 0.10, 0.05)[0][2], [])

    def test_a_class_changed_only_when_both_are_clear(self):
        b, n = self.sets(line(lambda p: 1.0 + 2.0 * math.log2(p), noise=0.005),
                         line(lambda p: 0.1 + 0.5 * p * p, noise=0.005, seed=4))
        (ab, an, changes, cls), = C.compare(b, n, 0.10, 0.05)
        self.assertEqual((ab.fit.cls, an.fit.cls, cls), ("a + b log P", "a + b P^2", "changed"))
        self.assertEqual(C.class_change(ab._replace(support=0.5), an), "unclear")


class Command(unittest.TestCase):
    def write(self, d, sides):
        path = os.path.join(d, "ab.jsonl")
        h.write_jsonl(path, sweep_records(sides))
        return path

    def test_model_scaling_text_json_and_refusal(self):
        f = (lambda p: 1.0 + 0.1 * p)
        with tempfile.TemporaryDirectory() as d:
            path = self.write(d, {"base": line(f), "planted": line(f, step_at=5, seed=2)})
            code, out, err = h.cli("model", "--scaling", path, "base", "planted")
            self.assertEqual(code, 0, err)
            lines = out.splitlines()
            self.assertRegex(lines[0], r"^bcast 8 B \(base, 10 launches, 2-8 ranks\): a \+ b P "
                             r"\(a (0\.99\d|1|1\.0\d) us, b 0\.1 us; chosen in \d+% of resamples\); no step$")
            self.assertRegex(lines[1], r"^bcast 8 B \(planted, .*; steps 5->6 x2\.\d+ \[")
            self.assertRegex(lines[2], r"^bcast 8 B, planted against base: a step added at 5->6 "
                             r"ranks: x3\.\d+ \[")
            code, out, err = h.cli("model", "--scaling", path, "base", "planted", "--json")
            recs = [json.loads(x) for x in out.splitlines()]
            self.assertEqual([r["type"] for r in recs], ["scaling", "scaling", "scaling_change"])
            self.assertEqual(recs[1]["steps"][0]["from"], 5)
            self.assertEqual(recs[2]["changes"][0]["what"], "added")
            plain = os.path.join(d, "plain.jsonl")
            h.write_jsonl(plain, h.synthetic_set("Open MPI v4.1.4", {}))
            code, out, err = h.cli("model", "--scaling", plain)
            self.assertEqual(code, 2)
            self.assertIn("no line measured at three rank counts or more", err)

    def test_compare_trails_the_scaling_section_only_with_sweeps(self):
        f = (lambda p: 1.0 + 0.1 * p)
        with tempfile.TemporaryDirectory() as d:
            path = self.write(d, {"base": line(f), "planted": line(f, step_at=5, seed=2)})
            code, out, err = h.cli("compare", path, "base", "planted")
            self.assertEqual(code, 0, err)
            tail = out[out.index("rank-count scaling"):]
            self.assertIn("bcast 8 B, planted against base: a step added at 5->6 ranks", tail)
            code, out, err = h.cli("compare", path, "base", "planted", "--format", "json")
            recs = [json.loads(x) for x in out.splitlines()]
            self.assertEqual(len([r for r in recs if r.get("type") == "scaling_change"]), 1)
            plain = os.path.join(d, "plain.jsonl")
            h.write_jsonl(plain, h.interleaved_records({"a": [1.0] * 6, "b": [1.0] * 6}))
            code, out, err = h.cli("compare", plain, "a", "b")
            self.assertNotIn("rank-count scaling", out)


class AlongSeries(unittest.TestCase):
    def test_the_release_that_added_a_step_is_named(self):
        # r2 adds a step of 5 us from 6 ranks on; r0 -> r1 nothing
        from mpigauge.releases.series_folder import Folder
        f = (lambda p: 1.0 + 0.1 * p)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rel = [{"name": n, "release": v} for n, v in (("r0", "1"), ("r1", "2"), ("r2", "3"))]
            folder = Folder(out, dict(threshold=0.05, alpha=0.05, error_control="bh",
                                      suite="quick", rounds=10, stride=None), rel, [], False)
            folder.close()
            h.write_jsonl(os.path.join(out, "step-01.jsonl"), sweep_records(
                {"r0": line(f, seed=1), "r1": line(f, seed=2),
                 "r2": line(f, seed=3, step_at=5, factor=1.0, add=5.0)}))
            folder.record({"step": 1, "labels": ["r0", "r1", "r2"], "file": "step-01.jsonl",
                           "done": True, "launches": 30, "seconds": 5})
            rc, text, err = h.cli("series", "report", out)
            self.assertEqual(rc, 0, err)
            lines = text.splitlines()
            k = lines.index("rank-count scaling along the series (a step added, a class changed; "
                            "doc/collectives.md):")
            self.assertRegex(lines[k + 1], r"^step 1 bcast 8 B, r1 against r0: no step added")
            self.assertRegex(lines[k + 2], r"^step 1 bcast 8 B, r2 against r1: a step added at "
                             r"5->6 ranks")


if __name__ == "__main__":
    unittest.main()
