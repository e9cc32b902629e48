# SPDX-License-Identifier: BSD-3-Clause
# onesided/: the RMA programs. One program table and one descriptor
# (libmgrma.a) in one program, mpigauge_rma, which takes the program from
# the name it is started under: every name it answers to (mpigauge_rma
# --list-names) is a symbolic link to it, in the build tree and in
# $(bindir) (removed by make uninstall).
noinst_LIBRARIES += onesided/libmgrma.a
onesided_libmgrma_a_SOURCES = onesided/rma.h onesided/rma_bench.c onesided/rma_win.c \
	onesided/rma_kernel.c onesided/rma_verify.c
onesided_libmgrma_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/onesided

bin_PROGRAMS += onesided/mpigauge_rma
onesided_mpigauge_rma_SOURCES = onesided/main.c
onesided_mpigauge_rma_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/onesided
onesided_mpigauge_rma_LDADD = onesided/libmgrma.a $(MG_LDADD)

# The links: made after the program, from its own list of names (the hooks
# themselves are collective/local.mk's; these add to them).
onesided/links.stamp: onesided/mpigauge_rma$(EXEEXT)
	$(AM_V_GEN)names=`onesided/mpigauge_rma$(EXEEXT) --list-names` && \
	for n in $$names; do \
	    rm -f onesided/mpigauge_$$n && ln -s mpigauge_rma$(EXEEXT) onesided/mpigauge_$$n || exit 1; \
	done && echo "$$names" >$@
all-local: onesided/links.stamp
install-exec-hook: install-onesided-links
install-onesided-links: onesided/links.stamp
	for n in `cat onesided/links.stamp`; do \
	    rm -f $(DESTDIR)$(bindir)/mpigauge_$$n && \
	    $(LN_S) mpigauge_rma$(EXEEXT) $(DESTDIR)$(bindir)/mpigauge_$$n || exit 1; \
	done
uninstall-hook: uninstall-onesided-links
uninstall-onesided-links:
	for n in `cat onesided/links.stamp 2>/dev/null`; do rm -f $(DESTDIR)$(bindir)/mpigauge_$$n; done
clean-local: clean-onesided-links
clean-onesided-links:
	-for n in `cat onesided/links.stamp 2>/dev/null`; do rm -f onesided/mpigauge_$$n; done
	-rm -f onesided/links.stamp
.PHONY: clean-onesided-links install-onesided-links uninstall-onesided-links
