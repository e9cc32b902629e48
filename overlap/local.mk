# SPDX-License-Identifier: BSD-3-Clause
# overlap/: computation/communication overlap, progress, protocol switch, CPU availability.
bin_PROGRAMS += overlap/mpigauge_send_overlap overlap/mpigauge_recv_overlap
overlap_mpigauge_send_overlap_SOURCES = overlap/overlap.c overlap/overlap.h
overlap_mpigauge_recv_overlap_SOURCES = overlap/overlap.c overlap/overlap.h
overlap_mpigauge_recv_overlap_CPPFLAGS = $(AM_CPPFLAGS) -DMG_RECV_SIDE

# The host-availability test is overhead's bandwidth part (pt2pt/overhead.c).
bin_PROGRAMS += overlap/mpigauge_cpu_avail
overlap_mpigauge_cpu_avail_SOURCES = pt2pt/overhead.c pt2pt/pt2pt.h
overlap_mpigauge_cpu_avail_CPPFLAGS = $(AM_CPPFLAGS) -DMG_OVERHEAD_CPU_AVAIL

bin_PROGRAMS += overlap/mpigauge_send_progress overlap/mpigauge_recv_progress
overlap_mpigauge_send_progress_SOURCES = overlap/progress.c overlap/overlap.h
overlap_mpigauge_recv_progress_SOURCES = overlap/progress.c overlap/overlap.h
overlap_mpigauge_recv_progress_CPPFLAGS = $(AM_CPPFLAGS) -DMG_RECV_SIDE

bin_PROGRAMS += overlap/mpigauge_protocol
overlap_mpigauge_protocol_SOURCES = overlap/protocol.c overlap/overlap.h
