# SPDX-License-Identifier: BSD-3-Clause
# util/: plain C, no MPI; covered by the GoogleTest unit tests.
noinst_LIBRARIES += util/libmgutil.a
util_libmgutil_a_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
util_libmgutil_a_SOURCES = \
	util/mg_exit.h \
	util/mg_binding.c util/mg_binding.h \
	util/mg_graph.c util/mg_graph.h \
	util/mg_guard.c util/mg_guard.h \
	util/mg_hostcost.c util/mg_hostcost.h \
	util/mg_group.c util/mg_group.h \
	util/mg_arrival.c util/mg_arrival.h \
	util/mg_noise.c util/mg_noise.h \
	util/mg_clocksync.c util/mg_clocksync.h \
	util/mg_coll.c util/mg_coll.h \
	util/mg_compute.c util/mg_compute.h \
	util/mg_json.c util/mg_json.h \
	util/mg_kv.c util/mg_kv.h \
	util/mg_layout.c util/mg_layout.h \
	util/mg_netdev.c util/mg_netdev.h \
	util/mg_nodestate.c util/mg_nodestate.h \
	util/mg_turnspec.c util/mg_turnspec.h \
	util/mg_opts.c util/mg_opts.h \
	util/mg_overlap.c util/mg_overlap.h \
	util/mg_matrix.c util/mg_matrix.h \
	util/mg_memlimit.c util/mg_memlimit.h \
	util/mg_footprint.c util/mg_footprint.h \
	util/mg_opts_json.c util/mg_opts_json.h \
	util/mg_outfile.c util/mg_outfile.h \
	util/mg_outname.c util/mg_outname.h \
	util/mg_pairing.c util/mg_pairing.h \
	util/mg_screen.c util/mg_screen.h \
	util/mg_linkrate.c util/mg_linkrate.h \
	util/mg_pattern.c util/mg_pattern.h \
	util/mg_policy.c util/mg_policy.h \
	util/mg_rails.c util/mg_rails.h \
	util/mg_report.c util/mg_report_imb.c util/mg_report_osu.c util/mg_report.h \
	util/mg_text.c util/mg_text.h \
	util/mg_secret.c util/mg_secret.h \
	util/mg_sink.c util/mg_sink.h \
	util/mg_size.c util/mg_size.h \
	util/mg_stats.c util/mg_stats.h \
	util/mg_tpool.c util/mg_tpool.h
