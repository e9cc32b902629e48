# SPDX-License-Identifier: BSD-3-Clause
# tools/: programs that are not benchmarks.
# mpigauge-rails: network devices and rails (multirail); hwloc only, no MPI.
bin_PROGRAMS += tools/mpigauge-rails
tools_mpigauge_rails_SOURCES = tools/mpigauge_rails.c
tools_mpigauge_rails_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
tools_mpigauge_rails_LDADD = util/libmgutil.a $(HWLOC_LIBS)
