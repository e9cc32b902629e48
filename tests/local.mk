# tests/: GoogleTest unit tests of util/ and the data-driven MPI cases.
check_PROGRAMS += tests/unit/unit_tests
tests_unit_unit_tests_SOURCES = \
	tests/unit/capture.h \
	tests/unit/test_clocksync.cc \
	tests/unit/test_coll.cc \
	tests/unit/test_compute.cc \
	tests/unit/test_json.cc \
	tests/unit/test_opts.cc \
	tests/unit/test_overlap.cc \
	tests/unit/test_pairing.cc \
	tests/unit/test_pattern.cc \
	tests/unit/test_policy.cc \
	tests/unit/test_report.cc \
	tests/unit/test_size.cc \
	tests/unit/test_stats.cc
tests_unit_unit_tests_CPPFLAGS = $(AM_CPPFLAGS) -DMG_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden"'
tests_unit_unit_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS)
tests_unit_unit_tests_LDADD = util/libmgutil.a $(GTEST_LIBS) -lm

TESTS += tests/unit/unit_tests tests/mpi_cases.sh tests/protocol_switch.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	MPIEXEC='$(MPIEXEC)'; MPIEXEC_FLAGS='$(MPIEXEC_FLAGS)'; MG_MPI_FLAVOR='$(MG_MPI_FLAVOR)'; \
	MG_BINDIR='$(abs_top_builddir)/pt2pt:$(abs_top_builddir)/overlap:$(abs_top_builddir)/collective'; MG_TESTDIR='$(abs_top_srcdir)/tests'; \
	PYTHON='$(PYTHON)'; \
	export MPIEXEC MPIEXEC_FLAGS MG_MPI_FLAVOR MG_BINDIR MG_TESTDIR PYTHON;

EXTRA_DIST += tests/mpi_cases.sh tests/mpi_cases.txt tests/protocol_switch.sh tests/check_output.py \
	tests/golden/report_table.txt tests/golden/report.csv tests/golden/report.jsonl \
	build-aux/tap-driver.sh
