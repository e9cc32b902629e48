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

from ..core.common import (EXIT_OK, UsageError, check_output_path, open_input, terminal_text,
                           version, warn, write_atomic)
from .importer import iter_imb, iter_osu

PARSERS = {"osu": iter_osu, "imb": iter_imb}
# a row's own fields that are not further figures
_ROW_KEYS = ("size", "figure", "unit", "validation")


def _digest(path):
    """The file's SHA-256, read in pieces, its text checked to be UTF-8 on
    the way (UsageError naming the byte where it is not)."""
    import codecs
    sha, dec, at = hashlib.sha256(), codecs.getincrementaldecoder("utf-8")(), 0
    with open_input(path, "rb") as f:
        while (chunk := f.read(1 << 20)):
            sha.update(chunk)
            try:
                dec.decode(chunk)
            except UnicodeDecodeError as e:
                raise UsageError(f"{path}: not UTF-8 text ({e.reason} at byte "
                                 f"{at + e.start})") from None
            at += len(chunk)
    try:
        dec.decode(b"", final=True)
    except UnicodeDecodeError as e:
        raise UsageError(f"{path}: not UTF-8 text ({e.reason} at the end)") from None
    return sha.hexdigest()


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
        "mpi_library": a.mpi_library or t.library or f"unknown (imported from {t.suite})",
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


def _check(a):
    if a.mpi_library is not None and (not a.mpi_library.strip() or not a.mpi_library.isprintable()
                                      or len(a.mpi_library) > 200):
        raise UsageError(f"--mpi-library {a.mpi_library!r}: at most 200 printable characters")
    for opt, v, least in (("--ranks", a.ranks, 1), ("--nodes", a.nodes, 1)):
        if v is not None and v < least:
            raise UsageError(f"{opt} {v}: give {least} or more")
    if a.output:
        check_output_path(a.output, a.files)


def import_file(a, path, out):
    """One file's tables as records on out, table by table (the file is read
    line by line, never whole): its summary line."""
    sha = _digest(path)
    names, n = set(), 0
    foreign = [] if getattr(a, "end_at_foreign_line", False) else None
    with open_input(path, encoding="utf-8", newline="") as f:
        try:
            tables = iter_osu(f, foreign) if a.suite == "osu" else PARSERS[a.suite](f)
            for i, t in enumerate(tables):
                run = run_record(t, path, sha, i, a)
                out.write(json.dumps(run, sort_keys=True) + "\n")
                out.writelines(json.dumps(r, sort_keys=True) + "\n"
                               for r in result_records(t, run["launch_id"]))
                names.add(t.benchmark)
                n += 1
        except ValueError as e:
            hint = (" (--end-at-foreign-line ends a table at a line that is not a row, with a "
                    "warning)" if a.suite == "osu" and foreign is None else "")
            raise UsageError(f"{path}: {e}; nothing written{hint}") from None
    for w in foreign or []:
        warn(f"{path}: {w}")
    if not n:
        raise UsageError(f"{path}: no {a.suite.upper()} table with rows found; nothing written")
    return f"{path}: {n} table{'s' if n != 1 else ''} ({', '.join(sorted(names))})"


def cmd_import(a):
    """Every file into one temporary file, then -o (renamed into place) or
    standard output: a file that does not parse leaves nothing written."""
    import shutil
    import tempfile
    _check(a)
    counts = []

    def write_all(out):
        counts.extend(import_file(a, p, out) for p in a.files)
    if a.output:
        def w(tmp):
            with open(tmp, "w", encoding="utf-8") as out:
                write_all(out)
        write_atomic(a.output, w)
    else:
        with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
            write_all(out)
            out.seek(0)
            shutil.copyfileobj(out, sys.stdout)
    if not a.quiet:
        for c in counts:
            print(f"mpigauge import: {terminal_text(c)}", file=sys.stderr)
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
    c.add_argument("--end-at-foreign-line", action="store_true",
                   help="osu: a line inside a table that is not one of its rows (a site log's "
                   "date, a launcher's message) ends the table there, with a warning, "
                   "instead of refusing the file")
    c.add_argument("-q", "--quiet", action="store_true", help="no summary on standard error")
    c.set_defaults(func=cmd_import)
