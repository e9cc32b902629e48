# SPDX-License-Identifier: BSD-3-Clause
"""Results files and what they carry. Its modules:

  results        reading results files: launches, sets, series (SeriesKey), pairs
  cvars          the MPI library's control variables (MPI_T), stored once per set
  hostcost       what the host paid per side (CPU, context switches, faults)
  regimes        launch regimes and the noise sentinels' explanations
  samples        per-sample timelines (--samples files)
  importer       OSU and IMB text outputs read as results
  import_cli     `mpigauge import`
"""
