# SPDX-License-Identifier: BSD-3-Clause
# collective/: the collective programs. One ops table and one descriptor
# (libmgcoll.a) in one program, mpigauge_coll, which takes the operation and
# its form from the name it is started under: every name it answers to
# (mpigauge_coll --list-names: blocking, non-blocking "i..." and, where
# configure found MPI-4 persistent collectives, "..._init") is a symbolic link
# to it, in the build tree and in $(bindir) (removed by make uninstall).
noinst_LIBRARIES += collective/libmgcoll.a
collective_libmgcoll_a_SOURCES = collective/mg_collective.h collective/coll_int.h \
	collective/coll_base.c collective/coll_kernel.c collective/coll_verify.c collective/coll_bench.c collective/ops.c \
	collective/coll_neighbor.c collective/coll_sweep.c collective/coll_dtype.c \
	collective/coll_multi.c
collective_libmgcoll_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/collective

bin_PROGRAMS += collective/mpigauge_coll
collective_mpigauge_coll_SOURCES = collective/main.c
collective_mpigauge_coll_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/collective
collective_mpigauge_coll_LDADD = collective/libmgcoll.a $(MG_LDADD)

# The links: made after the program, from its own list of names.
collective/links.stamp: collective/mpigauge_coll$(EXEEXT)
	$(AM_V_GEN)names=`collective/mpigauge_coll$(EXEEXT) --list-names` && \
	for n in $$names; do \
	    rm -f collective/mpigauge_$$n && ln -s mpigauge_coll$(EXEEXT) collective/mpigauge_$$n || exit 1; \
	done && echo "$$names" >$@
all-local: collective/links.stamp
install-exec-hook: collective/links.stamp
	for n in `cat collective/links.stamp`; do \
	    rm -f $(DESTDIR)$(bindir)/mpigauge_$$n && \
	    $(LN_S) mpigauge_coll$(EXEEXT) $(DESTDIR)$(bindir)/mpigauge_$$n || exit 1; \
	done
uninstall-hook:
	for n in `cat collective/links.stamp 2>/dev/null`; do rm -f $(DESTDIR)$(bindir)/mpigauge_$$n; done
clean-local: clean-collective-links
clean-collective-links:
	-for n in `cat collective/links.stamp 2>/dev/null`; do rm -f collective/mpigauge_$$n; done
	-rm -f collective/links.stamp
.PHONY: clean-collective-links

bin_PROGRAMS += collective/mpigauge_comm_create
collective_mpigauge_comm_create_SOURCES = collective/comm_create.c

# Self-consistent performance guidelines: a collective against its mock-up,
# both sides in one launch (doc/guidelines.md).
bin_PROGRAMS += collective/mpigauge_guidelines
collective_mpigauge_guidelines_SOURCES = collective/guidelines.c
collective_mpigauge_guidelines_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/collective
collective_mpigauge_guidelines_LDADD = collective/libmgcoll.a $(MG_LDADD)
