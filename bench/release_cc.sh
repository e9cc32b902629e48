# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the bench scripts that build a plain-MPI program with each
# installation's own compiler wrapper (progress_by_release.sh,
# yield_by_release.sh, mpit_bcast_by_release.sh).
#   release_cc SCRIPT PREFIX MPICC-ARGS...
# checks that PREFIX holds bin/mpicc and bin/mpiexec (an MPICH-based
# installation, Intel MPI's too) and runs its mpicc with I_MPI_ROOT set to
# it (every Intel MPI wrapper needs it); exits 2 naming SCRIPT otherwise.
release_cc() {
    _rc_script=$1 _rc_p=$2
    shift 2
    [ -x "$_rc_p/bin/mpicc" ] && [ -x "$_rc_p/bin/mpiexec" ] ||
        { echo "$_rc_script: $_rc_p has no bin/mpicc and bin/mpiexec" >&2; exit 2; }
    I_MPI_ROOT=$_rc_p "$_rc_p/bin/mpicc" "$@"
}
