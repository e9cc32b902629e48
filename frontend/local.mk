# SPDX-License-Identifier: BSD-3-Clause
# frontend/: the `mpigauge` command (Python 3; run/compare/report use only the
# standard library, plot needs matplotlib): the package frontend/mpigauge/
# (installed in Python's site folder with Automake's Python support), the
# script that starts it, its suite files, the Slurm test.
# The package by its layers (frontend/mpigauge/__init__.py: LAYERS), each
# sub-package installed in its own folder under $(pkgpythondir).
pkgpython_PYTHON = \
	frontend/mpigauge/__init__.py frontend/mpigauge/__main__.py frontend/mpigauge/cli.py
mgpy_coredir = $(pkgpythondir)/core
mgpy_core_PYTHON = \
	frontend/mpigauge/core/__init__.py frontend/mpigauge/core/common.py \
	frontend/mpigauge/core/schema.py frontend/mpigauge/core/stats.py \
	frontend/mpigauge/core/tdist.py
mgpy_datadir = $(pkgpythondir)/data
mgpy_data_PYTHON = \
	frontend/mpigauge/data/__init__.py frontend/mpigauge/data/cvars.py \
	frontend/mpigauge/data/hostcost.py frontend/mpigauge/data/import_cli.py \
	frontend/mpigauge/data/importer.py frontend/mpigauge/data/regimes.py \
	frontend/mpigauge/data/results.py frontend/mpigauge/data/samples.py
mgpy_launchdir = $(pkgpythondir)/launch
mgpy_launch_PYTHON = \
	frontend/mpigauge/launch/__init__.py frontend/mpigauge/launch/catalogue.py \
	frontend/mpigauge/launch/launch.py frontend/mpigauge/launch/launcher.py \
	frontend/mpigauge/launch/mpilib.py frontend/mpigauge/launch/outcome.py \
	frontend/mpigauge/launch/programs.py frontend/mpigauge/launch/progress.py \
	frontend/mpigauge/launch/resultsfile.py frontend/mpigauge/launch/runplan.py \
	frontend/mpigauge/launch/steps.py frontend/mpigauge/launch/suite.py
mgpy_verdictdir = $(pkgpythondir)/verdict
mgpy_verdict_PYTHON = \
	frontend/mpigauge/verdict/__init__.py frontend/mpigauge/verdict/allocations.py \
	frontend/mpigauge/verdict/compare.py \
	frontend/mpigauge/verdict/options.py frontend/mpigauge/verdict/sequential.py \
	frontend/mpigauge/verdict/tuning.py frontend/mpigauge/verdict/verdicts.py
mgpy_modeldir = $(pkgpythondir)/model
mgpy_model_PYTHON = \
	frontend/mpigauge/model/__init__.py frontend/mpigauge/model/hockney.py \
	frontend/mpigauge/model/limits.py frontend/mpigauge/model/summary.py \
	frontend/mpigauge/model/paramverdict.py frontend/mpigauge/model/smpi.py \
	frontend/mpigauge/model/smpi_cli.py frontend/mpigauge/model/loggp.py \
	frontend/mpigauge/model/loggp_cli.py frontend/mpigauge/model/collectives.py \
	frontend/mpigauge/model/collectives_cli.py frontend/mpigauge/model/scaling.py \
	frontend/mpigauge/model/scaling_report.py frontend/mpigauge/model/scaling_compare.py
mgpy_lookdir = $(pkgpythondir)/look
mgpy_look_PYTHON = \
	frontend/mpigauge/look/__init__.py frontend/mpigauge/look/overview.py \
	frontend/mpigauge/look/plot.py frontend/mpigauge/look/plot_cli.py \
	frontend/mpigauge/look/ranks.py frontend/mpigauge/look/render.py \
	frontend/mpigauge/look/report.py frontend/mpigauge/look/report_cli.py \
	frontend/mpigauge/look/trendchart.py
mgpy_measuredir = $(pkgpythondir)/measure
mgpy_measure_PYTHON = \
	frontend/mpigauge/measure/__init__.py frontend/mpigauge/measure/configs.py \
	frontend/mpigauge/measure/run_cli.py frontend/mpigauge/measure/runner.py \
	frontend/mpigauge/measure/runrequest.py frontend/mpigauge/measure/sbatch.py \
	frontend/mpigauge/measure/selftest.py frontend/mpigauge/measure/selftest_cli.py
mgpy_appsdir = $(pkgpythondir)/apps
mgpy_apps_PYTHON = \
	frontend/mpigauge/apps/__init__.py frontend/mpigauge/apps/app.py \
	frontend/mpigauge/apps/app_cli.py frontend/mpigauge/apps/mpip.py \
	frontend/mpigauge/apps/predict.py frontend/mpigauge/apps/profile.py \
	frontend/mpigauge/apps/profile_cli.py
mgpy_judgedir = $(pkgpythondir)/judge
mgpy_judge_PYTHON = \
	frontend/mpigauge/judge/__init__.py frontend/mpigauge/judge/best.py \
	frontend/mpigauge/judge/best_cli.py frontend/mpigauge/judge/compare_cli.py \
	frontend/mpigauge/judge/cvars_cli.py frontend/mpigauge/judge/guidelines.py \
	frontend/mpigauge/judge/model_cli.py frontend/mpigauge/judge/allocation_screen.py \
	frontend/mpigauge/judge/guidelines_cli.py
mgpy_historydir = $(pkgpythondir)/history
mgpy_history_PYTHON = \
	frontend/mpigauge/history/__init__.py frontend/mpigauge/history/dashboard.py \
	frontend/mpigauge/history/dashboard_cli.py frontend/mpigauge/history/history.py \
	frontend/mpigauge/history/history_cli.py frontend/mpigauge/history/history_read.py
mgpy_releasesdir = $(pkgpythondir)/releases
mgpy_releases_PYTHON = \
	frontend/mpigauge/releases/__init__.py frontend/mpigauge/releases/mpi_cli.py \
	frontend/mpigauge/releases/series.py frontend/mpigauge/releases/series_cli.py \
	frontend/mpigauge/releases/series_folder.py frontend/mpigauge/releases/series_history.py \
	frontend/mpigauge/releases/series_report.py
mgpy_screendir = $(pkgpythondir)/screen
mgpy_screen_PYTHON = \
	frontend/mpigauge/screen/__init__.py frontend/mpigauge/screen/screen.py \
	frontend/mpigauge/screen/screen_cli.py
suitesdir = $(pkgdatadir)/suites
dist_suites_DATA = \
	frontend/suites/quick.txt \
	frontend/suites/pt2pt.txt \
	frontend/suites/collectives.txt \
	frontend/suites/onesided.txt \
	frontend/suites/overlap.txt \
	frontend/suites/full.txt
dist_doc_DATA += doc/slurm.md doc/compare.md
# The build tree's script, $(MG_FRONTEND), is named by its absolute path:
# the relative name is also the package's folder in the source tree, which
# make's VPATH search takes for the target (up to date whenever the folder
# is newer than the Makefile, as after an editor's save): it was never made.
all-local: $(MG_FRONTEND)
CLEANFILES += frontend/mpigauge frontend/mpigauge-installed

# The script, substituted at make time (not by configure), as the Automake
# manual recommends for scripts: in the build tree it runs the package of the
# source tree; installed ($(bindir)/mpigauge) the one in $(pythondir).
MG_FRONTEND_SED = $(SED) -e 's|@VERSION[@]|$(VERSION)|g' -e 's|@bindir[@]|$(bindir)|g' \
	-e 's|@suitesdir[@]|$(suitesdir)|g' \
	-e 's|@srcsuitesdir[@]|$(abs_top_srcdir)/frontend/suites|g'
$(MG_FRONTEND): $(srcdir)/frontend/mpigauge.py Makefile
	$(AM_V_GEN)$(MKDIR_P) frontend && rm -f $@ $@.tmp && \
	$(MG_FRONTEND_SED) -e 's|@pkgparent[@]|$(abs_top_srcdir)/frontend|g' \
	    -e 's|@osudir[@]|$(abs_top_builddir)/osu|g' \
	    -e 's|@profiledir[@]|$(abs_top_builddir)/profile|g' \
	    $(srcdir)/frontend/mpigauge.py >$@.tmp && chmod +x $@.tmp && mv $@.tmp $@
frontend/mpigauge-installed: $(srcdir)/frontend/mpigauge.py Makefile
	$(AM_V_GEN)$(MKDIR_P) frontend && rm -f $@ $@.tmp && \
	$(MG_FRONTEND_SED) -e 's|@pkgparent[@]|$(pythondir)|g' \
	    -e 's|@osudir[@]|$(pkglibexecdir)/osu|g' \
	    -e 's|@profiledir[@]|$(pkglibdir)|g' \
	    $(srcdir)/frontend/mpigauge.py >$@.tmp && chmod +x $@.tmp && mv $@.tmp $@
all-local: frontend/mpigauge-installed
install-exec-local: frontend/mpigauge-installed
	$(MKDIR_P) $(DESTDIR)$(bindir)
	$(INSTALL_SCRIPT) frontend/mpigauge-installed $(DESTDIR)$(bindir)/mpigauge
uninstall-local:
	rm -f $(DESTDIR)$(bindir)/mpigauge

EXTRA_DIST += frontend/mpigauge.py \
	tests/frontend/run_unit_tests.sh \
	tests/frontend/test_stats.py tests/frontend/test_verdict.py \
	tests/frontend/test_suite.py tests/frontend/test_tables.py \
	tests/frontend/test_runner.py tests/frontend/test_sbatch.py tests/frontend/test_allocations.py tests/frontend/test_sequential.py tests/frontend/fakerun.py tests/frontend/test_runrequest.py tests/frontend/helpers.py \
	tests/frontend/test_paired.py tests/frontend/test_configs.py tests/frontend/test_safety.py \
	tests/frontend/test_interleaved.py tests/frontend/golden/compare.jsonl \
	tests/frontend/test_history.py tests/frontend/test_mpilib.py tests/frontend/test_tuning.py \
	tests/frontend/test_import.py tests/frontend/test_model.py tests/frontend/test_smpi.py \
	tests/frontend/test_loggp.py tests/frontend/test_collective_model.py \
	tests/frontend/test_scaling.py \
	tests/frontend/tap.py tests/frontend/unit_tests.sh \
	tests/frontend/data/base.jsonl tests/frontend/data/new.jsonl \
	tests/frontend/test_catalogue.py tests/frontend/test_cli_help.py tests/frontend/test_cvars.py \
	tests/frontend/test_guidelines.py tests/frontend/test_hostcost.py \
	tests/frontend/test_inputs_outputs.py tests/frontend/test_ranks.py tests/frontend/test_samples.py \
	tests/frontend/test_series.py tests/frontend/test_screen.py tests/frontend/test_profile.py tests/frontend/test_app.py tests/frontend/test_runner_death.py tests/frontend/data/mix.mpiP \
	tests/frontend/data/screen-healthy.jsonl tests/frontend/data/screen-link.jsonl \
	tests/frontend/data/screen-node.jsonl \
	tests/frontend/golden/compare.md \
	tests/frontend/e2e.sh \
	tests/slurm/check_slurm.sh tests/slurm/slurm_local.sh tests/slurm/slurm_conf.sh tests/tap.sh \
	examples/slurm/pt2pt-2nodes.sbatch \
	examples/slurm/collectives-full.sbatch \
	examples/slurm/regression-two-builds.sbatch \
	examples/nightly/nightly.sbatch \
	contrib/reframe/README.md contrib/reframe/mpigauge_checks.py \
	contrib/reframe/config/mpigauge_config.py contrib/reframe/references/this-machine.json \
	tests/reframe/check_reframe.sh tests/reframe/osu_stock_check.py scripts/requirements-reframe.txt

# Front-end unit tests (Python unittest); also run by scripts/test.sh.
check-frontend:
	PYTHONDONTWRITEBYTECODE=1 $(PYTHON) -m unittest discover -s $(srcdir)/tests/frontend -p 'test_*.py' -v

# A real single-node Slurm (munged, slurmctld, slurmd in a temporary folder),
# `mpigauge run --launcher srun` with every build in MG_SLURM_BUILDS (default:
# this one). Needs root and the Debian packages slurm-wlm and munge.
MG_SLURM_BUILDS = $(abs_top_builddir)
check-slurm: $(MG_FRONTEND)
	$(SHELL) $(srcdir)/tests/slurm/check_slurm.sh $(MG_SLURM_BUILDS)

.PHONY: check-frontend check-slurm
