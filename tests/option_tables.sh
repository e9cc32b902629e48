#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP: the option tables of doc/options.md and doc/multirail.md and the
# catalogue of doc/programs.md are what the
# programs' rows give (doc/option_tables.py --check; `make option-tables`
# rewrites them), and the rows' JSON form is well made: every program
# prints one record per option with its names, group and help, and exits 0.
# Environment as for mpi_cases.sh (MG_BINDIR, MG_TESTDIR, PYTHON).
set -u
. "$MG_TESTDIR/mpi_env.sh"
src=$(cd "$MG_TESTDIR/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
lat=$(mg_program latency)
if [ -z "$lat" ]; then
    echo "Bail out! mpigauge_latency not found in MG_BINDIR=$MG_BINDIR"
    exit 1
fi
timeout 60 "$lat" --help --format json >"$tmp/lat.jsonl" 2>"$tmp/lat.err"
rc=$?
if [ "$rc" = 0 ] && "$PYTHON" - "$tmp/lat.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows and all(r["type"] == "option" and r["program"] == "latency" for r in rows)
by = {r["long"]: r for r in rows}
assert by["time-budget"] == {"type": "option", "program": "latency", "group": "common",
    "short": None, "long": "time-budget", "arg": "SECONDS", "default": "1",
    "key": "time_budget_s", "help": "adaptive: sampling time budget per size"}, by["time-budget"]
assert by["format"]["choices"] == ["table", "csv", "json"] and by["format"]["default"] == "table"
assert by["message-size"]["short"] == "m" and by["message-size"]["key"] is None
assert {r["group"] for r in rows} == {"common", "benchmark", "rails"}, {r["group"] for r in rows}
assert by["persistent"]["group"] == "benchmark" and by["persistent"]["arg"] is None
PY
then echo "ok 1 - latency --help --format json: one record per option, exact fields"
else echo "not ok 1 - latency --help --format json (exit $rc)"; cat "$tmp/lat.err"; fi
timeout 60 "$lat" --help >"$tmp/lat.txt" 2>&1
if grep -q '^Sizes by default: 0:4M$' "$tmp/lat.txt" && grep -q -- '--time-budget SECONDS.*(default 1)$' "$tmp/lat.txt"
then echo "ok 2 - latency --help: the default sizes and the rows' defaults"
else echo "not ok 2 - latency --help"; cat "$tmp/lat.txt"; fi
if timeout 600 "$PYTHON" "$src/doc/option_tables.py" --bindir "$MG_BINDIR" --check \
    "$src/doc/options.md" "$src/doc/programs.md" "$src/doc/multirail.md" >"$tmp/diff" 2>&1
then echo "ok 3 - doc/options.md, doc/programs.md and doc/multirail.md match the programs' rows"
else echo "not ok 3 - option tables differ from the rows (make option-tables):"; sed 's/^/# /' "$tmp/diff" | head -n 60; fi
