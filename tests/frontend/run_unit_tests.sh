#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The front-end's unit tests (Python unittest), verbose. Exit status 0 when all pass.
#   tests/frontend/run_unit_tests.sh [PYTHON]
here=$(cd "$(dirname "$0")" && pwd)
PYTHONDONTWRITEBYTECODE=1; export PYTHONDONTWRITEBYTECODE
exec "${1:-${PYTHON:-python3}}" -m unittest discover -s "$here" -p 'test_*.py' -v
