# SPDX-License-Identifier: BSD-3-Clause
"""Suite files: parsing, includes, error messages, the built-in suites."""
import os
import types
import tempfile
import unittest

from helpers import TOP, load_frontend

mg = load_frontend()


class TestParse(unittest.TestCase):
    def parse(self, text):
        return mg.parse_suite(text, "s.txt")

    def test_lines_comments_and_keys(self):
        e = self.parse("# comment\n\nlatency -m 0:1M  # trailing\n"
                       "ranks=2 timeout=30 mpigauge_bw -W 8 --time-budget 0.1\n"
                       "allreduce 'quoted arg'\n")
        self.assertEqual([x.name for x in e], ["latency", "bw", "allreduce"])
        self.assertEqual(e[0].args, ["-m", "0:1M"])
        self.assertEqual((e[1].ranks, e[1].timeout), (2, 30.0))
        self.assertEqual(e[1].args, ["-W", "8", "--time-budget", "0.1"])
        self.assertEqual(e[2].args, ["quoted arg"])
        self.assertEqual(e[1].source, "s.txt:4")
        self.assertIsNone(e[0].ranks)

    def test_errors_name_file_and_line(self):
        cases = {
            "ranks=0 latency": "s.txt:1: ranks must be a positive integer, not '0'",
            "ranks=two latency": "s.txt:1: ranks must be a positive integer",
            "\ntimeout=-3 bw": "s.txt:2: timeout must be a positive number",
            "np=2 latency": "s.txt:1: unknown key 'np'",
            "ranks=2": "s.txt:1: no benchmark name",
            "-m 1:4 latency": "s.txt:1: '-m' is not a benchmark name",
            "../evil": "is not a benchmark name",
            "latency 'unclosed": "s.txt:1: No closing quotation",
            "include": "s.txt:1: 'include' takes one suite name",
        }
        for text, msg in cases.items():
            with self.assertRaises(mg.UsageError, msg=text) as cm:
                mg.parse_suite(text, "s.txt", include=lambda *a: [])
            self.assertIn(msg, str(cm.exception), text)

    def test_line_for_the_record(self):
        e = self.parse("bw -m '1 2'")[0]
        self.assertEqual(e.line(), "bw -m '1 2'")


class TestLoad(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        p = os.path.join(self.d, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_builtin_suites_parse(self):
        for name in mg.SUITE_NAMES:
            path, entries = mg.load_suite(name)
            self.assertTrue(path.startswith(os.path.join(TOP, "frontend", "suites")), path)
            self.assertTrue(entries, name)
        names = [e.name for e in mg.load_suite("quick")[1]]
        self.assertEqual(names, ["latency", "bw", "bibw"])
        full = [e.name for e in mg.load_suite("full")[1]]
        self.assertEqual(full[:3], ["latency", "bw", "bibw"])
        self.assertIn("fop_latency", full)
        each = [e for e in mg.load_suite("collectives")[1] if e.each]
        self.assertEqual([(e.each, e.name, e.args) for e in each],
                         [("collective", "coll", ["-m", "8:64K", "--time-budget", "0.05"])])
        rma = mg.load_suite("onesided")[1]
        self.assertEqual(len([e for e in rma if e.name == "put_latency"]), 4)

    def test_each_is_every_name_the_program_lists(self):
        # a new operation in the program's table needs no suite line
        prog = self.write("mpigauge_coll", "#!/bin/sh\n[ \"$1\" = --list-names ] && "
                          "printf 'barrier\\nallreduce\\nnewop\\n'\n")
        os.chmod(prog, 0o755)
        entries = mg.parse_suite("ranks=3 each collective -m 8\nbw\n", "s.txt")
        a = types.SimpleNamespace(bindir=[self.d])
        got = mg.expand_each(entries, [mg.Config(None)], a)
        self.assertEqual([(e.name, e.args, e.ranks, e.source) for e in got],
                         [("barrier", ["-m", "8"], 3, "s.txt:1"),
                          ("allreduce", ["-m", "8"], 3, "s.txt:1"),
                          ("newop", ["-m", "8"], 3, "s.txt:1"), ("bw", [], None, "s.txt:2")])
        with self.assertRaises(mg.UsageError) as cm:
            mg.expand_each(mg.parse_suite("each onesided\n", "t.txt"), [mg.Config(None)], a)
        self.assertIn("t.txt:1: each onesided: no mpigauge_rma", str(cm.exception))
        with self.assertRaises(mg.UsageError) as cm:
            mg.parse_suite("each pt2pt\n", "u.txt")
        self.assertIn("'each' takes a family: collective, onesided", str(cm.exception))

    def test_include_relative_and_cycle(self):
        self.write("a.txt", "latency\ninclude b.txt\n")
        self.write("b.txt", "bw\ninclude quick\n")
        _, e = mg.load_suite(os.path.join(self.d, "a.txt"))
        self.assertEqual([x.name for x in e], ["latency", "bw", "latency", "bw", "bibw"])
        self.write("c.txt", "include d.txt\n")
        self.write("d.txt", "include c.txt\n")
        with self.assertRaises(mg.UsageError) as cm:
            mg.load_suite(os.path.join(self.d, "c.txt"))
        self.assertIn("include cycle", str(cm.exception))

    def test_unknown_and_empty(self):
        with self.assertRaises(mg.UsageError) as cm:
            mg.load_suite("nosuchsuite")
        self.assertIn("unknown suite 'nosuchsuite'", str(cm.exception))
        self.assertIn("quick", str(cm.exception))
        with self.assertRaises(mg.UsageError) as cm:
            mg.load_suite(os.path.join(self.d, "missing.txt"))
        self.assertIn("not found", str(cm.exception))
        p = self.write("empty.txt", "# nothing\n")
        with self.assertRaises(mg.UsageError) as cm:
            mg.load_suite(p)
        self.assertIn("lists no benchmarks", str(cm.exception))
        p = self.write("badinc.txt", "include nosuch\n")
        with self.assertRaises(mg.UsageError) as cm:
            mg.load_suite(p)
        self.assertIn("badinc.txt:1: unknown suite", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
