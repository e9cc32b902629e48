# SPDX-License-Identifier: BSD-3-Clause
"""Shared helpers of the front-end tests: import the package
frontend/mpigauge/ and make synthetic run and result records."""
import importlib
import json
import os
import sys
import types

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
FRONTEND_DIR = os.path.join(TOP, "frontend")
FRONTEND = os.path.join(FRONTEND_DIR, "mpigauge.py")
DATA = os.path.join(HERE, "data")
GOLDEN = os.path.join(HERE, "golden")
MODULES = ("common", "stats", "regimes", "suite", "configs", "programs", "launcher", "outcome", "launch",
           "mpilib", "cvars", "cvars_cli", "samples", "ranks", "results", "compare", "options", "compare_cli", "run_cli",
           "render", "verdicts", "runner", "resultsfile", "sequential", "steps", "best", "plot", "report", "selftest", "overview", "history",
           "cli")

_ns = None


def qualified(name):
    """A module's importable name from its file name: mpigauge.PACKAGE.NAME
    (its package found in the source tree), mpigauge.cli for the root's."""
    root = os.path.join(FRONTEND_DIR, "mpigauge")
    for pkg in sorted(os.listdir(root)):
        if os.path.isfile(os.path.join(root, pkg, name + ".py")):
            return f"mpigauge.{pkg}.{name}"
    return "mpigauge." + name


def load_frontend():
    """Every public name of the package's modules in one namespace (mg.median,
    mg.verdict, mg.main, ...), and each module as mg.<module>."""
    global _ns
    if _ns is not None:
        return _ns
    if FRONTEND_DIR not in sys.path:
        sys.path.insert(0, FRONTEND_DIR)
    ns = types.SimpleNamespace()
    for name in MODULES:
        mod = importlib.import_module(qualified(name))
        setattr(ns, name, mod)
        for k, v in vars(mod).items():
            if not k.startswith("__") and not isinstance(v, types.ModuleType):
                setattr(ns, k, v)
    _ns = ns
    return ns


def run_record(benchmark, library="Open MPI v4.1.4, package: Debian OpenMPI", nranks=2,
               hosts=("node1", "node1"), bindings=("0", "1"), sizes=(8, 1024, 65536),
               launch_id=None, version="0.1.0", window=None, family=None):
    bench_opts = {"window": window} if window is not None else {}
    r = {"type": "run", "schema": 1, "benchmark": benchmark, "description": "synthetic",
         "mpigauge_version": version, "mpi_library": library, "mpi_library_version": library,
         "mpi_version": "3.1", "nranks": nranks, "nnodes": len(set(hosts)), "hosts": list(hosts),
         "bindings": list(bindings), "timer": "MPI_Wtime", "timer_resolution_s": 1e-9,
         "timer_overhead_s": 3e-8, "date_utc": "2026-11-22T09:00:00Z",
         "command_line": ["mpigauge_" + benchmark], "env": {},
         "options": {"sizes_bytes": list(sizes), "iterations": 0, "warmup": -1,
                     "precision": 0.01, "time_budget_s": 1, "min_samples": 10,
                     "max_samples": 10000, "validate": False, "max_memory_bytes": 0,
                     "format": "json", "time_mode": "root", "benchmark": bench_opts}}
    if launch_id:
        r["launch_id"] = launch_id
    if family:
        r["family"] = family
    return r


def result_record(benchmark, size, unit, med, spread=0.01, launch_id=None, **extra):
    r = {"type": "result", "benchmark": benchmark, "size_bytes": size, "unit": unit,
         "median": med, "mean": med, "min": med * (1 - 2 * spread), "max": med * (1 + 2 * spread),
         "stddev": med * spread, "p50": med, "p90": med * (1 + spread), "p99": med * (1 + 2 * spread),
         "ci95_low": med * (1 - spread), "ci95_high": med * (1 + spread), "samples": 100,
         "iterations": 1000, "stop": "precision"}
    if launch_id:
        r["launch_id"] = launch_id
    r.update(extra)
    return r


def read(path):
    """A file's whole text."""
    with open(path, encoding="utf-8") as f:
        return f.read()


def write_jsonl(path, records):
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


# Per-launch multipliers: deterministic "noise" of a few tenths of a percent.
JITTER = (1.000, 1.004, 0.997, 1.002, 0.998)


def synthetic_set(library, factors, launches=5, benchmarks=None):
    """Records of `launches` launches; factors[(benchmark, size)] scales the
    base value of that benchmark and size."""
    base = {("latency", "us"): {8: 0.20, 1024: 0.35, 65536: 5.0},
            ("bw", "MB/s"): {8: 60.0, 1024: 5000.0, 65536: 12000.0}}
    recs = []
    for i in range(launches):
        j = JITTER[i % len(JITTER)]
        for (bench, unit), sizes in base.items():
            if benchmarks and bench not in benchmarks:
                continue
            lid = f"S-{i:04d}-{bench}"
            recs.append(run_record(bench, library, launch_id=lid,
                                   window=64 if bench == "bw" else None))
            for size, v in sizes.items():
                recs.append(result_record(bench, size, unit,
                                          round(v * factors.get((bench, size), 1.0) * j, 6),
                                          launch_id=lid))
    return recs


def interleaved_records(values, sizes=(8, 1024), bench="latency", unit="us", probes=None):
    """An interleaved run's records: values[label] is a list over rounds of
    the figure of that configuration in that round (the same figure at every
    size, times the size index + 1). probes[(label, round)]: the sentinel
    probe latency of that launch (default 0.1 us)."""
    labels = list(values)
    rounds = len(values[labels[0]])
    recs = [{"type": "session", "session_id": "S", "seed": 1,
             "configs": [{"label": lb} for lb in labels]}]
    seq = 0
    for r in range(1, rounds + 1):
        for lb in labels:
            seq += 1
            lid = f"S-{seq:04d}"
            recs.append({"type": "launch", "launch_id": lid, "session_id": "S", "benchmark": bench,
                         "config": lb, "round": r, "source": "suite:1", "status": "ok"})
            recs.append(dict(run_record(bench, launch_id=lid, sizes=sizes), config=lb, round=r))
            p = (probes or {}).get((lb, r), 0.1)
            node = {"host": "n1", "load1": 0.1, "ctxt": 1000, "steal_jiffies": 0}
            for phase in ("before", "after"):
                recs.append({"type": "sentinel", "phase": phase, "launch_id": lid,
                             "probe_latency_us": p, "compute_rate_min": 300.0, "nodes": [node]})
            for k, s in enumerate(sizes):
                recs.append(result_record(bench, s, unit, round(values[lb][r - 1] * (k + 1), 6),
                                          launch_id=lid))
    return recs


def cli(*argv):
    """mg.main(argv) with its standard output and error captured: (rc, out, err)."""
    import io
    from contextlib import redirect_stderr, redirect_stdout
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = load_frontend().main(list(argv))
    return rc, out.getvalue(), err.getvalue()
