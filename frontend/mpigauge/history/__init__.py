# SPDX-License-Identifier: BSD-3-Clause
"""the results database across releases (history: storage, history_read:
queries), `mpigauge history`, the static site (`dashboard`)."""
