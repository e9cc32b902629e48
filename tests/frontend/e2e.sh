#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# End-to-end test of the front-end with real MPI: the quick suite on 2 ranks
# with an Open MPI build and an MPICH build (2 launches each, short sweeps),
# compare, plot to a PNG (file size and dimensions checked), report; then
# interleaved runs of two configurations: the two builds, and the Open MPI
# build with and without an MCA variable, compared by label; the history of
# these results (add, refusal of the same launches, check paired by round,
# export) and its dashboard loaded in headless Chromium (text, no script
# error; a screenshot kept in OPENMPI_BUILD/tests/artefacts/). TAP output.
#   tests/frontend/e2e.sh [OPENMPI_BUILD [MPICH_BUILD]]   (default _build/openmpi, _build/mpich)
# MG_FRONTEND: the mpigauge to test (default: OPENMPI_BUILD/frontend/mpigauge,
# else frontend/mpigauge.py). MG_E2E_ARGS: benchmark options (default -m 1:4K -i 20).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
ompi=${1:-$top/_build/openmpi}
mpich=${2:-$top/_build/mpich}
fe=${MG_FRONTEND:-}
if [ -z "$fe" ]; then
    if [ -x "$ompi/frontend/mpigauge" ]; then fe=$ompi/frontend/mpigauge
    else fe="python3 $top/frontend/mpigauge.py"; fi
fi
args=${MG_E2E_ARGS:--m 1:4K -i 20}
work=$(mktemp -d "${TMPDIR:-/tmp}/mg-e2e.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT INT TERM
TAP_DIR=$work TAP_ERR_LINES=15
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
echo "1..23"
echo "# front-end: $fe"

# shellcheck disable=SC2086
check "run quick suite, Open MPI build, 2 launches each" \
    $fe run --suite quick --repeat 2 --bindir "$ompi" -o "$work/ompi.jsonl" -- $args
# shellcheck disable=SC2086
check "run quick suite, MPICH build, 2 launches each" \
    $fe run --suite quick --repeat 2 --bindir "$mpich" -o "$work/mpich.jsonl" -- $args

check_results() { # file library-prefix
    python3 - "$1" "$2" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
launch = [r for r in recs if r["type"] == "launch"]
runs = [r for r in recs if r["type"] == "run"]
res = [r for r in recs if r["type"] == "result"]
assert [l["status"] for l in launch] == ["ok"] * 6, [l["status"] for l in launch]
assert len(runs) == 6 and all(r["nranks"] == 2 for r in runs)
assert all(r["mpi_library"].startswith(sys.argv[2]) for r in runs), runs[0]["mpi_library"]
assert {r["benchmark"] for r in runs} == {"latency", "bw", "bibw"}
ids = {l["launch_id"] for l in launch}
assert all(r.get("launch_id") in ids for r in runs + res)
assert len(res) >= 6 * 13 and all(r["median"] > 0 for r in res), len(res)
assert recs[0]["type"] == "session" and recs[-1]["type"] == "session_end"
PY
}
check "Open MPI results: 6 launches ok, 2 ranks, launch ids" check_results "$work/ompi.jsonl" "Open MPI"
check "MPICH results: 6 launches ok, 2 ranks, launch ids" check_results "$work/mpich.jsonl" "MPICH"

check "compare Open MPI with MPICH (text)" $fe compare "$work/ompi.jsonl" "$work/mpich.jsonl" -o "$work/cmp.txt"
verdicts() {
    python3 - "$work/cmp.txt" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.split()[:1] and l.split()[0] in ("latency", "bw", "bibw")]
assert len(rows) == 3 * 13, len(rows)   # every benchmark and size of -m 1:4K compared
words = ("faster", "slower", "same", "unclear", "unstable:")
assert all(any(w in r[9:] for w in words) for r in rows), rows
PY
}
check "comparison has a verdict for every benchmark and size" verdicts
check "compare --format markdown" sh -c "$fe compare '$work/ompi.jsonl' '$work/mpich.jsonl' --format markdown | grep -q '^| latency | 1K | us |'"

check "plot both result sets to a PNG" $fe plot "$work/ompi.jsonl" "$work/mpich.jsonl" -o "$work/p.png"
png() {
    python3 - "$work/p.png" <<'PY'
import os, struct, sys
data = open(sys.argv[1], "rb").read(24)
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
size = os.path.getsize(sys.argv[1])
assert (w, h) == (1560, 390), (w, h)       # 3 panels of 5.2 x 3.9 inches at 100 dpi
assert 20000 < size < 2000000, size
print(f"PNG {w}x{h}, {size} bytes")
PY
}
check "PNG has 3 panels' size (1560x390) and a plausible file size" png

# Interleaved configurations: the two builds in one run, paired by round.
# shellcheck disable=SC2086
check "interleaved run of the two builds, 3 rounds" \
    $fe run --suite quick --repeat 3 --seed 11 --config "ompi bindir=$ompi" \
    --config "mpich bindir=$mpich" -o "$work/both.jsonl" -- $args
interleaved() { # file label label
    python3 - "$@" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
a, b = sys.argv[2], sys.argv[3]
s = recs[0]
assert s["type"] == "session" and [c["label"] for c in s["configs"]] == [a, b], s
assert isinstance(s["seed"], int) and len(s["order"]) == 3 * 3 * 2, len(s["order"])
launch = [r for r in recs if r["type"] == "launch"]
assert [l["status"] for l in launch] == ["ok"] * 18, [l["status"] for l in launch]
for rnd in (1, 2, 3):
    for bench in ("latency", "bw", "bibw"):
        got = sorted(l["config"] for l in launch if l["round"] == rnd and l["benchmark"] == bench)
        assert got == sorted([a, b]), (rnd, bench, got)
# the two configurations of a line run back to back
for i in range(0, 18, 2):
    assert launch[i]["benchmark"] == launch[i + 1]["benchmark"], i
    assert launch[i]["round"] == launch[i + 1]["round"], i
sent = [r for r in recs if r["type"] == "sentinel"]
assert len(sent) == 36 and all(r["probe_latency_us"] > 0 for r in sent), len(sent)
runs = [r for r in recs if r["type"] == "run"]
assert all(r["config"] in (a, b) and r["round"] in (1, 2, 3) for r in runs)
# the two launches of a line and round ran at once, taking turns (mpi/driver/mg_turns.h)
for i in range(0, 18, 2):
    t0, t1 = launch[i]["turns"], launch[i + 1]["turns"]
    assert t0["group"] == t1["group"] and (t0["role"], t1["role"]) == (0, 1), (t0, t1)
after = [r for r in sent if r["phase"] == "after"]
assert all(r["turns"]["count"] == 2 and not r["turns"]["lost"] for r in after), after
assert sum(r["turns"]["yields"] for r in after) >= 18, [r["turns"] for r in after]
import glob
left = glob.glob("/dev/shm/sem.mgt-" + s["session_id"] + "-*")
assert not left, left
PY
}
check "both builds: 18 launches ok, each round has both taking turns, sentinels" \
    interleaved "$work/both.jsonl" ompi mpich
check "compare the builds by label (JSON verdicts)" \
    $fe compare "$work/both.jsonl" ompi mpich --format json -o "$work/both-cmp.jsonl"
verdicts_json() {
    python3 - "$work/both-cmp.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]["type"] == "comparison" and recs[0]["method"] == "paired", recs[0]
series = [r for r in recs if r["type"] == "series"]
assert len(series) == 3 * 13, len(series)
ok = ("faster", "slower", "same", "unclear")
assert all(r["verdict"] in ok or r["verdict"].startswith("unstable") for r in series), series
assert all(r["paired"] and r["pairs"] + len(r["pairs_dropped"]) == 3 for r in series)
PY
}
check "every series paired over the 3 rounds, with a verdict" verdicts_json
# shellcheck disable=SC2086
check "interleaved run of one build with and without an MCA variable" \
    $fe run --suite quick --repeat 2 --config "vader bindir=$ompi" \
    --config "tcp bindir=$ompi OMPI_MCA_btl=self,tcp" -o "$work/btl.jsonl" -- $args
check "the MCA variable reached the ranks, and report names both" sh -c "
    grep -q '\"OMPI_MCA_btl\":\"self,tcp\"' '$work/btl.jsonl' &&
    $fe report '$work/btl.jsonl' --no-plot -o '$work/btl.html' &&
    grep -q 'Noise sentinels' '$work/btl.html' && grep -q 'tcp vs vader' '$work/btl.html'"

# The history and its dashboard, of the real results above.
db="$work/history.sqlite"
check "history add the three runs (Open MPI, MPICH, the interleaved night)" sh -c "
    $fe history --db '$db' add '$work/ompi.jsonl' --tag openmpi-4.1.4 &&
    $fe history --db '$db' add '$work/mpich.jsonl' --tag mpich-4.0.2 &&
    $fe history --db '$db' add '$work/both.jsonl' --tag nightly | grep -q 'added 18 launches.*configurations mpich, ompi' &&
    $fe history --db '$db' list | grep -q '^nightly .* 18 '"
check "the same launches again are refused (exit 2), the history unchanged" sh -c "
    $fe history --db '$db' add '$work/ompi.jsonl' --tag again; test \$? = 2 &&
    ! $fe history --db '$db' list | grep -q '^again'"
hist_check() {
    $fe history --db "$db" check nightly@mpich --against nightly@ompi --format json >"$work/hc.jsonl"
    rc=$?
    [ "$rc" = 0 ] || [ "$rc" = 1 ] || return 1
    python3 - "$work/hc.jsonl" "$rc" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]["method"] == "paired", recs[0]
series = [r for r in recs if r["type"] == "series"]
assert len(series) == 3 * 13, len(series)
slower = any(r["verdict"] == "slower" for r in series)
assert slower == (sys.argv[2] == "1"), (slower, sys.argv[2])   # exit 1 exactly on a regression
PY
}
check "history check nightly@mpich against nightly@ompi: paired, exit 1 exactly on a regression" hist_check
check "history show and export give back every launch" sh -c "
    $fe history --db '$db' show latency --size 1K | grep -c ' 1K ' | grep -qx 4 &&
    $fe history --db '$db' export -o '$work/export.jsonl' &&
    test \$(grep -c '\"type\":\"run\"' '$work/export.jsonl') = 30"
check "dashboard of the history" $fe dashboard --db "$db" -o "$work/site"
# headless Chromium: the page's text, the script ran (data-script-ok) without
# an error (data-script-errors, and no console message at all)
browser() { # page, words that must appear in the rendered page
    page=$1; shift
    command -v chromium >/dev/null 2>&1 || { echo "chromium is not installed" >"$work/err"; return 1; }
    timeout 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
        --dump-dom "file://$work/site/$page" >"$work/dom.html" 2>"$work/chromium.err" || return 1
    grep -q 'data-script-ok="1"' "$work/dom.html" || { echo "the page's script did not run" >"$work/err"; return 1; }
    grep -q 'data-script-errors="0"' "$work/dom.html" || { echo "script errors" >"$work/err"; return 1; }
    if grep -q 'CONSOLE' "$work/chromium.err"; then grep CONSOLE "$work/chromium.err" >"$work/err"; return 1; fi
    for w in "$@"; do
        grep -q "$w" "$work/dom.html" || { echo "the page lacks: $w" >"$work/err"; return 1; }
    done
}
check "Chromium: the overview lists the tags and the regressions section" \
    browser index.html "nightly" "openmpi-4.1.4" "Regressions of nightly against mpich-4.0.2"
# The grid compares the series the last two tags share: here nightly's are
# configurations (@ompi, @mpich) that mpich-4.0.2 does not have, which the
# page says; a second history of the two builds as two tags has the grid.
grid_page() {
    $fe history --db "$work/two.sqlite" add "$work/ompi.jsonl" --tag ompi-build >/dev/null &&
    $fe history --db "$work/two.sqlite" add "$work/mpich.jsonl" --tag mpich-build >/dev/null &&
    $fe dashboard --db "$work/two.sqlite" -o "$work/site2" >/dev/null &&
    browser pt2pt.html "117 of 117 charts shown" "latency, 2 ranks, size 1K" "@ompi" "<svg" \
        "At a glance" "No series of this family has both nightly and mpich-4.0.2" \
        "each size over the tags" &&
    browser ../site2/pt2pt.html 'table class="grid"' "mpich-build against ompi-build: new/base as a speedup" \
        "latency, 2 ranks"
}
check "Chromium: the point-to-point page: its grid of the last tag (where two tags share series), a chart per benchmark, every series, filtered" \
    grid_page
shot() {
    art="$ompi/tests/artefacts"
    mkdir -p "$art" && rm -f "$art/dashboard-pt2pt.png" &&
        timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
            --window-size=1280,1400 --screenshot="$art/dashboard-pt2pt.png" \
            "file://$work/site/pt2pt.html" >/dev/null 2>&1
    python3 - "$art/dashboard-pt2pt.png" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", d[16:24]) == (1280, 1400)
assert len(d) > 20000, len(d)          # a drawn page, not a blank one
PY
}
check "Chromium: a screenshot of the point-to-point page kept as a test artefact" shot
[ "$failed" -eq 0 ]
