#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Launches that take turns (--turns, mpi/driver/mg_turns.h), run for real with the
# build's MPI (TAP): a group of two runs both sweeps, hands the turn on, loses
# nothing and leaves no semaphore behind; a member that fails with a usage
# error before it begins does not hold the other up; a group of three where
# role 0 fails still runs the other two; a member killed mid-run makes the
# other give the turns up after --turn-timeout and finish alone ("lost");
# under `mpigauge run`, a member that dies in MPI_Init (role 0 or 1) or whose
# launcher never starts the program lets the other go on at once, named on
# standard error and in the launch records. Environment as for mpi_cases.sh
# (MPIEXEC, MPIEXEC_FLAGS, MG_MPI_FLAVOR, MG_BINDIR, PYTHON).
set -u
. "$(dirname "$0")/mpi_env.sh"
prog=$(mg_program latency)
[ -n "$prog" ] || { echo "1..0 # SKIP mpigauge_latency not built"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"; rm -f /dev/shm/sem.mgt-tt$$?-*' EXIT
echo "1..7"

# group NAME ROLE COUNT [ARGS...]: one member in the background, JSON to $work/NAME.ROLE
member() {
    g=$1 r=$2 c=$3
    shift 3
    # shellcheck disable=SC2086
    timeout -k 10 100 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 "$prog" -m 8,1K,64K --time-budget 0.1 \
        --format json --sentinel --turns "$g:$r:$c" --turn-slice 0.005 "$@" \
        >"$work/$g.$r" 2>"$work/$g.$r.err" </dev/null
    echo $? >"$work/$g.$r.rc"
}
# check NAME ROLE:EXIT... : exit codes, results and the after-sentinel's turns
check() {
    g=$1
    shift
    "$PYTHON" - "$work" "$g" "$@" <<'PY'
import glob, json, os, sys
work, g, want = sys.argv[1], sys.argv[2], sys.argv[3:]
bad = []
for w in want:
    role, code = w.split(":")
    rc = int(open(f"{work}/{g}.{role}.rc").read())
    if rc != int(code):
        bad.append(f"role {role} exit {rc}, want {code}")
        continue
    recs = [json.loads(l) for l in open(f"{work}/{g}.{role}") if l.strip()]
    if code != "0":
        if not any(r.get("type") == "error" for r in recs):
            bad.append(f"role {role}: no error record")
        continue
    res = [r for r in recs if r.get("type") == "result"]
    after = [r for r in recs if r.get("type") == "sentinel" and r["phase"] == "after"]
    sizes = [int(x) for x in os.environ.get("TURNS_SIZES", "8,1024,65536").split(",")]
    if [r["size_bytes"] for r in res] != sizes or len(after) != 1:
        bad.append(f"role {role}: results {[r['size_bytes'] for r in res]}")
        continue
    t = after[0]["turns"]
    lost = os.environ.get("TURNS_LOST") == role
    if t["role"] != int(role) or t["lost"] != lost or t["slice_s"] != 0.005:
        bad.append(f"role {role}: turns {t}")
    if len(want) > 1 and all(x.endswith(":0") for x in want) and t["yields"] < 3:
        bad.append(f"role {role}: only {t['yields']} yields")
left = glob.glob(f"/dev/shm/sem.mgt-{g}-*")
if left and all(x.endswith(":0") for x in want) and not os.environ.get("TURNS_LOST"):
    bad.append(f"left behind: {left}")
print("; ".join(bad) or "ok")
PY
}
t0=$(date +%s)
member tt$$a 0 2 --precision 0.0001% --time-budget 0.05 &
member tt$$a 1 2 --precision 0.0001% --time-budget 0.05 &
wait
got=$(check tt$$a 0:0 1:0)
[ "$got" = ok ] && echo "ok 1 - $MG_MPI_FLAVOR: two launches take turns, both complete, nothing lost or left ($(($(date +%s) - t0)) s)" \
    || echo "not ok 1 - $MG_MPI_FLAVOR: group of two: $got"

t0=$(date +%s)
member tt$$b 0 2 -m bad & member tt$$b 1 2 &
wait
dt=$(($(date +%s) - t0))
got=$(check tt$$b 0:2 1:0)
[ "$got" = ok ] && [ "$dt" -lt 60 ] && echo "ok 2 - $MG_MPI_FLAVOR: role 0 fails with a usage error, role 1 runs alone ($dt s)" \
    || echo "not ok 2 - $MG_MPI_FLAVOR: failed member: $got, $dt s"

t0=$(date +%s)
member tt$$c 0 3 -m bad & member tt$$c 1 3 & member tt$$c 2 3 &
wait
dt=$(($(date +%s) - t0))
got=$(check tt$$c 0:2 1:0 2:0)
[ "$got" = ok ] && [ "$dt" -lt 60 ] && echo "ok 3 - $MG_MPI_FLAVOR: group of three without role 0: the other two take turns ($dt s)" \
    || echo "not ok 3 - $MG_MPI_FLAVOR: group of three: $got, $dt s"

t0=$(date +%s)
member tt$$d 0 2 --turn-timeout 3 --precision 0.0001% -m 8,1K,64K,1M --time-budget 0.5 &
member tt$$d 1 2 --turn-timeout 3 --precision 0.0001% -m 8,1K,64K,1M --time-budget 0.5 &
sleep 1
pkill -KILL -f "mpigauge_latency.*--turns tt$$d:1:2" 2>/dev/null
wait
dt=$(($(date +%s) - t0))
got=$(TURNS_LOST=0 TURNS_SIZES=8,1024,65536,1048576 check tt$$d 0:0 2>&1)
[ "$got" = ok ] && [ "$dt" -lt 60 ] && echo "ok 4 - $MG_MPI_FLAVOR: the partner killed, the turns given up after 3 s, the sweep complete and marked lost ($dt s)" \
    || echo "not ok 4 - $MG_MPI_FLAVOR: killed partner: $got, $dt s"

# an option that does not parse, before --turns (as `mpigauge run` places a
# configuration's args): the launch still joins its group to say it is done,
# so the other member runs alone at once instead of waiting --turn-timeout
t0=$(date +%s)
# shellcheck disable=SC2086
( timeout -k 10 100 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 "$prog" --no-such-option -m 8,1K,64K \
      --time-budget 0.1 --format json --sentinel --turns "tt$$e:0:2" --turn-slice 0.005 \
      >"$work/tt$$e.0" 2>"$work/tt$$e.0.err" </dev/null; echo $? >"$work/tt$$e.0.rc" ) &
member tt$$e 1 2 &
wait
dt=$(($(date +%s) - t0))
got=$(check tt$$e 0:2 1:0)
[ "$got" = ok ] && [ "$dt" -lt 60 ] && echo "ok 5 - $MG_MPI_FLAVOR: an option that does not parse ends its launch, the other runs alone ($dt s)" \
    || echo "not ok 5 - $MG_MPI_FLAVOR: unparsable member: $got, $dt s"

# `mpigauge run` with turns, one member that cannot start: the front-end sees
# its launch end and posts its done, so the other goes on within seconds
# (--turn-timeout is 120 s), not lost, and the member is named.
fe="$(dirname "$0")/../frontend/mpigauge.py"
printf 'latency -m 8,1K --time-budget 0.05\n' >"$work/s.txt"
printf '#!/bin/sh\nexit 1\n' >"$work/nolaunch" && chmod +x "$work/nolaunch"
case "$MG_MPI_FLAVOR" in
    mpich) broken="MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=nosuchalgorithm" ;;
    *) broken="OMPI_MCA_pml=bogus" ;;
esac
bindir=$(dirname "$prog")
fe_turns() { # N DESCRIPTION CONFIG... : the group, the good member's record, the time
    k=$1 what=$2
    shift 2
    t0=$(date +%s)
    timeout -k 10 200 "$PYTHON" "$fe" run --suite "$work/s.txt" --bindir "$bindir" \
        --mpi "$MG_MPI_FLAVOR" -n 2 -o "$work/fe$k.jsonl" "$@" >"$work/fe$k.out" 2>"$work/fe$k.err"
    rc=$?
    dt=$(($(date +%s) - t0))
    got=$("$PYTHON" - "$work/fe$k.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
la = {r["config"]: r for r in recs if r["type"] == "launch"}
after = [r for r in recs if r["type"] == "sentinel" and r.get("phase") == "after"]
bad = []
if la.get("good", {}).get("status") != "ok" or la.get("bad", {}).get("status") == "ok":
    bad.append(f"statuses {[(c, r['status']) for c, r in la.items()]}")
if len(after) != 1 or after[0]["turns"]["lost"]:
    bad.append(f"the good member's turns: {[a['turns'] for a in after]}")
if la.get("good", {}).get("turns", {}).get("ended_without_closing") != [la["bad"]["turns"]["role"]]:
    bad.append(f"records {la.get('good', {}).get('turns')}")
print("; ".join(bad) or "ok")
PY
)
    if [ "$rc" = 1 ] && [ "$got" = ok ] && [ "$dt" -lt 30 ] && grep -q "turns: bad (role [01]) ended" "$work/fe$k.err"; then
        echo "ok $k - $MG_MPI_FLAVOR: mpigauge run, $what: the other went on, named ($dt s)"
    else
        echo "not ok $k - $MG_MPI_FLAVOR: mpigauge run, $what: exit $rc, $got, $dt s"
        tail -n 5 "$work/fe$k.err" | sed 's/^/# /'
    fi
}
fe_turns 6 "role 0 dies in MPI_Init ($broken)" --config "bad $broken" --config good
fe_turns 7 "role 1's launcher never starts the program" --config good --config "bad launcher=$work/nolaunch"
exit 0
