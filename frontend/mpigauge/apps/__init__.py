# SPDX-License-Identifier: BSD-3-Clause
"""Real applications. Its modules:

  profile        communication profiles of MPI programs
  mpip           mpiP reports read as profiles
  predict        a profile as a weighted suite with one predicted verdict
  app            an application's own figure read from its output
  profile_cli    `mpigauge profile`
  app_cli        `mpigauge app`: an application run as a configuration
"""
