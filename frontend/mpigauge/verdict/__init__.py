# SPDX-License-Identifier: BSD-3-Clause
"""statistics of two sides made verdicts: one series (verdicts.Row), whole sides
(compare), the sequential design of --until-decided, tuning files, and the
verdict options commands share (options)."""
