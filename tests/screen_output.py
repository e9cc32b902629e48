# SPDX-License-Identifier: BSD-3-Clause
"""mpigauge_screen's outputs as tests/check_output.py checks them (kinds
screen-table and screen-json of tests/mpi_cases.txt; doc/screen.md), and
the checks' own failure (Bad, need, unique_keys), which check_output.py
uses too."""
import json


class Bad(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Bad(msg)


def unique_keys(pairs):
    """A JSON object whose keys are all distinct (a run-wide feature's member
    must never shadow one of the record's own: json.loads keeps the last)."""
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise Bad(f"a JSON object repeats {', '.join(dup)}")
    return dict(pairs)


def check_json(text, where):
    """mpigauge_screen --format json: the run record, a pair record per metric
    and pair, a verdict per metric, the summary last, consistent."""
    recs = [json.loads(line, object_pairs_hook=unique_keys) for line in text.splitlines()]
    need(recs and recs[0]["type"] == "screen", f"{where}: the first record is not 'screen'")
    run, summ = recs[0], recs[-1]
    need(summ["type"] == "screen_summary", f"{where}: the last record is not 'screen_summary'")
    n = run["nunits"]
    need(len(run["units"]) == n >= 2, f"{where}: units {run['units']} for nunits {n}")
    pairs = [r for r in recs if r["type"] == "screen_pair"]
    need(len(pairs) == len(run["metrics"]) * n * (n - 1) // 2, f"{where}: {len(pairs)} pairs")
    for p in pairs:
        need(0 <= p["a"] < p["b"] < n and len(p["values"]) == run["reps"],
             f"{where}: pair {p['a']}-{p['b']} with {len(p['values'])} values")
        need(p["median"] is None or p["median"] > 0, f"{where}: median {p['median']}")
    verdicts = [r for r in recs if r["type"] == "screen_verdict"]
    need(sorted(v["metric"] for v in verdicts) == sorted(run["metrics"]), f"{where}: verdicts")
    for v in verdicts:  # a floor as given (finite, above 0) or none
        need(v["expect"] is None or 0 < v["expect"] < 1e300, f"{where}: expect {v['expect']}")
    found = any(v["outliers"] or v["below_expect"] for v in verdicts)
    need(summ["found"] == found, f"{where}: summary found {summ['found']}, verdicts {found}")
    want = 3 if found else 0 if summ["conclusive"] else 4
    need(summ["exit_code"] == want, f"{where}: exit_code {summ['exit_code']}, not {want}")
    need(1 <= run["reps"] <= run["reps_planned"], f"{where}: reps {run['reps']}")


def check_table(text):
    """mpigauge_screen's table: within 80 columns, a matrix per metric, the
    verdict."""
    lines = text.splitlines()
    need(lines and lines[0].startswith("mpigauge_screen: "), "no mpigauge_screen heading")
    wide = [x for x in lines if len(x) > 80]
    need(not wide, f"a line wider than 80 columns: {wide[:1]}")
    need("Verdict" in lines, "no Verdict section")
    need(any(x.startswith("reference ") for x in lines), "no reference line")
