# SPDX-License-Identifier: BSD-3-Clause
"""Programs, MPI flavours, launchers, and one launch with its status."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

from .common import PATHS, UsageError, split_words

PROGRAM_SUBDIRS = ("pt2pt", "collective", "collectives", "onesided", "overlap")
DEFAULT_TIMEOUT = 900.0
SRUN_MPI_PLUGIN = {"openmpi": "pmix", "mpich": "pmi2"}


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


def in_slurm_allocation():
    return bool(os.environ.get("SLURM_JOB_ID")) and shutil.which("srun") is not None


def _first_on_path(names):
    for n in names:
        if shutil.which(n):
            return n
    return names[-1]


def _major(release):
    """5 of "5.0.11"; 0 when not known."""
    head = str(release or "").split(".")[0]
    return int(head) if head.isdigit() else 0


def launcher_argv(launcher, flavour, n, ncpus=None, path=None, release=None):
    """The command line prefix that starts n ranks of a program built with
    `flavour` ('openmpi' or 'mpich', the launch family). launcher: mpirun or
    mpiexec (the MPI's own launcher: `path`, found by mpilib from the
    library the program loads; Debian's names when path is None), srun (with
    the --mpi plugin that works for the flavour), or a command line of your
    own ("{n}" is replaced by the rank count; without "{n}", "-n N" is
    appended). release: the library's release (Open MPI 5's prterun spells
    oversubscription --map-by :OVERSUBSCRIBE)."""
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

class Interrupted(Exception):
    pass


def _raise_interrupt(signum, frame):
    raise Interrupted(signal.Signals(signum).name)


class _BlockSignals:
    """Defer SIGINT/SIGTERM while a launch's records are written."""
    SIGS = {signal.SIGINT, signal.SIGTERM}

    def __enter__(self):
        if hasattr(signal, "pthread_sigmask"):
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGS)

    def __exit__(self, *exc):
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)
        return False


def _kill_group(proc, grace=10.0, collect=True):
    """SIGTERM the launch's process group (it has its own session), then
    SIGKILL; the output it left (collect), or nothing when another thread
    reads it. SIGINT and SIGTERM wait until it is done: a second Ctrl-C in
    the grace left a launch that ignores SIGTERM (MPICH's hydra) running
    and no launch record."""
    try:
        old = {s: signal.signal(s, _while_killing) for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread: signals go to the main thread anyway
        old = {}
    try:
        return _kill_group_now(proc, grace, collect)
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def _while_killing(signum, frame):
    sys.stderr.write("mpigauge: still stopping the launch (SIGKILL after the grace)\n")


def _kill_group_now(proc, grace, collect):
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            return proc.communicate(timeout=wait) if collect else proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
    return (b"", b"") if collect else None


def parse_json_lines(data):
    """Complete JSON object lines of a program's stdout; others are ignored."""
    recs = []
    for line in data.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            recs.append(rec)
    return recs


PLUGIN_HINT = ("the launcher started separate one-rank jobs instead of one MPI job "
               "(with srun: Open MPI needs --mpi=pmix, MPICH --mpi=pmi2)")
EXIT_MEANING = {1: "validation or output failure", 2: "usage error", 77: "not applicable here",
                99: "MPI or internal error"}


def classify(rc, timed_out, recs, nranks, hung=False):
    """(status, message, keep_results) of one launch, from its exit code and
    the JSON records it printed (never from its prose): run records (one per
    MPI job: more than one, or a world size other than nranks, is a launch
    that formed the wrong job), error records (usage errors; code "ranks"
    with the counts), results against the run record's sizes."""
    runs = [r for r in recs if r.get("type") == "run"]
    results = [r for r in recs if r.get("type") == "result"]
    errors = [r for r in recs if r.get("type") == "error"]
    seen = sorted({r.get("nranks") for r in runs if isinstance(r.get("nranks"), int)})
    got = sorted({e.get("ranks_got") for e in errors
                  if e.get("code") == "ranks" and isinstance(e.get("ranks_got"), int)})
    if len(runs) > 1 or (seen and seen != [nranks]) or (got and got != [nranks]):
        world = "/".join(map(str, seen or got)) or "?"
        n = len(runs) if len(runs) > 1 else len(errors)
        return ("wrong-size", f"asked for {nranks} ranks but the program saw a world of "
                f"{world} ({n} {'run' if len(runs) > 1 else 'error'} records): {PLUGIN_HINT}", False)
    missing = []
    if runs:
        sizes = runs[0].get("options", {}).get("sizes_bytes") or []
        have = {r.get("size_bytes") for r in results}
        missing = [s for s in sizes if s not in have]
    complete = bool(runs) and bool(results) and not missing
    if hung and complete:
        return ("ok", "stopped after its last record: it hung at exit (in MPI_Finalize, as MPICH "
                "4.0.2 with UCX does: openucx/ucx#8738); results kept", True)
    if timed_out or hung:
        if complete:
            return ("timeout", "timed out after printing all results (hung at exit); results kept", True)
        return ("timeout", "timed out", False)
    if rc == 0:
        if not runs:
            return ("failed", "exit 0 but no run record on standard output", False)
        if not complete:
            return ("failed", f"exit 0 but results are missing for {len(missing) or 'all'} sizes "
                    "(the program was stopped early)", False)
        return ("ok", "", True)
    if rc == 77:
        return ("skipped", "not applicable here (exit 77)", False)
    msg = f"exit {rc}" + (f" ({EXIT_MEANING[rc]})" if rc in EXIT_MEANING else "")
    if errors:
        msg += ": " + errors[0].get("message", "")
    if rc < 0:
        msg = f"killed by signal {-rc}"
    if results and runs and not complete:
        # stopped early (Open MPI's mpirun exits 1 when a rank is killed):
        # not a validation failure; its rows are left out (--keep-partial)
        return ("partial", f"{msg}; results for {len(results)} of {len(results) + len(missing)} "
                "sizes (stopped early), left out", False)
    # exit 1 with every size: a validation failure, rows marked by the program
    return ("failed", msg, rc == 1 and complete)


def _pdeathsig_prefix():
    """`setpriv --pdeathsig TERM --` where util-linux's setpriv has it: the
    launcher then gets SIGTERM when the front-end dies, even by SIGKILL (it
    ran on until its next write before). The launches are started from the
    main thread, whose end is the process's end."""
    global _PDEATH
    if _PDEATH is None:
        _PDEATH = []
        exe = shutil.which("setpriv")
        if exe:
            try:
                ok = subprocess.run([exe, "--pdeathsig", "TERM", "--", "true"],
                                    capture_output=True, timeout=10).returncode == 0
            except (OSError, subprocess.SubprocessError):
                ok = False
            if ok:
                _PDEATH = [exe, "--pdeathsig", "TERM", "--"]
    return _PDEATH


_PDEATH = None


def _start(argv, env):
    # The launch's wall-clock start, for programs that time their own
    # start-up against it (mpigauge_startup); a configuration may set it.
    env = dict(os.environ if env is None else env)
    env.setdefault("MG_LAUNCH_TIME", f"{time.time():.6f}")
    return subprocess.Popen(_pdeathsig_prefix() + list(argv), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env,
                            start_new_session=True)


def _result(proc, out, err, ended, interrupted, nranks, t0):
    """ended: None (the launch exited), "timeout" or "hung" (stopped after its complete output)."""
    rc = proc.returncode
    recs = parse_json_lines(out.decode("utf-8", "replace"))
    if interrupted:
        status, msg, keep = "interrupted", "stopped by the user", False
    else:
        status, msg, keep = classify(rc, ended == "timeout", recs, nranks,
                                     hung=ended == "hung")
    return {"status": status, "message": msg, "exit_code": rc,
            "records": recs if keep else [], "partial_records": recs if status == "partial" else [],
            "duration_s": time.time() - t0,
            "stderr": err.decode("utf-8", "replace"), "interrupted": interrupted}


# A launch that printed its last record (the "after" sentinel, --sentinel) and
# has not exited this long after is stopped: some libraries hang in
# MPI_Finalize (MPICH 4.0.2 with UCX, openucx/ucx#8738); its results are whole.
EXIT_GRACE = 30.0


def _is_last_record(line):
    """The "after" sentinel: the last record a program writes before MPI_Finalize."""
    if b"sentinel" not in line or b"after" not in line:
        return False
    try:
        rec = json.loads(line)
    except ValueError:
        return False
    return isinstance(rec, dict) and rec.get("type") == "sentinel" and rec.get("phase") == "after"


class _Watch:
    """A started launch: its output read by two threads, and when its last record came."""

    def __init__(self, proc):
        self.proc = proc
        self.out, self.err, self.end_s = [], b"", None
        self.threads = [threading.Thread(target=self._read_out, daemon=True),
                        threading.Thread(target=self._read_err, daemon=True)]
        for th in self.threads:
            th.start()

    def _read_out(self):
        for line in iter(self.proc.stdout.readline, b""):
            self.out.append(line)
            if self.end_s is None and _is_last_record(line):
                self.end_s = time.time()
        self.proc.stdout.close()

    def _read_err(self):
        self.err = self.proc.stderr.read()
        self.proc.stderr.close()

    def running(self):
        return self.proc.poll() is None or any(th.is_alive() for th in self.threads)

    def stop(self, grace):
        _kill_group(self.proc, grace, collect=False)
        for th in self.threads:
            th.join()


def _supervise(watches, deadlines, exit_grace):
    """Wait for every launch; stop one past its deadline ("timeout") or exit_grace
    seconds after its last record ("hung"). Returns (how each ended, interrupted)."""
    ended = [None] * len(watches)
    try:
        while True:
            live = [i for i, w in enumerate(watches) if w.running()]
            if not live:
                break
            now = time.time()
            for i in live:
                w = watches[i]
                if now >= deadlines[i]:
                    ended[i] = "timeout"
                elif w.end_s is not None and now - w.end_s >= exit_grace:
                    ended[i] = "hung"
                else:
                    continue
                w.stop(10.0)
            watches[live[0]].threads[0].join(0.05)
    except Interrupted:
        for w in watches:
            if w.running():
                w.stop(5.0)
        return ended, True
    for w in watches:
        w.proc.wait()
    return ended, False


def run_group(specs, exit_grace=EXIT_GRACE):
    """Start the launches [(argv, env, timeout, nranks)] at once (one, or a group
    taking turns, mpi/mg_turns.h) and wait for all of them; a launch past its
    timeout, one that hangs exit_grace seconds after its last record, or every
    launch on an interrupt, is stopped. One result per launch: status, records,
    timing."""
    t0 = time.time()
    procs = []
    try:
        for argv, env, _, _ in specs:
            procs.append(_start(argv, env))
    except OSError:
        for p in procs:
            _kill_group(p, grace=1.0)
        raise
    watches = [_Watch(p) for p in procs]
    ended, interrupted = _supervise(watches, [t0 + sp[2] for sp in specs], exit_grace)
    return [_result(w.proc, b"".join(w.out), w.err, ended[i], interrupted, specs[i][3], t0)
            for i, w in enumerate(watches)]


def run_launch(argv, env, timeout, nranks, exit_grace=EXIT_GRACE):
    """Run one launch; returns dict with status, records, timing."""
    return run_group([(argv, env, timeout, nranks)], exit_grace)[0]


def _fmt_time(s):
    s = int(round(s))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _tail(text, lines=20, chars=4000):
    t = "\n".join(text.rstrip().splitlines()[-lines:])
    return t[-chars:]



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
