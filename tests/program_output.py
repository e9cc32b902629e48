# SPDX-License-Identifier: BSD-3-Clause
"""Checks of single programs' JSON Lines output beyond its form (used by
check_output.py): mpigauge_footprint's stages, and a collective's figures
under --arrival."""
import json

from screen_output import need


def check_footprint(text):
    """mpigauge_footprint: the six stages in order, each the heaviest
    rank's PSS in MiB, named with its host; the other ranks, the sum and
    RSS consistent with it; MPI_Init adds memory."""
    run = json.loads(text.splitlines()[0])
    res = [json.loads(l) for l in text.splitlines() if '"type":"result"' in l]
    stages = ["before_init", "init", "ring", "peers", "collective", "window"]
    need([r.get("variant") for r in res] == ["stage=" + s for s in stages],
         f"footprint: stages {[r.get('variant') for r in res]}")
    n = run["nranks"]
    for r in res:
        x, v, where = r["extra"], r["median"], f"footprint {r['variant']}"
        need(r["unit"] == "MiB" and v > 0, f"{where}: {r['unit']} {v}")
        h = r["heaviest_rank"]
        need(0 <= h < n and r["heaviest_host"] == run["hosts"][h] and r["heaviest_rank_value"] == v
             and x["heaviest_rank"] == h, f"{where}: heaviest {h} {r['heaviest_rank_value']} {v}")
        need(x["pss_min_mib"] <= x["pss_mean_mib"] <= v * (1 + 1e-9)
             and abs(x["pss_sum_mib"] - n * x["pss_mean_mib"]) <= 1e-6 * x["pss_sum_mib"]
             and x["rss_max_mib"] >= v, f"{where}: extras {x}")
        need((x["added_pss_mean_mib"] is None) == (r["variant"] == "stage=before_init"),
             f"{where}: added {x['added_pss_mean_mib']}")
    need(res[1]["extra"]["pss_mean_mib"] > res[0]["extra"]["pss_mean_mib"],
         "footprint: MPI_Init added no memory")
    need(run.get("footprint", {}).get("source") == "/proc/self/smaps_rollup",
         f"footprint: run record {run.get('footprint')}")


def check_arrival(text):
    """--arrival one-late:US: the run record keeps the pattern; every
    result's slowest rank (an early one, which waited in the call for the
    late one) spent at least most of the delay in it, and the figure, from
    the last rank's arrival, is below that rank's time."""
    run = json.loads(text.splitlines()[0])
    opts = run.get("options") or {}
    spec = opts.get("arrival") or (opts.get("benchmark") or {}).get("arrival")
    need(isinstance(spec, str) and spec.startswith("one-late:"), f"arrival option {opts}")
    delay = float(spec.split(":")[1].split("@")[0])
    res = [json.loads(x) for x in text.splitlines() if '"type":"result"' in x]
    need(res, "no results")
    for r in res:
        x, where = r["extra"], f"result {r['size_bytes']}"
        need(x["rank_max_us"] >= 0.8 * delay, f"{where}: slowest rank {x['rank_max_us']} us, "
             f"delay {delay} us")
        need(0 < r["median"] < x["rank_max_us"], f"{where}: figure {r['median']} us, slowest "
             f"rank {x['rank_max_us']} us")
