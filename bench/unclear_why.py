#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Why series stay unclear: reads `mpigauge compare --format json` outputs
(the release study's results/releases/*.cmp.jsonl) and sorts every series
that is neither faster, slower nor same into one cause, by its paired
estimate and 95% CI against the threshold band [1/(1+t), 1+t]:

* edge: the CI excludes 1 (a real difference, the test is significant) but
  the estimate lies inside the band and the CI crosses the band's edge: the
  change is about as large as the threshold, and no number of rounds makes
  it clearly larger or clearly smaller than t;
* spread: the CI holds 1 and reaches out of the band: the launches spread
  too much for the rounds there are (more rounds decide it);
* small sample: the CI holds 1, inside the band, but the test needs more
  pairs (rare);
* alpha/looks: outside the band and its CI excludes 1, but its adjusted p
  is above the level left after the sequential looks (alpha / looks);
* few pairs: no CI at all (a series only some launches have, such as the
  overlap programs' adaptive computation steps);
* unstable: launches in different regimes on the two sides.

Prints one line per comparison and the totals; `--detail` lists the series.
  bench/unclear_why.py results/releases/*.cmp.jsonl [--detail]"""
import json
import sys


def cause(s, t):
    lo_band, hi_band = 1.0 / (1.0 + t), 1.0 + t
    v = s.get("verdict") or ""
    if v.startswith("unstable"):
        return "unstable"
    lo, hi, r = s.get("ci_low"), s.get("ci_high"), s.get("ratio")
    if lo is None or hi is None or r is None:
        return "few pairs"
    if lo > 1.0 or hi < 1.0:
        return "edge" if lo_band <= r <= hi_band else "alpha/looks"
    if lo < lo_band or hi > hi_band:
        return "spread"
    return "small sample"


def main(argv):
    detail = "--detail" in argv
    files = [a for a in argv if not a.startswith("--")]
    totals = {}
    for path in files:
        head, series = None, []
        for line in open(path, encoding="utf-8"):
            r = json.loads(line)
            if r.get("type") == "comparison":
                if head is not None:
                    report(path, head, series, totals, detail)
                head, series = r, []
            elif r.get("type") == "series":
                series.append(r)
        if head is not None:
            report(path, head, series, totals, detail)
    n = sum(totals.values())
    print(f"all: {n} unclear or unstable series: " +
          ", ".join(f"{k} {v} ({100 * v / max(n, 1):.0f}%)" for k, v in sorted(totals.items())))


def report(path, head, series, totals, detail):
    t = head.get("threshold", 0.05)
    open_ = [s for s in series if not (s.get("verdict") or "").startswith(
        ("faster", "slower", "same", "higher", "lower", "slightly"))]
    causes = {}
    for s in open_:
        c = cause(s, t)
        causes[c] = causes.get(c, 0) + 1
        totals[c] = totals.get(c, 0) + 1
        if detail:
            print(f"  {s['label']} {s['size_bytes']}: ratio {s['ratio']:.3f} "
                  f"[{s['ci_low']:.3f}, {s['ci_high']:.3f}] -> {c}")
    print(f"{path}: {head['new']['label']} vs {head['base']['label']}: {len(series)} series, "
          f"{len(open_)} open: " + ", ".join(f"{k} {v}" for k, v in sorted(causes.items())))


if __name__ == "__main__":
    main(sys.argv[1:])
