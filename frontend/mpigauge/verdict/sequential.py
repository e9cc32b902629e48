# SPDX-License-Identifier: BSD-3-Clause
"""The sequential design of `run --until-decided` (doc/compare.md): the
rounds after which the run looks at its data, each look at alpha / looks
(the error rate holds however the looks end), and what a look decides:
stop when every series is decided, else run the next rounds with only the
suite lines that hold an undecided series, each at its undecided sizes."""
import sys

from ..core.stats import min_pairs


def planned_looks(min_rounds, max_rounds, alpha=0.05):
    """Rounds after which --until-decided looks at the data: from min_rounds,
    x1.5 each time, and max_rounds; each look tests at alpha / len(looks)
    (Bonferroni over looks: the error rate holds however the looks end). A
    look at which the exact signed-rank test cannot reach that level (6
    pairs give at best p = 0.031) would spend error rate for nothing and is
    left out."""
    looks, r = [], min_rounds
    while r < max_rounds:
        looks.append(r)
        r = max(r + 1, int(round(r * 1.5)))
    looks.append(max_rounds)
    while len(looks) > 1 and looks[0] < min_pairs(alpha / len(looks)):
        looks.pop(0)
    return looks


def all_decided(records, path, labels, v):
    """Whether every series of the pairs a look decides (v.pairs, else
    base-vs-each-configuration) has a final verdict at the sequential level
    (v: a Verdict), how many have none, and per suite line (its source)
    that holds one: (its undecided sizes, all its sizes); None: every line
    as it is."""
    from .compare import compare_sets, undecided
    from ..data.results import build_set
    pairs = list(v.pairs) or [(labels[0], lb) for lb in labels[1:]]
    sets = {lb: build_set(records, path, lb, "line", lb, all_configs=False)
            for lb in dict.fromkeys(x for p in pairs for x in p)}
    same_alpha = v.alpha / len(planned_looks(v.min_rounds, v.max_rounds, v.alpha))
    alpha = same_alpha / (len(pairs) if v.pairs else 1)
    left, open_sizes, sizes = 0, {}, {}
    for la, lb in pairs:
        rows, _, _ = compare_sets(sets[la], sets[lb], v.threshold, alpha, v.error_control,
                                  covariate=v.covariate, same_alpha=same_alpha)
        left += len(undecided(rows)) + (0 if rows else 1)
        if not rows:
            return False, max(1, left), None
        for r in rows:
            if r.key is not None:
                sizes.setdefault(_line(r), set()).add(r.key.size)
        for r in undecided(rows):
            if r.key is not None:
                open_sizes.setdefault(_line(r), set()).add(r.key.size)
    return left == 0, left, {src: (got, sizes[src]) for src, got in open_sizes.items()}


def _line(row):
    return row.key.where[len("line "):]


def only_sizes(plan, lines):
    """The items of each line some of whose sizes are decided measure only
    the undecided ones from now on: their program's -m of those sizes (a
    program takes the last -m it is given) after the line's own arguments.
    {line: sizes} of the lines narrowed."""
    out = {}
    for it in plan.items.values():
        got = lines.get(it.entry.source)
        if not got or not got[0] < got[1] or \
                not all(isinstance(z, int) and z >= 0 for z in got[0]):
            continue
        keep = sorted(got[0])
        # one size as Z:Z: -m Z alone is OSU's "up to Z" (0, 1, 2, 4 ... Z)
        m = f"{keep[0]}:{keep[0]}" if len(keep) == 1 else ",".join(str(z) for z in keep)
        it.argv = list(it.argv_line) + ["-m", m]
        out[it.entry.source] = keep
    return out


def look(out, plan, rnd, steps, si, todo, done_launches, narrowed):
    """A look of --until-decided after round rnd: the reason to stop when
    every series is decided; else the rounds after it keep only the suite
    lines that hold an undecided series (steps and todo cut in place), and
    a line some of whose sizes are decided only at the others (only_sizes);
    each cut recorded in narrowed. A series is judged at every look at the
    same alpha / looks, measured more or not, so the error rate holds."""
    done, left, lines = all_decided(out.records, plan.output, plan.labels, plan.verdict)
    if done:
        if not plan.quiet:
            print(f"mpigauge run: look after round {rnd}: every series decided", file=sys.stderr)
        return f"decided after round {rnd}"
    if not todo[done_launches:]:   # the last round: nothing left to narrow
        if not plan.quiet:
            print(f"mpigauge run: look after round {rnd}: {left} series undecided",
                  file=sys.stderr)
        return None
    keep = (lambda t: True) if lines is None else \
        (lambda t: plan.items[(t[1], t[2])].entry.source in lines)
    before = len({t[1] for t in todo[done_launches:]})
    steps[si + 1:] = [st for st in steps[si + 1:] if all(keep(t) for t in st)]
    todo[done_launches:] = [t for t in todo[done_launches:] if keep(t)]
    after = len({t[1] for t in todo[done_launches:]})
    sizes = only_sizes(plan, lines) if lines is not None else {}
    if after < before or sizes:
        narrowed.append({"after_round": rnd, "lines": after, "of": before,
                         "sizes": {src: z for src, z in sorted(sizes.items())}})
    if not plan.quiet:
        print(f"mpigauge run: look after round {rnd}: {left} series undecided"
              + (f"; the next rounds run the {after} of {before} suite lines that hold them"
                 if after < before else "")
              + (f"; {len(sizes)} line(s) only at their undecided sizes" if sizes else ""),
              file=sys.stderr)
    return None
