# SPDX-License-Identifier: BSD-3-Clause
"""Performance models fitted to results. Its modules:

  hockney        Hockney's alpha and beta per protocol regime, breakpoints from the data
  limits         the library's size limits (MPI_T cvars) beside the breakpoints found
  paramverdict   verdicts on the parameters between two sides
  loggp          LogGP's L, o_s, o_r, g and G from the loggp program's round trips (PRTT)
  loggp_cli      `mpigauge model --loggp` and its LogGOPSim parameter set
  collectives    a collective's cost predicted from the point-to-point model for its algorithm
  collectives_cli `mpigauge model --collectives`: model against measured, gaps named
  smpi           the fitted costs as a SimGrid SMPI platform (piecewise overheads)
  smpi_cli       `mpigauge model --smpi DIR`: the export written and checked against the curves
  summary        a set's Hockney parameters as text and JSON, and their verdicts between sets
  scaling        a ranks sweep's model class and steps, and what changed them between sets
  scaling_compare what changed between two sides' sweeps: steps added or removed, the class
  scaling_report the scaling as text and JSON (`model --scaling`, compare, series)
"""
