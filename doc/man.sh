#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# One man page (section 1) per installed program, made by help2man from the
# program's own --help, so that a page never says other than the program:
#   man.sh BUILDDIR OUTDIR VERSION DOCDIR
# Every benchmark (each collective and one-sided name too), mpigauge-rails
# and the front-end `mpigauge`. The MPI programs answer --help as MPI
# singletons (no launcher). OUTDIR gets NAME.1 for each and pages.list (the
# names, for install and uninstall); it is made in OUTDIR.tmp and moved in
# place whole. Exit 1 when any page could not be made.
set -u
if [ "${1:-}" = one ]; then
    # one page: man.sh one "PROGRAM [COMMAND]" OUTDIR VERSION INCLUDE
    # (a front-end command's page is mpigauge-COMMAND, as git's are)
    out=$3 ver=$4 inc=$5
    set -- $2
    prog=$1 cmd=${2:-}
    name=$(basename "$prog")${cmd:+-$cmd}
    help="$out/.help/$name.txt"
    # a program that cannot run here (exit 77) still answers --help
    timeout 120 "$prog" $cmd --help >"$help" 2>/dev/null
    rc=$?
    if { [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; } || [ ! -s "$help" ]; then
        echo "man.sh: $name --help failed (exit $rc)" >&2
        exit 1
    fi
    # argparse's usage (the front-end) as help2man reads a synopsis: one
    # "Usage:" line
    if [ "$name" != mpigauge-rails ]; then
        awk 'NR == 1 && /^usage:/ {u = 1; line = "Usage:" substr($0, 7); next}
         u && /^ / {sub(/^ +/, " "); line = line $0; next}
         u {print line; u = 0} {print}' "$help" >"$help.1" && mv "$help.1" "$help"
    fi
    # the description: the line after "Usage:" (the benchmarks, whose usage
    # is one line), else the first sentence of the first paragraph after it
    desc=$(awk 'NR == 1 {next} NR == 2 && NF && !/^ / {print; exit}
                !NF {if (p != "") exit; b = 1; next}
                b {sub(/^ +/, ""); p = p (p == "" ? "" : " ") $0}
                END {if (p != "") print p}' "$help" |
        sed 's/^mpigauge: //; s/\([^.]\)\. .*/\1/; s/\.$//')
    [ "$name" = mpigauge-rails ] &&
        desc="the network devices and rails of this process (hwloc), and a wrapper that steers each rank to its rail"
    [ -n "$desc" ] || desc="mpigauge: MPI microbenchmarks"
    # help2man runs "NAME --help": a stand-in that prints the captured text
    mkdir -p "$out/.bin"
    printf '#!/bin/sh\ncat "%s"\n' "$help" >"$out/.bin/$name"
    chmod +x "$out/.bin/$name"
    help2man --no-info --version-string="$ver" --name="$desc" --include="$inc" \
        --output="$out/$name.1" "$out/.bin/$name" || exit 1
    exit 0
fi

build=$1 out=$2 ver=$3 docdir=$4
command -v help2man >/dev/null 2>&1 || { echo "man.sh: help2man is not installed" >&2; exit 1; }
tmp="$out.tmp"
rm -rf "$tmp"
mkdir -p "$tmp/.help" || exit 1
cat >"$tmp/.include" <<EOF
[SEE ALSO]
.BR mpigauge (1)
for suites, interleaved comparisons, plots and reports; the method and
format pages (output.md, pt2pt.md, collectives.md, measurement.md, ...) in
$docdir.
EOF
# Open MPI singletons as root need its consent; ASan builds leak in MPI
if [ "$(id -u)" = 0 ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export ASAN_OPTIONS
list="$tmp/.programs"
: >"$list"
for d in pt2pt collective onesided overlap tools; do
    for p in "$build/$d"/mpigauge_* "$build/$d"/mpigauge-*; do
        [ -x "$p" ] && [ ! -d "$p" ] || continue
        case "$(basename "$p")" in
        mpigauge_coll | mpigauge_rma | *.o | *.stamp) continue ;; # the families answer under their names
        esac
        echo "$p" >>"$list"
    done
done
echo "$build/frontend/mpigauge" >>"$list"
# the commands: the lines of `mpigauge --help` that name one ("  run    a suite; ...")
for c in $("$build/frontend/mpigauge" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p'); do
    echo "$build/frontend/mpigauge $c" >>"$list"
done
self=$0
case "$self" in /*) ;; *) self="$(pwd)/$self" ;; esac
if ! xargs -P 2 -I{} sh "$self" one {} "$tmp" "$ver" "$tmp/.include" <"$list"; then
    echo "man.sh: some pages could not be made" >&2
    exit 1
fi
while read -r p c; do echo "$(basename "$p")${c:+-$c}"; done <"$list" | sort >"$tmp/pages.list"
rm -rf "$tmp/.help" "$tmp/.bin" "$tmp/.include" "$tmp/.programs"
n=$(wc -l <"$tmp/pages.list")
rm -rf "$out" && mv "$tmp" "$out" || exit 1
echo "man.sh: $n pages in $out"
