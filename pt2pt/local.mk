# SPDX-License-Identifier: BSD-3-Clause
# pt2pt/: point-to-point benchmark descriptors. The helpers several programs
# share (the persistent and datatype forms, the thread team, partitioned
# communication, the start-up clock) are one convenience library,
# libmgp2p.a, compiled once; a program links what it uses.
noinst_LIBRARIES += pt2pt/libmgp2p.a
pt2pt_libmgp2p_a_SOURCES = pt2pt/pt2pt.h pt2pt/persistent.c pt2pt/persistent.h pt2pt/dtype.c \
	pt2pt/dtype.h pt2pt/mt.c pt2pt/mt.h pt2pt/part.c pt2pt/part.h pt2pt/startup_clock.c \
	pt2pt/startup.h
pt2pt_libmgp2p_a_CFLAGS = $(AM_CFLAGS) -pthread
MG_P2P_LDADD = pt2pt/libmgp2p.a $(MG_LDADD)

bin_PROGRAMS += pt2pt/mpigauge_latency pt2pt/mpigauge_bw pt2pt/mpigauge_bibw \
	pt2pt/mpigauge_pingping pt2pt/mpigauge_bilatency pt2pt/mpigauge_qbw pt2pt/mpigauge_sendrecv pt2pt/mpigauge_exchange pt2pt/mpigauge_multi_lat pt2pt/mpigauge_mbw_mr pt2pt/mpigauge_hotspot
pt2pt_mpigauge_latency_SOURCES = pt2pt/latency.c
pt2pt_mpigauge_latency_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_bw_SOURCES = pt2pt/bw.c
pt2pt_mpigauge_bw_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_bibw_SOURCES = pt2pt/bibw.c
pt2pt_mpigauge_bibw_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_pingping_SOURCES = pt2pt/pingping.c
pt2pt_mpigauge_bilatency_SOURCES = pt2pt/bilatency.c
pt2pt_mpigauge_qbw_SOURCES = pt2pt/qbw.c
pt2pt_mpigauge_sendrecv_SOURCES = pt2pt/sendrecv.c
pt2pt_mpigauge_exchange_SOURCES = pt2pt/exchange.c
pt2pt_mpigauge_multi_lat_SOURCES = pt2pt/multi_lat.c
pt2pt_mpigauge_mbw_mr_SOURCES = pt2pt/mbw_mr.c
pt2pt_mpigauge_hotspot_SOURCES = pt2pt/hotspot.c
bin_PROGRAMS += pt2pt/mpigauge_reuse pt2pt/mpigauge_completion pt2pt/mpigauge_matching
pt2pt_mpigauge_matching_SOURCES = pt2pt/matching.c
pt2pt_mpigauge_reuse_SOURCES = pt2pt/reuse.c
pt2pt_mpigauge_completion_SOURCES = pt2pt/completion.c
bin_PROGRAMS += pt2pt/mpigauge_overhead
pt2pt_mpigauge_overhead_SOURCES = pt2pt/overhead.c
bin_PROGRAMS += pt2pt/mpigauge_loggp
pt2pt_mpigauge_loggp_SOURCES = pt2pt/loggp.c
bin_PROGRAMS += pt2pt/mpigauge_latency_mt pt2pt/mpigauge_mbw_mr_mt
pt2pt_mpigauge_latency_mt_SOURCES = pt2pt/latency_mt.c
pt2pt_mpigauge_latency_mt_CFLAGS = $(AM_CFLAGS) -pthread
pt2pt_mpigauge_latency_mt_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_mbw_mr_mt_SOURCES = pt2pt/mbw_mr_mt.c
pt2pt_mpigauge_mbw_mr_mt_CFLAGS = $(AM_CFLAGS) -pthread
pt2pt_mpigauge_mbw_mr_mt_LDADD = $(MG_P2P_LDADD)
bin_PROGRAMS += pt2pt/mpigauge_part_latency pt2pt/mpigauge_part_bw
pt2pt_mpigauge_part_latency_SOURCES = pt2pt/part_latency.c
pt2pt_mpigauge_part_latency_CFLAGS = $(AM_CFLAGS) -pthread
pt2pt_mpigauge_part_latency_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_part_bw_SOURCES = pt2pt/part_bw.c
pt2pt_mpigauge_part_bw_CFLAGS = $(AM_CFLAGS) -pthread
pt2pt_mpigauge_part_bw_LDADD = $(MG_P2P_LDADD)
bin_PROGRAMS += pt2pt/mpigauge_startup pt2pt/mpigauge_hello pt2pt/mpigauge_footprint pt2pt/mpigauge_fan \
	pt2pt/mpigauge_stencil pt2pt/mpigauge_random
pt2pt_mpigauge_stencil_SOURCES = pt2pt/stencil.c
pt2pt_mpigauge_stencil_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_random_SOURCES = pt2pt/random.c
pt2pt_mpigauge_random_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_fan_SOURCES = pt2pt/fan.c
pt2pt_mpigauge_fan_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_footprint_SOURCES = pt2pt/footprint.c
pt2pt_mpigauge_footprint_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_startup_SOURCES = pt2pt/startup.c
pt2pt_mpigauge_startup_LDADD = $(MG_P2P_LDADD)
pt2pt_mpigauge_hello_SOURCES = pt2pt/hello.c
pt2pt_mpigauge_hello_LDADD = $(MG_P2P_LDADD)
