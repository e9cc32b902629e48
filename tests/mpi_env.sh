# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the MPI test scripts: defaults, Open MPI as root, and
# mg_program NAME (the path of mpigauge_NAME in MG_BINDIR, or nothing).
: "${PYTHON:=python3}"
: "${MPIEXEC_FLAGS:=}"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI 4.1's mpirun waits a second for the other ranks to die after one
# exits non-zero before it kills them (odls_base_sigkill_timeout): the
# refusals, where every rank exits with the code, need no wait
OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-0}
# Debian's Open MPI 4.1.4 excludes pml ucx (/etc/openmpi/openmpi-mca-params.conf)
# and settles on ob1 after pml cm has probed its transports and declined:
# naming ob1 is the same choice without the probe, 0.41 s a launch of
# `latency -c` instead of 0.63 s (a test's own --mca pml still wins)
OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_odls_base_sigkill_timeout OMPI_MCA_pml
mg_program() {
    found=""
    for d in $(printf '%s' "$MG_BINDIR" | tr ':' ' '); do
        [ -x "$d/mpigauge_$1" ] && found="$d/mpigauge_$1"
    done
    printf '%s' "$found"
}
