# SPDX-License-Identifier: BSD-3-Clause
"""The launches of `mpigauge run`, one step at a time: a step is one launch,
or, with --interleave turns, the configurations of one suite line in one
round started together as a group that takes turns at measuring
(mpi/mg_turns.h, doc/compare.md "Turns"). Each launch gets its launch
record and the program's records, written in one piece."""
import glob
import os

from . import launch as ln
from .common import now_utc


def launch_record(lid, session, it, where, launcher, res, timeout):
    """where: (round, position, rounds)."""
    rnd, pos, rounds = where
    e, c = it.entry, it.config
    rec = {"type": "launch", "launch_id": lid, "session_id": session, "benchmark": e.name,
           "repeat": rnd, "repeats": rounds, "round": rnd, "position": pos,
           "suite_line": e.line(), "source": e.source, "program": it.prog, "mpi": it.flavour,
           "launcher": launcher, "nranks": it.n, "command": it.argv, "date_utc": res["began"],
           "duration_s": round(res["duration_s"], 3), "timeout_s": timeout,
           "status": res["status"], "exit_code": res["exit_code"], "message": res["message"]}
    if c.label is not None:
        rec["config"] = c.label
        rec["env"] = c.env
    if res["status"] != "ok":
        rec["stderr_tail"] = ln._tail(res["stderr"])
    return rec


def _records(lid, it, rnd, res):
    body = []
    for r in res["records"]:
        if r.get("type") in ("run", "result", "sentinel"):
            r = dict(r, launch_id=lid)
            if it.config.label is not None:
                r["config"], r["round"] = it.config.label, rnd
            body.append(r)
    return body


def _timeout(a, it):
    return it.entry.timeout or a.timeout or ln.DEFAULT_TIMEOUT


def _env(it):
    env = ln.launch_env(it.flavour)
    env.update(it.env)
    return env


def group_name(session, seq):
    """A name no other group on the node uses: the session and the step."""
    return f"{session}-{os.getpid()}-{seq}"


def remove_semaphores(name):
    """What a killed group left in /dev/shm (glibc keeps sem NAME as
    /dev/shm/sem.NAME); the programs remove their own when they end well."""
    for p in glob.glob(f"/dev/shm/sem.mgt-{glob.escape(name)}-*"):
        try:
            os.unlink(p)
        except OSError:
            pass


def turns_argv(it, launcher, name, role, count, slice_s):
    """The item's command with --turns; under srun the steps must share the
    allocation's CPUs (--overlap), or the second would wait for the first."""
    argv = list(it.argv)
    if os.path.basename(argv[0]) == "srun" and "--overlap" not in argv:
        argv.insert(1, "--overlap")
    return argv + ["--turns", f"{name}:{role}:{count}", "--turn-slice", f"{slice_s:g}"]


def run_step(a, out, session, items, ids, rnd, rounds, launcher, turns):
    """Run items (one, or a group with turns) of round rnd; write each
    launch's records; return the results in order."""
    began = now_utc()
    if not turns or len(items) < 2:
        it = items[0]
        res = [ln.run_launch(it.argv, _env(it), _timeout(a, it), it.n)]
        argvs = [it.argv]
        timeouts = [_timeout(a, it)]
    else:
        name = group_name(session, ids[0].rsplit("-", 1)[-1])
        total = sum(_timeout(a, it) for it in items)
        argvs = [turns_argv(it, launcher, name, k, len(items), a.turn_slice)
                 for k, it in enumerate(items)]
        timeouts = [total] * len(items)
        try:
            res = ln.run_group([(argv, _env(it), total, it.n) for argv, it in zip(argvs, items)])
        finally:
            remove_semaphores(name)
    for k, (it, r) in enumerate(zip(items, res)):
        r["began"] = began
        lid = ids[k]
        shown = it if argvs[k] is it.argv else _with_argv(it, argvs[k])
        rec = launch_record(lid, session, shown, (rnd, k, rounds), launcher, r, timeouts[k])
        if turns and len(items) > 1:
            rec["turns"] = {"group": name, "role": k, "count": len(items)}
        out.write([rec] + _records(lid, it, rnd, r))
    return res


def _with_argv(it, argv):
    import copy
    c = copy.copy(it)
    c.argv = argv
    return c
