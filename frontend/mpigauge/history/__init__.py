# SPDX-License-Identifier: BSD-3-Clause
"""Results across releases. Its modules:

  history        the results database: storage
  history_read   the database's queries (TagSummary, SeriesRow, MarkKey)
  history_cli    `mpigauge history`, and the trends it shares with the dashboard
  dashboard      the static site of a history (SeriesCard)
  dashboard_cli  `mpigauge dashboard`
"""
