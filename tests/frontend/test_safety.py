# SPDX-License-Identifier: BSD-3-Clause
"""The front-end never replaces what is not its own, never runs script in a
page it writes, and keeps the results file valid: output paths, escaping,
bounded options, a torn last line, a full disk."""
import json
import os
import shutil
import stat
import subprocess
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
BASE = os.path.join(h.DATA, "base.jsonl")
NEW = os.path.join(h.DATA, "new.jsonl")
PAYLOAD = '"><script>alert(1)</script><img src=x onerror=alert(2)>'


cli = h.cli


class TestOutputPaths(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    @unittest.skipUnless(os.geteuid() == 0, "needs root (a link of another user)")
    def test_run_does_not_follow_a_link_planted_in_a_shared_folder(self):
        private, shared = os.path.join(self.d, "private"), os.path.join(self.d, "shared")
        os.mkdir(private, 0o700)
        os.mkdir(shared)
        os.chmod(shared, 0o1777)
        victim = os.path.join(private, "victim.conf")
        with open(victim, "w") as f:
            f.write("secret\n")
        link = os.path.join(shared, "results.jsonl")
        os.symlink(victim, link)
        os.lchown(link, 65534, -1)
        empty = os.path.join(self.d, "empty")
        os.mkdir(empty)
        for extra in ([], ["--force"], ["--append"]):
            rc, out, err = cli("run", "--suite", "quick", "--bindir", empty, "-o", link, *extra)
            self.assertEqual(rc, 2, err)
            self.assertIn("sticky, world-writable", err)
        with open(victim) as f:
            self.assertEqual(f.read(), "secret\n")
        # one's own link there is followed
        os.lchown(link, 0, -1)
        mg.check_link_followable(link)
        # and the rule is the kernel's: not sticky, any owner
        os.chmod(shared, 0o777)
        os.lchown(link, 65534, -1)
        mg.check_link_followable(link)

    def test_symlink_device_and_folder_are_refused_and_left_alone(self):
        victim = os.path.join(self.d, "victim")
        with open(victim, "w") as f:
            f.write("keep me")
        link = os.path.join(self.d, "link.md")
        os.symlink(victim, link)
        for target in (link, "/dev/null", self.d):
            rc, _, err = cli("compare", BASE, NEW, "-o", target)
            self.assertEqual(rc, 2, target)
            self.assertIn("is not a regular file", err)
        with open(victim) as f:
            self.assertEqual(f.read(), "keep me")
        self.assertTrue(os.path.islink(link))
        self.assertTrue(stat.S_ISCHR(os.stat("/dev/null").st_mode))
        rc, _, err = cli("report", BASE, "--no-plot", "-o", os.path.join(self.d, "no", "r.html"))
        self.assertEqual(rc, 2)
        self.assertIn("does not exist", err)

    def test_a_regular_file_is_replaced_whole_with_the_umask(self):
        p = os.path.join(self.d, "cmp.md")
        with open(p, "w") as f:
            f.write("old")
        old = os.umask(0o027)
        try:
            rc, _, _ = cli("compare", BASE, NEW, "-o", p)
        finally:
            os.umask(old)
        self.assertEqual(rc, 0)
        with open(p) as f:
            self.assertTrue(f.read().startswith("### MPICH 4.0.2 vs Open MPI"))
        self.assertEqual(stat.S_IMODE(os.stat(p).st_mode), 0o640)
        self.assertEqual(os.listdir(self.d), ["cmp.md"])      # no temporary file left

    def test_unusable_paths_are_one_line_and_exit_2(self):
        os.mkdir(os.path.join(self.d, "adir"))
        bad = os.path.join(self.d, "bad.txt")
        with open(bad, "wb") as f:
            f.write(b"latency \xff\xfe\n")
        exist = os.path.join(self.d, "exist")
        open(exist, "w").close()
        empty = os.path.join(self.d, "empty")
        os.mkdir(empty)
        for argv, want in (
                (["run", "--bindir", empty, "-o", os.path.join(self.d, "adir"), "--force"],
                 "exists and is not a regular file"),
                (["run", "--bindir", empty, "-o", os.path.join(self.d, "no", "such", "x.jsonl")],
                 "No such file or directory"),
                (["run", "--suite", bad, "-o", os.path.join(self.d, "x.jsonl")], "not UTF-8"),
                (["selftest", "--slowlib", "/bin/sh", "-o", exist], "File exists"),
                (["selftest", "--slowlib", "/etc/hostname", "-o", os.path.join(self.d, "st")],
                 "not a shared library")):
            rc, _, err = cli(*argv)
            self.assertEqual(rc, 2, argv)
            self.assertIn(want, err)
            self.assertNotIn("Traceback", err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_huge_and_infinite_values_are_left_out_with_a_warning(self):
        recs = [json.loads(l) for l in open(BASE, encoding="utf-8")]
        res = [r for r in recs if r["type"] == "result"]
        res[0]["size_bytes"] = 10 ** 400
        res[1]["median"] = float("inf")
        path = os.path.join(self.d, "huge.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
        for argv in (["compare", path, NEW], ["best", path, NEW],
                     ["report", path, "--no-plot", "-o", os.path.join(self.d, "r.html")]):
            rc, _, err = cli(*argv)
            self.assertEqual(rc, 0, (argv, err))
            self.assertNotIn("Traceback", err)
            if argv[0] != "best":
                self.assertIn("size_bytes is not a message size", err)
                self.assertIn("median is not a finite number", err)

    def test_bounded_options(self):
        for args in (["--timeout", "inf"], ["--timeout", "1e300"], ["--timeout", "0"]):
            rc, _, err = cli("run", "-o", os.path.join(self.d, "r.jsonl"), *args)
            self.assertEqual(rc, 2, args)
            self.assertIn("--timeout must be", err)
        out = os.path.join(self.d, "r.jsonl")
        for args, why in ((["--repeat", "1000000000"], "--repeat must be between 1 and 10000"),
                          (["--until-decided", "--config", "a", "--config", "b",
                            "--max-rounds", "100000000"], "--max-rounds must be at most 10000"),
                          (["--max-ranks", "0"], "--max-ranks must be at least 1")):
            rc, _, err = cli("run", "-o", out, *args)
            self.assertEqual((rc, why in err), (2, True), (args, err))
        suite = os.path.join(self.d, "s.txt")
        with open(suite, "w") as f:
            f.write("ranks=100000 latency\n")
        rc, _, err = cli("run", "--suite", suite, "-o", out)
        self.assertEqual(rc, 2)
        self.assertIn("s.txt:1: 100000 ranks is more than", err)
        with open(suite, "w") as f:
            f.write("latency\n")
        rc, _, err = cli("run", "--suite", suite, "-n", "100000", "-o", out)
        self.assertEqual((rc, "100000 ranks is more than" in err), (2, True), err)
        self.assertIn("give --max-ranks 100000 if you mean it", err)
        self.assertFalse(os.path.exists(out))
        for effects in ("inf", "-5", "10,10", "nan"):
            rc, _, err = cli("selftest", "--slowlib", "/etc/hostname", "--effects", effects,
                             "-o", self.d)
            self.assertEqual(rc, 2, effects)
            self.assertIn("--effects", err)
        rc, _, err = cli("run", "-o", out, "--exit-grace", "-1")
        self.assertEqual((rc, "--exit-grace must be" in err), (2, True), err)
        empty_toml = os.path.join(self.d, "empty.toml")
        open(empty_toml, "w").close()
        rc, _, err = cli("run", "--configs", empty_toml, "-o", out)
        self.assertEqual((rc, "no [[config]] or [[sweep]]" in err), (2, True), err)
        rc, _, err = cli("dashboard", "--alpha", "7", "-o", os.path.join(self.d, "site"))
        self.assertEqual((rc, "--alpha must be between 0 and 1" in err), (2, True), err)
        rc, _, err = cli("selftest", "--slowlib", "/etc/hostname", "--turn-slice", "0", "-o", self.d)
        self.assertEqual((rc, "--turn-slice" in err), (2, True), err)
        rc, _, err = cli("plot", BASE, "--dpi", "0", "-o", os.path.join(self.d, "p.png"))
        if mg.plot.import_pyplot() is not None:
            self.assertEqual(rc, 2)
            self.assertIn("--dpi 0", err)


class TestEscaping(unittest.TestCase):
    def test_every_field_is_escaped_and_scripts_are_forbidden(self):
        with tempfile.TemporaryDirectory() as d:
            run = h.run_record("latency", library=PAYLOAD, hosts=(PAYLOAD, PAYLOAD),
                               bindings=(PAYLOAD, PAYLOAD), launch_id="L1")
            run.update(timer=PAYLOAD, timer_resolution_s=PAYLOAD, timer_overhead_s=PAYLOAD,
                       mpigauge_version=PAYLOAD, command_line=[PAYLOAD], env={"X": PAYLOAD})
            recs = [{"type": "session", "session_id": PAYLOAD, "suite": PAYLOAD, "host": PAYLOAD},
                    {"type": "launch", "launch_id": "L1", "benchmark": PAYLOAD, "status": PAYLOAD,
                     "message": PAYLOAD, "command": [PAYLOAD], "stderr_tail": PAYLOAD},
                    run, h.result_record("latency", 8, "us", 0.2, launch_id="L1"),
                    {"type": "sentinel", "phase": "before", "launch_id": "L1",
                     "probe_latency_us": PAYLOAD, "nodes": [{"host": PAYLOAD, "load1": PAYLOAD}]}]
            p = os.path.join(d, "r.jsonl")
            h.write_jsonl(p, recs)
            out = os.path.join(d, "r.html")
            rc, _, err = cli("report", "<script>alert(3)</script>=" + p, "--no-plot", "-o", out)
            self.assertEqual(rc, 0, err)
            with open(out) as f:
                page = f.read()
        self.assertNotIn("<script", page)
        self.assertNotIn("<img", page)
        self.assertIn("&lt;script&gt;", page)
        self.assertIn("Content-Security-Policy", page)
        self.assertIn("default-src 'none'", page)

    def test_a_terminal_escape_in_a_library_name_is_shown(self):
        with tempfile.TemporaryDirectory() as d:
            lib = "Open MPI\x1b[31m 4.1.4\x07"
            p = os.path.join(d, "r.jsonl")
            h.write_jsonl(p, [h.run_record("latency", library=lib, launch_id="L1"),
                              h.result_record("latency", 8, "us", 0.2, launch_id="L1")])
            out = os.path.join(d, "r.html")
            rc, _, err = cli("report", p, "--no-plot", "-o", out)
            self.assertEqual(rc, 0, err)
            with open(out) as f:
                page = f.read()
        self.assertNotIn("\x1b", page)
        self.assertNotIn("\x07", page)
        self.assertIn("Open MPI\\x1b[31m 4.1.4\\x07", page)


class TestReportInChromium(unittest.TestCase):
    """The report with payloads in every field, loaded in headless Chromium
    (Debian's chromium): no payload runs (it would mark the page), the text
    shows as text, and the page has no script error."""
    MARK = '"><script>document.body.dataset.pwned=1</script><img src=x onerror="document.body.dataset.pwned=2">'

    def test_the_page_runs_no_payload(self):
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            self.skipTest("no chromium (scripts/setup-deps.sh installs it)")
        with tempfile.TemporaryDirectory() as d:
            run = h.run_record("latency", library=self.MARK, hosts=(self.MARK, self.MARK),
                               bindings=(self.MARK, self.MARK), launch_id="L1")
            run.update(timer=self.MARK, timer_resolution_s=self.MARK, timer_overhead_s=self.MARK,
                       mpigauge_version=self.MARK, command_line=[self.MARK], env={"X": self.MARK})
            recs = [{"type": "session", "session_id": self.MARK, "suite": self.MARK},
                    {"type": "launch", "launch_id": "L1", "benchmark": self.MARK,
                     "status": self.MARK, "message": self.MARK, "command": [self.MARK],
                     "stderr_tail": self.MARK},
                    run, h.result_record("latency", 8, "us", 0.2, launch_id="L1")]
            p = os.path.join(d, "r.jsonl")
            h.write_jsonl(p, recs)
            page = os.path.join(d, "r.html")
            rc, _, err = cli("report", p, "--no-plot", "-o", page)
            self.assertEqual(rc, 0, err)
            out = subprocess.run(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--user-data-dir=" + os.path.join(d, "profile"),
                 "--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + page],
                capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr[-2000:])
        dom = out.stdout
        self.assertIn("<body", dom)
        self.assertNotIn("data-pwned", dom)
        self.assertIn("document.body.dataset.pwned=1&lt;/script&gt;", dom)
        self.assertNotIn("Uncaught", out.stderr)


class TestResultsFile(unittest.TestCase):
    def test_append_cuts_a_torn_last_line(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "r.jsonl")
            with open(p, "w") as f:
                f.write('{"type":"session","session_id":"A"}\n{"type":"launch","launch_')
            w = mg.resultsfile.Writer(p, append=True)
            self.assertEqual(w.torn, len('{"type":"launch","launch_'))
            w.write([{"type": "session_end", "session_id": "A"}])
            w.close()
            with open(p) as f:
                recs = [json.loads(l) for l in f]
            self.assertEqual([r["type"] for r in recs], ["session", "session_end"])

    def _append(self, text):
        """Append a session_end to a file holding text; (torn, records)."""
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "r.jsonl")
            with open(p, "wb") as f:
                f.write(text.encode())
            w = mg.resultsfile.Writer(p, append=True)
            w.write([{"type": "session_end", "session_id": "B"}])
            w.close()
            with open(p) as f:
                return w.torn, [json.loads(l) for l in f]   # every line valid JSON

    def test_append_keeps_every_valid_record(self):
        recs = ['{"type":"session","session_id":"A"}', '{"type":"launch","launch_id":"L"}',
                '{"type":"run","benchmark":"latency"}']
        # a valid file whose last newline was stripped loses nothing
        torn, got = self._append("\n".join(recs))
        self.assertEqual((torn, [r["type"] for r in got]),
                         (0, ["session", "launch", "run", "session_end"]))
        # one record and no newline at all
        torn, got = self._append(recs[0])
        self.assertEqual((torn, len(got)), (0, 2))
        # a torn line longer than 64 KiB: only it is cut
        long_torn = '{"type":"result","x":"' + "y" * 100000
        torn, got = self._append("\n".join(recs) + "\n" + long_torn)
        self.assertEqual((torn, len(got)), (len(long_torn), 4))

    def test_append_refuses_what_is_not_results(self):
        for text in ("hello world\nsecond line\n", "no newline at all", "{}\n",
                     '{"type":"nonsense"}\n{"type":"run"}\n', "x" * (2 << 20)):
            with tempfile.TemporaryDirectory() as d:
                p = os.path.join(d, "r.jsonl")
                with open(p, "w") as f:
                    f.write(text)
                with self.assertRaises(mg.UsageError) as cm:
                    mg.resultsfile.Writer(p, append=True)
                self.assertIn("not an mpigauge results file", str(cm.exception))
                with open(p) as f:
                    self.assertEqual(f.read(), text)

    def test_a_failed_write_is_rolled_back(self):
        # /dev/full: every write fails with ENOSPC, as on a full disk
        w = mg.resultsfile.Writer.__new__(mg.resultsfile.Writer)
        w.path, w.records, w.torn, w.end = "/dev/full", [], 0, 0
        w.f = open("/dev/full", "wb")
        with self.assertRaises(mg.OutputError) as cm:
            w.write([{"type": "launch"}])
        self.assertIn("No space left on device", str(cm.exception))
        self.assertIn("holds every launch before this one", str(cm.exception))
        self.assertEqual(w.records, [])
        w.close()


if __name__ == "__main__":
    unittest.main()


class TestMutatedInputs(unittest.TestCase):
    """Seeded mutations of a valid interleaved file: every one ends in an
    exit code (0, 1 or 2) and a message, never a traceback."""
    VALUES = (None, True, -1, 0, 1e308, float("inf"), "", "x", "\ud800", "$\\alpha$", [],
              [1, [2]], {}, {"a": {"b": []}}, "1e3", -0.0)

    def test_a_hundred_and_fifty_mutants(self):
        import random
        rng = random.Random(7)
        regime = [1.0, 1.0, 1.6, 1.0, 1.0, 1.0]
        base = h.interleaved_records({"a": [0.2 * r for r in regime],
                                      "b": [0.22 * r for r in regime]})
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "m.jsonl")
            out = os.path.join(d, "out.html")
            for i in range(150):
                recs = json.loads(json.dumps(base))
                for _ in range(rng.randint(1, 3)):
                    r = rng.choice(recs)
                    key = rng.choice(sorted(r) + ["nodes", "options", "configs"])
                    r[key] = rng.choice(self.VALUES)
                with open(p, "w") as f:
                    for r in recs:
                        f.write(json.dumps(r) + "\n")
                    if i % 25 == 0:
                        f.write("[" * 100000 + "\n")        # deep nesting
                for argv in (["compare", p], ["compare", p, "a", "b", "--format", "json"],
                             ["report", p, "--no-plot", "-o", out], ["best", p]):
                    try:
                        rc, o, e = cli(*argv)
                    except Exception as ex:               # noqa: BLE001
                        self.fail(f"mutant {i}: {argv[0]} raised {ex!r}")
                    self.assertIn(rc, (0, 1, 2), (i, argv, e))
                    (o + e).encode("utf-8")               # printable


class TestPlotLabels(unittest.TestCase):
    @unittest.skipIf(mg.plot.import_pyplot() is None, "matplotlib is not installed")
    def test_dollar_signs_are_shown_not_typeset(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "p.svg")
            rc, _, err = cli("plot", "$\\frac{a$=" + BASE, "-o", out, "--title", "$x")
            self.assertEqual(rc, 0, err)
            self.assertEqual(mg.plot.plain("a$b"), "a\\$b")
