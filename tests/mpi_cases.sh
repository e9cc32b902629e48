#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run the MPI integration cases of mpi_cases.txt under the real launcher and
# report them as TAP. Every launch runs under a timeout, so a hang fails its
# case instead of the whole test run.
#
# Environment (set by make check): MPIEXEC, MPIEXEC_FLAGS, MG_MPI_FLAVOR, MG_MPI_FEATURES,
# MG_BINDIR (where mpigauge_* are: folders separated by ':'), MG_TESTDIR
# (this folder), PYTHON.
# Optional: MG_CASES (another case file), MG_CASE_TIMEOUT (seconds, default 300),
# MG_CASES_SAMPLE (K: only every K-th case and those that read the fixtures),
# MG_CASES_ERRORS_SAMPLE (K or K:R: of the cases that expect a non-zero exit,
# only those whose number is R modulo K; R defaults to 0).
set -u
: "${MG_TESTDIR:=$(cd "$(dirname "$0")" && pwd)}"
: "${MG_CASES:=$MG_TESTDIR/mpi_cases.txt}"
err_k=${MG_CASES_ERRORS_SAMPLE:-1}
err_r=0
case $err_k in *:*) err_r=${err_k#*:} err_k=${err_k%%:*} ;; esac
: "${MG_CASE_TIMEOUT:=300}"
: "${PYTHON:=python3}"
: "${MPIEXEC_FLAGS:=}"
: "${MG_MPI_FLAVOR:=unknown}"
: "${MG_MPI_FEATURES:=}"

# Open MPI as root, and without its wait after a non-zero exit.
. "$MG_TESTDIR/mpi_env.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/mg-cases.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT INT TERM

total=$(grep -cv '^[[:space:]]*\(#\|$\)' "$MG_CASES")
echo "1..$total"
echo "# MPI flavour $MG_MPI_FLAVOR (features: $MG_MPI_FEATURES), launcher: $MPIEXEC $MPIEXEC_FLAGS"
n=0
grep -v '^[[:space:]]*\(#\|$\)' "$MG_CASES" | while read -r id np prog expect check args; do
    n=$((n + 1))
    # "N:flavour" in the ranks column: only with that MPI (e.g. 4:openmpi,
    # since MPICH busy-polls and crawls when oversubscribed)
    # "N:+feature" / "N:-feature": only with / without a feature of the
    # library (MG_MPI_FEATURES, from configure)
    case "$np" in
    *:*)
        only=${np#*:}
        np=${np%%:*}
        skip=""
        case "$only" in
        +*) case " $MG_MPI_FEATURES " in *" ${only#+} "*) ;; *) skip="only with ${only#+}" ;; esac ;;
        -*) case " $MG_MPI_FEATURES " in *" ${only#-} "*) skip="only without ${only#-}" ;; esac ;;
        *) [ "$only" = "$MG_MPI_FLAVOR" ] || skip="only with $only" ;;
        esac
        if [ -n "$skip" ]; then
            echo "ok $n - $id # SKIP $skip"
            continue
        fi
        ;;
    esac
    # MG_CASES_SAMPLE=K (make distcheck): every K-th case and every case
    # that reads the fixtures (whose distribution distcheck checks)
    if [ "${MG_CASES_SAMPLE:-1}" -gt 1 ] && [ $((n % MG_CASES_SAMPLE)) -ne 0 ]; then
        case " $args " in
        *@FIXTURES@*) ;;
        *) echo "ok $n - $id # SKIP sampled out (MG_CASES_SAMPLE=$MG_CASES_SAMPLE)"; continue ;;
        esac
    fi
    if [ "$expect" -ne 0 ] && [ "$err_k" -gt 1 ] && [ $((n % err_k)) -ne "$err_r" ]; then
        echo "ok $n - $id # SKIP sampled out (MG_CASES_ERRORS_SAMPLE=$MG_CASES_ERRORS_SAMPLE)"
        continue
    fi
    out="$work/$id.jsonl"
    rm -f "$out"
    file=""
    case " $args " in *" @OUT@ "*) file=$out ;; esac
    args=$(printf '%s' "$args" | sed "s#@OUT@#$out#g; s#@NOFILE@#$work/no/such/dir/out.jsonl#g; s#@FIXTURES@#$MG_TESTDIR/fixtures#g")
    # MPICH 4.0.2 (ch4:ucx) sometimes hangs in MPI_Finalize with more than 2
    # ranks after printing everything (a known UCX issue): such launches get
    # a shorter timeout, and a timeout after complete, well-formed output is
    # reported as that known condition instead of a failure.
    limit=$MG_CASE_TIMEOUT
    known_hang=0
    if [ "$MG_MPI_FLAVOR" = mpich ] && [ "$np" -gt 2 ]; then
        limit=${MG_CASE_TIMEOUT_MPICH_MANY:-90}
        known_hang=1
    fi
    prog_path=""
    for d in $(printf '%s' "$MG_BINDIR" | tr ':' ' '); do
        [ -x "$d/mpigauge_$prog" ] && { prog_path="$d/mpigauge_$prog"; break; }
    done
    [ -n "$prog_path" ] || prog_path="mpigauge_$prog (not found in $MG_BINDIR)"
    # Open MPI 4.1.4 (Debian's) crashes inside the library in about 2.5% of
    # launches of the threaded programs (mbw_mr_mt, 4 ranks of 2 threads at
    # 1 MiB: 6 of 240 launches; a call through a NULL convertor function in
    # mca_pml_ob1_recv_request_progress_match, or MPI_Isend reading a
    # communicator without its group), 1 of 320 without CMA single copy, and
    # Open MPI 5.0.11 0 of 150 with the same program (doc/threads.md). Its
    # threaded cases run without single copy, and a launch that such a
    # library kills with a signal runs once more, said in the TAP line.
    lib_env=""
    retry=0
    case "$MG_MPI_FLAVOR:$prog" in
    openmpi:*_mt)
        lib_env="OMPI_MCA_btl_vader_single_copy_mechanism=none"
        case "${MG_MPI_LIBRARY:-}" in "openmpi 4.1."*) retry=1 ;; esac ;;
    esac
    start=$(date +%s)
    note=""
    while :; do
        # shellcheck disable=SC2086
        timeout -k 10 "$limit" env $lib_env "$MPIEXEC" $MPIEXEC_FLAGS -n "$np" \
            "$prog_path" $args >"$work/$id.out" 2>"$work/$id.err" </dev/null
        rc=$?
        if [ "$retry" = 1 ] && [ "$rc" -gt 128 ] && [ "$rc" -ne 137 ] && [ "$rc" -lt 160 ]; then
            retry=0
            note=" # run again: the first launch died of signal $((rc - 128)) in Open MPI 4.1 (a known threading crash)"
            rm -f "$out"
            continue
        fi
        break
    done
    secs=$(( $(date +%s) - start ))
    why=""
    if [ "$rc" -eq 124 ] && [ "$known_hang" = 1 ] && [ "$expect" -eq 0 ]; then
        note=" # known MPICH finalize hang after complete output"
        rc=0
    fi
    if [ "$rc" -ne "$expect" ]; then
        why="exit code $rc, expected $expect"
    elif ! msg=$("$PYTHON" "$MG_TESTDIR/check_output.py" "$check" "$work/$id.out" \
                 "$work/$id.err" $file 2>&1); then
        why=$msg
    elif [ "$expect" -ne 0 ] && [ -n "$(ls "$work" | grep "^$id.jsonl")" ]; then
        why="a failed run left an output file"
    fi
    if [ -z "$why" ]; then
        echo "ok $n - $id (${secs}s)$note"
    else
        echo "not ok $n - $id (${secs}s): $why"
        echo "# command: ${lib_env:+$lib_env }$MPIEXEC $MPIEXEC_FLAGS -n $np mpigauge_$prog $args"
        sed 's/^/#   out: /' "$work/$id.out" | head -15
        sed 's/^/#   err: /' "$work/$id.err" | head -15
    fi
done
