# SPDX-License-Identifier: BSD-3-Clause
"""Performance models fitted to results. Its modules:

  hockney        Hockney's alpha and beta per protocol regime, breakpoints from the data
  model_cli      `mpigauge model`
"""
