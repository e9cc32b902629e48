# SPDX-License-Identifier: BSD-3-Clause
"""Configurations: the --config form, TOML files with sweeps, and the
launch commands they make (environment through the launcher's flags)."""
import os
import subprocess
import sys
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()


class TestConfigArg(unittest.TestCase):
    def test_label_keys_and_environment(self):
        c = mg.parse_config_arg("tuned bindir=/opt/b mpi=mpich args='-W 32' "
                                "launcher-args='--mca btl self' UCX_RNDV_THRESH=8192")
        self.assertEqual((c.label, c.bindir, c.mpi), ("tuned", "/opt/b", "mpich"))
        self.assertEqual(c.args, ["-W", "32"])
        self.assertEqual(c.launcher_args, ["--mca", "btl", "self"])
        self.assertEqual(c.env, {"UCX_RNDV_THRESH": "8192"})

    def test_prefix_means_its_bin_folder(self):
        self.assertEqual(mg.parse_config_arg("r prefix=/opt/mpi").bindir, "/opt/mpi/bin")

    def test_errors(self):
        for bad, why in (("", "needs a label"), ("-x", "bad configuration label"),
                         ("a foo=1", "unknown key 'foo'"), ("a bindir", "is not KEY=VALUE"),
                         ("a mpi=lam", "mpi must be openmpi or mpich"),
                         ("a bindir=x bindir=y", "bindir given twice"),
                         ("a prefix=x bindir=y", "bindir or prefix, not both"),
                         ("a 'unclosed", "No closing quotation")):
            with self.assertRaises(mg.UsageError) as cm:
                mg.parse_config_arg(bad)
            self.assertIn(why, str(cm.exception), bad)

    def test_labels_must_be_unique(self):
        with self.assertRaises(mg.UsageError):
            mg.check_unique([mg.Config("a"), mg.Config("a")])


class TestConfigFile(unittest.TestCase):
    def write(self, text):
        d = tempfile.mkdtemp()
        p = os.path.join(d, "c.toml")
        with open(p, "w") as f:
            f.write(text)
        return d, p

    def test_configs_defaults_and_sweep(self):
        d, p = self.write('''
[defaults]
bindir = "build"
env = { OMPI_MCA_coll_tuned_use_dynamic_rules = "1" }
[[config]]
label = "base"
[[config]]
label = "w32"
args = "-W 32"
[[sweep]]
label = "alg{value}"
var = "OMPI_MCA_coll_tuned_allreduce_algorithm"
values = [1, 2]
''')
        cs = mg.load_config_file(p)
        self.assertEqual([c.label for c in cs], ["base", "w32", "alg1", "alg2"])
        self.assertEqual(cs[0].bindir, os.path.join(d, "build"))
        self.assertEqual(cs[1].args, ["-W", "32"])
        self.assertEqual(cs[3].env, {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                                     "OMPI_MCA_coll_tuned_allreduce_algorithm": "2"})

    def test_bad_files(self):
        for text, why in (("[[config]]\nlabel = 'a'\ncolour = 1\n", "unknown keys colour"),
                          ("[extra]\n", "unknown tables extra"),
                          ("[[sweep]]\nvar = 'X'\nvalues = []\n", "needs var"),
                          ("[[sweep]]\nvar = 'X'\nvalues = [1]\nlabel = 'x'\n", "{value}"),
                          ("[[config]]\nlabel = 'a'\nenv = { bad-name = '1' }\n", "is not NAME"),
                          ("not toml [", "")):
            _, p = self.write(text)
            with self.assertRaises(mg.UsageError) as cm:
                mg.load_config_file(p)
            self.assertIn(why, str(cm.exception), text)


class TestEnvironmentReachesTheRanks(unittest.TestCase):
    def test_open_mpi_uses_x(self):
        argv, env = mg.with_env(["mpirun", "-n", "2", "prog"], "mpirun", "openmpi",
                                {"LD_PRELOAD": "/l.so"})
        self.assertEqual(argv, ["mpirun", "-x", "LD_PRELOAD=/l.so", "-n", "2", "prog"])
        self.assertEqual(env, {})

    def test_mpich_uses_genv(self):
        argv, _ = mg.with_env(["mpiexec", "-n", "2"], "mpiexec", "mpich", {"A": "1"})
        self.assertEqual(argv, ["mpiexec", "-genv", "A", "1", "-n", "2"])

    def test_srun_and_custom_launchers_get_the_environment(self):
        argv, env = mg.with_env(["srun", "-n", "2"], "srun", "mpich", {"A": "1"})
        self.assertEqual((argv, env), (["srun", "-n", "2"], {"A": "1"}))


class TestSchedule(unittest.TestCase):
    def test_every_round_runs_every_line_once_per_configuration(self):
        import random
        order = mg.schedule(3, 2, 3, random.Random(5))
        self.assertEqual(len(order), 18)
        for r in (1, 2, 3):
            for li in (0, 1):
                group = [c for rr, l, c in order if rr == r and l == li]
                self.assertEqual(sorted(group), [0, 1, 2])
        # the configurations of a line run back to back
        self.assertEqual([o[:2] for o in order[:3]], [(1, 0)] * 3)
        self.assertEqual(order, mg.schedule(3, 2, 3, random.Random(5)))
        self.assertNotEqual(order, mg.schedule(3, 2, 3, random.Random(6)))

    def test_planned_looks(self):
        # 6 pairs reach at best p = 2/64 = 0.031, above 0.05 / 5 looks: that look goes
        self.assertEqual(mg.planned_looks(6, 30), [9, 14, 21, 30])
        self.assertEqual(mg.planned_looks(6, 30, alpha=0.2), [6, 9, 14, 21, 30])
        self.assertEqual(mg.planned_looks(4, 4), [4])


if __name__ == "__main__":
    unittest.main()


class TestSecrets(unittest.TestCase):
    def test_the_shared_vectors_of_the_c_rule(self):
        n = 0
        with open(os.path.join(h.TOP, "tests", "fixtures", "secrets.txt"), encoding="utf-8") as f:
            for line in f:
                if not line.strip() or line.startswith("#"):
                    continue
                want, var = line.rstrip("\n").split(" ", 1)
                name, _, value = var.partition("=")
                got = mg.env_is_secret(name) or mg.value_has_secret(value)
                self.assertEqual(got, want == "secret", var)
                n += 1
        self.assertGreaterEqual(n, 30)

    def test_records_and_commands_are_redacted(self):
        c = mg.parse_config_arg("a MY_TOKEN=t0ps3cret UCX_TLS=sm "
                                "OMPI_MCA_mca_base_env_list=AWS_SECRET_ACCESS_KEY=k3y")
        rec = c.record()
        self.assertEqual(rec["env"], {"MY_TOKEN": "<redacted>", "UCX_TLS": "sm",
                                      "OMPI_MCA_mca_base_env_list": "<redacted>"})
        self.assertEqual(c.env["MY_TOKEN"], "t0ps3cret")        # the launch still gets it
        argv, _ = mg.with_env(["mpirun", "-n", "2"], "mpirun", "openmpi", c.env)
        self.assertNotIn("t0ps3cret", " ".join(mg.redact_argv(argv, c.env)))
        argv, _ = mg.with_env(["mpiexec", "-n", "2"], "mpiexec", "mpich", c.env)
        red = mg.redact_argv(argv, c.env)
        self.assertNotIn("t0ps3cret", " ".join(red))
        self.assertNotIn("k3y", " ".join(red))
        self.assertIn("sm", red)


class TestConfigValues(unittest.TestCase):
    def _toml(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write(text)
        try:
            return mg.load_config_file(f.name)
        finally:
            os.unlink(f.name)

    def test_labels_and_values_are_checked_whole(self):
        for text in ('[[config]]\nlabel = "a\\n"\n', '[[config]]\nlabel = "a"\nenv = { X = { y = 1 } }\n',
                     '[[config]]\nlabel = "a"\nenv = { X = [1] }\n'):
            with self.assertRaises(mg.UsageError, msg=text):
                self._toml(text)
        with self.assertRaises(mg.UsageError):
            mg.parse_config_arg("'a\n' X=1")

    def test_wrong_types_are_one_message(self):
        for text in ('defaults = 5\n', 'config = 5\n', '[[config]]\nlabel = "a"\nbindir = 5\n',
                     '[[config]]\nlabel = "a"\nprefix = ["x"]\n', '[[config]]\nlabel = "a"\nenv = 5\n',
                     '[defaults]\nenv = "x"\n[[config]]\nlabel = "a"\n',
                     'x = ' + '[' * 5000 + ']' * 5000 + '\n'):
            with self.assertRaises(mg.UsageError, msg=text[:40]):
                self._toml(text)


class TestOsuDir(unittest.TestCase):
    """`mpigauge --osu-dir`: the folder of the osu_* links, or exit 1."""

    def test_prints_the_folder_when_it_exists(self):
        paths = mg.common.PATHS
        saved = paths.get("osudir")
        try:
            with tempfile.TemporaryDirectory() as d:
                paths["osudir"] = d
                self.assertEqual(h.cli("--osu-dir"), (0, d + "\n", ""))
            paths["osudir"] = os.path.join(d, "gone")
            rc, out, err = h.cli("--osu-dir")
            self.assertEqual((rc, out), (1, ""))
            self.assertIn("no folder of osu_* names here", err)
        finally:
            paths["osudir"] = saved


class TestWhatAConfigurationNames(unittest.TestCase):
    """launcher= and library= that cannot be what they say are refused when
    the configuration is read (exit 2 before any launch), one line each
    (issue 46, 8)."""

    def test_launcher_values(self):
        with tempfile.TemporaryDirectory() as d:
            plain = os.path.join(d, "plain")
            with open(plain, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(plain, 0o644)
            cases = {"": "launcher= is empty", d: "a folder, not a program",
                     os.path.join(d, "none"): "no such file",
                     "no-such-launcher-x": "no such program on PATH"}
            cases[plain] = "not executable"     # no x bit: not even root runs it
            for value, msg in cases.items():
                with self.assertRaises(mg.UsageError) as cm:
                    mg.parse_config_arg(f"c launcher={value}")
                self.assertIn(msg, str(cm.exception), value)
                self.assertIn("configuration c:", str(cm.exception))

    def test_library_values(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(mg.UsageError) as cm:
                mg.parse_config_arg("c library=")
            self.assertIn("library= is empty", str(cm.exception))
            with self.assertRaises(mg.UsageError) as cm:
                mg.parse_config_arg(f"c library={d}")
            self.assertIn(f"no MPI library in {d}", str(cm.exception))
            open(os.path.join(d, "libmpi.so.40"), "w").close()
            c = mg.parse_config_arg(f"c library={d}")
            self.assertTrue(c.env["LD_LIBRARY_PATH"].startswith(d))


BUILT = os.path.join(h.TOP, "_build", "openmpi", "pt2pt")


@unittest.skipUnless(os.path.exists(os.path.join(BUILT, "mpigauge_latency")),
                     "needs the Open MPI build (scripts/build.sh openmpi)")
class TestConfigurationsAgainstThePrograms(unittest.TestCase):
    """With real programs: a library they cannot start with, and mpi= of
    another implementation than they load, are refused before any launch."""

    def run_fe(self, *config):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "s.txt")
            with open(s, "w") as f:
                f.write("latency -m 8 -i 10\n")
            out = os.path.join(d, "r.jsonl")
            env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
            p = subprocess.run([sys.executable, h.FRONTEND, "run", "--suite", s, "--bindir", BUILT,
                                "-o", out, "--config", "good"] + [a for c in config for a in
                                                                  ("--config", c)],
                               capture_output=True, text=True, timeout=120, env=env)
            return p.returncode, p.stderr, os.path.exists(out) and os.path.getsize(out) > 0

    def test_a_broken_library_and_another_implementation(self):
        with tempfile.TemporaryDirectory() as d:
            open(os.path.join(d, "libmpi.so.40"), "w").close()     # a library that is not one
            rc, err, wrote = self.run_fe(f"bad library={d}")
            self.assertEqual(rc, 2, err)
            self.assertIn("it cannot start: ", err)
            self.assertIn("libmpi.so.40", err)
            self.assertFalse(wrote)
        rc, err, wrote = self.run_fe("bad mpi=mpich")
        self.assertEqual(rc, 2, err)
        self.assertIn("mpi=mpich, but the programs load Open MPI", err)
        self.assertFalse(wrote)
