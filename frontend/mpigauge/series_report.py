# SPDX-License-Identifier: BSD-3-Clause
"""The report of a series walk (series.py): per benchmark and size range,
the release that introduced each change, its verdict, and what the host
paid and the library was set to on each side; what was measured and what
was not (doc/releases.md)."""
import math

from .common import fmt_num, fmt_p, size_label
from .compare import SLIGHTLY
from .hostcost import describe as host_describe
from .results import bench_label


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
            "lo": lo, "hi": hi, "kind": kind, "step": step,
            "from": releases[lo]["name"], "to": releases[hi]["name"],
            "label": bench_label(grp, {}), "benchmark": grp.bench, "variant": grp.variant,
            "nranks": grp.nranks, "unit": grp.unit, "direction": direction,
            "sizes": [f.row.key.size for f in fs],
            "verdicts": [f.row.verdict for f in fs],
            "ratio": [f.row.ratio for f in fs],
            "before": worst.row.base_median, "after": worst.row.new_median,
            "worst_size": worst.row.key.size,
            "p_adjusted": max((f.row.p_decisive() for f in fs if f.row.p_decisive() is not None),
                              default=None),
            "host": [list(d) for d in worst.row.host],
            "host_text": host_describe(worst.row.host),
        })
    out.sort(key=lambda c: (c["kind"] != "step", c["lo"], c["hi"], c["benchmark"],
                            c["sizes"][0]))
    return out


def size_range(sizes):
    if len(sizes) == 1:
        return size_label(sizes[0])
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
            "changes": [dict(c, settings_differ=notes.get(
                (c["step"], c["from"], c["to"]), [])) for c in changes(w, releases)]}


def _totals(state):
    launches = sum(int(s.get("launches") or 0) for s in state.get("steps", []))
    seconds = sum(float(s.get("seconds") or 0) for s in state.get("steps", []))
    return launches, seconds


def report_text(state, releases, w, notes):
    s = state.get("settings") or {}
    names = [r["name"] for r in releases]
    launches, seconds = _totals(state)
    lines = [f"series: {len(names)} releases, {names[0]} ... {names[-1]} (suite {s.get('suite')}, "
             f"{s.get('rounds')} rounds a step, threshold {100 * s.get('threshold', 0):g}%, "
             f"alpha {s.get('alpha')}, {s.get('error_control')})",
             f"measured {len(w.measured())} of {len(names)} releases in {len(w.steps)} steps"
             + (f" ({launches} launches, {seconds:.0f} s)" if launches else "")]
    for k, st in enumerate(w.steps, 1):
        lines.append(f"  step {k}: " + " ".join(names[i] for i in st))
    if w.unmeasured():
        lines.append("not measured (between releases found the same): "
                     + " ".join(names[i] for i in w.unmeasured()))
    for name, why in state.get("skipped") or []:
        lines.append(f"skipped {name}: {why}")
    cs = changes(w, releases)
    steps = [c for c in cs if c["kind"] == "step"]
    gradual = [c for c in cs if c["kind"] == "gradual"]
    lines.append("")
    if not cs:
        lines.append(f"no change beyond {100 * s.get('threshold', 0):g}% between the releases "
                     "measured together")
    if steps:
        lines.append("changes, each with the release that introduced it (x: the newer "
                     "release's figure over the older's):")
        lines += _lines(steps, notes)
    if gradual:
        lines.append("gradual (the interval shows it, no single step of it does):")
        lines += _lines(gradual, notes)
    stride = s.get("stride")
    if stride and stride > 1:
        lines.append("")
        lines.append(f"a change that came and went within {stride} releases of the first step is "
                     "not seen (--stride 1 measures every release)")
    return "\n".join(lines) + "\n"


def _lines(cs, notes):
    out = []
    for c in cs:
        p = f", p {fmt_p(c['p_adjusted'])}" if c["p_adjusted"] is not None else ""
        out.append(f"  {c['label']} {size_range(c['sizes'])}: {c['from']} -> {c['to']}: "
                   f"{c['direction']} {_ratios(c['ratio'])}{p} ({len(c['sizes'])} sizes, "
                   f"step {c['step']}; at {size_label(c['worst_size'])} {fmt_num(c['before'])} "
                   f"-> {fmt_num(c['after'])} {c['unit']})")
        if c["host_text"]:
            out.append(f"    host: {c['host_text']}")
        for n in notes.get((c["step"], c["from"], c["to"]), [])[:4]:
            out.append(f"    settings: {n}")
    return out

