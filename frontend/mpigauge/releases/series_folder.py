# SPDX-License-Identifier: BSD-3-Clause
"""A series' folder (`mpigauge series`, doc/releases.md): series.json (the
settings, the releases, the steps done) and one results file per step,
and the walk derived again from them (report, history)."""
import fcntl
import json
import os

from ..core.common import (UsageError, check_output_folder, load_json, redact_argv, redact_env,
                           write_text_atomic)
from ..core.schema import DICT, INT, LIST, NUM, STR, BOOL, mismatch
from .series import walk

STATE = "series.json"
LOCK = "series.lock"
# what series.json must hold (schema.mismatch): settings, each release, each step
_SETTINGS = ({"suite": STR, "rounds": INT, "max_rounds": INT, "stride": INT, "threshold": NUM,
              "alpha": NUM, "error_control": STR, "nranks": INT, "args": LIST, "seed": INT}, ())
_RELEASE = ({"name": STR, "release": STR, "library": STR, "bindir": STR, "env": DICT},
            ("name",))
_STEP = ({"step": INT, "labels": LIST, "file": STR, "exit": INT, "seconds": NUM,
          "launches": INT, "done": BOOL}, ("step", "labels"))


def stored(releases):
    """The releases as series.json keeps them: an environment variable that
    holds a secret by its name or value as <redacted> (as the run records
    keep it); a resumed walk compares these, so a secret's value never
    needs to be on disk."""
    return [dict(r, env=redact_env(r["env"])) if isinstance(r.get("env"), dict) else r
            for r in releases]


def what_differs(old, want):
    """The settings and releases in which a folder's series differs from the
    one asked for, in words."""
    out = []
    a, b = old.get("settings") or {}, want["settings"]
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            out.append(f"{k} {a.get(k)!r} there, {b.get(k)!r} now")
    ra = {r.get("name"): r for r in old.get("releases") or []}
    rb = {r.get("name"): r for r in want["releases"]}
    gone, new = [n for n in ra if n not in rb], [n for n in rb if n not in ra]
    if gone:
        out.append("releases only there: " + " ".join(map(str, gone)))
    if new:
        out.append("releases only now: " + " ".join(map(str, new)))
    changed = [n for n in ra if n in rb and ra[n] != rb[n]]
    if changed:
        out.append("releases set up differently now (installation, build or --env): " + " ".join(changed))
    if not gone and not new and not changed and list(ra) != list(rb):
        out.append("the releases in another order")
    return "; ".join(out) or "another series"


class Folder:
    """The series' folder: series.json (settings, releases, steps done) and
    one results file per step; written whole after each step."""

    def __init__(self, path, settings, releases, skipped, force):
        self.path = path
        self.state_path = os.path.join(path, STATE)
        settings = dict(settings, args=redact_argv(settings.get("args") or []))
        releases = stored(releases)
        want = {"schema": 1, "settings": settings, "releases": releases, "skipped": skipped,
                "steps": []}
        check_folder(path)
        os.makedirs(path, exist_ok=True)
        self._lock = hold(path)
        try:
            self.state = self._resumed(want, force)
            self.save()
        except BaseException:
            self.close()
            raise

    def _resumed(self, want, force):
        """The state to walk on: the folder's steps when it holds this very
        series, none (their files removed) with force."""
        fresh = not os.path.isfile(self.state_path)
        old = {} if fresh else load_state(self.path)
        olds = old.get("settings")
        if isinstance(olds, dict) and "max_rounds" not in olds and "rounds" in olds \
                and "max_rounds" in want["settings"]:
            olds["max_rounds"] = olds["rounds"]   # walked before --max-rounds: fixed rounds
        if want["settings"].get("seed") is None:   # not given: the folder's, else drawn
            want["settings"]["seed"] = (old.get("settings") or {}).get("seed") if not force \
                else None
            if want["settings"]["seed"] is None:
                want["settings"]["seed"] = int.from_bytes(os.urandom(3), "little")
        if fresh:
            return want
        same = old.get("settings") == want["settings"] and old["releases"] == want["releases"]
        if not same and not force:
            raise UsageError(f"-o {self.path}: holds another series ({what_differs(old, want)}): "
                             "give another folder, or --force to start it over")
        if same and not force:
            return dict(want, steps=old.get("steps", []))
        for s in old.get("steps", []):  # --force: over from the first step
            f = os.path.join(self.path, os.path.basename(s.get("file", "")))
            if os.path.isfile(f):
                os.unlink(f)
        return want

    def close(self):
        """Let another walk into the folder (the process's end does it too)."""
        self._lock.close()

    def record(self, entry):
        self.state["steps"] = [s for s in self.state["steps"] if s["step"] != entry["step"]]
        self.state["steps"].append(entry)
        self.state["steps"].sort(key=lambda s: s["step"])
        self.save()

    def save(self):
        write_text_atomic(self.state_path, json.dumps(self.state, indent=1, sort_keys=True) + "\n")


def hold(path):
    """The series' folder locked for this process (series.lock in it, which
    holds the process id): two walks into one folder would tear its step
    files. The lock goes with the process; UsageError when another holds it."""
    lock = open(os.path.join(path, LOCK), "a+", encoding="utf-8")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.seek(0)
        who = lock.read().strip()[:20]
        lock.close()
        raise UsageError(f"-o {path}: another `mpigauge series run` (process {who or '?'}) is "
                         "walking this series; wait for it, or give another folder") from None
    lock.seek(0)
    lock.truncate()
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    return lock


def check_folder(path):
    """-o of a series: a new folder, an empty one or a series' (never a file,
    a link, or a folder of something else)."""
    check_output_folder(path, "-o", lambda p: not set(os.listdir(p)) - {LOCK} or
                        os.path.isfile(os.path.join(p, STATE)), f"a series' (no {STATE})")


def load_state(path):
    p = os.path.join(path, STATE)
    if not os.path.isfile(p):
        raise UsageError(f"{path}: not a series' folder (no {STATE}; `mpigauge series run -o "
                         "DIR` makes one)")
    st = load_json(p, "not a series' state (not JSON)")
    why = state_problem(st)
    if why:
        raise UsageError(f"{p}: not a series' state ({why})")
    return st


def state_problem(st):
    """What is wrong with a series' state read from its file, or None."""
    if not isinstance(st, dict):
        return "not an object"
    if not isinstance(st.get("releases"), list) or len(st["releases"]) < 2:
        return "fewer than two releases"
    if not isinstance(st.get("steps"), list):
        return "its steps are not a list"
    settings = st.get("settings")
    checks = [("settings", {} if settings is None else settings, _SETTINGS)] + \
        [(f"release {k}", r, _RELEASE) for k, r in enumerate(st["releases"], 1)] + \
        [(f"step {k}", x, _STEP) for k, x in enumerate(st["steps"], 1)]
    for what, obj, spec in checks:
        why = mismatch(obj, *spec)
        if why:
            return f"{what}: {why}"
    s = st.get("settings") or {}
    if not 0 < s.get("threshold", 0.05) < 1 or not 0 < s.get("alpha", 0.05) < 1 or \
            (s.get("stride") or 1) < 1:
        return "settings: threshold and alpha between 0 and 1, stride at least 1"
    names = [r["name"] for r in st["releases"]]
    if len(set(names)) != len(names):
        return "a release named twice"
    for x in st["steps"]:
        if not all(isinstance(n, str) and n in names for n in x["labels"]):
            return f"step {x['step']}: a release that is not the series'"
    return None


def comparer(settings, notes):
    """compare(step file, [(label a, label b)], step) -> {(a, b): rows}: every
    pair of one step compared, each at alpha / (pairs of the step), its sizes
    under the chosen adjustment (Benjamini-Hochberg by default): the chance
    that a step names a pair of releases that do not differ stays below
    alpha, however many pairs a step has. "The same" is each pair's own
    claim, at alpha (as each size's in compare). A step that added rounds
    where undecided (its planned looks) divides both by its looks. The cvar
    and provenance differences of each pair kept in notes."""
    from ..verdict.compare import compare_sets, explanations
    from ..data.results import load_config_sets

    def compare(path, pairs, step):
        got = {}
        alpha = settings["alpha"] / max(1, len(pairs))
        for la, lb in pairs:
            try:
                base, new = load_config_sets(path, [la, lb])
            except UsageError as e:  # a release none of whose launches ran: nothing decided
                got[(la, lb)] = []
                notes[(step, la, lb)] = [f"not compared: {e}"]
                continue
            looks = max(1, base.looks, new.looks)
            got[(la, lb)], _, _ = compare_sets(base, new, settings["threshold"], alpha / looks,
                                               settings["error_control"],
                                               same_alpha=settings["alpha"] / looks)
            notes[(step, la, lb)] = explanations(base, new)
        return got
    return compare


def compare_pairs(compare, path, releases, pairs, step):
    """{(i, j): rows} of index pairs of the releases, compared in one step."""
    named = [(releases[i]["name"], releases[j]["name"]) for i, j in pairs]
    got = compare(path, named, step)
    return {(i, j): got[n] for (i, j), n in zip(pairs, named)}


class Stop(Exception):
    pass


def rewalk(folder, st, get=None):
    """(Walk, notes) of a series' folder, derived from its step files.
    get(step, indices, path) -> the step's results file: given the file the
    folder has for it (or None), measures the step when it lacks one and
    records it (raising Stop when it cannot); without get a missing step is
    a UsageError (nothing is run)."""
    releases = st["releases"]
    s = st.get("settings") or {}
    notes = {}
    compare = comparer({"threshold": s.get("threshold", 0.05), "alpha": s.get("alpha", 0.05),
                        "error_control": s.get("error_control", "bh")}, notes)
    missing = []

    def measure(step, indices, pairs, again=False):
        path = step_file(folder, st, step, [releases[i]["name"] for i in indices])
        if get is not None and not again:
            path = get(step, indices, path)
        if path is None:
            missing.append(step)
            raise Stop()
        return compare_pairs(compare, path, releases, pairs, step)
    try:
        return walk(len(releases), measure, s.get("stride")), notes
    except Stop:
        if get is not None:
            raise
        raise UsageError(f"{folder}: the series is not complete (step {missing[0]} was not "
                         "measured): `mpigauge series run` with its arguments resumes it") from None


def find_step(st, step, labels):
    """The state entry of a step measured whole with these releases, or None."""
    return next((x for x in st["steps"] if x["step"] == step and x["labels"] == labels
                 and x.get("done")), None)


def step_file(folder, st, step, labels):
    """The results file of a step measured whole with these releases, or None."""
    done = find_step(st, step, labels)
    return os.path.join(folder, os.path.basename(done["file"])) if done else None
