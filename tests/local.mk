# SPDX-License-Identifier: BSD-3-Clause
# tests/: GoogleTest unit tests of util/ and the data-driven MPI cases.
# The unit tests need a C++ compiler and GoogleTest (configure's
# --enable-unit-tests): without them tests/unit/skipped.sh says so.
if MG_UNIT_TESTS
check_PROGRAMS += tests/unit/unit_tests tests/unit/driver_tests
TESTS += tests/unit/unit_tests tests/unit/driver_tests
else
TESTS += tests/unit/skipped.sh
endif
tests_unit_unit_tests_SOURCES = \
	tests/unit/capture.h \
	tests/unit/golden.h \
	tests/unit/policy_fake.h \
	tests/unit/test_arrival.cc \
	tests/unit/test_noise.cc \
	tests/unit/test_clocksync.cc \
	tests/unit/test_coll.cc \
	tests/unit/test_compute.cc \
	tests/unit/test_graph.cc \
	tests/unit/test_guard.cc \
	tests/unit/test_hostcost.cc \
	tests/unit/test_json.cc \
	tests/unit/test_layout.cc \
	tests/unit/test_netdev.cc \
	tests/unit/test_nodestate.cc \
	tests/unit/test_opts.cc \
	tests/unit/test_opts_list.cc \
	tests/unit/test_opts_rows.cc \
	tests/unit/test_matrix.cc \
	tests/unit/test_footprint.cc \
	tests/unit/test_memlimit.cc \
	tests/unit/test_outfile.cc \
	tests/unit/test_outname.cc \
	tests/unit/test_overlap.cc \
	tests/unit/test_pairing.cc \
	tests/unit/test_screen.cc \
	tests/unit/test_linkrate.cc \
	tests/unit/test_pattern.cc \
	tests/unit/test_policy.cc \
	tests/unit/test_policy_adaptive.cc \
	tests/unit/test_rails.cc \
	tests/unit/test_secret.cc \
	tests/unit/test_report.cc \
	tests/unit/test_sink.cc tests/unit/test_text.cc \
	tests/unit/test_size.cc \
	tests/unit/test_stats.cc \
	tests/unit/test_tpool.cc \
	tests/unit/test_turnspec.cc
tests_unit_unit_tests_CPPFLAGS = $(AM_CPPFLAGS) -DMG_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden"' \
	-DMG_FIXTURE_DIR='"$(abs_top_srcdir)/tests/fixtures"'
tests_unit_unit_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) $(HWLOC_CFLAGS)
tests_unit_unit_tests_LDADD = util/libmgutil.a $(GTEST_LIBS) $(HWLOC_LIBS) -lpthread -lm

# The driver's stages in one process (a fake benchmark, a one-rank group, a
# fake clock): C++ tests over a C harness built with the MPI compiler, linked
# by it too (libmgmpi.a needs the MPI library; MPI_Init is never called).
tests_unit_driver_tests_SOURCES = \
	tests/unit/driver_fake.c tests/unit/driver_fake.h \
	tests/unit/test_driver.cc tests/unit/test_group.cc tests/unit/test_mpit.cc tests/unit/test_osu.cc \
	tests/unit/golden.h
tests_unit_driver_tests_CPPFLAGS = $(tests_unit_unit_tests_CPPFLAGS)
tests_unit_driver_tests_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
tests_unit_driver_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS)
tests_unit_driver_tests_LDADD = $(MG_LDADD) $(GTEST_LIBS) -lstdc++
tests_unit_driver_tests_LINK = $(CCLD) $(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS) $(LDFLAGS) -o $@

TESTS += tests/mpi_cases.sh tests/protocol_switch.sh tests/rails_tool.sh \
	tests/turns.sh tests/samples.sh tests/osu.sh tests/tuning.sh tests/guidelines.sh tests/option_tables.sh tests/output_safety.sh \
	tests/profile.sh tests/frontend/unit_tests.sh tests/man_pages.sh tests/code_rules.sh tests/format.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	MG_UNIT_WHY='$(MG_UNIT_WHY)'; export MG_UNIT_WHY; \
	MPIEXEC='$(MPIEXEC)'; MPIEXEC_FLAGS='$(MPIEXEC_FLAGS)'; MG_MPI_FLAVOR='$(MG_MPI_FLAVOR)'; MG_MPI_FEATURES='$(MG_MPI_FEATURES)'; MG_MPI_LIBRARY='$(MG_MPI_LIBRARY)'; \
	MG_BINDIR='$(abs_top_builddir)/pt2pt:$(abs_top_builddir)/overlap:$(abs_top_builddir)/collective:$(abs_top_builddir)/onesided:$(abs_top_builddir)/tools'; MG_TESTDIR='$(abs_top_srcdir)/tests'; \
	PYTHON='$(PYTHON)'; MG_MANDIR='$(abs_top_builddir)/man'; MG_BUILDDIR='$(abs_top_builddir)'; \
	export MPIEXEC MPIEXEC_FLAGS MG_MPI_FLAVOR MG_MPI_FEATURES MG_MPI_LIBRARY MG_BINDIR MG_TESTDIR PYTHON MG_MANDIR MG_BUILDDIR;

EXTRA_DIST += \
	tests/fixtures/import/impi2021.19-imb-mpi1-np.txt \
	tests/fixtures/import/impi2021.19-imb-mpi1.txt \
	tests/fixtures/import/impi2021.19-imb-nbc.txt \
	tests/fixtures/import/impi2021.19-imb-p2p.txt \
	tests/fixtures/import/osu74-mpich-allreduce-typed.txt \
	tests/fixtures/import/osu74-mpich-barrier-f.txt \
	tests/fixtures/import/osu74-mpich-bcast-fc.txt \
	tests/fixtures/import/osu74-mpich-bw-cz.txt \
	tests/fixtures/import/osu74-mpich-hello.txt \
	tests/fixtures/import/osu74-mpich-iallreduce-z.txt \
	tests/fixtures/import/osu74-mpich-init.txt \
	tests/fixtures/import/osu74-mpich-latency-1.txt \
	tests/fixtures/import/osu74-mpich-latency-2.txt \
	tests/fixtures/import/osu74-mpich-latency-3.txt \
	tests/fixtures/import/osu74-mpich-latency-4.txt \
	tests/fixtures/import/osu74-mpich-mbw_mr.txt \
	tests/fixtures/import/osu74-mpich-put_latency.txt \
	tests/fixtures/import/mpigauge-dropin-openmpi-latency.txt \
	tests/fixtures/import/osu74-openmpi-latency-1.txt \
	tests/fixtures/import/osu74-openmpi-latency-2.txt \
	tests/fixtures/import/osu74-openmpi-latency-3.txt \
	tests/fixtures/import/osu74-openmpi-latency-4.txt \
	tests/profile.sh tests/profile/profile_mix.expected \
	tests/unit/skipped.sh tests/man_pages.sh tests/releases.sh tests/series.sh tests/mpi_cases.sh tests/mpi_cases.txt tests/protocol_switch.sh tests/turns.sh tests/samples.sh tests/stall.py \
	tests/osu.sh tests/tuning.sh tests/guidelines.sh tests/osu_parse.py tests/osu_headers.py tests/fixtures/osu/headers74.txt \
	tests/fixtures/osu/osu74-mpich-latency.txt tests/fixtures/osu/osu74-mpich-bw.txt \
	tests/fixtures/osu/osu74-mpich-allreduce.txt tests/fixtures/osu/osu74-mpich-alltoall.txt \
	tests/fixtures/osu/osu74-openmpi-latency.txt tests/fixtures/osu/osu74-openmpi-bw.txt \
	tests/fixtures/osu/osu74-openmpi-allreduce.txt tests/fixtures/osu/osu74-openmpi-alltoall.txt \
	tests/option_tables.sh tests/output_safety.sh tests/code_rules.sh tests/format.sh \
	tests/mpi_env.sh tests/check_output.py tests/program_output.py tests/screen_output.py \
	tests/rails_tool.sh tests/fixtures/topo/two_socket_two_hca.xml \
	tests/fixtures/topo/two_socket_four_hca.xml tests/fixtures/topo/one_socket_no_hca.xml \
	tests/fixtures/sysfs/net/bonding_masters tests/fixtures/sysfs/net/docker0/type \
	tests/fixtures/sysfs/net/eth0/type tests/fixtures/sysfs/net/ib0/type \
	tests/fixtures/sysfs/net/lo/type tests/fixtures/sysfs/net/veth_a/type \
	tests/fixtures/sysfs/net/ifb0/type tests/fixtures/sysfs/net/ifb0/operstate \
	tests/fixtures/sysfs/net/veth_a/operstate tests/fixtures/sysfs/net/vxlan9/type tests/fixtures/sysfs/net/vxlan10/type \
	tests/fixtures/sysfs/infiniband/mlx5_0/node_type tests/fixtures/sysfs/infiniband/rxe0/node_type \
	tests/fixtures/secrets.txt tests/fixtures/graph2.txt tests/fixtures/graph4.txt tests/fixtures/graph5.txt \
	tests/fixtures/graph_directed.txt tests/fixtures/matrix2.csv tests/fixtures/matrix5.csv \
	tests/golden/report_table.txt tests/golden/report.csv tests/golden/report.jsonl \
	tests/golden/sink_table.txt tests/golden/sink.csv tests/golden/sink.jsonl \
	tests/golden/driver_fixed.jsonl tests/golden/driver_fixed_table.txt tests/golden/driver_fixed.csv \
	build-aux/tap-driver.sh

# libFuzzer targets of the C parsers and their corpus (scripts/test.sh runs them)
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/frontend.py \
	tests/fuzz/fuzz_sizes.c \
	tests/fuzz/fuzz_opts.c \
	tests/fuzz/fuzz_rails.c \
	tests/fuzz/corpus/sizes/exabytes \
	tests/fuzz/corpus/sizes/list \
	tests/fuzz/corpus/sizes/overflow \
	tests/fuzz/corpus/sizes/range \
	tests/fuzz/corpus/opts/every-kind \
	tests/fuzz/corpus/opts/list-range-overflow \
	tests/fuzz/corpus/rails/auto \
	tests/fuzz/corpus/rails/hints \
	tests/fuzz/corpus/rails/weights-3-1 \
	tests/fuzz/corpus/rails/weights-overflow

# The Spack package (contrib/spack/) with real Spack, offline: make dist, a
# local mirror, Debian's MPIs as externals, spack install and spack test run
# (tests/spack/spack_install.sh; doc/packaging.md). Not part of make check:
#   make check-spack MG_SPACK_SRC=/path/to/spack [MG_SPACK_WORK=DIR]
check-spack:
	@test -n "$(MG_SPACK_SRC)" || { echo "make check-spack MG_SPACK_SRC=DIR (a Spack source tree)" >&2; exit 2; }
	MG_BUILDDIR='$(abs_top_builddir)' $(SHELL) $(srcdir)/tests/spack/spack_install.sh '$(MG_SPACK_SRC)' $(MG_SPACK_WORK)
.PHONY: check-spack
EXTRA_DIST += tests/spack/spack_install.sh contrib/spack/repo.yaml contrib/spack/packages/mpigauge/package.py

# The easyconfigs (contrib/easybuild/) with EasyBuild from PyPI, offline
# (tests/easybuild/eb_install.sh; doc/packaging.md). Not part of make check:
#   make check-easybuild [MG_EB_WORK=DIR]
check-easybuild:
	MG_BUILDDIR='$(abs_top_builddir)' $(SHELL) $(srcdir)/tests/easybuild/eb_install.sh $(MG_EB_WORK)
.PHONY: check-easybuild
EXTRA_DIST += tests/easybuild/eb_install.sh contrib/easybuild/mpigauge-0.1.0-Debian-OpenMPI.eb \
	contrib/easybuild/mpigauge-0.1.0-foss-2023a.eb
