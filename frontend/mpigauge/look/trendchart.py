# SPDX-License-Identifier: BSD-3-Clause
"""A small SVG chart of one series over the tags of a history: the median
over launches per tag with its 95% CI as a band, every launch as a dot (a
change of regime shows as two clouds), a ring round tags whose launches
fell into more than one regime, and the verdict against the previous tag as
a red (slower) or green (faster) triangle; a dashed purple line at the tag
where a series walk pinned a change. No plotting library: the
dashboard of 1,000 launches is made in a second or two."""
import html
import math

from ..verdict.verdicts import SLIGHTLY

W, H = 360, 170
LEFT, RIGHT, TOP, BOTTOM = 52, 34, 12, 40


def _ticks(lo, hi):
    """About 4 round values between lo and hi."""
    if hi <= lo:
        return [lo]
    step = 10 ** math.floor(math.log10((hi - lo) / 4.0))
    for m in (1, 2, 5, 10):
        if (hi - lo) / (step * m) <= 5:
            step *= m
            break
    first = math.ceil(lo / step) * step
    return [first + k * step for k in range(int((hi - first) / step + 1e-9) + 1)]


def _fmt(v):
    a = abs(v)
    if a >= 1000:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return f"{v:.3g}"


def chart(points, unit, title, link=None):
    """points: [{tag, median, low, high, launches: [values], regimes, verdict, note}] in
    tag order. link(tag) -> URL of the tag's provenance, or None."""
    vals = [v for p in points for v in [p["low"], p["high"]] + p["launches"]
            if isinstance(v, (int, float)) and math.isfinite(v)]
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.08 or abs(hi) * 0.05 or 1.0
    lo, hi = max(0.0, lo - pad) if lo >= 0 else lo - pad, hi + pad
    n = len(points)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i):
        return LEFT + (pw * (i + 0.5) / n)

    def y(v):
        return TOP + ph * (1.0 - (v - lo) / (hi - lo))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" role="img"><title>{html.escape(title)}</title>']
    for t in _ticks(lo, hi):
        out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
                   f'class="grid"/><text x="{LEFT - 4}" y="{y(t) + 3:.1f}" class="ytick">'
                   f'{_fmt(t)}</text>')
    out.append(f'<text x="4" y="{TOP + 2}" class="unit">{html.escape(unit)}</text>')
    band_top = " ".join(f"{x(i):.1f},{y(p['high']):.1f}" for i, p in enumerate(points))
    band_bot = " ".join(f"{x(i):.1f},{y(p['low']):.1f}" for i, p in reversed(list(enumerate(points))))
    out.append(f'<polygon points="{band_top} {band_bot}" class="band"/>')
    out.append('<polyline points="' + " ".join(f"{x(i):.1f},{y(p['median']):.1f}"
                                               for i, p in enumerate(points)) + '" class="line"/>')
    for i, p in enumerate(points):
        for v in p["launches"]:
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="1.8" class="launch"/>')
        tip = (f"{p['tag']}: median {_fmt(p['median'])} {unit}, 95% CI {_fmt(p['low'])}.."
               f"{_fmt(p['high'])}, {len(p['launches'])} launches")
        if p["regimes"] > 1:
            tip += f"; launches in {p['regimes']} regimes"
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(p["median"]):.1f}" r="7" class="regime"/>')
        if p.get("verdict"):
            tip += f"; against the previous tag: {p['verdict']}"
        if p.get("mark"):           # a series walk pinned a change to this tag
            tip += f"; changed here (series walk): {p['mark']}"
            out.append(f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{TOP}" y2="{H - BOTTOM}" '
                       f'class="mark"><title>{html.escape(p["mark"])}</title></line>')
        dot = f'<circle cx="{x(i):.1f}" cy="{y(p["median"]):.1f}" r="3.2" class="point"><title>' \
              f'{html.escape(tip)}</title></circle>'
        url = link(p["tag"]) if link else None
        out.append(f'<a href="{html.escape(url)}">{dot}</a>' if url else dot)
        v = (p.get("verdict") or "").split(":")[0]
        slight = v.startswith(SLIGHTLY)
        v = v[len(SLIGHTLY):] if slight else v
        if v in ("slower", "faster"):
            extra = " slight" if slight else ""
            cy = y(p["median"])
            up = v == "faster"
            tri = (f"{x(i) - 5:.1f},{cy - 9 if up else cy + 9:.1f} {x(i) + 5:.1f},"
                   f"{cy - 9 if up else cy + 9:.1f} {x(i):.1f},{cy - 16 if up else cy + 16:.1f}")
            out.append(f'<polygon points="{tri}" class="{v}{extra}"><title>{html.escape(tip)}</title>'
                       f'</polygon>')
        text = p.get("label") or p["tag"]
        label = text if len(text) <= 14 else text[:13] + "\u2026"
        out.append(f'<text x="{x(i):.1f}" y="{H - BOTTOM + 14}" class="xtick" '
                   f'transform="rotate(20 {x(i):.1f} {H - BOTTOM + 14})">{html.escape(label)}</text>')
    out.append("</svg>")
    return "".join(out)


STYLE = """
svg.chart { background: #fff; border: 1px solid #ddd; margin: 2px; }
svg.chart .grid { stroke: #eee; } svg.chart .ytick { font: 9px sans-serif; text-anchor: end; fill: #555; }
svg.chart .xtick { font: 9px sans-serif; fill: #333; } svg.chart .unit { font: 9px sans-serif; fill: #555; }
svg.chart .band { fill: #9ecae1; opacity: .45; stroke: none; }
svg.chart .line { fill: none; stroke: #1f77b4; stroke-width: 1.5; }
svg.chart .point { fill: #1f77b4; } svg.chart .launch { fill: #777; opacity: .6; }
svg.chart .regime { fill: none; stroke: #ff7f0e; stroke-width: 1.5; stroke-dasharray: 3 2; }
svg.chart .mark { stroke: #6a3d9a; stroke-width: 2; stroke-dasharray: 4 3; }
svg.chart .slower { fill: #d62728; } svg.chart .faster { fill: #2ca02c; } svg.chart .slight { fill-opacity: 0.35; }
"""
