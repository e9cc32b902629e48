#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The newer MPI releases (scripts/mpi-releases.txt), after Debian's two have
# had the full MPI cases: every program once with -c under each release
# (through `mpigauge run`, on 2 ranks, a tiny fixed iteration count; exit 77
# counts when the program says why), the MPI-5 ABI build's programs, each
# once under each library that implements it (MPICH 5.0.2 natively, Intel
# MPI 2021.19.0 through library=), interleaved, one interleaved run of the quick suite across all releases with
# `compare`, and the refusal of a launcher of another release. TAP output.
#   tests/releases.sh BUILD_ROOT [NAME...]
# BUILD_ROOT holds _build/NAME (scripts/build.sh NAME) and _mpi/ (default:
# the checkout). NAMEs: builds to test (default: openmpi-5.0.11 mpich-5.0.2
# impi-2021.19.0 abi); Debian's openmpi and mpich join the interleaved run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$top}
[ $# -gt 0 ] && shift
names=${*:-openmpi-5.0.11 mpich-5.0.2 impi-2021.19.0 abi}
fe="python3 $top/frontend/mpigauge.py"
work=$(mktemp -d "${TMPDIR:-/tmp}/mg-releases.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT INT TERM
TAP_DIR=$work TAP_ERR_LINES=25
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
# PyPI's Open MPI 5.0.11 spends 1.0 s of every MPI_Init in btl ofi, looking
# for a fabric this node has not (1.15 s against 0.15 s without it); on one
# node the ranks talk through btl sm either way. The list keeps Debian's own
# exclusions (uct, openib), since this variable replaces its file's line for
# the Debian build in the interleaved run.
OMPI_MCA_btl=${OMPI_MCA_btl:-^ofi,uct,openib}
export OMPI_MCA_btl
impi=$root/_mpi/impi-2021.19.0

# every program of a build, once, 2 ranks, -c, 2 iterations (startup: one
# initialisation per launch; footprint: one reading of each stage)
every_program() { # build dir -> suite file on stdout
    for f in "$1"/pt2pt/mpigauge_* "$1"/overlap/mpigauge_*; do
        case $f in *.o|*'*') continue ;; esac
        p=${f##*/mpigauge_}
        case $p in startup | footprint) echo "ranks=2 $p -c" ;; *) echo "ranks=2 $p -c -i 2 -x 1" ;; esac
    done
    for p in $("$1/collective/mpigauge_coll" --list-names | awk '{print $1}') \
             $("$1/onesided/mpigauge_rma" --list-names | awk '{print $1}'); do
        echo "ranks=2 $p -c -i 2 -x 1"
    done
}

# the launches of a results file: all ok or skipped with a reason, library
# and launcher of one release, the library the one expected
check_every() { # file expected-library-name
    python3 - "$1" "$2" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
launches = [r for r in recs if r["type"] == "launch"]
bad = [(l["benchmark"], l["status"], l["message"][:160]) for l in launches
       if not (l["status"] == "ok" or (l["status"] == "skipped" and l["message"]))]
assert not bad, bad
assert len(launches) >= 100, len(launches)
for l in launches:
    inst = l["mpi_install"]
    assert inst["library"]["name"] == sys.argv[2], (l["benchmark"], inst)
    assert inst["launcher"]["name"] == inst["library"]["name"], (l["benchmark"], inst)
runs = [r for r in recs if r["type"] == "run"]
assert runs and all(r["mpi_launcher"]["name"] == sys.argv[2] for r in runs), runs[0]
skipped = sorted(l["benchmark"] for l in launches if l["status"] == "skipped")
print(f"# {len(launches)} programs: {len(launches) - len(skipped)} ok, skipped: {skipped}")
PY
}

every=$(echo " $names " | sed 's/ abi / /')
nt=$(echo "$every" | wc -w)
echo "1..$((nt + 5))"
for name in $every; do
    b=$root/_build/$name
    every_program "$b" >"$work/every-$name.txt"
    case $name in
    abi) want="MPICH 5.0.2" ;;
    openmpi-*) want="Open MPI ${name#openmpi-}" ;;
    mpich-*) want="MPICH ${name#mpich-}" ;;
    impi-*) want="Intel MPI ${name#impi-}" ;;
    *) want="" ;;
    esac
    t0=$(date +%s)
    $fe run -q --suite "$work/every-$name.txt" --bindir "$b" --timeout 120 \
        -o "$work/every-$name.jsonl" >"$work/out" 2>"$work/err"
    rc=$?
    # the launches are checked (and the bad ones named) whatever run said
    if check_every "$work/every-$name.jsonl" "$want" >"$work/out" 2>>"$work/err" && [ "$rc" = 0 ]; then
        cat "$work/out"
        ok "$name: every program once with -c under $want ($(($(date +%s) - t0)) s)"
    else
        cat "$work/out"
        notok "$name: every program once with -c under $want (run exit $rc)"
    fi
done

# the ABI build, unchanged, under Intel MPI (library=): the same programs
case " $names " in *" abi "*)
    # the point-to-point, overlap and one-sided programs and the blocking
    # collectives (their non-blocking and persistent forms ran above)
    every_program "$root/_build/abi" | grep -v -E ' (i[a-z_]+|[a-z_]+_init|ineighbor_[a-z]+) -c' \
        >"$work/every-abi-impi.txt"
    t0=$(date +%s)
    if $fe run -q --suite "$work/every-abi-impi.txt" --timeout 120 \
            --config "abi-impi bindir=$root/_build/abi library=$impi I_MPI_FABRICS=shm" \
            --config "abi-mpich bindir=$root/_build/abi" \
            -o "$work/abi.jsonl" >"$work/out" 2>"$work/err" &&
       python3 - "$work/abi.jsonl" >"$work/out" 2>>"$work/err" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
launches = [r for r in recs if r["type"] == "launch"]
assert launches and all(l["status"] in ("ok", "skipped") for l in launches), \
    [(l["config"], l["benchmark"], l["status"], l["message"][:120]) for l in launches
     if l["status"] not in ("ok", "skipped")]
by = {}
for l in launches:
    by.setdefault(l["config"], set()).add((l["program"], l["mpi_install"]["library"]["name"],
                                           l["mpi_install"]["launcher"]["name"]))
progs = {c: {p for p, _, _ in v} for c, v in by.items()}
assert progs["abi-impi"] == progs["abi-mpich"], "not the same binaries"
assert len(progs["abi-impi"]) >= 50, len(progs["abi-impi"])
assert {(lib, la) for _, lib, la in by["abi-impi"]} == {("Intel MPI 2021.19.0",) * 2}
assert {(lib, la) for _, lib, la in by["abi-mpich"]} == {("MPICH 5.0.2",) * 2}
print(f"# {len(progs['abi-impi'])} ABI programs, each under Intel MPI and MPICH")
PY
    then
        cat "$work/out"
        ok "abi: the same binaries under Intel MPI 2021.19.0 and MPICH 5.0.2 ($(($(date +%s) - t0)) s)"
    else
        notok "abi: the same binaries under Intel MPI 2021.19.0 and MPICH 5.0.2"
    fi ;;
*) ok "abi: # SKIP not among the builds" ;;
esac

# one interleaved run of the quick suite across the releases, compared
set --
labels=""
for name in openmpi mpich $names; do
    [ -x "$root/_build/$name/pt2pt/mpigauge_latency" ] || continue
    case $name in impi-*) extra=" I_MPI_FABRICS=shm" ;; *) extra="" ;; esac
    set -- "$@" --config "$name bindir=$root/_build/$name$extra"
    labels="$labels $name"
done
check "interleaved quick suite across $(echo $labels | wc -w) builds, one round" \
    $fe run -q --suite quick "$@" -o "$work/x.jsonl" -- -m 8,64K -i 20 -x 2
python3 - "$work/x.jsonl" >"$work/out" 2>"$work/err" <<'PY' && ok "every launch: its library's own launcher, flavour from the library" || notok "every launch: its library's own launcher"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
launches = [r for r in recs if r["type"] == "launch"]
assert launches and all(l["status"] == "ok" for l in launches)
for l in launches:
    inst = l["mpi_install"]
    assert inst["library"]["name"] == inst["launcher"]["name"], (l["config"], inst)
    assert l["command"][0] == inst["launcher"]["path"], l["command"]
PY
# shellcheck disable=SC2086
if $fe compare "$work/x.jsonl" $labels --format json -o "$work/cmp.json" >"$work/out" 2>"$work/err" &&
   python3 - "$work/cmp.json" $labels >"$work/out" 2>>"$work/err" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
text = json.dumps(rows)
verdicts = [r.get("verdict") for r in rows if isinstance(r, dict) and "verdict" in r]
assert verdicts and all(v.split(":")[0] in ("faster", "slower", "higher", "lower", "same", "unclear", "unstable") for v in verdicts), \
    sorted(set(map(str, verdicts)))
for label in sys.argv[2:]:
    assert label in text, label
print(f"# {len(verdicts)} series compared")
PY
then cat "$work/out"; ok "compare across the releases by label ($(echo $labels | wc -w) labels)"
else notok "compare across the releases by label"
fi

# a launcher of another release is refused before anything runs
if [ -x "$root/_build/mpich-5.0.2/pt2pt/mpigauge_latency" ] && [ -x /usr/bin/mpiexec.mpich ]; then
    $fe run --suite quick --config "a bindir=$root/_build/mpich" \
        --config "b bindir=$root/_build/mpich-5.0.2 launcher=/usr/bin/mpiexec.mpich" \
        -o "$work/refused.jsonl" >"$work/out" 2>"$work/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q "belongs to MPICH 4.0.2, but the programs load MPICH 5.0.2" "$work/err" &&
       [ ! -s "$work/refused.jsonl" ]; then
        ok "a launcher of another release (4.0.2 for 5.0.2) is refused, exit 2, nothing run"
    else
        notok "a launcher of another release is refused (exit $rc)"
    fi
else
    ok "refusal of another release's launcher # SKIP needs mpich and mpich-5.0.2 builds"
fi
exit 0
