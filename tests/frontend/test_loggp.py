# SPDX-License-Identifier: BSD-3-Clause
"""LogGP by the PRTT method (model/loggp.py, `mpigauge model --loggp`):
round trips made from planted L, o_s, o_r, g and G give them back exactly
(per size, and g and G per regime of the gap), LogGOPSim's flags in
picoseconds, and bad input said: a burst no slower than one message, too
few sizes, no loggp series, --loggopsim without --loggp or with two sets."""
import json
import os
import tempfile
import unittest

import helpers as h

h.load_frontend()
import mpigauge.model.loggp as LG  # noqa: E402

SIZES = [1 << k for k in range(0, 21, 2)]     # 1 B .. 1 MiB
N = 8
L_US, OS_US, OR_US = 0.30, 0.10, 0.40
# the gap: g + (s-1) G, two regimes (eager, then a copy regime from 4 KiB)
GAPS = ((1, 0.25, 0.0005), (4096, 2.0, 0.0001))
O_PER_BYTE = 0.00002        # o_s grows with the size (LogGOPSim's O)


def gap(s):
    _, g, big_g = max((p for p in GAPS if p[0] <= s), key=lambda p: p[0])
    return g + (s - 1) * big_g


def rounds(s, jitter=1.0, o_r=OR_US):
    """The four variants' figures and extras of a launch at s bytes, exact."""
    o_s = OS_US + O_PER_BYTE * s
    one = 2.0 * (o_s + L_US + o_r) * jitter
    delay = one
    return {"one": one, "burst": one + (N - 1) * gap(s) * jitter,
            "spaced": one + (N - 1) * (o_s * jitter + delay), "delay": delay,
            "o_r": o_r * jitter}


def recs(launches=3):
    return {s: {f"L{i}": rounds(s, 1.0 + 0.001 * (i - 1)) for i in range(launches)}
            for s in SIZES}


class Method(unittest.TestCase):
    def test_planted_parameters_come_back(self):
        m = LG.fit_loggp(recs(), N)
        for r in m.rows:
            self.assertAlmostEqual(r.values["o_r"], OR_US, places=9)
            self.assertAlmostEqual(r.values["o_s"], OS_US + O_PER_BYTE * r.size, places=9)
            self.assertAlmostEqual(r.values["L"], L_US, places=9)
            self.assertAlmostEqual(r.values["gap"], gap(r.size), places=9)
            self.assertLessEqual(r.cis["gap"][0], r.values["gap"])
            self.assertEqual(r.launches, 3)
        self.assertEqual([reg.lo for reg in m.gap_model.regimes], [1, 4096])
        g, big_g = m.g_and_big_g()
        self.assertAlmostEqual(g, 0.25, places=6)
        self.assertAlmostEqual(big_g, 0.0001, places=9)

    def test_loggopsim_flags_in_picoseconds(self):
        m = LG.fit_loggp(recs(), N)
        flags = dict(LG.loggopsim_flags(m, 4096))
        self.assertEqual(flags["L"], 300000)
        self.assertEqual(flags["o"], round((OS_US + O_PER_BYTE + OR_US) / 2 * 1e6))
        self.assertEqual((flags["g"], flags["G"], flags["S"]), (250000, 100, 4096))
        self.assertEqual(flags["O"], 20)

    def test_bad_input_is_said(self):
        flat = {s: {"L0": dict(rounds(s), burst=rounds(s)["one"])} for s in SIZES}
        with self.assertRaisesRegex(LG.FitError, "no slower than one message"):
            LG.fit_loggp(flat, N)
        with self.assertRaisesRegex(LG.FitError, "2 sizes with every variant"):
            LG.fit_loggp({s: v for s, v in recs().items() if s < 8}, N)
        with self.assertRaisesRegex(LG.FitError, "--messages"):
            LG.fit_loggp(recs(), None)
        half = recs()
        for v in half.values():
            del v["L0"]["o_r"]
        self.assertEqual(LG.fit_loggp(half, N).rows[0].launches, 2)


class Command(unittest.TestCase):
    def results(self, d, launches=3, o_r=OR_US):
        names = {"one": "prtt=1,0", "burst": "prtt=n,0", "spaced": "prtt=n,d", "o_r": "prtt=o_r"}
        out = []
        for i in range(launches):
            lid = f"L{i}"
            run = h.run_record("loggp", launch_id=lid, sizes=tuple(SIZES))
            run["options"]["benchmark"] = {"messages": N}
            out.append(run)
            for s in SIZES:
                r = rounds(s, 1.0 + 0.001 * (i - 1), o_r)
                for part, variant in names.items():
                    rec = h.result_record("loggp", s, "us", r[part] if part != "o_r" else
                                          r["one"] + r["delay"], launch_id=lid)
                    rec["variant"] = variant
                    if part == "spaced":
                        rec["extra"] = {"delay_us": r["delay"], "recv_call_us": None}
                    if part == "o_r":
                        rec["extra"] = {"delay_us": r["delay"], "recv_call_us": r["o_r"]}
                    out.append(rec)
        path = os.path.join(d, "loggp.jsonl")
        h.write_jsonl(path, out)
        return path

    def test_text_json_and_loggopsim(self):
        with tempfile.TemporaryDirectory() as d:
            path, sim = self.results(d), os.path.join(d, "params.txt")
            code, out, err = h.cli("model", path, "--loggp", "--loggopsim", sim)
            self.assertEqual(code, 0, err)
            self.assertIn("n = 8): LogGP per size", out)
            self.assertIn("LogGP at 1: L 0.300 us, o_s 0.100 us, o_r 0.400 us, g 0.250 us, "
                          "G 0.100 ns/B", out)
            self.assertIn("    1-1K: g 0.250 us", out)
            lines = h.read(sim).splitlines()
            self.assertTrue(lines[0].startswith("# LogGOPSim parameters of "))
            self.assertRegex(lines[1], r"^-L 300000 -o \d+ -g 250000 -G 100 -O \d+ -S \d+$")
            code, out, err = h.cli("model", path, "--loggp", "--json")
            doc = json.loads(out)
            self.assertEqual(doc["messages"], N)
            self.assertEqual([r["size_bytes"] for r in doc["sizes"]], SIZES)
            self.assertAlmostEqual(doc["sizes"][0]["L_us"], L_US, places=6)

    def test_verdicts_between_sets(self):
        # a receive overhead planted 3 times larger: o_r slower, G the same
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "b"))
            os.mkdir(os.path.join(d, "n"))
            base = self.results(os.path.join(d, "b"), launches=5)
            new = self.results(os.path.join(d, "n"), launches=5, o_r=3 * OR_US)
            code, out, err = h.cli("model", base, new, "--loggp")
            self.assertEqual(code, 0, err)
            tail = out[out.index(" -> "):].splitlines()
            self.assertRegex(tail[0], r"LogGP \(loggp, n = 8 and 8\); new / base, 95% CI:$")
            got = {line[11:15].strip(): line for line in tail[1:]}
            self.assertRegex(got["o_r"], r"0\.400 -> 1\.20 us  x3 \[.*\]  slower$")
            self.assertTrue(got["G"].endswith("same"), got["G"])
            self.assertTrue(got["o_s"].endswith("same"), got["o_s"])
            # compare --model gives the same LogGP lines after its table
            code, out, err = h.cli("compare", base, new, "--model")
            self.assertEqual(code, 0, err)
            self.assertIn("LogGP (loggp, n = 8 and 8); new / base, 95% CI:", out)
            code, out, err = h.cli("compare", base, new, "--model", "--format", "json")
            recs = [json.loads(x) for x in out.splitlines()]
            lg = [r for r in recs if r.get("type") == "model_parameters"]
            self.assertEqual([p["name"] for p in lg[0]["parameters"]],
                             ["L", "o_s", "o_r", "g", "G"])
            self.assertEqual(lg[0]["parameters"][2]["verdict"], "slower")

    def test_refusals(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.results(d)
            code, _, err = h.cli("model", path, "--loggopsim", os.path.join(d, "x"))
            self.assertEqual((code, "give --loggp too" in err), (2, True))
            code, _, err = h.cli("model", path, path, "--loggp", "--loggopsim",
                                 os.path.join(d, "x"))
            self.assertEqual((code, "one set's parameters; 2 given" in err), (2, True))
            self.assertFalse(os.path.exists(os.path.join(d, "x")))
            code, _, err = h.cli("model", path, "--loggp", "--loggopsim", path)
            self.assertEqual(code, 2)
            lat = os.path.join(d, "lat.jsonl")
            h.write_jsonl(lat, [h.run_record("latency", launch_id="A"),
                                h.result_record("latency", 8, "us", 1.0, launch_id="A")])
            code, _, err = h.cli("model", lat, "--loggp")
            self.assertEqual((code, "no loggp series" in err), (2, True))


if __name__ == "__main__":
    unittest.main()
