# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge profile -o FILE -- COMMAND...`: the communication profile of
an MPI program (doc/applications.md). The command runs as given, with the
profiler library of the program's ABI family preloaded into the MPI
program's processes only (an `env` before the program's word, whatever the
launcher); each rank writes its profile at MPI_Finalize and the ranks'
profiles become one file with the run's provenance."""
import json
import os
import subprocess
import sys
import tempfile
import time

from ..launch import mpilib
from ..core.common import (EXIT_FAIL, EXIT_OK, PATHS, UsageError, check_output_path, now_utc,
                           redact_argv, size_label, terminal_text, text_table, version, warn,
                           write_atomic, write_text_atomic)
from ..verdict.options import check_seconds
from .profile import (FAMILY_NAMES, aggregate, find_mpi_program, library_family, profiler_library,
                      read_ranks, summary)


def _library_for(a, family, program):
    """The profiler library for a program of this ABI family, or UsageError."""
    lib = profiler_library(a.bindir, PATHS.get("profiledir"))
    if lib is None:
        raise UsageError("no profiler library (libmgprofile.so): give --bindir, a build folder "
                         "(make builds BUILD/profile/libmgprofile.so)")
    have = library_family(lib)
    if have != family:
        raise UsageError(f"{program} links {FAMILY_NAMES.get(family, family)} MPI library; the "
                         f"profiler {lib} was built for {FAMILY_NAMES.get(have, have)}: give "
                         "--bindir of a build made with that family's mpicc")
    return lib


def launch_argv(argv, k, lib, folder, env):
    """The command with the profiler preloaded into the program at argv[k]
    (after any LD_PRELOAD it already has)."""
    pre = " ".join(x for x in ((env or {}).get("LD_PRELOAD"), lib) if x)
    return argv[:k] + ["env", f"LD_PRELOAD={pre}", f"MG_PROFILE_DIR={folder}"] + argv[k:]


def head_record(a, argv, program, family, ranks, rc, wall):
    """The profile record: what ran, where, under which library."""
    first = ranks[min(ranks)]
    impl, release = mpilib.ident(first["mpi_library"])
    return {"type": "profile", "schema": 1, "name": a.name or os.path.basename(program),
            "command": redact_argv(argv, os.environ), "program": program, "family": family,
            "mpi_library": first["mpi_library"], "implementation": impl, "release": release,
            "nranks": first["nranks"], "ranks_written": sorted(ranks),
            "hosts": [ranks[k].get("host") for k in sorted(ranks)],
            "bindings": [ranks[k].get("binding") for k in sorted(ranks)],
            "exit_code": rc, "wall_s": round(wall, 6), "date_utc": now_utc(),
            "mpigauge_version": version(), "summary": summary(ranks)}


def run_command(a, argv, k, lib):
    """Run the command with the profiler: (exit code, seconds, ranks' records).
    Past --timeout its process group is stopped; the ranks that had written
    their profile by then (at MPI_Finalize, before a library that hangs
    there) are kept, with exit code 124."""
    import signal
    with tempfile.TemporaryDirectory(prefix="mg-profile-") as folder:
        cmd = launch_argv(argv, k, lib, folder, os.environ)
        t0 = time.time()
        try:
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as e:
            raise UsageError(f"{argv[0]}: {e.strerror}") from None
        try:
            rc = p.wait(timeout=a.timeout)
        except subprocess.TimeoutExpired:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(p.pid, sig)
                    p.wait(timeout=5)
                    break
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    continue
            warn(f"the command ran longer than --timeout {a.timeout:g} s and was stopped")
            rc = 124
        except BaseException:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            raise
        return rc, time.time() - t0, read_ranks(folder)


def cmd_profile(a):
    if not a.args and a.words[:1] in (["suite"], ["show"]):
        return cmd_use(a)
    if not a.args and a.words[:1] == ["import"]:
        return cmd_import(a)
    argv = list(a.args) or list(a.words)
    if not argv:
        raise UsageError("profile: give the command after --, like -- mpirun -n 2 ./a.out")
    if not a.output:
        raise UsageError("profile needs -o FILE (the profile, JSON Lines)")
    check_output_path(a.output)
    if os.path.exists(a.output) and not a.force:
        raise UsageError(f"-o {a.output}: exists (--force replaces it)")
    check_seconds("--timeout", a.timeout)
    k, program, family, _ = find_mpi_program(argv)
    lib = _library_for(a, family, program)
    rc, wall, ranks = run_command(a, argv, k, lib)
    if not ranks:
        print(f"mpigauge profile: error: the command ended with exit {rc} and no rank wrote a "
              f"profile (did {terminal_text(os.path.basename(program))} reach MPI_Finalize?)",
              file=sys.stderr)
        return EXIT_FAIL
    head = head_record(a, argv, program, family, ranks, rc, wall)
    missing = sorted(set(range(head["nranks"])) - set(ranks))
    if missing:
        warn(f"ranks {', '.join(map(str, missing[:8]))} wrote no profile (of {head['nranks']})")
    recs = [head] + [ranks[r] for r in sorted(ranks)] + aggregate(ranks)

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in recs)
    write_atomic(a.output, write)
    if not a.quiet:
        sys.stderr.write(render_summary(head, aggregate(ranks)))
    return EXIT_FAIL if rc != 0 or missing else EXIT_OK


def cmd_import(a):
    """`profile import mpip REPORT -o P`: a profile from mpiP's text report."""
    from .mpip import profile_records
    if len(a.words) != 3 or a.words[1] != "mpip":
        raise UsageError("profile import: give mpip and the report, like profile import mpip "
                         "app.4.1234.1.mpiP -o P")
    if not a.output:
        raise UsageError("profile import needs -o FILE (the profile)")
    check_output_path(a.output, [a.words[2]])
    if os.path.exists(a.output) and not a.force:
        raise UsageError(f"-o {a.output}: exists (--force replaces it)")
    recs = profile_records(a.words[2], a.name or os.path.basename(a.words[2]).split(".")[0])

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in recs)
    write_atomic(a.output, write)
    if not a.quiet:
        sys.stderr.write(render_summary(recs[0], [r for r in recs if r["type"] == "profile_call"]))
    return EXIT_OK


def cmd_use(a):
    """`profile show P`: the profile in a few lines; `profile suite P -o S`:
    the suite of the benchmarks it stands on."""
    from .predict import plan, suite_text
    from .profile import load_profile
    if len(a.words) != 2:
        raise UsageError(f"profile {a.words[0]} needs one profile file")
    prof = load_profile(a.words[1])
    if a.words[0] == "show":
        sys.stdout.write(render_summary(prof.head, prof.calls, top=20))
        return EXIT_OK
    check_seconds("--time-budget", a.time_budget)
    p = plan(prof)
    if not p.needs:
        raise UsageError(f"{a.words[1]}: no call of the profile has a benchmark to stand on")
    text = suite_text(p, a.time_budget, prof.head["name"])
    if a.output:
        check_output_path(a.output, [a.words[1]])
        write_text_atomic(a.output, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def render_summary(head, calls, top=8):
    """The profile in a few lines: MPI's share of the run, the calls that
    took most of it."""
    s = head["summary"]
    lines = [f"profile {head['name']}: {head['nranks']} ranks, {head['mpi_library'][:60]}",
             f"  MPI {s['mpi_s_mean']:.3g} s of {s['run_s_mean']:.3g} s per rank "
             f"({100 * s['mpi_share']:.1f}%)"]
    rows = sorted(calls, key=lambda c: -c["seconds"])[:top]
    total = sum(c["seconds"] for c in calls) or 1.0
    table = text_table(["call", "size", "ranks", "calls", "time s", "share"],
                       [[c["call"], size_label(c["size_class"]), str(c["comm_size"] or "-"),
                         str(c["count"]), f"{c['seconds']:.3g}",
                         f"{100 * c['seconds'] / total:.1f}%"] for c in rows],
                       right=(1, 2, 3, 4, 5))
    return "\n".join(lines + ["  " + x for x in table]) + "\n"


def add_parser(sub):
    p = sub.add_parser("profile", help="the communication profile of any MPI program",
                       description="Run an MPI program's launch command with mpigauge's PMPI "
                       "profiler preloaded into the program (built for its ABI family) and "
                       "write its communication profile: per call kind, size class and "
                       "communicator size the calls, bytes and time of every rank, MPI's share "
                       "of the run, the library and where the ranks ran (doc/applications.md).")
    p.add_argument("-o", "--output", metavar="FILE", help="the profile (JSON Lines)")
    p.add_argument("--force", action="store_true", help="replace -o's file")
    p.add_argument("--bindir", help="the build folder whose profiler to use (default the "
                   "installation's)")
    p.add_argument("--name", help="the profile's name (default the program's)")
    p.add_argument("--timeout", type=float, default=None, help="seconds the command may run")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on standard error")
    p.add_argument("--time-budget", type=float, default=0.1,
                   help="suite: each line's --time-budget (default 0.1)")
    p.add_argument("words", nargs="*", metavar="COMMAND", help="the launch command, after --")
    p.epilog = ("The command goes after --, e.g. mpigauge profile -o p.jsonl -- mpirun -n 2 "
                "./a.out. `mpigauge profile show P` shows a profile; `mpigauge profile suite P "
                "-o S` writes the suite of the benchmarks it stands on, for mpigauge run; "
                "`mpigauge profile import mpip REPORT -o P` makes a profile of mpiP's report; "
                "`mpigauge compare ... --profile P` leads with the MPI time it predicts.")
    p.set_defaults(func=cmd_profile, args=[])
