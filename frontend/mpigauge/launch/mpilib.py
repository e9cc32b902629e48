# SPDX-License-Identifier: BSD-3-Clause
"""Which MPI library a program loads, and the launcher that belongs to it.

The library is asked, not guessed from file names (MPICH 5 and Intel MPI
both ship libmpi.so.12, as Open MPI ships libmpi.so.40): every program
answers --mpi-library with MPI_Get_library_version, called before and
without MPI_Init, under the environment of its configuration (so that an
MPI-5 ABI build run with another library's LD_LIBRARY_PATH names that
library). The launcher is the one of the installation that holds the
library file the dynamic linker chose (ldd, same environment): its bin/
folder, or one of the folders above the library. A launcher is accepted
only when its --version names the library's implementation and release."""
import json
import os
import re
import shutil
import subprocess

from ..core.common import UsageError

NAMES = {"openmpi": "Open MPI", "mpich": "MPICH", "impi": "Intel MPI"}
# the launch family: how to pass ranks, binding and environment
FAMILY = {"openmpi": "openmpi", "mpich": "mpich", "impi": "mpich"}
_LAUNCHERS = {"openmpi": ("mpirun.openmpi", "mpirun", "mpiexec", "prterun"),
              "mpich": ("mpiexec.mpich", "mpiexec.hydra", "mpiexec", "mpirun"),
              "impi": ("mpiexec.hydra", "mpiexec", "mpirun")}
_IDENT = (
    (r"^Open MPI v(\d[\w.]*)", "openmpi"),
    (r"\((?:Open MPI|OpenRTE)\) (\d[\w.]*)", "openmpi"),
    (r"^Intel\(R\) MPI Library (\d[\d.]*)", "impi"),
    (r"^Intel\(R\) MPI Library for Linux\* OS, Version (\d[\d.]*)", "impi"),
    (r"^MPICH Version:\s*(\d[\w.]*)", "mpich"),
    (r"^\s*Version:\s*(\d[\w.]*)", "mpich"),          # Hydra's --version
)
_LIB_RE = re.compile(r"^\s*(libmpi(?:ch|_abi)?\.so[.\d]*)\s+=>\s+(\S+)", re.M)


def ident(text):
    """(implementation, release) from a library version string or a
    launcher's --version text, or (None, None)."""
    for line in (text or "").splitlines():
        for pattern, impl in _IDENT:
            m = re.search(pattern, line)
            if m:
                return impl, m.group(1)
    return None, None


def release_name(impl, version):
    if impl is None:
        return "an unknown MPI"
    return f"{NAMES.get(impl, impl)} {version}"


class Library:
    """What a program loads: implementation, release, the library file and
    the header it was built with (abi: the MPI-5 standard ABI)."""

    def __init__(self, impl, version, text, path, header):
        self.impl, self.version, self.text = impl, version, text
        self.path, self.header = path, header

    @property
    def family(self):
        return FAMILY.get(self.impl)

    def name(self):
        return release_name(self.impl, self.version)

    def record(self):
        return {"implementation": self.impl, "release": self.version, "name": self.name(),
                "file": self.path, "abi": self.header == "abi"}


_cache = {}


def _run(argv, env, timeout=30):
    try:
        p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout,
                           stdin=subprocess.DEVNULL, errors="replace")
        return p.returncode, p.stdout + p.stderr
    except (OSError, subprocess.SubprocessError) as e:
        return None, str(e)


def library_file(program, env):
    """The path of the libmpi the dynamic linker gives program under env."""
    rc, out = _run(["ldd", program], env)
    m = _LIB_RE.search(out or "")
    return os.path.realpath(m.group(2)) if m and os.path.exists(m.group(2)) else None


def _library_record(program, env):
    """(exit code, output, the {"type":"mpi_library"} record or None) of
    PROGRAM --mpi-library under env, cached."""
    key = (program, (env or {}).get("LD_LIBRARY_PATH"), (env or {}).get("LD_PRELOAD"))
    if key not in _records:
        rc, out = _run([program, "--mpi-library"], env)
        rec = None
        for line in (out or "").splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if isinstance(r, dict) and r.get("type") == "mpi_library":
                rec = r
                break
        _records[key] = (rc, out, rec)
    return _records[key]


_records = {}


def program_library(program, env):
    """Library of program under env (cached), or None when the program
    cannot tell (a build older than --mpi-library)."""
    key = (program, (env or {}).get("LD_LIBRARY_PATH"), (env or {}).get("LD_PRELOAD"))
    if key in _cache:
        return _cache[key]
    lib = None
    rc, out, rec = _library_record(program, env)
    if rec is not None:
        impl, version = ident(rec.get("library", ""))
        lib = Library(impl, version, rec.get("library", ""), library_file(program, env),
                      rec.get("build_header"))
    else:
        _failures[program] = _start_problem(rc, out)
    _cache[key] = lib
    return lib


# What builds older than the programs' own fact ("runs_alone" in their
# --mpi-library record) ran alone.
_ALONE_BEFORE_THE_FACT = frozenset(("startup", "hello"))


def runs_alone(program, env=None, name=None):
    """Whether program measures its own launch (MPI's start, the first
    message, the memory it takes), so that it is never started beside another
    launch: as the program says (its --mpi-library record's runs_alone); a
    build older than that fact, by its benchmark name."""
    _, _, rec = _library_record(program, env)
    if rec is not None and "runs_alone" in rec:
        return rec["runs_alone"] is True
    return name in _ALONE_BEFORE_THE_FACT


_failures = {}


def _start_problem(rc, out):
    """Why a program gave no library record: it could not start (the dynamic
    linker's or the library's own first line), or it answered nothing."""
    lines = [ln.strip() for ln in (out or "").splitlines() if ln.strip()]
    loader = [ln for ln in lines if "error while loading shared libraries" in ln
              or "undefined symbol" in ln or "cannot open shared object" in ln]
    if loader:
        return f"it cannot start: {loader[0]}"
    if rc is None or rc not in (0, 2):
        return f"it cannot start (exit {rc}): {lines[0] if lines else 'no message'}"
    return "it does not answer --mpi-library (built by an older mpigauge?): rebuild it"


def start_problem(program):
    """What program_library found wrong with program ("" when nothing)."""
    return _failures.get(program, "")


_launcher_cache = {}


def launcher_ident(path, env=None):
    """(implementation, release) that launcher path says it belongs to."""
    key = os.path.realpath(path) + "\0" + os.path.basename(path)
    if key not in _launcher_cache:
        rc, out = _run([path, "--version"], env)
        _launcher_cache[key] = ident(out) if rc is not None else (None, None)
    return _launcher_cache[key]


def candidates(lib):
    """Launchers of the installation of lib's file, nearest first: the bin/
    folders of the library's folder and up to four folders above it."""
    out = []
    if not lib.path or lib.impl not in _LAUNCHERS:
        return out
    d = os.path.dirname(lib.path)
    for _ in range(5):
        b = os.path.join(d, "bin")
        for n in _LAUNCHERS[lib.impl]:
            p = os.path.join(b, n)
            if os.path.isfile(p) and os.access(p, os.X_OK) and p not in out:
                out.append(p)
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return out


def own_launcher(lib, env=None):
    """The launcher of lib's installation whose --version names lib."""
    tried = []
    for p in candidates(lib):
        got = launcher_ident(p, env)
        if got == (lib.impl, lib.version):
            return p
        tried.append(f"{p} ({release_name(*got)})")
    where = f" (tried {', '.join(tried)})" if tried else ""
    raise UsageError(f"no launcher of {lib.name()} found beside {lib.path or 'its library'}"
                     f"{where}: give launcher=PATH (or --launcher) of that installation")


def resolve(path_or_name):
    """An executable given as a path or a name on PATH -> its path, or None."""
    if os.sep in path_or_name:
        return path_or_name if os.access(path_or_name, os.X_OK) else None
    return shutil.which(path_or_name)


def check_launcher(path, lib, env=None, where="the launch"):
    """Refuse path when it says it belongs to another release than lib;
    return what it says ((None, None) when it does not say)."""
    got = launcher_ident(path, env)
    if lib is None or lib.impl is None or got[0] is None:
        return got
    if got != (lib.impl, lib.version):
        raise UsageError(f"{where}: the launcher {path} belongs to {release_name(*got)}, but the "
                         f"programs load {lib.name()} ({lib.path}); launch them with their own "
                         f"library's launcher (default), or give launcher=PATH of "
                         f"{lib.name()}")
    return got


_MPI_LAUNCHER_NAMES = re.compile(r"^(mpirun|mpiexec|orterun|prterun)(\.[\w]+)?$")


def names_mpi_launcher(command):
    """Whether a launcher command line starts with an MPI launcher's name."""
    words = command.split()
    return bool(words) and bool(_MPI_LAUNCHER_NAMES.match(os.path.basename(words[0])))


def choose_launcher(launcher, own, lib, env, where, program=None):
    """(path, what it says it is) of the MPI launcher a launch uses, or
    (None, (None, None)) for srun. launcher: mpirun|mpiexec (the library's
    own), srun, or a command line; own: a configuration's launcher=PATH.
    A launcher of another release than lib is refused (UsageError)."""
    if own:
        path = resolve(own)
        if path is None:
            raise UsageError(f"{where}: launcher={own}: no such program")
        return path, check_launcher(path, lib, env, where)
    if launcher in ("mpirun", "mpiexec"):
        if lib is None:
            raise UsageError(f"{where}: cannot tell which MPI library the programs load: "
                             f"{_failures.get(program, 'no answer to --mpi-library')}; or "
                             "give launcher=PATH")
        if lib.impl is None:
            raise UsageError(f"{where}: cannot tell which MPI the programs load "
                             f"({lib.text.splitlines()[0] if lib.text else 'no version string'}"
                             "): give launcher=PATH")
        path = own_launcher(lib, env)
        return path, launcher_ident(path, env)
    if launcher == "srun":
        return None, (None, None)
    if names_mpi_launcher(launcher):
        path = resolve(launcher.split()[0])
        if path is not None:
            return None, check_launcher(path, lib, env, where)
    return None, (None, None)
