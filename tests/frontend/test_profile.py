# SPDX-License-Identifier: BSD-3-Clause
"""Communication profiles (`mpigauge profile`, frontend/mpigauge/profile.py):
the ranks' records merged exactly, the profiler preloaded into the program
only, a damaged or hand-edited profile refused with one line. The runs
themselves, with both MPI families, are tests/profile.sh's."""
import json
import os
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
import mpigauge.apps.profile as P  # noqa: E402
import mpigauge.apps.profile_cli as PC  # noqa: E402


def rank(r, calls, run_s=2.0):
    return {"type": "profile_rank", "rank": r, "nranks": 2, "mpi_library": "MPICH Version: 4.0.2",
            "host": "h", "binding": str(r), "init_s": 0.1, "run_s": run_s,
            "thread_multiple": False, "dropped": 0, "calls": calls}


def call(name, cls, comm, count, secs, nbytes=None, dtype=None):
    c = {"call": name, "size_class": cls, "comm_size": comm, "count": count,
         "bytes": cls * count if nbytes is None else nbytes, "seconds": secs}
    if dtype:
        c["datatype"] = dtype
    return c


RANKS = {0: rank(0, [call("MPI_Allreduce", 8, 2, 7, 0.5, dtype="MPI_DOUBLE"),
                     call("MPI_Send", 65536, 2, 10, 0.2)]),
         1: rank(1, [call("MPI_Allreduce", 8, 2, 7, 0.1, dtype="MPI_DOUBLE"),
                     call("MPI_Recv", 65536, 2, 10, 0.3)])}


class Merge(unittest.TestCase):
    def test_calls_over_ranks(self):
        got = {(c["call"], c["size_class"]): c for c in P.aggregate(RANKS)}
        ar = got[("MPI_Allreduce", 8)]
        self.assertEqual((ar["ranks"], ar["count"], ar["count_max"], ar["bytes"]), (2, 14, 7, 112))
        self.assertEqual((ar["seconds"], ar["seconds_min"], ar["seconds_max"]), (0.6, 0.1, 0.5))
        self.assertEqual(ar["datatype"], "MPI_DOUBLE")
        self.assertEqual(got[("MPI_Send", 65536)]["ranks"], 1)
        s = P.summary(RANKS)
        self.assertAlmostEqual(s["mpi_s_mean"], 0.55)
        self.assertAlmostEqual(s["mpi_share"], 1.1 / 4.0)

    def test_the_profiler_goes_to_the_program_only(self):
        argv = ["mpirun", "-n", "2", "--bind-to", "core", "./a.out", "-in", "x"]
        got = PC.launch_argv(argv, 5, "/lib/libmgprofile.so", "/tmp/d", {"LD_PRELOAD": "/x.so"})
        self.assertEqual(got, ["mpirun", "-n", "2", "--bind-to", "core", "env",
                               "LD_PRELOAD=/x.so /lib/libmgprofile.so", "MG_PROFILE_DIR=/tmp/d",
                               "./a.out", "-in", "x"])
        self.assertEqual(PC.launch_argv(["./a.out"], 0, "/l.so", "/d", {})[:3],
                         ["env", "LD_PRELOAD=/l.so", "MG_PROFILE_DIR=/d"])

    def test_a_command_without_an_mpi_program(self):
        with self.assertRaisesRegex(mg.UsageError, "no MPI program in the command"):
            P.find_mpi_program(["sh", "-c", "true"])
        with self.assertRaisesRegex(mg.UsageError, "no MPI program"):
            P.find_mpi_program(["/nonexistent/prog", "x"])


class Damaged(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "p.jsonl")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, recs):
        h.write_jsonl(self.path, recs)

    def test_a_good_profile_reads_back(self):
        head = {"type": "profile", "name": "x", "family": "mpich", "nranks": 2}
        self.write([head] + list(RANKS.values()))
        p = P.load_profile(self.path)
        self.assertEqual(sorted(p.ranks), [0, 1])
        self.assertEqual(len(p.calls), 3)

    def test_every_damage_is_one_line(self):
        head = {"type": "profile", "name": "x", "family": "mpich", "nranks": 2}
        bad_rank = dict(RANKS[0], calls=[call("MPI_Send", 8, 2, -1, 0.1)])
        for recs, says in (([head], "not a profile"),
                           (list(RANKS.values()), "not a profile"),
                           ([dict(head, nranks="2")] + list(RANKS.values()), "nranks is not an integer"),
                           ([head, dict(RANKS[0], run_s="1")], "run_s is not a number"),
                           ([head, dict(RANKS[0], calls=[{"call": "MPI_Send"}])],
                            "a call of rank 0: no size_class"),
                           ([head, bad_rank], "a negative count"),
                           ([head, dict(RANKS[0], calls=[call("MPI_Send", 8, 2, 1, float("inf"))])],
                            "seconds is not a finite number")):
            self.write(recs)
            with self.assertRaises(mg.UsageError) as e:
                P.load_profile(self.path)
            self.assertIn(says, str(e.exception))
            self.assertEqual(len(str(e.exception).splitlines()), 1)
        with open(self.path, "w") as f:
            f.write("[" * 100000 + "\n")
        with self.assertRaisesRegex(mg.UsageError, "p.jsonl:1: not JSON"):
            P.load_profile(self.path)

    def test_the_command_checks_before_running(self):
        out = os.path.join(self.tmp.name, "o.jsonl")
        for argv, says in ((["profile", "-o", out], "give the command after --"),
                           (["profile", "--", "sh", "-c", "true"], "needs -o FILE"),
                           (["profile", "-o", out, "--timeout", "-1", "--", "true"],
                            "--timeout -1: give seconds above 0"),
                           (["profile", "-o", out, "--", "sh", "-c", "true"],
                            "no MPI program in the command")):
            rc, _, err = h.cli(*argv)
            self.assertEqual(rc, 2, argv)
            self.assertIn(says, err)
        self.assertFalse(os.path.exists(out))
        with open(out, "w") as f:
            json.dump({}, f)
        rc, _, err = h.cli("profile", "-o", out, "--", "true")
        self.assertEqual(rc, 2)
        self.assertIn("exists (--force replaces it)", err)


class FakeSet:
    """What predict reads of a result set: its series and their launches'
    medians ({(bench, ranks, size, unit): [medians]})."""

    def __init__(self, figures, label):
        from mpigauge.data.results import SeriesKey
        self.label = label
        self._series = {SeriesKey(b, "", n, "line 1", s, u): [(None, {"median": v}) for v in vs]
                        for (b, n, s, u), vs in figures.items()}

    def series(self):
        return self._series


class Predict(unittest.TestCase):
    def profile(self):
        import mpigauge.apps.predict as PR  # noqa: F401
        head = {"type": "profile", "name": "mix", "family": "mpich", "nranks": 2}
        ranks = {0: rank(0, [call("MPI_Allreduce", 8, 2, 100, 0.01, dtype="MPI_DOUBLE"),
                             call("MPI_Send", 65536, 2, 10, 0.02),
                             call("MPI_Isend", 1048576, 2, 4, 0.001),
                             call("MPI_Waitall", 0, 0, 4, 0.03),
                             call("MPI_Comm_split", 0, 2, 1, 0.005),
                             call("MPI_Allreduce", 16, 1, 1, 0.0001)]),
                 1: rank(1, [call("MPI_Allreduce", 8, 2, 100, 0.03, dtype="MPI_DOUBLE"),
                             call("MPI_Recv", 65536, 2, 10, 0.02)])}
        return P.Profile(head, ranks, P.aggregate(ranks), "p")

    def test_the_suite_it_stands_on(self):
        import mpigauge.apps.predict as PR
        p = PR.plan(self.profile())
        self.assertEqual(PR.suite_text(p, 0.05, "mix").splitlines()[1:],
                         ["ranks=2 allreduce -m 8:8 --time-budget 0.05",
                          "ranks=2 bw -m 1048576:1048576 --time-budget 0.05",
                          "ranks=2 latency -m 65536:65536 --time-budget 0.05"])
        self.assertEqual([(u[0], u[4]) for u in p.unpredicted],
                         [("MPI_Allreduce", "a communicator of one rank"),
                          ("MPI_Comm_split", "no benchmark stands for it")])
        self.assertAlmostEqual(p.carried, 0.03)
        self.assertAlmostEqual(p.wait, 0.02)   # allreduce: 0.03 + 0.01 - 2 x 0.01

    def test_atomics_by_element_type_small_reductions_and_calls_of_no_data(self):
        import mpigauge.apps.predict as PR
        ranks = {0: rank(0, [call("MPI_Fetch_and_op", 8, 2, 10, 0.01),
                             call("MPI_Compare_and_swap", 4, 2, 3, 0.01),
                             call("MPI_Fetch_and_op", 16, 2, 1, 0.01),
                             call("MPI_Bcast", 0, 2, 48, 0.01),
                             call("MPI_Allreduce", 1, 2, 4, 0.01, dtype="MPI_C_BOOL"),
                             call("MPI_Allreduce", 2, 2, 4, 0.01, dtype="MPI_SHORT"),
                             call("MPI_Allreduce", 8, 2, 4, 0.01, dtype="MPI_DOUBLE"),
                             call("MPI_Reduce", 2, 2, 4, 0.01, dtype="MPI_SHORT"),
                             call("MPI_Barrier", 0, 2, 5, 0.01)])}
        p = PR.plan(P.Profile({"type": "profile", "name": "x", "family": "mpich", "nranks": 1},
                              ranks, P.aggregate(ranks), "p"))
        self.assertEqual(PR.suite_text(p, 0.05, "x").splitlines()[1:],
                         ["ranks=2 allreduce -T char -m 1,2 --time-budget 0.05",
                          "ranks=2 allreduce -m 8:8 --time-budget 0.05",
                          "ranks=2 barrier --time-budget 0.05",
                          "ranks=2 bcast -m 1:1 --time-budget 0.05",
                          "ranks=2 cas_latency -T int --time-budget 0.05",
                          "ranks=2 fop_latency -T long --time-budget 0.05",
                          "ranks=2 reduce -T char -m 2:2 --time-budget 0.05"])
        self.assertEqual([(u[0], u[1], u[4]) for u in p.unpredicted],
                         [("MPI_Fetch_and_op", 16, "no element type of 16 bytes in its "
                           "benchmark")])

    def test_predicted_time_ratio_and_contributions(self):
        import mpigauge.apps.predict as PR
        p = PR.plan(self.profile())
        base = FakeSet({("allreduce", 2, 8, "us"): [2.0] * 5, ("latency", 2, 65536, "us"): [10.0] * 5,
                        ("bw", 2, 1048576, "MB/s"): [10000.0] * 5}, "a")
        new = FakeSet({("allreduce", 2, 8, "us"): [4.0] * 5, ("latency", 2, 65536, "us"): [10.0] * 5,
                       ("bw", 2, 1048576, "MB/s"): [10000.0] * 5}, "b")
        pr = PR.compare(p, base, new, threshold=0.05, reps=200)
        # per rank: (200 x 2 us + 20 x 10 us + 4 x 104.8576 us) / 2 ranks
        self.assertAlmostEqual(pr.base_s, (400 + 200 + 419.4304) * 1e-6 / 2)
        self.assertAlmostEqual(pr.new_s, (800 + 200 + 419.4304) * 1e-6 / 2)
        self.assertEqual(pr.ci, (pr.ratio, pr.ratio))   # no spread, no interval
        self.assertEqual(pr.verdict, "slower")
        d, nd = pr.contributions[0]
        self.assertEqual((nd.call, nd.size), ("MPI_Allreduce", 8))
        self.assertAlmostEqual(d, 200 * 2e-6 / 2)
        line = PR.headline("mix", pr)
        self.assertTrue(line.startswith("profile mix: MPI time 510 us -> 710 us (x1.39, 95% CI "
                                        "1.39-1.39): slower; most of it MPI_Allreduce 8 (+200 us)"),
                        line)
        same = PR.compare(p, base, base, reps=200)
        self.assertEqual((same.ratio, same.verdict), (1.0, "same"))
        # a series neither side measured: said, and its share left out
        part = FakeSet({("allreduce", 2, 8, "us"): [2.0] * 5}, "c")
        pr = PR.compare(p, part, part, reps=50)
        self.assertEqual({nd.program for nd in pr.missing}, {"latency", "bw"})
        self.assertTrue(any("was not measured on both sides" in x for x in PR.details(p, pr)))


class MpiP(unittest.TestCase):
    """mpiP's report (tests/frontend/data/mix.mpiP, in the format of mpiP
    3.5's user guide) as a profile: what maps, exactly."""
    REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "mix.mpiP")

    def test_what_maps(self):
        import mpigauge.apps.mpip as M
        ranks = M.read_mpip(self.REPORT)
        self.assertEqual(sorted(ranks), [0, 1])
        self.assertEqual((ranks[0]["host"], ranks[0]["run_s"], ranks[1]["nranks"]), ("node1", 2.0, 2))
        got = {(c["call"], c["size_class"], c["count"], c["bytes"], c.get("size_known", True)):
               round(c["seconds"], 9) for c in ranks[0]["calls"]}
        self.assertEqual(got, {("MPI_Allreduce", 8, 7, 56, True): 0.14,
                               ("MPI_Barrier", 0, 2, 0, False): 0.01,
                               ("MPI_Send", 8192, 10, 60000, True): 0.3})
        self.assertEqual([(c["call"], c.get("size_known")) for c in ranks[1]["calls"]],
                         [("MPI_Allreduce", None), ("MPI_Barrier", False), ("MPI_Recv", False)])

    def test_the_command_and_the_prediction_it_allows(self):
        import mpigauge.apps.predict as PR
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "p.jsonl")
            rc, _, err = h.cli("profile", "import", "mpip", self.REPORT, "-o", out, "-q")
            self.assertEqual(rc, 0, err)
            prof = P.load_profile(out)
            self.assertEqual(prof.head["source"], "mpiP")
            p = PR.plan(prof)
            self.assertEqual(sorted((n.program, n.size) for n in p.needs),
                             [("allreduce", 8), ("barrier", 0), ("latency", 8192)])
            self.assertEqual([(u[0], u[4]) for u in p.unpredicted],
                             [("MPI_Recv", "its source (mpiP) gives no size for it")])
            bad = os.path.join(d, "bad.mpiP")
            with open(bad, "w") as f:
                f.write("not a report\n")
            rc, _, err = h.cli("profile", "import", "mpip", bad, "-o", os.path.join(d, "b.jsonl"))
            self.assertEqual(rc, 2)
            self.assertIn("not an mpiP report", err)
            with open(self.REPORT) as f:
                text = f.read()
            with open(bad, "w") as f:
                f.write(text.replace("Send                 1    0     10       40       30",
                                     "Send                 1    0     10       40   banana"))
            rc, _, err = h.cli("profile", "import", "mpip", bad, "-o", os.path.join(d, "b.jsonl"))
            self.assertEqual(rc, 2)
            self.assertIn("'banana' is not a number", err)
            self.assertFalse(os.path.exists(os.path.join(d, "b.jsonl")))


if __name__ == "__main__":
    unittest.main()
