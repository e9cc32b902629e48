# SPDX-License-Identifier: BSD-3-Clause
"""Hockney's model per regime (model/hockney.py, `mpigauge model`):
synthetic curves with known parameters and breakpoints recovered within
their intervals, one regime found as one, exact fits of exact lines, and
bad input said as such (too few sizes, a curve that falls, no latency)."""
import json
import math
import os
import random
import tempfile
import unittest

import subprocess
import sys

import fakerun
import helpers as h

h.load_frontend()
import mpigauge.model.hockney as H  # noqa: E402

SIZES = [0] + [1 << k for k in range(23)]   # 0, 1 B .. 4 MiB
# (first size, alpha us, bandwidth MB/s): eager, a copy regime, rendezvous
PLANTED = ((0, 0.20, 2000.0), (8192, 2.0, 5000.0), (131072, 12.0, 10000.0))


def truth(m):
    lo, a, bw = max((p for p in PLANTED if p[0] <= m), key=lambda p: p[0])
    return a + m / bw


def planted_curve(launches=8, noise=0.01, seed=3):
    rng = random.Random(seed)
    return {m: [truth(m) * (1 + rng.uniform(-noise, noise)) for _ in range(launches)]
            for m in SIZES}


class Fit(unittest.TestCase):
    def test_an_exact_line_is_fitted_exactly(self):
        ln = H.fit_line([0, 10, 20, 40], [1.0, 2.0, 3.0, 5.0])
        self.assertAlmostEqual(ln.alpha, 1.0, places=12)
        self.assertAlmostEqual(ln.beta, 0.1, places=12)
        self.assertAlmostEqual(ln.sse, 0.0, places=20)

    def test_segments_of_two_exact_lines(self):
        ms = [0, 1, 2, 3, 10, 11, 12, 13]
        ts = [1 + m for m in ms[:4]] + [50 + 2 * m for m in ms[4:]]
        total, ranges = H.segment(ms, ts, 2)
        self.assertEqual(ranges, [(0, 4), (4, 8)])
        self.assertAlmostEqual(total, 0.0, places=18)
        self.assertEqual(H.choose_segments(ms, ts)[0], 2)

    def test_planted_regimes_recovered_within_their_intervals(self):
        m = H.fit(planted_curve())
        self.assertEqual(len(m.regimes), 3)
        self.assertEqual([(b.after, b.before) for b in m.breakpoints],
                         [(4096, 8192), (65536, 131072)])
        for r, (lo, alpha, bw) in zip(m.regimes, PLANTED):
            self.assertEqual(r.lo, lo)
            self.assertLessEqual(r.alpha_ci[0], alpha, r)
            self.assertGreaterEqual(r.alpha_ci[1], alpha, r)
            self.assertLessEqual(r.beta_ci[0], 1 / bw, r)
            self.assertGreaterEqual(r.beta_ci[1], 1 / bw, r)
            self.assertLess(abs(r.bandwidth() / bw - 1), 0.05)
            self.assertLess(r.max_residual, 0.03)
        self.assertEqual(m.launches, 8)
        self.assertEqual(m.resamples, H.RESAMPLES)
        for b in m.breakpoints:
            self.assertLessEqual(b.low, (b.after, b.before))
            self.assertGreaterEqual(b.high, (b.after, b.before))
        self.assertAlmostEqual(H.predict(m, 1 << 20), truth(1 << 20), delta=0.05 * truth(1 << 20))

    def test_one_regime_is_one(self):
        rng = random.Random(5)
        curve = {m: [(0.5 + m / 3000.0) * (1 + rng.uniform(-0.01, 0.01)) for _ in range(6)]
                 for m in SIZES}
        m = H.fit(curve)
        self.assertEqual(len(m.regimes), 1)
        self.assertEqual(m.breakpoints, [])
        self.assertLess(abs(m.regimes[0].alpha - 0.5), 0.02)

    def test_the_best_launch_and_a_superlinear_regime(self):
        # every size's launches: the fast state and, in half of them, a slow
        # one 1.6x slower (the machine's regimes); above 512K the time grows
        # as m^1.5 (memory beyond the caches)
        curve = {}
        for m in SIZES:
            t = truth(m) if m <= 524288 else truth(524288) * (m / 524288) ** 1.5
            curve[m] = [t * (1.6 if i % 2 else 1.0) for i in range(8)]
        m = H.fit(curve, figure="best")
        self.assertEqual(m.figure, "best")
        self.assertEqual(len(m.regimes), 4)
        for r, (lo, alpha, bw) in zip(m.regimes, PLANTED):
            self.assertEqual(r.lo, lo)
            self.assertAlmostEqual(r.alpha, alpha, delta=0.01 * alpha)
        self.assertTrue(m.regimes[-1].superlinear())
        self.assertFalse(any(r.superlinear() for r in m.regimes[:-1]))
        self.assertEqual(m.regimes[-1].lo, 1 << 20)

    def test_one_launch_a_size_has_no_intervals(self):
        m = H.fit(planted_curve(launches=1))
        self.assertEqual(m.resamples, 0)
        self.assertTrue(math.isnan(m.regimes[0].alpha_ci[0]))

    def test_bad_curves_are_said(self):
        with self.assertRaisesRegex(H.FitError, "2 sizes: a regime needs at least 3"):
            H.fit({8: [1.0], 16: [1.1]})
        with self.assertRaisesRegex(H.FitError, "not a positive number"):
            H.fit({8: [1.0], 16: [0.0], 32: [1.2]})
        with self.assertRaisesRegex(H.FitError, "falls by half.*not a Hockney regime"):
            H.fit({m: [100.0 / (1 + m)] for m in (0, 1, 2, 4)}, max_segments=1)


class Verdicts(unittest.TestCase):
    def test_a_planted_alpha_change_and_nothing_else(self):
        import mpigauge.model.paramverdict as PV
        base = H.fit(planted_curve(launches=10, seed=3))
        rng = random.Random(4)
        curve = {m: [(truth(m) + (0.04 if m < 8192 else 0.0)) * (1 + rng.uniform(-0.01, 0.01))
                     for _ in range(10)] for m in SIZES}
        # on the base's regimes (as the command refits a side whose
        # breakpoints moved)
        new = H.fit(curve, spans=[(r.lo, r.hi) for r in base.regimes])
        self.assertEqual(PV.shape(new), PV.shape(base))
        rows = {(r.regime, r.name): r for r in PV.compare_models(base, new, 0.05)}
        self.assertEqual(rows[("0-4K", "alpha")].verdict, "slower")
        self.assertAlmostEqual(rows[("0-4K", "alpha")].ratio, 1.2, delta=0.03)
        for key in (("8K-64K", "alpha"), ("8K-64K", "bandwidth"), ("128K-4M", "alpha"),
                    ("128K-4M", "bandwidth")):
            self.assertEqual(rows[key].verdict, "same", rows[key])
        self.assertEqual(PV.decide(1.2, (1.1, 1.3), (1.12, 1.28), 0.05, False), "faster")
        self.assertEqual(PV.decide(1.01, (0.9, 1.1), (0.92, 1.08), 0.05, True), "unclear")

    def test_moved_breakpoints_refitted_on_the_base_regimes(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "ab.jsonl")
            rng = random.Random(6)
            recs = [{"type": "session", "session_id": "S", "seed": 1,
                     "configs": [{"label": "a"}, {"label": "b"}]}]
            for r in range(6):
                for lb, shift in (("a", 0), ("b", 1)):
                    lid = f"{lb}{r}"
                    recs.append(dict(h.run_record("latency", launch_id=lid, sizes=tuple(SIZES)),
                                     config=lb, round=r + 1))
                    for m in SIZES:
                        # b switches protocol one size later (8K|16K, not 4K|8K):
                        # its 8K message still on the first regime's line
                        t = 0.2 + m / 2000.0 if shift and m == 8192 else truth(m)
                        recs.append(h.result_record("latency", m, "us",
                                                    round(t * (1 + rng.uniform(-0.01, 0.01)), 6),
                                                    launch_id=lid))
            h.write_jsonl(path, recs)
            code, out, err = h.cli("model", path, "a", "b")
            self.assertEqual(code, 0, err)
            self.assertIn("a -> b: latency (2 ranks): the breakpoints moved (4K|8K, 64K|128K "
                          "against 8K|16K, 64K|128K); b refitted on a's regimes", out)
            verdicts = {tuple(line.split()[:2]): line.split()[-1] for line in
                        out.split("refitted on a's regimes")[1].splitlines()[1:]}
            # the regimes the move did not touch: the same; the one it did: not
            self.assertEqual(verdicts[("128K-4M", "alpha")], "same")
            self.assertEqual(verdicts[("128K-4M", "bandwidth")], "same")
            self.assertNotEqual(verdicts[("8K-64K", "alpha")], "same")


class Command(unittest.TestCase):
    def results(self, d, curve, launches):
        recs = []
        for i in range(launches):
            lid = f"L{i}"
            recs.append(h.run_record("latency", launch_id=lid, sizes=tuple(curve)))
            recs += [h.result_record("latency", s, "us", round(v[i], 6), launch_id=lid)
                     for s, v in curve.items()]
        path = os.path.join(d, "r.jsonl")
        h.write_jsonl(path, recs)
        return path

    def test_text_and_json(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.results(d, planted_curve(launches=6), 6)
            code, out, err = h.cli("model", path)
            self.assertEqual(code, 0, err)
            self.assertIn("3 regimes, t(m) = alpha + m / bandwidth, median of 6 launches", out)
            self.assertIn("breakpoint 4K|8K", out)
            self.assertIn("breakpoint 64K|128K", out)
            code, out, err = h.cli("model", path, "--json")
            doc = json.loads(out)
            self.assertEqual([r["lo_bytes"] for r in doc["regimes"]], [0, 8192, 131072])
            self.assertEqual(doc["launches"], 6)

    def test_limits_beside_the_breakpoints(self):
        # an eager limit of 8192 explains the planted switch between 4K and
        # 8K; a shared-memory limit of 32768 explains nothing; a GPU's
        # threshold and a collective's are not point-to-point limits
        rows = [["btl_vader_eager_limit", "8192", "unsigned_long", "readonly", "none"],
                ["btl_vader_max_send_size", "32768", "unsigned_long", "readonly", "none"],
                ["btl_smcuda_accelerator_max_send_size", "8192", "int", "readonly", "none"],
                ["coll_tuned_bcast_eager_limit", "8192", "int", "readonly", "none"]]
        with tempfile.TemporaryDirectory() as d:
            path = self.results(d, planted_curve(launches=6), 6)
            recs = [json.loads(line) for line in h.read(path).splitlines()]
            for r in recs:
                if r["type"] == "run":
                    r["cvars"] = {"state": "read", "digest": "d1"}
            recs.insert(1, {"type": "cvars", "digest": "d1", "cvars": rows})
            h.write_jsonl(path, recs)
            code, out, err = h.cli("model", path)
            self.assertEqual(code, 0, err)
            self.assertIn("  breakpoint 4K|8K: btl_vader_eager_limit = 8192\n", out)
            self.assertIn("  breakpoint 64K|128K: no limit of the library here", out)
            self.assertIn("btl_vader_max_send_size = 32768: no breakpoint there", out)
            self.assertNotIn("accelerator", out)
            self.assertNotIn("coll_tuned", out)
            code, out, err = h.cli("model", path, "--json")
            doc = json.loads(out)
            self.assertEqual([b["limits"] for b in doc["breakpoints"]],
                             [{"btl_vader_eager_limit": 8192}, {}])

    def test_compare_model(self):
        # compare --model: the parameters after the table, the planted change
        # of the first regime's alpha named slower, the rest not
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "b"))
            os.mkdir(os.path.join(d, "n"))
            base = self.results(os.path.join(d, "b"), planted_curve(launches=6), 6)
            slow = {m: [v + (0.2 if m < 8192 else 0.0) for v in vals]
                    for m, vals in planted_curve(launches=6, seed=4).items()}
            new = self.results(os.path.join(d, "n"), slow, 6)
            code, out, err = h.cli("compare", base, new, "--model")
            self.assertEqual(code, 0, err)
            tail = out[out.index("model parameters (mpigauge model; doc/models.md):"):]
            self.assertIn("the same breakpoints (4K|8K, 64K|128K)", tail)
            self.assertRegex(tail, r"0-4K +alpha +0\.2\d+ -> 0\.4\d+ us +x2 .* slower")
            self.assertNotRegex(tail, r"(8K-64K|128K-4M) .*(slower|faster)")
            code, out, err = h.cli("compare", base, new)
            self.assertNotIn("model parameters", out)
            code, out, err = h.cli("compare", base, new, "--model", "--format", "json")
            recs = [json.loads(x) for x in out.splitlines()]
            mp = [r for r in recs if r.get("type") == "model_parameters"]
            self.assertEqual(len(mp), 1)
            self.assertEqual(mp[0]["parameters"][0]["verdict"], "slower")

    def test_refusals(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.results(d, {8: [1.0], 16: [1.1]}, 1)
            code, out, err = h.cli("model", path)
            self.assertEqual(code, 1)
            self.assertIn("no model: 2 sizes: a regime needs at least 3", out)
            recs = h.synthetic_set("Open MPI v4.1.4", {}, benchmarks=("bw",))
            bw = os.path.join(d, "bw.jsonl")
            h.write_jsonl(bw, recs)
            code, out, err = h.cli("model", bw)
            self.assertEqual(code, 2)
            self.assertIn("no latency series in us", err)
            code, out, err = h.cli("model", path, "--max-regimes", "0")
            self.assertEqual(code, 2)


class Measure(fakerun.FakeRun, unittest.TestCase):
    """model --measure: the curves run first (fake programs), then fitted."""

    def model(self, *argv):
        run = ["--launcher", self.launcher, "--mpi", "openmpi"] if "--measure" in argv else []
        return subprocess.run([sys.executable, h.FRONTEND, "model"] + list(argv) + run,
                              capture_output=True, text=True, timeout=120)

    def spec(self, label, value):
        return f"{label} bindir={self.bin} FAKE_VALUE={value}"

    def test_measured_then_fitted(self):
        res = os.path.join(self.d, "m.jsonl")
        p = self.model("--measure", res, "--config", self.spec("a", 1), "--config",
                       self.spec("b", 2), "--rounds", "3", "-q")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("latency (a, 2 ranks): 1 regime", p.stdout)
        self.assertRegex(p.stdout, r"a -> b: latency \(2 ranks\): the same breakpoints "
                         r"\(none\)")
        self.assertRegex(p.stdout, r"0-4M +alpha +0\.300 -> 0\.600 us +x2 .* slower")
        launches = [json.loads(x) for x in h.read(res).splitlines()]
        self.assertEqual(sum(r.get("type") == "launch" for r in launches), 6)

    def test_refusals_before_any_launch(self):
        res = os.path.join(self.d, "m.jsonl")
        other = os.path.join(self.d, "x.jsonl")
        h.write_jsonl(other, [{"type": "x"}])
        for argv, says in (
                (["--measure", res, other, "--config", self.spec("a", 1)], "give no FILE"),
                ([other, "--config", self.spec("a", 1)], "give --measure FILE"),
                ([other, "--mpi", "mpich"], "give --measure FILE"),
                (["--measure", res], "needs --config"),
                (["--measure", res, "--config", self.spec("a", 1), "-o", res],
                 "cannot also be an output"),
                (["--measure", res, "--config", self.spec("a", 1), "--config",
                  self.spec("b", 2), "--smpi", os.path.join(self.d, "s")], "one --config"),
                (["--measure", res, "--config", self.spec("a", 1), "--rounds", "1"],
                 "--rounds: give 2 to 1000"),
                ([], "model needs results")):
            p = self.model(*argv)
            self.assertEqual(p.returncode, 2, (argv, p.stderr))
            self.assertIn(says, p.stderr)
            self.assertFalse(os.path.exists(res), argv)


if __name__ == "__main__":
    unittest.main()
