# SPDX-License-Identifier: BSD-3-Clause
"""Interleaved configurations in one results file: selection by label,
pairing by round, regimes, sentinel explanations, exact verdicts, the JSON
verdict schema against a golden file, and the best-configuration report."""
import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import helpers as h
from helpers import load_frontend

mg = load_frontend()
NOISE = (1.000, 1.004, 0.997, 1.002, 0.998, 1.003, 0.999, 1.001, 0.996, 1.002)


def write(recs):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "r.jsonl")
    h.write_jsonl(p, recs)
    return p


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = mg.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


def rows_of(path, *labels):
    sets = mg.load_inputs([path] + list(labels))
    rows, _, _ = mg.compare_sets(sets[0], sets[1])
    return {(r.key.bench, r.key.size): r for r in rows}


class TestInterleaved(unittest.TestCase):
    def setUp(self):
        # the machine is slow (x1.6) in rounds 4 and 5 for both configurations;
        # in round 8 it changed between the two launches (base fast, slow10 slow)
        regime = [1, 1, 1, 1.6, 1.6, 1, 1, 1, 1, 1]
        base = [0.2 * n * r for n, r in zip(NOISE, regime)]
        same = [0.2 * n * r for n, r in zip(reversed(NOISE), regime)]
        slow = [0.22 * n * r for n, r in zip(NOISE[3:] + NOISE[:3], regime)]
        slow[7] *= 1.6
        probes = {("slow10", 8): 0.35}
        self.path = write(h.interleaved_records({"base": base, "same": same, "slow10": slow},
                                                probes=probes))

    def test_labels_select_configurations(self):
        sets = mg.load_inputs([self.path, "base", "slow10"])
        self.assertEqual([s.label for s in sets], ["base", "slow10"])
        self.assertEqual(len(sets[0].launches), 10)
        self.assertTrue(all(la.config == "slow10" for la in sets[1].launches))
        self.assertEqual([s.label for s in mg.load_inputs([self.path])], ["base", "same", "slow10"])
        with self.assertRaises(mg.UsageError) as cm:
            mg.load_inputs([self.path, "base", "nosuch"])
        self.assertIn("has: base, same, slow10", str(cm.exception))

    def test_a_file_of_configurations_is_not_mixed_into_one_side(self):
        with self.assertRaises(mg.UsageError) as cm:
            mg.load_inputs([self.path, h.os.path.join(h.DATA, "base.jsonl")])
        self.assertIn("has no configuration", str(cm.exception))
        self.assertIn("every word is one of its configuration labels", str(cm.exception))

    def test_a_a_is_same_with_regimes_shared(self):
        for r in rows_of(self.path, "base", "same").values():
            self.assertEqual(r.verdict, "same", r)
            self.assertEqual(r.pairs, 10)
            self.assertEqual([c for _, c in r.regimes["base"]], [8, 2])
            self.assertTrue(r.same_mixture)
            # the launches of the smaller regime are named, on both sides
            self.assertEqual([o.split(":")[0] for o in r.outliers],
                             ["base round 4", "base round 5", "same round 4", "same round 5"])

    def test_a_b_is_slower_and_the_straddling_pair_is_named(self):
        for (bench, size), r in rows_of(self.path, "base", "slow10").items():
            self.assertEqual(r.verdict, "slower", r)
            self.assertEqual(r.pairs, 9)
            self.assertEqual([b.round for b, _ in r.dropped], [8])
            self.assertAlmostEqual(r.ratio, 1.1, delta=0.01)
            self.assertLess(r.p_adjusted, 0.05)
            self.assertTrue(any("slow10 round 8" in o and "probe 0.35 us against 0.1 us" in o
                                for o in r.outliers), r.outliers)

    def test_too_few_rounds_is_unclear_with_rounds_needed(self):
        recs = h.interleaved_records({"a": [0.2, 0.21, 0.19, 0.2], "b": [0.22, 0.23, 0.2, 0.22]})
        r = rows_of(write(recs), "a", "b")[("latency", 8)]
        self.assertEqual(r.verdict, "unclear")
        self.assertIn("4 pairs cannot reach p < 0.05; run at least 6 rounds", r.note)
        self.assertGreaterEqual(r.rounds_needed, 6)
        self.assertEqual(mg.more_rounds(r), r.rounds_needed - 4)
        self.assertIn(f"unclear (~{r.rounds_needed - 4} more rounds)",
                      mg.render.table_rows([r])[0][-1])

    def test_regimes_without_comparable_pairs_are_unstable(self):
        recs = h.interleaved_records({"a": [0.2, 0.32, 0.2, 0.32], "b": [0.32, 0.2, 0.32, 0.2]})
        r = rows_of(write(recs), "a", "b")[("latency", 8)]
        self.assertEqual(r.verdict, "unstable: 2 regimes")
        self.assertEqual(r.pairs, 0)

    def test_error_control_spans_the_series(self):
        # 10 series, each with the same moderate evidence
        sizes = tuple(2 ** k for k in range(10))
        base = [0.2 * n for n in NOISE[:6]]
        new = [0.2 * 1.08 * n for n in NOISE[3:9]]
        p = write(h.interleaved_records({"a": base, "b": new}, sizes=sizes))
        sets = mg.load_inputs([p, "a", "b"])
        for control, want in (("none", "slower"), ("holm", "unclear"), ("bh", "slower")):
            rows, _, _ = mg.compare_sets(sets[0], sets[1], control=control)
            self.assertEqual({r.verdict for r in rows}, {want}, control)
            self.assertAlmostEqual(rows[0].p, 2 / 64)

    def test_json_verdicts_golden(self):
        rc, out, _ = cli("compare", self.path, "base", "slow10", "--format", "json")
        self.assertEqual(rc, 0)
        out = out.replace(self.path, "RESULTS")
        golden = os.path.join(h.GOLDEN, "compare.jsonl")
        if os.environ.get("MG_UPDATE_GOLDEN"):
            with open(golden, "w") as f:
                f.write(out)
        with open(golden) as f:
            self.assertEqual(out, f.read())
        recs = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(recs[0]["type"], "comparison")
        self.assertEqual(recs[0]["summary"], {"slower": 2})
        self.assertEqual({r["verdict"] for r in recs[1:]}, {"slower"})

    def test_fail_on_regression_keeps_its_meaning(self):
        self.assertEqual(cli("compare", self.path, "base", "slow10", "--fail-on-regression")[0], 1)
        self.assertEqual(cli("compare", self.path, "base", "same", "--fail-on-regression")[0], 0)

    def test_best_names_the_best_and_its_ties(self):
        rc, out, _ = cli("best", self.path, "--format", "json")
        self.assertEqual(rc, 0)
        recs = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(len(recs), 2)
        for r in recs:
            self.assertIn(r["best"], ("base", "same"))
            self.assertEqual(r["tied"], ["same" if r["best"] == "base" else "base"])
            self.assertEqual([w["label"] for w in r["worse"]], ["slow10"])

    def test_report_shows_the_sentinels(self):
        out = os.path.join(tempfile.mkdtemp(), "r.html")
        rc, _, _ = cli("report", self.path, "--no-plot", "-o", out)
        self.assertEqual(rc, 0)
        with open(out) as f:
            page = f.read()
        self.assertIn("Noise sentinels", page)
        self.assertIn("launch regimes", page)
        self.assertIn("<td>0.200 x8 / 0.320 x2</td>", page)   # rounds 4 and 5 ran slow
        self.assertIn("slow regime: probe 0.35 us against 0.1 us", page)


if __name__ == "__main__":
    unittest.main()
