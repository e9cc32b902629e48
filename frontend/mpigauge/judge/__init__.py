# SPDX-License-Identifier: BSD-3-Clause
"""The commands that judge results. Its modules:

  compare_cli    `mpigauge compare`
  allocation_screen  `compare --by-allocation --screen-slow`: the slow allocation's nodes screened
  best           the best configuration per benchmark and size, and its ties
  best_cli       `mpigauge best`
  guidelines     self-consistent performance guidelines
  guidelines_cli `mpigauge guidelines`
  cvars_cli      `mpigauge cvars`
  model_cli      `mpigauge model` (fits, exports, and --measure runs the curves first)
"""
