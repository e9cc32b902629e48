# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge --help`: every command grouped by task with an example that the
command's own parser takes, every line within 80 columns; doc/develop.md's
worked example of a new command (one file, one row of cli.COMMANDS) built
on a copy of the package and run."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()


class Help(unittest.TestCase):
    def test_every_command_once_with_an_example_that_parses(self):
        text = mg.cli.DESCRIPTION
        self.assertTrue(all(len(line) <= 80 for line in text.splitlines()), text)
        parser = mg.cli.build_parser()
        sub = next(a for a in parser._actions if a.dest == "command")
        listed = [line.split()[0] for line in text.splitlines() if line.startswith("  ")
                  and not line.startswith("    ")]
        self.assertEqual(sorted(listed), sorted(sub.choices))
        examples = [line.strip() for line in text.splitlines() if line.startswith("      ")]
        self.assertEqual(sorted({shlex.split(e)[1] for e in examples}), sorted(sub.choices))
        for e in examples:
            a = parser.parse_args(shlex.split(e)[1:])
            self.assertTrue(callable(getattr(a, "func", None)), e)


def doc_example(marker):
    """The code block right after `<!-- MARKER... -->` in doc/develop.md."""
    with open(os.path.join(h.TOP, "doc", "develop.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- " + re.escape(marker) + r"[^>]*-->\n```python\n(.*?)```", text, re.S)
    if not m:
        raise AssertionError(f"doc/develop.md has no {marker} block")
    return m.group(1)


class WorkedExample(unittest.TestCase):
    """doc/develop.md's `mpigauge census`, as the doc has it: its file and its
    row are all a new command takes."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        pkg = os.path.join(self.tmp, "mpigauge")
        shutil.copytree(os.path.join(h.FRONTEND_DIR, "mpigauge"), pkg,
                        ignore=shutil.ignore_patterns("__pycache__"))
        with open(os.path.join(h.TOP, "doc", "develop.md"), encoding="utf-8") as f:
            path = re.search(r"<!-- example-command: (\S+) -->", f.read()).group(1)
        with open(os.path.join(pkg, path), "w", encoding="utf-8") as f:
            f.write(doc_example("example-command"))
        init = os.path.join(pkg, os.path.dirname(path), "__init__.py")
        with open(init, encoding="utf-8") as f:
            text = f.read()
        with open(init, "w", encoding="utf-8") as f:   # the package map's line
            head, _, tail = text.rpartition('"""')
            f.write(head + "  census_cli     `mpigauge census`\n" + '"""' + tail)
        cli = os.path.join(pkg, "cli.py")
        with open(cli, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("COMMANDS = (\n", text)
        with open(cli, "w", encoding="utf-8") as f:
            f.write(text.replace("COMMANDS = (\n", "COMMANDS = (\n" + doc_example("example-row"), 1))
        self.pkg = pkg

    def mpigauge(self, *argv):
        code = "import sys; from mpigauge.cli import main; sys.exit(main(sys.argv[1:]))"
        return subprocess.run([sys.executable, "-c", code, *argv], cwd=self.tmp, text=True,
                              capture_output=True, timeout=120,
                              env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))

    def test_the_command_runs_with_its_help_and_keeps_the_layers(self):
        results = os.path.join(self.tmp, "r.jsonl")
        h.write_jsonl(results, h.synthetic_set("Open MPI v4.1.4", {}, launches=3))
        r = self.mpigauge("census", results)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "Open MPI v4.1.4: 6 launches, 6 series (bw, latency)\n")
        r = self.mpigauge("--help")
        self.assertIn("  census     what results files hold, a line per set", r.stdout)
        self.assertIn("mpigauge census r.jsonl", r.stdout)
        r = self.mpigauge("census")
        self.assertEqual(r.returncode, 2)
        self.assertIn("mpigauge census: error: the following arguments are required", r.stderr)
        graph = os.path.join(h.TOP, "bench", "module_graph.py")
        r = subprocess.run([sys.executable, graph, "--layers", self.pkg], capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout)


if __name__ == "__main__":
    unittest.main()
