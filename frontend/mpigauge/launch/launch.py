# SPDX-License-Identifier: BSD-3-Clause
"""Running launches: the process groups, signals (the user's interrupt, the
launcher's end with the front-end), timeouts and the hang at exit; what a
launch came to is outcome.classify's."""
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

from .outcome import classify, parse_json_lines

DEFAULT_TIMEOUT = 900.0


class Interrupted(Exception):
    pass


def raise_interrupt(signum, frame):
    raise Interrupted(signal.Signals(signum).name)


class BlockSignals:
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


def _pdeathsig_prefix(parent=None):
    """`setpriv --pdeathsig TERM -- sh -c GUARD PID` where util-linux's
    setpriv has it: the launcher then gets SIGTERM when the front-end dies,
    even by SIGKILL (it ran on until its next write before). The launches are
    started from the main thread, whose end is the process's end. The guard
    closes the window before setpriv's prctl: a front-end that died in it is
    no longer the parent (PID), and the launch ends there instead of running
    on without the signal."""
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
                _PDEATH = [exe, "--pdeathsig", "TERM", "--", "sh", "-c", _PARENT_GUARD]
    if not _PDEATH:
        return []
    return _PDEATH + [str(os.getpid() if parent is None else parent)]


_PDEATH = None
# $PPID is read when sh starts, after setpriv's prctl: the signal is armed.
_PARENT_GUARD = '[ "$PPID" = "$0" ] || exit 143; exec "$@"'


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


def _supervise(watches, deadlines, exit_grace, on_end=None):
    """Wait for every launch; stop one past its deadline ("timeout") or exit_grace
    seconds after its last record ("hung"); on_end(i, stdout so far), when
    given, as soon as launch i is seen to have ended. Returns (how each ended,
    interrupted)."""
    ended = [None] * len(watches)
    told = set()
    try:
        while True:
            live = [i for i, w in enumerate(watches) if w.running()]
            for i in range(len(watches)):
                if on_end is not None and i not in live and i not in told:
                    told.add(i)
                    on_end(i, b"".join(watches[i].out))
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


def run_group(specs, exit_grace=EXIT_GRACE, on_end=None):
    """Start the launches [(argv, env, timeout, nranks)] at once (one, or a group
    taking turns, mpi/driver/mg_turns.h) and wait for all of them; a launch past its
    timeout, one that hangs exit_grace seconds after its last record, or every
    launch on an interrupt, is stopped; on_end(i, its standard output) is called
    as soon as launch i ends. One result per launch: status, records, timing."""
    t0 = time.time()
    procs, early = [], False
    for argv, env, _, _ in specs:
        try:
            procs.append(_start(argv, env))
        except Interrupted:         # Ctrl-C while they start: started, then stopped
            early = True
            procs.append(_start(argv, env))
        except OSError:
            for p in procs:
                _kill_group(p, grace=1.0)
            raise
    try:
        # the readers start with SIGINT/SIGTERM held: a Ctrl-C that comes while a
        # thread starts is taken once every launch has its readers
        with BlockSignals():
            watches = [_Watch(p) for p in procs]
    except Interrupted:
        early = True
    if early:
        for w in watches:
            if w.running():
                w.stop(5.0)
        ended, interrupted = [None] * len(watches), True
    else:
        ended, interrupted = _supervise(watches, [t0 + sp[2] for sp in specs], exit_grace,
                                        on_end)
    return [_result(w.proc, b"".join(w.out), w.err, ended[i], interrupted, specs[i][3], t0)
            for i, w in enumerate(watches)]


def run_launch(argv, env, timeout, nranks, exit_grace=EXIT_GRACE):
    """Run one launch; returns dict with status, records, timing."""
    return run_group([(argv, env, timeout, nranks)], exit_grace)[0]


def _stamp(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def run_until_written(argv, env, timeout, path, exit_grace=EXIT_GRACE):
    """Run one launch whose results go to the file `path`, which its program
    writes whole and renames into place at the end (util/mg_outfile.h); its
    standard error is the caller's. A launch past its timeout, or still
    running exit_grace seconds after the file appeared (the hang in
    MPI_Finalize above), is stopped. Returns (exit status, ended): ended is
    None (it exited), "timeout", or "hung" (the file is complete)."""
    before = _stamp(path)
    proc = subprocess.Popen(_pdeathsig_prefix() + list(argv), stdout=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    t0, written, ended = time.time(), None, None
    try:
        while proc.poll() is None:
            now = time.time()
            if written is None and _stamp(path) not in (None, before):
                written = now
            if written is not None and now - written >= exit_grace:
                ended = "hung"
            elif now - t0 >= timeout:
                ended = "hung" if written is not None else "timeout"
            else:
                time.sleep(0.1)
                continue
            _kill_group(proc, 10.0, collect=False)
            break
    except (Interrupted, KeyboardInterrupt):
        _kill_group(proc, 5.0, collect=False)
        raise
    return proc.returncode, ended
