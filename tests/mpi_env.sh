# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the MPI test scripts: defaults, Open MPI as root, and
# mg_program NAME (the path of mpigauge_NAME in MG_BINDIR, or nothing).
: "${PYTHON:=python3}"
: "${MPIEXEC_FLAGS:=}"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
mg_program() {
    found=""
    for d in $(printf '%s' "$MG_BINDIR" | tr ':' ' '); do
        [ -x "$d/mpigauge_$1" ] && found="$d/mpigauge_$1"
    done
    printf '%s' "$found"
}
