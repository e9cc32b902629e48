# SPDX-License-Identifier: BSD-3-Clause
# mpi/: the MPI layer and the one generic driver, in rooms (doc/develop.md,
# "The driver's rooms"):
#   mpi/mg_bench.h  what a benchmark includes: the descriptor, the kernel's
#                   context, the helpers and option macros
#   driver/         the stages of a run (plan, session, measure, sweep,
#                   output, the -o file, turns) and their entry point
#   observe/        the extension point and its run-wide features (obs_*.c)
#   transport/      messages: the plain transport, the rails, derived types
#   mpit/           MPI_T (cvars, pvars)
#   record/         the run record: provenance (mg_prov) and the facts recorded
#                   once per run, each a contributor (mg_facts)
#   osu/            the OSU drop-in's translation and names
noinst_LIBRARIES += mpi/libmgmpi.a
mpi_libmgmpi_a_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
mpi_libmgmpi_a_SOURCES = \
	mpi/mg_bench.h \
	mpi/driver/mg_driver.c mpi/driver/mg_run.h mpi/driver/mg_config.c mpi/driver/mg_plan.c \
	mpi/driver/mg_session.c mpi/driver/mg_measure.c mpi/driver/mg_sweep.c \
	mpi/driver/mg_output.c mpi/driver/mg_group_mpi.c \
	mpi/driver/mg_turns.c mpi/driver/mg_turns.h \
	mpi/observe/mg_observe.c mpi/observe/mg_observe.h mpi/observe/mg_observers.c \
	mpi/observe/obs_hostcost.c mpi/observe/obs_pvars.c mpi/observe/obs_per_rank.c \
	mpi/observe/obs_served_by.c mpi/observe/obs_sentinel.c mpi/observe/obs_samples.c \
	mpi/observe/mg_sentinel.c mpi/observe/mg_sentinel.h \
	mpi/transport/mg_mpi.c mpi/transport/mg_mpi.h \
	mpi/transport/mg_multirail.c mpi/transport/mg_multirail.h mpi/transport/mg_mr.h \
	mpi/transport/mg_mr_steer.c mpi/transport/mg_mr_group.c mpi/transport/mg_mr_xfer.c \
	mpi/transport/mg_mr_report.c mpi/transport/mg_dtype.c mpi/transport/mg_dtype.h \
	mpi/mpit/mg_mpit.c mpi/mpit/mg_mpit.h mpi/mpit/mg_mpit_names.h mpi/mpit/mg_pvars.c \
	mpi/record/mg_prov.c mpi/record/mg_prov.h mpi/record/mg_facts.c mpi/record/mg_facts.h \
	mpi/osu/mg_osu.c mpi/osu/mg_osu_names.c mpi/osu/mg_osu.h

# Every benchmark program links the two libraries.
MG_LDADD = mpi/libmgmpi.a util/libmgutil.a $(HWLOC_LIBS) -lpthread -lm
