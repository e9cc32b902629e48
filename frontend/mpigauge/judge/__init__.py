# SPDX-License-Identifier: BSD-3-Clause
"""the commands that judge results: `compare`, `best` (and its tie logic),
`guidelines` (self-consistent performance guidelines), `cvars`."""
