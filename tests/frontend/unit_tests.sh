#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The front-end's unit tests under `make check` (TAP, tests/frontend/tap.py).
# MG_FRONTEND_UNIT=0 skips them: scripts/test.sh runs them once, in a stage
# of their own, since they do not depend on the MPI library.
if [ "${MG_FRONTEND_UNIT:-1}" = 0 ]; then
    echo "1..0 # SKIP the front-end's unit tests ran with another build (MG_FRONTEND_UNIT=0)"
    exit 0
fi
PYTHONDONTWRITEBYTECODE=1; export PYTHONDONTWRITEBYTECODE
exec "${PYTHON:-python3}" "${MG_TESTDIR:-$(dirname "$0")/..}/frontend/tap.py"
