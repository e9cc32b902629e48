# SPDX-License-Identifier: BSD-3-Clause
# osu/: the OSU drop-in (doc/osu.md). A link osu_NAME per OSU Micro-Benchmarks
# name mpigauge answers to, to the program that measures it: in the build
# tree osu/ (links into pt2pt/, collective/, onesided/), installed
# $(pkglibexecdir)/osu/ (links to $(bindir)), which `mpigauge --osu-dir`
# prints. The names come from the programs (`--osu-names`); a program this
# build lacks has no link.
MG_OSU_DIRS = pt2pt collective onesided
osu/links.stamp: $(bin_PROGRAMS) collective/links.stamp onesided/links.stamp
	$(AM_V_GEN)$(MKDIR_P) osu && rm -f osu/osu_* && : >$@.tmp && \
	pt2pt/mpigauge_latency$(EXEEXT) --osu-names | while read -r osu prog bench; do \
	    for d in $(MG_OSU_DIRS); do \
	        if [ -e $$d/$$prog ]; then \
	            ln -s ../$$d/$$prog osu/$$osu && echo "$$osu $$prog" >>$@.tmp || exit 1; break; \
	        fi; \
	    done; \
	done && mv $@.tmp $@
all-local: osu/links.stamp
install-exec-hook: install-osu-links
install-osu-links: osu/links.stamp
	$(MKDIR_P) $(DESTDIR)$(pkglibexecdir)/osu
	while read -r osu prog; do \
	    rm -f $(DESTDIR)$(pkglibexecdir)/osu/$$osu && \
	    $(LN_S) $(bindir)/$$prog $(DESTDIR)$(pkglibexecdir)/osu/$$osu || exit 1; \
	done <osu/links.stamp
uninstall-hook: uninstall-osu-links
uninstall-osu-links:
	-while read -r osu prog; do rm -f $(DESTDIR)$(pkglibexecdir)/osu/$$osu; done <osu/links.stamp
	-rmdir $(DESTDIR)$(pkglibexecdir)/osu $(DESTDIR)$(pkglibexecdir) 2>/dev/null
clean-local: clean-osu-links
clean-osu-links:
	-rm -f osu/osu_* osu/links.stamp osu/links.stamp.tmp
	-rmdir osu 2>/dev/null
.PHONY: install-osu-links uninstall-osu-links clean-osu-links
