# SPDX-License-Identifier: BSD-3-Clause
"""results files and what they carry: reading them (results: SeriesKey, pairs),
control variables (cvars), what the host paid (hostcost), regimes and
sentinels, per-sample timelines, and OSU/IMB text imported as results
(importer, `mpigauge import`)."""
