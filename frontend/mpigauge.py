#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""mpigauge: run suites of mpigauge benchmarks, compare, plot and report
results. The code is the package frontend/mpigauge/ (installed in Python's
site folder); this script finds it, tells it where it is installed, and runs
its command line (`mpigauge --help`)."""
import os
import sys

# Substituted by `make` for the build-tree and installed scripts; left as is
# in the source tree, where the package sits next to this file.
PACKAGE_PARENT = "@pkgparent@"
PATHS = {"version": "@VERSION@", "bindir": "@bindir@", "suitesdir": "@suitesdir@",
         "srcsuitesdir": "@srcsuitesdir@", "osudir": "@osudir@", "profiledir": "@profiledir@"}

here = os.path.dirname(os.path.realpath(__file__))
parent = here if PACKAGE_PARENT.startswith("@") else PACKAGE_PARENT
sys.path.insert(0, parent)

from mpigauge.core import common  # noqa: E402
from mpigauge.cli import main  # noqa: E402

common.configure(script_dir=os.path.dirname(os.path.abspath(__file__)), **PATHS)

if __name__ == "__main__":
    sys.exit(main())
