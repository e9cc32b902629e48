# SPDX-License-Identifier: BSD-3-Clause
"""A series' folder (`mpigauge series`, doc/releases.md): series.json (the
settings, the releases, the steps done) and one results file per step,
and the walk derived again from them (report, history)."""
import json
import os

from .common import UsageError, open_input, write_text_atomic
from .series import walk

STATE = "series.json"


class Folder:
    """The series' folder: series.json (settings, releases, steps done) and
    one results file per step; written whole after each step."""

    def __init__(self, path, settings, releases, skipped, force):
        self.path = path
        self.state_path = os.path.join(path, STATE)
        want = {"schema": 1, "settings": settings, "releases": releases, "skipped": skipped,
                "steps": []}
        check_folder(path)
        self.state = want
        if os.path.isfile(self.state_path):
            old = load_state(path)
            same = old.get("settings") == settings and old["releases"] == releases
            if not same and not force:
                raise UsageError(f"-o {path}: holds a series of other releases or settings: "
                                 "give another folder, or --force to start it over")
            if same and not force:
                self.state = dict(want, steps=old.get("steps", []))
            else:  # --force: over from the first step, whatever the folder held
                for s in old.get("steps", []):
                    f = os.path.join(path, os.path.basename(s.get("file", "")))
                    if os.path.isfile(f):
                        os.unlink(f)
        os.makedirs(path, exist_ok=True)
        self.save()

    def record(self, entry):
        self.state["steps"] = [s for s in self.state["steps"] if s["step"] != entry["step"]]
        self.state["steps"].append(entry)
        self.state["steps"].sort(key=lambda s: s["step"])
        self.save()

    def save(self):
        write_text_atomic(self.state_path, json.dumps(self.state, indent=1, sort_keys=True) + "\n")


def check_folder(path):
    """-o of a series: a new folder, an empty one or a series' (never a file,
    a link, or a folder of something else)."""
    if os.path.islink(path):
        raise UsageError(f"-o {path}: a symbolic link: never followed or replaced")
    if os.path.lexists(path) and not os.path.isdir(path):
        raise UsageError(f"-o {path}: exists and is not a folder")
    if os.path.isdir(path) and os.listdir(path) and not os.path.isfile(os.path.join(path, STATE)):
        raise UsageError(f"-o {path}: a folder that is not a series' (no {STATE}): give a new "
                         "or empty folder")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise UsageError(f"-o {path}: folder {parent} does not exist")


def load_state(path):
    p = os.path.join(path, STATE)
    if not os.path.isfile(p):
        raise UsageError(f"{path}: not a series' folder (no {STATE}; `mpigauge series run -o "
                         "DIR` makes one)")
    try:
        with open_input(p, encoding="utf-8") as f:
            st = json.load(f)
    except (ValueError, UnicodeDecodeError):
        raise UsageError(f"{p}: not a series' state (not JSON)") from None
    if not isinstance(st, dict) or not isinstance(st.get("releases"), list) or \
            not all(isinstance(r, dict) and isinstance(r.get("name"), str) for r in st["releases"]):
        raise UsageError(f"{p}: not a series' state")
    if not isinstance(st.get("steps"), list) or not all(
            isinstance(s, dict) and isinstance(s.get("step"), int) and isinstance(s.get("labels"), list)
            for s in st["steps"]):
        raise UsageError(f"{p}: not a series' state (its steps)")
    return st


def comparer(settings, notes):
    """compare(step file, [(label a, label b)], step) -> {(a, b): rows}: every
    pair of one step compared, each at alpha / (pairs of the step), its sizes
    under the chosen adjustment (Benjamini-Hochberg by default): the chance
    that a step names a pair of releases that do not differ stays below
    alpha, however many pairs a step has; the cvar and provenance
    differences of each pair kept in notes."""
    from .compare import compare_sets, explanations
    from .results import load_config_sets

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
            got[(la, lb)], _, _ = compare_sets(base, new, settings["threshold"], alpha,
                                               settings["error_control"])
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

    def measure(step, indices, pairs):
        path = step_file(folder, st, step, [releases[i]["name"] for i in indices])
        if get is not None:
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
