# SPDX-License-Identifier: BSD-3-Clause
"""Configurations of an interleaved run: what differs between the sides of a
comparison (a build, environment variables, launcher or benchmark arguments).

On the command line, one --config per configuration, words split like a shell:
    LABEL [bindir=DIR] [prefix=DIR] [mpi=openmpi|mpich] [args="-W 32"]
          [launcher-args="--mca btl self,vader"] [launcher=PATH]
          [library=FILE|DIR] [tuning=FILE] [NAME=VALUE ...]
where NAME=VALUE with a NAME that starts with an upper-case letter is an
environment variable (OMPI_MCA_coll_tuned_use_dynamic_rules=1, UCX_TLS=sm).
bindir / prefix: where the mpigauge programs are (prefix: PREFIX/bin).
library: the MPI library the programs load (a libmpi file, its folder, or
an installation with lib/; through LD_LIBRARY_PATH): with programs built
for the MPI-5 standard ABI, the same binaries under another implementation.
tuning: a tuning file from `best --export` (an Open MPI rules file or an
MPICH selection JSON file) and the variables that load it.
launcher: the launcher to use; by default the one of the installation of
the library the programs load (doc/releases.md), never another release's.

In a TOML file (--configs FILE; Python 3.11's tomllib):
    [defaults]                      # optional, inherited by every configuration
    bindir = "_build/openmpi"
    [[config]]
    label = "base"
    [[config]]
    label = "rndv8k"
    env = { UCX_RNDV_THRESH = "8192" }
    args = ["-W", "32"]             # or one string, split like a shell
    [[sweep]]                       # one configuration per value
    label = "allreduce-alg{value}"
    var = "OMPI_MCA_coll_tuned_allreduce_algorithm"
    values = [1, 2, 3, 4, 5, 6]
    env = { OMPI_MCA_coll_tuned_use_dynamic_rules = "1" }
"""
import os
import shutil
import re

from ..core.common import UsageError, open_input, redact_argv, redact_env, split_words
from ..verdict.tuning import file_kind, load_env

_LABEL_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+:=,-]*$")
_ENV_RE = re.compile(r"^[A-Z][A-Za-z0-9_]*$")   # OMPI_MCA_btl, UCX_TLS, LD_PRELOAD
KEYS = ("bindir", "prefix", "mpi", "args", "launcher-args", "launcher", "library", "tuning",
        "install")


class Config:
    def __init__(self, label, bindir=None, mpi=None, env=None, args=(), launcher_args=(),
                 launcher=None, library=None, tuning=None, install=None):
        self.label = label
        self.install = install
        if install is not None:     # an installation of the catalogue (mpigauge mpi)
            if library is not None:
                raise UsageError(f"configuration {label}: give install= or library=, not both")
            from ..launch.catalogue import Catalogue
            entry = Catalogue().get(install)
            library = entry["library"]
            launcher = launcher or entry.get("launcher")
            env = dict(entry.get("env") or {}, **(env or {}))
        self.bindir = bindir
        self.mpi = mpi
        self.env = dict(env or {})
        self.args = list(args)
        self.launcher_args = list(launcher_args)
        self.launcher = _check_launcher(launcher, label)
        self.library = library
        if library is not None:
            self.env["LD_LIBRARY_PATH"] = _library_dirs(library, self.env)
        self.tuning = None
        if tuning:
            self.tuning = os.path.abspath(tuning)
            self.env.update(load_env(file_kind(self.tuning), self.tuning))

    def record(self):
        """What the session record keeps of it."""
        return {"label": self.label, "bindir": self.bindir, "mpi": self.mpi,
                "env": redact_env(self.env), "args": redact_argv(self.args),
                "launcher_args": redact_argv(self.launcher_args),
                "launcher": self.launcher, "library": self.library, "tuning": self.tuning,
                "install": self.install}

    def __repr__(self):
        return f"Config({self.record()!r})"


def _check_launcher(launcher, label):
    """launcher=PATH|NAME as given: a program that can be run (None: not
    given); an empty value, a folder, a file that cannot be run or a name
    not on PATH is refused before any launch."""
    where = f"configuration {label}: launcher={launcher}"
    if launcher is None:
        return None
    if not launcher:
        raise UsageError(f"configuration {label}: launcher= is empty: give the launcher's path "
                         "or name (or leave the key out for the library's own)")
    if os.sep not in launcher:
        if shutil.which(launcher) is None:
            raise UsageError(f"{where}: no such program on PATH")
        return launcher
    if not os.path.exists(launcher):
        raise UsageError(f"{where}: no such file")
    if os.path.isdir(launcher):
        raise UsageError(f"{where}: a folder, not a program")
    if not os.access(launcher, os.X_OK):
        raise UsageError(f"{where}: not executable")
    return launcher


MPI_LIB_GLOBS = ("libmpi.so*", "libmpi_*.so*", "libmpich*.so*", "libmpi_abi*.so*")


def mpi_libraries_in(folder):
    """The MPI library files (links followed) a folder offers."""
    import glob
    return {os.path.realpath(p) for g in MPI_LIB_GLOBS
            for p in glob.glob(os.path.join(glob.escape(folder), g))}


def _library_dirs(library, env):
    """LD_LIBRARY_PATH that makes the dynamic linker take the MPI library at
    `library` (a file, its folder, or an installation folder with lib/): a
    place without an MPI library is refused, so that no configuration is
    measured under a label with the default library."""
    if not library:
        raise UsageError("library= is empty: give the MPI library, its folder or its "
                         "installation (or leave the key out)")
    lib = os.path.abspath(library)
    if os.path.isfile(lib):
        lib = os.path.dirname(lib)
    elif os.path.isdir(os.path.join(lib, "lib")):
        lib = os.path.join(lib, "lib")
    elif not os.path.isdir(lib):
        raise UsageError(f"library={library}: no such file or folder")
    if not mpi_libraries_in(lib):
        raise UsageError(f"library={library}: no MPI library in {lib} (libmpi*.so, "
                         "libmpich*.so): give the folder that holds the library")
    rest = env.get("LD_LIBRARY_PATH", os.environ.get("LD_LIBRARY_PATH", ""))
    return lib + (os.pathsep + rest if rest else "")


def check_label(label, where):
    if not isinstance(label, str) or not _LABEL_RE.fullmatch(label):
        raise UsageError(f"{where}: bad configuration label {label!r} "
                         "(letters, digits and _ . + : = , - ; not starting with a sign)")
    return label


def _bindir(prefix, bindir, where):
    if prefix and bindir:
        raise UsageError(f"{where}: give bindir or prefix, not both")
    if prefix:
        return os.path.join(prefix, "bin")
    return bindir


def _words(value, where, key):
    if isinstance(value, list):
        return [str(v) for v in value]
    return split_words(str(value), f"{where}: {key}")


def _check_mpi(mpi, where):
    if mpi not in (None, "openmpi", "mpich"):
        raise UsageError(f"{where}: mpi must be openmpi or mpich, not {mpi!r}")
    return mpi


def parse_config_arg(text):
    """One --config value -> Config."""
    where = f"--config {text!r}"
    words = split_words(text, where)
    if not words:
        raise UsageError("--config needs a label")
    label = check_label(words[0], where)
    kv, env = {}, {}
    for w in words[1:]:
        key, eq, val = w.partition("=")
        if not eq:
            raise UsageError(f"{where}: {w!r} is not KEY=VALUE (keys: {', '.join(KEYS)}, "
                             "or an environment variable NAME=VALUE)")
        if key in KEYS:
            if key in kv:
                raise UsageError(f"{where}: {key} given twice")
            kv[key] = val
        elif _ENV_RE.fullmatch(key):
            env[key] = val
        else:
            raise UsageError(f"{where}: unknown key {key!r} (keys: {', '.join(KEYS)}; "
                             "environment variable names start with an upper-case letter)")
    return Config(label, _bindir(kv.get("prefix"), kv.get("bindir"), where),
                  _check_mpi(kv.get("mpi"), where), env,
                  _words(kv.get("args", ""), where, "args"),
                  _words(kv.get("launcher-args", ""), where, "launcher-args"),
                  kv.get("launcher"), kv.get("library"), kv.get("tuning") or None,
                  kv.get("install"))


_TABLE_KEYS = {"install", "label", "bindir", "prefix", "mpi", "env", "args", "launcher_args",
               "launcher",
               "library", "tuning"}


def _check_table(t, where):
    """The types of a [[config]], [[sweep]] or [defaults] table's keys."""
    if not isinstance(t, dict):
        raise UsageError(f"{where}: a [[config]] or [[sweep]] is a table, not {t!r}")
    for key in ("bindir", "prefix", "mpi"):
        if key in t and not isinstance(t[key], str):
            raise UsageError(f"{where}: {key} must be a string")
    if "label" in t and not isinstance(t["label"], (str, int)):
        raise UsageError(f"{where}: label must be a string")
    if "env" in t and not isinstance(t["env"], dict):
        raise UsageError(f"{where}: env must be a table of NAME = VALUE")


def _from_table(t, defaults, where, base_dir):
    _check_table(t, where)
    unknown = set(t) - _TABLE_KEYS - {"var", "values"}
    if unknown:
        raise UsageError(f"{where}: unknown keys {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(_TABLE_KEYS))})")
    merged = dict(defaults)
    env = dict(defaults.get("env") or {})
    env.update(t.get("env") or {})
    merged.update({k: v for k, v in t.items() if k != "env"})
    for k, v in env.items():
        if not isinstance(k, str) or not _ENV_RE.fullmatch(k):
            raise UsageError(f"{where}: environment variable name {k!r} is not NAME")
        if isinstance(v, (dict, list)):
            raise UsageError(f"{where}: environment variable {k}: a value is a string or a "
                             "number, not a table or a list")
    bindir = _bindir(merged.get("prefix"), merged.get("bindir"), where)
    if bindir and not os.path.isabs(bindir):
        bindir = os.path.normpath(os.path.join(base_dir, bindir))
    paths = {}
    for key in ("launcher", "library", "tuning"):
        v = merged.get(key)
        if v is not None and not isinstance(v, str):
            raise UsageError(f"{where}: {key} must be a string")
        if v and key in ("library", "tuning") and not os.path.isabs(v):
            v = os.path.normpath(os.path.join(base_dir, v))
        if v and key == "launcher" and os.sep in v and not os.path.isabs(v):
            v = os.path.normpath(os.path.join(base_dir, v))
        paths[key] = v if key in ("launcher", "library") else v or None
    return Config(check_label(str(merged.get("label", "")), where), bindir,
                  _check_mpi(merged.get("mpi"), where), {k: str(v) for k, v in env.items()},
                  _words(merged.get("args", []), where, "args"),
                  _words(merged.get("launcher_args", []), where, "launcher_args"),
                  paths["launcher"], paths["library"], paths["tuning"],
                  merged.get("install") if isinstance(merged.get("install"), str) else None)


def load_config_file(path):
    """A TOML file -> [Config]. Relative bindirs are relative to the file."""
    try:
        import tomllib
    except ImportError:
        raise UsageError("--configs needs Python 3.11 or later (tomllib); give --config "
                         "on the command line instead") from None
    try:
        with open_input(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: {e}") from None
    except RecursionError:
        raise UsageError(f"{path}: nested too deeply to be a configuration file") from None
    unknown = set(data) - {"defaults", "config", "sweep"}
    if unknown:
        raise UsageError(f"{path}: unknown tables {', '.join(sorted(unknown))} "
                         "(known: defaults, config, sweep)")
    base_dir = os.path.dirname(os.path.abspath(path))
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        raise UsageError(f"{path}: [defaults] is a table, not {defaults!r}")
    _check_table(defaults, f"{path}: [defaults]")
    for key in ("config", "sweep"):
        if not isinstance(data.get(key) or [], list):
            raise UsageError(f"{path}: {key} is a list of tables ([[{key}]]), not "
                             f"{data.get(key)!r}")
    out = []
    for i, t in enumerate(data.get("config") or [], 1):
        out.append(_from_table(t, defaults, f"{path}: config {i}", base_dir))
    for i, t in enumerate(data.get("sweep") or [], 1):
        where = f"{path}: sweep {i}"
        var, values = t.get("var"), t.get("values")
        if isinstance(var, str) and not _ENV_RE.fullmatch(var):
            raise UsageError(f"{where}: environment variable name {var!r} is not NAME")
        if not isinstance(var, str) or not _ENV_RE.fullmatch(var) or not isinstance(values, list) \
                or not values:
            raise UsageError(f"{where}: needs var = \"NAME\" and values = [...]")
        pattern = str(t.get("label", var + "={value}"))
        if "{value}" not in pattern:
            raise UsageError(f"{where}: the label must contain {{value}}")
        if t.get("env") is not None and not isinstance(t.get("env"), dict):
            raise UsageError(f"{where}: env must be a table (env = {{ NAME = \"VALUE\" }})")
        for v in values:
            table = dict(t)
            table["env"] = dict(t.get("env") or {}, **{var: str(v)})
            table["label"] = pattern.replace("{value}", str(v))
            out.append(_from_table(table, defaults, where, base_dir))
    return out


def check_unique(configs):
    seen = set()
    for c in configs:
        if c.label in seen:
            raise UsageError(f"configuration label {c.label!r} is given twice")
        seen.add(c.label)
    return configs
