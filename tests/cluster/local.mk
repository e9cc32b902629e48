# SPDX-License-Identifier: BSD-3-Clause
# tests/cluster/: an emulated two-node, two-rail cluster (network namespaces,
# veth rails shaped to 1 Gbit/s) and the short multirail test on it; three
# nodes on a switch for the slow-host test.
# `make check-cluster` runs it with every build in MG_CLUSTER_BUILDS (default:
# this one); needs root, iproute2 (ip, tc) and util-linux (unshare, nsenter),
# prints "1..0 # SKIP ..." where network namespaces are not available.
# The long acceptance measurement is bench/multirail.sh (doc/multirail.md).
EXTRA_DIST += tests/cluster/netns-cluster.sh tests/cluster/netns-cluster-help.sh tests/cluster/netns-cluster-launch.sh \
	tests/cluster/check_cluster.sh tests/cluster/slurm_cluster.sh \
	tests/cluster/check_slurm_cluster.sh tests/cluster/claim.sh tests/cluster/netns-cluster-rails.sh \
	tests/cluster/check_slow_link.sh tests/cluster/check_screen.sh tests/cluster/switch_check.sh

MG_CLUSTER_BUILDS = $(abs_top_builddir)
# Then the slow host named: three nodes on a switch, one node's link slowed
# (tests/cluster/check_slow_link.sh); and the all-pairs screen on four nodes
# on a switch: a slowed node, a slowed link, nothing (check_screen.sh).
check-cluster: $(bin_PROGRAMS)
	rc=0; bash $(srcdir)/tests/cluster/check_cluster.sh $(MG_CLUSTER_BUILDS) || rc=$$?; \
	if [ $$rc -ne 77 ]; then PYTHON="$(PYTHON)" bash $(srcdir)/tests/cluster/check_slow_link.sh \
	    $(MG_CLUSTER_BUILDS) || { s=$$?; [ $$s -eq 77 ] || rc=1; }; \
	    PYTHON="$(PYTHON)" bash $(srcdir)/tests/cluster/check_screen.sh \
	    $(MG_CLUSTER_BUILDS) || { s=$$?; [ $$s -eq 77 ] || rc=1; }; fi; exit $$rc

# A two-node Slurm on the emulated cluster (slurmctld on the head, slurmd in
# each node): srun -N 2 with both plugins, the sbatch templates, mpigauge run
# in a two-node allocation (tests/cluster/check_slurm_cluster.sh).
check-slurm-cluster: $(bin_PROGRAMS) $(MG_FRONTEND)
	bash $(srcdir)/tests/cluster/check_slurm_cluster.sh $(MG_CLUSTER_BUILDS)

.PHONY: check-cluster check-slurm-cluster
