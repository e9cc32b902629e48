# SPDX-License-Identifier: BSD-3-Clause
# bench/: libmgslow, the PMPI library that injects a chosen slowdown for
# `mpigauge selftest` (bench/mg_slow.c). Built with the MPI compiler of this
# build by `make`, never installed.
noinst_DATA = bench/libmgslow.so
bench/libmgslow.so: $(srcdir)/bench/mg_slow.c
	$(AM_V_CC)$(MKDIR_P) bench && \
	$(CC) $(AM_CFLAGS) $(CFLAGS) -O2 -fPIC -shared -o $@ $(srcdir)/bench/mg_slow.c
CLEANFILES += bench/libmgslow.so
EXTRA_DIST += bench/mg_slow.c bench/selftest.sh bench/smpi_check.sh bench/smpi_table.py bench/smpi/smpi_p2p.c bench/onesided.py bench/frontend_scale.py bench/persistent.py \
	bench/mgbench.py bench/catalogue.py bench/osu_side_by_side.py bench/matching.sh bench/protocol_switch.sh bench/tuning.sh bench/footprint.sh bench/p2p_patterns.sh bench/run_env.sh bench/coll_dtype.sh bench/coll_multi.sh bench/samples_period.sh bench/build_osu.sh bench/ranks_sweep.sh bench/history_scale.py \
	bench/release_study.sh bench/series_trust.py bench/scaling_steps.py bench/allocation_trust.sh bench/arrival.py bench/yield_by_release.sh bench/mpich5_yield.sh bench/part_window.c bench/part_pingpong.c bench/session_then_init.c bench/module_graph.py bench/call_cost.sh bench/release_dashboard.sh bench/release_history.py bench/unclear_why.py bench/releases/pt2pt.txt bench/releases/coll2.txt \
	bench/releases/coll4.txt bench/releases/onesided.txt bench/releases/overlap.txt \
	bench/releases/series.txt bench/releases/mpich_why.txt bench/releases/impi_why.txt bench/releases/impi_bw.txt bench/releases/impi_kernel.txt bench/releases/mpich_rma_why.txt bench/releases/ompi_coll4_why.txt bench/releases/impi_coll4_why.txt bench/releases/ompi_rndv.txt \
	bench/copy_bias.py bench/mpit_bcast_by_release.sh bench/mpit_finalize_bcast.c bench/progress_poll.c bench/progress_by_release.sh bench/release_cc.sh bench/screen_trials.sh \
	bench/guidelines_study.sh bench/guideline_repro.c \
	bench/profile_overhead.sh bench/profile_predict.sh bench/app_study.sh bench/apps/in.melt bench/apps/preload.sh bench/apps/install.sh \
	bench/releases/ompi.toml bench/releases/mpich.toml bench/releases/impls.toml bench/releases/abi.toml bench/ramble_osu.py bench/ramble_mpigauge.py \
	contrib/ramble/repo.yaml contrib/ramble/applications/mpigauge/application.py \
	contrib/benchpark/experiments/mpigauge/mpi-only/ramble.yaml
