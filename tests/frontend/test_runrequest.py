# SPDX-License-Identifier: BSD-3-Clause
"""The typed run request (runrequest.py) that series, guidelines and
selftest hand to the one run function: the same run as the command line's
with the same settings, its configurations as objects; a bad label refused
as --config's is."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import helpers as h
from fakerun import FAKE, LAUNCHER

mg = h.load_frontend()
from mpigauge.core.common import UsageError  # noqa: E402
from mpigauge.measure.runrequest import RunRequest, config, run  # noqa: E402


class Request(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.bin = os.path.join(self.d, "bin")
        os.mkdir(self.bin)
        self.launcher = os.path.join(self.d, "fakerun")
        for path, text in ((os.path.join(self.bin, "mpigauge_envy"),
                            FAKE.replace("PYTHON", sys.executable)), (self.launcher, LAUNCHER)):
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)
        self.suite = os.path.join(self.d, "s.txt")
        with open(self.suite, "w") as f:
            f.write("envy\n")

    def tearDown(self):
        self.tmp.cleanup()

    def records(self, path):
        with open(path) as f:
            return [json.loads(line) for line in f]

    def test_a_request_runs_what_the_command_line_runs(self):
        by_cli = os.path.join(self.d, "cli.jsonl")
        p = subprocess.run([sys.executable, h.FRONTEND, "run", "--suite", self.suite, "--bindir",
                            self.bin, "--launcher", self.launcher, "--mpi", "openmpi", "-o",
                            by_cli, "--repeat", "3", "--seed", "7", "-q", "--config",
                            "a FAKE_VALUE=1", "--config", "b FAKE_VALUE=2", "--", "-m", "8"],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        by_req = os.path.join(self.d, "req.jsonl")
        rc = run(RunRequest(suite=self.suite, output=by_req, repeat=3, seed=7, quiet=True,
                            bindir=[self.bin], launcher=self.launcher, mpi="openmpi",
                            args=["-m", "8"],
                            configs=[config("a", env={"FAKE_VALUE": "1"}),
                                     config("b", env={"FAKE_VALUE": "2"})]))
        self.assertEqual(rc, 0)
        a, b = self.records(by_cli), self.records(by_req)
        keep = ("suite", "nranks", "rounds", "seed", "configs", "order", "extra_args",
                "interleave", "launcher")
        self.assertEqual({k: a[0][k] for k in keep}, {k: b[0][k] for k in keep})

        def given_m(cmd):  # the arguments after -- reached the program
            return any(cmd[i:i + 2] == ["-m", "8"] for i in range(len(cmd)))
        runs = [[(r["config"], r["env"]["FAKE_VALUE"], given_m(r["command_line"])) for r in recs
                 if r["type"] == "run"] for recs in (a, b)]
        self.assertEqual(runs[0], runs[1])
        self.assertEqual(sorted(runs[1]), [("a", "1", True)] * 3 + [("b", "2", True)] * 3)

    def test_a_bad_label_is_refused_as_the_command_lines(self):
        with self.assertRaises(UsageError):
            config("-a", env={})


if __name__ == "__main__":
    unittest.main()
