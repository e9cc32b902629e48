# SPDX-License-Identifier: BSD-3-Clause
"""What a person looks at first on a dashboard page (doc/history.md):

* a grid per family: one row per benchmark (with its variant, ranks and
  configuration), one column per message size; each cell is the last tag
  against the one before, coloured by the speedup (green faster, red
  slower, the deeper the larger, full colour at 2x) and marked by the
  verdict (a triangle for faster or slower, = for same, nothing when
  unclear); a cell links to its trend chart;
* per benchmark one chart: the size on the x axis, a line per tag.

Plain SVG and HTML, no plotting library; every text escaped."""
import html
import math

from ..core.common import size_label
from ..verdict.verdicts import SLIGHTLY, speedup

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
W, H = 520, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 14, 36
MARK = {"faster": "\u25b2", "slower": "\u25bc", "same": "=", SLIGHTLY + "faster": "\u25b3",
        SLIGHTLY + "slower": "\u25bd"}


def cell_colour(s):
    """Background of a cell for speedup s (new is s times better)."""
    if s is None or not math.isfinite(s) or s <= 0:
        return "#f4f4f4"
    t = max(-1.0, min(1.0, math.log2(s)))      # full colour at 2x either way
    a = abs(t)
    if t >= 0:
        r, g, b = 255 - 150 * a, 255 - 40 * a, 255 - 150 * a
    else:
        r, g, b = 255 - 30 * a, 255 - 160 * a, 255 - 160 * a
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}"


def grid(rows, last, prev, anchor):
    """rows: [(name, bench, {size: (point, unit)})]; last/prev: the tags;
    anchor(name, size) -> the card's id. One HTML table."""
    sizes = sorted({s for _, _, cells in rows for s in cells})
    head = "".join(f"<th class=num>{html.escape(size_label(s))}</th>" for s in sizes)
    out = [f"<table class=grid><caption>{html.escape(last)} against "
           f"{html.escape(prev)}: new/base as a speedup (&gt; 1: {html.escape(last)} is "
           f"better); \u25b2 faster, \u25bc slower, \u25b3 \u25bd slightly, = same, blank "
           f"unclear</caption>"
           f"<tr><th>benchmark</th>{head}</tr>"]
    for name, _, cells in rows:
        tds = []
        for s in sizes:
            c = cells.get(s)
            if c is None or c[0].get("ratio") is None:
                tds.append("<td class=none></td>")
                continue
            p, unit = c
            sp = speedup(p["ratio"], unit)
            v = (p.get("verdict") or "unclear").split(":")[0]
            tip = (f"{name}, {size_label(s)}: {p['median']:.4g} {unit} in {last}, speedup "
                   f"{sp:.3f} against {prev}, {v}")
            tds.append(f"<td class=\"num v-{html.escape(v.replace(' ', '-'))}\" style=\"background:"
                       f"{cell_colour(sp)}\" title=\"{html.escape(tip)}\"><a href=\"#"
                       f"{html.escape(anchor(name, s))}\">{sp:.2f}{MARK.get(v, '')}</a></td>")
        out.append(f"<tr><th>{html.escape(name)}</th>{''.join(tds)}</tr>")
    out.append("</table>")
    return "".join(out)


def _tick(v):
    return f"{v:.0f}" if abs(v) >= 1000 else f"{v:.3g}"


def _ticks_log(lo, hi):
    out = []
    for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1):
        for m in (1, 2, 5):
            v = m * 10 ** e
            if lo <= v <= hi:
                out.append(v)
    return out or [lo]


def size_chart(lines, unit, title):
    """lines: [(tag, {size: median})] in tag order. Size on x (one step per
    size), the value on y (logarithmic when it spans more than 20x), a line
    and a legend entry per tag."""
    sizes = sorted({s for _, pts in lines for s in pts})
    vals = [v for _, pts in lines for v in pts.values() if isinstance(v, (int, float))
            and math.isfinite(v) and v > 0]
    if not sizes or not vals:
        return ""
    lo, hi = min(vals), max(vals)
    logy = hi / lo > 20
    if logy:
        lo, hi = lo / 1.2, hi * 1.2
    else:
        pad = (hi - lo) * 0.08 or hi * 0.05 or 1.0
        lo, hi = max(0.0, lo - pad), hi + pad
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i):
        return LEFT + (pw * (i + 0.5) / len(sizes))

    def y(v):
        f = (math.log(v) - math.log(lo)) / (math.log(hi) - math.log(lo)) if logy \
            else (v - lo) / (hi - lo)
        return TOP + ph * (1.0 - f)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" role="img"><title>{html.escape(title)}</title>']
    ticks = _ticks_log(lo, hi) if logy else [lo + (hi - lo) * k / 4 for k in range(5)]
    for t in ticks:
        out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
                   f'class="grid"/><text x="{LEFT - 4}" y="{y(t) + 3:.1f}" class="ytick">'
                   f'{_tick(t)}</text>')
    out.append(f'<text x="4" y="{TOP + 2}" class="unit">{html.escape(unit)}'
               f'{" (log)" if logy else ""}</text>')
    for i, s in enumerate(sizes):
        out.append(f'<text x="{x(i):.1f}" y="{H - BOTTOM + 14}" class="xtick" text-anchor='
                   f'"middle">{html.escape(size_label(s))}</text>')
    for k, (tag, pts) in enumerate(lines):
        colour = PALETTE[k % len(PALETTE)]
        xy = [(x(i), y(pts[s])) for i, s in enumerate(sizes)
              if isinstance(pts.get(s), (int, float)) and math.isfinite(pts[s]) and pts[s] > 0]
        out.append(f'<polyline points="{" ".join(f"{a:.1f},{b:.1f}" for a, b in xy)}" '
                   f'fill="none" stroke="{colour}" stroke-width="1.5"><title>'
                   f'{html.escape(tag)}</title></polyline>')
        for a, b in xy:
            out.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="2.4" fill="{colour}"/>')
        ly = TOP + 12 * k + 8
        label = tag if len(tag) <= 22 else tag[:21] + "\u2026"
        out.append(f'<line x1="{W - RIGHT + 8}" x2="{W - RIGHT + 22}" y1="{ly - 3}" '
                   f'y2="{ly - 3}" stroke="{colour}" stroke-width="2"/><text x="'
                   f'{W - RIGHT + 26}" y="{ly}" class="xtick">{html.escape(label)}</text>')
    out.append("</svg>")
    return "".join(out)


STYLE = """
table.grid td, table.grid th { padding: 2px 5px; font-size: .8em; }
table.grid td a { color: #222; text-decoration: none; }
table.grid td.v-slower, table.grid td.v-faster { font-weight: bold; }
table.grid td.none { background: #fff; }
table.grid caption { text-align: left; font-size: .85em; color: #444; }
"""
