# SPDX-License-Identifier: BSD-3-Clause
"""What every other package stands on. Its modules:

  common         exit codes, paths, number formatting, atomic writes, input checks
  stats          statistics (pure): medians, CIs, rank tests, error-rate control
  tdist          Student's t distribution (pure)
  schema         the records' schema: what a result, run or sentinel record may hold
"""
