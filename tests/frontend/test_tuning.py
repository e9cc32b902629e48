# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge best --export`: tuning files from a synthetic sweep, exact text
(Open MPI rules) and exact trees (MPICH JSON), the choice rules, the
`tuning=` configuration key and the refusals."""
import json
import os
import tempfile
import unittest

import helpers as h

mg = h.load_frontend()
tuning = __import__("mpigauge.verdict.tuning", fromlist=["x"])
configs = __import__("mpigauge.measure.configs", fromlist=["x"])

ROUNDS = 8
JIT = (1.000, 1.010, 0.995, 1.004, 0.990, 1.006, 0.998, 1.002)


def sweep_records(envs, truth, nranks=4):
    """An interleaved sweep: envs[label] its environment, truth[(label,
    bench)][size] the median of that configuration (every round jittered
    alike, so a difference of a few percent is significant)."""
    labels = list(envs)
    benches = sorted({b for _, b in truth})
    recs = [{"type": "session", "session_id": "S", "seed": 1,
             "configs": [{"label": lb, "env": envs[lb]} for lb in labels]}]
    seq = 0
    for r in range(ROUNDS):
        for bench in benches:
            for lb in labels:
                seq += 1
                lid = f"S-{seq:04d}"
                sizes = truth[(lb, bench)]
                recs.append({"type": "launch", "launch_id": lid, "session_id": "S",
                             "benchmark": bench, "config": lb, "round": r + 1,
                             "source": f"suite:{benches.index(bench) + 1}", "status": "ok",
                             "env": envs[lb], "mpi_install": {"library": {"file": "LIB"}}})
                recs.append(dict(h.run_record(bench, launch_id=lid, sizes=list(sizes),
                                              nranks=nranks), config=lb, round=r + 1))
                for s, v in sizes.items():
                    recs.append(h.result_record(bench, s, "us", round(v * JIT[r], 6),
                                                launch_id=lid))
    return recs


OMPI_ENVS = {
    "default": {},
    "ar3": {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
            "OMPI_MCA_coll_tuned_allreduce_algorithm": "3"},
    "ar4": {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
            "OMPI_MCA_coll_tuned_allreduce_algorithm": "ring"},
    "bc6": {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
            "OMPI_MCA_coll_tuned_bcast_algorithm": "6",
            "OMPI_MCA_coll_tuned_bcast_algorithm_segmentsize": "8192"},
    "a2a2": {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
             "OMPI_MCA_coll_tuned_alltoall_algorithm": "2"},
}


def ompi_truth():
    """allreduce: ar3 best at 8 B (the library's choice 1.33x slower) and at
    1 KiB (better by a median within the noise: the algorithm is still
    written), the library's choice clearly best at 64 KiB; bcast: bc6 best;
    alltoall: the library's choice clearly best at 8 B, a2a2 at 1 KiB."""
    t = {}
    for lb in OMPI_ENVS:
        t[(lb, "allreduce")] = {8: 4.0, 1024: 6.02, 65536: 20.0}
        t[(lb, "bcast")] = {8: 1.5, 1024: 2.1}
        t[(lb, "alltoall")] = {8: 3.0, 1024: 9.0}
    t[("ar3", "allreduce")] = {8: 3.0, 1024: 6.0, 65536: 50.0}
    t[("ar4", "allreduce")] = {8: 5.0, 1024: 6.05, 65536: 30.0}
    t[("bc6", "bcast")] = {8: 1.0, 1024: 2.0}
    t[("a2a2", "alltoall")] = {8: 4.0, 1024: 6.0}
    return t


OMPI_RULES = """\
3  # collectives
2  # allreduce
1  # rank counts
4  # ranks
2  # message sizes
0 3 4 0  # recursive_doubling; 8-1K: best (ar3); own choice / best algorithm 1.00-1.33, significant at 1 of 2 sizes
65536 0 0 0  # the library's own choice; 64K: the library's own choice (default and 2 more); own choice / best algorithm 0.67, significant
3  # alltoall
1  # rank counts
4  # ranks
2  # message sizes
0 0 0 0  # the library's own choice; 8: the library's own choice (default and 3 more); own choice / best algorithm 0.75, significant
4096 2 4 0  # pairwise; 1K: best (a2a2); own choice / best algorithm 1.50, significant
7  # bcast
1  # rank counts
4  # ranks
1  # message sizes
0 6 4 8192  # binomial; 8-1K: best (bc6); own choice / best algorithm 1.05-1.50, significant at 1 of 2 sizes
"""


class TuningExport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "sweep.jsonl")

    def export(self, kind, *extra):
        out = os.path.join(self.dir, "tuned")
        rc, so, se = h.cli("best", self.path, "--export", kind, out, *extra)
        return rc, so, se, out

    def test_ompi_rules_file_is_exact(self):
        h.write_jsonl(self.path, sweep_records(OMPI_ENVS, ompi_truth()))
        rc, so, se, out = self.export("ompi-rules")
        self.assertEqual(rc, 0, se)
        with open(out) as f:
            text = f.read()
        body = "".join(l + "\n" for l in text.splitlines() if not l.startswith("#"))
        self.assertEqual(body, OMPI_RULES)
        self.assertIn("tuning=" + os.path.abspath(out), so)
        self.assertIn("allreduce   4      0          3 recursive_doubling", so)

    def test_significant_only_keeps_the_library_choice_within_the_noise(self):
        h.write_jsonl(self.path, sweep_records(OMPI_ENVS, ompi_truth()))
        rc, _, se, out = self.export("ompi-rules", "--significant-only")
        self.assertEqual(rc, 0, se)
        with open(out) as f:
            rules = [l.split("#")[0].split() for l in f if l[0].isdigit() and len(l.split("#")[0].split()) == 4]
        # allreduce: ar3 at 8 B only (1 KiB was within the noise); alltoall as
        # before; bcast: bc6 at 8 B only
        self.assertEqual(rules, [["0", "3", "4", "0"], ["1024", "0", "0", "0"],
                                 ["0", "0", "0", "0"], ["4096", "2", "4", "0"],
                                 ["0", "6", "4", "8192"], ["1024", "0", "0", "0"]])

    def test_ompi_rules_read_back_like_coll_tuned(self):
        """The numbers in the order coll_tuned's reader takes them (comments
        from '#' to the end of the line skipped), and every collective's
        first message size 0, as it demands."""
        h.write_jsonl(self.path, sweep_records(OMPI_ENVS, ompi_truth()))
        _, _, _, out = self.export("ompi-rules")
        nums = []
        with open(out) as f:
            for line in f:
                nums += [int(w) for w in line.split("#")[0].split()]
        ncoll, i = nums[0], 1
        seen = []
        for _ in range(ncoll):
            cid, ncs = nums[i], nums[i + 1]
            i += 2
            seen.append(cid)
            for _ in range(ncs):
                nms = nums[i + 1]
                i += 2
                self.assertEqual(nums[i], 0)
                i += 4 * nms
        self.assertEqual(i, len(nums))
        self.assertEqual(seen, [2, 3, 7])

    def test_mpich_json_keeps_the_library_tree_elsewhere(self):
        envs = {"default": {},
                "rd": {"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM": "recursive_doubling"},
                "rsa": {"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM": "reduce_scatter_allgather"}}
        truth = {}
        for lb in envs:
            truth[(lb, "allreduce")] = {8: 4.0, 1024: 8.0, 65536: 50.0}
        truth[("rd", "allreduce")] = {8: 3.0, 1024: 9.0, 65536: 60.0}
        truth[("rsa", "allreduce")] = {8: 5.0, 1024: 6.0, 65536: 70.0}
        h.write_jsonl(self.path, sweep_records(envs, truth))
        lib = os.path.join(self.dir, "libmpi.so")
        own = {"collective=allreduce": {"comm_type=intra": {"avg_msg_size=any": {
            "algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather": {}}},
            "comm_type=inter": {"algorithm=MPIR_Allreduce_inter_reduce_exchange_bcast": {}}},
            "collective=bcast": {"comm_type=intra": {
                "algorithm=MPIR_Bcast_intra_binomial": {}}}}
        with open(lib, "wb") as f:
            f.write(b"\x7fELF\x00" + json.dumps(own).encode() + b"\x00"
                    b"algorithm=MPIR_Allreduce_intra_recursive_doubling\x00"
                    b"algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather\x00")
        rc, so, se, out = self.export("mpich-json", "--library", lib)
        self.assertEqual(rc, 0, se)
        with open(out) as f:
            tree = json.load(f)
        self.assertEqual(tree["collective=bcast"], own["collective=bcast"])
        self.assertEqual(tree["collective=allreduce"]["comm_type=inter"],
                         own["collective=allreduce"]["comm_type=inter"])
        self.assertEqual(tree["collective=allreduce"]["comm_type=intra"], {"comm_size=any": {
            "avg_msg_size<1024": {"algorithm=MPIR_Allreduce_intra_recursive_doubling": {}},
            "avg_msg_size<65536": {"algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather": {}},
            "avg_msg_size=any": own["collective=allreduce"]["comm_type=intra"]}})

    def test_mpich_algorithm_the_library_lacks_is_refused(self):
        envs = {"default": {}, "ring": {"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM": "ring"}}
        truth = {("default", "allreduce"): {8: 4.0}, ("ring", "allreduce"): {8: 3.0}}
        h.write_jsonl(self.path, sweep_records(envs, truth))
        lib = os.path.join(self.dir, "libmpi.so")
        with open(lib, "wb") as f:
            f.write(b"\x00" + json.dumps({"collective=bcast": {"comm_type=intra": {
                "algorithm=MPIR_Bcast_intra_binomial": {}}}, "collective=allreduce": {}}).encode()
                + b"\x00")
        rc, _, se, out = self.export("mpich-json", "--library", lib)
        self.assertEqual(rc, 2)
        self.assertIn("no MPIR_Allreduce_intra_ring", se)
        self.assertFalse(os.path.exists(out))

    def test_a_library_that_is_not_a_file_is_refused_at_once(self):
        # /dev/zero was read until MemoryError
        envs = {"default": {}, "ring": {"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM": "ring"}}
        truth = {("default", "allreduce"): {8: 4.0}, ("ring", "allreduce"): {8: 3.0}}
        h.write_jsonl(self.path, sweep_records(envs, truth))
        rc, _, se, out = self.export("mpich-json", "--library", "/dev/zero")
        self.assertEqual(rc, 2)
        self.assertIn("/dev/zero: is a device; only regular files are read", se)
        self.assertFalse(os.path.exists(out))

    @unittest.skipUnless(os.path.exists("/usr/lib/x86_64-linux-gnu/libmpich.so.12"),
                         "Debian's MPICH is not installed")
    def test_mpich_library_tree_is_found(self):
        tree, data = tuning.mpich_default_tree("/usr/lib/x86_64-linux-gnu/libmpich.so.12")
        self.assertIn("algorithm=MPIR_Bcast_intra_binomial", json.dumps(tree))
        self.assertIn("comm_type=intra", tree["collective=alltoall"])
        self.assertEqual(tuning.mpich_container("alltoall", "pairwise", data),
                         "algorithm=MPIR_Alltoall_intra_pairwise")

    def test_refusals(self):
        h.write_jsonl(self.path, sweep_records(
            {"a": {}, "b": {"UCX_TLS": "sm"}}, {("a", "allreduce"): {8: 1.0},
                                                ("b", "allreduce"): {8: 2.0}}))
        rc, _, se, _ = self.export("ompi-rules")
        self.assertEqual(rc, 2)
        self.assertIn("no configuration forces an algorithm", se)
        rc, _, se, _ = self.export("nccl")
        self.assertEqual(rc, 2)
        self.assertIn("one of ompi-rules, mpich-json", se)
        self.assertEqual(tuning.ompi_forced({"OMPI_MCA_coll_tuned_use_dynamic_rules": "0",
                                             "OMPI_MCA_coll_tuned_bcast_algorithm": "6"},
                                            "bcast"), None)
        with self.assertRaises(mg.UsageError if hasattr(mg, "UsageError") else Exception):
            tuning.ompi_forced({"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                                "OMPI_MCA_coll_tuned_bcast_algorithm": "fastest"}, "bcast")

    def test_tuning_key_loads_the_file(self):
        rules = os.path.join(self.dir, "r.txt")
        with open(rules, "w") as f:
            f.write("# rules\n1\n2\n1\n4\n1\n0 3 4 0\n")
        c = configs.parse_config_arg(f"tuned tuning={rules}")
        self.assertEqual(c.env, {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                                 "OMPI_MCA_coll_tuned_dynamic_rules_filename": rules})
        js = os.path.join(self.dir, "t.json")
        with open(js, "w") as f:
            f.write('{"collective=bcast": {}}\n')
        c = configs.parse_config_arg(f"tuned tuning={js}")
        self.assertEqual(c.env, {"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE": js})
        self.assertEqual(c.record()["tuning"], js)
        with self.assertRaises(Exception) as cm:
            configs.parse_config_arg(f"tuned tuning={self.dir}/missing")
        self.assertIn("tuning=", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
