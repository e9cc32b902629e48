# SPDX-License-Identifier: BSD-3-Clause
"""The sequential design of `run --until-decided` (doc/compare.md): the
rounds after which the run looks at its data, each look at alpha / looks
(the error rate holds however the looks end), and what a look decides:
stop when every series is decided, else run the next rounds with only the
suite lines that hold an undecided series."""
import sys

from .stats import min_pairs


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
    """Whether every series of base-vs-each-configuration has a final verdict
    at the sequential level (v: a Verdict), how many have none, and the
    suite lines (their sources) that hold those (None: all of them)."""
    from .compare import compare_sets, undecided
    from .results import build_set
    sets = [build_set(records, path, lb, "line", lb, all_configs=False) for lb in labels]
    alpha = v.alpha / len(planned_looks(v.min_rounds, v.max_rounds, v.alpha))
    left, lines = 0, set()
    for new in sets[1:]:
        rows, _, _ = compare_sets(sets[0], new, v.threshold, alpha, v.error_control,
                                  covariate=v.covariate)
        left += len(undecided(rows)) + (0 if rows else 1)
        if not rows:
            return False, max(1, left), None
        lines |= {r.key.where[len("line "):] for r in undecided(rows) if r.key is not None}
    return left == 0, left, lines


def look(out, plan, rnd, steps, si, todo, done_launches, narrowed):
    """A look of --until-decided after round rnd: the reason to stop when
    every series is decided; else the rounds after it keep only the suite
    lines that hold an undecided series (steps and todo cut in place, the
    cut recorded in narrowed). A line's series are judged at every look at
    the same alpha / looks, measured more or not, so the error rate holds."""
    done, left, lines = all_decided(out.records, plan.output, plan.labels, plan.verdict)
    if done:
        if not plan.quiet:
            print(f"mpigauge run: look after round {rnd}: every series decided", file=sys.stderr)
        return f"decided after round {rnd}"
    keep = (lambda t: True) if lines is None else \
        (lambda t: plan.items[(t[1], t[2])].entry.source in lines)
    before = len({t[1] for t in todo[done_launches:]})
    steps[si + 1:] = [st for st in steps[si + 1:] if all(keep(t) for t in st)]
    todo[done_launches:] = [t for t in todo[done_launches:] if keep(t)]
    after = len({t[1] for t in todo[done_launches:]})
    if after < before:
        narrowed.append({"after_round": rnd, "lines": after, "of": before})
    if not plan.quiet:
        print(f"mpigauge run: look after round {rnd}: {left} series undecided"
              + (f"; the next rounds run the {after} of {before} suite lines that hold them"
                 if after < before else ""), file=sys.stderr)
    return None
