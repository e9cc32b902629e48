# SPDX-License-Identifier: BSD-3-Clause
"""Reading results files: the programs' JSON Lines (doc/output.md) and the
runner's session and launch records (doc/compare.md). A file from an
interleaved run holds several configurations; each is a ResultSet of its
own, selected by label."""
import json
import math
import os
import re
from collections import OrderedDict
from typing import NamedTuple

from ..core.common import UsageError, open_input
from .cvars import table as cvar_table
from ..core.schema import problem


def short_library(s):
    if not s:
        return "unknown MPI"
    s = " ".join(str(s).split())
    m = re.match(r"MPICH Version:\s*(\S+)", s)
    if m:
        return "MPICH " + m.group(1)
    m = re.match(r"(Intel\(R\) MPI Library [\d.]+)", s)
    if m:
        return m.group(1)
    return s.split(",")[0]


class Launch:
    """One program run: its run record, results and sentinels, and what the
    runner recorded of it (configuration, round, suite line)."""

    def __init__(self, run, launch_id):
        self.run = run
        self.launch_id = launch_id
        self.results = []
        self.sentinels = {}
        self.meta = {}

    @property
    def config(self):
        return self.meta.get("config", self.run.get("config"))

    @property
    def round(self):
        return self.meta.get("round", self.run.get("round"))

    @property
    def pair_key(self):
        """What pairs it with the other configurations' launches: its session
        and round (a file of several sessions, --append or the allocations
        of `run --allocations`, repeats the round numbers); None without a
        round."""
        rnd, sid = self.round, self.meta.get("session_id")
        if rnd is None or isinstance(rnd, (list, dict)):
            return None
        return (sid if isinstance(sid, str) else None, rnd)

    @property
    def source(self):
        return self.meta.get("source") or ""


class SeriesGroup(NamedTuple):
    """The series of every size of one benchmark line."""
    bench: str
    variant: str
    nranks: int
    where: str
    unit: str


class SeriesKey(NamedTuple):
    """What makes one series: a benchmark, its variant, the rank count, where
    it was matched (its options as JSON, "line N" of an interleaved run, or a
    history configuration), the message size and the unit."""
    bench: str
    variant: str
    nranks: int
    where: str
    size: int
    unit: str

    def group(self):
        return SeriesGroup(self.bench, self.variant, self.nranks, self.where, self.unit)


class ResultSet:
    """Launches of one side of a comparison. keymode "options": series are
    matched by benchmark options (files of separate runs); "line": by suite
    line (configurations of one interleaved run, whose options may differ);
    "bench": by benchmark alone (as_means: another suite's figures)."""

    def __init__(self, path, label=None, keymode="options"):
        self.path = path
        self.label = label
        self.keymode = keymode
        self.launches = []
        self.launch_meta = []
        self.sessions = []
        self.warnings = []
        self.looks = 0           # planned looks of a --until-decided run
        self.cvar_tables = {}    # digest -> {name: value}: the cvars records of its file
        self.statistic = "median"  # what stands for a launch ("mean": as_means)

    def key(self, la, res):
        run = la.run
        if self.keymode == "line":
            where = "line " + la.source
        elif self.keymode == "bench":
            where = ""  # --means: an imported OSU output and mpigauge's run, options apart
        else:
            where = json.dumps((run.get("options") or {}).get("benchmark") or {}, sort_keys=True)
        return SeriesKey(res.get("benchmark") or run.get("benchmark"), res.get("variant") or "",
                         run.get("nranks"), where, res.get("size_bytes"), res.get("unit"))

    def series(self):
        """OrderedDict key -> list of (launch, result record)."""
        out = OrderedDict()
        for la in self.launches:
            for r in la.results:
                if r.get("validation") == "failed":
                    continue
                med = r.get("median")
                if not isinstance(med, (int, float)) or not med > 0 or math.isinf(med):
                    continue
                out.setdefault(self.key(la, r), []).append((la, r))
        return out

    def interleaved(self):
        return self.keymode == "line"

    def libraries(self):
        return sorted({short_library(la.run.get("mpi_library")) for la in self.launches})

    def default_label(self):
        libs = self.libraries()
        return libs[0] if len(libs) == 1 else os.path.basename(self.path)


def allocation_words(a):
    """An allocation record (a session's or run's "allocation") in words:
    "job J task T, nodes N", or "" without a job."""
    if not isinstance(a, dict) or not a.get("job_id"):
        return ""
    words = f"job {a['job_id']}"
    if a.get("array_task_id"):
        words += f" task {a['array_task_id']}"
    if a.get("nodelist"):
        words += f", nodes {a['nodelist']}"
    return words


def read_records(path):
    """(records, warnings) of a JSON Lines file."""
    try:
        f = open_input(path, encoding="utf-8", errors="replace")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    recs, warns, bad = [], [], 0
    with f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                # \ud800-style escapes load as lone surrogates, which cannot be printed
                if "\\ud" in line.lower():
                    json.dumps(rec, ensure_ascii=False).encode("utf-8")
            except (ValueError, RecursionError):
                bad += 1
                if bad <= 3:
                    warns.append(f"{path}:{lineno}: not a JSON line (or not valid UTF-8 text), "
                                 "ignored")
                continue
            if not isinstance(rec, dict):
                continue
            why = problem(rec)
            if why:
                bad += 1
                if bad <= 3:
                    warns.append(f"{path}:{lineno}: {why}, ignored")
                continue
            rec["_line"] = lineno
            recs.append(rec)
    if bad > 3:
        warns.append(f"{path}: {bad} lines ignored in all")
    return recs, warns


def build_set(records, path, label=None, keymode="options", config=None, all_configs=True):
    """A ResultSet of the records (those of configuration `config` only,
    unless all_configs)."""
    rs = ResultSet(path, label, keymode)
    metas = {}
    current = None
    for rec in records:
        t = rec.get("type")
        if t == "launch":
            if all_configs or rec.get("config") == config:
                rs.launch_meta.append(rec)
            metas[rec.get("launch_id")] = rec
        elif t == "session":
            rs.sessions.append(rec)
        elif t == "session_end":
            rs.looks = max(rs.looks, len((rec.get("sequential") or {}).get("looks") or []))
        elif t == "run":
            meta = metas.get(rec.get("launch_id"), {})
            cfg = meta.get("config", rec.get("config"))
            if not all_configs and cfg != config:
                current = None
                continue
            current = Launch(rec, rec.get("launch_id"))
            current.meta = meta
            rs.launches.append(current)
        elif t == "result":
            if current is not None:
                current.results.append(rec)
            elif all_configs:
                rs.warnings.append(f"{path}:{rec.get('_line')}: result before any run record, ignored")
        elif t == "sentinel" and current is not None:
            current.sentinels[rec.get("phase")] = rec
        elif t == "cvars" and rec.get("digest") not in rs.cvar_tables:
            # a set is kept once per digest, but each launch of a file may carry it:
            # read (and redacted) once
            tab = cvar_table(rec)
            if tab is not None:
                rs.cvar_tables[rec["digest"]] = tab
    return rs


def config_labels(records):
    """Configuration labels of an interleaved file, in session order."""
    labels = []
    for rec in records:
        if rec.get("type") == "session":
            for c in rec.get("configs") or []:
                if c.get("label") is not None and c["label"] not in labels:
                    labels.append(c["label"])
    for rec in records:
        if rec.get("type") == "launch" and rec.get("config") is not None \
                and rec["config"] not in labels:
            labels.append(rec["config"])
    return labels


def load_results(path, label=None):
    """The whole file as one set (every configuration together)."""
    recs, warns = read_records(path)
    rs = build_set(recs, path, label)
    rs.warnings = warns + rs.warnings
    if not rs.launches:
        raise UsageError(f"{path}: no run records (is it an mpigauge results file?)")
    return rs


def load_config_sets(path, labels=None):
    """The configurations of an interleaved file as sets (all, or `labels`
    in that order)."""
    recs, warns = read_records(path)
    have = config_labels(recs)
    if not have:
        raise UsageError(f"{path} holds no configurations (it is not from an interleaved "
                         "run); give files to compare instead")
    want = labels or have
    for lb in want:
        if lb not in have:
            hint = ("; after a file of an interleaved run every word is one of its "
                    "configuration labels" if os.path.exists(lb) else "")
            raise UsageError(f"{path} has no configuration {lb!r} (it has: {', '.join(have)})"
                             + hint)
    sets = []
    for lb in want:
        rs = build_set(recs, path, lb, "line", lb, all_configs=False)
        rs.warnings = list(warns)
        if not rs.launches:
            raise UsageError(f"{path}: configuration {lb!r} has no run records "
                             "(did every launch fail?)")
        sets.append(rs)
    return sets


def parse_file_arg(arg):
    """'LABEL=PATH' or 'PATH'."""
    if "=" in arg and not os.path.exists(arg):
        label, _, path = arg.partition("=")
        if label and path:
            return path, label
    return arg, None


def load_inputs(args):
    """The sets named on a command line: FILE [LABEL...] for the
    configurations of one interleaved file (all of them when no label is
    given; the words after it are labels even where a file or folder has
    that name), or FILE... / LABEL=FILE... for separate result files."""
    if args and os.path.isfile(args[0]):
        # after a file of an interleaved run every word is a label, whatever
        # exists on disk under that name
        recs, _ = read_records(args[0])
        have = config_labels(recs)
        # a run under one configuration (`run --config X` alone) is a plain run:
        # the words after it are files, unless they name its one label
        if len(have) > 1 or (have and (not args[1:] or set(args[1:]) <= set(have))):
            return load_config_sets(args[0], args[1:] or None)
    sets = []
    for arg in args:
        path, label = parse_file_arg(arg)
        rs = load_results(path, label)
        labels = sorted({la.config for la in rs.launches if la.config is not None})
        if len(labels) > 1:
            raise UsageError(f"{path} holds the configurations {', '.join(labels)} of an "
                             f"interleaved run: name them, e.g. `{path} {labels[0]} {labels[1]}`, "
                             "rather than mixing them into one side")
        if label is None and labels:
            rs.label = labels[0]        # a run under one configuration: its label
        sets.append(rs)
    defaults = [s.default_label() for s in sets]
    for s, d in zip(sets, defaults):
        if s.label is None:
            s.label = d if defaults.count(d) == 1 else os.path.basename(s.path)
    labels = [s.label for s in sets]
    for s in sets:
        if labels.count(s.label) > 1:
            s.label = s.path
    return sets


def bench_label(key, variants_needed):
    """key: a SeriesKey or a SeriesGroup."""
    bench, variant, nranks, where = key.bench, key.variant, key.nranks, key.where
    parts = [bench]
    if variant:
        parts.append(f"[{variant}]")
    if variants_needed.get(bench):
        if where.startswith("line "):
            extra = where
        else:
            o = json.loads(where)
            extra = ",".join(f"{k}={v}" for k, v in sorted(o.items()))
        parts.append(f"({nranks} ranks{', ' + extra if extra else ''})")
    return " ".join(parts)


def needs_config_label(keys):
    cfg = {}
    for k in keys:
        cfg.setdefault(k.bench, set()).add((k.nranks, k.where))
    return {b: len(c) > 1 for b, c in cfg.items()}


def mpigauge_name(osu_program, known):
    """The mpigauge benchmark among `known` that runs what an OSU program
    runs by default (the drop-in's table, mpi/osu/mg_osu_names.c: OSU's
    name less "osu_", a persistent collective's NAME_init), or None (the
    fan tests, osu_init and the persistent point-to-point tests take options
    in mpigauge that an imported run record does not give)."""
    if not osu_program.startswith("osu_"):
        return None
    name = osu_program[4:]
    if name.endswith("_persistent"):
        name = name[:-len("_persistent")] + "_init"
    return name if name in known else None


def as_means(s, known):
    """--means: each launch's mean per iteration stands for it (OSU prints
    means; mpigauge records them beside the median), an imported OSU
    program's series under the mpigauge benchmark among `known` (the names
    mpigauge's own launches carry) that runs it, and series matched by
    benchmark, variant, ranks, size and unit without options. Returns the
    OSU programs that have no such benchmark."""
    unmapped = set()
    for la in s.launches:
        if la.run.get("imported"):
            prog = la.run.get("benchmark") or ""
            name = mpigauge_name(prog, known)
            if name is None:
                unmapped.add(prog)
                continue
            la.results = [dict(r, benchmark=name) for r in la.results]
        else:
            la.results = [dict(r, median=r["mean"], statistic="mean") for r in la.results
                          if isinstance(r.get("mean"), (int, float))]
    if s.keymode == "options":
        s.keymode = "bench"
    s.statistic = "mean"
    return sorted(unmapped)
