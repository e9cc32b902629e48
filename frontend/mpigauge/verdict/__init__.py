# SPDX-License-Identifier: BSD-3-Clause
"""Statistics of two sides made verdicts. Its modules:

  verdicts       one series' statistics and verdict (Row)
  compare        whole sides compared, series by series
  allocations    the allocation as the unit (compare --by-allocation)
  sequential     the sequential design of --until-decided
  tuning         tuning files (the best configuration as the library's rules)
  options        the verdict options several commands share
"""
