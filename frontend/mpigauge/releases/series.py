# SPDX-License-Identifier: BSD-3-Clause
"""Which release changed it (`mpigauge series`, doc/releases.md): a series
of installations of one ABI family in release order, walked by bisection.

The ends and every --stride-th release between them (by default so many
that the first run measures at most FIRST_MOST releases: every release of a
short series) are measured in one interleaved run; where two neighbours of that run differ (a verdict of
`compare` beyond the threshold, with its error control), the release half
way between them is measured in the next run together with both, until
each change is pinned to two adjacent releases. Every comparison is made
between configurations of the same run (paired by round), never across
runs. A change the halves do not show (each step below the threshold) is
reported as gradual; a change that came and went between two releases
measured together is seen when a release between them is measured, and
missed when both ends lie within one stride (said in the report).

This module is the walk itself, pure: measure(step, indices, pairs) gives
the comparison rows of each pair (again=True: of a step measured before,
from its run); series_cli runs the steps."""
from dataclasses import dataclass, field

from ..verdict.verdicts import DECIDED, DIFFERENCES, SLIGHTLY


# releases the first run measures at most (stride "auto"). Not more: the
# launches of a round take turns, so a round of many releases lasts long
# enough for this machine's regimes to change inside it, and the pairs that
# straddle a change are left out (doc/releases.md: MPICH's ten releases in
# one run decided 8 of 612 series, half the pairs left out; in steps of six
# and three the same series pinned every change)
FIRST_MOST = 6


def auto_stride(n):
    """The stride at which the first run measures at most FIRST_MOST
    releases: 1 (every release, so that a change of one release that is
    undone by the next is seen) for a series of up to FIRST_MOST."""
    return max(1, -(-(n - 1) // (FIRST_MOST - 1)))


def probes(n, stride):
    """The indices the first run measures: the ends and every stride-th."""
    if n < 2:
        return list(range(n))
    idx = list(range(0, n, max(1, stride)))
    if idx[-1] != n - 1:
        idx.append(n - 1)
    return idx


@dataclass
class Finding:
    """A change pinned to releases (lo, hi): adjacent ones (kind "step"), or
    not: kind "gradual" (the interval showed it, both its halves were
    decided and neither did: each step below the threshold), "undecided"
    (a half could not tell: more rounds would)."""
    lo: int
    hi: int
    kind: str
    row: object             # the compare Row of (lo, hi) that shows it
    step: int               # the run it was measured in
    extra: dict = field(default_factory=dict)


@dataclass
class Walk:
    """What a series walk did: the runs (step -> indices measured), the
    comparisons (step -> [(lo, hi)]), and the findings."""
    n: int
    steps: list = field(default_factory=list)
    pairs: list = field(default_factory=list)
    findings: list = field(default_factory=list)
    # (step, lo, hi) -> (changed, same, undecided): the pair's series by verdict
    decided: dict = field(default_factory=dict)
    # (k - 1, k + 1) -> {row key: Row}: the releases around a change that the
    # next release reversed, measured against each other (returns())
    returns: dict = field(default_factory=dict)
    # (k - 1, k + 1) -> the step whose run measured both and compared them again
    again: dict = field(default_factory=dict)
    # row group -> the sizes any run measured of it (the axis a range of sizes is on)
    axes: dict = field(default_factory=dict)

    def measured(self):
        return sorted({i for s in self.steps for i in s})

    def unmeasured(self):
        m = set(self.measured())
        return [i for i in range(self.n) if i not in m]


def differing(rows):
    """{key: row} of the rows whose verdict claims a change beyond the
    threshold (not "slightly": a certain change within it)."""
    return {r.key: r for r in rows if r.verdict in DIFFERENCES
            and not r.verdict.startswith(SLIGHTLY)}


def tally(rows):
    """(changed, same, undecided): a pair's series by verdict."""
    changed = len(differing(rows))
    same = sum(1 for r in rows if r.verdict in DECIDED) - changed
    return changed, same, len(rows) - changed - same


def walk(n, measure, stride=None, max_steps=64):
    """Bisect a series of n releases. measure(step, indices, pairs) -> {(lo,
    hi): [Row]} for every pair asked (step counts from 1); stride None:
    auto_stride. Returns a Walk."""
    w = Walk(n)
    if n < 2:
        return w
    first = probes(n, stride or auto_stride(n))
    todo = [(a, b, None) for a, b in zip(first, first[1:])]   # (lo, hi, parent)
    while todo and len(w.steps) < max_steps:
        step = len(w.steps) + 1
        pairs = [(a, b) for a, b, _ in todo]
        indices = sorted({i for p in pairs for i in p})
        w.steps.append(indices)
        w.pairs.append(pairs)
        got = measure(step, indices, pairs)
        for (a, b), rows in got.items():
            for r in rows:
                if hasattr(r.key, "group"):
                    w.axes.setdefault(r.key.group(), set()).add(r.key.size)
            w.decided[(step, a, b)] = tally(rows)
        todo = _next(w, step, todo, got)
    _check_returns(w, measure, max_steps)
    # a change an interval showed and its halves did not is gradual, or
    # undecided, unless it was pinned inside the interval after all
    pinned = {(f.row.key, f.hi) for f in w.findings if f.kind == "step"}
    w.findings = [f for f in w.findings if f.kind == "step" or not any(
        (f.row.key, k) in pinned for k in range(f.lo + 1, f.hi + 1))]
    return w


def returns(findings):
    """(k - 1, k + 1) of every step pinned at k that the next step reverses
    (the same series, opposite directions), in order."""
    steps = {}
    for f in findings:
        if f.kind == "step":
            steps.setdefault((f.lo, f.row.key), f)
    out = set()
    for (lo, key), f in steps.items():
        g = steps.get((lo + 1, key))
        if g is not None and (f.row.ratio - 1.0) * (g.row.ratio - 1.0) < 0:
            out.add((lo, lo + 2))
    return sorted(out)


def _check_returns(w, measure, max_steps):
    """The release before each reversed change against the release after
    it, with the same statistics, so the report says a change was undone
    only when the two ends are the same (doc/releases.md). Ends that a step
    measured together (every release of a short series is in the first)
    are compared again from that step's run, paired by its rounds
    (measure(..., again=True): nothing launched); the others in one more
    run. Each group of pairs is a family of its own, at alpha / pairs."""
    back = returns(w.findings)
    fresh, known = [], {}
    for a, b in back:
        s = next((k for k in range(len(w.steps), 0, -1)
                  if a in w.steps[k - 1] and b in w.steps[k - 1]), None)
        if s is None:
            fresh.append((a, b))
        else:
            known.setdefault(s, []).append((a, b))
    for s, pairs in sorted(known.items()):
        _returned(w, s, measure(s, w.steps[s - 1], pairs, again=True))
        w.pairs[s - 1] += pairs
        w.again.update((p, s) for p in pairs)
    if not fresh or len(w.steps) >= max_steps:
        return
    step = len(w.steps) + 1
    w.steps.append(sorted({i for p in fresh for i in p}))
    w.pairs.append(fresh)
    _returned(w, step, measure(step, w.steps[-1], fresh))


def _returned(w, step, got):
    for (a, b), rows in got.items():
        w.decided[(step, a, b)] = tally(rows)
        w.returns[(a, b)] = {r.key: r for r in rows}


def _next(w, step, todo, got):
    """The findings of one run and the pairs the next run measures."""
    nxt = []
    halves = {}
    for a, b, parent in todo:
        rows = got.get((a, b), [])
        if parent is not None:
            halves.setdefault(id(parent), (parent, []))[1].append(rows)
        diff = differing(rows)
        if not diff:
            continue
        if b == a + 1:
            w.findings += [Finding(a, b, "step", r, step) for r in diff.values()]
            continue
        m = (a + b) // 2
        node = (a, b, diff, step)
        nxt += [(a, m, node), (m, b, node)]
    for (a, b, diff, pstep), kids in halves.values():
        for key, row in diff.items():
            mine = [r for rows in kids for r in rows if r.key == key]
            if any(r.verdict in DIFFERENCES and not r.verdict.startswith(SLIGHTLY) for r in mine):
                continue
            decided = len(mine) == len(kids) and all(r.verdict in DECIDED for r in mine)
            w.findings.append(Finding(a, b, "gradual" if decided else "undecided", row, pstep))
    return nxt
