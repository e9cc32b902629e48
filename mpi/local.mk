# SPDX-License-Identifier: BSD-3-Clause
# mpi/: the MPI layer and the one generic driver.
noinst_LIBRARIES += mpi/libmgmpi.a
mpi_libmgmpi_a_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
mpi_libmgmpi_a_SOURCES = \
	mpi/mg_driver.c mpi/mg_driver.h mpi/mg_run.h \
	mpi/mg_config.c mpi/mg_plan.c mpi/mg_session.c mpi/mg_measure.c mpi/mg_sweep.c mpi/mg_output.c mpi/mg_outfile.c \
	mpi/mg_group_mpi.c \
	mpi/mg_mpi.c mpi/mg_mpi.h \
	mpi/mg_multirail.c mpi/mg_multirail.h mpi/mg_mr.h \
	mpi/mg_mr_steer.c mpi/mg_mr_group.c mpi/mg_mr_xfer.c mpi/mg_mr_report.c \
	mpi/mg_prov.c mpi/mg_prov.h mpi/mg_mpit.c mpi/mg_mpit.h mpi/mg_mpit_names.h mpi/mg_osu.c mpi/mg_osu_names.c mpi/mg_osu.h mpi/mg_pvars.c \
	mpi/mg_sentinel.c mpi/mg_sentinel.h \
	mpi/mg_turns.c mpi/mg_turns.h \
	mpi/mg_dtype.c mpi/mg_dtype.h \
	mpi/mg_observe.c mpi/mg_observe.h mpi/mg_observers.c \
	mpi/obs_hostcost.c \
	mpi/obs_pvars.c mpi/obs_per_rank.c mpi/obs_served_by.c mpi/obs_sentinel.c

# Every benchmark program links the two libraries.
MG_LDADD = mpi/libmgmpi.a util/libmgutil.a $(HWLOC_LIBS) -lpthread -lm
