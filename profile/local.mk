# SPDX-License-Identifier: BSD-3-Clause
# profile/: libmgprofile, the PMPI library `mpigauge profile` preloads into
# the ranks of any MPI program (profile/mg_profile.c, doc/applications.md).
# Built with this build's MPI compiler, so one per ABI family; installed in
# $(pkglibdir), where the installed front-end looks for it.
profiledir = $(pkglibdir)
profile_DATA = profile/libmgprofile.so
MG_PROFILE_SRC = profile/mg_profile.c profile/mg_profile_wrap.c profile/mg_profile_calls.h
profile/libmgprofile.so: $(MG_PROFILE_SRC:%=$(srcdir)/%)
	$(AM_V_CC)$(MKDIR_P) profile && \
	$(CC) $(AM_CFLAGS) $(CFLAGS) -O2 -fPIC -shared -o $@ $(srcdir)/profile/mg_profile.c \
	    $(srcdir)/profile/mg_profile_wrap.c
CLEANFILES += profile/libmgprofile.so
EXTRA_DIST += $(MG_PROFILE_SRC)

# The test program of `mpigauge profile` (tests/profile.sh): a call mix
# known exactly. An MPI program without the driver.
check_PROGRAMS += tests/profile/profile_mix
tests_profile_profile_mix_SOURCES = tests/profile/profile_mix.c
tests_profile_profile_mix_LDADD =
