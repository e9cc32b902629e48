# SPDX-License-Identifier: BSD-3-Clause
"""every pair of nodes screened, slow nodes and links named: `mpigauge screen`."""
