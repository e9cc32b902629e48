# SPDX-License-Identifier: BSD-3-Clause
"""The library's control variables (MPI_T cvars): the digest the C
programs write, what differs between two sides (first among a verdict's
explanations in compare, report and history check), one record per set in
a results file and in the history, and `mpigauge cvars`."""
import json
import os
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
FIELDS = ["name", "value", "type", "scope", "binding"]


def fnv1a64(text):
    v = 14695981039346656037
    for b in text.encode():
        v = ((v ^ b) * 1099511628211) % (1 << 64)
    return "%016x" % v


def cvars_record(table, library="Open MPI v4.1.4"):
    rows = [[k, v, "int", "readonly", "none"] for k, v in sorted(table.items())]
    digest = fnv1a64("".join(f"{k}={v}\n" for k, v, *_ in rows))
    return {"type": "cvars", "digest": digest, "mpi_library": library, "fields": FIELDS,
            "cvars": rows}


def side(records):
    return mg.build_set(records, "x.jsonl", "side")


def with_cvars(recs, rec):
    """The records of a file whose run records name the set rec."""
    out = [rec]
    for r in recs:
        if r["type"] == "run":
            r = dict(r, cvars={"state": "read", "digest": rec["digest"],
                               "read": len(rec["cvars"])})
        out.append(r)
    return out


OLD = {"btl_sm_eager_limit": "4096", "coll_tuned_priority": "30", "pml_ob1_major_version": "4",
       "btl_vader_single_copy_mechanism": "cma"}
NEW = {"btl_sm_eager_limit": "8192", "coll_tuned_priority": "30", "pml_ob1_major_version": "5",
       "coll_han_priority": "35"}


class Digest(unittest.TestCase):
    def test_the_c_writer_digests_its_set_as_documented(self):
        # tests/golden/driver_fixed.jsonl is written by mg_prov_write_cvars
        with open(os.path.join(h.TOP, "tests", "golden", "driver_fixed.jsonl")) as f:
            recs = [json.loads(line) for line in f]
        run = next(r for r in recs if r["type"] == "run")
        cv = next(r for r in recs if r["type"] == "cvars")
        self.assertEqual(cv["fields"], FIELDS)
        self.assertEqual(cv["digest"], run["cvars"]["digest"])
        self.assertEqual(cv["digest"], "7b37970625bd43e6")
        self.assertEqual(fnv1a64("".join(f"{r[0]}={r[1]}\n" for r in cv["cvars"])), cv["digest"])


class Differences(unittest.TestCase):
    def sides(self, a, b, lib_a="Open MPI v4.1.4", lib_b="Open MPI v4.1.4"):
        base = side(with_cvars(h.synthetic_set(lib_a, {}, launches=2), cvars_record(a, lib_a)))
        new = side(with_cvars(h.synthetic_set(lib_b, {}, launches=2), cvars_record(b, lib_b)))
        base.label, new.label = "v1", "v2"
        return base, new

    def test_changed_values_then_each_sides_own_with_versions_counted(self):
        base, new = self.sides(OLD, NEW)
        self.assertEqual(mg.cvars.differences(base, new), [
            "cvar (v1 -> v2): btl_sm_eager_limit 4096 -> 8192",
            "cvar (v1 -> v2): btl_vader_single_copy_mechanism cma only in v1",
            "cvar (v1 -> v2): coll_han_priority 35 only in v2",
            "cvar (v1 -> v2): 1 component versions and installation paths differ too"])
        # the whole list names every variable
        self.assertIn("pml_ob1_major_version 4 -> 5",
                      " ".join(mg.cvars.differences(base, new, shown=None)))

    def test_protocol_limits_then_waiting_then_the_rest_by_name(self):
        a = {"MPIR_CVAR_CH4_CMA_ENABLE": "1", "MPIR_CVAR_ASYNC_PROGRESS": "0",
             "MPIR_CVAR_CH4_SHM_POSIX_EAGER_MAX_MSG_SIZE": "69632", "MPIR_CVAR_BCAST_ALGO": "auto",
             "MPIR_CVAR_CH4_YIELD_WHILE_WAITING": "0"}
        b = {k: v + "9" for k, v in a.items()}
        base, new = self.sides(a, b, "MPICH 4.3.2", "MPICH 5.0.0")
        self.assertEqual([x.split(": ", 1)[1].split()[0] for x in mg.cvars.differences(base, new)],
                         ["MPIR_CVAR_CH4_SHM_POSIX_EAGER_MAX_MSG_SIZE",
                          "MPIR_CVAR_ASYNC_PROGRESS", "MPIR_CVAR_CH4_YIELD_WHILE_WAITING",
                          "MPIR_CVAR_BCAST_ALGO", "MPIR_CVAR_CH4_CMA_ENABLE"])
        self.assertEqual([mg.cvars.telling(n) for n in ("btl_sm_eager_limit",
                          "pml_ob1_rndv_pipeline_send_length", "mpi_yield_when_idle",
                                                        "coll_han_priority")], [0, 0, 1, 2])

    def test_the_same_set_says_nothing_and_explanations_put_cvars_first(self):
        base, new = self.sides(OLD, OLD)
        self.assertEqual(mg.cvars.differences(base, new), [])
        base, new = self.sides(OLD, NEW)
        new.launches[0].run["nranks"] = 4
        ex = mg.compare.explanations(base, new)
        self.assertTrue(ex[0].startswith("cvar (v1 -> v2): btl_sm_eager_limit"), ex)
        self.assertTrue(any("rank count differs" in x for x in ex), ex)

    def test_library_settings_in_the_environment_follow_the_cvars(self):
        base, new = self.sides(OLD, OLD)
        for la in base.launches:
            la.run["env"] = {"SLURM_JOB_ID": "1", "UCX_TLS": "sm"}
        for la in new.launches:
            la.run["env"] = {"SLURM_JOB_ID": "2", "MPIR_CVAR_CH4_NETMOD": "ofi", "UCX_TLS": "sm"}
        self.assertEqual(mg.compare.explanations(base, new),
                         ["environment (v1 -> v2): MPIR_CVAR_CH4_NETMOD unset -> ofi"])
        # a launcher's per-job values change on every launch: never a difference
        for k, la in enumerate(base.launches + new.launches):
            la.run["env"]["OMPI_MCA_orte_hnp_uri"] = f"{1000 + k}.0;tcp://10.0.0.1:{4000 + k}"
        self.assertEqual(mg.compare.explanations(base, new),
                         ["environment (v1 -> v2): MPIR_CVAR_CH4_NETMOD unset -> ofi"])

    def test_how_the_libraries_were_built_comes_first(self):
        v423 = ("MPICH Version:      4.2.3\nMPICH Release date: Wed Oct  2 2024\n"
                "MPICH ABI:          16:3:4\nMPICH Device:       ch4:ofi ucx\n"
                "MPICH configure:    --with-device=ch4:ofi,ucx --with-pm=hydra:gforker\n"
                "MPICH CC:           cc\n")
        v431 = v423.replace("4.2.3", "4.3.1").replace("16:3:4", "17:1:5") \
            .replace("ofi ucx", "ucx ofi").replace("ch4:ofi,ucx", "ch4:ucx,ofi")
        self.assertEqual(mg.cvars.library_build(v423), {
            "MPICH Device": "ch4:ofi ucx",
            "MPICH configure": "--with-device=ch4:ofi,ucx --with-pm=hydra:gforker"})
        self.assertEqual(mg.cvars.library_build(
            "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, "
            "2022"), {"package": "Debian OpenMPI"})
        self.assertEqual(mg.cvars.library_build("Intel(R) MPI Library 2021.4 for Linux* OS\n"),
                         {})
        self.assertEqual(mg.cvars.library_build(None), {})
        base, new = self.sides(OLD, NEW)
        for rs, text in ((base, v423), (new, v431)):
            for la in rs.launches:
                la.run["mpi_library_version"] = text
        ex = mg.compare.explanations(base, new)
        # the version, date and ABI differ by design between releases: never named
        self.assertEqual(ex[:3], [
            "library build (v1 -> v2): MPICH Device ch4:ofi ucx -> ch4:ucx ofi",
            "library build (v1 -> v2): MPICH configure --with-device=ch4:ofi,ucx -> "
            "--with-device=ch4:ucx,ofi",
            "cvar (v1 -> v2): btl_sm_eager_limit 4096 -> 8192"])
        # the same build says nothing; a configure line of many options says those that differ
        for la in new.launches:
            la.run["mpi_library_version"] = v423.replace("--with-pm", "--enable-fast=O3 --with-pm")
        self.assertEqual(mg.cvars.build_differences(base, new), [
            "library build (v1 -> v2): MPICH configure (nothing more) -> --enable-fast=O3"])
        for la in new.launches:
            la.run["mpi_library_version"] = v423.replace("MPICH Version:      4.2.3",
                                                         "MPICH Version:      4.2.2")
        self.assertEqual(mg.cvars.build_differences(base, new), [])

    def test_two_libraries_sets_are_summarised(self):
        mpich = {"MPIR_CVAR_CH4_NETMOD": "ucx", "MPIR_CVAR_ENABLE_GPU": "0"}
        base, new = self.sides(OLD, mpich, lib_b="MPICH Version: 4.0.2")
        self.assertEqual(mg.cvars.differences(base, new), [
            "control variables (MPI_T): two libraries' sets (4 in v1, 2 in v2, 0 names in "
            "common, 0 of them with other values)"])

    def test_a_limit_of_lines_and_a_side_with_two_sets(self):
        many_a = {f"v{i:03d}": "0" for i in range(30)}
        many_b = {f"v{i:03d}": "1" for i in range(30)}
        base, new = self.sides(many_a, many_b)
        lines = mg.cvars.differences(base, new)
        self.assertEqual(len(lines), 13)
        self.assertEqual(lines[-1], "cvar (v1 -> v2): ... and 18 more (mpigauge cvars lists them "
                         "all)")
        a, b = cvars_record(OLD), cvars_record(NEW)
        recs = with_cvars(h.synthetic_set("L", {}, launches=1), a) + \
            with_cvars(h.synthetic_set("L", {}, launches=1), b)
        mixed = side(recs)
        mixed.label = "m"
        first = mg.cvars.differences(mixed, mixed)[0]
        self.assertTrue(first.startswith("m: launches ran with 2 different sets of control "
                                         "variables (MPI_T): btl_sm_eager_limit"), first)


class KeptOnce(unittest.TestCase):
    def test_a_results_file_keeps_each_set_once_also_when_appended(self):
        rec = cvars_record(OLD)
        run = dict(h.run_record("latency"), cvars={"state": "read", "digest": rec["digest"]})
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "r.jsonl")
            w = mg.resultsfile.Writer(p, append=False)
            w.write([rec, run])
            w.write([rec, run])
            w.close()
            w = mg.resultsfile.Writer(p, append=True)
            w.write([rec, run, cvars_record(NEW)])
            w.close()
            with open(p) as f:
                types = [json.loads(line)["type"] for line in f]
        self.assertEqual(types, ["cvars", "run", "run", "run", "cvars"])

    def test_the_history_keeps_the_sets_and_gives_them_back_with_the_launches(self):
        with tempfile.TemporaryDirectory() as d:
            db, f1, f2 = (os.path.join(d, n) for n in ("h.sqlite", "a.jsonl", "b.jsonl"))
            h.write_jsonl(f1, with_cvars(h.synthetic_set("Open MPI v4.1.4", {}), cvars_record(OLD)))
            h.write_jsonl(f2, with_cvars(h.synthetic_set("Open MPI v4.1.4", {(
                "latency", 8): 1.3}), cvars_record(NEW)))
            self.assertEqual(h.cli("history", "--db", db, "add", f1, "--tag", "v1")[0], 0)
            self.assertEqual(h.cli("history", "--db", db, "add", f2, "--tag", "v2")[0], 0)
            rc, out, err = h.cli("history", "--db", db, "check", "v2", "--against", "v1")
            self.assertEqual(rc, 1, err)
            self.assertIn("cvar (v1 -> v2): btl_sm_eager_limit 4096 -> 8192", out)
            hist = mg.history.History(db)
            recs = hist.records("v1")
            hist.close()
            self.assertEqual([r["type"] for r in recs[:2]], ["cvars", "run"])
            self.assertEqual(sum(r["type"] == "cvars" for r in recs), 1)


class Command(unittest.TestCase):
    def test_compare_says_what_differs_once_and_warns_only_of_how_runs_were_made(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.jsonl"), os.path.join(d, "b.jsonl")
            h.write_jsonl(a, with_cvars(h.synthetic_set("L", {}, launches=2), cvars_record(OLD)))
            recs = with_cvars(h.synthetic_set("L", {}, launches=2), cvars_record(NEW))
            for r in recs:          # one way the runs were made differently: the timer
                if r["type"] == "run":
                    r["timer"] = "clock_gettime"
            h.write_jsonl(b, recs)
            rc, out, err = h.cli("compare", "v1=" + a, "v2=" + b)
            self.assertEqual(rc, 0, err)
            self.assertNotIn("cvar", err)                   # expected, not a warning
            self.assertIn("warning: timer differs", err)
            head = "what differs (v1 -> v2; all the control variables: mpigauge cvars):\n"
            self.assertEqual(out.count(head), 1, out)
            self.assertIn(head + "  cvar (v1 -> v2): btl_sm_eager_limit 4096 -> 8192\n", out)
            self.assertEqual(out.count("btl_sm_eager_limit 4096 -> 8192"), 1, out)
            self.assertIn("warning: timer differs", out)
            rc, out, _ = h.cli("compare", "v1=" + a, "v2=" + b, "--format", "json")
            top = json.loads(out.splitlines()[0])
            self.assertIn("cvar (v1 -> v2): btl_sm_eager_limit 4096 -> 8192", top["what_differs"])
            self.assertFalse(any("cvar" in w for w in top["warnings"]), top["warnings"])
            self.assertTrue(any(w.startswith("timer differs") for w in top["warnings"]))
            # one build against itself: nothing differs, nothing said
            rc, out, err = h.cli("compare", "v1=" + a, "v1b=" + a)
            self.assertNotIn("what differs", out)
            self.assertEqual(err, "")

    def test_cvars_lists_the_sets_and_their_differences(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.jsonl"), os.path.join(d, "b.jsonl")
            h.write_jsonl(a, with_cvars(h.synthetic_set("L", {}, launches=2), cvars_record(OLD)))
            h.write_jsonl(b, with_cvars(h.synthetic_set("L", {}, launches=2), cvars_record(NEW)))
            rc, out, _ = h.cli("cvars", a)
            self.assertEqual(rc, 0)
            self.assertRegex(out, r"^L: set [0-9a-f]{16}: 4 variables, 4 launches\n$")
            rc, out, _ = h.cli("cvars", "v1=" + a, "v2=" + b)
            self.assertEqual(rc, 0)
            self.assertIn("cvar (v1 -> v2): pml_ob1_major_version 4 -> 5\n", out)
            rc, out, _ = h.cli("cvars", a, "--list")
            self.assertIn("  btl_sm_eager_limit = 4096\n", out)


if __name__ == "__main__":
    unittest.main()


class Secrets(unittest.TestCase):
    """The one secrets rule on every cvar value, also for a file written
    before the programs applied it: `cvars`, `compare` and the history never
    show or keep the value."""
    SECRET = "AKIAXXSECRETVALUE"

    def test_a_secret_in_an_old_file_is_redacted_everywhere(self):
        old = dict(OLD, mca_base_env_list=f"AWS_SECRET_ACCESS_KEY={self.SECRET}")
        new = dict(NEW, mca_base_env_list=f"AWS_SECRET_ACCESS_KEY={self.SECRET}x")
        rec_old, rec_new = cvars_record(old), cvars_record(new)
        for rec in (rec_old, rec_new):      # a string, as the programs write it
            for row in rec["cvars"]:
                if row[0] == "mca_base_env_list":
                    row[2] = "char"
        with tempfile.TemporaryDirectory() as d:
            a, b, db = (os.path.join(d, n) for n in ("a.jsonl", "b.jsonl", "h.sqlite"))
            h.write_jsonl(a, with_cvars(h.synthetic_set("L", {}, launches=2), rec_old))
            h.write_jsonl(b, with_cvars(h.synthetic_set("L", {}, launches=2), rec_new))
            rc, out, _ = h.cli("cvars", a, "--list")
            self.assertEqual(rc, 0)
            self.assertIn("mca_base_env_list = <redacted>", out)
            self.assertIn("btl_sm_eager_limit = 4096", out)
            for argv in (("cvars", a, b), ("compare", a, b)):
                rc, out, err = h.cli(*argv)
                self.assertNotIn(self.SECRET, out + err)
            self.assertEqual(h.cli("history", "--db", db, "add", a, "--tag", "v1")[0], 0)
            with open(db, "rb") as f:
                self.assertNotIn(self.SECRET.encode(), f.read())
            rc, out, err = h.cli("history", "--db", db, "export")
            self.assertEqual(rc, 0, err)
            self.assertNotIn(self.SECRET, out)
            self.assertIn("<redacted>", out)

    def test_the_rule_as_the_programs_apply_it(self):
        rec = {"cvars": [["mca_base_env_list", "X=1;DB_PASS=2", "char"],
                         ["plm_rsh_pass_libpath", "/opt/lib", "char"],
                         ["MPIR_CVAR_CH4_OFI_ENABLE_MR_PROV_KEY", "1", "int"],
                         ["btl", "self,vader", "char"]]}
        self.assertEqual(mg.cvars.table(rec),
                         {"mca_base_env_list": "<redacted>", "plm_rsh_pass_libpath": "<redacted>",
                          "MPIR_CVAR_CH4_OFI_ENABLE_MR_PROV_KEY": "1", "btl": "self,vader"})
        clean = {"cvars": [["btl", "self,vader", "char"]]}
        self.assertIs(mg.cvars.redact(clean), clean)
