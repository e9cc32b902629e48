# SPDX-License-Identifier: BSD-3-Clause
"""Release series by bisection (`mpigauge series`, frontend/mpigauge/
series.py): planted changes in synthetic interleaved runs, compared with the
real statistics, are pinned to the release that introduced them; what is
measured, the report, and the series' folder."""
import json
import os
import random
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
import mpigauge.releases.series as S  # noqa: E402
import mpigauge.releases.series_folder as SC  # noqa: E402
import mpigauge.releases.series_report as SR  # noqa: E402

SETTINGS = {"threshold": 0.05, "alpha": 0.05, "error_control": "bh"}


def fake_measure(d, level, rounds=10, seed=3, notes=None):
    """measure() of a series whose release i has the figure level(i) (latency,
    us), with 0.5% noise per launch: each step one interleaved file."""
    compare = SC.comparer(SETTINGS, {} if notes is None else notes)
    calls = []

    def measure(step, indices, pairs, again=False):
        path = os.path.join(d, f"step-{step}.jsonl")
        if again:       # a step measured before: compared again from its file
            calls.append(("again", step))
        else:
            rng = random.Random(seed * 1000 + step)
            values = {f"r{i}": [level(i) * (1 + rng.uniform(-0.005, 0.005))
                                for _ in range(rounds)] for i in indices}
            h.write_jsonl(path, h.interleaved_records(values))
            calls.append(list(indices))
        got = compare(path, [(f"r{a}", f"r{b}") for a, b in pairs], step)
        return {(a, b): got[(f"r{a}", f"r{b}")] for a, b in pairs}
    return measure, calls


def pinned(w):
    return sorted({(f.lo, f.hi, f.kind, f.row.verdict) for f in w.findings})


class Walk(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_probes(self):
        self.assertEqual(S.probes(9, 4), [0, 4, 8])
        self.assertEqual(S.probes(10, 4), [0, 4, 8, 9])
        self.assertEqual(S.probes(3, 4), [0, 2])
        self.assertEqual(S.probes(4, 1), [0, 1, 2, 3])
        self.assertEqual(S.probes(1, 4), [0])
        self.assertEqual([S.auto_stride(n) for n in (2, 6, 7, 11, 12, 30)], [1, 1, 2, 2, 3, 6])
        self.assertEqual(S.probes(30, S.auto_stride(30)), [0, 6, 12, 18, 24, 29])

    def test_one_release_alone_slower_is_named_as_such(self):
        # the planted copy: release 2 of 6 slowed, the default stride measures every one
        notes = {}
        m, calls = fake_measure(self.d, lambda i: 1.3 if i == 2 else 1.0, notes=notes)
        w = S.walk(6, m)
        # the releases around it measured against each other before it is said undone
        # from the first step's run, where both were measured: nothing launched
        self.assertEqual(calls, [[0, 1, 2, 3, 4, 5], ("again", 1)])
        self.assertEqual((len(w.steps), w.pairs[0][-1], w.again), (1, (1, 3), {(1, 3): 1}))
        self.assertEqual({r.verdict for r in w.returns[(1, 3)].values()}, {"same"})
        rel = [{"name": f"c{i}"} for i in range(6)]
        cs = SR.changes(w, rel)
        self.assertEqual([(c["kind"], c.get("release"), c["direction"], c["sizes"]) for c in cs],
                         [("only", "c2", "slower", [8, 1024])])
        text = SR.report_text({"settings": dict(SETTINGS, suite="s", rounds=10)}, rel, w, notes)
        self.assertIn("one release alone differs", text)
        self.assertRegex(text, r"  latency 8-1K: only c2: slower x1.3")
        self.assertIn("    c1 -> c3 (the ends of a reversed change, compared again from this "
                      "run): 0 series changed, 2 not beyond", text)
        self.assertNotIn("came and went within", text)

    def test_a_partial_return_is_two_changes(self):
        # 2: x1.6, 3: back to x1.3 of 1 (put_bw of MPICH 4.2.3 -> 4.3.2)
        notes = {}
        m, calls = fake_measure(self.d, lambda i: 1.0 if i < 2 else 1.6 if i == 2 else 1.3,
                                notes=notes)
        w = S.walk(5, m)
        self.assertEqual(calls, [[0, 1, 2, 3, 4], ("again", 1)])
        rel = [{"name": f"c{i}"} for i in range(5)]
        cs = SR.changes(w, rel)
        self.assertEqual([(c["kind"], c["from"], c["to"], c["direction"]) for c in cs],
                         [("step", "c1", "c2", "slower"), ("step", "c2", "c3", "faster")])
        self.assertEqual(cs[1]["return"]["verdicts"], ["slower", "slower"])
        text = SR.report_text({"settings": dict(SETTINGS, suite="s", rounds=10)}, rel, w, notes)
        self.assertNotIn("one release alone differs", text)
        self.assertRegex(text, r"a partial return: c1 -> c3 still slower x1\.3")
        self.assertIn("c1 -> c3 (the ends of a reversed change", text)
        self.assertNotIn("step 2", text)

    def test_ends_never_measured_together_get_a_run_of_their_own(self):
        # 8 releases, stride 3: 6 alone slower; 6 -> 7 is pinned in the first
        # step, 5 -> 6 by bisection of 3-6, and 5 and 7 share no step
        m, calls = fake_measure(self.d, lambda i: 1.3 if i == 6 else 1.0)
        w = S.walk(8, m, stride=3)
        self.assertEqual(calls, [[0, 3, 6, 7], [3, 4, 6], [4, 5, 6], [5, 7]])
        self.assertEqual((w.pairs[-1], w.again), ([(5, 7)], {}))
        cs = SR.changes(w, [{"name": f"c{i}"} for i in range(8)])
        self.assertEqual([(c["kind"], c.get("release")) for c in cs], [("only", "c6")])

    def test_an_undecided_return_is_not_called_undone(self):
        # the ends of the reversed change measured with noise that leaves them
        # undecided: two steps, and the report says why not one
        m, _ = fake_measure(self.d, lambda i: 1.3 if i == 2 else 1.0)
        w = S.walk(5, m)
        for key, row in w.returns[(1, 3)].items():
            row.verdict = "unclear"
        rel = [{"name": f"c{i}"} for i in range(5)]
        cs = SR.changes(w, rel)
        self.assertEqual([(c["kind"], c["from"], c["to"]) for c in cs],
                         [("step", "c1", "c2"), ("step", "c2", "c3")])
        self.assertEqual(cs[1]["return_undecided"], {"from": "c1", "sizes": [8, 1024]})
        text = SR.report_text({"settings": dict(SETTINGS, suite="s", rounds=10)}, rel, w, {})
        self.assertIn("    undone whole or not: undecided at 8-1K (c1 against c3, measured "
                      "together): two changes until more rounds decide it", text)
        self.assertNotIn("one release alone differs", text)

    def test_a_range_of_sizes_never_hides_a_gap(self):
        axis = [2, 4, 8, 16, 32, 256, 16384]
        self.assertEqual(SR.size_range([4, 8, 16], axis), "4-16")
        self.assertEqual(SR.size_range([2, 4, 8, 32, 256, 16384], axis), "2, 4, 8, 32, 256, 16K")
        self.assertEqual(SR.size_range([256, 16384], axis), "256-16K")
        self.assertEqual(SR.size_range([8], axis), "8")
        self.assertEqual(SR.size_range([8, 32], None), "8, 32")     # no axis: no range

    def test_one_change_is_pinned_by_bisection(self):
        m, calls = fake_measure(self.d, lambda i: 1.0 if i < 5 else 1.3)
        w = S.walk(9, m, stride=4)
        self.assertEqual(pinned(w), [(4, 5, "step", "slower")])
        self.assertEqual(calls, [[0, 4, 8], [4, 6, 8], [4, 5, 6]])
        self.assertEqual(w.unmeasured(), [1, 2, 3, 7])
        self.assertEqual({f.row.key.size for f in w.findings}, {8, 1024})

    def test_two_changes_and_one_that_comes_and_goes(self):
        # 2: 20% slower; 7: 40% faster than before
        m, _ = fake_measure(self.d, lambda i: (1.0 if i < 2 else 1.2) * (1.0 if i < 7 else 0.6))
        self.assertEqual(pinned(S.walk(9, m, stride=4)),
                         [(1, 2, "step", "slower"), (6, 7, "step", "faster")])
        # 3 to 5 slower, then back: the ends agree, the probe between them does not
        m, _ = fake_measure(self.d, lambda i: 1.3 if 3 <= i <= 5 else 1.0)
        self.assertEqual(pinned(S.walk(9, m, stride=4)),
                         [(2, 3, "step", "slower"), (5, 6, "step", "faster")])
        # only release 1 slower: within the first stride, not seen; with
        # --stride 1 it is
        m, _ = fake_measure(self.d, lambda i: 1.3 if i == 1 else 1.0)
        self.assertEqual(pinned(S.walk(9, m, stride=4)), [])
        self.assertEqual(pinned(S.walk(9, m, stride=1)),
                         [(0, 1, "step", "slower"), (1, 2, "step", "faster")])

    def test_identical_releases_and_a_gradual_change(self):
        m, calls = fake_measure(self.d, lambda i: 1.0)
        w = S.walk(6, m, stride=4)
        self.assertEqual((pinned(w), calls), ([], [[0, 4, 5]]))
        # what each pair decided, in the report: here every series "same"
        self.assertEqual(w.decided, {(1, 0, 4): (0, 2, 0), (1, 4, 5): (0, 2, 0)})
        text = SR.report_text({"settings": dict(SETTINGS, suite="s", rounds=10, stride=4)},
                              [{"name": f"r{i}"} for i in range(6)], w, {})
        self.assertIn("    r0 -> r4: 0 series changed, 2 not beyond the threshold, 0 undecided",
                      text)
        self.assertIn("no change beyond 5% named between the releases measured together\n", text)
        w.decided[(1, 0, 4)] = (0, 1, 1)
        self.assertIn("1 series of the pairs compared were undecided (more --rounds",
                      SR.report_text({"settings": dict(SETTINGS, stride=4)},
                                     [{"name": f"r{i}"} for i in range(6)], w, {}))
        # 4% a release: the ends differ by 8%, neither step by the threshold
        m, _ = fake_measure(self.d, lambda i: 1.04 ** i)
        w = S.walk(3, m, stride=4)
        self.assertEqual(pinned(w), [(0, 2, "gradual", "slower")])

    def test_what_the_halves_do_not_show_is_gradual_or_undecided(self):
        from types import SimpleNamespace as R
        for left, right, kind in (("same", "slightly slower", "gradual"),
                                  ("unclear", "same", "undecided"),
                                  ("unstable: 3 regimes", "same", "undecided")):
            script = {1: {(0, 2): [R(key="k", verdict="slower")]},
                      2: {(0, 1): [R(key="k", verdict=left)], (1, 2): [R(key="k", verdict=right)]}}
            w = S.walk(3, lambda step, idx, pairs: script[step], stride=2)
            self.assertEqual([(f.lo, f.hi, f.kind) for f in w.findings], [(0, 2, kind)], left)
        # pinned inside the interval after all: only the step is kept
        script = {1: {(0, 4): [R(key="k", verdict="slower")]},
                  2: {(0, 2): [R(key="k", verdict="unclear"), R(key="j", verdict="faster")],
                      (2, 4): [R(key="k", verdict="same")]},
                  3: {(0, 1): [R(key="k", verdict="slower"), R(key="j", verdict="faster")],
                      (1, 2): [R(key="k", verdict="same"), R(key="j", verdict="same")]}}
        w = S.walk(5, lambda step, idx, pairs: script[step], stride=4)
        self.assertEqual(sorted((f.lo, f.hi, f.kind, f.row.key) for f in w.findings),
                         [(0, 1, "step", "j"), (0, 1, "step", "k")])

    def test_report_names_the_release_and_the_size_range(self):
        notes = {}
        m, _ = fake_measure(self.d, lambda i: 1.0 if i < 3 else 1.25, notes=notes)
        w = S.walk(5, m, stride=4)
        rel = [{"name": f"r{i}"} for i in range(5)]
        state = {"settings": dict(SETTINGS, suite="quick", rounds=10, stride=4),
                 "steps": [{"step": 1, "launches": 20, "seconds": 3.0}], "skipped": [["r9", "why"]]}
        text = SR.report_text(state, rel, w, notes)
        self.assertIn("changes, each with the release that introduced it (x: ", text)
        self.assertRegex(text, r"  latency 8-1K: r2 -> r3: slower x1.25, p 0.0\d\d \(2 sizes, "
                         r"step 3; at 1K 2.\d\d -> 2.\d\d us\)")
        self.assertIn("measured 4 of 5 releases in 3 steps (20 launches, 3 s)", text)
        self.assertIn("not measured (no change named between the releases measured around them): r1", text)
        self.assertIn("skipped r9: why", text)
        data = SR.report_json(state, rel, w, notes)
        self.assertEqual([(c["from"], c["to"], c["sizes"], c["direction"]) for c in data["changes"]],
                         [("r2", "r3", [8, 1024], "slower")])
        self.assertEqual(data["measured"], ["r0", "r2", "r3", "r4"])
        json.dumps(data)
        self.assertEqual(SR.size_range([8]), "8")
        self.assertEqual(SR.size_range([1024, 4096, 1 << 20], [8, 1024, 4096, 1 << 20]), "1K-1M")


def opened(*args):
    """A series' folder as `series run` opens it, its lock let go at once
    (a test opens one folder many times in one process)."""
    f = SC.Folder(*args)
    f.close()
    return f


class Folder(unittest.TestCase):
    def test_resumed_refused_or_started_over(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rel = [{"name": "a"}, {"name": "b"}]
            f = opened(out, {"rounds": 2}, rel, [], False)
            f.record({"step": 1, "labels": ["a", "b"], "file": "step-01.jsonl", "done": True})
            with open(os.path.join(out, "step-01.jsonl"), "w") as fh:
                fh.write("{}\n")
            again = opened(out, {"rounds": 2}, rel, [], False)
            self.assertIsNotNone(SC.find_step(again.state, 1, ["a", "b"]))
            self.assertIsNone(SC.find_step(again.state, 1, ["a", "c"]))
            # the seed not given: drawn once, kept in the folder, the same on resuming
            self.assertIsInstance(f.state["settings"]["seed"], int)
            self.assertEqual(again.state["settings"]["seed"], f.state["settings"]["seed"])
            with self.assertRaisesRegex(mg.UsageError, r"another series \(rounds 2 there, 3 now\)"):
                opened(out, {"rounds": 3}, rel, [], False)
            with self.assertRaisesRegex(mg.UsageError, r"releases only there: b; releases only now: "
                                        r"c; releases set up differently now \(installation, "
                                        r"build or --env\): a\)"):
                opened(out, {"rounds": 2}, [{"name": "a", "bindir": "x"}, {"name": "c"}], [],
                       False)
            opened(out, {"rounds": 3}, rel, [], True)
            self.assertFalse(os.path.exists(os.path.join(out, "step-01.jsonl")))
            # --force starts the same series over too (its steps forgotten, their files gone)
            f = opened(out, {"rounds": 3}, rel, [], False)
            f.record({"step": 1, "labels": ["a", "b"], "file": "step-01.jsonl", "done": True})
            with open(os.path.join(out, "step-01.jsonl"), "w") as fh:
                fh.write("{}\n")
            self.assertEqual(opened(out, {"rounds": 3}, rel, [], True).state["steps"], [])
            self.assertFalse(os.path.exists(os.path.join(out, "step-01.jsonl")))
            # a folder walked before --max-rounds: its rounds were fixed
            old = os.path.join(d, "old")
            opened(old, {"rounds": 2}, rel, [], False)
            self.assertEqual(opened(old, {"rounds": 2, "max_rounds": 2}, rel, [], False)
                             .state["settings"]["max_rounds"], 2)
            with self.assertRaisesRegex(mg.UsageError, r"max_rounds 2 there, 4 now"):
                opened(old, {"rounds": 2, "max_rounds": 4}, rel, [], False)
            other = os.path.join(d, "other")
            os.mkdir(other)
            with open(os.path.join(other, "x"), "w") as fh:
                fh.write("mine\n")
            with self.assertRaisesRegex(mg.UsageError, "not a series'"):
                opened(other, {}, rel, [], False)
            with open(os.path.join(out, "series.json"), "w") as fh:
                fh.write("{")
            with self.assertRaisesRegex(mg.UsageError, "not a series' state"):
                SC.load_state(out)

    def test_secrets_are_never_kept_and_resuming_still_works(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            env = {"AWS_SECRET_ACCESS_KEY": "hunter2", "A": "1",
                   "OMPI_MCA_mca_base_env_list": "AWS_SECRET_ACCESS_KEY=hunter3"}
            rel = [{"name": "a", "env": dict(env)}, {"name": "b", "env": {}}]
            settings = {"rounds": 2, "args": ["-x", "MY_TOKEN=hunter4"]}
            f = SC.Folder(out, settings, rel, [], False)
            f.record({"step": 1, "labels": ["a", "b"], "file": "step-01.jsonl", "done": True})
            f.close()
            text = h.read(os.path.join(out, "series.json"))
            for secret in ("hunter2", "hunter3", "hunter4"):
                self.assertNotIn(secret, text)
            st = json.loads(text)
            self.assertEqual(st["releases"][0]["env"], {"AWS_SECRET_ACCESS_KEY": "<redacted>",
                                                        "A": "1", "OMPI_MCA_mca_base_env_list":
                                                        "<redacted>"})
            self.assertEqual(rel[0]["env"], env)       # the walk itself runs with the value
            again = SC.Folder(out, settings, rel, [], False)
            self.assertIsNotNone(SC.find_step(again.state, 1, ["a", "b"]))
            again.close()
            with self.assertRaisesRegex(mg.UsageError,
                                        r"set up differently now \(installation, build or "
                                        r"--env\): a\)"):
                SC.Folder(out, settings, [dict(rel[0], env=dict(env, A="2")), rel[1]], [], False)

    def test_one_walk_at_a_time_in_a_folder(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rel = [{"name": "a"}, {"name": "b"}]
            first = SC.Folder(out, {"rounds": 2}, rel, [], False)
            with self.assertRaisesRegex(mg.UsageError, f"another `mpigauge series run` "
                                        fr"\(process {os.getpid()}\) is walking this series"):
                SC.Folder(out, {"rounds": 2}, rel, [], False)
            first.close()
            SC.Folder(out, {"rounds": 2}, rel, [], False).close()

    def test_a_damaged_state_is_one_line(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rel = [{"name": "a", "release": "1"}, {"name": "b", "release": "2"}]
            SC.Folder(out, {"rounds": 2, "threshold": 0.05}, rel, [], False).close()
            good = json.loads(h.read(os.path.join(out, "series.json")))
            cases = [
                (lambda st: st["settings"].update(threshold="0.05"),
                 "settings: threshold is not a number"),
                (lambda st: st["settings"].update(alpha="x"), "settings: alpha is not a number"),
                (lambda st: st["settings"].update(stride="2"), "settings: stride is not an integer"),
                (lambda st: st["settings"].update(threshold=5), "threshold and alpha between 0 and 1"),
                (lambda st: st.update(releases=[]), "fewer than two releases"),
                (lambda st: st["releases"][1].update(env=[1]), "release 2: env is not an object"),
                (lambda st: st.update(steps=[{"step": 1, "labels": ["a", "b"], "file": 7}]),
                 "step 1: file is not a string"),
                (lambda st: st.update(steps=[{"step": 1, "labels": ["a", "zz"]}]),
                 "step 1: a release that is not the series'"),
                (lambda st: st.update(settings=[]), "settings: not an object"),
            ]
            for change, says in cases:
                st = json.loads(json.dumps(good))
                change(st)
                with open(os.path.join(out, "series.json"), "w") as fh:
                    json.dump(st, fh)
                rc, _, err = h.cli("series", "report", out)
                self.assertEqual(rc, 2, says)
                self.assertIn(says, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
            with open(os.path.join(out, "series.json"), "w") as fh:
                fh.write("[" * 100000 + "]" * 100000)
            rc, _, err = h.cli("series", "report", out)
            self.assertEqual(rc, 2)
            self.assertIn("not a series' state (not JSON)", err)


class FolderCommands(unittest.TestCase):
    """series report and series history on a folder written by hand (the
    state and one step's interleaved records), then the dashboard."""

    def test_report_history_and_dashboard_marks(self):
        import mpigauge.history.dashboard as D
        import mpigauge.history.history as H
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rel = [{"name": n, "release": v} for n, v in (("r0", "1"), ("r1", "2"), ("r2", "3"))]
            f = opened(out, dict(SETTINGS, suite="quick", rounds=8, stride=None), rel, [], False)
            rng = random.Random(5)
            values = {n: [lv * (1 + rng.uniform(-0.004, 0.004)) for _ in range(8)]
                      for n, lv in (("r0", 1.0), ("r1", 1.0), ("r2", 1.3))}
            h.write_jsonl(os.path.join(out, "step-01.jsonl"), h.interleaved_records(values))
            f.record({"step": 1, "labels": ["r0", "r1", "r2"], "file": "step-01.jsonl",
                      "done": True, "launches": 24, "seconds": 5})
            rc, text, err = h.cli("series", "report", out)
            self.assertEqual(rc, 0, err)
            self.assertRegex(text, r"latency 8-1K: r1 -> r2: slower x1.3")
            rc, js, _ = h.cli("series", "report", out, "--format", "json")
            self.assertEqual(json.loads(js)["measured"], ["r0", "r1", "r2"])
            # a profile's predicted change for each pair the walk compared
            prof = os.path.join(d, "p.jsonl")
            rank = {"type": "profile_rank", "nranks": 2, "mpi_library": "x", "run_s": 1.0,
                    "calls": [{"call": "MPI_Send", "size_class": 8, "comm_size": 2, "count": 100,
                               "bytes": 800, "seconds": 0.001}]}
            h.write_jsonl(prof, [{"type": "profile", "name": "app", "family": "openmpi",
                                  "nranks": 2}, dict(rank, rank=0), dict(rank, rank=1)])
            rc, text, err = h.cli("series", "report", out, "--profile", prof)
            self.assertEqual(rc, 0, err)
            lead = text.splitlines()[:3]
            self.assertRegex(lead[0], r"^step 1 r0 -> r1: profile app: MPI time .*\): same")
            self.assertRegex(lead[1], r"^step 1 r1 -> r2: profile app: MPI time .*\(x1\.30, "
                             r"95% CI 1\.2\d-1\.3\d\): slower; most of it MPI_Send 8 ")
            self.assertEqual(lead[2], "")
            db = os.path.join(d, "h.sqlite")
            rc, msg, err = h.cli("series", "history", out, "--db", db)
            self.assertEqual(rc, 0, err)
            self.assertIn("2 series marked", msg)
            hist = H.History(db)
            try:
                self.assertEqual([t[0] for t in hist.tag_summary()], ["r0", "r1", "r2"])
                marks = hist.marks()
                self.assertEqual(sorted(k[4] for k in marks), [8, 1024])
                self.assertTrue(all(k[0] == "r2" and v[0] == "step" and
                                    v[1].startswith("slower x1.3 from r1") for k, v in marks.items()))
                site = D.build(hist, 0.05, 0.05, "t")
            finally:
                hist.close()
            self.assertIn("changes/" + D.slug("r2") + ".html", site)
            self.assertIn("changed in r2", site["pt2pt.html"])
            self.assertEqual(site["pt2pt.html"].count('class="mark"'), 2)
            self.assertIn("What changed, release by release", site["index.html"])
            # again: the tags are there, left as they are; the marks the same
            rc, msg, _ = h.cli("series", "history", out, "--db", db)
            self.assertEqual(rc, 0)
            self.assertIn("r0 is in the history already", msg)
            # a folder whose step is missing: said, exit 2
            os.unlink(os.path.join(out, "step-01.jsonl"))
            with open(os.path.join(out, "series.json")) as fh:
                st = json.load(fh)
            st["steps"] = []
            with open(os.path.join(out, "series.json"), "w") as fh:
                json.dump(st, fh)
            rc, _, err = h.cli("series", "report", out)
            self.assertEqual(rc, 2)
            self.assertIn("the series is not complete (step 1 was not measured)", err)


class ModelAlongSeries(unittest.TestCase):
    def test_the_release_that_changed_a_parameter_is_named(self):
        # r2 is 1.3 times slower at every size: its alpha (and bandwidth)
        # change, named as r2's; r0 -> r1 changes no parameter
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rel = [{"name": n, "release": v} for n, v in (("r0", "1"), ("r1", "2"), ("r2", "3"))]
            f = opened(out, dict(SETTINGS, suite="quick", rounds=8, stride=None), rel, [], False)
            rng = random.Random(7)
            values = {n: [lv * (1 + rng.uniform(-0.004, 0.004)) for _ in range(8)]
                      for n, lv in (("r0", 1.0), ("r1", 1.0), ("r2", 1.3))}
            h.write_jsonl(os.path.join(out, "step-01.jsonl"), h.interleaved_records(
                values, sizes=(8, 1024, 65536, 1048576)))
            f.record({"step": 1, "labels": ["r0", "r1", "r2"], "file": "step-01.jsonl",
                      "done": True, "launches": 24, "seconds": 5})
            rc, text, err = h.cli("series", "report", out, "--model")
            self.assertEqual(rc, 0, err)
            lines = text.splitlines()
            self.assertEqual(lines[0], "model parameters along the series (mpigauge model; "
                             "doc/models.md):")
            self.assertRegex(lines[1], r"^step 1 r0 -> r1: no parameter changed \(\d+ compared")
            self.assertRegex(lines[2], r"^step 1 r1 -> r2: r2 changed .*alpha slower")
            self.assertIn("latency (2 ranks)", lines[3])
            rc, plain, _ = h.cli("series", "report", out)
            self.assertNotIn("model parameters", plain)


class BadInput(unittest.TestCase):
    def test_one_message_exit_2_nothing_made(self):
        with tempfile.TemporaryDirectory() as d:
            cache = os.path.join(d, "cache")
            os.makedirs(cache)
            with open(os.path.join(cache, "catalogue.json"), "w") as f:
                json.dump({"schema": 1, "installations": [
                    {"name": "m1", "implementation": "mpich", "release": "4.1.3", "prefix": "/m1"},
                    {"name": "m2", "implementation": "mpich", "release": "4.2.3", "prefix": "/m2"}]}, f)
            os.environ["MPIGAUGE_MPI_CACHE"] = cache
            afile = os.path.join(d, "a-file")
            with open(afile, "w") as f:
                f.write("mine\n")
            run = ["series", "run", "m1", "m2", "--bindir", d, "-o"]
            try:
                for argv, msg in (
                        (["series", "run"], "needs --bindir (the build) and -o DIR"),
                        (run + [afile], "exists and is not a folder"),
                        (run + [os.path.join(d, "no", "x")], "does not exist"),
                        (["series", "run", "m1", "zz", "--bindir", d, "-o", os.path.join(d, "s")],
                         "no MPI installation 'zz'"),
                        (["series", "run", "m1", "--bindir", d, "-o", os.path.join(d, "s")],
                         "needs two or more releases"),
                        (run + [os.path.join(d, "s"), "--env", "m3:A=1"],
                         "m3 is not a release of the series (m1, m2)"),
                        (run + [os.path.join(d, "s"), "--env", "m1:lower=1"], "give NAME:VAR=VALUE"),
                        (run + [os.path.join(d, "s"), "--build", "m1"], "give NAME=DIR"),
                        (run + [os.path.join(d, "s")], "m1 skipped: no mpigauge_latency in"),
                        (run + [os.path.join(d, "s"), "--stride", "0"], "--stride at least 1"),
                        (run + [os.path.join(d, "s"), "--max-rounds", "5"],
                         "--max-rounds 5: at least --rounds (10)"),
                        (run + [os.path.join(d, "s"), "--from", "abc"], "--from 'abc': give a release"),
                        (run + [os.path.join(d, "s"), "--from", "4.x"], "--from '4.x': give a release"),
                        (run + [os.path.join(d, "s"), "--to", "latest"], "--to 'latest': give a release"),
                        (run + [os.path.join(d, "s"), "--from", ""], "--from '': give a release"),
                        (run + [os.path.join(d, "s"), "-n", "0"], "-n 0: a series runs on 2 or more"),
                        (run + [os.path.join(d, "s"), "-n", "-2"], "-n -2: a series runs on 2"),
                        (run + [os.path.join(d, "s"), "--timeout", "-1"], "--timeout -1: give seconds"),
                        (run + [os.path.join(d, "s"), "--suite", os.path.join(d, "none.txt")],
                         "none.txt"),
                        (["series", "run", "m1", "m1", "m2", "--bindir", d, "-o",
                          os.path.join(d, "s")], "m1: named twice"),
                        (["series", "report", d], "not a series' folder (no series.json"),
                        (["series", "report"], "series report needs the series' folder")):
                    rc, _, err = h.cli(*argv)
                    self.assertEqual(rc, 2, argv)
                    self.assertIn(msg, err, argv)
                    self.assertNotIn("Traceback", err)
                self.assertFalse(os.path.exists(os.path.join(d, "s")))
            finally:
                os.environ.pop("MPIGAUGE_MPI_CACHE", None)

    def test_a_launcher_that_fails_is_said_with_its_last_words(self):
        import mpigauge.releases.series_cli as SCLI
        self.assertIsNone(SCLI._launches(["true"], dict(os.environ)))
        why = SCLI._launches(["sh", "-c", "echo first >&2; echo 'unrecognized argument bind-to' "
                              ">&2; exit 3"], dict(os.environ))
        self.assertEqual(why, "two ranks under its launcher failed (sh: unrecognized argument "
                         "bind-to)")
        self.assertEqual(SCLI._launches(["sh", "-c", "exit 4"], dict(os.environ)),
                         "two ranks under its launcher failed (sh: exit 4)")


class StepRequest(unittest.TestCase):
    def test_a_step_adds_rounds_where_a_pair_of_neighbours_is_undecided(self):
        import types
        import mpigauge.measure.runrequest as RR
        import mpigauge.releases.series_cli as SCLI
        got = []
        real = RR.run, RR.config
        RR.run = lambda req: got.append(req) or 0
        RR.config = lambda label, **keys: types.SimpleNamespace(label=label, **keys)
        a = types.SimpleNamespace(suite="quick", rounds=10, max_rounds=20, nranks=2, timeout=None,
                                  launcher=None, max_ranks=None, args=[], threshold="7%",
                                  alpha=0.01, error_control="holm")
        with tempfile.TemporaryDirectory() as d:
            folder = types.SimpleNamespace(path=d, state={"settings": {"seed": 7}})
            rel = [{"name": n, "bindir": d} for n in ("r1", "r2", "r3")]
            try:
                SCLI.run_step(a, folder, 2, rel)
                a.max_rounds = 10
                SCLI.run_step(a, folder, 3, rel)
            finally:
                RR.run, RR.config = real
        first, fixed = got
        self.assertEqual((first.until_decided, first.min_rounds, first.max_rounds, first.repeat),
                         (True, 10, 20, 10))
        self.assertEqual(first.decide_pairs, [("r1", "r2"), ("r2", "r3")])
        self.assertEqual((first.threshold, first.alpha, first.error_control, first.seed),
                         ("7%", 0.01, "holm", 9))
        self.assertEqual((fixed.until_decided, fixed.repeat, fixed.decide_pairs), (False, 10, []))


if __name__ == "__main__":
    unittest.main()
