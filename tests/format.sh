#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The C and C++ sources in the project's style (.clang-format), checked with
# the pinned clang-format (scripts/requirements-tools.txt; installed by
# scripts/setup-deps.sh into _venv-tools/, or MG_CLANG_FORMAT); the Python
# sources (frontend/, tests/, bench/, contrib/, doc/) as the pinned autopep8
# leaves them (setup.cfg's [pycodestyle]: 100 columns; long lines are the
# author's to break, E501 is not rewrapped). TAP; each test skipped when
# its tool of the pinned version is not found. `make format` applies both.
#   tests/format.sh [SOURCE_DIR]   (default: MG_TESTDIR/.., else ..)
# MG_FORMAT_CHECK=0 skips it (scripts/test.sh: the sources are the same for
# every build; it runs in the first library's make check only).
set -u
if [ "${MG_FORMAT_CHECK:-1}" = 0 ]; then
    echo "1..0 # SKIP the sources' format was checked with another build (MG_FORMAT_CHECK=0)"
    exit 0
fi
src=${1:-${MG_TESTDIR:+$MG_TESTDIR/..}}
src=${src:-$(dirname "$0")/..}
cd "$src" || exit 99
echo "1..2"
want=$(sed -n 's/^clang-format==//p' scripts/requirements-tools.txt 2>/dev/null)
cf=${MG_CLANG_FORMAT:-}
found=
for c in "$cf" _venv-tools/bin/clang-format clang-format-14 clang-format; do
    [ -n "$c" ] && [ -n "$want" ] || continue
    v=$("$c" --version 2>/dev/null | sed -n 's/.*clang-format version \([0-9.]*\).*/\1/p')
    if [ -n "$v" ] && [ "$v" = "$want" ]; then found=$c; break; fi
done
cf=$found
if [ -z "$cf" ]; then
    echo "ok 1 - sources in the .clang-format style # SKIP no clang-format ${want:-(no pinned version here)} (scripts/setup-deps.sh)"
    exit 0
fi
bad=$(find util mpi pt2pt collective onesided overlap tools bench tests/unit tests/fuzz \
    \( -name '*.[ch]' -o -name '*.cc' \) -type f | sort | while read -r f; do
    "$cf" --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
if [ -z "$bad" ]; then
    echo "ok 1 - sources in the .clang-format style (clang-format $want)"
else
    echo "not ok 1 - sources not in the .clang-format style (make format):"
    echo "$bad" | sed 's/^/# /'
fi
# 2: the Python sources, as autopep8 leaves them
want=$(sed -n 's/^autopep8==//p' scripts/requirements-tools.txt 2>/dev/null)
ap=
for c in "${MG_AUTOPEP8:-}" _venv-tools/bin/autopep8 autopep8; do
    [ -n "$c" ] && [ -n "$want" ] || continue
    v=$("$c" --version 2>/dev/null | sed -n 's/^autopep8 \([0-9.]*\).*/\1/p')
    if [ -n "$v" ] && [ "$v" = "$want" ]; then ap=$c; break; fi
done
if [ -z "$ap" ]; then
    echo "ok 2 - Python sources as autopep8 leaves them # SKIP no autopep8 ${want:-(no pinned version here)} (scripts/setup-deps.sh)"
    exit 0
fi
# one process for every file; a file it would change is named in its diff
bad=$("$ap" --diff $(find frontend tests bench contrib doc -name '*.py' -type f | sort) 2>&1 |
    sed -n 's|^--- original/||p')
if [ -z "$bad" ]; then
    echo "ok 2 - Python sources as autopep8 $want leaves them (setup.cfg)"
else
    echo "not ok 2 - Python sources not as autopep8 leaves them (make format):"
    echo "$bad" | sed 's/^/# /'
fi
