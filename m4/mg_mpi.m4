dnl SPDX-License-Identifier: BSD-3-Clause
# MG_PROG_MPICC: $MPICC as the C compiler when it is given (a package
# manager sets CC to its own compiler wrapper and names the MPI one in
# MPICC), else $CC when that is given, else mpicc.
AC_DEFUN([MG_PROG_MPICC], [
  AC_ARG_VAR([MPICC], [MPI C compiler wrapper (default: mpicc; mpicc.mpich for MPICH)])
  AS_IF([test -n "$MPICC"], [CC=$MPICC],
        [test -z "$CC"], [MPICC=mpicc; CC=mpicc],
        [MPICC=$CC])
  AC_PROG_CC
  AS_IF([test "x$ac_cv_prog_cc_c11" = xno], [AC_MSG_ERROR([a C11 compiler is required])])
])

# MG_CHECK_MPI: mpi.h links; detect the flavour, MPI-4 large counts and the
# launcher that make check uses (override with MPIEXEC=... and MPIEXEC_FLAGS=...).
AC_DEFUN([MG_CHECK_MPI], [
  AC_ARG_VAR([MPIEXEC], [MPI launcher for make check (default: matches the MPI flavour)])
  AC_ARG_VAR([MPIEXEC_FLAGS], [extra launcher flags for make check])
  AC_MSG_CHECKING([whether $CC builds MPI programs])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
                                  [[MPI_Init(0, 0); MPI_Finalize();]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([$CC cannot build MPI programs: install libopenmpi-dev or libmpich-dev, or set MPICC])])

  MG_MPI_IMPL_VERSION
  AC_MSG_CHECKING([for MPI-4 large-count calls])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
MPI_Count n = 1; MPI_Request r;
MPI_Isend_c(0, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &r);]])],
    [mg_have_large_count=yes; mg_lc=1], [mg_have_large_count=no; mg_lc=0])
  AC_MSG_RESULT([$mg_have_large_count])
  AC_DEFINE_UNQUOTED([MG_HAVE_MPI_LARGE_COUNT], [$mg_lc],
                     [Define to 1 if MPI has the MPI-4 large-count (_c) calls])

  AC_MSG_CHECKING([for MPI-4 persistent collectives])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
MPI_Request r; int x = 0;
MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r);
MPI_Allreduce_init(&x, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);]])],
    [mg_have_persistent_coll=yes; mg_pc=1], [mg_have_persistent_coll=no; mg_pc=0])
  AC_MSG_RESULT([$mg_have_persistent_coll])
  AC_DEFINE_UNQUOTED([MG_HAVE_PERSISTENT_COLL], [$mg_pc],
                     [Define to 1 if MPI has the MPI-4 persistent collectives (MPI_*_init)])
  AM_CONDITIONAL([MG_PERSISTENT_COLL], [test "$mg_have_persistent_coll" = yes])

  AC_MSG_CHECKING([for MPI-4 partitioned point-to-point])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
MPI_Request r; int f = 0; char b[8];
MPI_Psend_init(b, 2, 4, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
MPI_Precv_init(b, 2, 4, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
MPI_Pready(0, r);
MPI_Parrived(r, 0, &f);]])],
    [mg_have_partitioned=yes; mg_pp=1], [mg_have_partitioned=no; mg_pp=0])
  AC_MSG_RESULT([$mg_have_partitioned])
  AC_DEFINE_UNQUOTED([MG_HAVE_PARTITIONED], [$mg_pp],
                     [Define to 1 if MPI has MPI-4 partitioned communication (MPI_Psend_init)])

  AC_MSG_CHECKING([for MPI-4 sessions])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
MPI_Session s; MPI_Group g; MPI_Comm c;
MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
MPI_Comm_create_from_group(g, "x", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
MPI_Session_finalize(&s);]])],
    [mg_have_sessions=yes; mg_ss=1], [mg_have_sessions=no; mg_ss=0])
  AC_MSG_RESULT([$mg_have_sessions])
  AC_DEFINE_UNQUOTED([MG_HAVE_SESSIONS], [$mg_ss],
                     [Define to 1 if MPI has MPI-4 sessions (MPI_Session_init)])

  MG_MPI_FEATURES=""
  AS_IF([test "$mg_have_persistent_coll" = yes], [MG_MPI_FEATURES="$MG_MPI_FEATURES pcoll"])
  AS_IF([test "$mg_have_partitioned" = yes], [MG_MPI_FEATURES="$MG_MPI_FEATURES part"])
  dnl Open MPI 5.0 leaves partitioned requests incomplete when several are
  dnl active at once between two ranks (bench/part_window.c,
  dnl bench/part_pingpong.c; doc/releases.md)
  AS_CASE([$mg_have_partitioned:$MG_MPI_LIBRARY],
    [yes:openmpi\ 5.0.*], [],
    [yes:*], [MG_MPI_FEATURES="$MG_MPI_FEATURES part_window"])
  AS_IF([test "$mg_have_sessions" = yes], [MG_MPI_FEATURES="$MG_MPI_FEATURES sessions"])
  dnl Intel MPI 2021 refuses MPI_Init after MPI_Session_init, which MPI-4
  dnl allows (bench/session_then_init.c; doc/releases.md)
  AS_CASE([$mg_have_sessions:$MG_MPI_LIBRARY],
    [yes:impi\ *], [],
    [yes:*], [MG_MPI_FEATURES="$MG_MPI_FEATURES session_world"])
  AS_IF([test "$mg_have_large_count" = yes], [MG_MPI_FEATURES="$MG_MPI_FEATURES large_count"])
  AC_SUBST([MG_MPI_FEATURES])
  MG_MPI_LAUNCHER
])

# MG_CHECK_HWLOC: hwloc >= 2 through pkg-config.
AC_DEFUN([MG_CHECK_HWLOC], [
  PKG_CHECK_MODULES([HWLOC], [hwloc >= 2.0], [],
    [AC_MSG_ERROR([hwloc >= 2.0 not found by pkg-config: install libhwloc-dev])])
])

# MG_CHECK_UNIT_TESTS: the GoogleTest unit tests (tests/unit/) need a C++
# compiler and GoogleTest (gtest_main, through pkg-config); the programs and
# the front-end need neither. --enable-unit-tests=auto (the default): built
# when both are found, else `make check` skips them and says why; yes: both
# required; no: never built. MG_UNIT_WHY: why they are not built ("" when
# they are).
AC_DEFUN([MG_CHECK_UNIT_TESTS], [
  AC_ARG_ENABLE([unit-tests],
    [AS_HELP_STRING([--enable-unit-tests@<:@=auto|yes|no@:>@],
      [the GoogleTest unit tests of make check (need a C++ compiler and GoogleTest; default auto)])],
    [], [enable_unit_tests=auto])
  MG_UNIT_WHY=""
  AS_IF([test "x$enable_unit_tests" = xno],
    [MG_UNIT_WHY="configured with --disable-unit-tests"],
    [AC_LANG_PUSH([C++])
     AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <string>]], [[std::string s("x"); return (int)s.size() - 1;]])],
       [], [MG_UNIT_WHY="no working C++ compiler ($CXX)"])
     AC_LANG_POP([C++])
     AS_IF([test -z "$MG_UNIT_WHY"],
       [PKG_CHECK_MODULES([GTEST], [gtest_main], [],
          [MG_UNIT_WHY="GoogleTest (gtest_main) not found by pkg-config"])])
     AS_IF([test -n "$MG_UNIT_WHY" && test "x$enable_unit_tests" = xyes],
       [AC_MSG_ERROR([--enable-unit-tests: $MG_UNIT_WHY (install a C++ compiler and libgtest-dev)])])])
  AS_IF([test -n "$MG_UNIT_WHY"],
    [AC_MSG_WARN([the GoogleTest unit tests are not built: $MG_UNIT_WHY; make check skips them])])
  AC_SUBST([MG_UNIT_WHY])
  AM_CONDITIONAL([MG_UNIT_TESTS], [test -z "$MG_UNIT_WHY"])
])

# MG_GIT_VERSION: "git describe" when building from a git checkout, else the
# release version.
AC_DEFUN([MG_GIT_VERSION], [
  MG_VERSION_STRING=$PACKAGE_VERSION
  AS_IF([test -e "$srcdir/.git"], [
    mg_v=`cd "$srcdir" && git describe --tags --always --dirty 2>/dev/null`
    AS_IF([test -n "$mg_v"], [MG_VERSION_STRING="$PACKAGE_VERSION-g$mg_v"])
  ])
  AC_DEFINE_UNQUOTED([MG_VERSION_STRING], ["$MG_VERSION_STRING"], [mpigauge version string])
  AC_SUBST([MG_VERSION_STRING])
])
