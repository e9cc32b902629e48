# SPDX-License-Identifier: BSD-3-Clause
"""The code rules (tests/code_rules.sh) fail where they should: a copy of
the source tree with one fault of each kind planted (an upward import
between the front-end's packages, a private name imported across modules,
a module outside the listed packages, its package's map, the install list
and the test map,
a tools/ file that includes a driver header) gets `not ok` on each rule
that names it, and the culprit named. A command without a man page is
tests/man_pages.sh's test 1 (the pages come from cli.COMMANDS)."""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import helpers as h


def _ignore(folder, names):
    """The source tree only: no build, virtual environment, cache or git."""
    return [n for n in names if n.startswith(("_build", "_venv", ".")) or
            n in ("autom4te.cache", "__pycache__")]


def _append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


_OUT = []


def planted_output():
    """code_rules.sh's output on a copy of the tree with the faults planted
    (made once per process: the TAP runner runs each test alone, without
    class fixtures)."""
    if _OUT:
        return _OUT[0]
    tmp = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, tmp, True)
    src = os.path.join(tmp, "src")
    shutil.copytree(h.TOP, src, ignore=_ignore, symlinks=True)
    fe = os.path.join(src, "frontend", "mpigauge")
    # an upward import: the lowest package imports a command's module
    _append(os.path.join(fe, "core", "stats.py"), "\n\ndef _up():\n"
            "    from ..judge import best_cli\n    return best_cli\n")
    # a private name of another module
    _append(os.path.join(fe, "data", "results.py"),
            "\n\nfrom ..core.common import _planted  # noqa\n")
    # a module in a package of its own: not in LAYERS, local.mk, the map
    os.makedirs(os.path.join(fe, "extra"))
    with open(os.path.join(fe, "extra", "planted_mod.py"), "w") as f:
        f.write("from ..core import common  # noqa\n")
    # a module of a listed package that its package's map does not name
    with open(os.path.join(fe, "core", "planted_core.py"), "w") as f:
        f.write("from . import common  # noqa\n")
    # tools/ borrowing the driver's internal header
    _append(os.path.join(src, "tools", "screen_main.c"), '\n#include "mg_run.h"\n')
    env = dict(os.environ, PYTHON=sys.executable)
    env.pop("MG_BUILDDIR", None)
    env.pop("MG_TESTDIR", None)
    _OUT.append(subprocess.run(["sh", os.path.join(src, "tests", "code_rules.sh"), src],
                               capture_output=True, text=True, env=env, timeout=300).stdout)
    return _OUT[0]


class PlantedFaults(unittest.TestCase):
    def result(self, n):
        """The TAP line of check n and its comment lines."""
        m = re.search(rf"^((?:not )?ok {n} .*?)(?=^(?:not )?ok \d|\Z)", planted_output(), re.M | re.S)
        self.assertIsNotNone(m, planted_output())
        return m.group(1)

    def assertFails(self, n, *names):
        text = self.result(n)
        self.assertTrue(text.startswith("not ok"), text)
        for name in names:
            self.assertIn(name, text)

    def test_upward_import(self):
        self.assertFails(12, "core.stats", "imports judge.best_cli: an upward import")

    def test_private_name(self):
        self.assertFails(9, "_planted")

    def test_unlisted_module(self):
        self.assertFails(5, "extra/planted_mod.py")
        self.assertFails(10, "planted_mod.py")
        self.assertFails(12, "'extra' is not in LAYERS")
        self.assertFails(12, "core.planted_core: not in its package's map")
        self.assertFails(5, "core/planted_core.py")

    def test_tools_include_driver_header(self):
        self.assertFails(8, "screen_main.c includes mg_run.h")

    def test_other_rules_still_hold(self):
        # the plants break only their own rules: the size and index checks pass
        for n in (7, 11):
            self.assertTrue(self.result(n).startswith("ok"), self.result(n))


if __name__ == "__main__":
    unittest.main()
