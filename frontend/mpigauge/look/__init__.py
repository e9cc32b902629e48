# SPDX-License-Identifier: BSD-3-Clause
"""What people read. Its modules:

  render         text, Markdown, HTML and JSON of comparisons
  plot           figures against message size (matplotlib)
  ranks          per-rank and rank-count views
  trendchart     a series' trend as SVG
  overview       the overview of many comparisons
  report         one self-contained HTML page
  plot_cli       `mpigauge plot`
  report_cli     `mpigauge report`
"""
