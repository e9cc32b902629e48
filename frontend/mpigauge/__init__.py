# SPDX-License-Identifier: BSD-3-Clause
"""mpigauge's front-end: run suites of mpigauge benchmarks (several
configurations interleaved), compare results with statistical verdicts,
keep a history across releases, walk release series, plot and report.

Its packages, by concern, lowest first (LAYERS): a module imports from its
own package and from the packages before it, never from one after it
(tests/code_rules.sh checks this, and that no module imports another's
private name). Each command's parser, COMMAND_cli.py, sits beside its work
in its package; cli.py (the command line) assembles them.

  core      exit codes, paths, formatting, atomic writes; statistics; the schema
  data      results files, control variables, host cost, regimes, imports
  launch    suites, programs, MPI installations, one launch, the plan, the file
  verdict   one series' verdict, whole sides compared, the sequential design
  model     performance models (Hockney per protocol regime) fitted to results
  look      text/HTML/JSON rendering, figures, pages (plot, report)
  measure   configurations, the run loop, the typed run request, run, selftest
  apps      application profiles, predictions, applications as configurations
  judge     compare, best, guidelines, cvars
  history   the results database, history, dashboard
  releases  release series walks, series, mpi
  screen    node and link screening
"""
LAYERS = ("core", "data", "launch", "verdict", "model", "look", "measure", "apps", "judge",
          "history", "releases", "screen")
