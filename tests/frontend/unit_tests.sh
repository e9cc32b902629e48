#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The front-end's unit tests under `make check` (TAP, tests/frontend/tap.py).
PYTHONDONTWRITEBYTECODE=1; export PYTHONDONTWRITEBYTECODE
exec "${PYTHON:-python3}" "${MG_TESTDIR:-$(dirname "$0")/..}/frontend/tap.py"
