# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge selftest`: measure the instrument on this machine.

Each trial is one interleaved run of four configurations of the same build,
every one with bench/libmgslow.so preloaded: base and same (no slowdown),
and one per injected effect (default 10% and 3%, MG_SLOW_PERCENT). Then
base is compared with each: same gives the false alarms (A/A), the others
the detection rate (A/B). Printed per series: the injected effect as
measured (median over trials of the paired ratio), how often it was called
slower, and the rounds the method needs here for 19 detections in 20
(from the same trials cut to their first n rounds). --analyse DIR reads the
trials of an earlier self-test again."""
import glob
import json
import math
import statistics
import os
import sys
import time

from ..core.common import EXIT_FAIL, EXIT_INTERRUPTED, EXIT_OK, UsageError, size_label
from ..launch.launch import Interrupted
from .runrequest import RunRequest, config, run
from ..verdict.compare import compare_sets
from ..verdict.verdicts import DIFFERENCES
from ..data.results import load_config_sets
from ..core.stats import median, pairs_needed

SUITE = "latency -m {lat}\nbw -m {bw}\n"
SAME_ROUNDS = 10     # the rounds of a series walk's step (series run --rounds)
ALARMS = DIFFERENCES


def _slowlib(a):
    if a.slowlib:
        path = a.slowlib
    elif a.bindir:
        path = os.path.join(a.bindir, "bench", "libmgslow.so")
    else:
        raise UsageError("selftest needs --bindir BUILD (with bench/libmgslow.so) or --slowlib")
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file (run make in the build tree)")
    try:
        with open(path, "rb") as f:
            elf = f.read(4) == b"\x7fELF"
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}") from None
    if not elf:
        raise UsageError(f"{path}: not a shared library (bench/libmgslow.so of a build tree)")
    return os.path.abspath(path)


def run_trials(a, effects):
    lib = _slowlib(a)
    os.makedirs(a.output, exist_ok=True)
    suite = os.path.join(a.output, "selftest-suite.txt")
    with open(suite, "w", encoding="utf-8") as f:
        f.write(SUITE.format(lat=a.latency_sizes, bw=a.bw_sizes))
    cfgs = [("base", 0), ("same", 0)] + [(f"slow{e:g}", e) for e in effects]
    extra = a.args or ["--time-budget", "0.2"]
    walls = []
    for t in range(1, a.trials + 1):
        out = os.path.join(a.output, f"trial-{t:02d}.jsonl")
        req = RunRequest(suite=suite, output=out, repeat=a.rounds, quiet=True, force=True,
                         interleave=a.interleave, turn_slice=a.turn_slice,
                         bindir=[a.bindir] if a.bindir else None, args=list(extra),
                         configs=[config(label, env={"LD_PRELOAD": lib,
                                                     "MG_SLOW_PERCENT": f"{pct:g}"})
                                  for label, pct in cfgs])
        t0 = time.time()
        rc = run(req)
        if rc == EXIT_INTERRUPTED:
            raise Interrupted("the trial's run was interrupted")
        walls.append(time.time() - t0)
        print(f"selftest: trial {t}/{a.trials}: {walls[-1]:.0f} s" + (f" (run exit {rc})" if rc else ""),
              file=sys.stderr, flush=True)
    return walls


def _truncate(rs, n):
    rs.launches = [la for la in rs.launches if la.round is not None and la.round <= n]
    return rs


def trial_verdicts(path, labels, rounds, a, threshold):
    """{label: {series key: row}} for base against each label, first `rounds` rounds."""
    sets = [_truncate(s, rounds) for s in load_config_sets(path, ["base"] + labels)]
    out = {}
    for new in sets[1:]:
        rows, _, _ = compare_sets(sets[0], new, threshold, a.alpha, a.error_control,
                                  covariate=a.covariate)
        out[new.label] = {r.key: r for r in rows}
    return out


def paired_spread(files, label):
    """Per series key: the median over trials of the standard deviation of the paired
    log ratios base -> label."""
    out = {}
    for f in files:
        base, new = load_config_sets(f, ["base", label])
        sn = new.series()
        for key, items in base.series().items():
            other = {la.round: r["median"] for la, r in sn.get(key, [])}
            d = [math.log(other[la.round]) - math.log(r["median"]) for la, r in items
                 if la.round in other]
            if len(d) >= 3:
                out.setdefault(key, []).append(statistics.stdev(d))
    return {k: median(v) for k, v in out.items()}


def rounds_estimate(sd, effect, threshold, alpha):
    """Rounds for 19 detections in 20 by the normal approximation: the test
    at alpha with 95% power, and the estimate beyond the threshold 95% of
    the time."""
    if not (math.isfinite(effect) and effect > -1 and math.isfinite(sd) and sd > 0):
        return None
    shift = math.log(1.0 + effect)
    margin = shift - math.log(1.0 + threshold)
    if margin <= 0:
        return None
    n_test = pairs_needed(sd, shift, alpha, power=0.95)
    n_band = math.ceil(1.05 * (1.645 * sd / margin) ** 2)
    return max(n_test, n_band)


def analyse(a, effects, threshold, files):
    labels = ["same"] + [f"slow{e:g}" for e in effects]
    full = [trial_verdicts(f, labels, a.rounds, a, threshold) for f in files]
    keys = sorted({k for t in full for k in t["same"]}, key=lambda k: (k.bench, k.size))
    res = {"trials": len(files), "rounds": a.rounds, "series": len(keys),
           "aa_trials_with_alarm": sum(1 for t in full if any(r.verdict in ALARMS
                                                              for r in t["same"].values())),
           "aa_series_alarms": sum(1 for t in full for r in t["same"].values()
                                   if r.verdict in ALARMS),
           "aa_same": _same_shares(a, files, threshold, full), "effects": {}}
    cuts = {n: [trial_verdicts(f, labels[1:], n, a, threshold) for f in files]
            for n in range(4, a.rounds)} if effects else {}
    for e in effects:
        lb = f"slow{e:g}"
        spread = paired_spread(files, lb)
        per = []
        for k in keys:
            rows = [t[lb][k] for t in full if k in t[lb]]
            ratios = [r.ratio for r in rows if not math.isnan(r.ratio)]
            effect = median(ratios) if ratios else float("nan")
            if not k.unit == "us" and effect > 0:
                effect = 1.0 / effect
            verdicts = [r.verdict for r in rows]
            need = None
            for n in list(range(4, a.rounds)) + [a.rounds]:
                got = full if n == a.rounds else cuts[n]
                hits = sum(1 for t in got if k in t[lb] and t[lb][k].verdict == "slower")
                if hits >= math.ceil(0.95 * len(files)):
                    need = n
                    break
            per.append({"benchmark": k.bench, "size_bytes": k.size, "unit": k.unit,
                        "measured_slowdown": effect - 1.0, "slower": verdicts.count("slower"),
                        "faster": verdicts.count("faster"), "same": verdicts.count("same"),
                        "slightly_slower": verdicts.count("slightly slower"),
                        "other": len(verdicts) - sum(verdicts.count(v) for v in
                                                     ("slower", "faster", "same", "slightly slower")),
                        "rounds_needed_19_of_20": need, "paired_sd": spread.get(k),
                        "rounds_estimated_19_of_20": rounds_estimate(
                            spread.get(k, 0.0), effect - 1.0, threshold, a.alpha)})
        res["effects"][lb] = per
    return res


def _same_shares(a, files, threshold, full):
    """A/A: the share of series decided `same` (within the threshold), the
    median over trials and its range, after SAME_ROUNDS rounds (a series
    walk's default) and after all of the trial's rounds."""
    def share(trials):
        xs = [sum(r.verdict == "same" for r in t["same"].values()) / len(t["same"])
              for t in trials if t["same"]]
        return {"median": median(xs), "min": min(xs), "max": max(xs)} if xs else None
    out = {str(a.rounds): share(full)}
    if a.rounds > SAME_ROUNDS:
        out[str(SAME_ROUNDS)] = share([trial_verdicts(f, ["same"], SAME_ROUNDS, a, threshold)
                                       for f in files])
    return out


def print_report(res, walls):
    print(f"selftest: {res['trials']} trials of {res['rounds']} rounds, {res['series']} series each")
    if walls:
        ncfg = 2 + len(res["effects"])
        print(f"wall time per trial: median {median(walls):.0f} s ({ncfg} configurations x "
              f"{res['rounds']} rounds); for two configurations "
              f"~{median(walls) * 2 / ncfg:.0f} s")
    print(f"A/A (base vs same): {res['aa_trials_with_alarm']} of {res['trials']} trials with any "
          f"series faster or slower, slightly or not ({res['aa_series_alarms']} of "
          f"{res['trials'] * res['series']} series)")
    for n, sh in sorted(res["aa_same"].items(), key=lambda x: int(x[0])):
        if sh:
            print(f"A/A decided the same within the threshold after {n} rounds: median "
                  f"{100 * sh['median']:.0f}% of the series (trials {100 * sh['min']:.0f}-"
                  f"{100 * sh['max']:.0f}%)")
    for lb, per in res["effects"].items():
        print(f"\nA/B base vs {lb}: per series, verdicts over {res['trials']} trials")
        print(f"{'benchmark':10} {'size':>5} {'measured':>9} {'slower':>6} {'faster':>6} "
              f"{'same':>5} {'slight':>6} {'other':>5} {'paired sd':>9}  rounds for 19/20: seen, estimated")
        for p in per:
            need = p["rounds_needed_19_of_20"]
            print(f"{p['benchmark']:10} {size_label(p['size_bytes']):>5} "
                  f"{p['measured_slowdown'] * 100:8.1f}% {p['slower']:6d} {p['faster']:6d} "
                  f"{p['same']:5d} {p['slightly_slower']:6d} {p['other']:5d} {(p['paired_sd'] or 0) * 100:8.1f}%  "
                  + (str(need) if need else f"> {res['rounds']}") + ", "
                  + str(p["rounds_estimated_19_of_20"] or "-"))


def cmd_selftest(a):
    from ..verdict.compare import parse_threshold
    threshold = parse_threshold(a.threshold)
    try:
        effects = [float(x) for x in a.effects.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--effects {a.effects!r}: give percentages such as 10,3") from None
    if not all(0 < e <= 1000 for e in effects) or len(set(effects)) != len(effects):
        raise UsageError(f"--effects {a.effects!r}: distinct slowdowns in (0, 1000] percent, "
                         "such as 10,3")
    if not 1 <= a.trials <= 1000 or not 4 <= a.rounds <= 10000:
        raise UsageError("selftest needs 1 <= --trials <= 1000 and 4 <= --rounds <= 10000")
    if not 1e-3 <= a.turn_slice <= 60:
        raise UsageError("--turn-slice must be a number of seconds in [0.001, 60]")
    if a.args and a.args[0] == "--":
        a.args = a.args[1:]
    walls = [] if a.analyse else run_trials(a, effects)
    files = sorted(glob.glob(os.path.join(a.output, "trial-*.jsonl")))
    if not files:
        raise UsageError(f"no trials in {a.output}")
    res = analyse(a, effects, threshold, files)
    res["wall_s_per_trial"] = median(walls) if walls else None
    with open(os.path.join(a.output, "selftest.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1)
    print_report(res, walls)
    return EXIT_OK if res["aa_trials_with_alarm"] <= max(1, res["trials"] // 20) else EXIT_FAIL
