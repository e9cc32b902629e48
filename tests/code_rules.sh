#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The code's structural rules, checked on the sources (TAP):
#   benchmark code (pt2pt, collective, onesided, overlap) and tools/ keep no
#   mutable state of their own: no static or global variable that is not
#   const, a pointer to const included (a
#   run's state lives in what the driver hands the kernel: ctx->params,
#   ctx->state, the mg_form of params.choose);
#   no C, C++ or Python source of the project is 600 lines or longer;
#   the driver's modules, and the collective programs' modules, call each
#   other without a circle (bench/module_graph.py on the build's mpi/ and
#   collective/ objects; skipped without them);
#   the front-end's modules import each other without a circle
#   (bench/module_graph.py --python frontend/mpigauge), and every one of
#   them is installed (listed in frontend/local.mk);
#   the front-end's packages keep their layers (bench/module_graph.py
#   --layers: no import from a package later in frontend/mpigauge's
#   LAYERS, no module in a package LAYERS does not name, every module in
#   its package's map, the module list of its __init__.py);
#   benchmark code and tools/ see only the kernel's view of mg_ctx (not its
#   drv part, the driver's own: group, clock, turns, option rows, the
#   failure text), and include no header of mpi/driver, observe, mpit, record, osu;
#   every page of doc/ is listed in doc/README.md (the index);
#   no front-end module imports another's private name (from .x import _y);
#   every module of frontend/mpigauge/, util/, mpi/ and tools/ is in the
#   test map tests/README.md (by its file name, a pattern like obs_*.c, or
#   the NAME list of util's row "every util/mg_NAME.c");
#   no front-end module is over 400 lines, no class of one over 200.
#   tests/code_rules.sh [SOURCE_DIR]   (default: MG_TESTDIR/.., else ..)
# Environment: MG_BUILDDIR (the build tree, for the object files).
set -u
src=${1:-${MG_TESTDIR:+$MG_TESTDIR/..}}
src=${src:-$(dirname "$0")/..}
cd "$src" || exit 99
echo "1..12"
# a line at file scope or in a function that declares a static or global
# variable without const: "static T name..;" or "T name = ...;" at column 0
bad=$(for f in pt2pt/*.c collective/*.c onesided/*.c overlap/*.c tools/*.c; do
    awk -v F="$f" '
        /^[ \t]*static / && $0 !~ /const/ && $0 !~ /\(/ { print F ":" NR ": " $0 }
        /^[ \t]*static const [a-zA-Z_0-9 ]*\*+ *[a-zA-Z_]/ && $0 !~ /\* *const/ && $0 !~ /\(/ { print F ":" NR ": " $0 }
        /^[a-zA-Z_][a-zA-Z_0-9 \*]* [a-zA-Z_][a-zA-Z_0-9\[\]]* *(=.*)?;[ \t]*$/ &&
            $0 !~ /^(const|typedef|extern|return|static|enum|struct [a-z_]* \{)/ { print F ":" NR ": " $0 }
    ' "$f"
done)
if [ -z "$bad" ]; then
    echo "ok 1 - no mutable static or global in benchmark code and tools/"
else
    echo "not ok 1 - mutable static or global in benchmark code or tools/"
    echo "$bad" | sed 's/^/# /'
fi
long=$(find util mpi pt2pt collective onesided overlap tools bench tests frontend \
    \( -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.py' \) -type f 2>/dev/null |
    while read -r f; do n=$(wc -l <"$f"); [ "$n" -ge 600 ] && echo "$f $n"; done)
if [ -z "$long" ]; then
    echo "ok 2 - every C, C++ and Python source under 600 lines"
else
    echo "not ok 2 - sources of 600 lines or more"
    echo "$long" | sed 's/^/# /'
fi
# the driver's rooms (mpi/) and the collective programs' modules (collective/)
if [ -z "$(find "${MG_BUILDDIR:-}/mpi" -name '*.o' 2>/dev/null | head -n 1)" ] ||
    ! command -v nm >/dev/null 2>&1; then
    echo "ok 3 - the driver's and the collectives' modules without a call circle # SKIP no object files (MG_BUILDDIR) or no nm"
else
    circles=""
    said=""
    for d in mpi collective; do
        if out=$("${PYTHON:-python3}" bench/module_graph.py "$MG_BUILDDIR/$d" 2>&1); then
            said="$said${said:+; }$d: $(echo "$out" | head -n 1)"
        else
            circles="$circles$d: $out
"
        fi
    done
    if [ -z "$circles" ]; then
        echo "ok 3 - the driver's and the collectives' modules without a call circle ($said)"
    else
        echo "not ok 3 - modules that call each other in a circle"
        printf '%s' "$circles" | sed 's/^/# /'
    fi
fi
if out=$("${PYTHON:-python3}" bench/module_graph.py --python frontend/mpigauge 2>&1); then
    echo "ok 4 - the front-end's modules without an import circle ($(echo "$out" | head -n 1))"
else
    echo "not ok 4 - the front-end's modules import each other in a circle"
    echo "$out" | sed 's/^/# /'
fi
missing=$(for f in $(find frontend/mpigauge -name '*.py' | sort); do
    grep -q "$f" frontend/local.mk || echo "$f"
done)
if [ -z "$missing" ]; then
    echo "ok 5 - every front-end module is installed"
else
    echo "not ok 5 - front-end modules not in frontend/local.mk (not installed)"
    echo "$missing" | sed 's/^/# /'
fi
drv=$(grep -n 'drv\.' pt2pt/*.[ch] collective/*.[ch] onesided/*.[ch] overlap/*.[ch] tools/*.[ch] 2>/dev/null)
if [ -z "$drv" ]; then
    echo "ok 6 - benchmark code and tools/ use the kernel's view of mg_ctx only"
else
    echo "not ok 6 - benchmark code or tools/ reach into the driver's part of mg_ctx (ctx->drv)"
    echo "$drv" | sed 's/^/# /'
fi
unlisted=$(for f in doc/*.md; do
    b=$(basename "$f")
    [ "$b" = README.md ] && continue
    grep -q "($b)" doc/README.md 2>/dev/null || echo "$f"
done)
if [ -z "$unlisted" ]; then
    echo "ok 7 - every page of doc/ is in the index doc/README.md"
else
    echo "not ok 7 - pages of doc/ missing from the index doc/README.md"
    echo "$unlisted" | sed 's/^/# /'
fi
# The driver's internals (mpi/driver, observe, mpit, record, osu) are not a
# benchmark's: it includes mpi/mg_bench.h and the transport's headers.
internal=$(for h in mpi/driver/*.h mpi/observe/*.h mpi/mpit/*.h mpi/record/*.h mpi/osu/*.h; do
    grep -ln "#include \"$(basename "$h")\"" pt2pt/*.[ch] collective/*.[ch] onesided/*.[ch] \
        overlap/*.[ch] tools/*.[ch] 2>/dev/null | sed "s|\$| includes $(basename "$h")|"
done)
if [ -z "$internal" ]; then
    echo "ok 8 - benchmark code and tools/ include no header of the driver's internals"
else
    echo "not ok 8 - benchmark code or tools/ include a header of the driver's internals"
    echo "$internal" | sed 's/^/# /'
fi
# A front-end module's private names (a leading underscore) are its own:
# another module imports only what it offers.
private=$("${PYTHON:-python3}" - frontend/mpigauge <<'PY'
import ast, os, sys
top = sys.argv[1]
names = sorted(os.path.relpath(os.path.join(d, f), top) for d, _, fs in os.walk(top)
               for f in fs if f.endswith(".py"))
for name in names:
    tree = ast.parse(open(os.path.join(top, name), encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    print(f"{name}:{node.lineno}: from {'.' * node.level}{node.module or ''} "
                          f"import {a.name}")
PY
)
if [ -z "$private" ]; then
    echo "ok 9 - no front-end module imports another's private name"
else
    echo "not ok 9 - a front-end module imports another's private name"
    echo "$private" | sed 's/^/# /'
fi
# The test map names every module: a module it misses is one nobody
# looked for the tests of.
unmapped=$("${PYTHON:-python3}" - <<'PY'
import fnmatch, glob, os, re
text = open("tests/README.md", encoding="utf-8").read()
names = {os.path.basename(t) for t in re.findall(r"`([^`\s]+)`", text)}
row = re.search(r"every `util/mg_NAME\.c`.*?\(([^)]*)\)", text)
names |= {f"mg_{n.strip()}.c" for n in (row.group(1).split(",") if row else [])}
mods = glob.glob("frontend/mpigauge/**/*.py", recursive=True) + glob.glob("util/*.c") + \
    glob.glob("mpi/*.c") + glob.glob("mpi/*/*.c") + glob.glob("tools/*.c")
for m in sorted(mods):
    b = os.path.basename(m)
    if b != "__init__.py" and not any(fnmatch.fnmatchcase(b, n) for n in names):
        print(m)
PY
)
if [ -z "$unmapped" ]; then
    echo "ok 10 - every module of frontend/, util/, mpi/ and tools/ is in tests/README.md"
else
    echo "not ok 10 - modules missing from the test map tests/README.md"
    echo "$unmapped" | sed 's/^/# /'
fi
# The front-end stays in rooms of a size a reader takes in (issue 56): a
# module that grows past 400 lines, or a class past 200, is split.
big=$("${PYTHON:-python3}" - <<'PY'
import ast, glob
for m in sorted(glob.glob("frontend/mpigauge/**/*.py", recursive=True)):
    text = open(m, encoding="utf-8").read()
    if text.count("\n") > 400:
        print(f"{m}: {text.count(chr(10))} lines")
    for n in ast.walk(ast.parse(text)):
        if isinstance(n, ast.ClassDef) and n.end_lineno - n.lineno + 1 > 200:
            print(f"{m}: class {n.name}: {n.end_lineno - n.lineno + 1} lines")
PY
)
if [ -z "$big" ]; then
    echo "ok 11 - no front-end module over 400 lines, no class over 200"
else
    echo "not ok 11 - front-end modules or classes too large"
    echo "$big" | sed 's/^/# /'
fi
if out=$("${PYTHON:-python3}" bench/module_graph.py --layers frontend/mpigauge 2>&1); then
    echo "ok 12 - the front-end's packages keep their layers ($(echo "$out" | head -n 1))"
else
    echo "not ok 12 - a front-end module imports from a later layer, or sits outside LAYERS or its package map"
    echo "$out" | tail -n +2 | sed 's/^/# /'
fi
