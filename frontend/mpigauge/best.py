# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge best`: for a sweep over configurations (a library's algorithm
choice, a threshold), per benchmark and size the best configuration and the
ones that cannot be told apart from it: every other configuration is
compared with the best one (paired by round, one error-rate adjustment over
all of those comparisons); "tied" means not significantly worse or within
the threshold."""
import json

from .common import EXIT_OK, UsageError, fmt_num, size_label, text_table
from .compare import compare_sets, higher_is_better, speedup
from .results import load_inputs
from .stats import adjust_pvalues
from .options import add_verdict_options


def best_rows(sets, threshold, alpha, control, covariate="none"):
    """[{key, label, unit, best, best_median, tied: [labels], worse: [(label, ratio)]}]."""
    by_key = {}
    for s in sets:
        for key, items in s.series().items():
            meds = sorted(r["median"] for _, r in items)
            n = len(meds)
            med = meds[n // 2] if n % 2 else 0.5 * (meds[n // 2 - 1] + meds[n // 2])
            by_key.setdefault(key, []).append((s, med))
    out, pending = [], []
    for key, cands in by_key.items():
        if len(cands) < 2:
            continue
        hib = higher_is_better(key.unit)
        best_set, best_med = (max if hib else min)(cands, key=lambda c: c[1])
        row = {"key": key, "unit": key.unit, "best": best_set.label, "best_median": best_med,
               "tied": [], "worse": []}
        for s, _ in cands:
            if s is best_set:
                continue
            rows, _, _ = compare_sets(best_set, s, threshold, alpha, "none", covariate=covariate)
            r = next((x for x in rows if x.key == key), None)
            if r is not None:
                pending.append((row, s.label, r))
        out.append(row)
    adj = adjust_pvalues([r.p for _, _, r in pending], control)
    for (row, label, r), pa in zip(pending, adj):
        band = (1.0 / (1.0 + threshold), 1.0 + threshold)
        s = speedup(r.ratio, row["unit"])
        worse = pa is not None and pa < alpha and not band[0] <= s <= band[1]
        if worse:
            row["worse"].append((label, r.ratio))
        else:
            row["tied"].append(label)
    return out


def cmd_best(a):
    from .compare import parse_threshold
    threshold = parse_threshold(a.threshold)
    sets = load_inputs(a.files)
    if len(sets) < 2:
        raise UsageError("best needs two or more configurations (an interleaved results file)")
    rows = best_rows(sets, threshold, a.alpha, a.error_control, a.covariate)
    if not rows:
        raise UsageError("no benchmark and size was measured by two or more configurations")
    if a.format == "json":
        for r in rows:
            k = r["key"]
            print(json.dumps({"type": "best", "benchmark": k.bench, "variant": k.variant,
                              "nranks": k.nranks, "size_bytes": k.size, "unit": k.unit,
                              "best": r["best"],
                              "best_median": r["best_median"], "tied": r["tied"],
                              "worse": [{"label": lb, "ratio": q} for lb, q in r["worse"]]}))
        return EXIT_OK
    print(f"best configuration per benchmark and size; tied: not distinguishable from the best "
          f"(paired by round, {a.error_control} over all comparisons, alpha {a.alpha:g}, "
          f"threshold {threshold * 100:g}%)")
    head = ("benchmark", "size", "unit", "best", "median", "tied with the best", "worse (ratio)")
    body = [[r["key"].bench + (f" [{r['key'].variant}]" if r["key"].variant else ""),
             size_label(r["key"].size),
             r["unit"], r["best"], fmt_num(r["best_median"]), ", ".join(r["tied"]) or "-",
             ", ".join(f"{lb} ({q:.3f})" for lb, q in r["worse"]) or "-"] for r in rows]
    print("\n".join(text_table(head, body)))
    return EXIT_OK


def add_parser(sub):
    b = sub.add_parser("best", help="best configuration per benchmark and size, and its ties",
                       description="For an interleaved run over configurations (a knob's "
                       "values): per benchmark and size the best configuration and those not "
                       "distinguishable from it.")
    b.add_argument("files", nargs="+", metavar="FILE|LABEL")
    add_verdict_options(b)
    b.add_argument("--format", choices=("text", "json"), default="text")
    b.set_defaults(func=cmd_best)
