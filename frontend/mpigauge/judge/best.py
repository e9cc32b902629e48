# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge best`: for a sweep over configurations (a library's algorithm
choice, a threshold), per benchmark and size the best configuration and the
ones that cannot be told apart from it: every other configuration is
compared with the best one (paired by round, one error-rate adjustment over
all of those comparisons); "tied" means not significantly worse or within
the threshold."""
import json
import os

from ..core.common import (EXIT_OK, UsageError, check_output_path, fmt_num, size_label, text_table,
                           write_text_atomic)
from ..verdict.compare import compare_sets
from ..verdict.verdicts import higher_is_better, speedup
from ..data.results import load_inputs
from ..core.stats import adjust_pvalues


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
    from ..verdict.compare import parse_threshold
    threshold = parse_threshold(a.threshold)
    sets = load_inputs(a.files)
    if len(sets) < 2:
        raise UsageError("best needs two or more configurations (an interleaved results file)")
    rows = best_rows(sets, threshold, a.alpha, a.error_control, a.covariate)
    if not rows:
        raise UsageError("no benchmark and size was measured by two or more configurations")
    if a.export:
        return export(a, sets, rows, threshold)
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


def differ(pairs, threshold, alpha, control, covariate):
    """[decided] per (forced set, own set, key): do the best forced algorithm
    and the library's own choice differ significantly (beyond the
    threshold), with one adjustment over the pairs."""
    found, done = [], {}
    for best, own, key in pairs:
        # one comparison of every series per pair of sets, not one per key
        if (id(best), id(own)) not in done:
            rows, _, _ = compare_sets(best, own, threshold, alpha, "none", covariate=covariate)
            done[(id(best), id(own))] = {r.key: r for r in rows}
        found.append(done[(id(best), id(own))].get(key))
    adj = adjust_pvalues([r.p if r is not None else None for r in found], control)
    out = []
    for r, pa in zip(found, adj):
        s = speedup(r.ratio, r.unit) if r is not None else 1.0
        out.append(pa is not None and pa < alpha and not 1 / (1 + threshold) <= s <= 1 + threshold)
    return out


def export(a, sets, rows, threshold):
    """--export KIND FILE: write the tuning file, print what it says and how
    to confirm it."""
    from ..verdict import tuning
    kind, path = a.export
    if kind not in tuning.KINDS:
        raise UsageError(f"--export {kind}: one of {', '.join(tuning.KINDS)}")
    check_output_path(path, list(a.files) + [a.library or ""], opt="--export " + kind)
    envs = tuning.config_envs(sets)
    if not any(tuning.forced(kind, env, b) is not None
               for b in {r["key"].bench for r in rows} for env in envs.values()):
        raise UsageError(f"no configuration forces an algorithm for {kind}'s collectives (sweep "
                         + ("OMPI_MCA_coll_tuned_OP_algorithm with coll_tuned_use_dynamic_rules=1"
                            if kind == "ompi-rules" else "MPIR_CVAR_OP_INTRA_ALGORITHM") + ")")
    ch = tuning.choices(kind, sets, rows, envs,
                        lambda pairs: differ(pairs, threshold, a.alpha, a.error_control,
                                             a.covariate), a.significant_only)
    if not ch:
        raise UsageError("no collective of the sweep can go into the file (supported: "
                         + ", ".join(tuning.OMPI_COLLS if kind == "ompi-rules"
                                     else tuning.MPICH_COLLS) + ")")
    source = ", ".join(sorted({s.path for s in sets}))
    if kind == "ompi-rules":
        def env_of(bench, alg):
            return next(env for env in envs.values() if tuning.forced(kind, env, bench) == alg)
        text = tuning.ompi_rules_text(ch, env_of, source)
    else:
        lib = a.library or tuning.library_file(sets)
        if not lib:
            raise UsageError("the results do not name the MPICH library; give it with --library")
        base, data = tuning.mpich_default_tree(lib)
        text = json.dumps(tuning.mpich_json_tree(ch, base, data), indent=2) + "\n"
    write_text_atomic(path, text)
    print(f"{path}: {kind} written; per collective, rank count and message size:")
    head = ("collective", "ranks", "from size", "algorithm", "why")
    body = [[b, str(n), size_label(s), name, why]
            for b, n, s, name, why in tuning.summary_rows(ch, kind)]
    print("\n".join(text_table(head, body)))
    common = "".join(f" {k}={v}" for k, v in tuning.common_env(envs).items())
    print("confirm it, default against tuned, interleaved (doc/tuning.md):\n"
          f"  mpigauge run --suite SUITE --config 'default{common}' "
          f"--config 'tuned{common} tuning={os.path.abspath(path)}' -K 10 -o confirm.jsonl\n"
          "  mpigauge compare confirm.jsonl default tuned")
    return EXIT_OK
