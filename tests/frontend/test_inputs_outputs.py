# SPDX-License-Identifier: BSD-3-Clause
"""Round four of "never lose, replace or hang" (issue 46), the front-end's
part: an output that is also one of the command's inputs is refused and
the input keeps its bytes; a full disk under `mpigauge run -o` leaves whole
records only (no torn launch, no hole of NUL bytes); `run -- --samples F`
gives every launch a samples file of its own."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import helpers as h
from helpers import load_frontend
from fakerun import FAKE, LAUNCHER

mg = load_frontend()
cli = h.cli


def _bytes(path):
    with open(path, "rb") as f:
        return f.read()


class TestOutputIsAnInput(unittest.TestCase):
    """Each case: the exact command, exit 2, the message, the bytes before and after."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.base = os.path.join(self.d, "base.jsonl")
        self.new = os.path.join(self.d, "new.jsonl")
        shutil.copy(os.path.join(h.DATA, "base.jsonl"), self.base)
        shutil.copy(os.path.join(h.DATA, "new.jsonl"), self.new)

    def tearDown(self):
        self.tmp.cleanup()

    def refused(self, victim, *argv):
        before = _bytes(victim)
        rc, out, err = cli(*argv)
        self.assertEqual(rc, 2, err)
        self.assertIn("is also an input of this command", err)
        self.assertEqual(_bytes(victim), before)
        self.assertEqual([f for f in os.listdir(self.d) if ".tmp." in f], [])
        return err

    def test_compare(self):
        self.refused(self.base, "compare", self.base, self.new, "-o", self.base)
        self.refused(self.new, "compare", self.base, f"new={self.new}", "-o", self.new)
        # a hard link to an input is the input
        link = os.path.join(self.d, "hard.txt")
        os.link(self.new, link)
        self.refused(self.new, "compare", self.base, self.new, "-o", link)
        # another name is written
        rc, _, err = cli("compare", self.base, self.new, "-o", os.path.join(self.d, "c.txt"))
        self.assertIn(rc, (0, 1), err)

    def test_report(self):
        self.refused(self.base, "report", self.base, "-o", self.base, "--no-plot")
        self.refused(self.new, "report", self.base, "--samples", self.new, "-o", self.new,
                     "--no-plot")

    def test_plot(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("needs matplotlib")
        svg = os.path.join(self.d, "in.svg")
        with open(svg, "w") as f:
            f.write("<svg/>\n")
        self.refused(svg, "plot", svg, "-o", svg)

    def test_best_export(self):
        sweep = os.path.join(self.d, "sweep.jsonl")
        h.write_jsonl(sweep, h.interleaved_records({"a": [1.0] * 6, "b": [1.2] * 6}))
        err = self.refused(sweep, "best", sweep, "--export", "ompi-rules", sweep)
        self.assertIn("--export ompi-rules", err)

    def test_history_check_and_export(self):
        db = os.path.join(self.d, "h.sqlite")
        rc, _, err = cli("history", "--db", db, "add", "--tag", "v1", self.base)
        self.assertEqual(rc, 0, err)
        self.refused(self.new, "history", "--db", db, "check", self.new, "--against", "v1",
                     "-o", self.new)
        self.refused(db, "history", "--db", db, "check", self.new, "--against", "v1", "-o", db)
        # the export that would have turned the whole database into its export
        self.refused(db, "history", "--db", db, "export", "-o", db)
        rc, _, err = cli("history", "--db", db, "list")
        self.assertEqual(rc, 0, err)

    def test_history_export_of_nothing_says_so(self):
        db = os.path.join(self.d, "h.sqlite")
        mg.history.History(db, create=True).close()     # a history with nothing in it
        out = os.path.join(self.d, "export.jsonl")
        rc, _, err = cli("history", "--db", db, "export", "-o", out)
        self.assertEqual(rc, 2)
        self.assertIn("nothing to export", err)
        self.assertFalse(os.path.exists(out))

    def test_dashboard_folder_holding_the_database(self):
        site = os.path.join(self.d, "site")
        db = os.path.join(site, "h.sqlite")
        rc, _, err = cli("history", "--db", db, "add", "--tag", "v1", self.base)
        self.assertEqual(rc, 0, err)
        before = _bytes(db)
        # made a dashboard folder by hand (its marker), the database inside
        with open(os.path.join(site, ".mpigauge-dashboard"), "w") as f:
            f.write("x\n")
        rc, _, err = cli("dashboard", "--db", db, "-o", site)
        self.assertEqual(rc, 2, err)
        self.assertIn("holds the history database", err)
        self.assertEqual(_bytes(db), before)


class TestReadersTakeRegularFilesOnly(unittest.TestCase):
    """A FIFO with no writer or /dev/zero given as an input: exit 2 with one
    message at once, never a hang or a read until memory runs out."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.fifo = os.path.join(self.d, "fifo")
        os.mkfifo(self.fifo)
        self.res = os.path.join(self.d, "r.jsonl")
        shutil.copy(os.path.join(h.DATA, "base.jsonl"), self.res)

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, *argv, kind):
        cmd = [sys.executable, h.FRONTEND] + list(argv)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"is {kind}; only regular files are read", p.stderr)
        self.assertNotIn("Traceback", p.stderr)

    def test_each_reader(self):
        out = os.path.join(self.d, "o.png")
        self.check("cvars", self.fifo, kind="a pipe")
        self.check("compare", self.res, "/dev/zero", kind="a device")
        self.check("report", self.res, "--samples", "/dev/zero", "-o",
                   os.path.join(self.d, "r.html"), "--no-plot", kind="a device")
        self.check("history", "--db", self.fifo, "list", kind="a pipe")
        self.check("run", "--suite", self.fifo, "--dry-run", kind="a pipe")
        self.check("run", "--suite", "quick", "--configs", self.fifo, "--dry-run", kind="a pipe")
        try:
            import matplotlib  # noqa: F401
            self.check("plot", "--timeline", "/dev/zero", "-o", out, kind="a device")
        except ImportError:
            pass


class TestDamagedInputs(unittest.TestCase):
    """Damaged or hostile input ends in an exit code and a message, never a
    traceback (issue 46, 9): each case its exact command."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.recs = h.synthetic_set("L", {})

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name, recs):
        p = os.path.join(self.d, name)
        h.write_jsonl(p, recs)
        return p

    def fe(self, *argv):
        p = subprocess.run([sys.executable, h.FRONTEND] + list(argv), capture_output=True,
                           text=True, timeout=120)
        self.assertNotIn("Traceback", p.stderr)
        return p.returncode, p.stdout, p.stderr

    def test_ranks_that_are_not_numbers(self):
        recs = [dict(r, rank_median_us=[1.0, "a", None], slowest_rank=0)
                if r["type"] == "result" else r for r in self.recs]
        f = self.path("r.jsonl", recs)
        out = os.path.join(self.d, "r.html")
        rc, _, err = self.fe("report", f, "--ranks", "latency:8", "-o", out, "--no-plot")
        self.assertEqual(rc, 0, err)
        with open(out) as fh:
            self.assertIn("<td>a</td>", fh.read())

    def test_a_unit_that_looks_like_a_formula(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("needs matplotlib")
        recs = [dict(r, unit="$\\foo$") if r["type"] == "result" else r for r in self.recs]
        rc, _, err = self.fe("plot", self.path("u.jsonl", recs), "-o",
                             os.path.join(self.d, "u.png"))
        self.assertEqual(rc, 0, err)

    def test_a_median_of_four_hundred_digits(self):
        base = self.path("a.jsonl", self.recs)
        huge = os.path.join(self.d, "b.jsonl")
        with open(huge, "w") as f:
            for r in self.recs:
                line = json.dumps(r)
                if r["type"] == "result":
                    line = line.replace(f'"median": {json.dumps(r["median"])}',
                                        '"median": 1' + "0" * 400)
                f.write(line + "\n")
        rc, _, err = self.fe("compare", base, huge)
        self.assertEqual(rc, 2, err)
        self.assertIn("median is not a finite number", err)

    def test_a_sweep_whose_env_is_not_a_table(self):
        toml = os.path.join(self.d, "c.toml")
        with open(toml, "w") as f:
            f.write('[[sweep]]\nlabel = "a{value}"\nvar = "X"\nvalues = [1, 2]\nenv = "abc"\n')
        rc, _, err = self.fe("run", "--suite", "quick", "--configs", toml, "--dry-run")
        self.assertEqual(rc, 2, err)
        self.assertIn("sweep 1: env must be a table", err)

    def test_algorithm_values_coll_tuned_does_not_have(self):
        from test_tuning import sweep_records
        for alg in ("\u00b2", "9" * 400, "99", "-3"):
            envs = {"default": {}, "x": {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                                         "OMPI_MCA_coll_tuned_allreduce_algorithm": alg}}
            truth = {("default", "allreduce"): {8: 4.0}, ("x", "allreduce"): {8: 3.0}}
            f = self.path("s.jsonl", sweep_records(envs, truth))
            out = os.path.join(self.d, "rules")
            rc, _, err = self.fe("best", f, "--export", "ompi-rules", out)
            self.assertEqual(rc, 2, (alg, err))
            self.assertIn("not one of coll_tuned's algorithms (0 to 6", err)
            self.assertFalse(os.path.exists(out))

    def test_a_history_with_medians_an_earlier_release_took(self):
        import sqlite3
        db = os.path.join(self.d, "h.sqlite")
        self.assertEqual(cli("history", "--db", db, "add", "--tag", "v1",
                             self.path("a.jsonl", self.recs))[0], 0)
        con = sqlite3.connect(db)
        con.execute("UPDATE results SET median = 'NaN' WHERE rowid % 3 = 0")
        con.execute("UPDATE results SET median = 0 WHERE rowid % 3 = 1")
        con.commit()
        con.close()
        rc, out, err = self.fe("dashboard", "--db", db, "-o", os.path.join(self.d, "site"))
        self.assertEqual(rc, 0, err)
        self.assertIn("results without a positive median", err)


class RunOutput(unittest.TestCase):
    """`mpigauge run` with the fake programs of test_runner."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.bin = os.path.join(self.d, "bin")
        os.mkdir(self.bin)
        fake = FAKE.replace("PYTHON", sys.executable) + BIG
        for name in ("ok", "big", "samples"):
            self._exe(os.path.join(self.bin, "mpigauge_" + name), fake)
        self.launcher = os.path.join(self.d, "fakerun")
        self._exe(self.launcher, LAUNCHER)

    def tearDown(self):
        self.tmp.cleanup()

    @staticmethod
    def _exe(path, text):
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)

    def run_cli(self, suite, out, *extra):
        s = os.path.join(self.d, "s.txt")
        with open(s, "w") as f:
            f.write(suite)
        cmd = [sys.executable, h.FRONTEND, "run", "--suite", s, "--bindir", self.bin,
               "--launcher", self.launcher, "--mpi", "openmpi", "-o", out] + list(extra)
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


# Two more fake programs: "big" prints a run record of 300 KB (more than the
# small file system of the full-disk test holds); "samples" writes its
# --samples FILE whole, naming its own launch (the file replaced, as the
# programs do).
BIG = r'''
if name == "big":
    r = run(); r["pad"] = "x" * 300000
    out(r); out(res(8, 1.0)); out(res(16, 2.0))
elif name == "samples":
    a = sys.argv
    path = next((a[i + 1] for i, w in enumerate(a) if w == "--samples"),
                next((w[10:] for w in a if w.startswith("--samples=")), None))
    with open(path + ".part", "w") as f:
        f.write(json.dumps({"type": "samples", "pid": os.getpid()}) + "\n")
    os.replace(path + ".part", path)
    out(run()); out(res(8, 1.0)); out(res(16, 2.0))
'''


class TestFullDisk(RunOutput):
    """A 64 KiB tmpfs (as root) as the full disk."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("mount") is None:
            self.skipTest("needs root to mount a small tmpfs")
        self.fs = os.path.join(self.d, "fs")
        os.mkdir(self.fs)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", self.fs],
                          capture_output=True).returncode != 0:
            self.skipTest("cannot mount a tmpfs here")

    def tearDown(self):
        if getattr(self, "fs", None):
            subprocess.run(["umount", self.fs], capture_output=True)
        super().tearDown()

    def test_a_full_disk_leaves_whole_records_and_no_hole(self):
        out = os.path.join(self.fs, "r.jsonl")
        p = self.run_cli("ok\nbig\nok\n", out)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("No space left on device", p.stderr)
        self.assertIn("rolled back to the last whole record", p.stderr)
        data = _bytes(out)
        self.assertEqual(data.count(b"\0"), 0)
        self.assertTrue(data.endswith(b"\n"))
        recs = [json.loads(line) for line in data.splitlines()]
        launches = [r for r in recs if r["type"] == "launch"]
        # the first launch whole; the big one never marked ok, nothing after it
        self.assertEqual([la["benchmark"] for la in launches], ["ok"])
        self.assertEqual(launches[0]["status"], "ok")
        self.assertEqual(recs[-1]["type"], "session_end")
        # the history counts what is there, complete
        db = os.path.join(self.d, "h.sqlite")
        rc, _, err = cli("history", "--db", db, "add", "--tag", "v1", out)
        self.assertEqual(rc, 0, err)

    def test_a_write_cut_part_way_is_rolled_back_and_writing_goes_on_after_it(self):
        # the Writer alone on a tmpfs: the big write fails part way, the file
        # is cut back, and the next write lands right after the last record
        path = os.path.join(self.fs, "r.jsonl")
        w = mg.resultsfile.Writer(path, append=False)
        w.write([{"type": "session", "session_id": "A"}])
        first = _bytes(path)
        with self.assertRaises(mg.OutputError):
            w.write([{"type": "launch", "status": "ok", "pad": "y" * 200000}])
        self.assertEqual(_bytes(path), first)
        w.write([{"type": "session_end", "session_id": "A"}])
        w.close()
        data = _bytes(path)
        self.assertEqual(data.count(b"\0"), 0)
        self.assertEqual([json.loads(x)["type"] for x in data.splitlines()],
                         ["session", "session_end"])


class TestRunOutputLinks(RunOutput):
    def test_a_link_to_nothing_is_refused_and_nothing_created(self):
        link = os.path.join(self.d, "r.jsonl")
        target = os.path.join(self.d, "made.jsonl")
        os.symlink(target, link)
        for extra in ([], ["--force"], ["--append"]):
            p = self.run_cli("ok\n", link, *extra)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("a symbolic link to nothing", p.stderr)
            self.assertFalse(os.path.exists(target))
            self.assertTrue(os.path.islink(link))

    def test_a_folder_or_device_is_refused(self):
        for path in (self.d, "/dev/null"):
            p = self.run_cli("ok\n", path, "--force")
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("is not a regular file", p.stderr)


class TestLaunchersThatDoNotLaunch(RunOutput):
    def test_a_launcher_that_exits_0_or_1_without_the_program(self):
        # launcher= a script that never starts the program: the launch is
        # failed and says why, never ok; run exits 1
        for code, want in (("0", "exit 0 but no run record on standard output (did the launcher "
                                 "start the program?)"),
                           ("1", "exit 1 with no record printed: the launcher failed or the "
                                 "program did not start"),
                           ("127", "exit 127 (the launcher, or a program it runs, not found)")):
            fake = os.path.join(self.d, f"exit{code}")
            self._exe(fake, f"#!/bin/sh\nexit {code}\n")
            out = os.path.join(self.d, f"r{code}.jsonl")
            p = self.run_cli("ok\n", out, "--config", "a", "--config", f"b launcher={fake}")
            self.assertEqual(p.returncode, 1, p.stderr)
            la = {r["config"]: r for r in map(json.loads, _bytes(out).splitlines())
                  if r["type"] == "launch"}
            self.assertEqual(la["a"]["status"], "ok")
            self.assertEqual((la["b"]["status"], la["b"]["message"]), ("failed", want))


class TestSamplesPerLaunch(RunOutput):
    def test_every_launch_gets_its_own_samples_file(self):
        out = os.path.join(self.d, "r.jsonl")
        sfile = os.path.join(self.d, "s.jsonl")
        p = self.run_cli("samples\n", out, "--repeat", "3", "--", "--samples", sfile)
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = [json.loads(x) for x in _bytes(out).splitlines()]
        launches = [r for r in recs if r["type"] == "launch"]
        files = [la["samples_file"] for la in launches]
        self.assertEqual(len(set(files)), 3)
        for la, f in zip(launches, files):
            self.assertEqual(f, os.path.join(self.d, f"s.{la['launch_id']}.jsonl"))
            self.assertTrue(os.path.isfile(f))
            self.assertIn(f, la["command"])
        self.assertFalse(os.path.exists(sfile))

    def test_samples_per_launch_rewrites_both_spellings(self):
        f = mg.steps.samples_per_launch
        self.assertEqual(f(["p", "--samples", "d/s.jsonl", "-m", "8"], "S-0001"),
                         (["p", "--samples", "d/s.S-0001.jsonl", "-m", "8"], "d/s.S-0001.jsonl"))
        self.assertEqual(f(["p", "--samples=s"], "S-0002"), (["p", "--samples=s.S-0002"], "s.S-0002"))
        self.assertEqual(f(["p", "--samples=.hidden"], "S-3"),
                         (["p", "--samples=.hidden.S-3"], ".hidden.S-3"))
        self.assertEqual(f(["p", "-m", "8"], "S-1"), (["p", "-m", "8"], None))


if __name__ == "__main__":
    unittest.main()
