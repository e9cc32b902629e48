# SPDX-License-Identifier: BSD-3-Clause
"""mpiP's text report as a second source of profiles (`mpigauge profile
import mpip REPORT -o P`, doc/applications.md). What maps: the tasks and
their hosts (MPI Task Assignment), each task's AppTime (run_s), and per
task and call site the calls and their time (Callsite Time statistics:
Count x Mean) and sent bytes (Callsite Message Sent statistics: the site's
mean size, whose size class the calls are counted in). What does not: the
communicator of a call (mpiP names none: a collective is taken on all the
tasks), the datatype of a reduction, a receive's size (mpiP counts sent
bytes only: such calls are marked size_known false, and the prediction
says so), the sizes within a call site (only its mean, min and max)."""
import re

from ..core.common import UsageError, open_input
from .profile import aggregate, summary

_SECTION = re.compile(r"^@--- (.+?) -*$")


def _sections(lines):
    """{section title: [its lines]} of a report."""
    out, cur = {}, None
    for line in lines:
        m = _SECTION.match(line.rstrip())
        if m:
            cur = out.setdefault(m.group(1).split(" (")[0].split(":")[0].strip(), [])
            continue
        if cur is not None and line.strip() and not line.startswith("----"):
            cur.append(line.rstrip("\n"))
    return out


def _rows(lines, fields, path):
    """The rows of a table section as dicts (its first line the header);
    aggregate rows (rank *) left out."""
    rows = []
    for line in lines[1:]:
        words = line.split()
        if len(words) != len(fields):
            raise UsageError(f"{path}: an mpiP row that does not fit its columns: {line.strip()[:80]!r}")
        rows.append(dict(zip(fields, words)))
    return [r for r in rows if r.get("Rank", "0") != "*"]


def _num(text, path):
    try:
        v = float(text)
    except ValueError:
        raise UsageError(f"{path}: {text!r} is not a number in mpiP's report") from None
    if not v >= 0 or v == float("inf"):
        raise UsageError(f"{path}: {text!r} is not a count, size or time")
    return v


def _size_class(b):
    c = 1
    while c < b:
        c <<= 1
    return 0 if b <= 0 else c


def read_mpip(path):
    """(head fields, {rank: profile_rank record}) of an mpiP report."""
    with open_input(path, encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    if not any(line.startswith("@ mpiP") for line in lines[:5]):
        raise UsageError(f"{path}: not an mpiP report (no '@ mpiP' header)")
    hosts = {}
    for line in lines:
        m = re.match(r"^@ MPI Task Assignment\s*:\s*(\d+)\s+(\S+)", line)
        if m:
            hosts[int(m.group(1))] = m.group(2)
    sec = _sections(lines)
    if "MPI Time" not in sec or "Callsite Time statistics" not in sec:
        raise UsageError(f"{path}: an mpiP report without its MPI Time or Callsite Time "
                         "statistics section (mpiP's -d suppresses the callsite detail)")
    ranks = {}
    for r in _rows(sec["MPI Time"], ("Task", "AppTime", "MPITime", "MPI%"), path):
        if r["Task"] == "*":
            continue
        k = int(_num(r["Task"], path))
        ranks[k] = {"type": "profile_rank", "rank": k, "mpi_library": "unknown (mpiP report)",
                    "host": hosts.get(k, "?"), "binding": "", "init_s": 0.0,
                    "run_s": _num(r["AppTime"], path), "thread_multiple": False, "dropped": 0,
                    "calls": [], "source": "mpiP"}
    sent = {}
    for r in _rows(sec.get("Callsite Message Sent statistics", ["header"]),
                   ("Name", "Site", "Rank", "Count", "Max", "Mean", "Min", "Sum"), path):
        sent[(r["Name"], r["Site"], r["Rank"])] = _num(r["Mean"], path)
    per = {}
    for r in _rows(sec["Callsite Time statistics"],
                   ("Name", "Site", "Rank", "Count", "Max", "Mean", "Min", "App%", "MPI%"), path):
        k = int(_num(r["Rank"], path))
        if k not in ranks:
            raise UsageError(f"{path}: call site {r['Site']} of rank {k}, a task the MPI Time "
                             "section does not list")
        mean_b = sent.get((r["Name"], r["Site"], r["Rank"]))
        count = int(_num(r["Count"], path))
        key = (k, "MPI_" + r["Name"], _size_class(mean_b or 0), mean_b is not None)
        c = per.setdefault(key, {"count": 0, "bytes": 0, "seconds": 0.0})
        c["count"] += count
        c["bytes"] += int(round((mean_b or 0) * count))
        c["seconds"] += count * _num(r["Mean"], path) * 1e-3
    n = len(ranks)
    for (k, name, cls, known), c in sorted(per.items()):
        call = {"call": name, "size_class": cls, "comm_size": n, "count": c["count"],
                "bytes": c["bytes"], "seconds": c["seconds"]}
        if not known:
            call["size_known"] = False
        ranks[k]["calls"].append(call)
    for r in ranks.values():
        r["nranks"] = n
    return ranks


def profile_records(path, name):
    """The records of a profile file made from an mpiP report."""
    ranks = read_mpip(path)
    if not ranks:
        raise UsageError(f"{path}: an mpiP report without tasks")
    head = {"type": "profile", "schema": 1, "name": name, "source": "mpiP", "report": path,
            "family": "unknown", "mpi_library": "unknown (mpiP report)", "nranks": len(ranks),
            "ranks_written": sorted(ranks), "hosts": [ranks[k]["host"] for k in sorted(ranks)],
            "summary": summary(ranks)}
    return [head] + [ranks[k] for k in sorted(ranks)] + aggregate(ranks)
