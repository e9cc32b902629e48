# SPDX-License-Identifier: BSD-3-Clause
# The parts of slurm.conf the test Slurms share (tests/slurm/slurm_local.sh,
# one node; tests/cluster/slurm_cluster.sh, the emulated two nodes), sourced.
#   slurm_conf_auth DIR MUNGE_SOCKET   users, munge, state folder
#   slurm_conf_policy TASK_PLUGIN MPI_DEFAULT   tracking, selection, no
#                                      accounting, timeouts
# MinJobAge=5: `sbatch --wait` polls every 2 s while MinJobAge/2 is not above
# 2 s, else it sleeps 2, 8, then 32 s between polls (src/sbatch/sbatch.c,
# _job_wait): a job of 11 s waited 42 s, one of 45 s 74 s. A finished
# job's record stays 5 s or more, longer than a poll.
slurm_conf_auth() {
    cat <<EOF2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$2
StateSaveLocation=$1/state
EOF2
}

slurm_conf_policy() {
    cat <<EOF2
# no cgroups: works in containers / VMs without delegated cgroup trees
ProctrackType=proctrack/linuxproc
TaskPlugin=$1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SwitchType=switch/none
MpiDefault=$2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
MinJobAge=5
EOF2
}
