#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The C parsers under libFuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer (float-cast-overflow included), TAP:
#   sizes  -m sizes and sweeps (util/mg_size.c)
#   opts   the option parser with every kind of row (util/mg_opts.c)
#   rails  --rail-weights, --rail-hint and the stripes they cut (util/mg_rails.c)
# For each target: first every input of tests/fuzz/corpus/TARGET once (the
# seeds and the reproducers of bugs found before, which must stay fixed),
# then MG_FUZZ_SECONDS (default 20) of fuzzing from them in a scratch copy.
# A crash is kept in MG_FUZZ_OUT (default a temporary folder) and shown.
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev). Then the
# front-end's readers (cvars, samples, best --export, --configs TOML) for
# MG_FUZZ_SECONDS each, in Python (tests/fuzz/frontend.py, PYTHON).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
seconds=${MG_FUZZ_SECONDS:-20}
cc=${MG_FUZZ_CC:-clang}
work=$(mktemp -d)
out=${MG_FUZZ_OUT:-$work/crashes}
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
targets="sizes opts rails"
echo "1..10"
# the front-end's readers: every mutant an exit code and a message
"${PYTHON:-python3}" "$here/frontend.py" 2>&1 | grep -v '^1\.\.'
if ! command -v "$cc" >/dev/null 2>&1; then
    for t in $targets; do
        echo "ok - $t corpus # SKIP no $cc"
        echo "ok - $t fuzzing # SKIP no $cc"
    done
    exit 0
fi
flags="-g -O1 -fsanitize=fuzzer,address,undefined,float-cast-overflow -fno-sanitize-recover=all"
flags="$flags -I$src/util"
sources() {
    case $1 in
    sizes) echo "$src/util/mg_size.c" ;;
    opts) echo "$src/util/mg_opts.c $src/util/mg_size.c" ;;
    rails) echo "$src/util/mg_rails.c" ;;
    esac
}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1
for t in $targets; do
    bin="$work/fuzz_$t"
    # shellcheck disable=SC2046,SC2086
    if ! $cc $flags -o "$bin" "$here/fuzz_$t.c" $(sources "$t") -lm >"$work/$t.build" 2>&1; then
        echo "not ok - $t corpus: the target does not build"
        sed 's/^/# /' "$work/$t.build" | head -n 20
        echo "not ok - $t fuzzing: the target does not build"
        continue
    fi
    if "$bin" "$here/corpus/$t"/* >"$work/$t.corpus" 2>&1; then
        echo "ok - $t corpus ($(ls "$here/corpus/$t" | wc -l) inputs)"
    else
        echo "not ok - $t corpus"
        grep -E "runtime error|ERROR|SUMMARY|Running:" "$work/$t.corpus" | sed 's/^/# /' | head -n 20
    fi
    mkdir -p "$work/corpus-$t"
    cp "$here/corpus/$t"/* "$work/corpus-$t/"
    if "$bin" -max_total_time="$seconds" -max_len=512 -timeout=10 -rss_limit_mb=1024 \
        -artifact_prefix="$out/$t-" "$work/corpus-$t" >"$work/$t.fuzz" 2>&1; then
        runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$work/$t.fuzz" | tail -n 1)
        echo "ok - $t fuzzing ($seconds s: ${runs:-?} inputs run)"
    else
        echo "not ok - $t fuzzing"
        grep -E "runtime error|ERROR|SUMMARY|Test unit written" "$work/$t.fuzz" | sed 's/^/# /' | head -n 20
        for f in "$out/$t"-*; do
            [ -f "$f" ] && echo "# input: $(od -An -c "$f" | tr -s ' ' | head -c 300)"
        done
    fi
done
exit 0
