#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The prediction against a program's own MPI time (doc/applications.md),
# side by side in one run: tests/profile/profile_mix (its mix made
# MG_PROFILE_MIX_REPEAT times, 2 ranks) profiled LAUNCHES times, each
# profile's MPI time per rank as measured; the suite the profile stands on
# run in ROUNDS rounds with the same library; the MPI time the benchmarks
# predict for the profile, beside the median and range of the measured.
#   bench/profile_predict.sh [BUILD] [ROUNDS] [REPEAT]  (_build/openmpi, 8, 200)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build/openmpi}" && pwd)
rounds=${2:-8}
repeat=${3:-200}
fe="$build/frontend/mpigauge"
mix=$build/tests/profile/profile_mix
[ -x "$mix" ] || make -C "$build" tests/profile/profile_mix >/dev/null
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 MG_PROFILE_MIX_REPEAT=$repeat
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM MG_PROFILE_MIX_REPEAT
case $(basename "$build") in *mpich*) launch="mpiexec.mpich -n 2" ;; *) launch="mpirun.openmpi -n 2" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the suite and the profiles take turns, round by round
for k in $(seq 1 "$rounds"); do
    # shellcheck disable=SC2086
    "$fe" profile --bindir "$build" -o "$work/p$k.jsonl" -q -- $launch "$mix" >/dev/null
    [ "$k" = 1 ] && "$fe" profile suite "$work/p1.jsonl" -o "$work/suite.txt" --time-budget 0.2
    "$fe" run --suite "$work/suite.txt" --bindir "$build" -q -o "$work/r$k.jsonl" \
        --config a --config b >/dev/null 2>&1 || true
done
python3 - "$work" "$rounds" "$top/frontend" <<'PY'
import json, os, statistics, sys
sys.path.insert(0, sys.argv[3])
from mpigauge import predict, profile, results
work, rounds = sys.argv[1], int(sys.argv[2])
measured = []
for k in range(1, rounds + 1):
    p = profile.load_profile(os.path.join(work, f"p{k}.jsonl"))
    measured.append(sum(c["seconds"] for c in p.calls) / p.head["nranks"])
plan = predict.plan(profile.load_profile(os.path.join(work, "p1.jsonl")))
recs = []
for k in range(1, rounds + 1):
    recs += results.read_records(os.path.join(work, f"r{k}.jsonl"))[0]
tmp = os.path.join(work, "all.jsonl")
with open(tmp, "w") as f:
    f.writelines(json.dumps(r) + "\n" for r in recs)
a, b = results.load_config_sets(tmp, ["a", "b"])
pr = predict.compare(plan, a, b)
print(f"profile_mix x{os.environ['MG_PROFILE_MIX_REPEAT']}, 2 ranks, {rounds} rounds")
print(f"  measured MPI time per rank: median {statistics.median(measured) * 1e3:.2f} ms, "
      f"range {min(measured) * 1e3:.2f}-{max(measured) * 1e3:.2f} ms")
print(f"  the benchmarks cover {100 * pr.covered:.0f}% of it (calls they stand for) and predict "
      f"{pr.base_s * 1e3:.2f} ms (configuration a) and {pr.new_s * 1e3:.2f} ms (b, the same): "
      f"x{pr.ratio:.3f} [{pr.ci[0]:.3f}, {pr.ci[1]:.3f}] between two identical sides")
PY
