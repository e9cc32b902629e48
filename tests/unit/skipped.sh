#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# In place of the GoogleTest unit tests when configure did not build them
# (no C++ compiler, no GoogleTest, or --disable-unit-tests): says why.
echo "1..0 # SKIP the GoogleTest unit tests (tests/unit/): ${MG_UNIT_WHY:-not built}"
