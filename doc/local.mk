# SPDX-License-Identifier: BSD-3-Clause
# doc/: method and format pages, installed with the programs.
dist_doc_DATA += doc/output.md doc/mpit.md doc/pt2pt.md doc/measurement.md doc/overlap.md doc/collectives.md doc/guidelines.md doc/screen.md doc/onesided.md \
	doc/threads.md doc/startup.md doc/history.md doc/datatypes.md doc/osu.md doc/import.md doc/packaging.md doc/tuning.md doc/footprint.md \
	doc/develop.md doc/releases.md doc/README.md doc/programs.md doc/options.md \
	doc/multirail.md doc/multirail.png doc/ranks_sweep.png doc/footprint.png doc/releases-dashboard.png

# The option tables of doc/options.md and doc/multirail.md and the catalogue
# of doc/programs.md are made from the
# programs' own rows (`--help --format json`): `make option-tables` rewrites
# them in the source tree; tests/option_tables.sh (make check) fails when
# they differ from the programs of this build.
OPTION_DOCS = doc/options.md doc/programs.md doc/multirail.md
EXTRA_DIST += doc/option_tables.py
option-tables: all
	cd $(srcdir) && $(PYTHON) doc/option_tables.py \
	    --bindir $(abs_top_builddir) --write $(OPTION_DOCS)
.PHONY: option-tables

# Man pages (section 1), one per program, each benchmark name, mpigauge-rails,
# mpigauge and each of its commands (mpigauge-run, ...): made by help2man from
# the programs' own --help when they are built (doc/man.sh), installed in
# $(man1dir); man/pages.list names them. tests/man_pages.sh checks them.
EXTRA_DIST += doc/man.sh
# (Automake defines man1dir only for man1_MANS, which a generated list cannot be)
man1dir = $(mandir)/man1
MG_MAN_LIST =
if MG_HAVE_HELP2MAN
MG_MAN_LIST += man/pages.list
endif
man/pages.list: $(bin_PROGRAMS) collective/links.stamp onesided/links.stamp $(MG_FRONTEND) \
		$(srcdir)/doc/man.sh
	$(AM_V_GEN)$(SHELL) $(srcdir)/doc/man.sh $(abs_top_builddir) man '$(VERSION)' '$(docdir)' >/dev/null
all-local: $(MG_MAN_LIST)
install-data-local: install-man-pages
install-man-pages: $(MG_MAN_LIST)
	@for n in `cat $(MG_MAN_LIST) /dev/null`; do \
	    $(MKDIR_P) $(DESTDIR)$(man1dir) && \
	    $(INSTALL_DATA) man/$$n.1 $(DESTDIR)$(man1dir)/$$n.1 || exit 1; \
	done
uninstall-local: uninstall-man-pages
uninstall-man-pages:
	-for n in `cat man/pages.list 2>/dev/null`; do rm -f $(DESTDIR)$(man1dir)/$$n.1; done
clean-local: clean-man-pages
clean-man-pages:
	-rm -rf man man.tmp
.PHONY: install-man-pages uninstall-man-pages clean-man-pages
