# SPDX-License-Identifier: BSD-3-Clause
"""The launches of `mpigauge run`, one step at a time: a step is one launch,
or, with --interleave turns, the configurations of one suite line in one
round started together as a group that takes turns at measuring
(mpi/driver/mg_turns.h, doc/compare.md "Turns"). Each launch gets its launch
record and the program's records, written in one piece."""
import glob
import os
import re
import sys
from dataclasses import dataclass
from typing import Optional

from . import launch as ln
from . import launcher as lr
from ..core.common import now_utc, redact_argv, redact_env, tail_text


def samples_per_launch(argv, lid):
    """argv with the program's --samples FILE (or --samples=FILE) made the
    launch's own: FILE's name with the launch id before its extension
    (s.jsonl -> s.SESSION-0003.jsonl), so launches never share a samples
    file (each program replaces its --samples FILE whole, and launches in
    turns run at once). Returns (argv, the launch's samples path or None)."""
    def own(path):
        head, tail = os.path.split(path)
        stem, ext = os.path.splitext(tail)
        return os.path.join(head, f"{stem}.{lid}{ext}" if stem else f"{tail}.{lid}")
    out, path, i = list(argv), None, 0
    while i < len(out):
        w = out[i]
        if w == "--samples" and i + 1 < len(out):
            path = out[i + 1] = own(out[i + 1])
            i += 1
        elif w.startswith("--samples="):
            path = own(w[len("--samples="):])
            out[i] = "--samples=" + path
        i += 1
    return out, path


def launch_record(lid, session, it, where, launcher, res, timeout, argv):
    """where: (round, position, rounds); argv: the command as launched."""
    rnd, pos, rounds = where
    e, c = it.entry, it.config
    rec = {"type": "launch", "launch_id": lid, "session_id": session, "benchmark": e.name,
           "repeat": rnd, "repeats": rounds, "round": rnd, "position": pos,
           "suite_line": e.line(), "source": e.source, "program": it.prog, "mpi": it.flavour,
           "launcher": launcher, "nranks": it.n, "command": redact_argv(argv, c.env),
           "date_utc": res["began"],
           "duration_s": round(res["duration_s"], 3), "timeout_s": timeout,
           "status": res["status"], "exit_code": res["exit_code"], "message": res["message"]}
    rec.update(it.mpi)
    if c.label is not None:
        rec["config"] = c.label
        rec["env"] = redact_env(c.env)
    if res["status"] != "ok":
        rec["stderr_tail"] = tail_text(res["stderr"])
    return rec


def _records(lid, it, rnd, res, keep_partial=False):
    body = []
    rows = res["records"] or (res.get("partial_records", []) if keep_partial else [])
    for r in rows:
        if r.get("type") == "cvars":
            body.append(r)          # the results file keeps each set once (resultsfile.Writer)
        elif r.get("type") in ("run", "result", "sentinel"):
            r = dict(r, launch_id=lid)
            if r["type"] == "run" and it.mpi.get("mpi_install"):
                r["mpi_launcher"] = it.mpi["mpi_install"]["launcher"]
            if it.config.label is not None:
                r["config"], r["round"] = it.config.label, rnd
            body.append(r)
    return body


@dataclass(frozen=True)
class LaunchOptions:
    """What the command line says of every launch, read from it once."""
    timeout: Optional[float] = None       # --timeout (a suite line's own wins)
    exit_grace: Optional[float] = None    # --exit-grace
    turn_slice: float = 0.005             # --turn-slice
    quiet: bool = False
    keep_partial: bool = False

    @classmethod
    def of(cls, a):
        return cls(timeout=a.timeout, exit_grace=getattr(a, "exit_grace", None),
                   turn_slice=a.turn_slice, quiet=bool(getattr(a, "quiet", False)),
                   keep_partial=bool(getattr(a, "keep_partial", False)))


def _timeout(o, it):
    return it.entry.timeout or o.timeout or ln.DEFAULT_TIMEOUT


def _env(it):
    env = lr.launch_env(it.flavour)
    env.update(it.env)
    return env


def _member(it, role):
    """A group member as a person names it: its configuration (or program) and role."""
    return f"{it.config.label or it.entry.name} (role {role})"


def group_name(lid):
    """A name no other group on the node uses: its first launch's id (the
    session and the step) and this process."""
    return f"{lid}-{os.getpid()}"


def remove_semaphores(name, shm="/dev/shm"):
    """What a killed group left in /dev/shm (glibc keeps sem NAME as
    /dev/shm/sem.NAME); the programs remove their own when they end well.
    Returns how many were removed."""
    removed = 0
    for p in glob.glob(os.path.join(glob.escape(shm), f"sem.mgt-{glob.escape(name)}-*")):
        try:
            os.unlink(p)
            removed += 1
        except OSError:
            pass
    return removed


_GROUP_RE = re.compile(r"^sem\.mgt-(\d{8}T\d{6}Z-[0-9a-f]+-\d+-(\d+))-(ready|turn|done)-\d+$")


def remove_stale_semaphores(shm="/dev/shm"):
    """The semaphores of turns groups whose front-end is gone (killed with
    SIGKILL before it could remove them): the group name ends in the
    front-end's process id (group_name). Returns how many were removed."""
    try:
        names = os.listdir(shm)
    except OSError:
        return 0
    stale = set()
    for n in names:
        m = _GROUP_RE.match(n)
        if not m:
            continue
        try:
            os.kill(int(m.group(2)), 0)     # its front-end still runs
        except ProcessLookupError:
            stale.add(m.group(1))
        except PermissionError:
            pass                            # another user's, alive
    return sum(remove_semaphores(g, shm) for g in stale)


def post_done(name, role, nranks):
    """Say for role ROLE of turns group NAME that it is done, as its own
    ranks would (mg_turns_close posts /mgt-NAME-done-ROLE once per rank of the
    node): post it up to nranks, the launch's ranks (more than its share on
    one node of several is harmless: the others test done >= their count).
    For a launch that ended without closing its turns (it died, or never
    started); its partners skip it at once instead of waiting out
    --turn-timeout. Returns the posts made: 0 when it had closed them itself,
    or when the semaphores cannot be used here."""
    import ctypes
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        sem_open, sem_post = libc.sem_open, libc.sem_post
        sem_getvalue, sem_close = libc.sem_getvalue, libc.sem_close
    except (OSError, AttributeError):
        return 0
    sem_open.restype = ctypes.c_void_p
    sem_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint]
    for f in (sem_post, sem_close, sem_getvalue):
        f.argtypes = [ctypes.c_void_p] + ([ctypes.POINTER(ctypes.c_int)]
                                          if f is sem_getvalue else [])
    sem = sem_open(f"/mgt-{name}-done-{role}".encode(), os.O_CREAT, 0o600, 0)
    if sem is None or sem == ctypes.c_void_p(-1).value:
        return 0
    value = ctypes.c_int(0)
    posts = 0
    if sem_getvalue(sem, ctypes.byref(value)) == 0:
        while value.value + posts < nranks and sem_post(sem) == 0:
            posts += 1
    sem_close(sem)
    return posts


def turns_argv(it, launcher, name, role, count, slice_s):
    """The item's command with --turns; under srun the steps must share the
    allocation's CPUs (--overlap), or the second would wait for the first."""
    argv = list(it.argv)
    if os.path.basename(argv[0]) == "srun" and "--overlap" not in argv:
        argv.insert(1, "--overlap")
    return argv + ["--turns", f"{name}:{role}:{count}", "--turn-slice", f"{slice_s:g}"]


def run_step(o, out, session, items, ids, where, launcher, turns):
    """Run items (one, or with turns a group) of one round under the launch
    options o (LaunchOptions); where: (round,
    positions, rounds). Write each launch's records; return the results in
    order."""
    rnd, positions, rounds = where
    began = now_utc()
    timeouts = [_timeout(o, it) for it in items]
    grace = o.exit_grace or ln.EXIT_GRACE
    name = None
    if not turns or len(items) < 2:
        argvs = [samples_per_launch(items[0].argv, ids[0])]
        res = [ln.run_launch(argvs[0][0], _env(items[0]), timeouts[0], items[0].n, grace)]
    else:
        name = group_name(ids[0])
        timeouts = [sum(timeouts)] * len(items)
        argvs = [samples_per_launch(turns_argv(it, launcher, name, k, len(items), o.turn_slice),
                                    ids[k]) for k, it in enumerate(items)]
        posted = {}

        def ended(k, out):
            # a member's launch ended: post its done (harmless when it said so
            # itself); it never started when it printed no record at all
            n = post_done(name, k, items[k].n)
            posted[k] = n > 0 and b'"type"' not in out
        try:
            res = ln.run_group([(argv, _env(it), timeouts[0], it.n)
                                for (argv, _), it in zip(argvs, items)], grace, ended)
        finally:
            remove_semaphores(name)
        early = [k for k in sorted(posted) if posted[k]]
        for k in early if not o.quiet else ():
            print(f"mpigauge run: turns: {_member(items[k], k)} ended after "
                  f"{res[k]['duration_s']:.1f} s without closing its turns ({res[k]['status']}, "
                  f"exit {res[k]['exit_code']}); the rest of its group went on without it",
                  file=sys.stderr, flush=True)
    for k, (it, r) in enumerate(zip(items, res)):
        r["began"] = began
        rec = launch_record(ids[k], session, it, (rnd, positions[k], rounds), launcher, r,
                            timeouts[k], argvs[k][0])
        if argvs[k][1] is not None:
            rec["samples_file"] = argvs[k][1]
        if name is not None:
            rec["turns"] = {"group": name, "role": k, "count": len(items)}
            if early:   # members whose done the front-end posted, by role
                rec["turns"]["ended_without_closing"] = early
        if r["status"] == "partial" and o.keep_partial:
            rec["message"] = rec["message"].replace("left out", "kept (--keep-partial)")
        out.write([rec] + _records(ids[k], it, rnd, r, o.keep_partial))
    return res
