# SPDX-License-Identifier: BSD-3-Clause
"""Every timed sample of a run (`mpigauge_NAME --samples FILE`, doc/output.md):
loading the file, finding spikes and a periodic disturbance among them
(`report --samples`), and the timeline (`plot --timeline`)."""
import json
import math
import re
from array import array
from typing import NamedTuple, Sequence

from ..core.common import UsageError, open_input, plain_text
from ..core.stats import median

SPIKE_FACTOR = 10.0    # a spike: this many times its series' median, and
SPIKE_MADS = 10.0      # this many median absolute deviations above it
MIN_EVENTS = 5         # spike events needed to call them periodic
REGULAR = 0.6          # the share of gaps within 20% of the period (or a multiple)
NULL_Q = 0.35          # the chance of that for a gap between events at random
ALPHA = 1e-3           # how rarely events at random may look periodic


class Series(NamedTuple):
    size: int
    variant: str
    start: Sequence[float]      # seconds since the sweep began, rank 0's clock
    per_iter: Sequence[float]   # seconds per iteration
    iters: Sequence[int]


_ARRAYS = {b"start_s": "d", b"per_iteration_s": "d", b"iterations": "q"}
_KEY_OR_END = re.compile(rb'"([A-Za-z_]+)"\s*:\s*\[|\n')
_BRACKET = re.compile(rb"[][]")
CHUNK = 1 << 20


def _append(arr, text, kind):
    """The comma-separated numbers of text (whole ones) onto arr."""
    words = text.split(b",")
    if words and not words[-1].strip():
        words.pop()
    if not words:
        return
    conv = float if kind == "d" else int
    arr.extend(map(conv, words))


def _lines(f):
    """The records of a samples file read in chunks, each ({its small
    members}, {array name: array}): the three sample arrays are parsed
    number by number into arrays ('d', 'q'), and any other array (the
    per-rank ones) is skipped without being held, so a file of millions of
    samples never sits in memory as text or as Python lists."""
    buf, pos, head, arrays, name, depth = b"", 0, bytearray(), {}, None, 0
    while True:
        more = f.read(CHUNK)
        buf, pos = buf[pos:] + more, 0
        while True:
            if name is not None:            # inside an array: its numbers
                if name in _ARRAYS:
                    end = buf.find(b"]", pos)
                    cut = end if end >= 0 else buf.rfind(b",", pos) + 1
                    if cut <= pos and end < 0:
                        if not more:
                            raise ValueError("the file ends inside an array")
                        break               # more text needed
                    _append(arrays[name], buf[pos:cut], _ARRAYS[name])
                    pos = cut
                    if end >= 0:
                        pos, name = end + 1, None
                    continue
                m = _BRACKET.search(buf, pos)
                while m and depth:          # a skipped array: where it closes
                    depth += 1 if m.group(0) == b"[" else -1
                    pos = m.end()
                    m = _BRACKET.search(buf, pos) if depth else None
                if depth:
                    pos = len(buf)
                    break
                name = None
                continue
            m = _KEY_OR_END.search(buf, pos)
            if m is None:
                keep = max(pos, len(buf) - 64)      # a key may straddle chunks
                head += buf[pos:keep]
                pos = keep
                break
            head += buf[pos:m.start()]
            pos = m.end()
            if m.group(0) == b"\n":
                if head.strip() or arrays:
                    yield bytes(head), arrays
                head, arrays = bytearray(), {}
                continue
            key = m.group(1)
            head += b'"' + key + b'":[]'
            if key in _ARRAYS:
                arrays[key] = array(_ARRAYS[key])
                name = key
            else:
                name, depth = key, 1
        if not more:
            if name is not None:
                raise ValueError("the file ends inside an array")
            if buf[pos:].strip() or head.strip() or arrays:
                yield bytes(head) + buf[pos:], arrays
            return


def load(path):
    """(header, [Series]) of a samples file, read as a stream (see _lines);
    UsageError when it is not one."""
    out, header = [], None
    try:
        with open_input(path, "rb") as f:
            for k, (head, arrays) in enumerate(_lines(f), 1):
                rec = json.loads(head)
                if k == 1:
                    if not isinstance(rec, dict) or rec.get("type") != "samples":
                        raise UsageError(f"{path}: not a samples file (mpigauge_NAME --samples "
                                         "FILE writes one)")
                    header = rec
                    continue
                out.append(_series(rec, arrays, f"{path}:{k}"))
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    except (ValueError, RecursionError):
        raise UsageError(f"{path}: not a samples file (a line is not JSON)") from None
    except OverflowError:       # an iteration count beyond 64 bits
        raise UsageError(f"{path}: not a samples file (a count out of range)") from None
    if header is None:
        raise UsageError(f"{path}: not a samples file (mpigauge_NAME --samples FILE writes one)")
    return header, out


def _series(rec, arrays, where):
    try:
        s = Series(int(rec["size_bytes"]), str(rec.get("variant") or ""),
                   arrays[b"start_s"], arrays[b"per_iteration_s"], arrays[b"iterations"])
    except (KeyError, TypeError, ValueError, OverflowError):
        raise UsageError(f"{where}: not a sample_series record") from None
    if not len(s.start) == len(s.per_iter) == len(s.iters):
        raise UsageError(f"{where}: arrays of different lengths")
    if not all(math.isfinite(x) for x in s.per_iter) or not all(math.isfinite(x) for x in s.start):
        raise UsageError(f"{where}: a sample is not a finite number")
    return s


TYPICAL_MAX = 1_000_000   # samples a series' median and MAD are taken from
DRAW_MAX = 20_000         # points a timeline draws of one series


def typical(per_iter):
    """(median, median absolute deviation) of a series; of a series longer
    than TYPICAL_MAX, those of every k-th sample (an even subsample of
    TYPICAL_MAX: a spike is ten times the median, which the subsample gives
    to well within that), so that millions of samples are not sorted whole."""
    step = -(-len(per_iter) // TYPICAL_MAX)
    sub = per_iter[::step] if step > 1 else per_iter
    m = median(sub)
    return m, median([abs(x - m) for x in sub])


def drawn(s, most=DRAW_MAX):
    """(starts, per_iter, k) a timeline draws of series s: every sample, or
    of a longer series the largest of every k consecutive ones (spikes stay
    visible; k is said in the title)."""
    k = -(-len(s.per_iter) // most)
    if k <= 1:
        return list(s.start), list(s.per_iter), 1
    ts, ds = [], []
    for i in range(0, len(s.per_iter), k):
        block = s.per_iter[i:i + k]
        j = max(range(len(block)), key=block.__getitem__)
        ts.append(s.start[i + j])
        ds.append(block[j])
    return ts, ds, k


def spikes(series):
    """[(start, duration)] of the samples far above their series' typical
    one: per_iter above SPIKE_FACTOR x the median and SPIKE_MADS median
    absolute deviations above it."""
    out = []
    for s in series:
        if len(s.per_iter) < 10:
            continue
        m, mad = typical(s.per_iter)
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
    most = 1
    for s in series:
        lab = plain_text(f"{s.size} B" + (f" {s.variant}" if s.variant else ""))
        ts, ds, k = drawn(s)
        most = max(most, k)
        ax.scatter(ts, [x * 1e6 for x in ds], s=4, label=lab)
    ax.set_yscale("log")
    ax.set_xlabel("start of the sample (s since the sweep began, rank 0's clock)")
    ax.set_ylabel("time per iteration (us)")
    what = describe_spikes(series)
    shown = "every timed sample" if most == 1 else f"the largest of every {most} samples"
    ax.set_title(plain_text(title or f"{header.get('benchmark')}: {shown} ({what})"), fontsize=9)
    if len(series) <= 12:
        ax.legend(fontsize=7, markerscale=3)
    fig.tight_layout()
    return fig
