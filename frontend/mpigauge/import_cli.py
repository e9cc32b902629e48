# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge import osu|imb FILE...`: the OSU Micro-Benchmarks' and the
Intel MPI Benchmarks' text outputs as mpigauge results (doc/import.md), so
that `compare`, `history` and the dashboard work on the baselines a site
already keeps. Each table of each file becomes one launch (a run record
marked "imported", with the file's SHA-256 and what it printed of its
options) and a result per row; a file that does not parse is named with
its line and nothing is written."""
import hashlib
import json
import os
import sys

from .common import EXIT_OK, UsageError, open_input, version, write_text_atomic, check_output_path
from .importer import parse_imb, parse_osu

PARSERS = {"osu": parse_osu, "imb": parse_imb}
# a row's own fields that are not further figures
_ROW_KEYS = ("size", "figure", "unit", "validation")


def _read(path):
    with open_input(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8"), hashlib.sha256(data).hexdigest()
    except UnicodeDecodeError as e:
        raise UsageError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None


def _variant(t):
    """OSU's element type when it is not MPI_CHAR (-T): a variant of the
    benchmark, as mpigauge's own -T rows are."""
    dt = t.options.get("datatype")
    return f"datatype={dt}" if dt and dt != "MPI_CHAR" else ""


def run_record(t, path, sha, index, a):
    """The run record of table t (the index-th of its file)."""
    nranks = t.nranks if t.nranks is not None else a.ranks
    return {
        "type": "run", "schema": 1, "benchmark": t.benchmark,
        "description": f"imported from {t.suite} {t.version} ({t.program}): {t.statistic} "
                       "per size, no samples",
        "family": "imported", "mpigauge_version": version(),
        "mpi_library": a.mpi_library or f"unknown (imported from {t.suite})",
        "nranks": nranks, "nnodes": a.nodes,
        "launch_id": f"import-{sha[:16]}-{index}",
        "options": {"benchmark": {}, "sizes_bytes": sorted({r["size"] for r in t.rows})},
        "imported": {"suite": t.suite, "program": t.program, "version": t.version,
                     "file": os.path.abspath(path), "sha256": sha, "line": t.line,
                     "statistic": t.statistic, "printed": t.options},
    }


def result_records(t, launch_id):
    """A result per row (IMB's Mbytes/sec a second one, in MB/s)."""
    out = []
    for r in t.rows:
        base = {"type": "result", "benchmark": t.benchmark, "size_bytes": r["size"],
                "variant": _variant(t), "statistic": t.statistic, "imported": True,
                "launch_id": launch_id}
        rec = dict(base, unit=r["unit"], median=r["figure"])
        if "validation" in r:
            rec["validation"] = r["validation"]
        rec.update({k: v for k, v in r.items() if k not in _ROW_KEYS})
        out.append(rec)
        if r.get("mbytes_per_s"):
            out.append(dict(base, unit="MB/s", median=r["mbytes_per_s"]))
    return out


def cmd_import(a):
    parse = PARSERS[a.suite]
    for opt, v, least in (("--ranks", a.ranks, 1), ("--nodes", a.nodes, 1)):
        if v is not None and v < least:
            raise UsageError(f"{opt} {v}: give {least} or more")
    if a.output:
        check_output_path(a.output, a.files)
    lines, counts = [], []
    for path in a.files:
        text, sha = _read(path)
        try:
            tables = parse(text)
        except ValueError as e:
            raise UsageError(f"{path}: {e}; nothing written") from None
        if not tables:
            raise UsageError(f"{path}: no {a.suite.upper()} table with rows found; nothing "
                             "written")
        for i, t in enumerate(tables):
            run = run_record(t, path, sha, i, a)
            lines.append(json.dumps(run, sort_keys=True))
            lines += [json.dumps(r, sort_keys=True) for r in result_records(t, run["launch_id"])]
        counts.append(f"{path}: {len(tables)} table{'s' if len(tables) != 1 else ''} "
                      f"({', '.join(sorted({t.benchmark for t in tables}))})")
    text = "\n".join(lines) + "\n"
    if a.output:
        write_text_atomic(a.output, text)
    else:
        sys.stdout.write(text)
    if not a.quiet:
        for c in counts:
            print(f"mpigauge import: {c}", file=sys.stderr)
    return EXIT_OK


def add_parser(sub):
    c = sub.add_parser(
        "import", help="OSU or IMB text outputs as results, for compare and history",
        description="The text output of the OSU Micro-Benchmarks (osu) or of the Intel MPI "
        "Benchmarks (imb) as mpigauge results: every table of every FILE one launch, every row "
        "a result with OSU's or IMB's own figure (OSU's mean, IMB's t_avg or t, and "
        "Mbytes/sec) and no samples. Several files of the same benchmark on a side are "
        "several launches, which compare tests against each other; one file a side gives a "
        "ratio only (doc/import.md).")
    c.add_argument("suite", choices=sorted(PARSERS), help="whose output the files are")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("-o", "--output", metavar="FILE",
                   help="write the results here (JSON Lines; default standard output)")
    c.add_argument("--mpi-library", metavar="TEXT",
                   help="the MPI library the outputs were measured with (OSU and IMB do not "
                        "print it), e.g. 'Open MPI 4.1.4'")
    c.add_argument("--ranks", type=int, metavar="N",
                   help="the process count, where the output does not say it (OSU's tables)")
    c.add_argument("--nodes", type=int, metavar="N", help="the node count, if known")
    c.add_argument("-q", "--quiet", action="store_true", help="no summary on standard error")
    c.set_defaults(func=cmd_import)
