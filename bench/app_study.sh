#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The applications study (doc/applications.md): for each application and
# pair of releases, the application's own change (`mpigauge app`, the
# releases launch by launch in randomised rounds, each under its own
# launcher and library) beside the change its communication profile
# predicts (`mpigauge profile` under the first release, its suite run with
# the same two releases interleaved, `mpigauge compare --profile`). Prints
# one table row per application and pair, each with its command lines in
# OUT/commands.txt; every file stays in OUT. The application's time
# predicted: its base time plus the change of the profile's MPI time per
# rank the benchmarks predict (1 + delta / base).
#   bench/app_study.sh OUT [ROUNDS] [RANKS]     (default 8 rounds, 2 ranks)
# MG_STUDY_PAIRS: "APP:A:B ..." (default below); A and B are installs of
# `mpigauge mpi` (PyPI releases are installed when missing, Debian's added
# as deb-openmpi and deb-mpich). Installs the applications from Debian
# (bench/apps/install.sh) and builds mpigauge for both families.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
rounds=${2:-8}
ranks=${3:-2}
pairs=${MG_STUDY_PAIRS:-"lammps:deb-openmpi:openmpi-5.0.9 lammps:openmpi-5.0.9:openmpi-5.0.11
hpcc:deb-openmpi:openmpi-5.0.9 hpcc:openmpi-5.0.9:openmpi-5.0.11
netpipe:deb-mpich:mpich-4.1.3 netpipe:mpich-4.3.2:mpich-5.0.0
nwchem:mpich-4.1.3:mpich-4.2.3 nwchem:mpich-4.3.2:mpich-5.0.0"}
fe="python3 $top/frontend/mpigauge.py"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
"$top/bench/apps/install.sh" lammps hpcc gromacs netpipe-mpich2 nwchem-mpich >"$out/install.log" 2>&1
for b in openmpi mpich; do "$top/scripts/build.sh" "$b" >"$out/build-$b.log" 2>&1; done
cmds=$out/commands.txt
: >"$cmds"
say() { echo "$*" >>"$cmds"; "$@"; }

# the catalogue: Debian's two libraries and the PyPI releases the pairs name
$fe mpi add /usr/lib/x86_64-linux-gnu/libmpi.so.40 --name deb-openmpi >/dev/null 2>&1 || true
$fe mpi add /usr/lib/x86_64-linux-gnu/libmpich.so.12 --name deb-mpich >/dev/null 2>&1 || true
for p in $pairs; do
    for r in $(echo "$p" | cut -d: -f2-3 | tr ':' ' '); do
        case $r in
        deb-*) ;;
        *) $fe mpi list --format json | grep -q "\"name\": \"$r\"" ||
            $fe mpi install "$(echo "$r" | sed 's/-/==/')" >/dev/null ;;
        esac
    done
done

# APP -> the family's build, the figure, the command after {mpirun} -n RANKS
app_args() {
    case $1 in
    lammps) echo "openmpi lammps lmp -in $top/bench/apps/in.melt -log none" ;;
    # the sum of hpcc's timed phases (bench/apps/hpcc.sh): its wall time also
    # counts Open MPI 5's longer start-up, which no benchmark measures
    hpcc) echo "openmpi re:^mpigauge_timed_phases_s=([0-9.]+):s $top/bench/apps/hpcc.sh $out/hpcc-$ranks 2000 hpcc" ;;
    # a fixed number of repeats per size (-n): by default NetPIPE picks them so
    # that each size takes about the same time, and its wall time cannot change
    # GROMACS's own wall time (its Time: line) of a water box made once per
    # study (bench/apps/gromacs.sh); no PME tuning, no dynamic load balancing
    gromacs) echo "openmpi gromacs gmx_mpi -quiet -nobackup mdrun -s $out/gromacs/topol.tpr -deffnm $out/gromacs/md-$ranks -ntomp 1 -nb cpu -notunepme -dlb no -noconfout" ;;
    netpipe) echo "mpich wall NPmpich2 -l 1 -u 65536 -p 0 -n 20000 -o /dev/null" ;;
    nwchem) echo "mpich wall nwchem.mpich $top/bench/apps/h2o2.nw" ;;
    nwchem-small) echo "mpich wall nwchem.mpich $top/bench/apps/h2o.nw" ;;
    *) echo "app_study: unknown application $1" >&2; exit 2 ;;
    esac
}

# the binding `mpigauge app` gives {mpirun} (doc/applications.md): Hydra of
# MPICH binds nothing by default; Open MPI binds up to 2 ranks to cores
# itself; Intel MPI pins its ranks; none when the ranks outnumber the cores
# (and Open MPI told to oversubscribe)
bind_of() {
    over=0
    [ "$ranks" -le "$(nproc)" ] || over=1
    case $1:$over in
    mpich-*:0|deb-mpich:0) echo "-bind-to core" ;;
    mpich-*:1|deb-mpich:1) echo "-bind-to none" ;;
    openmpi-5*:1) echo "--map-by :OVERSUBSCRIBE --bind-to none" ;;
    deb-openmpi:1|openmpi-4*:1) echo "--oversubscribe --bind-to none" ;;
    esac
}

# what a release needs in its environment here: Intel MPI from PyPI has no
# fabric for a single node but shared memory (scripts/mpi-releases.txt);
# without it NetPIPE took 40 s instead of 4
env_of() {
    case $1 in
    impi-*) echo "I_MPI_FABRICS=shm" ;;
    esac
}

# a field of an installation of the catalogue
entry_field() {
    $fe mpi list --format json | python3 -c "import json,sys
for l in sys.stdin:
    e = json.loads(l)
    if e['name'] == sys.argv[1]: print(e[sys.argv[2]])" "$1" "$2"
}

case $pairs in
*gromacs:*) "$top/bench/apps/gromacs.sh" "$out/gromacs" >/dev/null ;;
esac

echo "application | ranks | releases | the application: new/base [95% CI] verdict | its profile's MPI time: new/base [95% CI] verdict | the application's time predicted | predicted - measured | MPI time the two profiles measured: new/base"
echo "--- | --- | --- | --- | --- | --- | --- | ---"
for p in $pairs; do
    app=${p%%:*} rest=${p#*:}
    a=${rest%%:*} b=${rest#*:}
    set -f # the figure's pattern is not a file name
    set -- $(app_args "$app")
    set +f
    fam=$1 figure=$2
    shift 2
    build=$top/_build/$fam
    tag="$app-$a-$b"
    cd "$out"
    # the application itself, both releases in turns
    say $fe app -o "$out/$tag.app.jsonl" --force -K "$rounds" --figure "$figure" -q --timeout 600 \
        --config "$a install=$a $(env_of "$a")" --config "$b install=$b $(env_of "$b")" \
        -- "{mpirun}" -n "$ranks" "$@" \
        >"$out/$tag.app.txt" 2>"$out/$tag.app.err" || true
    $fe compare "$out/$tag.app.jsonl" "$a" "$b" --format json >"$out/$tag.app.cmp.jsonl" 2>/dev/null || true
    # its profile under the first release, the suite it stands on, both releases
    launcher=$(entry_field "$a" launcher)
    libdir=$(dirname "$(entry_field "$a" library)")
    say env LD_LIBRARY_PATH="$libdir" $(env_of "$a") $fe profile --bindir "$build" -o "$out/$tag.profile.jsonl" \
        --force -q --name "$app" -- "$launcher" $(bind_of "$a") -n "$ranks" "$@" >/dev/null 2>"$out/$tag.profile.err" || true
    # and under the second: the MPI time the profiles measure, beside the benchmarks' prediction
    launcher_b=$(entry_field "$b" launcher)
    libdir_b=$(dirname "$(entry_field "$b" library)")
    say env LD_LIBRARY_PATH="$libdir_b" $(env_of "$b") $fe profile --bindir "$build" -o "$out/$tag.profile-b.jsonl" \
        --force -q --name "$app" -- "$launcher_b" $(bind_of "$b") -n "$ranks" "$@" >/dev/null 2>"$out/$tag.profile-b.err" || true
    # a pair whose profile could not be taken keeps its row, and the study goes on
    say $fe profile suite "$out/$tag.profile.jsonl" -o "$out/$tag.suite.txt" ||
        : >"$out/$tag.suite.txt"
    say $fe run --suite "$out/$tag.suite.txt" --bindir "$build" --repeat "$rounds" -q --force \
        -o "$out/$tag.suite.jsonl" --config "$a install=$a $(env_of "$a")" \
        --config "$b install=$b $(env_of "$b")" || true
    say $fe compare "$out/$tag.suite.jsonl" "$a" "$b" --profile "$out/$tag.profile.jsonl" \
        >"$out/$tag.predict.txt" 2>&1 || true
    $fe compare "$out/$tag.suite.jsonl" "$a" "$b" --profile "$out/$tag.profile.jsonl" \
        --format json >"$out/$tag.predict.jsonl" 2>/dev/null || true
    python3 - "$out/$tag.app.cmp.jsonl" "$out/$tag.predict.jsonl" "$app" "$ranks" "$a -> $b" \
        "$out/$tag.profile.jsonl" "$out/$tag.profile-b.jsonl" <<'PY'
import json, sys
def first(path, kind):
    try:
        return next((r for r in map(json.loads, open(path)) if r.get("type") == kind), None)
    except (OSError, ValueError):
        return None
def ratio(x, lo, hi, verdict):
    ci = f"[{lo:.3f}, {hi:.3f}]" if lo is not None and hi is not None else "[n/a]"
    return f"x{x:.3f} {ci} {verdict}"
a, p = first(sys.argv[1], "series"), first(sys.argv[2], "profile_prediction")
acell = ratio(a["ratio"], a["ci_low"], a["ci_high"], a["verdict"]) if a else "n/a"
pcell = ratio(p["ratio"], p["ci95"][0], p["ci95"][1], p["verdict"]) if p else "n/a"
# the application's time changed by the predicted MPI time's change per rank
app = f"x{1 + (p['new_s'] - p['base_s']) / a['base_median']:.3f}" if a and p and a["unit"] == "s" \
    else "n/a"
diff = f"{100 * (float(app[1:]) - a['ratio']) / a['ratio']:+.1f}%" if app != "n/a" else "n/a"
pa, pb = first(sys.argv[6], "profile"), first(sys.argv[7], "profile")
measured = (f"x{pb['summary']['mpi_s_mean'] / pa['summary']['mpi_s_mean']:.3f} "
            f"({pa['summary']['mpi_s_mean']:.3g} -> {pb['summary']['mpi_s_mean']:.3g} s)"
            if pa and pb else "n/a")
print(f"{sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {acell} | {pcell} | {app} | {diff} | "
      f"{measured}")
PY
done
