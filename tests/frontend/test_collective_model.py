# SPDX-License-Identifier: BSD-3-Clause
"""The model checks itself (model/collectives.py, `mpigauge model
--collectives`): the critical paths of the algorithms, exact; a collective
predicted from a planted point-to-point line; a measured collective three
times its model named beyond the factor, one at its model not; an unknown
algorithm, one without a model and a set without latency said."""
import json
import os
import tempfile
import unittest

import helpers as h

h.load_frontend()
import mpigauge.model.collectives as C  # noqa: E402
import mpigauge.model.hockney as H  # noqa: E402

SIZES = [0] + [1 << k for k in range(21)]


def line(m):
    return 0.5 + m / 4000.0     # one regime: alpha 0.5 us, 4 GB/s


class Paths(unittest.TestCase):
    def test_critical_paths(self):
        self.assertEqual(C.path("bcast", "binomial", 8, 64)[1], [64] * 3)
        self.assertEqual(C.path("bcast", "basic_linear", 4, 64)[1], [64] * 3)
        self.assertEqual(C.path("allreduce", "ring", 4, 1024)[1], [256] * 6)
        self.assertEqual(C.path("allreduce", "recursive_doubling", 5, 8)[1], [8] * 3)
        self.assertEqual(C.path("allreduce", "rabenseifner", 8, 1024)[1],
                         [512, 256, 128] * 2)
        self.assertEqual(C.path("allgather", "recursive_doubling", 8, 16)[1], [16, 32, 64])
        self.assertEqual(C.path("alltoall", "bruck", 4, 16)[1], [32, 32])
        self.assertEqual(C.path("barrier", "dissemination", 4, 0)[1], [0, 0])
        self.assertEqual(C.path("scatter", "binomial", 8, 16)[1], [64, 32, 16])
        self.assertEqual(C.path("bcast_init", "binomial", 2, 8)[1], [8])
        self.assertIsNone(C.path("bcast", "pipeline", 4, 8))
        self.assertEqual((C.served("coll_tuned_allreduce_algorithm=Ring"),
                          C.served("unknown"), C.served(None)), ("ring", None, None))

    def test_predicted_from_the_line(self):
        m = H.fit({s: [line(s)] * 3 for s in SIZES})
        self.assertAlmostEqual(C.predicted(m, "allreduce", "ring", 4, 4096), 6 * line(1024),
                               places=6)
        self.assertAlmostEqual(C.predicted(m, "bcast", "binomial", 16, 64), 4 * line(64),
                               places=6)
        self.assertIsNone(C.predicted(m, "bcast", "chain", 4, 64))


class Command(unittest.TestCase):
    def results(self, d, colls, latency=True):
        """latency (planted line) and collectives: [(bench, P, algorithm, k)],
        measured k times their ring or binomial model."""
        recs = []
        for i in range(3):
            if latency:
                lid = f"L{i}"
                recs.append(h.run_record("latency", launch_id=lid, sizes=tuple(SIZES)))
                recs += [h.result_record("latency", s, "us", line(s), launch_id=lid)
                         for s in SIZES]
            for j, (bench, p, alg, k) in enumerate(colls):
                lid = f"C{i}-{j}"
                run = h.run_record(bench, launch_id=lid, sizes=(8, 4096), nranks=p,
                                   hosts=("n1",) * p, bindings=tuple(str(r) for r in range(p)))
                recs.append(run)
                for s in (8, 4096):
                    steps = C.path(bench, C.served(alg), p, s)
                    t = k * sum(line(x) for x in steps[1]) if steps else 5.0
                    r = h.result_record(bench, s, "us", t, launch_id=lid)
                    r["algorithm"] = alg
                    recs.append(r)
        path = os.path.join(d, "c.jsonl")
        h.write_jsonl(path, recs)
        return path

    def test_gaps_named(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.results(d, [("allreduce", 4, "coll_tuned_allreduce_algorithm=ring", 3.0),
                                    ("bcast", 4, "coll_tuned_bcast_algorithm=binomial", 1.0),
                                    ("barrier", 4, "unknown", 1.0),
                                    ("bcast", 2, "coll_tuned_bcast_algorithm=pipeline", 1.0)])
            code, out, err = h.cli("model", path, "--collectives")
            self.assertEqual(code, 0, err)
            self.assertIn("allreduce (Open MPI v4.1.4, 4 ranks), served by ring (2 (P-1) x m/P)",
                          out)
            self.assertRegex(out, r"\n +8 +\S+ +\S+ +x3  more than its algorithm needs\n")
            self.assertIn("2 of 2 sizes beyond x2 of the model (worst x3 at", out)
            lib = "Open MPI v4.1.4"
            self.assertRegex(out, rf"bcast \({lib}, 4 ranks\), served by binomial.*\n.*\n"
                             r" +8 +\S+ +\S+ +x1\n +4K +\S+ +\S+ +x1\n")
            self.assertIn(f"barrier ({lib}, 4 ranks): the algorithm that served it is unknown", out)
            self.assertIn(f"bcast ({lib}, 2 ranks): served by pipeline, which has no model", out)
            code, out, err = h.cli("model", path, "--collectives", "--factor", "4", "--json")
            docs = [json.loads(x) for x in out.splitlines()]
            ring = [x for x in docs if x["algorithm"] == "ring"][0]
            self.assertEqual([round(r["ratio"], 6) for r in ring["sizes"]], [3.0, 3.0])
            self.assertEqual(ring["factor"], 4.0)

    def test_refusals(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.results(d, [("bcast", 4, "x=binomial", 1.0)], latency=False)
            code, _, err = h.cli("model", path, "--collectives")
            self.assertEqual((code, "needs the latency curve beside" in err), (2, True))
            code, _, err = h.cli("model", path, "--collectives", "--factor", "1")
            self.assertEqual((code, "--factor" in err), (2, True))


if __name__ == "__main__":
    unittest.main()
