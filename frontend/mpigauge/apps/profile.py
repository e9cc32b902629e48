# SPDX-License-Identifier: BSD-3-Clause
"""Communication profiles of MPI programs (`mpigauge profile`,
doc/applications.md): the ABI family of a program and of the profiler
library (profile/mg_profile.c), the ranks' profiles merged into one file
(a `profile` record with the provenance, a `profile_rank` record per rank,
a `profile_call` record per call kind, size class and communicator size),
and that file read back, checked."""
import json
import os
import re
import shutil
import subprocess
from typing import NamedTuple

from ..core.common import UsageError, load_json, open_input
from ..core.schema import BOOL, INT, LIST, NUM, STR, mismatch

# the MPI library a program links, by its file name -> its ABI family
_MPI_LIBS = ((re.compile(r"\blibmpi\.so\.40\b"), "openmpi"),
             (re.compile(r"\blibmpi\.so\.12\b"), "mpich"),
             (re.compile(r"\blibmpich\.so\.12\b"), "mpich"),
             (re.compile(r"\blibmpi_abi\.so"), "mpi5"))
FAMILY_NAMES = {"openmpi": "Open MPI's (libmpi.so.40)", "mpich": "MPICH's (libmpich.so.12, "
                "also Intel MPI's)", "mpi5": "the MPI-5 standard ABI's (libmpi_abi.so)"}
LIBRARY = "libmgprofile.so"

_RANK = ({"rank": INT, "nranks": INT, "mpi_library": STR, "host": STR, "binding": STR,
          "init_s": NUM, "run_s": NUM, "thread_multiple": BOOL, "dropped": INT, "calls": LIST},
         ("rank", "nranks", "mpi_library", "run_s", "calls"))
_CALL = ({"call": STR, "size_class": INT, "comm_size": INT, "count": INT, "bytes": INT,
          "seconds": NUM, "datatype": STR}, ("call", "size_class", "comm_size", "count",
                                             "seconds"))


def abi_family(path, env=None):
    """(family, library name) of the MPI library an executable links, by
    ldd, or None (not an executable, or no MPI library)."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        return None
    try:
        with open(path, "rb") as f:
            if f.read(4) != b"\x7fELF":
                return None
        p = subprocess.run(["ldd", path], capture_output=True, text=True, timeout=30, env=env,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for pattern, family in _MPI_LIBS:
        m = pattern.search(p.stdout)
        if m:
            return family, m.group(0)
    return None


def find_mpi_program(argv, env=None):
    """(index, path, family, library) of the first word of a command that is
    an executable linked with an MPI library (the launcher's options and a
    wrapper such as `env` before it); UsageError when none is."""
    for k, word in enumerate(argv):
        path = word if "/" in word else shutil.which(word, path=(env or os.environ).get("PATH"))
        if not path:
            continue
        got = abi_family(path, env)
        if got is not None and not _is_launcher(path):
            return k, os.path.abspath(path), got[0], got[1]
    raise UsageError("no MPI program in the command (no word of it is an executable linked with "
                     "an MPI library, by ldd): give the launch of one, like -- mpirun -n 2 "
                     "./a.out")


def _is_launcher(path):
    """mpirun and mpiexec link the MPI library too (Open MPI's): not the program."""
    return re.match(r"(mpirun|mpiexec|orterun|prterun|srun)(\.|$)", os.path.basename(path)) \
        is not None


def profiler_library(bindir, profiledir):
    """The profiler library of a build (BINDIR/profile/) or of the
    installation (profiledir): its path, or None."""
    for d in ([os.path.join(bindir, "profile")] if bindir else []) + ([profiledir] if profiledir
                                                                      else []):
        p = os.path.join(d, LIBRARY)
        if os.path.isfile(p):
            return os.path.abspath(p)
    return None


def library_family(path):
    """The ABI family a shared library links (ldd), or None."""
    try:
        p = subprocess.run(["ldd", path], capture_output=True, text=True, timeout=30,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return next((f for pattern, f in _MPI_LIBS if pattern.search(p.stdout)), None)


def read_ranks(folder):
    """The profile_rank records the ranks wrote (rank-N.json), by rank;
    UsageError for one that is not a rank's profile."""
    out = {}
    for name in sorted(os.listdir(folder)):
        if not re.fullmatch(r"rank-\d+\.json", name):
            continue
        path = os.path.join(folder, name)
        rec = load_json(path, "not a rank's profile (not JSON)")
        why = rank_problem(rec)
        if why:
            raise UsageError(f"{path}: {why}")
        out[rec["rank"]] = rec
    return out


def rank_problem(rec):
    why = mismatch(rec, *_RANK)
    if why:
        return f"a profile_rank record: {why}"
    for c in rec["calls"]:
        why = mismatch(c, *_CALL)
        if why:
            return f"a call of rank {rec['rank']}: {why}"
        if min(c["count"], c["size_class"], c["comm_size"], c.get("bytes", 0)) < 0 or \
                c["seconds"] < 0:
            return f"a call of rank {rec['rank']}: a negative count, size or time"
    return None


class CallKey(NamedTuple):
    call: str
    size_class: int
    comm_size: int
    datatype: str


def call_key(c):
    return CallKey(c["call"], c["size_class"], c["comm_size"], c.get("datatype") or "")


def aggregate(ranks):
    """A profile_call record per (call, size class, communicator size,
    datatype) over the ranks: counts and bytes summed, the time per rank
    (its sum, the least and the most of a rank: what the call cost where it
    waited least, and the wait for late ranks above it)."""
    per = {}
    for r in ranks.values():
        for c in r["calls"]:
            per.setdefault(call_key(c), {})[r["rank"]] = c
    out = []
    for key in sorted(per):
        by_rank = per[key]
        secs = [c["seconds"] for c in by_rank.values()]
        counts = [c["count"] for c in by_rank.values()]
        out.append({"type": "profile_call", "call": key.call, "size_class": key.size_class,
                    "comm_size": key.comm_size, "datatype": key.datatype or None,
                    "ranks": len(by_rank), "count": sum(counts), "count_max": max(counts),
                    "bytes": sum(c.get("bytes", 0) for c in by_rank.values()),
                    "seconds": sum(secs), "seconds_min": min(secs), "seconds_max": max(secs),
                    "size_known": all(c.get("size_known", True) for c in by_rank.values())})
    return out


def summary(ranks):
    """MPI time against the run's, per rank and in all."""
    mpi = {k: sum(c["seconds"] for c in r["calls"]) for k, r in ranks.items()}
    run = {k: r["run_s"] for k, r in ranks.items()}
    n = max(1, len(ranks))
    return {"ranks": len(ranks), "mpi_s_mean": sum(mpi.values()) / n,
            "run_s_mean": sum(run.values()) / n, "mpi_s_max": max(mpi.values(), default=0.0),
            "run_s_max": max(run.values(), default=0.0),
            "mpi_share": sum(mpi.values()) / max(1e-12, sum(run.values()))}


class Profile(NamedTuple):
    head: dict
    ranks: dict
    calls: list
    path: str


def load_profile(path):
    """A profile file (`mpigauge profile -o`): its head, ranks and calls;
    UsageError (file and line) when it is not one."""
    head, ranks = None, {}
    with open_input(path, encoding="utf-8") as f:
        for k, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except (ValueError, RecursionError):
                raise UsageError(f"{path}:{k}: not JSON") from None
            kind = rec.get("type") if isinstance(rec, dict) else None
            if kind == "profile":
                why = mismatch(rec, {"name": STR, "family": STR, "nranks": INT},
                               ("name", "family", "nranks"))
                if why:
                    raise UsageError(f"{path}:{k}: a profile record: {why}")
                head = rec
            elif kind == "profile_rank":
                why = rank_problem(rec)
                if why:
                    raise UsageError(f"{path}:{k}: {why}")
                ranks[rec["rank"]] = rec
    if head is None or not ranks:
        raise UsageError(f"{path}: not a profile (`mpigauge profile -o FILE -- COMMAND` makes "
                         "one): no profile record or no rank's")
    return Profile(head, ranks, aggregate(ranks), path)
