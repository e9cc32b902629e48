# SPDX-License-Identifier: BSD-3-Clause
"""ReFrame site configuration for mpigauge's checks (contrib/reframe/README.md).

Two systems, both this machine:
* local: the local scheduler and the mpirun launcher;
* slurm: a Slurm cluster (the `squeue` scheduler, which needs no
  accounting database; the srun launcher), partition `debug`.
Two programming environments with the feature `mpigauge`: openmpi and
mpich, each with `extras.bindir`, the folder of that build's mpigauge
programs, an install's bindir or a build tree (from MPIGAUGE_OPENMPI_BINDIR
and MPIGAUGE_MPICH_BINDIR), and
`extras.srun_mpi`, the srun --mpi plugin of that library (pmix, pmi2).
`mpirun` in a job is the library's own launcher (Debian installs both as
mpirun.openmpi and mpiexec.mpich). The interleaved comparison of two builds
runs in the environment with the feature `mpigauge-frontend`. Copy and adapt: on a real cluster the
environments load modules instead (`modules: [...]`).
"""
import os


def bindir(flavour):
    return os.environ.get(f"MPIGAUGE_{flavour.upper()}_BINDIR", "")


ROOT_OK = [["OMPI_ALLOW_RUN_AS_ROOT", "1"], ["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"]]

site_configuration = {
    "systems": [
        {
            "name": "local",
            "descr": "this machine: local scheduler, mpirun",
            "hostnames": [".*"],
            "partitions": [{
                "name": "default",
                "descr": "the local node",
                "scheduler": "local",
                "launcher": "mpirun",
                "environs": ["openmpi", "mpich"],
                "max_jobs": 1,
            }],
        },
        {
            "name": "slurm",
            "descr": "a Slurm cluster: squeue scheduler, srun",
            "hostnames": [".*"],
            "partitions": [{
                "name": "debug",
                "descr": "Slurm partition debug",
                "scheduler": "squeue",
                "launcher": "srun",
                "access": ["--partition=debug"],
                "environs": ["openmpi", "mpich"],
                "max_jobs": 1,
            }],
        },
    ],
    "environments": [
        {
            "name": "openmpi",
            "features": ["mpigauge", "mpigauge-frontend"],
            "env_vars": ROOT_OK,
            "prepare_cmds": ['mpirun() { mpirun.openmpi --oversubscribe "$@"; }'],
            "extras": {"bindir": bindir("openmpi"), "srun_mpi": "pmix"},
        },
        {
            "name": "mpich",
            "features": ["mpigauge"],
            "prepare_cmds": ['mpirun() { mpiexec.mpich "$@"; }'],
            "extras": {"bindir": bindir("mpich"), "srun_mpi": "pmi2"},
        },
    ],
    "general": [{}],
}
