# SPDX-License-Identifier: BSD-3-Clause
"""mpigauge's front-end: run suites of mpigauge benchmarks (several
configurations interleaved), compare results with statistical verdicts,
plot and report. One module per concern:

  common    exit codes, paths, number formatting
  stats     statistics (pure): medians, CIs, rank tests, error-rate control
  regimes   launch regimes and noise-sentinel explanations
  suite     suite files            configs  configurations (command line, TOML)
  launch    programs, launchers, one launch and its status
  runner    `run`: interleaved rounds, the results file, progress
  results   reading results files, series and pairs
  compare   verdicts (paired and unpaired), `compare`
  render    text, Markdown, HTML and JSON renderings of a comparison
  best      `best`: the best configuration per benchmark and size
  plot      `plot`                 report   `report`
  selftest  `selftest`: the instrument's own error rates
  cli       the command line
"""
