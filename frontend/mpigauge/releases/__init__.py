# SPDX-License-Identifier: BSD-3-Clause
"""Release series. Its modules:

  series         a walk's statistics: steps, changes, bisection
  series_folder  a walk's folder and state (resuming, the lock)
  series_report  a walk's report, and a profile along it
  series_history a walk's steps into a history
  series_cli     `mpigauge series`
  mpi_cli        `mpigauge mpi`: the catalogue's commands
"""
