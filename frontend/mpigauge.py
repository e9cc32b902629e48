#!/usr/bin/env python3
"""mpigauge: run suites of mpigauge benchmarks, compare, plot and report results.

  mpigauge run      run a suite, every benchmark as its own launch, K times
  mpigauge compare  ratio of medians, its 95% CI and a verdict per benchmark and size
  mpigauge plot     median against message size with CI bands (needs matplotlib)
  mpigauge report   one self-contained HTML page for a results file

run, compare and report use only the Python standard library; plot (and the
plots embedded in HTML pages) need matplotlib. `mpigauge COMMAND --help` lists
the options. Results are the programs' JSON Lines (doc/output.md) plus the
runner's "session" and "launch" records (doc/compare.md).
"""
import argparse
import base64
import datetime
import html
import io
import json
import math
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import OrderedDict

# Substituted by `make` for the installed script; left as is in the source tree.
VERSION = "@VERSION@"
INSTALL_BINDIR = "@bindir@"
INSTALL_SUITESDIR = "@suitesdir@"
SOURCE_SUITESDIR = "@srcsuitesdir@"

SUITE_NAMES = ("quick", "pt2pt", "collectives", "overlap", "full")
PROGRAM_SUBDIRS = ("pt2pt", "collective", "collectives", "overlap")
DEFAULT_TIMEOUT = 900.0
SRUN_MPI_PLUGIN = {"openmpi": "pmix", "mpich": "pmi2"}

# Exit codes of the front-end.
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_NO_MATPLOTLIB, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class UsageError(Exception):
    """A problem with the command line or an input file: message, exit 2."""


def _subst(value):
    return None if value.startswith("@") and value.endswith("@") else value


def version():
    return _subst(VERSION) or "source"


def warn(msg):
    print(f"mpigauge: warning: {msg}", file=sys.stderr)


# --------------------------------------------------------------------------
# statistics (pure functions, tested in tests/frontend/test_stats.py)
# --------------------------------------------------------------------------

def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median of no values")
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def quantile(xs, p):
    """Hyndman & Fan type 7 (R's and NumPy's default), as the C side."""
    s = sorted(xs)
    if not s:
        raise ValueError("quantile of no values")
    h = (len(s) - 1) * p
    lo = math.floor(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def _binom_cdf_half(k, n):
    """P(B <= k) for B ~ Binomial(n, 1/2), exact."""
    if k < 0:
        return 0.0
    return sum(math.comb(n, i) for i in range(0, min(k, n) + 1)) / 2.0 ** n


def median_ci(xs, level=0.95):
    """Distribution-free CI of the median from order statistics (as the C side):
    [x(r), x(n+1-r)] with the largest r whose coverage is at least `level`;
    [min, max] when no r reaches it. Returns (low, high, coverage)."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median_ci of no values")
    best = 1
    for r in range(1, n // 2 + 1):
        if 1.0 - 2.0 * _binom_cdf_half(r - 1, n) >= level:
            best = r
        else:
            break
    cov = 1.0 - 2.0 * _binom_cdf_half(best - 1, n)
    return s[best - 1], s[n - best], cov


def _u_counts(m, n):
    """Number of orderings giving each value of U (0..m*n) for sample sizes
    m, n without ties (Mann & Whitney's recursion)."""
    # table[j][k]: counts for sizes (i, j) built up over i
    prev = [[1] for _ in range(n + 1)]  # i = 0: U = 0 only
    for i in range(1, m + 1):
        cur = [[1]]  # j = 0
        for j in range(1, n + 1):
            size = i * j + 1
            row = [0] * size
            a = prev[j]        # (i-1, j): last element is from x, adds j
            b = cur[j - 1]     # (i, j-1): last element is from y, adds 0
            for k, c in enumerate(a):
                row[k + j] += c
            for k, c in enumerate(b):
                row[k] += c
            cur.append(row)
        prev = cur
    return prev[n]


def mann_whitney(x, y):
    """Two-sided Mann-Whitney U test. Returns (U of x, p-value, method).
    Exact distribution when there are no ties and m + n <= 60, otherwise the
    normal approximation with tie correction and continuity correction."""
    m, n = len(x), len(y)
    if m == 0 or n == 0:
        raise ValueError("Mann-Whitney needs two non-empty samples")
    allv = sorted([(v, 0) for v in x] + [(v, 1) for v in y])
    ranks = [0.0] * len(allv)
    ties = []
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1][0] == allv[i][0]:
            j += 1
        r = 0.5 * (i + j) + 1.0
        for k in range(i, j + 1):
            ranks[k] = r
        if j > i:
            ties.append(j - i + 1)
        i = j + 1
    rx = sum(r for r, (_, g) in zip(ranks, allv) if g == 0)
    u = rx - m * (m + 1) / 2.0
    if not ties and m + n <= 60:
        counts = _u_counts(m, n)
        total = float(sum(counts))
        k = int(round(u))
        lo = sum(counts[: k + 1]) / total
        hi = sum(counts[k:]) / total
        return u, min(1.0, 2.0 * min(lo, hi)), "exact"
    mu = m * n / 2.0
    nn = m + n
    tie_term = sum(t ** 3 - t for t in ties) / (nn * (nn - 1))
    var = m * n / 12.0 * ((nn + 1) - tie_term)
    if var <= 0:
        return u, 1.0, "normal"
    z = (abs(u - mu) - 0.5) / math.sqrt(var)
    p = math.erfc(max(z, 0.0) / math.sqrt(2.0))
    return u, min(1.0, p), "normal"


def min_p_value(m, n):
    """Smallest two-sided p the exact Mann-Whitney test can give for m, n."""
    return min(1.0, 2.0 / math.comb(m + n, m))


def ratio_ci(base, new, level=0.95):
    """Distribution-free CI for the ratio new/base of two location parameters:
    the order statistics of the m*n pairwise ratios new_i/base_j (Hodges-Lehmann
    / Bauer, the interval that goes with the Mann-Whitney test), with the ranks
    taken from the exact U distribution. Returns (low, high, coverage); with
    too few values for `level` the widest interval (min, max) and its coverage."""
    m, n = len(base), len(new)
    if m == 0 or n == 0:
        raise ValueError("ratio_ci needs two non-empty samples")
    logs = sorted(math.log(b) - math.log(a) for b in new for a in base)
    counts = _u_counts(m, n)
    total = float(sum(counts))
    best, cum = 1, 0.0
    for k in range(1, (m * n) // 2 + 1):
        cum += counts[k - 1]                  # P(U <= k - 1) * total
        if 1.0 - 2.0 * cum / total >= level:
            best = k
        else:
            break
    k = best
    cov = 1.0 - 2.0 * sum(counts[:k]) / total
    return math.exp(logs[k - 1]), math.exp(logs[m * n - k]), cov


LOWER_IS_BETTER = {"s", "ms", "us", "ns", "cycles", "usec", "sec"}


def higher_is_better(unit):
    """True for rates (MB/s, ops/s, %), False for times; None if unknown."""
    u = (unit or "").strip()
    if u in LOWER_IS_BETTER:
        return False
    if u.endswith("/s") or u == "%":
        return True
    return None


def verdict(base, new, unit, threshold=0.05, alpha=0.05, base_ci=None, new_ci=None):
    """Compare per-launch medians `base` and `new` (lists of floats > 0).

    ratio = median(new) / median(base); speedup s = ratio for higher-is-better
    units, 1/ratio otherwise (s > 1: new is faster). With at least 2 launches
    on each side the test is a two-sided Mann-Whitney U on the per-launch
    medians and the CI of the ratio is the distribution-free one of ratio_ci;
    with a single launch on a side the CI is built from the launches' own
    95% CIs (base_ci, new_ci: (low, high)) and "significant" means it excludes 1.

    Verdict: "faster"/"slower" when significant and s beyond the threshold
    (s > 1 + t or s < 1 / (1 + t)); "same" when s is within it; "unclear" when
    s is beyond it but the test is not significant (too few or too noisy
    launches). For units of unknown direction, "higher"/"lower" replace
    faster/slower."""
    if not base or not new:
        raise ValueError("verdict needs values on both sides")
    mb, mn = median(base), median(new)
    ratio = mn / mb if mb > 0 else float("inf")
    hib = higher_is_better(unit)
    out = {"ratio": ratio, "base_median": mb, "new_median": mn,
           "m": len(base), "n": len(new), "p": None, "note": ""}
    if len(base) >= 2 and len(new) >= 2:
        _, p, method = mann_whitney(new, base)
        lo, hi, cov = ratio_ci(base, new)
        out.update(p=p, test="mann-whitney-" + method, ci=(lo, hi), ci_coverage=cov)
        significant = p < alpha
        if min_p_value(len(base), len(new)) >= alpha:
            out["note"] = (f"{len(base)} vs {len(new)} launches cannot reach p < {alpha:g}; "
                           "use at least 4 launches per side (--repeat)")
    else:
        if base_ci and new_ci and base_ci[0] > 0 and base_ci[1] > 0 and new_ci[0] > 0:
            lo, hi = new_ci[0] / base_ci[1], new_ci[1] / base_ci[0]
        else:
            lo, hi = float("nan"), float("nan")
        out.update(test="within-launch-ci", ci=(lo, hi), ci_coverage=None)
        significant = not (lo <= 1.0 <= hi) if not math.isnan(lo) else False
        out["note"] = "single launch: CI from the launches' own CIs, no test between launches"
    if hib is None:
        s = ratio
        names = ("higher", "lower")
    else:
        s = ratio if hib else (1.0 / ratio if ratio > 0 else float("inf"))
        names = ("faster", "slower")
    out["speedup"] = s
    if 1.0 / (1.0 + threshold) <= s <= 1.0 + threshold:
        v = "same"
    elif significant:
        v = names[0] if s > 1.0 else names[1]
    else:
        v = "unclear"
    out["verdict"] = v
    return out


# --------------------------------------------------------------------------
# suite files
# --------------------------------------------------------------------------

class SuiteEntry:
    def __init__(self, name, args, ranks=None, timeout=None, source=""):
        self.name = name          # benchmark name without mpigauge_
        self.args = args          # list of program arguments
        self.ranks = ranks        # fixed rank count or None (use -n)
        self.timeout = timeout    # seconds or None (use --timeout)
        self.source = source      # "file:line"

    def __repr__(self):
        return (f"SuiteEntry({self.name!r}, {self.args!r}, ranks={self.ranks!r}, "
                f"timeout={self.timeout!r}, source={self.source!r})")

    def line(self):
        return " ".join([self.name] + [shlex.quote(a) for a in self.args])


_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def suite_dirs():
    here = os.path.dirname(os.path.realpath(__file__))
    dirs = [os.path.join(here, "suites")]
    for d in (_subst(INSTALL_SUITESDIR), _subst(SOURCE_SUITESDIR)):
        if d:
            dirs.append(d)
    return dirs


def find_suite(spec, relative_to=None):
    """A suite name (quick, pt2pt, ...) or a file path -> path."""
    if os.sep in spec or spec.endswith(".txt") or os.path.isfile(spec):
        path = spec
        if relative_to and not os.path.isabs(path):
            cand = os.path.join(relative_to, path)
            if os.path.isfile(cand):
                path = cand
        if not os.path.isfile(path):
            raise UsageError(f"suite file {spec!r} not found")
        return path
    if not _NAME_RE.match(spec):
        raise UsageError(f"bad suite name {spec!r}")
    for d in ([relative_to] if relative_to else []) + suite_dirs():
        cand = os.path.join(d, spec + ".txt")
        if os.path.isfile(cand):
            return cand
    raise UsageError(f"unknown suite {spec!r}: no {spec}.txt in "
                     + ", ".join(suite_dirs()) + f" (built-in suites: {', '.join(SUITE_NAMES)})")


def parse_suite(text, source="<suite>", include=None, _stack=()):
    """Parse a suite file's text into SuiteEntry objects.

    One benchmark invocation per line: NAME [ARGS...], NAME being the program
    name with or without "mpigauge_". Optional KEY=VALUE words before NAME:
    ranks=N (this line always runs on N ranks), timeout=SECONDS. "include
    SUITE" inserts another suite (a name or a file). '#' starts a comment;
    words are split like a POSIX shell (quotes work)."""
    entries = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        where = f"{source}:{lineno}"
        try:
            words = shlex.split(raw, comments=True)
        except ValueError as e:
            raise UsageError(f"{where}: {e}") from None
        if not words:
            continue
        if words[0] == "include":
            if len(words) != 2:
                raise UsageError(f"{where}: 'include' takes one suite name or file")
            if include is None:
                raise UsageError(f"{where}: include is not allowed here")
            entries.extend(include(words[1], where, _stack))
            continue
        ranks = timeout = None
        while words and "=" in words[0] and not words[0].startswith("-"):
            key, _, val = words.pop(0).partition("=")
            if key == "ranks":
                if not val.isdigit() or int(val) < 1:
                    raise UsageError(f"{where}: ranks must be a positive integer, not {val!r}")
                ranks = int(val)
            elif key == "timeout":
                try:
                    timeout = float(val)
                except ValueError:
                    timeout = -1.0
                if not timeout > 0 or math.isinf(timeout):
                    raise UsageError(f"{where}: timeout must be a positive number of seconds, not {val!r}")
            else:
                raise UsageError(f"{where}: unknown key {key!r} (known: ranks=N, timeout=SECONDS)")
        if not words:
            raise UsageError(f"{where}: no benchmark name after the keys")
        name = words[0]
        if name.startswith("mpigauge_"):
            name = name[len("mpigauge_"):]
        if name.startswith("-") or not _NAME_RE.match(name) or "/" in name:
            raise UsageError(f"{where}: {words[0]!r} is not a benchmark name "
                             "(a line is: [ranks=N] [timeout=S] NAME [ARGS...])")
        entries.append(SuiteEntry(name, words[1:], ranks, timeout, where))
    return entries


def load_suite(spec):
    def include(sub, where, stack):
        here = os.path.dirname(os.path.abspath(stack[-1])) if stack else None
        try:
            path = find_suite(sub, relative_to=here)
        except UsageError as e:
            raise UsageError(f"{where}: {e}") from None
        real = os.path.realpath(path)
        if real in stack:
            raise UsageError(f"{where}: include cycle through {path}")
        return _load(path, stack + (real,))

    def _load(path, stack):
        with open(path, encoding="utf-8") as f:
            return parse_suite(f.read(), path, include, stack)

    path = find_suite(spec)
    entries = _load(path, (os.path.realpath(path),))
    if not entries:
        raise UsageError(f"suite {path} lists no benchmarks")
    return path, entries


# --------------------------------------------------------------------------
# programs, MPI flavour, launchers
# --------------------------------------------------------------------------

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
    here = os.path.dirname(os.path.realpath(__file__))
    add(here)                      # installed: next to the programs
    add(os.path.dirname(here))     # build tree: _build/<mpi>/{pt2pt,...}
    if _subst(INSTALL_BINDIR):
        add(_subst(INSTALL_BINDIR))
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


def launcher_argv(launcher, flavour, n, ncpus=None):
    """The command line prefix that starts n ranks of a program built with
    `flavour` ('openmpi' or 'mpich'). launcher: mpirun or mpiexec (the MPI's own
    launcher, whatever its name: mpirun.openmpi, mpiexec.mpich), srun (with the
    --mpi plugin that works for the flavour), or a command line of your own
    ("{n}" is replaced by the rank count; without "{n}", "-n N" is appended)."""
    ncpus = ncpus or os.cpu_count() or 1
    over = n > ncpus
    if launcher in ("mpirun", "mpiexec"):
        if flavour == "openmpi":
            argv = [_first_on_path(["mpirun.openmpi", "mpirun"]), "-n", str(n)]
            argv += ["--oversubscribe", "--bind-to", "none"] if over else ["--bind-to", "core"]
        elif flavour == "mpich":
            argv = [_first_on_path(["mpiexec.mpich", "mpiexec.hydra", "mpiexec"]), "-n", str(n)]
            argv += ["-bind-to", "none"] if over else ["-bind-to", "core"]
        else:
            raise UsageError("cannot tell which MPI the programs use; give --mpi openmpi|mpich")
        return argv
    if launcher == "srun":
        if flavour not in SRUN_MPI_PLUGIN:
            raise UsageError("cannot tell which MPI the programs use (srun needs the right "
                             "--mpi plugin); give --mpi openmpi|mpich")
        return ["srun", "-n", str(n), "--mpi=" + SRUN_MPI_PLUGIN[flavour], "--kill-on-bad-exit=1"]
    try:
        words = shlex.split(launcher)
    except ValueError as e:
        raise UsageError(f"--launcher {launcher!r}: {e}") from None
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


def _kill_group(proc, grace=10.0):
    """SIGTERM the launch's process group (it has its own session), then SIGKILL."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            return proc.communicate(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
    return b"", b""


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


_WRONG_RANKS_RE = re.compile(r"needs? (?:exactly |at least |at most )?(\d+) ranks?, got (\d+)")


def classify(rc, timed_out, recs, stderr_text, nranks):
    """(status, message, keep_results) for one launch."""
    runs = [r for r in recs if r.get("type") == "run"]
    results = [r for r in recs if r.get("type") == "result"]
    seen = sorted({r.get("nranks") for r in runs if isinstance(r.get("nranks"), int)})
    plugin_hint = ("the launcher started separate one-rank jobs instead of one MPI job "
                   "(with srun: Open MPI needs --mpi=pmix, MPICH --mpi=pmi2)")
    if len(runs) > 1 or (runs and seen and seen != [nranks]):
        return ("wrong-size", f"asked for {nranks} ranks but the program saw a world of "
                f"{'/'.join(map(str, seen)) or '?'} ({len(runs)} run records): {plugin_hint}", False)
    m = _WRONG_RANKS_RE.findall(stderr_text)
    got = {int(g) for _, g in m}
    if m and got and got != {nranks}:
        return ("wrong-size", f"asked for {nranks} ranks but the program saw a world of "
                f"{'/'.join(map(str, sorted(got)))} ({len(m)} error messages): {plugin_hint}", False)
    complete = False
    if runs:
        sizes = runs[0].get("options", {}).get("sizes_bytes") or []
        have = {r.get("size_bytes") for r in results}
        complete = bool(results) and all(s in have for s in sizes)
    if timed_out:
        if complete:
            return ("timeout", "timed out after printing all results (hung at exit); results kept", True)
        return ("timeout", "timed out", False)
    if rc == 0:
        if not runs:
            return ("failed", "exit 0 but no run record on standard output", False)
        return ("ok", "", True)
    if rc == 77:
        return ("skipped", "not applicable here (exit 77)", False)
    why = {1: "validation or output failure", 2: "usage error", 99: "MPI or internal error"}
    msg = f"exit {rc}" + (f" ({why[rc]})" if rc in why else "")
    if rc < 0:
        msg = f"killed by signal {-rc}"
    return ("failed", msg, rc == 1 and bool(results))


def run_launch(argv, env, timeout, nranks):
    """Run one launch; returns dict with status, records, timing."""
    t0 = time.time()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    timed_out = interrupted = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        out, err = _kill_group(proc)
    except Interrupted:
        interrupted = True
        out, err = _kill_group(proc, grace=5.0)
    rc = proc.returncode
    text = out.decode("utf-8", "replace")
    etext = err.decode("utf-8", "replace")
    recs = parse_json_lines(text)
    if interrupted:
        status, msg, keep = "interrupted", "stopped by the user", False
    else:
        status, msg, keep = classify(rc, timed_out, recs, etext, nranks)
    return {"status": status, "message": msg, "exit_code": rc,
            "records": recs if keep else [], "duration_s": time.time() - t0,
            "stderr": etext, "interrupted": interrupted}


def _fmt_time(s):
    s = int(round(s))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _tail(text, lines=20, chars=4000):
    t = "\n".join(text.rstrip().splitlines()[-lines:])
    return t[-chars:]


def cmd_run(a):
    if a.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    if a.nranks < 1:
        raise UsageError("-n must be at least 1")
    if a.timeout is not None and not a.timeout > 0:
        raise UsageError("--timeout must be positive")
    suite_path, entries = load_suite(a.suite)
    dirs = program_dirs(a.bindir)
    extra = list(a.args or [])
    if extra and extra[0] == "--":
        extra = extra[1:]

    launcher = a.launcher
    if launcher is None:
        launcher = "srun" if in_slurm_allocation() else "mpirun"

    # resolve programs, flavours and launch commands up front
    plan, missing = [], []
    for e in entries:
        prog = find_program(e.name, dirs)
        if prog is None:
            missing.append(e)
            continue
        flavour = a.mpi or detect_mpi(prog)
        n = e.ranks or a.nranks
        argv = launcher_argv(launcher, flavour, n) + [prog] + e.args + extra + ["--format", "json"]
        plan.append((e, prog, flavour, n, argv))

    if a.dry_run:
        for e in missing:
            print(f"# {e.name}: skipped (missing: mpigauge_{e.name} not found)")
        for e, prog, flavour, n, argv in plan:
            print(" ".join(shlex.quote(w) for w in argv))
        return EXIT_OK if plan else EXIT_FAIL

    if not a.output:
        raise UsageError("run needs -o FILE (the results file)")
    if os.path.exists(a.output) and os.path.getsize(a.output) > 0 and not (a.append or a.force):
        raise UsageError(f"{a.output} exists; use --append to add to it or --force to replace it")
    mode = "a" if a.append else "w"
    out = open(a.output, mode, encoding="utf-8")

    session = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ") \
        + "-" + os.urandom(2).hex()
    flavours = sorted({p[2] or "unknown" for p in plan})

    def write(recs):
        with _BlockSignals():
            out.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs))
            out.flush()
            try:
                os.fsync(out.fileno())
            except OSError:
                pass

    def say(msg):
        if not a.quiet:
            print(msg, file=sys.stderr, flush=True)

    write([{"type": "session", "session_id": session, "frontend_version": version(),
            "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "host": socket.gethostname(), "suite": a.suite, "suite_file": os.path.abspath(suite_path),
            "launcher": launcher, "nranks": a.nranks, "repeat": a.repeat, "mpi": flavours,
            "extra_args": extra, "command_line": sys.argv,
            "slurm_job_id": os.environ.get("SLURM_JOB_ID")}])

    seq = 0
    counts = OrderedDict((k, 0) for k in ("ok", "failed", "timeout", "wrong-size",
                                           "skipped", "missing", "interrupted"))
    for e in missing:
        seq += 1
        counts["missing"] += 1
        say(f"mpigauge run: {e.name}: skipped (missing: mpigauge_{e.name} is not built or "
            f"not found; searched {len(dirs)} folders, see --bindir)")
        write([{"type": "launch", "launch_id": f"{session}-{seq:04d}", "session_id": session,
                "benchmark": e.name, "suite_line": e.line(), "source": e.source,
                "status": "missing", "message": f"mpigauge_{e.name} not found"}])

    old = {s: signal.signal(s, _raise_interrupt) for s in (signal.SIGINT, signal.SIGTERM)}
    order = [(rep, p) for rep in range(a.repeat) for p in plan]  # round robin over repeats
    total = len(order)
    start = time.time()
    durations = {}
    interrupted = False
    try:
        for i, (rep, (e, prog, flavour, n, argv)) in enumerate(order, 1):
            seq += 1
            lid = f"{session}-{seq:04d}"
            timeout = e.timeout or a.timeout or DEFAULT_TIMEOUT
            label = f"[{i:{len(str(total))}d}/{total}] {e.name} (launch {rep + 1}/{a.repeat}, {n} ranks)"
            if sys.stderr.isatty() and not a.quiet:
                print(f"{label} ...", end="\r", file=sys.stderr, flush=True)
            began = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            res = run_launch(argv, launch_env(flavour), timeout, n)
            counts[res["status"]] += 1
            durations.setdefault(e.source, []).append(res["duration_s"])
            rec = {"type": "launch", "launch_id": lid, "session_id": session,
                   "benchmark": e.name, "repeat": rep + 1, "repeats": a.repeat,
                   "suite_line": e.line(), "source": e.source, "program": prog,
                   "mpi": flavour, "launcher": launcher, "nranks": n, "command": argv,
                   "date_utc": began, "duration_s": round(res["duration_s"], 3),
                   "timeout_s": timeout, "status": res["status"], "exit_code": res["exit_code"],
                   "message": res["message"]}
            if res["status"] != "ok":
                rec["stderr_tail"] = _tail(res["stderr"])
            body = []
            for r in res["records"]:
                if r.get("type") in ("run", "result"):
                    r = dict(r)
                    r["launch_id"] = lid
                    body.append(r)
            write([rec] + body)
            elapsed = time.time() - start
            remaining = 0.0
            for _, (e2, *_rest) in order[i:]:
                d = durations.get(e2.source)
                remaining += sum(d) / len(d) if d else elapsed / i
            status = res["status"] + (f": {res['message']}" if res["message"] else "")
            say(f"{label} {status} in {res['duration_s']:.1f} s | elapsed {_fmt_time(elapsed)}"
                f" | ETA {_fmt_time(remaining)}")
            if res["status"] != "ok" and res["stderr"].strip() and not a.quiet:
                for line in _tail(res["stderr"], 6).splitlines():
                    print(f"    | {line}", file=sys.stderr)
            if res["interrupted"]:
                interrupted = True
                break
    except Interrupted:
        interrupted = True
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        with _BlockSignals():
            write([{"type": "session_end", "session_id": session,
                    "duration_s": round(time.time() - start, 3), "interrupted": interrupted,
                    "counts": counts}])
            out.close()
    summary = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
    say(f"mpigauge run: {summary or 'nothing run'}; results in {a.output}")
    if interrupted:
        say("mpigauge run: interrupted; the results file is complete up to the last finished launch")
        return EXIT_INTERRUPTED
    if not plan:
        say("mpigauge run: none of the suite's programs was found (build them, or give --bindir)")
        return EXIT_FAIL
    bad = counts["failed"] + counts["timeout"] + counts["wrong-size"]
    return EXIT_FAIL if bad else EXIT_OK


# --------------------------------------------------------------------------
# reading results files
# --------------------------------------------------------------------------

def short_library(s):
    if not s:
        return "unknown MPI"
    s = " ".join(str(s).split())
    m = re.match(r"MPICH Version:\s*(\S+)", s)
    if m:
        return "MPICH " + m.group(1)
    m = re.match(r"(Intel\(R\) MPI Library [\d.]+)", s)
    if m:
        return m.group(1)
    return s.split(",")[0]


class Launch:
    """One program run: its run record and results (one launch of the runner,
    or one run record in a plain program output)."""

    def __init__(self, run, launch_id):
        self.run = run
        self.launch_id = launch_id
        self.results = []


class ResultSet:
    def __init__(self, path, label=None):
        self.path = path
        self.label = label
        self.launches = []       # Launch objects with a run record
        self.launch_meta = []    # runner "launch" records
        self.sessions = []       # runner "session" records
        self.warnings = []

    # key of one comparable series
    @staticmethod
    def key(run, res):
        opts = (run.get("options") or {}).get("benchmark") or {}
        return (res.get("benchmark") or run.get("benchmark"), res.get("variant") or "",
                run.get("nranks"), json.dumps(opts, sort_keys=True), res.get("size_bytes"),
                res.get("unit"))

    def series(self):
        """OrderedDict key -> list of (launch, result record)."""
        out = OrderedDict()
        for la in self.launches:
            for r in la.results:
                if r.get("validation") == "failed":
                    continue
                med = r.get("median")
                if not isinstance(med, (int, float)) or not med > 0 or math.isinf(med):
                    continue
                out.setdefault(self.key(la.run, r), []).append((la, r))
        return out

    def libraries(self):
        return sorted({short_library(la.run.get("mpi_library")) for la in self.launches})

    def default_label(self):
        libs = self.libraries()
        return libs[0] if len(libs) == 1 else os.path.basename(self.path)


def load_results(path, label=None):
    rs = ResultSet(path, label)
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    current = None
    bad = 0
    with f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                bad += 1
                if bad <= 3:
                    rs.warnings.append(f"{path}:{lineno}: not a JSON line, ignored")
                continue
            if not isinstance(rec, dict):
                continue
            t = rec.get("type")
            if t == "run":
                current = Launch(rec, rec.get("launch_id"))
                rs.launches.append(current)
            elif t == "result":
                if current is None:
                    rs.warnings.append(f"{path}:{lineno}: result before any run record, ignored")
                    continue
                current.results.append(rec)
            elif t == "launch":
                rs.launch_meta.append(rec)
            elif t == "session":
                rs.sessions.append(rec)
    if not rs.launches:
        raise UsageError(f"{path}: no run records (is it an mpigauge results file?)")
    return rs


def parse_file_arg(arg):
    """'LABEL=PATH' or 'PATH'."""
    if "=" in arg and not os.path.exists(arg):
        label, _, path = arg.partition("=")
        if label and path:
            return path, label
    return arg, None


def load_labeled(args):
    sets = []
    for arg in args:
        path, label = parse_file_arg(arg)
        sets.append(load_results(path, label))
    defaults = [s.default_label() for s in sets]
    for s, d in zip(sets, defaults):
        if s.label is None:
            s.label = d if defaults.count(d) == 1 else os.path.basename(s.path)
    labels = [s.label for s in sets]
    for s in sets:
        if labels.count(s.label) > 1:
            s.label = s.path
    return sets


def size_label(b):
    if not isinstance(b, int):
        return str(b)
    for shift, suffix in ((30, "G"), (20, "M"), (10, "K")):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift}{suffix}"
    return str(b)


def fmt_num(v):
    if v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v))):
        return "n/a"
    a = abs(v)
    if a >= 1000:
        return f"{v:.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    if a >= 0.01:
        return f"{v:.3f}"
    return f"{v:.3g}"


def fmt_p(p):
    if p is None:
        return "n/a"
    return f"{p:.3f}" if p >= 0.001 else "<0.001"


def bench_label(key, variants_needed):
    bench, variant, nranks, opts, _, _ = key
    parts = [bench]
    if variant:
        parts.append(f"[{variant}]")
    if variants_needed.get(bench):
        o = json.loads(opts)
        extra = ",".join(f"{k}={v}" for k, v in sorted(o.items()))
        parts.append(f"({nranks} ranks{', ' + extra if extra else ''})")
    return " ".join(parts)


def _needs_config_label(keys):
    cfg = {}
    for k in keys:
        cfg.setdefault(k[0], set()).add((k[2], k[3]))
    return {b: len(c) > 1 for b, c in cfg.items()}


# --------------------------------------------------------------------------
# compare
# --------------------------------------------------------------------------

PROVENANCE_FIELDS = ("nranks", "nnodes", "timer", "mpigauge_version")


def _binding_kind(run):
    b = run.get("bindings") or []
    if not b:
        return "unknown"
    return "unbound" if any("unbound" in str(x) for x in b) else "bound"


def provenance_warnings(base, new):
    """Warnings about runs made differently (host or node count, binding, rank
    count, timer, mpigauge version), one line per difference, naming the
    benchmarks it concerns."""
    names = OrderedDict([("hosts", "host count"), ("nnodes", "node count"), ("binding", "binding"),
                         ("nranks", "rank count"), ("timer", "timer"),
                         ("mpigauge_version", "mpigauge version")])

    def summary(rs):
        d = OrderedDict()
        for la in rs.launches:
            r = la.run
            s = d.setdefault(r.get("benchmark"), {f: set() for f in names})
            s["hosts"].add(str(len(set(r.get("hosts") or []))))
            s["nnodes"].add(str(r.get("nnodes")))
            s["binding"].add(_binding_kind(r))
            s["nranks"].add(str(r.get("nranks")))
            s["timer"].add(str(r.get("timer")))
            s["mpigauge_version"].add(str(r.get("mpigauge_version")))
        return d

    grouped = OrderedDict()
    sb, sn = summary(base), summary(new)
    for rs, s in ((base, sb), (new, sn)):
        for b, fields in s.items():
            for f, vals in fields.items():
                if len(vals) > 1:
                    msg = f"{rs.label}: launches differ among themselves in {names[f]}: " \
                          + ", ".join(sorted(vals))
                    grouped.setdefault(msg, []).append(b)
    for b in [b for b in sb if b in sn]:
        for f, name in names.items():
            if sb[b][f] != sn[b][f]:
                msg = (f"{name} differs: {base.label}: {', '.join(sorted(sb[b][f]))}; "
                       f"{new.label}: {', '.join(sorted(sn[b][f]))}")
                grouped.setdefault(msg, []).append(b)
    return [f"{m} ({', '.join(bs)})" for m, bs in grouped.items()]


def compare_sets(base, new, threshold=0.05, alpha=0.05):
    """Rows comparing new against base, plus lists of unmatched keys."""
    sb, sn = base.series(), new.series()
    need = _needs_config_label(list(sb) + list(sn))
    rows = []
    for key, items in sb.items():
        if key not in sn:
            continue
        bvals = [r["median"] for _, r in items]
        nvals = [r["median"] for _, r in sn[key]]
        bci = (items[0][1].get("ci95_low"), items[0][1].get("ci95_high")) if len(items) == 1 else None
        nci = (sn[key][0][1].get("ci95_low"), sn[key][0][1].get("ci95_high")) if len(sn[key]) == 1 else None
        if bci and None in bci:
            bci = None
        if nci and None in nci:
            nci = None
        v = verdict(bvals, nvals, key[5], threshold, alpha, bci, nci)
        v["key"] = key
        v["label"] = bench_label(key, need)
        rows.append(v)
    only_base = [(bench_label(k, need), k) for k in sb if k not in sn]
    only_new = [(bench_label(k, need), k) for k in sn if k not in sb]
    return rows, only_base, only_new


def _group_unmatched(items):
    """[(label, key)] -> "label (unit): sizes ..." lines."""
    d = OrderedDict()
    for label, k in items:
        d.setdefault((label, k[2], k[5]), []).append(k[4])
    return [f"{b} ({u}{', %s ranks' % n if '(' not in b else ''}): sizes "
            + ", ".join(size_label(s) for s in sizes) for (b, n, u), sizes in d.items()]


COLUMNS = ("benchmark", "size", "unit", "base", "new", "new/base", "95% CI", "p", "launches", "verdict")


def table_rows(rows):
    out = []
    for r in rows:
        lo, hi = r["ci"]
        ci = f"[{lo:.3f}, {hi:.3f}]" if not (math.isnan(lo) or math.isnan(hi)) else "n/a"
        cov = r.get("ci_coverage")
        if cov is not None and cov < 0.95 - 1e-9:
            ci += f" ({cov * 100:.0f}%)"
        out.append([r["label"], size_label(r["key"][4]), r["key"][5],
                    fmt_num(r["base_median"]), fmt_num(r["new_median"]), f"{r['ratio']:.3f}",
                    ci, fmt_p(r["p"]), f"{r['m']} vs {r['n']}", r["verdict"]])
    return out


def _notes(rows):
    notes = []
    for r in rows:
        if r["note"] and r["note"] not in notes:
            notes.append(r["note"])
    return notes


def verdict_counts(rows):
    c = OrderedDict()
    for r in rows:
        c[r["verdict"]] = c.get(r["verdict"], 0) + 1
    return c


def render_text(comparisons, threshold, alpha):
    lines = []
    for base, new, rows, ob, on, warns in comparisons:
        lines.append(f"{new.label} ({new.path}) vs {base.label} ({base.path})")
        lines.append(f"ratio = median of {new.label} / median of {base.label}; "
                     f"verdict from Mann-Whitney U (alpha {alpha:g}) and threshold {threshold * 100:g}%")
        body = table_rows(rows)
        widths = [max(len(c), *(len(r[i]) for r in body)) if body else len(c)
                  for i, c in enumerate(COLUMNS)]
        right = {3, 4, 5, 7}
        fmt = lambda cells: "  ".join(c.rjust(w) if i in right else c.ljust(w)
                                      for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
        lines.append(fmt(COLUMNS))
        lines.append(fmt(["-" * w for w in widths]))
        lines.extend(fmt(r) for r in body)
        c = verdict_counts(rows)
        lines.append("summary: " + (", ".join(f"{v} {k}" for k, v in c.items()) or "nothing compared"))
        for n in _notes(rows):
            lines.append("note: " + n)
        for s in _group_unmatched(ob):
            lines.append(f"only in {base.label}: {s}")
        for s in _group_unmatched(on):
            lines.append(f"only in {new.label}: {s}")
        for w in warns:
            lines.append("warning: " + w)
        lines.append("")
    return "\n".join(lines)


def _md_escape(s):
    return str(s).replace("|", "\\|")


def render_markdown(comparisons, threshold, alpha):
    lines = []
    for base, new, rows, ob, on, warns in comparisons:
        lines.append(f"### {_md_escape(new.label)} vs {_md_escape(base.label)}")
        lines.append("")
        lines.append(f"Ratio = median of {_md_escape(new.label)} / median of {_md_escape(base.label)} "
                     f"(over per-launch medians); verdict from a two-sided Mann-Whitney U test "
                     f"(alpha {alpha:g}) and a {threshold * 100:g}% threshold.")
        lines.append("")
        lines.append("| " + " | ".join(COLUMNS) + " |")
        lines.append("| " + " | ".join("---:" if i in (1, 3, 4, 5, 7) else "---"
                                       for i in range(len(COLUMNS))) + " |")
        for r in table_rows(rows):
            cells = [_md_escape(c) for c in r]
            if cells[-1] in ("faster", "slower"):
                cells[-1] = f"**{cells[-1]}**"
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        c = verdict_counts(rows)
        lines.append("Summary: " + (", ".join(f"{v} {k}" for k, v in c.items()) or "nothing compared") + ".")
        extra = [f"Note: {n}" for n in _notes(rows)]
        extra += [f"Only in {_md_escape(base.label)}: {_md_escape(s)}" for s in _group_unmatched(ob)]
        extra += [f"Only in {_md_escape(new.label)}: {_md_escape(s)}" for s in _group_unmatched(on)]
        extra += [f"Warning: {_md_escape(w)}" for w in warns]
        if extra:
            lines.append("")
            lines.extend("* " + e for e in extra)
        lines.append("")
    return "\n".join(lines)


HTML_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f0f0f0}
.faster{background:#d8f5d8}.slower{background:#f8d4d4}.unclear{background:#fff3c4}
.warn{color:#a15c00}.small{font-size:0.85em;color:#555}
pre{background:#f6f6f6;padding:0.5em;overflow-x:auto;font-size:0.85em}
svg{max-width:100%;height:auto}
"""


def _html_table(header, rows, numeric=(), classes=None):
    h = ["<table><tr>" + "".join(f"<th>{html.escape(str(c))}</th>" for c in header) + "</tr>"]
    for i, r in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes and classes[i] else ""
        h.append(f"<tr{cls}>" + "".join(
            f'<td{" class=num" if j in numeric else ""}>{html.escape(str(c))}</td>'
            for j, c in enumerate(r)) + "</tr>")
    h.append("</table>")
    return "\n".join(h)


def render_html_comparisons(comparisons, threshold, alpha):
    parts = []
    for base, new, rows, ob, on, warns in comparisons:
        parts.append(f"<h2>{html.escape(new.label)} vs {html.escape(base.label)}</h2>")
        parts.append(f'<p class="small">base: {html.escape(base.path)}; new: {html.escape(new.path)}. '
                     f"Ratio = median of new / median of base over per-launch medians; verdict from a "
                     f"two-sided Mann-Whitney U test (alpha {alpha:g}) and a {threshold * 100:g}% threshold.</p>")
        body = table_rows(rows)
        parts.append(_html_table(COLUMNS, body, numeric=(1, 3, 4, 5, 7),
                                 classes=[r[-1] if r[-1] in ("faster", "slower", "unclear") else ""
                                          for r in body]))
        c = verdict_counts(rows)
        parts.append("<p>Summary: " + html.escape(", ".join(f"{v} {k}" for k, v in c.items())
                                                  or "nothing compared") + ".</p>")
        items = [html.escape("Note: " + n) for n in _notes(rows)]
        items += [html.escape(f"Only in {base.label}: {s}") for s in _group_unmatched(ob)]
        items += [html.escape(f"Only in {new.label}: {s}") for s in _group_unmatched(on)]
        items += [f'<span class="warn">{html.escape("Warning: " + w)}</span>' for w in warns]
        if items:
            parts.append("<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
    return "\n".join(parts)


def html_page(title, body):
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{HTML_STYLE}</style></head>\n"
            f"<body>\n<h1>{html.escape(title)}</h1>\n{body}\n"
            f'<p class="small">made by mpigauge {html.escape(version())} on '
            f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}</p>\n"
            f"</body></html>\n")


def parse_threshold(s):
    t = s.strip()
    try:
        if t.endswith("%"):
            v = float(t[:-1]) / 100.0
        else:
            v = float(t)
            if v >= 1:
                v /= 100.0
    except ValueError:
        raise UsageError(f"--threshold {s!r}: give a percentage such as 5% (or 0.05)") from None
    if not 0 <= v < 10 or math.isnan(v):
        raise UsageError(f"--threshold {s!r} out of range")
    return v


def cmd_compare(a):
    if len(a.files) < 2:
        raise UsageError("compare needs BASE and at least one NEW results file")
    threshold = parse_threshold(a.threshold)
    if not 0 < a.alpha < 1:
        raise UsageError("--alpha must be between 0 and 1")
    sets = load_labeled(a.files)
    base = sets[0]
    comparisons = []
    for s in sets:
        for w in s.warnings:
            warn(w)
    for new in sets[1:]:
        rows, ob, on = compare_sets(base, new, threshold, a.alpha)
        warns = provenance_warnings(base, new)
        if not rows:
            warns.append(f"nothing in common between {base.label} and {new.label} "
                         "(same benchmark, variant, ranks, options, size and unit)")
        for w in warns:
            warn(w)
        comparisons.append((base, new, rows, ob, on, warns))
    fmt = a.format
    if fmt == "md":
        fmt = "markdown"
    if fmt is None:
        ext = os.path.splitext(a.output or "")[1].lower()
        fmt = {".md": "markdown", ".html": "html", ".htm": "html"}.get(ext, "text")
    if fmt == "text":
        doc = render_text(comparisons, threshold, a.alpha)
    elif fmt == "markdown":
        doc = render_markdown(comparisons, threshold, a.alpha)
    else:
        body = render_html_comparisons(comparisons, threshold, a.alpha)
        if not a.no_plot:
            svg = plot_svg_or_none(sets)
            body += "\n<h2>Plots</h2>\n" + (svg if svg else
                                             "<p>(plots need matplotlib: python3 -m pip install matplotlib)</p>")
        doc = html_page("mpigauge comparison", body)
    doc = doc if doc.endswith("\n") else doc + "\n"
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(doc)
    else:
        sys.stdout.write(doc)
    if not any(c[2] for c in comparisons):
        return EXIT_USAGE
    if a.fail_on_regression and any(r["verdict"] == "slower" for c in comparisons for r in c[2]):
        print("mpigauge compare: regression: at least one benchmark and size is slower",
              file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


# --------------------------------------------------------------------------
# aggregation of one set (plots and report)
# --------------------------------------------------------------------------

def aggregate(items):
    """Per-launch results of one key -> (median, low, high, launches): with one
    launch its own median and 95% CI; with several the median of the
    per-launch medians and its order-statistics CI (min..max for few launches)."""
    meds = [r["median"] for _, r in items]
    if len(items) == 1:
        r = items[0][1]
        lo, hi = r.get("ci95_low"), r.get("ci95_high")
        return r["median"], lo if lo is not None else r["median"], hi if hi is not None else r["median"], 1
    lo, hi, _ = median_ci(meds)
    return median(meds), lo, hi, len(meds)


def panels(sets):
    """OrderedDict panel key (benchmark, variant, nranks, opts, unit) ->
    [(set, [(size, median, lo, hi)])]."""
    out = OrderedDict()
    for s in sets:
        per = OrderedDict()
        for key, items in s.series().items():
            pk = (key[0], key[1], key[2], key[3], key[5])
            per.setdefault(pk, []).append((key[4],) + aggregate(items)[:3])
        for pk, pts in per.items():
            out.setdefault(pk, []).append((s, sorted(pts)))
    return out


def import_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


MISSING_MPL = ("mpigauge plot: needs matplotlib, which this Python ({}) cannot import; install it "
               "with `apt-get install python3-matplotlib` (Debian's python3) or "
               "`python3 -m pip install matplotlib`, or run scripts/setup-deps.sh")


def make_figure(plt, sets, title=None):
    from matplotlib.ticker import FuncFormatter, LogLocator
    pans = panels(sets)
    if not pans:
        raise UsageError("nothing to plot: no results with a positive median")
    need = _needs_config_label([(k[0], k[1], k[2], k[3], 0, k[4]) for k in pans])
    npan = len(pans)
    ncols = min(3, npan)
    nrows = (npan + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols, 3.9 * nrows), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    labels = [s.label for s in sets]
    for ax, (pk, series) in zip([a for row in axes for a in row], pans.items()):
        for s, pts in series:
            pts = [p for p in pts if p[0] > 0 and p[1] > 0]
            if not pts:
                continue
            c = colours[labels.index(s.label) % len(colours)]
            xs = [p[0] for p in pts]
            ax.plot(xs, [p[1] for p in pts], marker="o", markersize=3, color=c, label=s.label)
            ax.fill_between(xs, [max(p[2], 1e-300) for p in pts], [p[3] for p in pts],
                            color=c, alpha=0.2, linewidth=0)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=2, numticks=12))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: size_label(int(round(x))) if x >= 1 else ""))
        hib = higher_is_better(pk[4])
        better = {True: "higher is better", False: "lower is better"}.get(hib, "")
        name = bench_label((pk[0], pk[1], pk[2], pk[3], 0, pk[4]), need)
        ax.set_title(name)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(f"{pk[4]}" + (f" ({better})" if better else ""))
        ax.grid(True, which="major", alpha=0.3)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        lo, hi = ax.get_ylim()
        few = hi > 0 and lo > 0 and math.log10(hi / lo) < 1.5
        ax.yaxis.set_minor_formatter(FuncFormatter(
            lambda v, _, few=few: f"{v:g}" if few and v > 0 and
            round(v / 10 ** math.floor(math.log10(v)), 6) in (2, 3, 5) else ""))
        ax.legend(fontsize="small")
    for ax in [a for row in axes for a in row][npan:]:
        ax.set_visible(False)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_svg_or_none(sets):
    plt = import_pyplot()
    if plt is None:
        return None
    fig = make_figure(plt, sets)
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    i = svg.find("<svg")
    return svg[i:] if i >= 0 else svg


def cmd_plot(a):
    plt = import_pyplot()
    if plt is None:
        print(MISSING_MPL.format(sys.executable), file=sys.stderr)
        return EXIT_NO_MATPLOTLIB
    ext = os.path.splitext(a.output)[1].lower()
    if ext not in (".png", ".svg", ".pdf"):
        raise UsageError(f"-o {a.output}: the name must end in .png, .svg or .pdf")
    sets = load_labeled(a.files)
    for s in sets:
        for w in s.warnings:
            warn(w)
    fig = make_figure(plt, sets, a.title)
    fig.savefig(a.output, dpi=a.dpi)
    plt.close(fig)
    print(f"mpigauge plot: wrote {a.output}", file=sys.stderr)
    return EXIT_OK


# --------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------

def report_body(s):
    parts = [f"<h2>{html.escape(s.label)}</h2>", f'<p class="small">{html.escape(s.path)}</p>']
    if s.sessions or s.launch_meta:
        counts = OrderedDict()
        for m in s.launch_meta:
            counts[m.get("status")] = counts.get(m.get("status"), 0) + 1
        rows = [[x.get("session_id"), x.get("suite"), x.get("launcher"), x.get("repeat"),
                 x.get("date_utc"), x.get("host")] for x in s.sessions]
        if rows:
            parts.append("<h3>Sessions</h3>")
            parts.append(_html_table(["session", "suite", "launcher", "repeat", "started (UTC)", "host"], rows))
        parts.append("<p>Launches: " + html.escape(", ".join(f"{v} {k}" for k, v in counts.items())) + "</p>")
        bad = [m for m in s.launch_meta if m.get("status") not in ("ok",)]
        if bad:
            parts.append("<h3>Launches that did not succeed</h3>")
            for m in bad:
                parts.append(f"<p><b>{html.escape(str(m.get('benchmark')))}</b> "
                             f"{html.escape(str(m.get('status')))}: {html.escape(str(m.get('message', '')))}</p>")
                if m.get("command"):
                    parts.append("<pre>" + html.escape(" ".join(shlex.quote(str(w)) for w in m["command"])) + "</pre>")
                if m.get("stderr_tail"):
                    parts.append("<pre>" + html.escape(m["stderr_tail"]) + "</pre>")
    parts.append("<h3>Provenance</h3>")
    prov = OrderedDict()
    for la in s.launches:
        r = la.run
        row = (r.get("benchmark"), short_library(r.get("mpi_library")), r.get("mpigauge_version"),
               r.get("nranks"), r.get("nnodes"), ", ".join(sorted(set(r.get("hosts") or []))),
               " ".join(r.get("bindings") or []))
        p = prov.setdefault(row, [0, r.get("date_utc"), r.get("date_utc"), r])
        p[0] += 1
        p[1] = min(p[1] or "", r.get("date_utc") or "")
        p[2] = max(p[2] or "", r.get("date_utc") or "")
    parts.append(_html_table(["benchmark", "MPI", "mpigauge", "ranks", "nodes", "hosts", "bindings",
                              "launches", "first", "last"],
                             [list(k) + [v[0], v[1], v[2]] for k, v in prov.items()]))
    seen = set()
    for k, v in prov.items():
        r = v[3]
        lib = r.get("mpi_library_version") or r.get("mpi_library")
        if lib in seen:
            continue
        seen.add(lib)
        parts.append("<details><summary>" + html.escape(short_library(lib)) + ": library, options, "
                     "environment</summary><pre>" + html.escape(str(lib)) + "\n\ncommand line: "
                     + html.escape(" ".join(r.get("command_line") or [])) + "\noptions: "
                     + html.escape(json.dumps(r.get("options"), sort_keys=True)) + "\nenv: "
                     + html.escape(json.dumps(r.get("env"), sort_keys=True))
                     + f"\ntimer: {html.escape(str(r.get('timer')))}, resolution "
                     f"{r.get('timer_resolution_s')} s, overhead {r.get('timer_overhead_s')} s</pre></details>")
    parts.append("<h3>Results</h3>")
    parts.append('<p class="small">Median: the median of the per-launch medians (one launch: its '
                 "own median); CI: its 95% confidence interval (several launches: order statistics "
                 "over launches, min..max below 6 launches; one launch: the launch's own CI).</p>")
    series = s.series()
    need = _needs_config_label(list(series))
    by_bench = OrderedDict()
    for key, items in series.items():
        by_bench.setdefault((key[0], key[1], key[2], key[3], key[5]), []).append((key, items))
    for pk, rows in by_bench.items():
        name = bench_label((pk[0], pk[1], pk[2], pk[3], 0, pk[4]), need)
        parts.append(f"<h4>{html.escape(name)} ({html.escape(str(pk[4]))})</h4>")
        body = []
        for key, items in rows:
            med, lo, hi, n = aggregate(items)
            meds = [r["median"] for _, r in items]
            p99 = median([r["p99"] for _, r in items if isinstance(r.get("p99"), (int, float))] or [float("nan")])
            body.append([size_label(key[4]), fmt_num(med), f"{fmt_num(lo)} .. {fmt_num(hi)}",
                         fmt_num(min(meds)), fmt_num(max(meds)), fmt_num(p99), n])
        parts.append(_html_table(["size", "median", "95% CI", "lowest launch", "highest launch",
                                  "p99", "launches"], body, numeric=(1, 2, 3, 4, 5, 6)))
    return "\n".join(parts)


def cmd_report(a):
    sets = load_labeled(a.files)
    for s in sets:
        for w in s.warnings:
            warn(w)
    body = "\n".join(report_body(s) for s in sets)
    if len(sets) > 1:
        threshold = parse_threshold(a.threshold)
        comps = []
        for new in sets[1:]:
            rows, ob, on = compare_sets(sets[0], new, threshold, 0.05)
            comps.append((sets[0], new, rows, ob, on, provenance_warnings(sets[0], new)))
        body += "\n<h2>Comparison</h2>\n" + render_html_comparisons(comps, threshold, 0.05)
    if not a.no_plot:
        svg = plot_svg_or_none(sets)
        body += "\n<h2>Plots</h2>\n" + (svg if svg else
                                         "<p>(plots need matplotlib: python3 -m pip install matplotlib)</p>")
        if not svg:
            warn("matplotlib is missing: the report has no plots")
    title = a.title or ("mpigauge report: " + ", ".join(s.label for s in sets))
    with open(a.output, "w", encoding="utf-8") as f:
        f.write(html_page(title, body))
    print(f"mpigauge report: wrote {a.output}", file=sys.stderr)
    return EXIT_OK


# --------------------------------------------------------------------------
# command line
# --------------------------------------------------------------------------

def build_parser():
    p = argparse.ArgumentParser(prog="mpigauge", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"mpigauge {version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser("run", help="run a suite of benchmarks",
                       description="Run each benchmark of a suite as its own launch, --repeat times "
                       "(round robin), under a timeout; append every launch's JSON Lines, with a "
                       "launch id, to one results file. Arguments after -- go to every benchmark.")
    r.add_argument("--suite", default="quick",
                   help="quick, pt2pt, collectives, overlap, full, or a suite file (default quick)")
    r.add_argument("--launcher", default=None,
                   help="mpirun or mpiexec (the MPI's own launcher), srun, or a command line "
                   "('{n}' = ranks). Default: srun inside a Slurm allocation, else mpirun")
    r.add_argument("-n", "--nranks", type=int, default=2, help="ranks for suite lines without ranks= (default 2)")
    r.add_argument("--repeat", "-K", type=int, default=1, help="launches per benchmark (default 1)")
    r.add_argument("-o", "--output", help="results file (JSON Lines)")
    r.add_argument("--append", action="store_true", help="add to an existing results file")
    r.add_argument("--force", action="store_true", help="replace an existing results file")
    r.add_argument("--bindir", action="append",
                   help="folder with the mpigauge_* programs or a build tree (repeatable; "
                   "default: next to this script, the build tree, the install bindir, PATH)")
    r.add_argument("--mpi", choices=("openmpi", "mpich"),
                   help="the MPI the programs were built with (default: from ldd)")
    r.add_argument("--timeout", type=float, default=None,
                   help=f"seconds per launch (default {DEFAULT_TIMEOUT:g}; a suite line's timeout= wins)")
    r.add_argument("--dry-run", action="store_true", help="print the launch commands and stop")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    r.add_argument("args", nargs=argparse.REMAINDER, help="-- ARGS for every benchmark")
    r.set_defaults(func=cmd_run)

    c = sub.add_parser("compare", help="compare results files with a verdict per benchmark and size",
                       description="Compare NEW results against BASE: per benchmark, variant, rank "
                       "count, options, size and unit, the ratio of the medians of the per-launch "
                       "medians, a distribution-free 95%% CI of the ratio, a Mann-Whitney U test over "
                       "launches and a verdict (faster, slower, same, unclear). A file may be "
                       "given as LABEL=FILE.")
    c.add_argument("files", nargs="+", metavar="FILE", help="BASE NEW [NEW...]")
    c.add_argument("--threshold", default="5%", help="practical significance (default 5%%)")
    c.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    c.add_argument("--format", choices=("text", "markdown", "md", "html"),
                   help="default: from -o's extension (.md, .html), else text")
    c.add_argument("-o", "--output", help="write to FILE instead of standard output")
    c.add_argument("--fail-on-regression", action="store_true",
                   help="exit 1 when any benchmark and size is slower")
    c.add_argument("--no-plot", action="store_true", help="HTML: no embedded plot")
    c.set_defaults(func=cmd_compare)

    pl = sub.add_parser("plot", help="plot results against message size (needs matplotlib)",
                        description="One panel per benchmark, one line per results file (the "
                        "median, with its 95%% CI as a band), log axes. A file may be given as LABEL=FILE.")
    pl.add_argument("files", nargs="+", metavar="FILE")
    pl.add_argument("-o", "--output", required=True, help="out.png, out.svg or out.pdf")
    pl.add_argument("--title")
    pl.add_argument("--dpi", type=int, default=100)
    pl.set_defaults(func=cmd_plot)

    rp = sub.add_parser("report", help="one self-contained HTML page for results files",
                        description="Provenance, launch status, result tables and plots (embedded "
                        "SVG) of one results file; with several files also the comparison of each "
                        "against the first.")
    rp.add_argument("files", nargs="+", metavar="FILE")
    rp.add_argument("-o", "--output", required=True, help="report.html")
    rp.add_argument("--title")
    rp.add_argument("--threshold", default="5%")
    rp.add_argument("--no-plot", action="store_true")
    rp.set_defaults(func=cmd_report)
    return p


def main(argv=None):
    parser = build_parser()
    a = parser.parse_args(argv)
    if not getattr(a, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return a.func(a)
    except UsageError as e:
        print(f"mpigauge {a.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_FAIL
    except (KeyboardInterrupt, Interrupted):
        print(f"mpigauge {a.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
