# mpi/: the MPI layer and the one generic driver.
noinst_LIBRARIES += mpi/libmgmpi.a
mpi_libmgmpi_a_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
mpi_libmgmpi_a_SOURCES = \
	mpi/mg_driver.c mpi/mg_driver.h \
	mpi/mg_mpi.c mpi/mg_mpi.h \
	mpi/mg_multirail.c mpi/mg_multirail.h \
	mpi/mg_prov.c mpi/mg_prov.h \
	mpi/mg_sentinel.c mpi/mg_sentinel.h

# Every benchmark program links the two libraries.
MG_LDADD = mpi/libmgmpi.a util/libmgutil.a $(HWLOC_LIBS) -lm
