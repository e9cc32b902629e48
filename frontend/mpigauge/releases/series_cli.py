# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge series run|report`: a release series walked by bisection
(series.py), each step one interleaved `mpigauge run` of the releases it
measures, in a folder of its own that a second call resumes
(doc/releases.md, "Which release changed it")."""
import json
import os
import re
import subprocess
import sys
import time

from ..launch import mpilib
from ..launch import programs as pg
from ..launch.catalogue import Catalogue, version_key
from ..core.common import EXIT_FAIL, EXIT_INTERRUPTED, EXIT_OK, UsageError, write_text_atomic
from ..measure.configs import Config
from ..launch.launcher import launch_env
from ..verdict.options import add_verdict_options, check_launch_limits, with_threshold
from .series import FIRST_MOST, auto_stride
from .series_folder import Folder, Stop, check_folder, load_state, rewalk
from .series_report import report_json, report_text


def select(cat, a):
    """The catalogue entries of the series, in release order."""
    if a.names:
        entries = [cat.get(n) for n in a.names]
        impls = {e.get("implementation") for e in entries}
        if len(impls) > 1:
            raise UsageError("a series is one implementation's releases: these are "
                             + ", ".join(sorted(str(i) for i in impls)))
    elif a.impl:
        # one installation per release: a copy of a release the catalogue has (a test's,
        # another build's) joins a walk only when named
        entries = [e for e in cat.series(a.impl) if not e.get("copy_of")]
    else:
        raise UsageError("series run: give the installations (names of `mpigauge mpi list`) "
                         "or --impl IMPL")
    entries = sorted(entries, key=lambda e: version_key(e.get("release", "")))
    lo = version_key(a.first) if a.first else None
    hi = version_key(a.last) if a.last else None
    entries = [e for e in entries if (lo is None or version_key(e["release"]) >= lo)
               and (hi is None or version_key(e["release"]) <= hi)]
    if len(entries) < 2:
        raise UsageError(f"a series needs two or more releases; the catalogue gives "
                         f"{len(entries)} ({cat.path}: `mpigauge mpi install`, `mpigauge mpi add`)")
    return entries


def runs_under(entry, bindir, program="latency", env=None):
    """None when the programs of bindir start under the installation, load
    its library and run on two ranks under its launcher; else why not (found
    by starting one, not guessed). env: the release's --env settings."""
    prog = pg.find_program(program, pg.program_dirs([bindir]))
    if prog is None:
        return f"no mpigauge_{program} in {bindir}"
    try:
        c = Config(entry["name"], bindir=bindir, install=entry["name"])
        c.env.update(env or {})
        lib = mpilib.program_library(prog, dict(os.environ, **c.env))
        from ..measure.runner import check_library, mpi_of
        check_library(c, None, lib, prog, f"release {entry['name']}")
        flavour, head, _ = mpi_of(prog, c, None, "mpirun", 2)
    except UsageError as e:
        return str(e)
    return _launches(head + [prog, "-m", "8", "-i", "2", "-x", "0", "--no-cvars"],
                     dict(launch_env(flavour), **c.env))


def _launches(argv, env):
    """None when argv runs to exit 0 within a minute; else its last words."""
    try:
        p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"two ranks under its launcher did not finish ({e.__class__.__name__})"
    if p.returncode == 0:
        return None
    last = [x for x in p.stderr.splitlines() if x.strip()][-1:] or [f"exit {p.returncode}"]
    return f"two ranks under its launcher failed ({os.path.basename(argv[0])}: {last[0][:160]})"


def builds(entries, bindir, own, envs=None):
    """([(entry, bindir)], [(name, why)]): each release with the build it runs
    (the family's; else its own, from --build NAME=DIR or the catalogue's
    `build`), or skipped with the reason."""
    use, skipped, envs = [], [], envs or {}
    for e in entries:
        why = runs_under(e, bindir, env=envs.get(e["name"]))
        if why is None:
            use.append((e, bindir))
            continue
        mine = own.get(e["name"]) or e.get("build")
        if mine and runs_under(e, mine, env=envs.get(e["name"])) is None:
            use.append((e, mine))
            continue
        skipped.append((e["name"], why + (f"; its own build {mine} does not run either" if mine
                                          else "; give --build NAME=DIR, a build made with its "
                                          "mpicc")))
    return use, skipped


def run_step(a, folder, step, rel):
    """One interleaved `mpigauge run` of the releases rel: its state entry."""
    from ..measure.runrequest import RunRequest, config, run
    name = f"step-{step:02d}.jsonl"
    out = os.path.join(folder.path, name)
    names = [r["name"] for r in rel]
    req = RunRequest(suite=a.suite, output=out, repeat=a.rounds, nranks=a.nranks, force=True,
                     seed=folder.state["settings"]["seed"] + step, quiet=True, timeout=a.timeout,
                     launcher=a.launcher, max_ranks=a.max_ranks, args=list(a.args),
                     configs=[config(r["name"], install=r["name"], bindir=r["bindir"],
                                     env=dict(r.get("env", {}))) for r in rel],
                     threshold=a.threshold, alpha=a.alpha, error_control=a.error_control)
    if a.max_rounds > a.rounds:   # rounds added to the lines that hold an undecided neighbour pair
        req.until_decided, req.min_rounds, req.max_rounds = True, a.rounds, a.max_rounds
        req.decide_pairs = list(zip(names, names[1:]))
    t0 = time.time()
    rc = run(req)
    launches = 0
    if os.path.isfile(out):
        with open(out, "rb") as f:
            launches = sum(1 for line in f if _is_launch(line))
    return {"step": step, "labels": names, "file": name, "exit": rc,
            "seconds": round(time.time() - t0, 1), "launches": launches,
            "done": rc in (EXIT_OK, EXIT_FAIL) and launches > 0}, rc


def _is_launch(line):
    try:
        rec = json.loads(line)
    except ValueError:
        return False
    return isinstance(rec, dict) and rec.get("type") == "launch"


def cmd_series(a):
    check_folder(a.output)
    if not os.path.isdir(a.bindir):
        raise UsageError(f"--bindir {a.bindir}: not a folder")
    cat = Catalogue(a.cache)
    entries = select(cat, a)
    envs = _envs(a.env or [], [e["name"] for e in entries])
    own = dict(_pair(b) for b in a.build or [])
    use, skipped = builds(entries, os.path.abspath(a.bindir), own, envs)
    for name, why in skipped:
        print(f"mpigauge series: {name} skipped: {why}", file=sys.stderr)
    if len(use) < 2:
        raise UsageError("fewer than two releases of the series run the programs: nothing to "
                         "walk")
    releases = [{"name": e["name"], "release": e["release"], "library": e.get("library"),
                 "bindir": b, "env": envs.get(e["name"], {})} for e, b in use]
    # the stride as used, not "auto": a later default must not change the
    # walk a folder's steps were measured for
    settings = {"suite": a.suite, "rounds": a.rounds, "max_rounds": a.max_rounds,
                "stride": a.stride or auto_stride(len(releases)),
                "threshold": a.threshold_value, "alpha": a.alpha,
                "error_control": a.error_control, "nranks": a.nranks,
                "args": list(a.args), "seed": a.seed}
    folder = Folder(a.output, settings, releases, [list(s) for s in skipped], a.force)
    stopped = []

    def get(step, indices, path):
        labels = [releases[i]["name"] for i in indices]
        if path is not None:
            say(a, f"step {step}: {' '.join(labels)}: measured before "
                f"({os.path.basename(path)})")
            return path
        more = f", up to {a.max_rounds} where undecided" if a.max_rounds > a.rounds else ""
        say(a, f"step {step}: {' '.join(labels)} ({len(labels)} releases x {a.rounds} "
            f"rounds{more} of the {a.suite} suite)")
        st, rc = run_step(a, folder, step, [releases[i] for i in indices])
        folder.record(st)
        if rc == EXIT_INTERRUPTED or not st["done"]:
            stopped.append(rc)
            raise Stop()
        return os.path.join(folder.path, st["file"])
    try:
        w, notes = rewalk(folder.path, folder.state, get)
    except Stop:
        print(f"mpigauge series: stopped; `mpigauge series run` with the same arguments "
              f"resumes it from {a.output}", file=sys.stderr)
        return stopped[0] if stopped and stopped[0] == EXIT_INTERRUPTED else EXIT_FAIL
    return _finish(a, folder, folder.state["releases"], w, notes)


def _profile_lead(a, folder, state, w):
    """--profile: the profile's predicted change for every pair the walk
    compared; --model: the parameters' verdicts of every pair."""
    from .series_report import along_series, model_along_series, scaling_along_series
    out = ""
    if getattr(a, "profile", None):
        out += "\n".join(along_series(folder, state, w, a.profile, a.threshold_value)) + "\n\n"
    if getattr(a, "model", False):
        out += "\n".join(model_along_series(folder, state, w, a.threshold_value)) + "\n\n"
    scaling = scaling_along_series(folder, state, w, max(a.threshold_value, 0.10))
    if scaling:
        out += "\n".join(scaling) + "\n\n"
    return out


def _finish(a, folder, releases, w, notes):
    steps = folder.state["steps"]
    text = _profile_lead(a, folder.path, folder.state, w) + report_text(folder.state, releases,
                                                                        w, notes)
    data = report_json(folder.state, releases, w, notes)
    write_text_atomic(os.path.join(folder.path, "report.txt"), text)
    write_text_atomic(os.path.join(folder.path, "report.json"),
                      json.dumps(data, indent=1, sort_keys=True) + "\n")
    sys.stdout.write(text)
    bad = [s for s in steps if s.get("exit") not in (EXIT_OK, None)]
    return EXIT_FAIL if bad else EXIT_OK


def cmd_report(a):
    """The report of a series' folder from its step files (nothing is run)."""
    st = load_state(a.folder)
    w, notes = rewalk(a.folder, st)
    if a.format == "json":
        sys.stdout.write(json.dumps(report_json(st, st["releases"], w, notes), indent=1,
                                    sort_keys=True) + "\n")
    else:
        sys.stdout.write(_profile_lead(a, a.folder, st, w) + report_text(st, st["releases"], w,
                                                                         notes))
    return EXIT_OK


def say(a, msg):
    if not a.quiet:
        print(f"mpigauge series: {msg}", file=sys.stderr, flush=True)


def _envs(specs, names):
    """{release name: {VAR: VALUE}} of the --env options (NAME all: every one)."""
    out = {}
    for text in specs:
        m = re.fullmatch(r"([^:]+):([A-Z][A-Za-z0-9_]*)=(.*)", text, re.S)
        if not m:
            raise UsageError(f"--env {text!r}: give NAME:VAR=VALUE (VAR an environment variable, "
                             "NAME a release of the series or all)")
        name, var, value = m.groups()
        if name != "all" and name not in names:
            raise UsageError(f"--env {text}: {name} is not a release of the series "
                             f"({', '.join(names)})")
        for n in (names if name == "all" else [name]):
            out.setdefault(n, {})[var] = value
    return out


def _pair(text):
    name, sep, d = text.partition("=")
    if not sep or not name or not d:
        raise UsageError(f"--build {text!r}: give NAME=DIR (a build of mpigauge made with that "
                         "installation's mpicc)")
    if not os.path.isdir(d):
        raise UsageError(f"--build {text}: {d} is not a folder")
    return name, os.path.abspath(d)


def add_parser(sub):
    s = sub.add_parser("series", help="walk a release series: the release that changed each "
                       "figure, by bisection", description="Measure the ends of a series of "
                       "releases (installations of `mpigauge mpi`, one ABI family, one build), "
                       "then, where neighbours differ, the releases between them by bisection, "
                       "each step one interleaved run, until every change is pinned to two "
                       "adjacent releases; report it with its verdict and what the host paid "
                       "and the library was set to on each side (doc/releases.md).")
    s.add_argument("action", choices=("run", "report", "history"))
    s.add_argument("names", nargs="*", metavar="NAME",
                   help="run: the installations (default: --impl's); report, history: the "
                   "series' folder")
    s.add_argument("--db", help="history: the history database (default as for mpigauge "
                   "history)")
    s.add_argument("--impl", help="run: every installation of this implementation "
                   "(mpich, openmpi, impi)")
    s.add_argument("--from", dest="first", metavar="RELEASE", help="run: the first release")
    s.add_argument("--to", dest="last", metavar="RELEASE", help="run: the last release")
    s.add_argument("--bindir", help="run: the build the releases run (made with one of them)")
    s.add_argument("--build", action="append", metavar="NAME=DIR",
                   help="run: the build of a release that cannot run --bindir's (repeatable)")
    s.add_argument("-o", "--output", metavar="DIR", help="run: the series' folder (resumed "
                   "when it holds the same series)")
    s.add_argument("--force", action="store_true", help="run: start the folder's series over")
    s.add_argument("--suite", default="quick", help="run: the suite (default quick)")
    s.add_argument("--rounds", type=int, default=10, help="run: rounds per step (default 10)")
    s.add_argument("--max-rounds", type=int, default=None,
                   help="run: rounds a step goes on to at the suite lines that hold a pair of "
                   "neighbours not yet decided (looks after --rounds, x1.5 each, and this cap, "
                   "each at alpha / looks; default 2 x --rounds; --rounds: none added)")
    s.add_argument("--stride", type=int, default=None,
                   help="run: the first step measures every STRIDE-th release and the ends "
                   f"(default: at most {FIRST_MOST} releases, so every release of a short "
                   "series; 1 measures every release)")
    s.add_argument("--env", action="append", metavar="NAME:VAR=VALUE",
                   help="run: an environment variable of one release's launches (NAME all: "
                   "every release's; repeatable, later ones win)")
    s.add_argument("-n", "--nranks", type=int, default=2)
    s.add_argument("--timeout", type=float, default=None)
    s.add_argument("--launcher", default=None)
    s.add_argument("--max-ranks", type=int, default=None)
    s.add_argument("--seed", type=int, default=None,
                   help="run: seed of the first step's order (default: drawn, kept in the folder)")
    s.add_argument("--cache", help="the catalogue's folder (as `mpigauge mpi --cache`)")
    s.add_argument("--format", choices=("text", "json"), default="text", help="report: format")
    s.add_argument("-q", "--quiet", action="store_true")
    s.add_argument("--profile", metavar="PROFILE", help="run, report: lead with the MPI time "
                   "this profile (mpigauge profile) predicts for every pair of releases compared "
                   "(its suite: mpigauge profile suite)")
    s.add_argument("--model", action="store_true", help="run, report: lead with Hockney's "
                   "parameters of the latency curves for every pair of releases compared, each "
                   "with its verdict, naming the release that changed one (doc/models.md)")
    add_verdict_options(s, "run: ")
    s.epilog = "Arguments after -- go to every benchmark of every step (as for run)."
    s.set_defaults(args=[])
    s.set_defaults(func=with_threshold(_checked))


def _checked(a):
    a.args = list(a.args or [])
    if a.action in ("report", "history"):
        if len(a.names) != 1:
            raise UsageError(f"series {a.action} needs the series' folder")
        a.folder = a.names[0]
        if a.action == "history":
            from .series_history import cmd_history
            return cmd_history(a)
        return cmd_report(a)
    if not a.bindir or not a.output:
        raise UsageError("series run needs --bindir (the build) and -o DIR (the series' folder)")
    _check_run_options(a)
    return cmd_series(a)


_RELEASE_RE = re.compile(r"[0-9]+(\.[0-9]+)*([A-Za-z]+[0-9]*)?")


def _check_run_options(a):
    """Every option of `series run` checked before anything is written or
    launched (a refused option never leaves a series.json behind)."""
    if a.rounds < 2 or (a.stride is not None and a.stride < 1):
        raise UsageError("--rounds must be at least 2 and --stride at least 1")
    if a.max_rounds is None:
        a.max_rounds = 2 * a.rounds
    if a.max_rounds < a.rounds:
        raise UsageError(f"--max-rounds {a.max_rounds}: at least --rounds ({a.rounds})")
    if a.nranks < 2:
        raise UsageError(f"-n {a.nranks}: a series runs on 2 or more ranks")
    check_launch_limits(a)
    for opt, v in (("--from", a.first), ("--to", a.last)):
        if v is not None and not _RELEASE_RE.fullmatch(v):
            raise UsageError(f"{opt} {v!r}: give a release, like 4.1.3 or 5.0.0rc1")
    twice = sorted({n for n in a.names if a.names.count(n) > 1})
    if twice:
        raise UsageError(f"{', '.join(twice)}: named twice (a series has each release once)")
    from ..launch.suite import load_suite
    load_suite(a.suite)
