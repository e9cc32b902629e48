# SPDX-License-Identifier: BSD-3-Clause
# tests/cluster/: an emulated two-node, two-rail cluster (network namespaces,
# veth rails shaped to 1 Gbit/s) and the short multirail test on it.
# `make check-cluster` runs it with every build in MG_CLUSTER_BUILDS (default:
# this one); needs root, iproute2 (ip, tc) and util-linux (unshare, nsenter),
# prints "1..0 # SKIP ..." where network namespaces are not available.
# The long acceptance measurement is bench/multirail.sh (doc/multirail.md).
EXTRA_DIST += tests/cluster/netns-cluster.sh tests/cluster/netns-cluster-help.sh tests/cluster/netns-cluster-launch.sh \
	tests/cluster/check_cluster.sh tests/cluster/slurm_cluster.sh \
	tests/cluster/check_slurm_cluster.sh tests/cluster/claim.sh

MG_CLUSTER_BUILDS = $(abs_top_builddir)
check-cluster: $(bin_PROGRAMS)
	bash $(srcdir)/tests/cluster/check_cluster.sh $(MG_CLUSTER_BUILDS)

# A two-node Slurm on the emulated cluster (slurmctld on the head, slurmd in
# each node): srun -N 2 with both plugins, the sbatch templates, mpigauge run
# in a two-node allocation (tests/cluster/check_slurm_cluster.sh).
check-slurm-cluster: $(bin_PROGRAMS) frontend/mpigauge
	bash $(srcdir)/tests/cluster/check_slurm_cluster.sh $(MG_CLUSTER_BUILDS)

.PHONY: check-cluster check-slurm-cluster
