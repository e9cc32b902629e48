# SPDX-License-Identifier: BSD-3-Clause
"""what people read: text, Markdown, HTML and JSON (render), figures (plot,
ranks, trendchart), pages (report, overview); `mpigauge plot`, `report`."""
