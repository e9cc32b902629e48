# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the scripts (with $root set): put the project's virtual
# environment _venv/ (made by setup-deps.sh, matplotlib pinned in
# requirements-plot.txt) first on PATH when it exists, so that python3 and
# configure's PYTHON are the one that can plot.
if [ -x "$root/_venv/bin/python3" ]; then
    PATH="$root/_venv/bin:$PATH"
    export PATH
fi
