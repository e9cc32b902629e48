# SPDX-License-Identifier: BSD-3-Clause
"""mpigauge's front-end: run suites of mpigauge benchmarks (several
configurations interleaved), compare results with statistical verdicts,
keep a history across releases, walk release series, plot and report.
One module per concern, and one COMMAND_cli.py per command (its parser):

  common    exit codes, paths, number formatting, atomic writes
  stats     statistics (pure): medians, CIs, rank tests, error-rate control
  regimes   launch regimes and noise-sentinel explanations
  suite     suite files            configs  configurations (command line, TOML)
  programs  where the programs are          mpilib   which MPI they load, their facts
  launcher, launch, outcome, steps          one launch (or a turns group) and its status
  runner    `run`: interleaved rounds (a RunPlan), the results file, progress
  results   reading results files, series (SeriesKey) and pairs
  compare   verdicts (paired and unpaired)  render   text, Markdown, HTML, JSON
  cvars     control variables (MPI_T)       hostcost  what the host paid, per side
  samples, ranks                            timelines and per-rank views
  best, tuning                              the best configuration, tuning files
  plot, report, overview, trendchart        figures and pages
  selftest  the instrument's own error rates
  history   the results database (TagSummary, SeriesRow, MarkKey)
  dashboard the static site of a history (SeriesCard)
  catalogue MPI installations               series*  release series walks
  *_cli     one per command: run, compare, best, plot, report, selftest,
            dashboard, cvars, mpi, series, history
  cli       the command line: assembles the *_cli parsers, exit codes
"""
