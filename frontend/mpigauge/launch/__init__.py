# SPDX-License-Identifier: BSD-3-Clause
"""one launch and what it starts from: suites, where the programs are and which
MPI they load (programs, mpilib), the catalogue of MPI installations, the
launcher's argv, processes and timeouts (launch), what a launch came to
(outcome), turns groups (steps), the plan (runplan), the results file
(resultsfile), progress lines."""
