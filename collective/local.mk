# collective/: the collective programs. One ops table and one descriptor
# (libmgcoll.a); every program is collective/main.c compiled with its name,
# -DMG_COLL_NAME="<name>": blocking, non-blocking (i...) and, where configure
# found MPI-4 persistent collectives, persistent (..._init).
noinst_LIBRARIES += collective/libmgcoll.a
collective_libmgcoll_a_SOURCES = mpi/mg_collective.c mpi/mg_collective.h collective/ops.c
MG_COLL_LDADD = collective/libmgcoll.a $(MG_LDADD)

bin_PROGRAMS += \
	collective/mpigauge_barrier \
	collective/mpigauge_bcast \
	collective/mpigauge_reduce \
	collective/mpigauge_allreduce \
	collective/mpigauge_reduce_scatter \
	collective/mpigauge_reduce_scatter_block \
	collective/mpigauge_scatter \
	collective/mpigauge_scatterv \
	collective/mpigauge_gather \
	collective/mpigauge_gatherv \
	collective/mpigauge_allgather \
	collective/mpigauge_allgatherv \
	collective/mpigauge_alltoall \
	collective/mpigauge_alltoallv \
	collective/mpigauge_scan \
	collective/mpigauge_exscan \
	collective/mpigauge_ibarrier \
	collective/mpigauge_ibcast \
	collective/mpigauge_ireduce \
	collective/mpigauge_iallreduce \
	collective/mpigauge_iallgather \
	collective/mpigauge_ialltoall \
	collective/mpigauge_igather \
	collective/mpigauge_iscatter \
	collective/mpigauge_ireduce_scatter

collective_mpigauge_barrier_SOURCES = collective/main.c
collective_mpigauge_barrier_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"barrier"'
collective_mpigauge_barrier_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_bcast_SOURCES = collective/main.c
collective_mpigauge_bcast_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"bcast"'
collective_mpigauge_bcast_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_reduce_SOURCES = collective/main.c
collective_mpigauge_reduce_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"reduce"'
collective_mpigauge_reduce_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_allreduce_SOURCES = collective/main.c
collective_mpigauge_allreduce_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"allreduce"'
collective_mpigauge_allreduce_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_reduce_scatter_SOURCES = collective/main.c
collective_mpigauge_reduce_scatter_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"reduce_scatter"'
collective_mpigauge_reduce_scatter_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_reduce_scatter_block_SOURCES = collective/main.c
collective_mpigauge_reduce_scatter_block_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"reduce_scatter_block"'
collective_mpigauge_reduce_scatter_block_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_scatter_SOURCES = collective/main.c
collective_mpigauge_scatter_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"scatter"'
collective_mpigauge_scatter_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_scatterv_SOURCES = collective/main.c
collective_mpigauge_scatterv_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"scatterv"'
collective_mpigauge_scatterv_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_gather_SOURCES = collective/main.c
collective_mpigauge_gather_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"gather"'
collective_mpigauge_gather_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_gatherv_SOURCES = collective/main.c
collective_mpigauge_gatherv_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"gatherv"'
collective_mpigauge_gatherv_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_allgather_SOURCES = collective/main.c
collective_mpigauge_allgather_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"allgather"'
collective_mpigauge_allgather_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_allgatherv_SOURCES = collective/main.c
collective_mpigauge_allgatherv_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"allgatherv"'
collective_mpigauge_allgatherv_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_alltoall_SOURCES = collective/main.c
collective_mpigauge_alltoall_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"alltoall"'
collective_mpigauge_alltoall_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_alltoallv_SOURCES = collective/main.c
collective_mpigauge_alltoallv_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"alltoallv"'
collective_mpigauge_alltoallv_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_scan_SOURCES = collective/main.c
collective_mpigauge_scan_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"scan"'
collective_mpigauge_scan_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_exscan_SOURCES = collective/main.c
collective_mpigauge_exscan_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"exscan"'
collective_mpigauge_exscan_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_ibarrier_SOURCES = collective/main.c
collective_mpigauge_ibarrier_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"ibarrier"'
collective_mpigauge_ibarrier_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_ibcast_SOURCES = collective/main.c
collective_mpigauge_ibcast_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"ibcast"'
collective_mpigauge_ibcast_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_ireduce_SOURCES = collective/main.c
collective_mpigauge_ireduce_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"ireduce"'
collective_mpigauge_ireduce_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_iallreduce_SOURCES = collective/main.c
collective_mpigauge_iallreduce_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"iallreduce"'
collective_mpigauge_iallreduce_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_iallgather_SOURCES = collective/main.c
collective_mpigauge_iallgather_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"iallgather"'
collective_mpigauge_iallgather_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_ialltoall_SOURCES = collective/main.c
collective_mpigauge_ialltoall_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"ialltoall"'
collective_mpigauge_ialltoall_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_igather_SOURCES = collective/main.c
collective_mpigauge_igather_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"igather"'
collective_mpigauge_igather_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_iscatter_SOURCES = collective/main.c
collective_mpigauge_iscatter_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"iscatter"'
collective_mpigauge_iscatter_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_ireduce_scatter_SOURCES = collective/main.c
collective_mpigauge_ireduce_scatter_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"ireduce_scatter"'
collective_mpigauge_ireduce_scatter_LDADD = $(MG_COLL_LDADD)

if MG_PERSISTENT_COLL
bin_PROGRAMS += \
	collective/mpigauge_barrier_init \
	collective/mpigauge_bcast_init \
	collective/mpigauge_reduce_init \
	collective/mpigauge_allreduce_init \
	collective/mpigauge_reduce_scatter_init \
	collective/mpigauge_reduce_scatter_block_init \
	collective/mpigauge_scatter_init \
	collective/mpigauge_scatterv_init \
	collective/mpigauge_gather_init \
	collective/mpigauge_gatherv_init \
	collective/mpigauge_allgather_init \
	collective/mpigauge_allgatherv_init \
	collective/mpigauge_alltoall_init \
	collective/mpigauge_alltoallv_init \
	collective/mpigauge_scan_init \
	collective/mpigauge_exscan_init

collective_mpigauge_barrier_init_SOURCES = collective/main.c
collective_mpigauge_barrier_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"barrier_init"'
collective_mpigauge_barrier_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_bcast_init_SOURCES = collective/main.c
collective_mpigauge_bcast_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"bcast_init"'
collective_mpigauge_bcast_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_reduce_init_SOURCES = collective/main.c
collective_mpigauge_reduce_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"reduce_init"'
collective_mpigauge_reduce_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_allreduce_init_SOURCES = collective/main.c
collective_mpigauge_allreduce_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"allreduce_init"'
collective_mpigauge_allreduce_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_reduce_scatter_init_SOURCES = collective/main.c
collective_mpigauge_reduce_scatter_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"reduce_scatter_init"'
collective_mpigauge_reduce_scatter_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_reduce_scatter_block_init_SOURCES = collective/main.c
collective_mpigauge_reduce_scatter_block_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"reduce_scatter_block_init"'
collective_mpigauge_reduce_scatter_block_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_scatter_init_SOURCES = collective/main.c
collective_mpigauge_scatter_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"scatter_init"'
collective_mpigauge_scatter_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_scatterv_init_SOURCES = collective/main.c
collective_mpigauge_scatterv_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"scatterv_init"'
collective_mpigauge_scatterv_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_gather_init_SOURCES = collective/main.c
collective_mpigauge_gather_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"gather_init"'
collective_mpigauge_gather_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_gatherv_init_SOURCES = collective/main.c
collective_mpigauge_gatherv_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"gatherv_init"'
collective_mpigauge_gatherv_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_allgather_init_SOURCES = collective/main.c
collective_mpigauge_allgather_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"allgather_init"'
collective_mpigauge_allgather_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_allgatherv_init_SOURCES = collective/main.c
collective_mpigauge_allgatherv_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"allgatherv_init"'
collective_mpigauge_allgatherv_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_alltoall_init_SOURCES = collective/main.c
collective_mpigauge_alltoall_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"alltoall_init"'
collective_mpigauge_alltoall_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_alltoallv_init_SOURCES = collective/main.c
collective_mpigauge_alltoallv_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"alltoallv_init"'
collective_mpigauge_alltoallv_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_scan_init_SOURCES = collective/main.c
collective_mpigauge_scan_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"scan_init"'
collective_mpigauge_scan_init_LDADD = $(MG_COLL_LDADD)
collective_mpigauge_exscan_init_SOURCES = collective/main.c
collective_mpigauge_exscan_init_CPPFLAGS = $(AM_CPPFLAGS) -DMG_COLL_NAME='"exscan_init"'
collective_mpigauge_exscan_init_LDADD = $(MG_COLL_LDADD)
endif
