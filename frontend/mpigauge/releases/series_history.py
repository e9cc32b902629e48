# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge series history DIR`: a series' releases into the history, as
tags in release order (each with the launches of every step that measured
it), and each change the walk pinned as a mark at the release that
introduced it, which the dashboard draws on the charts and lists per
release (doc/releases.md, doc/history.md)."""
import json
import os

from ..core.common import EXIT_OK, write_text_atomic
from ..history.history import History, default_db
from ..data.results import read_records
from .series_folder import load_state, rewalk, step_file
from .series_report import changes


def release_records(folder, st, w, name):
    """The records of one release from every step that measured it, as a
    plain run's: its launches (configuration and round dropped), their
    records, the sessions and cvars records of those steps."""
    out = []
    releases = st["releases"]
    for k, idx in enumerate(w.steps, 1):
        labels = [releases[i]["name"] for i in idx]
        path = step_file(folder, st, k, labels) if name in labels else None
        if path is None:
            continue
        recs, _ = read_records(path)
        mine = {r.get("launch_id") for r in recs if r.get("type") == "launch"
                and r.get("config") == name}
        for r in recs:
            if r.get("type") in ("session", "session_end", "cvars"):
                out.append(r)
            elif r.get("launch_id") in mine:
                out.append({k2: v for k2, v in r.items() if k2 not in ("config", "round")})
    return out


def marks_of(cs):
    """[(tag, benchmark, variant, nranks, size, unit, kind, text)] of the
    changes pinned to one release (a step into it, or it alone)."""
    out = []
    for c in cs:
        if c["kind"] not in ("step", "only"):
            continue
        tag = c["release"] if c["kind"] == "only" else c["to"]
        for size, ratio in zip(c["sizes"], c["ratio"]):
            what = (f"only this release: {c['direction']} x{ratio:.3g} of {c['from']}"
                    if c["kind"] == "only" else f"{c['direction']} x{ratio:.3g} from {c['from']}")
            text = what + (f"; host: {c['host_text']}" if c["host_text"] else "")
            out.append((tag, c["benchmark"], c["variant"], c["nranks"], size, c["unit"],
                        c["kind"], text))
    return out


def cmd_history(a):
    st = load_state(a.folder)
    w, _ = rewalk(a.folder, st)
    releases = st["releases"]
    hist = History(a.db or default_db(), create=True)
    from ..history.history_cli import add_file
    keep = os.path.join(a.folder, "history")
    os.makedirs(keep, exist_ok=True)
    try:
        for i in w.measured():
            name = releases[i]["name"]
            if hist.has_tag(name):
                print(f"mpigauge series: {name} is in the history already (left as it is)")
                continue
            path = os.path.join(keep, f"{name}.jsonl")
            write_text_atomic(path, "".join(json.dumps(r) + "\n"
                                            for r in release_records(a.folder, st, w, name)))
            add_file(hist, path, name)
        marks = marks_of(changes(w, releases))
        hist.set_marks(marks)
    finally:
        hist.close()
    print(f"mpigauge series: {len(marks)} series marked at the release that changed them "
          "(mpigauge dashboard draws them)")
    return EXIT_OK
