# SPDX-License-Identifier: BSD-3-Clause
"""One launch and what it starts from. Its modules:

  suite          suite files
  programs       where the programs are, which MPI each loads
  mpilib         an MPI library's facts (runs_alone, version)
  catalogue      the catalogue of MPI installations
  launcher       the launcher's argv and environment (mpirun, srun)
  launch         processes, signals, timeouts, the hang at exit
  outcome        what a launch came to, from its exit code and records
  steps          turns groups: several launches on one node taking turns
  runplan        the run's plan (RunPlan) and its limits
  resultsfile    the results file being written (Writer)
  progress       the progress line on a terminal
"""
