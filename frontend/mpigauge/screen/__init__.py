# SPDX-License-Identifier: BSD-3-Clause
"""Node and link screening. Its modules:

  screen         every pair of nodes: slow nodes and links named
  screen_cli     `mpigauge screen`
"""
