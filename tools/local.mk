# SPDX-License-Identifier: BSD-3-Clause
# tools/: programs that are not benchmarks.
# mpigauge-rails: network devices and rails (multirail); hwloc only, no MPI.
bin_PROGRAMS += tools/mpigauge-rails
tools_mpigauge_rails_SOURCES = tools/mpigauge_rails.c
tools_mpigauge_rails_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
tools_mpigauge_rails_LDADD = util/libmgutil.a $(HWLOC_LIBS)

# mpigauge_screen: every pair of nodes (or ranks) in the rounds of a
# round-robin tournament; the slow nodes and links named (doc/screen.md).
# An MPI program, but not a benchmark of the driver: it has its own loop.
bin_PROGRAMS += tools/mpigauge_screen
tools_mpigauge_screen_SOURCES = tools/screen_main.c tools/screen_measure.c tools/screen_out.c \
	tools/screen.h
tools_mpigauge_screen_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/mpi/driver -I$(top_srcdir)/tools
tools_mpigauge_screen_LDADD = $(MG_LDADD)
