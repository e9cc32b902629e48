# SPDX-License-Identifier: BSD-3-Clause
"""`compare FILE a b --by-allocation` (verdict/allocations.py) on made-up
files of four sessions, each an allocation of `run --allocations 4`:
Student's t (exact values), the verdict across allocations (a change in
every allocation is slower; a change in one is not; identical sides with a
slow allocation say nothing and name it), and the refusals."""
import json
import math
import os
import random
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
from mpigauge.core import tdist as stats  # noqa: E402

SIZES = (8, 64, 512, 4096)


def joined(path, level, rounds=6, k=4, seed=1):
    """A file of k sessions (allocations), configurations a and b in each of
    `rounds` rounds; level(alloc, config, size) -> the launch median before
    noise (multiplicative, +-2%)."""
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as f:
        def out(rec):
            f.write(json.dumps(rec) + "\n")
        for g in range(1, k + 1):
            sid = f"s{g}"
            out({"type": "session", "session_id": sid, "configs": [{"label": "a"}, {"label": "b"}],
                 "allocation": {"scheduler": "slurm", "job_id": str(700 + g),
                                "array_task_id": str(g), "nodelist": f"node{g}"}})
            for r in range(1, rounds + 1):
                for c in ("a", "b"):
                    lid = f"{sid}-{r}-{c}"
                    out({"type": "launch", "launch_id": lid, "session_id": sid, "config": c,
                         "round": r, "source": "1", "benchmark": "latency", "status": "ok"})
                    out({"type": "run", "launch_id": lid, "benchmark": "latency", "nranks": 2,
                         "mpi_library": "Fake MPI", "options": {"sizes_bytes": list(SIZES)}})
                    for s in SIZES:
                        v = level(g, c, s) * (1 + rng.uniform(-0.02, 0.02))
                        out({"type": "result", "launch_id": lid, "benchmark": "latency",
                             "size_bytes": s, "unit": "us", "median": v})


class ByAllocation(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.path = os.path.join(self.tmp.name, "j.jsonl")

    def compare(self, *extra):
        rc, out, err = h.cli("compare", self.path, "a", "b", "--by-allocation", "--format",
                             "json", *extra)
        recs = [json.loads(x) for x in out.splitlines() if x.strip()]
        return rc, recs, err

    def series(self, recs):
        return [r for r in recs if r.get("type") == "series"]

    def test_student_t(self):
        self.assertAlmostEqual(stats.t_quantile(0.975, 3), 3.182446305, places=6)
        self.assertAlmostEqual(stats.t_quantile(0.975, 1), 12.70620474, places=5)
        self.assertAlmostEqual(stats.t_quantile(0.95, 3), 2.353363435, places=6)
        self.assertAlmostEqual(stats.t_cdf(2.0, 10), 0.963305983, places=6)
        self.assertEqual(stats.t_cdf(0.0, 5), 0.5)
        self.assertAlmostEqual(stats.beta_regularized(2.0, 3.0, 0.4), 0.5248, places=10)

    def test_a_change_in_every_allocation_is_slower(self):
        spread = {1: 1.0, 2: 1.04, 3: 0.97, 4: 1.02}   # no allocation 5% off the others
        joined(self.path, lambda g, c, s: (1.3 if c == "b" else 1.0) * spread[g])
        rc, recs, err = self.compare()
        self.assertEqual(rc, 0, err)
        ser = self.series(recs)
        self.assertEqual(len(ser), 4)
        for r in ser:
            self.assertEqual(r["verdict"], "slower", r)
            self.assertAlmostEqual(r["ratio"], 1.3, delta=0.02)
        lead = recs[0]
        self.assertEqual(lead["type"], "allocations")
        self.assertEqual([a["label"] for a in lead["allocations"]],
                         [f"{g} job {700 + g} task {g}, nodes node{g}" for g in (1, 2, 3, 4)])
        self.assertEqual(lead["slow"], [])

    def test_a_change_in_half_the_allocations_is_not_a_verdict(self):
        # b is 1.5x slower in allocations 2 and 4 only: the spread between the
        # four allocations leaves it unclear, with every pair kept; pooled,
        # the 1.5x launches are taken for another launch regime and their
        # pairs left out, and what is left is the same
        joined(self.path, lambda g, c, s: 1.5 if (c == "b" and g % 2 == 0) else 1.0)
        rc, recs, _ = self.compare()
        ser = self.series(recs)
        self.assertEqual({r["verdict"] for r in ser}, {"unclear"})
        for r in ser:
            self.assertLess(r["ci_low"], 1.0)
        rc, out, _ = h.cli("compare", self.path, "a", "b", "--format", "json")
        pooled = [json.loads(x) for x in out.splitlines() if x.strip()]
        self.assertEqual({r["pairs"] for r in ser}, {24})
        pooled = [r for r in pooled if r["type"] == "series"]
        self.assertEqual({(r["verdict"], len(r["pairs_dropped"])) for r in pooled}, {("same", 12)})

    def test_identical_sides_with_a_slow_allocation_name_it(self):
        joined(self.path, lambda g, c, s: 1.4 if g == 3 else 1.0)
        rc, recs, _ = self.compare()
        self.assertTrue(all(r["verdict"] in ("same", "unclear") for r in self.series(recs)))
        lead = recs[0]
        self.assertEqual([a["label"] for a in lead["slow"]], ["3 job 703 task 3, nodes node3"])
        self.assertEqual(lead["series"], 4)
        self.assertAlmostEqual(lead["slow"][0]["factor"], 1.4, delta=0.03)
        rc, out, _ = h.cli("compare", self.path, "a", "b", "--by-allocation")
        self.assertRegex(out, r"slow allocation: 3 job 703 task 3, nodes node3: the worst in 4 "
                              r"of 4 series, x1\.[34]\d of the others \(median\)")
        self.assertIn("Student's t over the allocations", out)

    def test_one_allocation_is_too_few_and_files_are_refused(self):
        joined(self.path, lambda g, c, s: 1.0, k=1)
        rc, recs, _ = self.compare()
        ser = self.series(recs)
        self.assertTrue(all(r["verdict"] == "unclear" for r in ser))
        self.assertIn("1 allocation with pairs: at least 2 are needed", ser[0]["note"])
        # two files of plain runs (no sessions): no allocations to test over
        plain = []
        for name in ("p.jsonl", "q.jsonl"):
            plain.append(os.path.join(self.tmp.name, name))
            with open(self.path) as f, open(plain[-1], "w") as g:
                g.writelines(x for x in f if '"type": "run"' in x or '"type": "result"' in x)
        rc, _, err = h.cli("compare", plain[0], plain[1], "--by-allocation")
        self.assertEqual(rc, 2)
        self.assertIn("--by-allocation: configurations of one file", err)
        self.assertTrue(math.isfinite(ser[0]["ratio"]))


class ScreenSlow(unittest.TestCase):
    """--screen-slow: the allocation named slow screened on its own nodes
    (a fake front-end stands for `mpigauge screen run`: it records its
    arguments and says what a screen says)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        d = self.tmp.name
        self.path = os.path.join(d, "j.jsonl")
        self.build = os.path.join(d, "build")
        os.makedirs(os.path.join(self.build, "pt2pt"))
        for name in ("pt2pt/mpigauge_latency", "pt2pt/mpigauge_screen"):
            with open(os.path.join(self.build, name), "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(os.path.join(self.build, name), 0o755)
        self.fake = os.path.join(d, "fake-mpigauge")
        self.argv = os.path.join(d, "argv")
        with open(self.fake, "w") as f:
            f.write(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {self.argv}\n"
                    "echo 'slow node: node3 (its pairs at 0.4x the others)'\nexit 3\n")
        os.chmod(self.fake, 0o755)
        import mpigauge.measure.sbatch as sb
        orig = sb.frontend_command
        sb.frontend_command = lambda: [self.fake]
        self.addCleanup(setattr, sb, "frontend_command", orig)
        joined(self.path, lambda g, c, s: 1.4 if g == 3 else 1.0)
        prog = os.path.join(self.build, "pt2pt", "mpigauge_latency")
        recs = [json.loads(x) for x in h.read(self.path).splitlines()]
        for r in recs:
            if r["type"] == "session":
                r["allocation"]["num_nodes"] = "1"
            if r["type"] == "launch":
                r["program"] = prog
        h.write_jsonl(self.path, recs)

    def test_the_slow_allocation_is_screened_on_its_nodes(self):
        out = os.path.join(self.tmp.name, "screen.jsonl")
        rc, text, err = h.cli("compare", self.path, "a", "b", "--by-allocation", "--screen-slow",
                              out, "--screen-option=--expect-bw=1000")
        self.assertEqual(rc, 0, err)
        with open(self.argv) as f:
            argv = f.read().split("\n")[:-1]
        self.assertEqual(argv, ["screen", "run", "-n", "1", "--launcher",
                                "srun -w node3 -N 1 --ntasks-per-node=1", "--bindir", self.build,
                                "-o", out, "--", "--expect-bw=1000"])
        self.assertIn(f"screen of allocation 3 job 703 task 3, nodes node3: something named "
                      f"({out})\n  slow node: node3 (its pairs at 0.4x the others)\n", text)
        rc, text, err = h.cli("compare", self.path, "a", "b", "--by-allocation", "--screen-slow",
                              os.path.join(self.tmp.name, "s2.jsonl"), "--format", "json")
        rec = [json.loads(x) for x in text.splitlines() if '"allocation_screens"' in x][0]
        self.assertEqual([(s["session_id"], s["exit_code"]) for s in rec["screens"]], [("s3", 3)])

    def test_refusals_and_nothing_named(self):
        out = os.path.join(self.tmp.name, "screen.jsonl")
        for extra, msg in ((["--screen-slow", out], "give --by-allocation"),
                           (["--by-allocation", "--screen-option=-x"], "give --screen-slow FILE"),
                           (["--by-allocation", "--screen-slow", self.path], "exists; the screen")):
            rc, _, err = h.cli("compare", self.path, "a", "b", *extra)
            self.assertEqual(rc, 2, extra)
            self.assertIn(msg, err)
        joined(self.path, lambda g, c, s: 1.0)
        rc, text, err = h.cli("compare", self.path, "a", "b", "--by-allocation", "--screen-slow",
                              out)
        self.assertIn("--screen-slow: no allocation named slow, nothing screened", text)
        self.assertFalse(os.path.exists(self.argv))


if __name__ == "__main__":
    unittest.main()
