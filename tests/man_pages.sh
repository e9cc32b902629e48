#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP: the man pages made at build time (doc/man.sh, help2man) cover every
# program and say what its --help says: one page per benchmark name (every
# collective and one-sided name too), mpigauge-rails, mpigauge and each of
# its commands; each is a complete page (title, NAME with a description,
# SYNOPSIS or DESCRIPTION, OPTIONS where the program has options) and shows
# the program's own options; man renders them when it is installed.
# Environment as for mpi_cases.sh; MG_MANDIR is the folder of the pages.
set -u
. "$MG_TESTDIR/mpi_env.sh"
man_dir=${MG_MANDIR:-}
if [ -z "$man_dir" ] || [ ! -f "$man_dir/pages.list" ]; then
    echo "1..0 # SKIP no man pages in this build (help2man not found by configure)"
    exit 0
fi
echo "1..5"
list="$man_dir/pages.list"
# 1: every program in the build has its page, and no page lacks its program
want=$(mktemp)
trap 'rm -f "$want"' EXIT
IFS=:
for d in $MG_BINDIR; do
    for p in "$d"/mpigauge_* "$d"/mpigauge-*; do
        [ -x "$p" ] && [ ! -d "$p" ] || continue
        case "$(basename "$p")" in mpigauge_coll | mpigauge_rma) continue ;; esac
        basename "$p"
    done
done | sort -u >"$want"
unset IFS
# the commands: the one list in frontend/mpigauge/cli.py (COMMANDS)
cmds=$(cd "$MG_TESTDIR/../frontend" && "$PYTHON" -c \
    'from mpigauge.cli import command_names; print(" ".join(command_names()))') ||
    { echo "not ok 1 - frontend/mpigauge/cli.py's command list could not be read"; exit 1; }
for c in $cmds; do echo "mpigauge-$c"; done >>"$want"
echo mpigauge >>"$want"
sort -o "$want" "$want"
if diff "$want" "$list" >/dev/null; then
    echo "ok 1 - a page for each of the $(wc -l <"$list") programs and commands"
else
    echo "not ok 1 - pages.list differs from the programs"; diff "$want" "$list" | sed 's/^/# /'
fi
# 2: every page is complete
bad=""
for n in $(cat "$list"); do
    f="$man_dir/$n.1"
    up=$(echo "$n" | tr 'a-z' 'A-Z')
    grep -q "^\.TH \"\{0,1\}$up\"\{0,1\} \"1\"" "$f" && grep -q '^\.SH NAME' "$f" &&
        sed -n '/^\.SH NAME/{n;p;}' "$f" | grep -qF "$n \\- " &&
        grep -q '^\.SH \(SYNOPSIS\|DESCRIPTION\)' "$f" && grep -q '^\.SH "SEE ALSO"' "$f" ||
        bad="$bad $n"
done
if [ -z "$bad" ]; then echo "ok 2 - every page has a title, a NAME line with a description, and SEE ALSO"
else echo "not ok 2 - incomplete pages:$bad"; fi
# 3: the pages carry the programs' own options (common, family, program)
ok=1
for pair in "mpigauge_latency:percentiles" "mpigauge_latency:persistent" "mpigauge_bw:window" \
    "mpigauge_allreduce:ranks\\\\-sweep" "mpigauge_alltoallv:matrix" "mpigauge_put_latency:message\\\\-size" \
    "mpigauge-run:configs" "mpigauge-compare:threshold"; do
    n=${pair%%:*} o=${pair#*:}
    grep -q "\\\\-\\\\-$o" "$man_dir/$n.1" || { ok=0; echo "# $n.1 lacks --$o"; }
done
# an option that does not apply is not there (bcast has no --window)
grep -q '\\-\\-window\b' "$man_dir/mpigauge_bcast.1" && { ok=0; echo "# mpigauge_bcast.1 shows --window"; }
[ $ok = 1 ] && echo "ok 3 - pages show each program's own options and not others'" ||
    echo "not ok 3 - options in the pages"
# 4: a page says what --help says: the default sweep line
lat=$(mg_program latency)
sweep=$(timeout 60 "$lat" --help 2>/dev/null | sed -n 's/^Sizes by default: //p')
if [ -n "$sweep" ] && grep -q "^Sizes by default: $sweep" "$man_dir/mpigauge_latency.1"; then
    echo "ok 4 - the latency page shows the default sweep, $sweep"
else
    echo "not ok 4 - the latency page lacks 'Sizes by default: $sweep'"
fi
# 5: man renders every page without a warning
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
    warn=""
    for n in $(cat "$list"); do
        out=$(MANWIDTH=100 man --warnings -l "$man_dir/$n.1" 2>&1 >/dev/null)
        [ -z "$out" ] || warn="$warn $n"
    done
    [ -z "$warn" ] && echo "ok 5 - man renders every page without warnings" ||
        echo "not ok 5 - man warns on:$warn"
else
    echo "ok 5 # SKIP man or groff not installed"
fi
