# SPDX-License-Identifier: BSD-3-Clause
"""The all-pairs screen's results (mpigauge_screen --format json, doc/screen.md):
read, the verdict in words, the pair matrix in JSON and as an SVG picture.
The verdict itself is the program's (util/mg_screen.c); this module only
shows it."""
import html
import json
import math

from ..core.common import UsageError, open_input
from ..core.schema import BOOL, INT, LIST, NUM, STR, mismatch

METRICS = {"bw": ("Bandwidth", "MB/s"), "lat": ("Latency", "us")}
EXIT_FOUND, EXIT_UNCLEAR = 3, 4


class Screen:
    """One screen: the run record, pairs by metric, verdicts, the summary."""

    def __init__(self, run, pairs, verdicts, summary):
        self.run, self.pairs, self.verdicts, self.summary = run, pairs, verdicts, summary
        self.hosts = [str(u["host"]) for u in run["units"]]
        self.labels = (self.hosts if run["unit"] == "node" else
                       [f"{u['host']} socket {u.get('package')}" for u in run["units"]]
                       if run["unit"] == "socket" else
                       [f"rank {u['rank']} ({u['host']})" for u in run["units"]])

    def exit_code(self):
        return self.summary.get("exit_code", 0)

    def pair(self, metric, a, b):
        a, b = min(a, b), max(a, b)
        return self.pairs[metric].get((a, b))


# What each record must hold (schema.mismatch): field -> kind, and the
# fields that must be there
_RUN = ({"unit": STR, "units": LIST, "nunits": INT, "reps": INT, "reps_planned": INT,
         "min_reps": INT, "seconds": NUM, "alpha": NUM, "threshold": NUM, "mpi_library": STR},
        ("unit", "units", "nunits", "reps", "reps_planned", "min_reps", "seconds", "alpha",
         "threshold", "mpi_library"))
_UNIT = ({"host": STR, "rank": INT, "package": INT}, ("host", "rank"))
_PAIR = ({"metric": STR, "a": INT, "b": INT, "median": NUM, "ratio": NUM, "ratio_ci95": LIST,
          "outlier": BOOL, "below_expect": BOOL}, ("metric", "a", "b", "outlier", "below_expect"))
_VERDICT = ({"metric": STR, "unit": STR, "reference": NUM, "named": LIST, "links": LIST},
            ("metric", "unit", "named", "links"))
_NAMED = ({"unit": INT, "flagged": INT, "pairs": INT}, ("unit", "flagged", "pairs"))
_SUMMARY = ({"exit_code": INT, "conclusive": BOOL, "found": BOOL, "named": LIST, "links": LIST},
            ("exit_code", "conclusive"))
# a picture of more units than this would be unreadable (and its n x n cells
# slow to make); the matrix in JSON stops at MAX_MATRIX units
MAX_PICTURE, MAX_MATRIX = 256, 2048


def load(path):
    """A screen from a JSON Lines file; UsageError (one line, the file and
    the record) when it is not one: every field the report uses is checked
    here, so that nothing from the file reaches a page or picture unchecked."""
    run, pairs, verdicts, summary = None, {}, {}, None
    with open_input(path) as f:
        for k, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except (ValueError, RecursionError) as e:
                raise UsageError(f"{path}:{k}: not JSON ({str(e)[:80]})") from None
            kind = rec.get("type") if isinstance(rec, dict) else None
            where = f"{path}:{k}: a {kind} record"
            if kind == "screen":
                _check(rec, _RUN, where)
                run = rec
            elif kind == "screen_pair":
                _check(rec, _PAIR, where)
                pairs.setdefault(rec["metric"], {})[(rec["a"], rec["b"])] = rec
            elif kind == "screen_verdict":
                _check(rec, _VERDICT, where)
                verdicts[rec["metric"]] = rec
            elif kind == "screen_summary":
                _check(rec, _SUMMARY, where)
                summary = rec
    if run is None or summary is None:
        raise UsageError(f"{path}: not a complete screen (mpigauge_screen --format json): "
                         "no 'screen' record with its units, or no 'screen_summary'")
    _check_whole(path, run, pairs, verdicts, summary)
    return Screen(run, pairs, verdicts, summary)


def _check(rec, spec, where):
    why = mismatch(rec, *spec)
    if why is not None:
        raise UsageError(f"{where}: {why}")
    metric = rec.get("metric")
    if metric is not None and metric not in METRICS:
        raise UsageError(f"{where}: metric {metric!r} is not one of {', '.join(METRICS)}")


def _check_whole(path, run, pairs, verdicts, summary):
    """What ties the records together: units, pairs and names within the
    screen's units, an exit status the program gives."""
    n = run["nunits"]
    where = f"{path}: the screen record"
    if run["unit"] not in ("node", "socket", "rank"):
        raise UsageError(f"{where}: unit {run['unit']!r} is not node, socket or rank")
    if len(run["units"]) != n or n < 2:
        raise UsageError(f"{where}: {len(run['units'])} units where nunits is {n} (2 or more)")
    for u in run["units"]:
        _check(u, _UNIT, f"{where}: a unit")

    def inside(x):
        return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < n
    for metric, ps in pairs.items():
        for (a, b), p in ps.items():
            ci = p.get("ratio_ci95")
            if not (inside(a) and inside(b) and a != b) or (ci is not None and (
                    len(ci) != 2 or mismatch({"lo": ci[0], "hi": ci[1]}, {"lo": NUM, "hi": NUM},
                                             ("lo", "hi")))):
                raise UsageError(f"{path}: a {metric} pair ({a}, {b}): units outside 0..{n - 1} "
                                 "or ratio_ci95 not two numbers")
    for metric, v in verdicts.items():
        for x in v["named"]:
            _check(x, _NAMED, f"{path}: the {metric} verdict names a unit that")
            if not inside(x["unit"]):
                raise UsageError(f"{path}: the {metric} verdict names unit {x['unit']}, "
                                 f"outside 0..{n - 1}")
        for link in v["links"]:
            if not (isinstance(link, list) and len(link) == 2 and all(map(inside, link))
                    and pairs.get(metric, {}).get((min(link), max(link)))):
                raise UsageError(f"{path}: the {metric} verdict names a link {link!r} that is "
                                 "not a measured pair")
    if summary["exit_code"] not in (0, EXIT_FOUND, EXIT_UNCLEAR):
        raise UsageError(f"{path}: the summary's exit_code {summary['exit_code']} is not one "
                         f"mpigauge_screen gives (0, {EXIT_FOUND}, {EXIT_UNCLEAR})")
    if not pairs:
        raise UsageError(f"{path}: no pairs were measured")


def _fmt(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "?"
    return f"{v:.0f}" if abs(v) >= 999.5 else f"{v:.3g}"


def _r(v):
    return "?" if v is None else f"{v:.2f}"


def verdict_lines(s):
    """The verdict in words, one line per finding."""
    out = []
    word = s.run["unit"]
    for metric, v in s.verdicts.items():
        for n in v["named"]:
            ratios = [p["ratio"] for p in s.pairs.get(metric, {}).values()
                      if n["unit"] in (p["a"], p["b"]) and (p["outlier"] or p["below_expect"])
                      and p["ratio"] is not None]
            span = f", x{min(ratios):.2f}-{max(ratios):.2f}" if ratios else ""
            out.append(f"slow {word}  {s.labels[n['unit']]}  {metric}: {n['flagged']} of "
                       f"{n['pairs']} pairs flagged{span} of the reference "
                       f"{_fmt(v.get('reference'))} {v['unit']}")
        for a, b in v["links"]:
            p = s.pair(metric, a, b)
            ci = p.get("ratio_ci95") or [None, None]
            out.append(f"slow link  {s.labels[a]} - {s.labels[b]}  {metric}: x{_r(p['ratio'])} "
                       f"[{_r(ci[0])}, {_r(ci[1])}] of the reference, "
                       f"{_fmt(p.get('median'))} {v['unit']}")
    if not s.summary["conclusive"]:
        out.append(f"inconclusive: {s.run['reps']} repetitions, {s.run['min_reps']} needed "
                   f"before one of {len(next(iter(s.pairs.values()), {}))} pairs can be flagged "
                   f"at alpha {s.run['alpha']:g}")
    elif not out:
        out.append(f"nothing found: no pair more than {s.run['threshold'] * 100:.0f}% worse "
                   "than the reference")
    return out


def text(s):
    r = s.run
    head = (f"{r['nunits']} {r['unit']}s, {r['reps']} of {r['reps_planned']} repetitions, "
            f"{r['seconds']:.3g} s, {r['mpi_library'].split(',')[0]}")
    refs = "; ".join(f"{m} reference {_fmt(v.get('reference'))} {v['unit']}"
                     for m, v in s.verdicts.items())
    return "\n".join([head, refs] + ["  " + x for x in verdict_lines(s)]) + "\n"


def matrix(s):
    """The pair matrix per metric: medians and ratios (null on the diagonal),
    flags; with the hosts and the verdict."""
    n = len(s.hosts)
    out = {"hosts": s.hosts, "labels": s.labels, "unit": s.run["unit"], "metrics": {},
           "summary": {k: s.summary.get(k) for k in ("found", "conclusive", "named", "links")}}
    for metric, pairs in s.pairs.items():
        grid = {"values": [[None] * n for _ in range(n)], "ratios": [[None] * n for _ in range(n)],
                "flagged": [[False] * n for _ in range(n)]}
        for (a, b), p in pairs.items():
            for x, y in ((a, b), (b, a)):
                grid["values"][x][y] = p["median"]
                grid["ratios"][x][y] = p["ratio"]
                grid["flagged"][x][y] = p["outlier"] or p["below_expect"]
        v = s.verdicts.get(metric, {})
        grid.update(unit=METRICS[metric][1], reference=v.get("reference"))
        out["metrics"][metric] = grid
    return out


def _colour(ratio):
    """Goodness 1 (like the reference) white-green, 0 red."""
    if ratio is None:
        return "#dddddd"
    g = max(0.0, min(1.0, ratio))
    return f"#{255:02x}{int(90 + 165 * g):02x}{int(90 + 165 * g):02x}" if g < 0.999 else "#e8f5e9"


def svg(s, metric=None):
    """The pair matrix of one metric (bw by default) as an SVG picture:
    cells coloured by the ratio to the reference, the medians written in
    them, flagged pairs framed; the verdict below."""
    metric = metric or ("bw" if "bw" in s.pairs else next(iter(s.pairs)))
    grid = matrix(s)["metrics"][metric]
    n, cell, left, top = len(s.hosts), 56, 150, 60
    lines = verdict_lines(s)
    w = max(left + n * cell + 20, 20 + 7 * max(len(x) for x in lines))
    h = top + n * cell + 30 + 18 * len(lines)
    name, unit = METRICS[metric]
    e = html.escape
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<text x="10" y="20" font-size="14">{e(name)} ({e(unit)}), median of '
           f'{s.run["reps"]:d} repetitions; reference {e(_fmt(grid["reference"]))}</text>']
    for i, lab in enumerate(s.labels):
        out.append(f'<text x="{left - 6}" y="{top + i * cell + cell // 2 + 4}" '
                   f'text-anchor="end">{e(lab)}</text>')
        out.append(f'<text x="{left + i * cell + cell // 2}" y="{top - 8}" '
                   f'text-anchor="middle">{i}</text>')
    for a in range(n):
        for b in range(n):
            x, y = left + b * cell, top + a * cell
            r = None if a == b else grid["ratios"][a][b]
            flag = grid["flagged"][a][b]
            out.append(f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" '
                       f'fill="{_colour(r)}" stroke="{"#000" if flag else "none"}" '
                       f'stroke-width="{3 if flag else 0}"/>')
            if a != b:
                out.append(f'<text x="{x + cell // 2 - 1}" y="{y + cell // 2 + 4}" '
                           f'text-anchor="middle">{e(_fmt(grid["values"][a][b]))}</text>')
    y = top + n * cell + 24
    for k, line in enumerate(lines):
        out.append(f'<text x="10" y="{y + 18 * k}">{e(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
