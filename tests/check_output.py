#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check that an mpigauge program's output is well formed.

usage: check_output.py KIND STDOUT STDERR [JSONL_FILE]
KIND: table | csv | json | usage | none
Checks structure only (never performance numbers). Exit 0 if well formed,
1 with a message otherwise.
"""
import csv
import json
import math
import re
import sys

import program_output
import screen_output
from screen_output import Bad, need, unique_keys

FEW_SAMPLES = 10  # util/mg_report.h MG_FEW_SAMPLES

RESULT_FIELDS = ["benchmark", "size_bytes", "unit", "median", "mean", "min", "max",
                 "stddev", "p50", "p90", "p99", "ci95_low", "ci95_high", "samples",
                 "iterations"]
RUN_FIELDS = ["benchmark", "mpigauge_version", "mpi_library", "mpi_library_version",
              "mpi_version", "nranks", "hosts", "bindings", "timer_resolution_s",
              "timer_overhead_s", "date_utc", "command_line", "env", "options"]
CSV_HEADER = ("benchmark,size_bytes,unit,median,mean,min,max,stddev,p50,p90,p99,"
              "ci95_low,ci95_high,samples,iterations,stop,variant,extra")


def check_stats(rec, where):
    vals = {k: rec[k] for k in ("median", "mean", "min", "max", "p50", "p90", "p99",
                                "ci95_low", "ci95_high", "stddev")}
    for k, v in vals.items():
        need(isinstance(v, (int, float)) and math.isfinite(v) and v >= 0,
             f"{where}: {k} is not a finite non-negative number: {v!r}")
    eps = 1e-9 * max(1.0, abs(vals["max"]))
    need(vals["min"] - eps <= vals["p50"] <= vals["p90"] + eps <= vals["p99"] + 2 * eps
         and vals["p99"] <= vals["max"] + eps, f"{where}: percentiles out of order")
    need(vals["ci95_low"] - eps <= vals["median"] <= vals["ci95_high"] + eps,
         f"{where}: median outside its CI")
    need(abs(vals["median"] - vals["p50"]) <= eps, f"{where}: median != p50")


def check_run(run, results, where):
    for f in RUN_FIELDS:
        need(f in run, f"{where}: run record lacks {f}")
    need(len(run["hosts"]) == run["nranks"] == len(run["bindings"]),
         f"{where}: hosts/bindings do not match nranks")
    links = run.get("links")  # the links fact (mpi/record/mg_facts.c): one per rank
    need(isinstance(links, list) and len(links) == run["nranks"]
         and all(x is None or (set(x) == {"device", "gbps"} and x["device"]
                               and x["gbps"] > 0) for x in links), f"{where}: links {links!r}")
    cv = run.get("cvars")
    need(isinstance(cv, dict) and cv.get("state") in ("read", "absent", "off"),
         f"{where}: cvars {cv!r}")
    need(cv["state"] != "read" or not cv["read"] or run.get("_cvars_seen"),
         f"{where}: {cv.get('read')} cvars read but no cvars record after the run record")
    alg = run.get("algorithm")
    if run.get("family") == "collective":  # what the library says of the selection, or unknown
        need(isinstance(alg, dict) and isinstance(alg.get("served_by"), str)
             and isinstance(alg.get("selection"), list)
             and all(len(x) == 2 for x in alg["selection"]), f"{where}: algorithm {alg!r}")
    else:
        need(alg is None, f"{where}: algorithm in a {run.get('family')} run record")
    need(results, f"{where}: no result records after the run record")
    for i, r in enumerate(results, 1):
        for f in RESULT_FIELDS:
            need(f in r, f"{where}: result {i} lacks {f}")
        need(r["unit"] in ("us", "MB/s", "MiB"), f"{where}: result {i}: unit {r['unit']!r}")
        need(r["benchmark"] == run["benchmark"], f"{where}: result {i}: benchmark differs")
        need(r["samples"] >= 1 and r["iterations"] >= r["samples"],
             f"{where}: result {i}: samples/iterations")
        need(r.get("few_samples", False) == (r["samples"] < FEW_SAMPLES),
             f"{where}: result {i}: few_samples must be true exactly below {FEW_SAMPLES} samples")
        check_stats(r, f"{where} result {i}")
        check_bus_bw(r, run, f"{where}: result {i}")
        need(r.get("algorithm") == (alg or {}).get("served_by"),
             f"{where}: result {i}: algorithm {r.get('algorithm')!r}, the run record's "
             f"{(alg or {}).get('served_by')!r}")
        need(("median_gbit_s" in r) == (r["unit"] == "MB/s")
             and abs(r.get("median_gbit_s", 0) - r["median"] * 8e-3 * (r["unit"] == "MB/s"))
             <= 1e-6 * abs(r["median"]), f"{where}: result {i}: median_gbit_s")
        if "percentiles" in r:  # -z: ascending, within [min, max]
            v = [r["percentiles"][k] for k in sorted(r["percentiles"], key=lambda k: float(k[1:]))]
            need(v and v == sorted(v) and r["min"] <= v[0] and v[-1] <= r["max"],
                 f"{where}: result {i}: percentiles {r['percentiles']!r}")
        if "validation" in r:
            need(r["validation"] == "passed", f"{where}: result {i}: validation {r['validation']}")
        if "slowest_rank" in r:  # benchmarks of more than a pair name their slowest rank
            s, f = r["slowest_rank"], r["fastest_rank"]
            need(0 <= s < run["nranks"] and 0 <= f < run["nranks"]
                 and r["slowest_host"] == run["hosts"][s] and r["fastest_host"] == run["hosts"][f]
                 and r["slowest_rank_us"] >= r["fastest_rank_us"] > 0,
                 f"{where}: result {i}: slowest/fastest rank {s} {f}")
        for name, pv in (r.get("pvars") or {}).items():  # --pvars
            need(isinstance(pv, dict) and set(pv) == {"class", "sum", "max", "max_rank"}
                 and 0 <= pv["max_rank"] < run["nranks"] and pv["max"] <= pv["sum"] + 1e-9
                 or pv["max"] < 0, f"{where}: result {i}: pvar {name}: {pv}")
        check_host(r, run, f"{where}: result {i}")
        if "rank_median_us" in r:  # --per-rank
            m = r["rank_median_us"]
            need(len(m) == run["nranks"] and max(m) == r["slowest_rank_us"]
                 and min(x for x in m if x > 0) == r["fastest_rank_us"],
                 f"{where}: result {i}: rank_median_us {m}")
    # sizes in sweep order; per size the variants in list order (a search may
    # stop early, so a prefix of the list, never empty)
    variants = run["options"].get("variants", [None])
    got = [(r["size_bytes"], r.get("variant")) for r in results]
    i = 0
    for size in run["options"]["sizes_bytes"]:
        k = 0
        while i < len(got) and got[i][0] == size and k < len(variants):
            need(got[i][1] == variants[k],
                 f"{where}: size {size}: variant {got[i][1]!r}, expected {variants[k]!r}")
            i, k = i + 1, k + 1
        need(k > 0, f"{where}: no result for size {size}")
    need(i == len(got), f"{where}: results beyond the sweep: {got[i:i + 3]}")
    check_ratio(results, where)
    check_groups(run, results, where)
    for p in run.get("pairs", []):
        a, b = p["ranks"]
        need(0 <= a < run["nranks"] and 0 <= b < run["nranks"] and a != b,
             f"{where}: bad pair {p['ranks']}")
        need(p["same_node"] == (run["node_of_rank"][a] == run["node_of_rank"][b]),
             f"{where}: pair {p['ranks']} same_node is wrong")


HOST_FIELDS = ("user_us_per_iter", "sys_us_per_iter", "vol_cs_per_iter", "invol_cs_per_iter",
               "minor_faults_per_iter", "major_faults_per_iter", "cpu_util",
               "migrations_per_iter", "instructions_per_iter", "cycles_per_iter",
               "cache_misses_per_iter", "busiest_rank")


HOST_UTIL_MAX = 1.3


def check_host(r, run, where):
    """The host-cost observer's object (mpi/observe/obs_hostcost.c): every field, each
    a number >= 0 or null; a row of timed samples names its busiest rank and
    spent some CPU on it (a process that runs does)."""
    h = r.get("host")
    need(isinstance(h, dict) and sorted(h) == sorted(HOST_FIELDS), f"{where}: host {h!r}")
    need(all(v is None or (isinstance(v, (int, float)) and v >= 0) for v in h.values()),
         f"{where}: host {h}")
    need(h["busiest_rank"] is None or 0 <= h["busiest_rank"] < run["nranks"],
         f"{where}: host busiest_rank {h['busiest_rank']}")
    # the CPU of the timed work never exceeds its wall time (a rank is one thread
    # here; bench/host_cost.py), within the readings' jitter, on rows of many
    # iterations; timed call by call (collectives), a reading brackets one call,
    # and calls of a few microseconds are the size of its jitter (1.45 seen at
    # 1.4 us with the machine busy): checked from 20 us a call
    util = h["cpu_util"]
    per_call = ((run.get("options") or {}).get("time_mode") == "call")
    small = (r.get("iterations") or 0) < 1000 or (per_call and (r.get("median") or 0) < 20)
    need(util is None or small or util <= HOST_UTIL_MAX,
         f"{where}: host cpu_util {util} above {HOST_UTIL_MAX} ({r.get('iterations')} "
         "iterations): CPU counted outside the timed work")


def check_jsonl(text, where):
    """A results file: one or more run records, each followed by its results."""
    lines = [l for l in text.splitlines() if l.strip()]
    need(lines, f"{where}: empty")
    need(text.endswith("\n"), f"{where}: last line is not complete")
    groups = []
    for i, line in enumerate(lines, 1):
        try:
            rec = json.loads(line, object_pairs_hook=unique_keys)
        except ValueError as e:
            raise Bad(f"{where}: line {i} is not JSON: {e}")
        if rec.get("type") == "run":
            groups.append((rec, []))
        elif rec.get("type") == "result":
            need(groups, f"{where}: line {i}: a result before any run record")
            groups[-1][1].append(rec)
        elif rec.get("type") == "sentinel":
            need(groups, f"{where}: line {i}: a sentinel before any run record")
            check_sentinel(rec, groups[-1], f"{where}: line {i}")
        elif rec.get("type") == "cvars":
            need(groups and not groups[-1][1], f"{where}: line {i}: cvars not right after a run")
            check_cvars(rec, groups[-1][0], f"{where}: line {i}")
            groups[-1][0]["_cvars_seen"] = True
        elif rec.get("type") == "summary":
            need(groups and groups[-1][1], f"{where}: line {i}: a summary before any result")
            need(rec.get("benchmark") == groups[-1][0].get("benchmark"),
                 f"{where}: line {i}: summary of another benchmark")
        else:
            raise Bad(f"{where}: line {i}: unknown record type {rec.get('type')!r}")
    for k, (run, results) in enumerate(groups, 1):
        check_run(run, results, f"{where} run {k}")
    return groups


def fnv1a64(text):
    h = 14695981039346656037
    for b in text.encode():
        h = ((h ^ b) * 1099511628211) % (1 << 64)
    return "%016x" % h


def check_cvars(rec, run, where):
    """The library's control variables: the set the run record names by its
    digest, in name order, each [name, value, type, scope, binding]."""
    summary = run.get("cvars") or {}
    need(summary.get("state") == "read", f"{where}: cvars record for a run that read none")
    need(rec.get("digest") == summary.get("digest"), f"{where}: digest is not the run's")
    need(rec.get("fields") == ["name", "value", "type", "scope", "binding"],
         f"{where}: fields {rec.get('fields')}")
    rows = rec.get("cvars")
    need(isinstance(rows, list) and len(rows) == summary.get("read"),
         f"{where}: {len(rows or [])} cvars, the run says {summary.get('read')}")
    need(all(isinstance(r, list) and len(r) == 5 and all(isinstance(x, str) for x in r)
             for r in rows), f"{where}: a cvar is not 5 strings")
    names = [r[0] for r in rows]
    need(names == sorted(names), f"{where}: cvars not in name order")
    text = "".join(f"{r[0]}={r[1]}\n" for r in rows)
    need(fnv1a64(text) == rec["digest"], f"{where}: digest {rec['digest']} is not the set's")


def check_sentinel(rec, group, where):
    """--sentinel: "before" ahead of the results, "after" behind them, each
    with a positive probe (2 ranks or more), a computation rate and the state
    of at least one node."""
    run, results = group
    phase = rec.get("phase")
    need(phase in ("before", "after"), f"{where}: sentinel phase {phase!r}")
    need((phase == "before") == (not results), f"{where}: sentinel {phase} in the wrong place")
    if run.get("nranks", 1) >= 2:
        need(isinstance(rec.get("probe_latency_us"), (int, float)) and rec["probe_latency_us"] > 0,
             f"{where}: probe latency {rec.get('probe_latency_us')!r}")
        need(isinstance(rec.get("probe_pair"), list) and rec["probe_pair"][0] == 0,
             f"{where}: probe pair {rec.get('probe_pair')!r}")
    need(rec.get("compute_rate_min", 0) > 0 and rec["compute_rate_max"] >= rec["compute_rate_min"],
         f"{where}: computation rates")
    nodes = rec.get("nodes") or []
    need(len(nodes) == run.get("nnodes", 1), f"{where}: {len(nodes)} node states")
    for nd in nodes:
        need(nd.get("host") and isinstance(nd.get("ctxt"), int) and nd.get("load1", -1) >= 0,
             f"{where}: node state {nd!r}")


def check_usage_json(out, err):
    """JSON mode: the usage error is also one record on stdout."""
    msgs = [l for l in err.splitlines() if "error:" in l]
    need(len(msgs) == 1, f"usage: expected exactly one error line, got {len(msgs)}: {err[:500]!r}")
    recs = [json.loads(l) for l in out.splitlines() if l.strip()]
    need(len(recs) == 1 and recs[0].get("type") == "error", f"usage-json: stdout {out[:300]!r}")
    e = recs[0]
    need(e.get("exit_code") == 2 and e.get("code") in ("usage", "ranks") and e.get("message")
         and e["message"] in msgs[0], f"usage-json: record {e!r}")
    if e["code"] == "ranks":
        need(all(isinstance(e.get(k), int) for k in ("ranks_min", "ranks_max", "ranks_got")),
             f"usage-json: rank counts {e!r}")


def is_number(c):
    try:
        float(c)
        return True
    except ValueError:
        return c == "-"


STAT_TITLES = {"P50", "Mean", "Min", "Max", "Stddev", "P90", "P99", "CI95-low", "CI95-high"}
PCTL_TITLE = re.compile(r"^P([0-9.]+)$")  # -z: P99.9


# nccl-tests' algbw and busbw from mpigauge's size (doc/collectives.md):
# collective -> (S / size as a function of P, bus factor)
BUS = {"allreduce": (lambda p: 1, lambda p: 2 * (p - 1) / p),
       "bcast": (lambda p: 1, lambda p: 1), "reduce": (lambda p: 1, lambda p: 1)}
BUS.update({k: (lambda p: p, lambda p: (p - 1) / p)
            for k in ("allgather", "alltoall", "gather", "scatter", "reduce_scatter_block")})


def check_bus_bw(r, run, where):
    """A blocking collective's alg_bw_GBs = S / t and bus_bw_GBs = factor x it."""
    ex = r.get("extra") or {}
    if r["benchmark"] not in BUS:
        need(ex.get("alg_bw_GBs") is None, f"{where}: alg_bw_GBs in a {r['benchmark']} row")
        return
    if str(r.get("variant", "")).startswith("ranks="):  # --ranks-sweep: not the run's ranks
        return
    s, f = BUS[r["benchmark"]]
    p = (run["options"].get("benchmark") or {}).get("multi") or run["nranks"]  # --multi: a group
    alg = r["size_bytes"] * s(p) / (r["median"] * 1e3)
    need(abs(ex["alg_bw_GBs"] - alg) <= 1e-6 * alg and
         abs(ex["bus_bw_GBs"] - alg * f(p)) <= 1e-6 * alg + 1e-12,
         f"{where}: alg_bw_GBs {ex.get('alg_bw_GBs')} bus_bw_GBs {ex.get('bus_bw_GBs')}, "
         f"expected {alg} and {alg * f(p)}")


def check_ratio(results, where):
    """Collectives' -D: ratio_to_plain is 1 for the first variant of a size
    and every other's median over it."""
    first = {}
    for i, r in enumerate(results, 1):
        ratio = (r.get("extra") or {}).get("ratio_to_plain")
        if ratio is None:
            continue
        ref = first.setdefault(r["size_bytes"], r["median"])
        want = r["median"] / ref if ref > 0 else 1.0
        need(abs(ratio - want) <= 1e-6 * want, f"{where}: result {i}: ratio_to_plain {ratio}, "
             f"expected {want}")


def check_groups(run, results, where):
    """Collectives' --multi P: the slowest group's median is the slowest
    rank's, in that group; the fastest group's no larger; the ranks after the
    last whole group, and those a --ranks-sweep count leaves out, were not
    timed (--per-rank)."""
    for i, r in enumerate(results, 1):  # --ranks-sweep: ranks n.. sit out variant ranks=n
        v = str(r.get("variant", ""))
        if v.startswith("ranks=") and "rank_median_us" in r:
            idle = r["rank_median_us"][int(v[6:]):]
            need(all(x == 0 for x in idle), f"{where}: result {i}: idle ranks timed: {idle}")
    p = (run["options"].get("benchmark") or {}).get("multi") or 0
    if not p:
        return
    groups = run["nranks"] // p
    for i, r in enumerate(results, 1):
        ex = r.get("extra") or {}
        need(ex.get("slowest_group") is not None and 0 <= ex["slowest_group"] < groups
             and ex["group_min_us"] <= ex["group_max_us"]
             and abs(ex["group_max_us"] - r["slowest_rank_us"]) <= 1e-6 * ex["group_max_us"]
             and r["slowest_rank"] // p == ex["slowest_group"],
             f"{where}: result {i}: groups {ex}, slowest rank {r.get('slowest_rank')}")
        idle = (r.get("rank_median_us") or [])[groups * p:]
        need(all(x == 0 for x in idle), f"{where}: result {i}: idle ranks timed: {idle}")


def check_imb(text):
    """--columns imb: '#bytes #repetitions' and the time or bandwidth columns,
    every row as many fields (a variant's value last)."""
    lines = text.splitlines()
    header = [l.split() for l in lines if l.lstrip().startswith("#bytes")]
    need(len(header) == 1 and header[0][:2] == ["#bytes", "#repetitions"],
         f"imb: header {header}")
    titles = header[0]
    need(titles[2:5] == ["t_min[usec]", "t_max[usec]", "t_avg[usec]"] or
         titles[2] in ("t[usec]", "Mbytes/sec"), f"imb: columns {titles}")
    data = [l.split() for l in lines if l.strip() and not l.lstrip().startswith("#")]
    need(data, "imb: no rows")
    for cols in data:
        need(len(cols) in (len(titles), len(titles) + 1), f"imb: row {cols}")
        int(cols[0]), int(cols[1])
        for c, t in zip(cols[2:], titles[2:]):
            need(is_number(c) or (t == "defects" and c in "01"), f"imb: {t} {c!r}")
        if titles[2] == "t_min[usec]":
            need(float(cols[2]) <= float(cols[4]) <= float(cols[3]), f"imb: min <= avg <= max {cols}")


def check_row(title, c, l):
    """One cell of a table row by its column's title."""
    if title in STAT_TITLES or PCTL_TITLE.match(title):
        float(c)
    elif title == "Samples":
        need(c.endswith("!") == (int(c.rstrip("!")) < FEW_SAMPLES),
             f"table: the sample count is marked '!' exactly below {FEW_SAMPLES}: {l!r}")
    elif title == "Iterations":
        int(c)
    elif title == "Validation":
        need(c in ("Pass", "Fail"), f"table: validation {c!r} is not Pass or Fail")
    elif title == "Gbit/s":
        float(c)
    elif title == "CI95":
        need(re.match(r"^(\+-[0-9]+(\.[0-9])?%|\+->99999%|-)$", c), f"table: CI95 cell {c!r}: {l!r}")
    elif title != "Stop":
        need(is_number(c), f"table: bad extra value {c!r}")


def check_table(text):
    lines = text.splitlines()
    header = [l for l in lines if l.startswith("# Size")]
    need(len(header) == 1, "table: expected one '# Size' header line")
    need(header[0][:10].rstrip() == "# Size", "table: '# Size' is not in OSU's 10-column field")
    data = [l for l in lines if l and not l.startswith("#")]
    need(data, "table: no data rows")
    # after OSU's two fields (size, the figure) every title is one word; a
    # variant column's values are the last word of a row beyond the titles
    titles = header[0][30:].split()
    notes = [l for l in lines if l.startswith("# ! size ")]
    marked = 0
    known = STAT_TITLES | {"Samples", "Iterations", "Stop", "Validation", "CI95"}
    for l in data:
        cols = l.split()
        need(len(cols) == 2 + len(titles),
             f"table: row has {len(cols)} columns, header {2 + len(titles)}: {l!r}")
        int(cols[0])
        float(cols[1])
        for k, (title, c) in enumerate(zip(titles, cols[2:])):
            if k == len(titles) - 1 and title not in known and not is_number(c):
                continue  # the variant's value
            check_row(title, c, l)
        pct = [(float(m.group(1)), float(c)) for t, c in zip(titles, cols[2:])
               for m in [PCTL_TITLE.match(t)] if m]
        need(pct == sorted(pct) and [v for _, v in pct] == sorted(v for _, v in pct),
             f"table: percentile columns out of order: {l!r}")
        if "Samples" in titles:
            marked += cols[2 + titles.index("Samples")].endswith("!")
        need(l[:10].strip() == cols[0], f"table: size not in OSU's first field: {l!r}")
        need(l[10:30].strip() == cols[1], f"table: headline not in OSU's second field: {l!r}")
    if "Samples" in titles:
        need(len(notes) == marked, "table: every '!' row needs its '# ! size' note")


def check_table80(text):
    """The default table a person reads: OSU's two fields, the CI and the
    sample count as the only other columns (a variant's after them), and
    every line within 80 columns, comments included."""
    check_table(text)
    header = next(l for l in text.splitlines() if l.startswith("# Size"))
    titles = header[30:].split()
    need(titles[:2] == ["CI95", "Samples"], f"table: default columns {titles}")
    need(len(titles) <= 3, f"table: more than the default columns: {titles}")
    for l in text.splitlines():
        need(len(l) <= 80, f"table: a line of {len(l)} columns: {l!r}")


def csv_percentiles(header):
    """The percentile fields of a CSV header: p50,p90,p99 or -z's choice."""
    m = re.match(r"^benchmark,size_bytes,unit,median,mean,min,max,stddev,((?:p[0-9.]+,)+)"
                 r"ci95_low,ci95_high,samples,iterations,stop,variant,extra(,validation)?$",
                 header)
    need(m, "csv: header differs")
    need(m.group(1) == "p50,p90,p99," or header.replace(m.group(1), "p50,p90,p99,", 1)
         in (CSV_HEADER, CSV_HEADER + ",validation"), "csv: header differs")
    return m.group(1).rstrip(",").split(",")


def check_csv(text):
    lines = text.splitlines()
    need(lines, "csv: empty")
    pct = csv_percentiles(lines[0])
    rows = list(csv.DictReader(lines))
    need(rows, "csv: no rows")
    for i, r in enumerate(rows, 2):
        rec = {k: r[k] for k in r}
        for k in ["median", "mean", "min", "max", "ci95_low", "ci95_high", "stddev"] + pct:
            rec[k] = float(rec[k])
        vals = [rec[k] for k in pct]
        need(vals == sorted(vals) and rec["min"] <= vals[0] and vals[-1] <= rec["max"],
             f"csv row {i}: percentiles out of order")
        if pct != ["p50", "p90", "p99"]:  # -z: the three are not in the CSV
            rec.update(p50=rec["median"], p90=vals[-1], p99=vals[-1])
        check_stats(rec, f"csv row {i}")
        int(r["size_bytes"]), int(r["samples"]), int(r["iterations"])
        if "validation" in r:
            need(r["validation"] == "Pass", f"csv row {i}: validation {r['validation']!r}")


def check_usage(out, err):
    need(out.strip() == "", f"usage: expected nothing on stdout, got {out[:200]!r}")
    msgs = [l for l in err.splitlines() if "error:" in l]
    need(len(msgs) == 1, f"usage: expected exactly one error line, got {len(msgs)}: {err[:500]!r}")


def check_pvars(text):
    """--pvars list: its count, the header, then one line per variable."""
    lines = text.splitlines()
    m = re.match(r"^# (\d+) performance variables \(MPI_T pvars\)$", lines[0] if lines else "")
    need(m, f"pvars: first line {lines[:1]}")
    need(lines[1].split()[:3] == ["#", "NAME", "CLASS"], f"pvars: header {lines[1]!r}")
    need(len(lines) == 2 + int(m.group(1)), f"pvars: {len(lines) - 2} lines, {m.group(1)} said")
    classes = {"state", "level", "size", "percentage", "highwatermark", "lowwatermark", "counter",
               "aggregate", "timer", "generic"}
    for l in lines[2:]:
        need(len(l.split()) >= 5 and l.split()[1] in classes, f"pvars: line {l!r}")


def check_depth_pvars(text):
    """mpigauge_matching: every depth is a row, and where the library counts
    its queues (Open MPI) the deep queue's length over ranks is the depth."""
    run = json.loads(text.splitlines()[0])
    queue = (run.get("options", {}).get("benchmark") or {}).get("queue", "posted")
    name = {"posted": "pml_ob1_posted_recvq_length",
            "unexpected": "pml_ob1_unexpected_msgq_length"}[queue]
    res = [json.loads(l) for l in text.splitlines() if '"type":"result"' in l]
    need(res and res[0]["variant"] == "depth=0", f"matching: depth 0 first: {[r.get('variant') for r in res]}")
    for r in res:
        d = int(r["variant"].split("=")[1])
        pv = (r.get("pvars") or {}).get(name)
        need(pv is None or pv["sum"] == d, f"matching: {name} {pv} at depth {d}")
        ex = r["extra"]["per_entry_ns"]
        need((ex is None) == (d == 0), f"matching: per_entry_ns {ex} at depth {d}")


def check_default_pvars(text, queues):
    """A point-to-point run's results: with queues, every result reads Open
    MPI's two matching queues (--pvars queues, the default); else none has
    pvars (--pvars none)."""
    res = [json.loads(l) for l in text.splitlines() if '"type":"result"' in l]
    need(res, "no results")
    want = {"pml_ob1_unexpected_msgq_length", "pml_ob1_posted_recvq_length"}
    for r in res:
        got = set(r.get("pvars") or {})
        need(got == want if queues else not got, f"result {r['size_bytes']}: pvars {sorted(got)}")


def check_library(text, alone):
    """--mpi-library: one record per rank that ran it, each of type mpi_library,
    naming the library, and saying whether the program runs alone (its launch is
    what it measures: MG_FACT_ALONE)."""
    recs = [json.loads(x) for x in text.splitlines() if x.strip()]
    need(recs and all(r.get("type") == "mpi_library" for r in recs), f"records {recs}")
    for r in recs:
        need(r.get("library"), f"no library named: {r}")
        need(r.get("runs_alone") is alone, f"runs_alone {r.get('runs_alone')!r}, want {alone}")


def main():
    kind, out_path, err_path = sys.argv[1:4]
    out = open(out_path, encoding="utf-8").read()
    err = open(err_path, encoding="utf-8", errors="replace").read()
    try:
        if kind == "table":
            check_table(out)
        elif kind == "csv":
            check_csv(out)
        elif kind == "table80":
            check_table80(out)
        elif kind == "json":
            check_jsonl(out, "stdout")
        elif kind == "usage":
            check_usage(out, err)
        elif kind == "usage-json":
            check_usage_json(out, err)
        elif kind == "pvars":
            check_pvars(out)
        elif kind == "imb":
            check_imb(out)
        elif kind == "json-depth":
            check_jsonl(out, "stdout")
            check_depth_pvars(out)
        elif kind == "json-footprint":
            check_jsonl(out, "stdout")
            program_output.check_footprint(out)
        elif kind in ("json-queues", "json-no-pvars"):
            check_jsonl(out, "stdout")
            check_default_pvars(out, kind == "json-queues")
        elif kind == "json-arrival":
            check_jsonl(out, "stdout")
            program_output.check_arrival(out)
        elif kind in ("library-alone", "library"):
            check_library(out, kind == "library-alone")
        elif kind == "screen-table":
            screen_output.check_table(out)
        elif kind == "screen-json":
            if out.strip():
                screen_output.check_json(out, "stdout")
        elif kind != "none":
            raise Bad(f"unknown check kind {kind}")
        if len(sys.argv) > 4:
            check = screen_output.check_json if kind.startswith("screen") else check_jsonl
            check(open(sys.argv[4], encoding="utf-8").read(), sys.argv[4])
    except (Bad, ValueError, KeyError, OSError) as e:
        print(f"check_output: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
