#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The C and C++ sources in the project's style (.clang-format), checked with
# the pinned clang-format (scripts/requirements-tools.txt; installed by
# scripts/setup-deps.sh into _venv-tools/, or MG_CLANG_FORMAT). TAP; skipped
# when no clang-format of that version is found. `make format` applies it.
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
echo "1..1"
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
