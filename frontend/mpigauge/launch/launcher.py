# SPDX-License-Identifier: BSD-3-Clause
"""The launcher's command line and environment for one launch: mpirun,
mpiexec, srun or a command of the user's."""
import os
import shutil
import subprocess

from ..core.common import UsageError, split_words

SRUN_MPI_PLUGIN = {"openmpi": "pmix", "mpich": "pmi2"}


def in_slurm_allocation():
    return bool(os.environ.get("SLURM_JOB_ID")) and shutil.which("srun") is not None


# The allocation's Slurm job variables, each under its member: the run
# records' "allocation" (mpi/record/mg_facts.c lists the same) and the
# session record's.
ALLOCATION_VARS = (("job_id", "SLURM_JOB_ID"), ("array_job_id", "SLURM_ARRAY_JOB_ID"),
                   ("array_task_id", "SLURM_ARRAY_TASK_ID"), ("step_id", "SLURM_STEP_ID"),
                   ("nodelist", "SLURM_JOB_NODELIST"), ("num_nodes", "SLURM_JOB_NUM_NODES"),
                   ("partition", "SLURM_JOB_PARTITION"), ("constraint", "SLURM_JOB_CONSTRAINTS"),
                   ("cluster", "SLURM_CLUSTER_NAME"))


def allocation_record(env=None, ask=None):
    """The batch allocation the front-end runs in ({"scheduler": "slurm",
    "job_id": ..., the variables that are set}), or None outside a job. The
    constraint, where the job's environment lacks it (Slurm 22.05 does not
    set SLURM_JOB_CONSTRAINTS), is the job's Features as `scontrol show job`
    gives them; ask(argv) -> its output (None: run it, 10 s at most)."""
    env = os.environ if env is None else env
    if not env.get("SLURM_JOB_ID"):
        return None
    rec = {"scheduler": "slurm"}
    rec.update((k, env[v]) for k, v in ALLOCATION_VARS if env.get(v))
    if "constraint" not in rec:
        feat = _job_features(env["SLURM_JOB_ID"], ask or _scontrol)
        if feat:
            rec["constraint"] = feat
    return rec


def _scontrol(argv):
    if shutil.which(argv[0]) is None:
        return ""
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return p.stdout if p.returncode == 0 else ""


def _job_features(job, ask):
    """The Features= of `scontrol show job -o JOB` ("" when none)."""
    for word in ask(["scontrol", "show", "job", "-o", job]).split():
        if word.startswith("Features="):
            value = word[len("Features="):]
            return "" if value in ("(null)", "") else value
    return ""


def _first_on_path(names):
    for n in names:
        if shutil.which(n):
            return n
    return names[-1]


def _major(release):
    """5 of "5.0.11"; 0 when not known."""
    head = str(release or "").split(".")[0]
    return int(head) if head.isdigit() else 0


def launcher_argv(launcher, flavour, n, ncpus=None, path=None, release=None, impl=None):
    """The command line prefix that starts n ranks of a program built with
    `flavour` ('openmpi' or 'mpich', the launch family). launcher: mpirun or
    mpiexec (the MPI's own launcher: `path`, found by mpilib from the
    library the program loads; Debian's names when path is None), srun (with
    the --mpi plugin that works for the flavour), or a command line of your
    own ("{n}" is replaced by the rank count; without "{n}", "-n N" is
    appended). release: the library's release (Open MPI 5's prterun spells
    oversubscription --map-by :OVERSUBSCRIBE); impl: the launcher's
    implementation ("impi": Intel MPI pins ranks itself, I_MPI_PIN, and the
    Hydra of 2021.13 has no -bind-to at all)."""
    ncpus = ncpus or os.cpu_count() or 1
    over = n > ncpus
    if launcher in ("mpirun", "mpiexec"):
        if flavour == "openmpi":
            argv = [path or _first_on_path(["mpirun.openmpi", "mpirun"]), "-n", str(n)]
            if over and _major(release) >= 5:
                argv += ["--map-by", ":OVERSUBSCRIBE", "--bind-to", "none"]
            else:
                argv += ["--oversubscribe", "--bind-to", "none"] if over else ["--bind-to", "core"]
        elif flavour == "mpich":
            argv = [path or _first_on_path(["mpiexec.mpich", "mpiexec.hydra", "mpiexec"]), "-n",
                    str(n)]
            if impl == "impi":
                argv += ["-genv", "I_MPI_PIN", "0"] if over else []
            else:
                argv += ["-bind-to", "none"] if over else ["-bind-to", "core"]
        else:
            raise UsageError("cannot tell which MPI the programs use; give --mpi openmpi|mpich")
        return argv
    if launcher == "srun":
        if flavour not in SRUN_MPI_PLUGIN:
            raise UsageError("cannot tell which MPI the programs use (srun needs the right "
                             "--mpi plugin); give --mpi openmpi|mpich")
        return ["srun", "-n", str(n), "--mpi=" + SRUN_MPI_PLUGIN[flavour], "--kill-on-bad-exit=1"]
    words = split_words(launcher, f"--launcher {launcher!r}")
    if not words:
        raise UsageError("--launcher is empty")
    has_n = any("{n}" in w for w in words)
    words = [w.replace("{n}", str(n)) for w in words]
    if os.path.basename(words[0]) == "srun" and not any(w.startswith("--mpi") for w in words):
        if flavour in SRUN_MPI_PLUGIN:
            words.append("--mpi=" + SRUN_MPI_PLUGIN[flavour])
    if not has_n:
        words += ["-n", str(n)]
    return words


def launch_env(flavour):
    env = dict(os.environ)
    if flavour == "openmpi" and hasattr(os, "geteuid") and os.geteuid() == 0:
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    return env


# --------------------------------------------------------------------------
# one launch
# --------------------------------------------------------------------------


def with_env(argv, launcher, flavour, env):
    """A launch command that gives the ranks the variables in env: through
    the launcher's own flags where it has them (Open MPI's mpirun: -x, which
    also reaches other nodes; MPICH's mpiexec: -genv), so that a variable
    such as LD_PRELOAD reaches the ranks and not the launcher itself; through
    the launcher's environment otherwise (srun and custom launchers pass
    their environment on). Returns (argv, extra process environment)."""
    if not env:
        return list(argv), {}
    if launcher in ("mpirun", "mpiexec") and flavour in ("openmpi", "mpich"):
        flags = []
        for k, v in env.items():
            flags += ["-x", f"{k}={v}"] if flavour == "openmpi" else ["-genv", k, v]
        return argv[:1] + flags + argv[1:], {}
    return list(argv), dict(env)
