# SPDX-License-Identifier: BSD-3-Clause
"""The application as a configuration (`mpigauge app`, frontend/mpigauge/app.py):
each named figure read from the application's own output (LAMMPS's Loop
time and Comm row, GROMACS's Time line), a pattern of one's own, what is
not a figure, the rank count of a launch command, the records compare
reads. The launches themselves, with both MPI families: tests/profile.sh."""
import os
import unittest

from helpers import load_frontend

mg = load_frontend()
import mpigauge.apps.app as A  # noqa: E402

LAMMPS = """LAMMPS (7 Jan 2022)
  MPI v3.1: Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4
Loop time of 0.031 on 2 procs for 10 steps with 4000 atoms
Loop time of 2.83174 on 2 procs for 1000 steps with 4000 atoms

MPI task timing breakdown:
Section |  min time  |  avg time  |  max time  |%varavg| %total
---------------------------------------------------------------
Pair    | 1.8958     | 1.9215     | 1.9472     |   1.9 | 67.86
Comm    | 0.46148    | 0.51258    | 0.56368    |   7.1 | 18.10
Output  | 0.00012    | 0.00013    | 0.00014    |   0.0 |  0.00
"""
GROMACS = """               Core t (s)   Wall t (s)        (%)
       Time:       20.123       10.062      200.0
                 (ns/day)    (hour/ns)
Performance:       17.173        1.398
"""


class Figures(unittest.TestCase):
    def test_named_figures(self):
        self.assertEqual(A.read_figure(A.figure_of("lammps"), LAMMPS, 9.0), (2.83174, None))
        self.assertEqual(A.read_figure(A.figure_of("lammps-comm"), LAMMPS, 9.0), (0.51258, None))
        self.assertEqual(A.read_figure(A.figure_of("gromacs"), GROMACS, 9.0), (10.062, None))
        self.assertEqual(A.read_figure(A.figure_of("wall"), "", 9.5), (9.5, None))
        nwchem = (" Task  times  cpu:        2.4s     wall:        3.9s\n"
                  " Total times  cpu:        2.5s     wall:        4.0s\n")
        self.assertEqual(A.read_figure(A.figure_of("nwchem"), nwchem, 9.0), (4.0, None))
        v, why = A.read_figure(A.figure_of("lammps"), GROMACS, 1.0)
        self.assertIsNone(v)
        self.assertEqual(why, "no LAMMPS's Loop time (the run's time steps) in its output")

    def test_a_pattern_of_ones_own(self):
        f = A.figure_of(r"re:^Performance:\s+([0-9.]+):ns/day")
        self.assertEqual((f.unit, A.read_figure(f, GROMACS, 1.0)), ("ns/day", (17.173, None)))
        for bad in ("re:no group:s", "re:(a)(b):s", "re:([0-9]+):", "re:([:s", "bogus",
                    "re:([0-9]+):s p"):
            with self.assertRaises(mg.UsageError, msg=bad):
                A.figure_of(bad)
        zero = A.figure_of("re:^x=([-0-9.e]+):s")
        for text in ("x=0", "x=-1.5", "x=1e999"):
            v, why = A.read_figure(zero, text, 1.0)
            self.assertIsNone(v, text)

    @unittest.skipUnless(os.path.exists("/usr/bin/mpirun.openmpi") and
                         os.path.exists("/usr/bin/mpiexec.mpich"), "needs Debian's two MPIs")
    def test_the_launcher_binds_as_the_benchmarks_launches_do(self):
        import mpigauge.apps.app_cli as AC
        from unittest import mock
        ompi = mg.parse_config_arg("a launcher=/usr/bin/mpirun.openmpi")
        mpich = mg.parse_config_arg("b launcher=/usr/bin/mpiexec.mpich")
        with mock.patch.object(os, "cpu_count", return_value=2):
            self.assertEqual(AC.command_for(["{mpirun}", "-n", "2", "lmp"], ompi),
                             ["/usr/bin/mpirun.openmpi", "--bind-to", "core", "-n", "2", "lmp"])
            self.assertEqual(AC.command_for(["{mpirun}", "-np", "4", "lmp"], ompi),
                             ["/usr/bin/mpirun.openmpi", "--oversubscribe", "--bind-to", "none",
                              "-np", "4", "lmp"])
            self.assertEqual(AC.command_for(["{mpirun}", "-n", "2", "nw"], mpich),
                             ["/usr/bin/mpiexec.mpich", "-bind-to", "core", "-n", "2", "nw"])
        self.assertEqual(AC.command_for(["mpirun", "-n", "2", "nw"], mpich),
                         ["mpirun", "-n", "2", "nw"])     # no placeholder: as given

    def test_rank_counts_and_records(self):
        self.assertEqual(A.ranks_of(["mpirun", "-np", "4", "lmp"]), 4)
        self.assertEqual(A.ranks_of(["srun", "--ntasks=8", "lmp"]), 8)
        self.assertIsNone(A.ranks_of(["./a.out"]))
        recs = A.records("S", 3, "b", 2, "lmp", 2, 2.5, "s", "ok", "", ["mpirun"], "Open MPI")
        self.assertEqual([r["type"] for r in recs], ["launch", "run", "result"])
        self.assertEqual((recs[0]["launch_id"], recs[2]["median"], recs[1]["config"]),
                         ("S-0003", 2.5, "b"))
        failed = A.records("S", 4, "b", 2, "lmp", 2, None, "s", "failed", "exit 1", [], None)
        self.assertEqual([r["type"] for r in failed], ["launch"])


if __name__ == "__main__":
    unittest.main()
