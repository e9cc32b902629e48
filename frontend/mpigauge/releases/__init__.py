# SPDX-License-Identifier: BSD-3-Clause
"""release series: the walk's statistics (series), its folder and state, its
report and history, `mpigauge series`; `mpigauge mpi` (the catalogue)."""
