# SPDX-License-Identifier: BSD-3-Clause
# TAP helpers of the shell tests, sourced after setting TAP_DIR (a folder of
# the test's own: each check's output goes to TAP_DIR/out and TAP_DIR/err,
# and a failing check shows the tail of err).
#   ok DESCRIPTION | notok DESCRIPTION [FILE...] | check DESCRIPTION COMMAND...
# notok shows the tail of each FILE given, else of TAP_DIR/err.
# $n counts the tests, $failed the failures. check adds the seconds it took
# to the description when they are 1 or more ("(12 s)"): the stage table of
# tests/README.md is made from them.
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
    n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
    shift
    [ $# -gt 0 ] || set -- "$TAP_DIR/err"
    for tap_f in "$@"; do
        [ -s "$tap_f" ] && sed 's/^/#   /' "$tap_f" | tail -n "${TAP_ERR_LINES:-20}"
    done
    return 0
}
check() { # description command...
    tap_d=$1; shift
    tap_t0=$(date +%s)
    if "$@" >"$TAP_DIR/out" 2>"$TAP_DIR/err"; then tap_r=ok; else tap_r=notok; fi
    tap_s=$(($(date +%s) - tap_t0))
    [ "$tap_s" -lt 1 ] || tap_d="$tap_d ($tap_s s)"
    $tap_r "$tap_d"
}
