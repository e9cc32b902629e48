# SPDX-License-Identifier: BSD-3-Clause
"""`compare --by-allocation --screen-slow FILE`: each allocation named slow
is screened at once with `mpigauge screen run` on its own nodes (srun -w
NODES -N n, one rank per node; doc/slurm.md), and the screen's verdict
joins the comparison: a bad node stays bad after its job ends, so the
screen names it (or says the nodes now meet the floors: the slowness left
with the allocation)."""
import os
import subprocess

from ..core.common import UsageError, check_output_path
from ..launch.programs import find_program, program_dirs
from ..verdict.allocations import session_labels, slow_allocations


def check(a):
    """The refusals of --screen-slow that need no data."""
    if a.screen_option and not a.screen_slow:
        raise UsageError("--screen-option passes options to the screen of --screen-slow: give "
                         "--screen-slow FILE")
    if not a.screen_slow:
        return
    if not a.by_allocation:
        raise UsageError("--screen-slow screens the allocations --by-allocation names: give "
                         "--by-allocation")
    if os.path.lexists(a.screen_slow):
        raise UsageError(f"--screen-slow {a.screen_slow}: exists; the screen writes a new file "
                         "(an earlier one is never replaced)")
    check_output_path(a.screen_slow, a.files, "--screen-slow")


def _bindir(rs, sid):
    """The build folder of the session's programs (where mpigauge_screen is)."""
    for la in rs.launches:
        prog = la.meta.get("program") if la.pair_key and la.pair_key[0] == sid else None
        if not prog:
            continue
        for d in (os.path.dirname(os.path.dirname(prog)), os.path.dirname(prog)):
            if os.path.isdir(d) and find_program("screen", program_dirs([d])):
                return d
    return None


def output_for(path, k, n):
    """FILE for one screen; FILE-K.ext for the K-th of several."""
    if n == 1:
        return path
    stem, ext = os.path.splitext(path)
    return f"{stem}-{k}{ext}"


def screen_commands(base, new, threshold, path, options=()):
    """[(session id, its words, argv or None with why)] of the allocations
    named slow."""
    from ..measure.sbatch import frontend_command
    labels = session_labels(base)
    allocs = {s.get("session_id"): s.get("allocation") or {} for s in base.sessions}
    named, _ = slow_allocations(base, new, threshold)
    out = []
    for k, (sid, _, _) in enumerate(named, 1):
        al = allocs.get(sid) or {}
        nodes, n = al.get("nodelist"), str(al.get("num_nodes") or "")
        bindir = _bindir(base, sid)
        if not nodes or not n.isdigit():
            out.append((sid, labels.get(sid, sid), None, "its session names no Slurm node list"))
        elif bindir is None:
            out.append((sid, labels.get(sid, sid), None, "no mpigauge_screen beside its programs"))
        else:
            argv = frontend_command() + [
                "screen", "run", "-n", n, "--launcher", f"srun -w {nodes} -N {n} "
                "--ntasks-per-node=1", "--bindir", bindir, "-o", output_for(path, k, len(named))]
            out.append((sid, labels.get(sid, sid), argv + (["--", *options] if options else []),
                        ""))
    return out


def screen_lines(base, new, threshold, path, options=(), timeout=3600):
    """(lines, record) of the screens of the allocations named slow."""
    lines, recs = [], []
    cmds = screen_commands(base, new, threshold, path, options)
    if not cmds:
        return ["--screen-slow: no allocation named slow, nothing screened"], \
            {"type": "allocation_screens", "screens": []}
    for sid, words, argv, why in cmds:
        if argv is None:
            lines.append(f"screen of allocation {words}: not run: {why}")
            recs.append({"session_id": sid, "error": why})
            continue
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
            rc, said = p.returncode, (p.stdout.strip() or p.stderr.strip())
        except (OSError, subprocess.TimeoutExpired) as e:
            rc, said = None, f"the screen did not finish: {e}"
        verdict = {0: "nothing found", 3: "something named", 4: "inconclusive"}.get(
            rc, f"failed (exit {rc})")
        lines.append(f"screen of allocation {words}: {verdict} ({argv[argv.index('-o') + 1]})")
        lines += ["  " + x for x in said.splitlines()]
        recs.append({"session_id": sid, "command": argv, "exit_code": rc, "verdict": verdict,
                     "output": argv[argv.index("-o") + 1]})
    return lines, {"type": "allocation_screens", "screens": recs}
