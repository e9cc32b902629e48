# frontend/: the `mpigauge` command (Python 3; run/compare/report use only the
# standard library, plot needs matplotlib), its suite files, the Slurm test.
bin_SCRIPTS = frontend/mpigauge
suitesdir = $(pkgdatadir)/suites
dist_suites_DATA = \
	frontend/suites/quick.txt \
	frontend/suites/pt2pt.txt \
	frontend/suites/collectives.txt \
	frontend/suites/overlap.txt \
	frontend/suites/full.txt
dist_doc_DATA += doc/slurm.md doc/compare.md
CLEANFILES = frontend/mpigauge

# Installation folders are substituted at make time (not by configure), as
# the Automake manual recommends for scripts.
frontend/mpigauge: $(srcdir)/frontend/mpigauge.py Makefile
	$(AM_V_GEN)$(MKDIR_P) frontend && rm -f $@ $@.tmp && \
	$(SED) -e 's|@VERSION[@]|$(VERSION)|g' \
	    -e 's|@bindir[@]|$(bindir)|g' \
	    -e 's|@suitesdir[@]|$(suitesdir)|g' \
	    -e 's|@srcsuitesdir[@]|$(abs_top_srcdir)/frontend/suites|g' \
	    $(srcdir)/frontend/mpigauge.py >$@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

EXTRA_DIST += frontend/mpigauge.py \
	tests/frontend/run_unit_tests.sh \
	tests/frontend/test_stats.py tests/frontend/test_verdict.py \
	tests/frontend/test_suite.py tests/frontend/test_tables.py \
	tests/frontend/test_runner.py tests/frontend/helpers.py \
	tests/frontend/data/base.jsonl tests/frontend/data/new.jsonl \
	tests/frontend/golden/compare.md \
	tests/frontend/e2e.sh \
	tests/slurm/check_slurm.sh tests/slurm/slurm_local.sh \
	examples/slurm/pt2pt-2nodes.sbatch \
	examples/slurm/collectives-full.sbatch \
	examples/slurm/regression-two-builds.sbatch

# Front-end unit tests (Python unittest); also run by scripts/test.sh.
check-frontend:
	PYTHONDONTWRITEBYTECODE=1 $(PYTHON) -m unittest discover -s $(srcdir)/tests/frontend -p 'test_*.py' -v

# A real single-node Slurm (munged, slurmctld, slurmd in a temporary folder),
# `mpigauge run --launcher srun` with every build in MG_SLURM_BUILDS (default:
# this one). Needs root and the Debian packages slurm-wlm and munge.
MG_SLURM_BUILDS = $(abs_top_builddir)
check-slurm: frontend/mpigauge
	$(SHELL) $(srcdir)/tests/slurm/check_slurm.sh $(MG_SLURM_BUILDS)

.PHONY: check-frontend check-slurm
