# SPDX-License-Identifier: BSD-3-Clause
"""The catalogue of MPI installations (`mpigauge mpi`,
frontend/mpigauge/catalogue.py): what a library says it is, its ABI family
and launcher, release order, the catalogue file, PyPI's refusals, and
configurations that run under an installation (install=NAME)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
import mpigauge.launch.catalogue as cat  # noqa: E402 (load_frontend put the package on the path)

MPICH = "/usr/lib/x86_64-linux-gnu/libmpich.so.12"
OMPI = "/usr/lib/x86_64-linux-gnu/libmpi.so.40"
BUILT = os.path.join(h.TOP, "_build", "openmpi", "pt2pt")


def entry(name, impl="mpich", release="4.1.3", **kw):
    """A catalogue entry as `mpi add` writes one (the fields a test needs)."""
    return dict({"name": name, "implementation": impl, "release": release,
                 "prefix": "/nonexistent/" + name, "library": "/nonexistent/" + name,
                 "source": "prefix"}, **kw)


class Catalogue(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.env = dict(os.environ, MPIGAUGE_MPI_CACHE=os.path.join(self.d, "cache"))
        os.environ["MPIGAUGE_MPI_CACHE"] = self.env["MPIGAUGE_MPI_CACHE"]

    def tearDown(self):
        os.environ.pop("MPIGAUGE_MPI_CACHE", None)
        self.tmp.cleanup()

    def fe(self, *argv):
        p = subprocess.run([sys.executable, h.FRONTEND] + list(argv), capture_output=True,
                           text=True, timeout=120, env=self.env)
        self.assertNotIn("Traceback", p.stderr)
        return p.returncode, p.stdout, p.stderr

    @unittest.skipUnless(os.path.exists(MPICH) and os.path.exists(OMPI),
                         "needs Debian's MPICH and Open MPI")
    def test_the_libraries_say_what_they_are(self):
        rc, out, err = self.fe("mpi", "add", MPICH)
        self.assertEqual(rc, 0, err)
        self.assertIn("mpich-4.0.2: MPICH Version:", out)
        self.assertEqual(self.fe("mpi", "add", OMPI, "--name", "deb-ompi")[0], 0)
        rc, out, _ = self.fe("mpi", "list", "--format", "json")
        got = [json.loads(x) for x in out.splitlines()]
        self.assertEqual([(e["name"], e["implementation"], e["release"], e["abi"], e["launcher"])
                          for e in got],
                         [("mpich-4.0.2", "mpich", "4.0.2", "mpich", "/usr/bin/mpiexec.mpich"),
                          ("deb-ompi", "openmpi", "4.1.4", "openmpi", "/usr/bin/mpirun.openmpi")])
        rc, out, _ = self.fe("mpi", "list")
        self.assertEqual(out.splitlines()[0].split(),
                         ["name", "implementation", "release", "ABI", "launcher", "from", "build"])
        self.assertEqual(out.splitlines()[2].split()[-1], "-")   # no build of its own yet
        # the same library twice, a folder with two MPIs
        rc, _, err = self.fe("mpi", "add", MPICH, "--name", "again")
        self.assertEqual(rc, 2)
        self.assertIn("is in the catalogue already, as mpich-4.0.2", err)
        rc, _, err = self.fe("mpi", "add", os.path.dirname(MPICH))
        self.assertEqual(rc, 2)
        self.assertIn("holds the libraries of several MPIs", err)
        # a configuration runs under one: its library and launcher
        c = mg.parse_config_arg("x install=mpich-4.0.2")
        self.assertEqual(c.launcher, "/usr/bin/mpiexec.mpich")
        self.assertTrue(c.env["LD_LIBRARY_PATH"].startswith(os.path.dirname(MPICH)))
        self.assertEqual(c.record()["install"], "mpich-4.0.2")
        with self.assertRaises(mg.UsageError) as cm:
            mg.parse_config_arg(f"x install=mpich-4.0.2 library={MPICH}")
        self.assertIn("install= or library=, not both", str(cm.exception))
        rc, out, _ = self.fe("mpi", "remove", "deb-ompi")
        self.assertEqual(rc, 0)
        self.assertIn("its installation is left where it is", out)
        self.assertTrue(os.path.exists(OMPI))

    @unittest.skipUnless(os.path.exists(MPICH) and os.path.exists(os.path.join(
        BUILT, "mpigauge_latency")), "needs Debian's MPICH and the Open MPI build")
    def test_a_library_of_another_abi_family_is_refused_before_any_launch(self):
        self.assertEqual(self.fe("mpi", "add", MPICH)[0], 0)
        s = os.path.join(self.d, "s.txt")
        with open(s, "w") as f:
            f.write("latency -m 8 -i 10\n")
        out = os.path.join(self.d, "r.jsonl")
        rc, _, err = self.fe("run", "--suite", s, "--bindir", BUILT, "-o", out, "--config", "a",
                             "--config", "b install=mpich-4.0.2")
        self.assertEqual(rc, 2, err)
        self.assertIn("install=mpich-4.0.2 is", err)
        self.assertIn("they were built for another ABI family", err)
        self.assertFalse(os.path.exists(out))

    def test_the_environment_an_installation_needs(self):
        self.assertEqual(cat.install_env("impi", "/opt/impi-2021.1.1"),
                         {"I_MPI_ROOT": "/opt/impi-2021.1.1"})
        self.assertEqual(cat.install_env("mpich", "/opt/mpich"), {})
        self.assertEqual(cat.install_env("openmpi", "/opt/ompi"), {})

    def test_what_is_not_an_installation(self):
        rc, _, err = self.fe("mpi", "add", self.d)
        self.assertEqual(rc, 2)
        self.assertIn("no MPI library there", err)
        fake = os.path.join(self.d, "lib")
        os.mkdir(fake)
        with open(os.path.join(fake, "libmpi.so.12"), "w") as f:
            f.write("not a library\n")
        rc, _, err = self.fe("mpi", "add", self.d)
        self.assertEqual(rc, 2)
        self.assertIn("does not say which MPI it is", err)
        # MPICH 5: its own ABI and the MPI-5 standard ABI in one lib/: its own
        for n in ("libmpi_abi.so.1", "libmpi_abi.so", "libmpi.so"):
            with open(os.path.join(fake, n), "w") as f:
                f.write("not a library\n")
        self.assertEqual(cat.find_library(self.d),
                         (os.path.join(os.path.realpath(fake), "libmpi.so.12"), "mpich"))
        for spec, msg in (("mpich", "give IMPL==RELEASE"), ("lam==7.1", "IMPL one of"),
                          ("mpich==;rm", "give IMPL==RELEASE")):
            rc, _, err = self.fe("mpi", "install", spec)
            self.assertEqual(rc, 2, spec)
            self.assertIn(msg, err)
        rc, _, err = self.fe("mpi", "remove", "nothing")
        self.assertEqual(rc, 2)
        self.assertIn("no MPI installation 'nothing'", err)

    def test_a_damaged_catalogue_is_left_as_it_is(self):
        os.makedirs(self.env["MPIGAUGE_MPI_CACHE"])
        p = os.path.join(self.env["MPIGAUGE_MPI_CACHE"], "catalogue.json")
        for text in ("{not json", '{"installations": [1]}', "[]", "[" * 100000):
            with open(p, "w") as f:
                f.write(text)
            rc, _, err = self.fe("mpi", "list")
            self.assertEqual(rc, 2)
            self.assertIn("not a catalogue of MPI installations", err)
            with open(p) as f:
                self.assertEqual(f.read(), text)

    def test_two_processes_changing_it_at_once_keep_both_changes(self):
        folder = os.path.join(self.d, "c")
        slow = cat.Catalogue(folder)        # an `mpi install` that read it, then ran pip
        quick = cat.Catalogue(folder)       # another one, done in the meantime
        with quick.changing():
            quick.add(entry("mpich-4.0.3", library="/l/4.0.3"))
        self.assertEqual(slow.entries, [])
        with slow.changing():
            slow.add(entry("mpich-4.1.3", library="/l/4.1.3"))
        self.assertEqual([e["name"] for e in cat.Catalogue(folder).entries],
                         ["mpich-4.0.3", "mpich-4.1.3"])
        # a change that fails leaves the file as it was
        with self.assertRaises(mg.UsageError):
            with slow.changing():
                slow.entries.clear()
                slow.add(entry("x", library="/l/4.0.3"))
                slow.add(entry("x", library="/l/other"))
        self.assertEqual(len(cat.Catalogue(folder).entries), 2)

    def test_release_order_and_series(self):
        self.assertEqual(sorted(["4.1.10", "4.1.9", "4.0.3", "5.0.0", "3.4.3"], key=cat.version_key),
                         ["3.4.3", "4.0.3", "4.1.9", "4.1.10", "5.0.0"])
        c = cat.Catalogue(os.path.join(self.d, "c"))
        for n, impl, rel in (("b", "mpich", "4.1.3"), ("a", "mpich", "3.4.3"),
                             ("o", "openmpi", "5.0.9"), ("c", "mpich", "4.1.10")):
            c.entries.append({"name": n, "implementation": impl, "release": rel, "library": n})
        self.assertEqual([e["name"] for e in c.series("mpich")], ["a", "b", "c"])
        self.assertEqual([e["name"] for e in c.series()], ["a", "b", "c", "o"])

    def test_an_install_cut_short_leaves_nothing_that_blocks_the_next(self):
        from unittest import mock
        c = cat.Catalogue()
        dest = os.path.join(c.folder, "mpich-4.1.3")
        with mock.patch.object(cat.subprocess, "run", side_effect=KeyboardInterrupt):
            with self.assertRaises(KeyboardInterrupt):
                cat.install(c, "mpich==4.1.3")
        self.assertFalse(os.path.exists(dest))
        # a folder an install killed outright left (its mark in it): taken over
        os.makedirs(dest)
        open(os.path.join(dest, cat.INSTALLING), "w").close()
        failed = subprocess.CompletedProcess([], 1, "", "ERROR: disk full\n")
        with mock.patch.object(cat.subprocess, "run", return_value=failed) as run:
            with self.assertRaisesRegex(mg.UsageError, "pip could not install mpich==4.1.3"):
                cat.install(c, "mpich==4.1.3")
            self.assertEqual(run.call_count, 1)
        self.assertFalse(os.path.exists(dest))
        # a folder of someone's: refused, left as it is
        os.makedirs(dest)
        with self.assertRaisesRegex(mg.UsageError, "exists and is not in the catalogue"):
            cat.install(c, "mpich==4.1.3")
        self.assertTrue(os.path.isdir(dest))

    def test_debian_names_for_an_mpich_install(self):
        with tempfile.TemporaryDirectory() as d:
            for n in ("libmpi.so.12", "libmpifort.so.12"):
                open(os.path.join(d, n), "w").close()
            open(os.path.join(d, "libmpichcxx.so.12"), "w").close()   # someone's: kept
            self.assertEqual(cat.add_aliases(d), ["libmpich.so.12", "libmpichfort.so.12"])
            self.assertEqual(os.readlink(os.path.join(d, "libmpich.so.12")), "libmpi.so.12")
            self.assertEqual(os.readlink(os.path.join(d, "libmpichfort.so.12")),
                             "libmpifort.so.12")
            self.assertFalse(os.path.islink(os.path.join(d, "libmpichcxx.so.12")))
            self.assertEqual(cat.add_aliases(d), [])     # again: nothing to make
        # a program of Debian's MPICH loads the release's library through it
        prog = os.path.join(h.TOP, "_build", "mpich", "pt2pt", "mpigauge_latency")
        real = "/usr/lib/x86_64-linux-gnu/libmpich.so.12"
        if not (os.path.isfile(prog) and os.path.isfile(real)):
            self.skipTest("needs the MPICH build and Debian's MPICH")
        with tempfile.TemporaryDirectory() as d:
            os.symlink(real, os.path.join(d, "libmpi.so.12"))
            self.assertEqual(cat.add_aliases(d), ["libmpich.so.12"])
            out = subprocess.run(["ldd", prog], capture_output=True, text=True,
                                 env=dict(os.environ, LD_LIBRARY_PATH=d)).stdout
            self.assertIn(f"libmpich.so.12 => {d}/libmpich.so.12", out)

    def test_a_copy_of_a_release_joins_a_walk_only_when_named(self):
        from types import SimpleNamespace as NS
        import mpigauge.releases.series_cli as SCLI
        c = cat.Catalogue()
        with c.changing():
            for name, rel in (("m1", "4.1.3"), ("m2", "5.0.2"), ("copy", "5.0.2")):
                c.add(entry(name, release=rel))
        self.assertEqual([e.get("copy_of") for e in cat.Catalogue().entries], [None, None, "m2"])
        walk = NS(names=[], impl="mpich", first=None, last=None)
        self.assertEqual([e["name"] for e in SCLI.select(cat.Catalogue(), walk)], ["m1", "m2"])
        named = NS(names=["m2", "copy"], impl=None, first=None, last=None)
        self.assertEqual([e["name"] for e in SCLI.select(cat.Catalogue(), named)],
                         ["m2", "copy"])
        # the release's first installation removed: its copy stands for it
        self.assertEqual(self.fe("mpi", "remove", "m2")[0], 0)
        self.assertEqual([(e["name"], e.get("copy_of")) for e in cat.Catalogue().entries],
                         [("m1", None), ("copy", None)])

    def test_what_pypi_says(self):
        out = ("ERROR: Could not find a version that satisfies the requirement mpich==9.9 (from "
               "versions: 3.4.3, 4.0.3, 5.0.2)\nERROR: No matching distribution found for "
               "mpich==9.9\n")
        self.assertEqual(cat.pip_failure(out, "mpich==9.9"),
                         "PyPI has no mpich==9.9 (it has: 3.4.3, 4.0.3, 5.0.2)")
        self.assertEqual(cat.pip_failure("x\nERROR: disk full\n", "mpich==4.1.3"),
                         "pip could not install mpich==4.1.3: ERROR: disk full")

    def test_remove_deletes_only_what_it_installed(self):
        c = cat.Catalogue()
        mine = os.path.join(c.folder, "mpich-4.1.3")
        os.makedirs(mine)
        other = os.path.join(self.d, "site-mpi")
        os.makedirs(other)
        named = os.path.join(c.folder, "mpich-4.2.3")     # installed with --name m423
        os.makedirs(named)
        c.entries = [entry("mpich-4.1.3", prefix=mine, source="pypi mpich==4.1.3"),
                     entry("site", prefix=other),
                     entry("m423", prefix=named, source="pypi mpich==4.2.3")]
        c.save()
        for name in ("mpich-4.1.3", "site", "m423"):
            self.assertEqual(self.fe("mpi", "remove", name)[0], 0)
        self.assertFalse(os.path.exists(mine))
        self.assertFalse(os.path.exists(named))
        self.assertTrue(os.path.exists(other))
        self.assertEqual(cat.Catalogue().entries, [])

    def test_names_stay_in_their_folder(self):
        for bad in ("..", ".", "../../victim", "x/y", "", ".hidden", "-x", "a b", "a" * 65,
                    "a\x1b[2J"):
            with self.assertRaises(mg.common.UsageError, msg=bad):
                cat.check_name(bad)
        for good in ("mpich-4.1.3", "deb_ompi+asan", "impi-2021.19.0", "A" * 64):
            self.assertEqual(cat.check_name(good), good)

    @unittest.skipUnless(os.path.exists(MPICH), "needs Debian's MPICH")
    def test_add_refuses_a_name_that_escapes(self):
        for bad in ("..", "../../victim", "x/y"):
            rc, out, err = self.fe("mpi", "add", MPICH, "--name", bad)
            self.assertEqual(rc, 2, bad)
            self.assertIn("give a name of letters", err)
            self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertEqual(cat.Catalogue().entries, [])

    def planted(self):
        """A victim folder beside the catalogue with a canary in it, and an
        installation with an executable mpicc (a build starts only with one)."""
        c = cat.Catalogue()
        victim = os.path.join(self.d, "victim")
        os.makedirs(victim)
        with open(os.path.join(victim, "CANARY"), "w") as f:
            f.write("alive\n")
        prefix = os.path.join(self.d, "prefix")
        os.makedirs(os.path.join(prefix, "bin"))
        with open(os.path.join(prefix, "bin", "mpicc"), "w") as f:
            f.write("#!/bin/sh\nexit 1\n")
        os.chmod(os.path.join(prefix, "bin", "mpicc"), 0o755)
        return c, victim, prefix

    def test_build_and_remove_never_delete_outside_their_folders(self):
        c, victim, prefix = self.planted()
        # a hand-edited name that escapes: the catalogue is refused whole
        with open(c.path if os.path.isdir(c.folder) else (os.makedirs(c.folder) or c.path),
                  "w") as f:
            json.dump({"schema": 1, "installations": [entry("..", prefix=prefix),
                                                      entry("../../victim", prefix=prefix)]}, f)
        before = h.read(c.path)
        for argv in (("mpi", "build", ".."), ("mpi", "build", "../../victim"), ("mpi", "list"),
                     ("mpi", "remove", "..")):
            rc, _, err = self.fe(*argv)
            self.assertEqual(rc, 2, argv)
            self.assertIn("installation 1 is damaged (name '..' is not a catalogue name)", err)
        self.assertEqual(h.read(c.path), before)
        self.assertTrue(os.path.exists(os.path.join(victim, "CANARY")))
        # builds/NAME a link to the victim: not followed, not removed
        c.entries = [entry("ok", prefix=prefix)]
        c.save()
        os.makedirs(os.path.join(c.folder, "builds"))
        os.symlink(victim, os.path.join(c.folder, "builds", "ok"))
        rc, _, err = self.fe("mpi", "build", "ok")
        self.assertEqual(rc, 2)
        self.assertIn("not a folder of the catalogue's builds", err)
        self.assertTrue(os.path.exists(os.path.join(victim, "CANARY")))
        # remove: a prefix or build that is the catalogue's own folder, its
        # builds folder or a folder elsewhere is left where it is
        c.entries = [entry("p1", prefix=c.folder, source="pypi mpich==4.1.3"),
                     entry("p2", prefix=victim, source="pypi mpich==4.1.3",
                           build=os.path.join(c.folder, "builds")),
                     entry("p3", prefix=os.path.join(c.folder, "builds"), source="pypi x",
                           build=victim)]
        c.save()
        for name in ("p1", "p2", "p3"):
            self.assertEqual(self.fe("mpi", "remove", name)[0], 0)
        self.assertTrue(os.path.exists(os.path.join(victim, "CANARY")))
        self.assertTrue(os.path.isdir(os.path.join(c.folder, "builds")))
        self.assertEqual(cat.Catalogue().entries, [])

    def test_a_total_release_order_and_damaged_entries(self):
        self.assertEqual(sorted(["main", "4.2.0", "4.2.0rc1", "4.1.10", "4.2.0.1", "4.2.0a1"],
                                key=cat.version_key),
                         ["4.1.10", "4.2.0a1", "4.2.0rc1", "4.2.0", "4.2.0.1", "main"])
        c = cat.Catalogue()
        c.entries = [entry("a", release="4.2.0"), entry("b", release="4.2.0rc1"),
                     entry("c", release="main")]
        c.save()
        rc, out, err = self.fe("mpi", "list", "--format", "json")
        self.assertEqual(rc, 0, err)
        self.assertEqual([json.loads(x)["name"] for x in out.splitlines()], ["b", "a", "c"])
        for bad, says in (({"release": None}, "a: no release"),
                          ({"implementation": None}, "a: no implementation"),
                          ({"release": 4.2}, "a: no release"),
                          ({"env": ["x"]}, "a: env is not an object of texts"),
                          ({"launcher": 5}, "a: launcher is not text")):
            e = entry("a", **bad)
            with open(c.path, "w") as f:
                json.dump({"schema": 1, "installations": [e]}, f)
            rc, out, err = self.fe("mpi", "list")
            self.assertEqual(rc, 2, bad)
            self.assertIn(says, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)


if __name__ == "__main__":
    unittest.main()
