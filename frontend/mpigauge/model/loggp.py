# SPDX-License-Identifier: BSD-3-Clause
"""LogGP's parameters from the loggp program's round trips (the PRTT
method, doc/models.md), pure.

Per launch and size s, from its four variants (round trips in us):
PRTT(1,0), PRTT(n,0), PRTT(n,d) with the delay d it used, and the receive
overhead o_r (rank 1's time inside MPI_Recv of a message that has arrived):

  gap(s) = g + (s-1) G = (PRTT(n,0) - PRTT(1,0)) / (n - 1)
  o_s(s)               = (PRTT(n,d) - PRTT(1,0)) / (n - 1) - d
  L(s)                 = PRTT(1,0) / 2 - o_s - o_r

Each size's figure is the median over launches (the variants of a launch
are taken together: a launch is the unit), with a 95% interval from a
bootstrap over launches. g and G come from Hockney's segmented fit of the
gap curve (model/hockney.py): per regime, g the line's value at one byte and
G its slope."""
import math
import random
from typing import Dict, List, NamedTuple, Tuple

from ..core.stats import median, quantile
from .hockney import FitError, fit

VARIANTS = {"prtt=1,0": "one", "prtt=n,0": "burst", "prtt=n,d": "spaced", "prtt=o_r": "recv"}
PARAMS = ("L", "o_s", "o_r", "gap")
RESAMPLES = 200


class SizeRow(NamedTuple):
    size: int
    prtt: float                 # PRTT(1,0), us: the median over launches
    values: Dict[str, float]    # L, o_s, o_r, gap (us): medians over launches
    cis: Dict[str, Tuple[float, float]]
    launches: int


def launch_params(rec, n):
    """L, o_s, o_r and gap of one launch at one size: rec holds its
    variants' medians (one, burst, spaced, recv in us) and the extras
    delay_us and recv_call_us; None when a part is missing."""
    need = ("one", "burst", "spaced", "delay", "o_r")
    if any(not isinstance(rec.get(k), (int, float)) or math.isnan(rec[k]) for k in need):
        return None
    gap = (rec["burst"] - rec["one"]) / (n - 1)
    o_s = (rec["spaced"] - rec["one"]) / (n - 1) - rec["delay"]
    return {"L": rec["one"] / 2.0 - o_s - rec["o_r"], "o_s": o_s, "o_r": rec["o_r"], "gap": gap}


def records(series):
    """{size: {launch id: rec}} from the loggp series of a set: items of
    (launch, result) per SeriesKey with variants prtt=..."""
    out = {}
    for key, items in series.items():
        part = VARIANTS.get(key.variant)
        if key.bench != "loggp" or part is None or not isinstance(key.size, int):
            continue
        for la, r in items:
            rec = out.setdefault(key.size, {}).setdefault(la.launch_id, {})
            rec[part] = r["median"]
            extra = r.get("extra") or {}
            if part == "spaced":
                rec["delay"] = extra.get("delay_us", math.nan)
            if part == "recv":
                rec["o_r"] = extra.get("recv_call_us", math.nan)
    return out


def per_launch(recs, n):
    """{size: [(PRTT(1,0), launch_params)]} of the complete launches, once."""
    out = {}
    for s in sorted(recs):
        got = [(rec["one"], p) for rec in recs[s].values()
               for p in [launch_params(rec, n)] if p is not None]
        if got:
            out[s] = got
    return out


def size_rows(per, seed=1, resamples=RESAMPLES):
    """A SizeRow per size of per_launch(...); sizes in order."""
    rng = random.Random(seed)
    rows = []
    for s, got in per.items():
        vals = {k: median([p[k] for _, p in got]) for k in PARAMS}
        cis = {}
        for k in PARAMS:
            xs = [p[k] for _, p in got]
            if len(xs) < 2:
                cis[k] = (math.nan, math.nan)
                continue
            meds = [median([rng.choice(xs) for _ in xs]) for _ in range(resamples)]
            cis[k] = (quantile(meds, 0.025), quantile(meds, 0.975))
        rows.append(SizeRow(s, median([one for one, _ in got]), vals, cis, len(got)))
    return rows


class LogGP(NamedTuple):
    rows: List[SizeRow]
    gap_model: object           # hockney.Model of the gap curve
    n: int
    draws: Dict[str, List[float]]   # L, o_s, o_r, gap at the one-byte row: resampled medians

    def small(self):
        """The row of the smallest size of at least one byte (LogGP's
        parameters of a one-byte message), or the smallest."""
        pos = [r for r in self.rows if r.size >= 1]
        return pos[0] if pos else self.rows[0]

    def g_and_big_g(self):
        """(g us, G us per byte): g the gap of the one-byte row (g + 0 G),
        G the slope of the gap fit's last regime (the largest messages)."""
        return self.small().values["gap"], max(self.gap_model.regimes[-1].beta, 0.0)


def fit_loggp(recs, n, seed=1, max_segments=4):
    """LogGP from records(...) of a set whose program ran n messages per
    burst. FitError when too few sizes have every variant, or when the
    gap is not a positive time at every size (the bursts ran no faster
    than single messages: noise, or a delay too short)."""
    if n is None or n < 2:
        raise FitError("the run does not say its --messages (n of the bursts)")
    per = per_launch(recs, n)
    rows = size_rows(per, seed)
    if len(rows) < 3:
        raise FitError(f"{len(rows)} sizes with every variant of a round trip: at least 3 "
                       "are needed (run loggp -m 1:1M)")
    gaps = {s: [p["gap"] for _, p in got] for s, got in per.items()}
    bad = [s for s, v in gaps.items() if median(v) <= 0]
    if bad:
        raise FitError(f"the burst of n messages was no slower than one message at "
                       f"{', '.join(str(s) for s in bad[:4])} B: no gap to fit (more "
                       "launches, or more messages with -n)")
    gaps = {s: [max(x, 1e-6) for x in v] for s, v in gaps.items() if s >= 1}
    gm = fit(gaps, max_segments=max_segments, seed=seed)
    small = ([r for r in rows if r.size >= 1] or rows)[0]
    launches = [p for _, p in per[small.size]]
    rng = random.Random(seed)
    draws = {k: [] for k in PARAMS}
    for _ in range(RESAMPLES if len(launches) >= 2 else 0):
        pick = [rng.choice(launches) for _ in launches]
        for k in PARAMS:
            draws[k].append(median([p[k] for p in pick]))
    return LogGP(rows, gm, n, draws)


def compare_loggp(base: LogGP, new: LogGP, threshold=0.05, alpha=0.05):
    """Verdicts on LogGP's parameters, new against base: L, o_s, o_r and g
    at the one-byte row (from resampled medians over launches) and G (the
    slope of the gap's last regime, from the fit's resamples); a parameter
    not above zero on a side gets no verdict (its ratio says nothing)."""
    from .paramverdict import ParamRow, decide
    rows = []
    bs, ns = base.small(), new.small()
    pairs = [(k, bs.values[k], ns.values[k], base.draws[k], new.draws[k])
             for k in ("L", "o_s", "o_r")]
    pairs.append(("g", bs.values["gap"], ns.values["gap"], base.draws["gap"],
                  new.draws["gap"]))
    pairs.append(("G", base.g_and_big_g()[1], new.g_and_big_g()[1],
                  [d[1] for d in base.gap_model.draws[-1]],
                  [d[1] for d in new.gap_model.draws[-1]]))
    for name, b, n, bd, nd in pairs:
        rs = [y / x for x, y in zip(bd, nd) if x > 0 and y > 0]
        if b <= 0 or n <= 0:
            rows.append(ParamRow("1 B" if name != "G" else "largest", name, b, n, math.nan,
                                 (math.nan, math.nan), "no verdict (not above zero)"))
            continue
        ci = eq = (math.nan, math.nan)
        if len(rs) >= 20:
            ci = (quantile(rs, alpha / 2), quantile(rs, 1 - alpha / 2))
            eq = (quantile(rs, alpha), quantile(rs, 1 - alpha))
        rows.append(ParamRow("1 B" if name != "G" else "largest", name, b, n, n / b, ci,
                             decide(n / b, ci, eq, threshold, True)))
    return rows


def loggopsim_flags(m: LogGP, eager_limit):
    """LogGOPSim's parameters (-L -o -g -G -O -S) in picoseconds (its options
    are integers: a per-byte gap of 0.1 ns survives only in ps), from the
    one-byte row, the gap fit, and the least-squares slope of o_s over the
    sizes up to the eager limit."""
    row = m.small()
    g, big_g = m.g_and_big_g()
    eager = [r for r in m.rows if r.size <= eager_limit] or m.rows
    xs, ys = [r.size for r in eager], [r.values["o_s"] for r in eager]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    big_o = max(0.0, sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx) if sxx else 0.0
    o = (row.values["o_s"] + row.values["o_r"]) / 2.0

    def ps(us):
        return max(0, int(round(us * 1e6)))
    return [("L", ps(row.values["L"])), ("o", ps(o)), ("g", ps(g)), ("G", ps(big_g)),
            ("O", ps(big_o)), ("S", int(eager_limit))]
