# SPDX-License-Identifier: BSD-3-Clause
"""The report of a series walk (series.py): per benchmark and size range,
the release that introduced each change, its verdict, and what the host
paid and the library was set to on each side; what was measured and what
was not (doc/releases.md)."""
import math

from ..core.common import fmt_num, fmt_p, size_label
from ..verdict.verdicts import DECIDED, DIFFERENCES, SLIGHTLY
from ..data.hostcost import describe as host_describe
from ..data.results import bench_label
from .series import auto_stride


def _direction(verdict):
    return verdict[len(SLIGHTLY):] if verdict.startswith(SLIGHTLY) else verdict


def changes(w, releases):
    """The findings as ranges: [{lo, hi, kind, label, sizes, verdict, ...}],
    consecutive sizes of one benchmark line with the same releases and
    direction in one range."""
    groups = {}
    for f in w.findings:
        r = f.row
        g = (f.lo, f.hi, f.kind, r.key.group(), _direction(r.verdict), f.step)
        groups.setdefault(g, []).append(f)
    out = []
    for (lo, hi, kind, grp, direction, step), fs in groups.items():
        fs.sort(key=lambda f: f.row.key.size)
        worst = max(fs, key=lambda f: abs(math.log(f.row.ratio)))
        out.append({
            "lo": lo, "hi": hi, "kind": kind, "step": step, "_keys": [f.row.key for f in fs],
            "from": releases[lo]["name"], "to": releases[hi]["name"],
            "label": bench_label(grp, {}), "benchmark": grp.bench, "variant": grp.variant,
            "nranks": grp.nranks, "unit": grp.unit, "direction": direction,
            "sizes": [f.row.key.size for f in fs],
            "axis": sorted(w.axes.get(grp, ())),
            "verdicts": [f.row.verdict for f in fs],
            "ratio": [f.row.ratio for f in fs],
            "before": worst.row.base_median, "after": worst.row.new_median,
            "worst_size": worst.row.key.size,
            "p_adjusted": max((f.row.p_decisive() for f in fs if f.row.p_decisive() is not None),
                              default=None),
            "host": [list(d) for d in worst.row.host],
            "host_text": host_describe(worst.row.host),
        })
    out = _came_and_went(out, w.returns)
    for c in out:
        c.pop("_keys", None)
    order = {"only": 0, "step": 1, "gradual": 2, "undecided": 3}
    out.sort(key=lambda c: (order[c["kind"]], c["lo"], c["hi"], c["benchmark"], c["sizes"][0]))
    return out


OPPOSITE = {"slower": "faster", "faster": "slower", "higher": "lower", "lower": "higher"}


def _came_and_went(cs, back):
    """A change at release k undone at k+1 (the same sizes of one benchmark
    line, opposite directions) where release k-1 against k+1 (back: the
    walk's rows of that pair) is not different: one entry of kind "only",
    release k alone differs. Where k-1 and k+1 still differ (a partial
    return), could not tell or were not compared, the two changes stay two
    steps, the second saying how far k+1 is from k-1 ("return") or that it
    is undecided ("return_undecided")."""
    steps = [c for c in cs if c["kind"] == "step"]
    out = []
    for c1 in steps:
        for c2 in steps:
            if c2["lo"] != c1["hi"] or c2["hi"] != c1["hi"] + 1 or \
                    (c2["benchmark"], c2["variant"], c2["nranks"], c2["unit"]) != \
                    (c1["benchmark"], c1["variant"], c1["nranks"], c1["unit"]) or \
                    OPPOSITE.get(c1["direction"]) != c2["direction"]:
                continue
            ends = back.get((c1["lo"], c2["hi"]), {})
            rows = {k.size: ends[k] for k in c1["_keys"] if k in ends}
            undone, partial, unknown = [], [], []
            for z in c1["sizes"]:
                if z in c2["sizes"] and z in rows:
                    if rows[z].verdict in DIFFERENCES:
                        partial.append((z, rows[z]))
                    elif rows[z].verdict in DECIDED:
                        undone.append(z)
                    else:       # undecided: not said undone
                        unknown.append(z)
            if unknown:
                c2["return_undecided"] = {"from": c1["from"], "sizes": unknown}
            if partial:
                c2["return"] = {"from": c1["from"], "sizes": [z for z, _ in partial],
                                "verdicts": [r.verdict for _, r in partial],
                                "ratio": [r.ratio for _, r in partial]}
            if not undone:
                continue
            only = dict(_part(c1, undone), kind="only", release=c1["to"],
                        ends=[rows[z].verdict for z in undone])
            out.append(only)
            for c in (c1, c2):
                c.update(_part(c, [z for z in c["sizes"] if z not in undone]))
    return [c for c in cs if c["sizes"]] + out


def _part(c, sizes):
    """c's fields restricted to the given sizes (those it has)."""
    keep = [i for i, z in enumerate(c["sizes"]) if z in sizes]
    return dict(c, sizes=[c["sizes"][i] for i in keep], verdicts=[c["verdicts"][i] for i in keep],
                ratio=[c["ratio"][i] for i in keep])


def _count(k, what):
    return f"{k} {what}" + ("" if k == 1 else "s")


def size_range(sizes, axis=None):
    """"8-1K" when the sizes are every size of the axis between their ends
    (the sizes measured), else the list ("2, 4, 8, 32, 256, 16K"): a range
    never hides a gap."""
    if len(sizes) == 1:
        return size_label(sizes[0])
    inner = [z for z in (axis or ()) if sizes[0] <= z <= sizes[-1]]
    if inner != list(sizes):
        return ", ".join(size_label(z) for z in sizes)
    return f"{size_label(sizes[0])}-{size_label(sizes[-1])}"


def _ratios(sp):
    lo, hi = min(sp), max(sp)
    return f"x{lo:.3g}" if abs(hi - lo) < 0.005 else f"x{lo:.3g}-{hi:.3g}"


def report_json(state, releases, w, notes):
    launches, seconds = _totals(state)
    return {"type": "series_report", "settings": state.get("settings"),
            "releases": [r["name"] for r in releases],
            "measured": [releases[i]["name"] for i in w.measured()],
            "not_measured": [releases[i]["name"] for i in w.unmeasured()],
            "skipped": state.get("skipped") or [],
            "steps": [{"step": k + 1, "releases": [releases[i]["name"] for i in s],
                       "pairs": [[releases[a]["name"], releases[b]["name"]]
                                 for a, b in w.pairs[k]]} for k, s in enumerate(w.steps)],
            "launches": launches, "seconds": seconds,
            "pairs": [{"step": k, "from": releases[a]["name"], "to": releases[b]["name"],
                       "changed": v[0], "not_beyond": v[1], "undecided": v[2]}
                      for (k, a, b), v in sorted(w.decided.items())],
            "changes": [dict(c, settings_differ=notes.get(
                (c["step"], c["from"], c["to"]), [])) for c in changes(w, releases)]}


def _totals(state):
    launches = sum(int(s.get("launches") or 0) for s in state.get("steps", []))
    seconds = sum(float(s.get("seconds") or 0) for s in state.get("steps", []))
    return launches, seconds


def _rounds(s):
    """A step's rounds in words: fixed, or up to max_rounds where undecided."""
    r, m = s.get("rounds"), s.get("max_rounds") or s.get("rounds")
    return f"{r} rounds a step" if m == r else \
        f"{r} rounds a step, up to {m} where a pair was undecided (each look at alpha / looks)"


def report_text(state, releases, w, notes):
    s = state.get("settings") or {}
    names = [r["name"] for r in releases]
    launches, seconds = _totals(state)
    lines = [f"series: {len(names)} releases, {names[0]} ... {names[-1]} (suite {s.get('suite')}, "
             f"{_rounds(s)}, threshold {100 * s.get('threshold', 0):g}%, "
             f"alpha {s.get('alpha')} a step: each of its pairs at alpha / pairs, "
             f"{s.get('error_control')} over a pair's sizes)",
             f"measured {len(w.measured())} of {len(names)} releases in "
             f"{_count(len(w.steps), 'step')}"
             + (f" ({launches} launches, {seconds:.0f} s)" if launches else "")]
    for k, st in enumerate(w.steps, 1):
        lines.append(f"  step {k}: " + " ".join(names[i] for i in st))
        for a, b in w.pairs[k - 1]:
            ch, same, und = w.decided.get((k, a, b), (0, 0, 0))
            again = " (the ends of a reversed change, compared again from this run)" \
                if w.again.get((a, b)) == k else ""
            lines.append(f"    {names[a]} -> {names[b]}{again}: {ch} series changed, {same} not "
                         f"beyond the threshold, {und} undecided")
    if w.unmeasured():
        lines.append("not measured (no change named between the releases measured around them): "
                     + " ".join(names[i] for i in w.unmeasured()))
    for name, why in state.get("skipped") or []:
        lines.append(f"skipped {name}: {why}")
    dirs = [r.get("bindir") for r in releases]
    family = max(set(dirs), key=dirs.count) if dirs else None
    for r in releases:
        if r.get("bindir") != family:
            lines.append(f"{r['name']} ran a build of its own ({r.get('bindir')}), the others "
                         f"{family}: its changes include the build's")
    cs = changes(w, releases)
    steps = [c for c in cs if c["kind"] == "step"]
    gradual = [c for c in cs if c["kind"] == "gradual"]
    only = [c for c in cs if c["kind"] == "only"]
    undecided = [c for c in cs if c["kind"] == "undecided"]
    lines.append("")
    n_undecided = sum(v[2] for v in w.decided.values())
    if not cs:
        lines.append(f"no change beyond {100 * s.get('threshold', 0):g}% named between the "
                     "releases measured together"
                     + (f"; {n_undecided} series of the pairs compared were undecided (more "
                        "--rounds would decide them)" if n_undecided else ""))
    if only:
        lines.append("one release alone differs (a change undone by the next release: the "
                     "releases before and after it measured together and not different; x: its "
                     "figure over the release before it):")
        lines += _lines(only, notes)
    if steps:
        lines.append("changes, each with the release that introduced it (x: the newer "
                     "release's figure over the older's):")
        lines += _lines(steps, notes)
    if gradual:
        lines.append("gradual (the interval shows it, no single step of it does):")
        lines += _lines(gradual, notes)
    if undecided:
        lines.append("not pinned (the interval shows it, a half of it could not tell: run again "
                     "with more --rounds):")
        lines += _lines(undecided, notes)
    lines += _settings(cs, notes, state)
    stride = s.get("stride") or auto_stride(len(names))
    if stride > 1:
        lines.append("")
        lines.append(f"a change that came and went within {stride} releases of the first step is "
                     "not seen (--stride 1 measures every release)")
    return "\n".join(lines) + "\n"


def _lines(cs, notes):
    out = []
    for c in cs:
        p = f", p {fmt_p(c['p_adjusted'])}" if c["p_adjusted"] is not None else ""
        where = f"only {c['release']}" if c["kind"] == "only" else f"{c['from']} -> {c['to']}"
        out.append(f"  {c['label']} {size_range(c['sizes'], c.get('axis'))}: {where}: "
                   f"{c['direction']} {_ratios(c['ratio'])}{p} ({_count(len(c['sizes']), 'size')}, "
                   f"step {c['step']}; at {size_label(c['worst_size'])} {fmt_num(c['before'])} "
                   f"-> {fmt_num(c['after'])} {c['unit']})")
        back = c.get("return")
        if back:
            out.append(f"    a partial return: {back['from']} -> {c['to']} still "
                       f"{'/'.join(sorted(set(back['verdicts'])))} {_ratios(back['ratio'])} at "
                       f"{size_range(back['sizes'], c.get('axis'))} ({back['from']} against {c['to']}, measured "
                       "together): two changes, not one undone")
        open_ = c.get("return_undecided")
        if open_:
            out.append(f"    undone whole or not: undecided at "
                       f"{size_range(open_['sizes'], c.get('axis'))} ({open_['from']} against "
                       f"{c['to']}, measured together): two changes until more rounds decide it")
        if c["host_text"]:
            out.append(f"    host: {c['host_text']}")
    return out


SETTINGS_SHOWN = 6


def _settings(cs, notes, state):
    """Per pair of releases of a change, once: what the library was set to
    differently (cvars, environment) and how the runs differ."""
    out, seen = [], set()
    files = {s.get("step"): s.get("file") for s in state.get("steps", [])}
    for c in cs:
        pair = (c["step"], c["from"], c["to"])
        diffs = notes.get(pair, [])
        if pair in seen or not diffs:
            continue
        seen.add(pair)
        out.append(f"  {c['from']} -> {c['to']} ({len(diffs)}):")
        out += [f"    {d}" for d in diffs[:SETTINGS_SHOWN]]
        if len(diffs) > SETTINGS_SHOWN:
            out.append(f"    ... and {len(diffs) - SETTINGS_SHOWN} more (`mpigauge cvars "
                       f"{files.get(c['step']) or 'STEP_FILE'} {c['from']} {c['to']}` in the "
                       "series' folder)")
    return ["", "what differs between the releases of each change (settings, runs):"] + out \
        if out else []


def pairs_along(folder, state, w):
    """(step k, name a, name b, (BASE, NEW) sets or None without results)
    for every pair of releases the walk compared, step by step, from the
    step's own results."""
    from ..core.common import UsageError
    from ..data.results import load_config_sets
    from .series_folder import step_file
    names = [r["name"] for r in state["releases"]]
    for k, st in enumerate(w.steps, 1):
        path = step_file(folder, state, k, [names[i] for i in st])
        for a, b in w.pairs[k - 1]:
            try:
                sets = load_config_sets(path, [names[a], names[b]])
            except (UsageError, TypeError):
                sets = None
            yield k, names[a], names[b], sets


def along_series(folder, state, w, profile_path, threshold):
    """The profile's line for every pair of releases a series' walk compared
    (step by step, from the step's own results), the whole series' first."""
    from ..apps.predict import compare, headline, plan
    from ..apps.profile import load_profile
    prof = load_profile(profile_path)
    p = plan(prof)
    lines = []
    for k, na, nb, sets in pairs_along(folder, state, w):
        if sets is None:
            lines.append(f"step {k} {na} -> {nb}: profile {prof.head['name']} "
                         "not predicted (a side without results)")
            continue
        pr = compare(p, sets[0], sets[1], threshold)
        lines.append(f"step {k} {na} -> {nb}: " + headline(prof.head["name"], pr))
    return lines


def model_along_series(folder, state, w, threshold):
    """--model: for every pair of releases the walk compared, Hockney's
    parameters of the latency curves with their verdicts; a pair whose
    parameters changed (slower or faster, or its breakpoints moved) is
    shown whole, naming the release, the others in one line each."""
    from ..model.summary import parameter_verdicts
    lines = ["model parameters along the series (mpigauge model; doc/models.md):"]
    for k, na, nb, sets in pairs_along(folder, state, w):
        head = f"step {k} {na} -> {nb}"
        if sets is None:
            lines.append(f"{head}: no parameters (a side without results)")
            continue
        got, docs = parameter_verdicts(sets[0], sets[1], threshold)
        changed = [p for d in docs for p in d.get("parameters", [])
                   if p["verdict"] in ("slower", "faster")]
        moved = any(d.get("breakpoints_moved") for d in docs)
        if changed or moved:
            lines.append(f"{head}: {nb} changed "
                         + ", ".join(f"{p['regime']} {p['name']} {p['verdict']}"
                                     for p in changed)
                         + ("; " if changed and moved else "")
                         + ("its breakpoints moved" if moved else ""))
            lines += ["  " + x for x in got]
        else:
            n = sum(len(d.get("parameters", [])) for d in docs)
            lines.append(f"{head}: no parameter changed ({n} compared: the same or unclear)")
    return lines


def scaling_along_series(folder, state, w, threshold, alpha=0.05):
    """For every pair of releases the walk compared, the lines of the suite
    measured at several rank counts: the steps the later release added or
    removed and a class it changed, naming the release; [] when the suite
    has no such line."""
    from ..model.scaling_compare import compare
    from ..model.scaling_report import change_lines
    lines = []
    for k, na, nb, sets in pairs_along(folder, state, w):
        if sets is not None:
            lines += [f"step {k} {x}" for x in
                      change_lines(na, nb, compare(sets[0], sets[1], threshold, alpha))]
    if not lines:
        return []
    return ["rank-count scaling along the series (a step added, a class changed; "
            "doc/collectives.md):"] + lines
