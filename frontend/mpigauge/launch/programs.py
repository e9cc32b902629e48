# SPDX-License-Identifier: BSD-3-Clause
"""Where the mpigauge programs are, and which MPI flavour a program loads."""
import os
import re
import subprocess

from ..core.common import PATHS, UsageError

PROGRAM_SUBDIRS = ("pt2pt", "collective", "collectives", "onesided", "overlap", "tools")


def program_dirs(bindirs):
    """Where to look for mpigauge_<name>, in order."""
    out = []

    def add(d):
        for sub in ("",) + PROGRAM_SUBDIRS:
            p = os.path.join(d, sub) if sub else d
            if os.path.isdir(p) and p not in out:
                out.append(p)

    if bindirs:
        for d in bindirs:
            if not os.path.isdir(d):
                raise UsageError(f"--bindir {d}: no such directory")
            add(os.path.abspath(d))
        return out
    env = os.environ.get("MPIGAUGE_BINDIR")
    if env:
        for d in env.split(os.pathsep):
            if d:
                add(os.path.abspath(d))
        return out
    here = PATHS["script_dir"]
    add(here)                      # installed: next to the programs
    add(os.path.dirname(here))     # build tree: _build/<mpi>/{pt2pt,...}
    if PATHS["bindir"]:
        add(PATHS["bindir"])
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if d and os.path.isdir(d) and d not in out:
            out.append(d)
    return out


def find_program(name, dirs):
    for d in dirs:
        p = os.path.join(d, "mpigauge_" + name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


_flavour_cache = {}


def detect_mpi(program):
    """'openmpi' or 'mpich' from the program's shared libraries (ldd), or None."""
    if program in _flavour_cache:
        return _flavour_cache[program]
    flavour = None
    try:
        out = subprocess.run(["ldd", program], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    if re.search(r"\blibmpich\.so", out):
        flavour = "mpich"
    elif re.search(r"\blibmpi\.so", out):
        flavour = "openmpi"
    _flavour_cache[program] = flavour
    return flavour


def list_names(program):
    """The benchmark names a program installed under many names answers to
    (PROGRAM --list-names, which needs no MPI launch), or None."""
    try:
        out = subprocess.run([program, "--list-names"], capture_output=True, text=True,
                             timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    names = out.stdout.split()
    return names if out.returncode == 0 and names else None
