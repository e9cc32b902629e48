#!/usr/bin/env python3
"""Plot mpigauge JSON Lines results as an SVG, with the standard library only.

One panel per benchmark: the median against message size on log axes, one
line per result set (a run record and the results that follow it), and the
95% confidence interval of the median as a shaded band.

usage: plot_svg.py -o OUT.svg RESULTS.jsonl [MORE.jsonl ...]
"""
import argparse
import json
import math
import os
import sys
from html import escape

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
PANEL_W, PANEL_H, MARGIN_L, MARGIN_B, MARGIN_T = 520, 340, 70, 45, 40


def read_sets(paths):
    """[(label, benchmark, unit, [(size, median, lo, hi)])] in file order."""
    sets = []
    for path in paths:
        current = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                rec = json.loads(line)
                if rec.get("type") == "run":
                    label = f'{rec["mpi_library"].split(",")[0]} ({rec["nranks"]} ranks)'
                    current = [label, rec["benchmark"], None, []]
                    sets.append(current)
                elif rec.get("type") == "result" and current is not None:
                    current[2] = rec["unit"]
                    current[3].append((rec["size_bytes"], rec["median"], rec["ci95_low"],
                                       rec["ci95_high"]))
    return [s for s in sets if s[3]]


def size_label(b):
    for shift, suffix in ((30, "G"), (20, "M"), (10, "K")):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift}{suffix}"
    return str(b)


def panel(bench, unit, series, x0, y0):
    pts = [p for _, data in series for p in data if p[0] > 0 and p[2] > 0]
    if not pts:
        return []
    xs = [math.log2(p[0]) for p in pts]
    ys = [math.log10(v) for p in pts for v in (p[2], p[3])]
    xmin, xmax = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    ymin, ymax = math.floor(min(ys)), math.ceil(max(ys))
    if ymax == ymin:
        ymax += 1
    w, h = PANEL_W - MARGIN_L - 20, PANEL_H - MARGIN_B - MARGIN_T

    def px(size):
        return x0 + MARGIN_L + (math.log2(size) - xmin) / (xmax - xmin) * w

    def py(v):
        return y0 + MARGIN_T + h - (math.log10(v) - ymin) / (ymax - ymin) * h

    out = [f'<text x="{x0 + PANEL_W / 2}" y="{y0 + 22}" text-anchor="middle" '
           f'font-size="15">{escape(bench)}</text>',
           f'<rect x="{x0 + MARGIN_L}" y="{y0 + MARGIN_T}" width="{w}" height="{h}" '
           f'fill="none" stroke="#444"/>']
    for e in range(ymin, ymax + 1):
        y = py(10 ** e)
        out.append(f'<line x1="{x0 + MARGIN_L}" x2="{x0 + MARGIN_L + w}" y1="{y:.1f}" '
                   f'y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 + MARGIN_L - 6}" y="{y + 4:.1f}" text-anchor="end" '
                   f'font-size="11">{10 ** e:g}</text>')
    step = max(1, int((xmax - xmin) // 8))
    for k in range(int(xmin), int(xmax) + 1, step):
        x = px(2 ** k)
        out.append(f'<text x="{x:.1f}" y="{y0 + MARGIN_T + h + 16}" text-anchor="middle" '
                   f'font-size="11">{size_label(2 ** k)}</text>')
    out.append(f'<text x="{x0 + MARGIN_L + w / 2}" y="{y0 + PANEL_H - 6}" '
               f'text-anchor="middle" font-size="12">message size (bytes)</text>')
    out.append(f'<text x="{x0 + 16}" y="{y0 + MARGIN_T + h / 2}" font-size="12" '
               f'text-anchor="middle" transform="rotate(-90 {x0 + 16} '
               f'{y0 + MARGIN_T + h / 2})">median {escape(unit)}</text>')
    for i, (label, data) in enumerate(series):
        c = COLOURS[i % len(COLOURS)]
        data = sorted(p for p in data if p[0] > 0 and p[2] > 0)
        band = [(px(s), py(hi)) for s, _, _, hi in data] + \
               [(px(s), py(lo)) for s, _, lo, _ in reversed(data)]
        out.append('<polygon points="%s" fill="%s" fill-opacity="0.2" stroke="none"/>' %
                   (" ".join(f"{x:.1f},{y:.1f}" for x, y in band), c))
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="1.8"/>' %
                   (" ".join(f"{px(s):.1f},{py(m):.1f}" for s, m, _, _ in data), c))
        ly = y0 + MARGIN_T + 14 + 16 * i
        out.append(f'<text x="{x0 + MARGIN_L + 8}" y="{ly}" font-size="11" fill="{c}">'
                   f'{escape(label)}</text>')
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args(argv)
    sets = read_sets(a.files)
    if not sets:
        print("plot_svg: no results to plot", file=sys.stderr)
        return 1
    benches = []
    for _, b, unit, _ in sets:
        if (b, unit) not in benches:
            benches.append((b, unit))
    cols = min(2, len(benches))
    rows = (len(benches) + cols - 1) // cols
    body = []
    for k, (b, unit) in enumerate(benches):
        series = [(label, data) for label, bb, u, data in sets if bb == b and u == unit]
        body += panel(b, unit, series, (k % cols) * PANEL_W, (k // cols) * PANEL_H)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * PANEL_W}" '
           f'height="{rows * PANEL_H}" font-family="sans-serif">\n'
           f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n")
    tmp = a.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(svg)

    os.replace(tmp, a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
