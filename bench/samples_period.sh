#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# How well `report --samples` finds a periodic disturbance in a real run,
# and how often it calls one where none was injected: both Debian
# libraries, 2 ranks, 8 B latency (-i 3000000, 30000 samples), each launch
# with or without a 12 ms stall of both ranks every 50 ms (tests/stall.py:
# SIGSTOP, SIGCONT), on a quiet machine or beside one busy process. The
# cells are interleaved launch by launch, ROUNDS rounds (default 5). Each
# launch is judged twice, on the same samples: by the rule of
# frontend/mpigauge/data/samples.py (binomial tail, duration classes) and by the
# rule before it (60% of the gaps regular, events merged by the longest
# spike). Prints one line per cell: periods found, their median and range.
#   bench/samples_period.sh [ROUNDS]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
work=$(mktemp -d)
busy=
trap 'kill $busy 2>/dev/null; rm -rf "$work"' EXIT
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
printf 'echo $$ >>"$MG_PIDS"\nexec "$@"\n' >"$work/rank.sh"
MG_PIDS=$work/pids
export MG_PIDS
hi=
[ "$(id -u)" -eq 0 ] && hi="nice -n -15"
for r in $(seq "$rounds"); do
    for lib in openmpi mpich; do
        case $lib in openmpi) launcher=mpirun.openmpi ;; *) launcher=mpiexec.mpich ;; esac
        prog=$root/_build/$lib/pt2pt/mpigauge_latency
        [ -x "$prog" ] || { echo "$0: build _build/$lib first" >&2; exit 2; }
        for load in quiet busy; do
            [ $load = busy ] && { python3 -c 'while True: pass' & busy=$!; }
            for stall in stall none; do
                : >"$MG_PIDS"
                st=
                if [ $stall = stall ]; then
                    $hi python3 "$root/tests/stall.py" "$MG_PIDS" 2 0.050 0.012 >/dev/null &
                    st=$!
                fi
                $hi timeout -k 10 120 $launcher -n 2 sh "$work/rank.sh" "$prog" -m 8:8 -i 3000000 \
                    -x 100 --max-samples 30000 --samples "$work/$lib.$load.$stall.$r.jsonl" \
                    >/dev/null 2>"$work/err" || { echo "$0: $lib launch failed" >&2; cat "$work/err" >&2; }
                [ -n "$st" ] && wait $st
            done
            [ $load = busy ] && { kill $busy; wait $busy 2>/dev/null; busy=; }
        done
    done
    echo "round $r of $rounds done" >&2
done
PYTHONPATH=$root/frontend python3 - "$work" <<'PY'
import glob, os, sys
from mpigauge import samples as S
from mpigauge.stats import median

def old_rule(spk):
    """the rule before: events merged by twice the longest spike, 60% of
    the gaps regular, no significance, no duration classes"""
    if not spk:
        return None
    found = S.period(S.events(spk, max(2 * max(d for _, d in spk), 1e-4)), alpha=1.0)
    return found[0] if found else None

cells = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.jsonl"))):
    lib, load, stall, _r, _ = os.path.basename(f).split(".")
    _, series = S.load(f)
    spk = S.spikes(series)
    new = S.periodic(spk)
    c = cells.setdefault((lib, load, stall), {"new": [], "old": [], "n": 0})
    c["n"] += 1
    if new:
        c["new"].append(new[0] * 1e3)
    old = old_rule(spk)
    if old:
        c["old"].append(old * 1e3)

def show(ms):
    if not ms:
        return "-"
    return f"{median(ms):.1f} ms ({min(ms):.1f}-{max(ms):.1f})"

print("| library | machine | injected | launches | found (rule now) | period | found (rule before) | period |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for (lib, load, stall), c in sorted(cells.items()):
    what = "12 ms every 50 ms" if stall == "stall" else "nothing"
    print(f"| {lib} | {load} | {what} | {c['n']} | {len(c['new'])} | {show(c['new'])} | "
          f"{len(c['old'])} | {show(c['old'])} |")
PY
