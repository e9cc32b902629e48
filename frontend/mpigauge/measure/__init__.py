# SPDX-License-Identifier: BSD-3-Clause
"""Running suites. Its modules:

  configs        configurations (Config): command line, TOML, installations
  runner         the interleaved run loop
  runrequest     the typed run request other commands hand the runner
  run_cli        `mpigauge run`
  sbatch         `run --sbatch`, `--allocations`: the run as a Slurm job (array)
  selftest       the instrument's own error rates
  selftest_cli   `mpigauge selftest`
"""
