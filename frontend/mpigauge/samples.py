# SPDX-License-Identifier: BSD-3-Clause
"""Every timed sample of a run (`mpigauge_NAME --samples FILE`, doc/output.md):
loading the file, finding spikes and a periodic disturbance among them
(`report --samples`), and the timeline (`plot --timeline`)."""
import json
import math
from typing import List, NamedTuple

from .common import UsageError, open_input, plain_text
from .stats import median

SPIKE_FACTOR = 10.0    # a spike: this many times its series' median, and
SPIKE_MADS = 10.0      # this many median absolute deviations above it
MIN_EVENTS = 5         # spike events needed to call them periodic
REGULAR = 0.6          # the share of gaps within 20% of the period (or a multiple)
NULL_Q = 0.35          # the chance of that for a gap between events at random
ALPHA = 1e-3           # how rarely events at random may look periodic


class Series(NamedTuple):
    size: int
    variant: str
    start: List[float]      # seconds since the sweep began, rank 0's clock
    per_iter: List[float]   # seconds per iteration
    iters: List[int]


def load(path):
    """(header, [Series]) of a samples file; UsageError when it is not one."""
    try:
        with open_input(path, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f if line.strip()]
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    except ValueError:
        raise UsageError(f"{path}: not a samples file (a line is not JSON)") from None
    if not lines or not isinstance(lines[0], dict) or lines[0].get("type") != "samples":
        raise UsageError(f"{path}: not a samples file (mpigauge_NAME --samples FILE writes one)")
    out = []
    for k, r in enumerate(lines[1:], 2):
        try:
            s = Series(int(r["size_bytes"]), r.get("variant") or "",
                       [float(x) for x in r["start_s"]], [float(x) for x in r["per_iteration_s"]],
                       [int(x) for x in r["iterations"]])
        except (KeyError, TypeError, ValueError):
            raise UsageError(f"{path}:{k}: not a sample_series record") from None
        if not len(s.start) == len(s.per_iter) == len(s.iters):
            raise UsageError(f"{path}:{k}: arrays of different lengths")
        out.append(s)
    return lines[0], out


def spikes(series):
    """[(start, duration)] of the samples far above their series' typical
    one: per_iter above SPIKE_FACTOR x the median and SPIKE_MADS median
    absolute deviations above it."""
    out = []
    for s in series:
        if len(s.per_iter) < 10:
            continue
        m = median(s.per_iter)
        mad = median([abs(x - m) for x in s.per_iter])
        for t, d, n in zip(s.start, s.per_iter, s.iters):
            if d > SPIKE_FACTOR * m and d > m + SPIKE_MADS * mad:
                out.append((t, d * n))
    return sorted(out)


def events(spk, merge_s=None):
    """Spikes closer than merge_s (default: twice the median spike, at least
    100 us) are one event; the events' start times. The median, not the
    longest: one long stall (a page-in, a descheduled rank) must not glue
    every later event to it."""
    if not spk:
        return []
    gap = merge_s if merge_s is not None else max(2 * median([d for _, d in spk]), 1e-4)
    out = [spk[0][0]]
    last_end = spk[0][0] + spk[0][1]
    for t, d in spk[1:]:
        if t - last_end > gap:
            out.append(t)
        last_end = max(last_end, t + d)
    return out


def binom_tail(n, k, q):
    """P(X >= k) for X ~ Binomial(n, q)."""
    return sum(math.comb(n, j) * q ** j * (1 - q) ** (n - j) for j in range(k, n + 1))


def period(ev, alpha=ALPHA):
    """(period_s, regular share) of event times, or None: the median gap,
    when enough gaps are within 20% of it or of a whole multiple of it (a
    disturbance that fell between two sizes' samples is missed, not moved),
    and so many that events at random times would rarely give as many
    (binomial tail at most alpha, each gap regular with chance NULL_Q)."""
    if len(ev) < MIN_EVENTS:
        return None
    gaps = [b - a for a, b in zip(ev, ev[1:]) if b > a]
    if len(gaps) < MIN_EVENTS - 1:
        return None
    p = median(gaps)
    if p <= 0:
        return None
    ok = sum(1 for g in gaps if abs(g / p - round(g / p)) <= 0.2 and round(g / p) >= 1)
    share = ok / len(gaps)
    if share < REGULAR or binom_tail(len(gaps), ok, NULL_Q) > alpha:
        return None
    return p, share


def duration_classes(spk, ratio=1.25):
    """The spikes grouped by duration: sorted by duration, a spike joins the
    previous one's class when it lasts less than ratio times as long. A
    disturbance that stalls for the same time at every visit forms one
    class, apart from the shorter or longer noise beside it."""
    out = []
    for t, d in sorted(spk, key=lambda x: x[1]):
        if out and d < ratio * out[-1][-1][1]:
            out[-1].append((t, d))
        else:
            out.append([(t, d)])
    return [sorted(c) for c in out]


def periodic(spk):
    """(period_s, regular share, events, typical stall_s or None) of the
    spikes, or None. All spikes first; else the spikes of one duration
    class (the class with the most events that has a period): a periodic
    stall among irregular ones of other lengths, such as time slices lost
    to load beside the ranks."""
    ev = events(spk)
    found = period(ev)
    if found:
        return found[0], found[1], len(ev), None
    best = None
    classes = [c for c in duration_classes(spk) if len(c) >= MIN_EVENTS]
    for c in classes:
        cev = events(c)
        got = period(cev, ALPHA / len(classes))
        if got and (best is None or len(cev) > best[2]):
            best = (got[0], got[1], len(cev), median([d for _, d in c]))
    return best


def describe_spikes(series):
    """One line about the run's disturbances: a period, spikes without one,
    or none."""
    spk = spikes(series)
    found = periodic(spk)
    n = sum(len(s.start) for s in series)
    if found:
        p, share, nev, stall = found
        what = f"stalls of {stall * 1e3:.3g} ms, " if stall is not None else ""
        return (f"periodic disturbance: every {p * 1e3:.3g} ms ({what}{nev} events, "
                f"{share:.0%} of the gaps regular; {len(spk)} of {n} samples spiked)")
    if spk:
        return f"{len(spk)} of {n} samples spiked ({len(events(spk))} events), no period found"
    return f"no spikes among {n} samples"


def make_timeline(plt, header, series, title=None):
    """Every sample against its start: time per iteration (log), one colour
    per size; warm-up, spikes and regime switches show as they happened."""
    fig, ax = plt.subplots(figsize=(10, 4.5))
    for s in series:
        lab = plain_text(f"{s.size} B" + (f" {s.variant}" if s.variant else ""))
        ax.scatter(s.start, [x * 1e6 for x in s.per_iter], s=4, label=lab)
    ax.set_yscale("log")
    ax.set_xlabel("start of the sample (s since the sweep began, rank 0's clock)")
    ax.set_ylabel("time per iteration (us)")
    what = describe_spikes(series)
    ax.set_title(plain_text(title or f"{header.get('benchmark')}: every timed sample ({what})"),
                 fontsize=9)
    if len(series) <= 12:
        ax.legend(fontsize=7, markerscale=3)
    fig.tight_layout()
    return fig
