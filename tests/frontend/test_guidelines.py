# SPDX-License-Identifier: BSD-3-Clause
"""Self-consistent performance guidelines as verdicts (`mpigauge
guidelines`, frontend/mpigauge/guidelines.py): synthetic launches of
mpigauge_guidelines with known sides, judged with the real statistics:
holds, violated (with the settings that chose the algorithm), unclear,
monotony, and the command's exit codes."""
import json
import os
import random
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
import mpigauge.judge.guidelines as G  # noqa: E402

RULES = {  # rule -> (guideline, {size: (collective, mock-up)})
    "allreduce_as_reduce_then_bcast": ("Allreduce(n) <= Reduce(n) + Bcast(n)",
                                       {64: (1.0, 2.0), 128: (1.5, 2.2)}),
    "reduce_as_allreduce": ("Reduce(n) <= Allreduce(n)", {64: (3.0, 1.0), 128: (2.0, 1.0)}),
    "gather_as_gatherv": ("Gather(n) <= Gatherv(n)", {64: (1.0, 1.0), 128: (1.0, 1.0)}),
}
CVARS = [["coll_tuned_use_dynamic_rules", "false", "bool", "all_eq", "none"],
         ["coll_tuned_reduce_algorithm", "ignore", "int", "all_eq", "none"],
         ["coll_tuned_bcast_algorithm", "ignore", "int", "all_eq", "none"]]


def records(rounds=10, seed=5):
    """One configuration "lib": every rule a launch per round; 0.5% noise,
    except gather_as_gatherv, whose sides wander by 30% each."""
    rng = random.Random(seed)
    recs = [{"type": "session", "session_id": "S", "seed": 1, "configs": [{"label": "lib"}]},
            {"type": "cvars", "digest": "d1", "mpi_library": "Open MPI v4.1.4",
             "fields": ["name", "value", "type", "scope", "binding"], "cvars": CVARS}]
    seq = 0
    for r in range(1, rounds + 1):
        for k, (rule, (says, sizes)) in enumerate(RULES.items()):
            seq += 1
            lid = f"S-{seq:04d}"
            recs.append({"type": "launch", "launch_id": lid, "session_id": "S",
                         "benchmark": "guidelines", "config": "lib", "round": r,
                         "source": f"suite:{k + 1}", "status": "ok"})
            run = h.run_record("guidelines", launch_id=lid, sizes=tuple(sizes))
            run.update(config="lib", round=r, rule=rule, guideline=says,
                       cvars={"state": "read", "digest": "d1"})
            recs.append(run)
            wide = 0.3 if rule == "gather_as_gatherv" else 0.005
            for size, (coll, mock) in sizes.items():
                for side, v in (("collective", coll), ("mockup", mock)):
                    recs.append(h.result_record("guidelines", size, "us",
                                                v * (1 + rng.uniform(-wide, wide)),
                                                launch_id=lid, variant=f"side={side}"))
    return recs


class Verdicts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "g.jsonl")
        h.write_jsonl(self.path, records())

    def tearDown(self):
        self.tmp.cleanup()

    def test_holds_violated_unclear_and_monotony(self):
        cs = G.checks(self.path)
        got = {(c.says, c.size): c.verdict for c in cs}
        self.assertEqual(got, {
            ("Allreduce(n) <= Reduce(n) + Bcast(n)", 64): "holds",
            ("Allreduce(n) <= Reduce(n) + Bcast(n)", 128): "holds",
            ("Reduce(n) <= Allreduce(n)", 64): "violated",
            ("Reduce(n) <= Allreduce(n)", 128): "violated",
            ("Gather(n) <= Gatherv(n)", 64): "unclear",
            ("Gather(n) <= Gatherv(n)", 128): "unclear",
            ("Allreduce(64) <= Allreduce(128)", 64): "holds",
            ("Reduce(64) <= Reduce(128)", 64): "violated",
            ("Gather(64) <= Gather(128)", 64): "unclear"})
        v = [c for c in cs if c.rule == "reduce_as_allreduce" and c.size == 64][0]
        self.assertAlmostEqual(v.ratio, 3.0, delta=0.05)
        self.assertLess(v.ci[0], 3.0)
        self.assertGreater(v.ci[1], 2.9)
        self.assertEqual(v.pairs, 10)
        self.assertEqual(dict(v.cvars), {"coll_tuned_reduce_algorithm": "ignore",
                                         "coll_tuned_use_dynamic_rules": "false"})
        self.assertEqual(G.counts(cs), {"holds": 3, "violated": 3, "unclear": 3})

    def test_too_few_rounds_decide_nothing(self):
        h.write_jsonl(self.path, records(rounds=3))
        self.assertEqual({c.verdict for c in G.checks(self.path)}, {"unclear"})

    def test_report_and_exit_codes(self):
        rc, out, err = h.cli("guidelines", "report", self.path)
        self.assertEqual(rc, 0, err)
        self.assertIn("lib: 9 checks, threshold 5%, alpha 0.05 (Benjamini-Hochberg)", out)
        self.assertIn("  2 ranks: 3 hold, 3 violated, 3 unclear", out)
        self.assertIn("Reduce(n) <= Allreduce(n)", out)
        self.assertIn("(+200%); coll_tuned_reduce_algorithm=ignore", out)
        self.assertTrue(all(len(line) <= 80 for line in out.splitlines()
                            if not line.startswith("    ")), out)
        rc, out, _ = h.cli("guidelines", "report", self.path, "--format", "json",
                           "--fail-on-violation")
        self.assertEqual(rc, 1)
        rows = [json.loads(x) for x in out.splitlines()]
        self.assertEqual(len(rows), 9)
        self.assertEqual({r["verdict"] for r in rows}, {"holds", "violated", "unclear"})

    def test_the_algorithms_to_try_for_a_violation(self):
        import mpigauge.judge.guidelines_cli as GC
        cs = G.checks(self.path)
        got = GC.try_configs(cs, ["lib OMPI_MCA_btl=self,vader"])
        self.assertEqual([(r, n, s) for r, n, s, _ in got], [("reduce_as_allreduce", [2], [64, 128])])
        cfgs = got[0][3]
        self.assertEqual(cfgs[0], "lib OMPI_MCA_btl=self,vader")
        self.assertEqual(len(cfgs), 8)  # the library's choice and coll_tuned's 7 reduce algorithms
        self.assertEqual(cfgs[1], "lib-linear OMPI_MCA_btl=self,vader "
                         "OMPI_MCA_coll_tuned_use_dynamic_rules=1 "
                         "OMPI_MCA_coll_tuned_reduce_algorithm=1")
        self.assertTrue(cfgs[-1].startswith("lib-rabenseifner "))
        # not Open MPI: nothing to force this way
        other = [c._replace(library="MPICH Version: 4.0.2") for c in cs]
        self.assertEqual(GC.try_configs(other, None), [])

    def test_what_is_not_a_guidelines_file(self):
        other = os.path.join(self.tmp.name, "o.jsonl")
        h.write_jsonl(other, h.interleaved_records({"a": [1.0] * 4}))
        rc, out, err = h.cli("guidelines", "report", other)
        self.assertEqual(rc, 2)
        self.assertEqual(out, "")
        self.assertIn("no results of mpigauge_guidelines", err)
        self.assertEqual(len(err.strip().splitlines()), 1)
        rc, _, err = h.cli("guidelines", "run", "-n", "1", "-o", other)
        self.assertEqual(rc, 2)

    def test_the_report_never_replaces_the_results(self):
        before = open(self.path, encoding="utf-8").read()
        # report: its only input
        rc, out, err = h.cli("guidelines", "report", self.path, "--report", self.path)
        self.assertEqual(rc, 2)
        self.assertIn("--report", err)
        self.assertIn("also an input", err)
        self.assertEqual(out, "")
        # the same file through a hard link
        twin = os.path.join(self.tmp.name, "twin.jsonl")
        os.link(self.path, twin)
        rc, _, err = h.cli("guidelines", "report", self.path, "--report", twin)
        self.assertEqual(rc, 2)
        # run: refused before anything is looked for or measured (no build
        # here), whether -o exists (with --force) or not yet
        for out_file, extra in ((self.path, ["--force"]),
                                (os.path.join(self.tmp.name, "new.jsonl"), [])):
            rc, _, err = h.cli("guidelines", "run", "-o", out_file, "--report", out_file,
                               "--bindir", self.tmp.name, *extra)
            self.assertEqual(rc, 2)
            self.assertIn("also an input", err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "new.jsonl")))
        self.assertEqual(open(self.path, encoding="utf-8").read(), before)

    def test_run_options_checked_before_anything_runs(self):
        out = os.path.join(self.tmp.name, "new.jsonl")
        for extra, says in ((["-m", "abc"], "-m 'abc': give sizes"),
                            (["-m", "-8"], "-m '-8': give sizes"),
                            (["-m", "64\nranks=2 latency -m 8"], "give sizes as N, MIN:MAX"),
                            (["--time-budget", "nan"], "--time-budget nan: give seconds above 0"),
                            (["--time-budget", "0"], "--time-budget 0: give seconds"),
                            (["--rounds", "0"], "--rounds 0: give 1 or more"),
                            (["--timeout", "-1"], "--timeout -1: give seconds"),
                            (["-n", "1"], "-n 1: give rank counts of at least 2")):
            rc, _, err = h.cli("guidelines", "run", "-o", out, "--bindir", self.tmp.name, *extra)
            self.assertEqual(rc, 2, extra)
            self.assertIn(says, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertFalse(os.path.exists(out))
        import mpigauge.judge.guidelines_cli as GC
        known = [("a", "A <= B"), ("b", "B <= C")]
        with self.assertRaisesRegex(mg.UsageError, "--rules '': give rule names"):
            GC._pick(known, "")
        self.assertEqual(GC._pick(known, None), ["a", "b"])
        self.assertEqual(GC._pick(known, "b"), ["b"])


if __name__ == "__main__":
    unittest.main()
