# SPDX-License-Identifier: BSD-3-Clause
"""python3 -m mpigauge"""
import sys

from .cli import main

sys.exit(main())
