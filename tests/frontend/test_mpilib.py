# SPDX-License-Identifier: BSD-3-Clause
"""Which MPI a program loads and which launcher belongs to it (mpilib):
the version strings of the five libraries and their launchers, the
launcher of a library's own installation, the refusal of another
release's launcher, and compare's labels after an interleaved file."""
import os
import stat
import tempfile
import unittest

import helpers as h

mg = h.load_frontend()
lib = mg.mpilib

LIBRARY_STRINGS = (
    ("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022",
     ("openmpi", "4.1.4")),
    ("Open MPI v5.0.11, package: Open MPI user@localhost Distribution, ident: 5.0.11",
     ("openmpi", "5.0.11")),
    ("MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\n",
     ("mpich", "4.0.2")),
    ("MPICH Version:      5.0.2\nMPICH Release date: Fri Sep 25 20:45:26 UTC 2026\n",
     ("mpich", "5.0.2")),
    ("Intel(R) MPI Library 2021.19.0 for Linux* OS\n", ("impi", "2021.19.0")),
)
LAUNCHER_STRINGS = (
    ("mpirun.openmpi (OpenRTE) 4.1.4\n\nReport bugs to http://www.open-mpi.org/", ("openmpi", "4.1.4")),
    ("mpirun (Open MPI) 5.0.11\n\nReport bugs to https://www.open-mpi.org/", ("openmpi", "5.0.11")),
    ("HYDRA build details:\n    Version:                                 4.0.2\n"
     "    Release Date:                            Thu Apr  7 12:34:45 CDT 2022\n", ("mpich", "4.0.2")),
    ("Intel(R) MPI Library for Linux* OS, Version 2021.19.0 Build 20260929 (id: 1821d9b)\n"
     "Copyright 2003-2026, Intel Corporation.", ("impi", "2021.19.0")),
    ("srun: slurm 22.05.8", (None, None)),
)

HYDRA = '#!/bin/sh\necho "HYDRA build details:"\necho "    Version:    VERSION"\n'


def _exe(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


class TestRunsAlone(unittest.TestCase):
    """Whether a program runs alone is the program's own fact (its
    --mpi-library record), by name only for a build older than the fact."""

    def test_the_programs_say(self):
        with tempfile.TemporaryDirectory() as d:
            rec = '{"type":"mpi_library","library":"Open MPI v4.1.4","runs_alone":%s}'
            for name, value, want in (("p_true", "true", True), ("p_false", "false", False),
                                      ("startup", "false", False), ("p_odd", '"yes"', False)):
                prog = os.path.join(d, name)
                _exe(prog, "#!/bin/sh\necho '%s'\n" % (rec % value))
                self.assertIs(lib.runs_alone(prog, {}, name), want, name)
            old = os.path.join(d, "old")      # a build older than the fact
            _exe(old, "#!/bin/sh\necho '{\"type\":\"mpi_library\",\"library\":\"x\"}'\n")
            self.assertTrue(lib.runs_alone(old, {}, "startup"))
            self.assertFalse(lib.runs_alone(old, {}, "latency"))


class TestIdent(unittest.TestCase):
    def test_library_strings(self):
        for text, want in LIBRARY_STRINGS:
            self.assertEqual(lib.ident(text), want, text)

    def test_launcher_strings(self):
        for text, want in LAUNCHER_STRINGS:
            self.assertEqual(lib.ident(text), want, text)

    def test_names(self):
        self.assertEqual(lib.release_name("impi", "2021.19.0"), "Intel MPI 2021.19.0")
        self.assertEqual(lib.release_name(None, None), "an unknown MPI")
        self.assertEqual(lib.FAMILY["impi"], "mpich")


class TestOwnLauncher(unittest.TestCase):
    """A fake installation (lib/ and bin/ with a Hydra that says its
    release) beside another release's."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.new, self.old = os.path.join(d, "mpich-5"), os.path.join(d, "mpich-4")
        for inst, ver in ((self.new, "5.0.2"), (self.old, "4.0.2")):
            _exe(os.path.join(inst, "lib", "libmpi.so.12"), "")
            _exe(os.path.join(inst, "bin", "mpiexec"), HYDRA.replace("VERSION", ver))
        self.lib = lib.Library("mpich", "5.0.2", "MPICH Version: 5.0.2",
                               os.path.join(self.new, "lib", "libmpi.so.12"), "mpich")

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_installations_own_launcher(self):
        path = lib.own_launcher(self.lib)
        self.assertEqual(path, os.path.join(self.new, "bin", "mpiexec"))
        self.assertEqual(lib.choose_launcher("mpirun", None, self.lib, None, "c")[0], path)

    def test_another_releases_launcher_is_refused(self):
        with self.assertRaises(mg.UsageError) as cm:
            lib.choose_launcher("mpirun", os.path.join(self.old, "bin", "mpiexec"), self.lib,
                                None, "configuration new")
        msg = str(cm.exception)
        self.assertIn("configuration new: the launcher", msg)
        self.assertIn("belongs to MPICH 4.0.2, but the programs load MPICH 5.0.2", msg)
        # the same through a command line of one's own
        with self.assertRaises(mg.UsageError):
            lib.choose_launcher(os.path.join(self.old, "bin", "mpiexec") + " -n {n}", None,
                                self.lib, None, "--launcher")

    def test_an_installation_without_its_launcher(self):
        _exe(os.path.join(self.new, "bin", "mpiexec"), HYDRA.replace("VERSION", "4.0.2"))
        lib._launcher_cache.clear()
        with self.assertRaises(mg.UsageError) as cm:
            lib.own_launcher(self.lib)
        self.assertIn("no launcher of MPICH 5.0.2 found", str(cm.exception))
        self.assertIn("(MPICH 4.0.2)", str(cm.exception))

    def test_programs_that_cannot_say(self):
        with self.assertRaises(mg.UsageError) as cm:
            lib.choose_launcher("mpirun", None, None, None, "configuration x")
        self.assertIn("cannot tell which MPI library the programs load: no answer to "
                      "--mpi-library", str(cm.exception))
        # srun and launchers that are not MPI's are not asked
        self.assertEqual(lib.choose_launcher("srun", None, None, None, "x"), (None, (None, None)))
        self.assertEqual(lib.choose_launcher("mylaunch -np {n}", None, None, None, "x"),
                         (None, (None, None)))

    def test_open_mpi_5_oversubscribes_with_map_by(self):
        a = mg.launcher_argv("mpirun", "openmpi", 4, ncpus=2, path="/x/bin/mpirun", release="5.0.11")
        self.assertEqual(a, ["/x/bin/mpirun", "-n", "4", "--map-by", ":OVERSUBSCRIBE",
                             "--bind-to", "none"])
        a = mg.launcher_argv("mpirun", "openmpi", 4, ncpus=2, path="/usr/bin/mpirun.openmpi",
                             release="4.1.4")
        self.assertIn("--oversubscribe", a)


class TestConfigKeys(unittest.TestCase):
    def test_library_and_launcher(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "lib"))
            open(os.path.join(d, "lib", "libmpi.so.12"), "w").close()
            os.mkdir(os.path.join(d, "bin"))
            launcher = os.path.join(d, "bin", "mpiexec")
            _exe(launcher, "#!/bin/sh\n")
            c = mg.parse_config_arg(f"abi bindir=/b library={d} launcher={launcher}")
            self.assertEqual(c.launcher, launcher)
            self.assertTrue(c.env["LD_LIBRARY_PATH"].startswith(os.path.join(d, "lib")))
            self.assertEqual(c.record()["library"], d)
        with self.assertRaises(mg.UsageError):
            mg.parse_config_arg("abi library=/no/such/folder")


class TestLabelsAfterAFile(unittest.TestCase):
    def test_a_folder_named_like_a_label_is_still_a_label(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.jsonl")
            h.write_jsonl(path, h.interleaved_records({"base": [0.2] * 6, "slow10": [0.22] * 6}))
            old = os.getcwd()
            os.chdir(d)
            try:
                os.mkdir("slow10")
                open("base", "w").close()
                sets = mg.load_inputs([path, "base", "slow10"])
            finally:
                os.chdir(old)
        self.assertEqual([s.label for s in sets], ["base", "slow10"])


if __name__ == "__main__":
    unittest.main()
