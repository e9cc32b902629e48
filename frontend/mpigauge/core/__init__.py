# SPDX-License-Identifier: BSD-3-Clause
"""exit codes, paths, number formatting and atomic writes (common), statistics (stats,
pure), the record schema: what every other package stands on."""
