dnl SPDX-License-Identifier: BSD-3-Clause
# Which MPI library a build uses and which launcher belongs to it.
#
# The implementation is told by the header (Open MPI, Intel MPI, MPICH, or
# the MPI-5 standard ABI, whose implementation is chosen at run time), the
# release by the library itself: a program calls MPI_Get_library_version
# (allowed before MPI_Init) and configure reads the string. The test
# launcher is the one of the installation that $MPICC belongs to (the same
# folder), never whatever mpirun / mpiexec comes first on PATH: each
# candidate is asked --version and must name the library's implementation
# and release.

# mg_mpi_ident FILE: "IMPL VERSION" from a library version string or a
# launcher's --version text (Open MPI, Intel MPI, MPICH/Hydra), or nothing.
AC_DEFUN([MG_MPI_IDENT_FUNC], [
mg_mpi_ident() {
  $SED -n \
    -e 's/^Open MPI v\([[0-9]][[0-9A-Za-z.]]*\).*/openmpi \1/p' \
    -e 's/.*(Open MPI) \([[0-9]][[0-9A-Za-z.]]*\).*/openmpi \1/p' \
    -e 's/.*(OpenRTE) \([[0-9]][[0-9A-Za-z.]]*\).*/openmpi \1/p' \
    -e 's/^Intel(R) MPI Library \([[0-9]][[0-9.]]*\).*/impi \1/p' \
    -e 's/^Intel(R) MPI Library for Linux\* OS, Version \([[0-9]][[0-9.]]*\).*/impi \1/p' \
    -e 's/^MPICH Version:[[[:space:]]]*\([[0-9]][[0-9A-Za-z.]]*\).*/mpich \1/p' \
    -e 's/^[[[:space:]]]*Version:[[[:space:]]]*\([[0-9]][[0-9A-Za-z.]]*\).*/mpich \1/p' \
    "$[1]" | head -n 1
}
])

# MG_MPI_IMPL_VERSION: MG_MPI_IMPL (openmpi|mpich|impi|abi), MG_MPI_FLAVOR
# (the launch family: openmpi, or mpich for MPICH, Intel MPI and an ABI
# build whose library is MPICH-derived), MG_MPI_LIBRARY ("IMPL VERSION" of
# the library linked now).
AC_DEFUN([MG_MPI_IMPL_VERSION], [
  AC_REQUIRE([MG_MPI_IDENT_FUNC])
  AC_MSG_CHECKING([MPI implementation (header)])
  MG_MPI_IMPL=other
  for mg_try in openmpi:OPEN_MPI impi:I_MPI_VERSION mpich:MPICH abi:MPI_ABI_VERSION; do
    mg_macro=`echo "$mg_try" | cut -d: -f2`
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#ifndef $mg_macro
#error no
#endif
]])], [MG_MPI_IMPL=`echo "$mg_try" | cut -d: -f1`; break])
  done
  AC_MSG_RESULT([$MG_MPI_IMPL])

  AC_MSG_CHECKING([MPI library release (MPI_Get_library_version)])
  rm -f conftest.lib
  AC_RUN_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>
#include <stdio.h>]], [[
char s[MPI_MAX_LIBRARY_VERSION_STRING];
int n = 0;
FILE *f;
if (MPI_Get_library_version(s, &n) != MPI_SUCCESS || !(f = fopen("conftest.lib", "w")))
    return 1;
fprintf(f, "%s\n", s);
return fclose(f) != 0;]])],
    [MG_MPI_LIBRARY=`mg_mpi_ident conftest.lib`],
    [MG_MPI_LIBRARY=""],
    [MG_MPI_LIBRARY=""])
  rm -f conftest.lib
  AS_IF([test -z "$MG_MPI_LIBRARY"], [
    dnl cross-compiling, or a string we do not know: the header's version
    AC_COMPUTE_INT([mg_ompi_major], [OMPI_MAJOR_VERSION], [[#include <mpi.h>]], [mg_ompi_major=""])
    AS_CASE([$MG_MPI_IMPL],
      [openmpi], [AC_COMPUTE_INT([mg_ompi_minor], [OMPI_MINOR_VERSION], [[#include <mpi.h>]])
                  AC_COMPUTE_INT([mg_ompi_rel], [OMPI_RELEASE_VERSION], [[#include <mpi.h>]])
                  MG_MPI_LIBRARY="openmpi $mg_ompi_major.$mg_ompi_minor.$mg_ompi_rel"],
      [MG_MPI_LIBRARY="$MG_MPI_IMPL unknown"])
  ])
  AC_MSG_RESULT([$MG_MPI_LIBRARY])
  mg_lib_impl=${MG_MPI_LIBRARY%% *}
  AS_CASE([$MG_MPI_IMPL:$mg_lib_impl],
    [openmpi:*|abi:openmpi], [MG_MPI_FLAVOR=openmpi],
    [mpich:*|impi:*|abi:mpich|abi:impi], [MG_MPI_FLAVOR=mpich],
    [MG_MPI_FLAVOR=other])
  AC_MSG_CHECKING([MPI launch family])
  AC_MSG_RESULT([$MG_MPI_FLAVOR])
  AC_SUBST([MG_MPI_FLAVOR])
  AC_SUBST([MG_MPI_IMPL])
  AC_SUBST([MG_MPI_LIBRARY])
  AC_DEFINE_UNQUOTED([MG_MPI_BUILD_IMPL], ["$MG_MPI_IMPL"],
                     [The MPI implementation the build's header belongs to (abi: the MPI-5 standard ABI)])
  AM_CONDITIONAL([MG_MPI_ABI], [test "$MG_MPI_IMPL" = abi])
])

# MG_MPI_LAUNCHER: MPIEXEC (if not given) from the folder of $MPICC, checked
# against MG_MPI_LIBRARY; a given MPIEXEC of another release is refused.
AC_DEFUN([MG_MPI_LAUNCHER], [
  AC_REQUIRE([MG_MPI_IDENT_FUNC])
  dnl the compiler word of MPICC (it may be "env I_MPI_ROOT=... .../mpicc")
  mg_cc_word=""
  for mg_w in $MPICC; do
    AS_CASE([$mg_w], [env|*=*|-*], [], [mg_cc_word=$mg_w])
  done
  AS_CASE([$mg_cc_word],
    [*/*], [mg_cc_path=$mg_cc_word],
    [mg_cc_path=`command -v "$mg_cc_word" 2>/dev/null`])
  mg_cc_dir=`dirname "$mg_cc_path"`
  mg_suffix=`echo "$mg_cc_word" | $SED -n 's/^.*mpicc\(\.[[a-z]]*\)$/\1/p'`
  AS_CASE([$MG_MPI_FLAVOR],
    [openmpi], [mg_names="mpirun$mg_suffix mpiexec$mg_suffix mpirun mpiexec mpirun.openmpi"],
    [mg_names="mpiexec$mg_suffix mpiexec.hydra mpiexec mpirun mpiexec.mpich"])
  mg_want=$MG_MPI_LIBRARY
  AS_CASE([$mg_want], [*unknown|""], [mg_want=""])
  mg_launcher_ident() { # path -> "IMPL VERSION" of its --version
    "$[1]" --version </dev/null >conftest.ver 2>&1
    mg_mpi_ident conftest.ver
    rm -f conftest.ver
  }
  AS_IF([test -n "$MPIEXEC"], [
    AC_MSG_CHECKING([whether $MPIEXEC belongs to $mg_want])
    mg_got=`mg_launcher_ident "$MPIEXEC"`
    AS_IF([test -z "$mg_want" || test -z "$mg_got"],
          [AC_MSG_RESULT([cannot tell ($mg_got)])],
          [test "$mg_got" = "$mg_want"], [AC_MSG_RESULT([yes])],
          [AC_MSG_RESULT([no: $mg_got])
           AC_MSG_ERROR([MPIEXEC=$MPIEXEC is the launcher of $mg_got, but the programs load $mg_want: give the launcher of $mg_want (e.g. $mg_cc_dir/mpiexec)])])
  ], [
    AC_MSG_CHECKING([for the launcher of $MG_MPI_LIBRARY in $mg_cc_dir])
    mg_first=""
    for mg_n in $mg_names; do
      mg_p="$mg_cc_dir/$mg_n"
      test -x "$mg_p" || continue
      test -n "$mg_first" || mg_first=$mg_p
      AS_IF([test -z "$mg_want"], [MPIEXEC=$mg_p; break])
      AS_IF([test "`mg_launcher_ident "$mg_p"`" = "$mg_want"], [MPIEXEC=$mg_p; break])
    done
    AS_IF([test -n "$MPIEXEC"], [AC_MSG_RESULT([$MPIEXEC])],
          [test -n "$mg_first"],
          [AC_MSG_RESULT([none])
           AC_MSG_ERROR([no launcher in $mg_cc_dir says it is $mg_want ($mg_first is `mg_launcher_ident "$mg_first"`); set MPIEXEC to the launcher of the library $MPICC builds with])],
          [AC_MSG_RESULT([none])
           AC_MSG_WARN([no MPI launcher beside $mg_cc_path: the MPI tests of make check will fail (set MPIEXEC)])])
  ])
  AS_IF([test -z "$MPIEXEC_FLAGS" && test "$MG_MPI_FLAVOR" = openmpi], [
    AS_CASE([$mg_want],
      [openmpi\ [[0-4]].*], [MPIEXEC_FLAGS="--oversubscribe"],
      [MPIEXEC_FLAGS="--map-by :OVERSUBSCRIBE"])
  ])
])
