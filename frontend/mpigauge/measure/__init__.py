# SPDX-License-Identifier: BSD-3-Clause
"""running suites: configurations, the interleaved run loop (runner), the typed
run request other commands hand it (runrequest), `mpigauge run`, the
self-test (`mpigauge selftest`)."""
