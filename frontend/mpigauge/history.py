# SPDX-License-Identifier: BSD-3-Clause
"""The results history: every results file added to one SQLite database
(Python's sqlite3), tagged (a release, a nightly build), so that each new
run is checked against the last and the trend over releases can be drawn
(doc/history.md).

The database: launches (one row per program launch: tag, the file it came
from, its session, configuration label and round, library, version, hosts,
date, and its records as they were in the file), results (one row per
benchmark, variant and size of a launch: the figures the trend needs) and
sessions (the runner's session records), cvars (the library's control
variables, one record per distinct set, by digest). A launch is known by the SHA-256
of its run and result records, so adding the same launches twice is
refused. The file is marked as mpigauge's (application_id) and anything
else, a damaged file or another program's database, is refused with a
message and left as it is."""
import hashlib
import json
import os
import sqlite3
from contextlib import contextmanager
from typing import NamedTuple, Optional

from .common import UsageError, open_input, now_utc
from .cvars import redact as redact_cvars

APP_ID = 0x4D474831            # "MGH1": the file is an mpigauge history
SCHEMA = 1
ENV = "MPIGAUGE_HISTORY"
SQLITE_MAGIC = b"SQLite format 3\x00"

TABLES = """
CREATE TABLE tags (tag TEXT PRIMARY KEY, seq INTEGER NOT NULL, added_utc TEXT NOT NULL);
CREATE TABLE sessions (session_id TEXT PRIMARY KEY, record TEXT NOT NULL, end_record TEXT);
CREATE TABLE launches (
    id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL UNIQUE, tag TEXT NOT NULL,
    source_file TEXT, added_utc TEXT NOT NULL, session_id TEXT, launch_id TEXT,
    config TEXT, round INTEGER, benchmark TEXT NOT NULL, library TEXT, library_version TEXT,
    mpi_version TEXT, mpigauge_version TEXT, hosts TEXT, nranks INTEGER, nnodes INTEGER,
    date_utc TEXT, records TEXT NOT NULL);
CREATE TABLE results (
    launch INTEGER NOT NULL REFERENCES launches(id), benchmark TEXT NOT NULL,
    variant TEXT NOT NULL, size_bytes INTEGER NOT NULL, unit TEXT NOT NULL, median REAL NOT NULL,
    ci95_low REAL, ci95_high REAL, p99 REAL, samples INTEGER, validation TEXT);
CREATE INDEX results_series ON results (benchmark, size_bytes);
CREATE INDEX results_launch ON results (launch);
CREATE INDEX launches_tag ON launches (tag);
CREATE TABLE cvars (digest TEXT PRIMARY KEY, record TEXT NOT NULL);
"""


# added with the control variables: a history made before gets it at its next add
CVARS_TABLE = ("CREATE TABLE IF NOT EXISTS cvars (digest TEXT PRIMARY KEY, "
               "record TEXT NOT NULL)")


# what a series walk named (mpigauge series history): the change of one
# series at the tag (release) that introduced it; made at the first mark
MARKS_TABLE = ("CREATE TABLE IF NOT EXISTS marks (tag TEXT NOT NULL, benchmark TEXT NOT NULL, "
               "variant TEXT NOT NULL, nranks INTEGER, size_bytes INTEGER NOT NULL, "
               "unit TEXT NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, "
               "UNIQUE (tag, benchmark, variant, nranks, size_bytes, unit))")


class TagSummary(NamedTuple):
    """One tag of a history (History.tag_summary)."""
    tag: str
    launches: int
    benchmarks: int
    libraries: list
    configs: list
    hosts: list
    first: Optional[str]     # the earliest run date of its launches (UTC)
    last: Optional[str]
    added: Optional[str]     # when the tag was added


class SeriesRow(NamedTuple):
    """One result of a history (History.series)."""
    tag: str
    config: str
    benchmark: str
    variant: Optional[str]
    nranks: Optional[int]
    size: int
    unit: str
    median: float
    ci95_low: Optional[float]
    ci95_high: Optional[float]
    launch: int
    date: Optional[str]
    library: Optional[str]


class MarkKey(NamedTuple):
    """The series a mark names (History.marks)."""
    tag: str
    benchmark: str
    variant: Optional[str]
    nranks: Optional[int]
    size: int
    unit: str


class Mark(NamedTuple):
    kind: str
    text: str


def default_db():
    """--db, else $MPIGAUGE_HISTORY, else the user's data folder."""
    if os.environ.get(ENV):
        return os.environ[ENV]
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "mpigauge", "history.sqlite")


def _refuse(path, why):
    raise UsageError(f"{path}: {why}; it is left as it is (give another --db, or move it away)")


class History:
    """An open history database. create: make it when the file is missing."""

    def __init__(self, path, create=False):
        self.path = path
        exists = os.path.exists(path)
        if not exists and not create:
            raise UsageError(f"no history at {path} (`mpigauge history add FILE` makes one; "
                             f"--db or ${ENV} name another)")
        if exists:
            self._check_file()
        elif not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        try:
            # autocommit: every write is one explicit BEGIN IMMEDIATE ... COMMIT
            # (_write), so that two processes never interleave check and insert
            self.db = sqlite3.connect(path, timeout=60, isolation_level=None)
            self._check_or_create(create)
        except sqlite3.OperationalError as e:
            raise UsageError(f"{path}: cannot use the history ({e})") from None
        except sqlite3.DatabaseError as e:
            _refuse(path, f"not a usable SQLite database ({e})")

    @contextmanager
    def _write(self):
        """One write transaction, taken before anything is read: a second
        writer waits for the first and then sees what it wrote."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _check_file(self):
        if os.path.isdir(self.path):
            _refuse(self.path, "is a folder, not a history database")
        try:
            with open_input(self.path, "rb") as f:
                head = f.read(len(SQLITE_MAGIC))
        except OSError as e:
            raise UsageError(f"cannot read {self.path}: {e.strerror}") from None
        if head and head != SQLITE_MAGIC:
            _refuse(self.path, "not an mpigauge history: not an SQLite database (another kind "
                    "of file, or a damaged one)")

    def _state(self):
        """(application_id, number of schema objects), read in one snapshot: two
        reads apart could see another process's new history half way."""
        own = not self.db.in_transaction
        if own:
            self.db.execute("BEGIN")
        try:
            return (self.db.execute("PRAGMA application_id").fetchone()[0],
                    self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
        finally:
            if own:
                self.db.execute("COMMIT")

    def _check_or_create(self, create):
        db = self.db
        app, ntables = self._state()
        if app == 0 and ntables == 0:
            if not create:
                raise UsageError(f"{self.path} is an empty database: no history yet")
            # the mark, the schema and the tables in one transaction, checked again
            # inside it: another process making the same history at once waits and
            # then finds a whole one
            with self._write():
                app, ntables = self._state()
                if app == 0 and ntables == 0:
                    db.execute(f"PRAGMA application_id = {APP_ID}")
                    db.execute(f"PRAGMA user_version = {SCHEMA}")
                    for stmt in TABLES.split(";"):
                        if stmt.strip():
                            db.execute(stmt)
            if app == 0 and ntables == 0:
                return
        if app != APP_ID:
            _refuse(self.path, "an SQLite database of another program, not an mpigauge history")
        ver = db.execute("PRAGMA user_version").fetchone()[0]
        if ver > SCHEMA:
            _refuse(self.path, f"a history of a newer mpigauge (schema {ver}; this one reads "
                    f"{SCHEMA})")
        have = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = {"tags", "sessions", "launches", "results"} - have
        if missing:
            _refuse(self.path, f"marked as an mpigauge history but without its tables "
                    f"({', '.join(sorted(missing))})")
        check = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if check != "ok":
            first = " ".join(check.replace("*** in database main ***", "").split())[:160]
            _refuse(self.path, f"a damaged history ({first})")

    def close(self):
        self.db.close()

    def _json(self, text, kind=dict):
        """A record (or list of records) as stored, or the refusal of a damaged history."""
        try:
            v = json.loads(text)
        except (TypeError, ValueError):
            v = None
        ok = isinstance(v, kind) and (kind is dict or all(isinstance(r, dict) for r in v))
        if not ok:
            _refuse(self.path, "a damaged history (a stored record is not JSON)")
        return v

    # ---- reading -------------------------------------------------------------------

    def tags(self):
        """[(tag, added_utc)] in the order they were first added."""
        return self.db.execute("SELECT tag, added_utc FROM tags ORDER BY seq").fetchall()

    def has_tag(self, tag):
        return self.db.execute("SELECT 1 FROM tags WHERE tag = ?", (tag,)).fetchone() is not None

    def last_tag(self, before=None):
        """The last tag added, or the last one added before tag `before`."""
        tags = [t for t, _ in self.tags()]
        if before in tags:
            tags = tags[:tags.index(before)]
        return tags[-1] if tags else None

    def tag_summary(self):
        """Per tag, in the order they were added: a TagSummary."""
        out = []
        for tag, n, nb, first, last, added in self.db.execute(
                "SELECT l.tag, count(*), count(DISTINCT l.benchmark), min(l.date_utc), "
                "max(l.date_utc), t.added_utc FROM launches l JOIN tags t ON t.tag = l.tag "
                "GROUP BY l.tag ORDER BY t.seq").fetchall():
            def distinct(col):
                return [v for (v,) in self.db.execute(
                    f"SELECT DISTINCT {col} FROM launches WHERE tag = ? AND {col} IS NOT NULL "
                    f"ORDER BY {col}", (tag,))]
            out.append(TagSummary(tag, n, nb, distinct("library"), distinct("config"),
                                  distinct("hosts"), first, last, added))
        return out

    def records(self, tag=None, config=None):
        """The records of the launches of a tag (and configuration), or of all, in the order
        they were added, with each session's records around its launches: a results file."""
        where, args = _where([("tag", tag), ("config", config)])
        out, seen, ends = [], set(), []
        for session, recs in self.db.execute("SELECT session_id, records FROM launches" + where +
                                             " ORDER BY id", args):
            if session and session not in seen:
                seen.add(session)
                row = self.db.execute("SELECT record, end_record FROM sessions WHERE "
                                      "session_id = ?", (session,)).fetchone()
                if row:
                    out.append(self._json(row[0]))
                    if row[1]:
                        ends.append(self._json(row[1]))
            out.extend(self._json(recs, list))
        return self._cvar_sets(out) + out + ends

    def _cvar_sets(self, records):
        """The cvars records (one per set) the run records among records name."""
        if not self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                               "name = 'cvars'").fetchone():
            return []       # a history from before the control variables
        want = sorted({r["cvars"].get("digest") for r in records if r.get("type") == "run"
                       and isinstance(r.get("cvars"), dict) and r["cvars"].get("digest")})
        out = []
        for d in want:
            row = self.db.execute("SELECT record FROM cvars WHERE digest = ?", (d,)).fetchone()
            if row:
                out.append(self._json(row[0]))
        return out

    def configs(self, tag):
        return [c for (c,) in self.db.execute(
            "SELECT DISTINCT config FROM launches WHERE tag = ? AND config IS NOT NULL "
            "ORDER BY config", (tag,))]

    def sessions_of(self, tag, config=None):
        sql, args = "SELECT DISTINCT session_id FROM launches WHERE tag = ?", [tag]
        if config is not None:
            sql += " AND config = ?"
            args.append(config)
        return {s for (s,) in self.db.execute(sql, args)}

    # ---- adding --------------------------------------------------------------------

    def add(self, launches, sessions, ends, tag, source, cvar_sets=()):
        """Add the launches of one file under tag, all or nothing. launches:
        [(Launch, [its records])]; cvar_sets: the file's cvars records (kept
        once per digest). Returns the number added; refuses launches
        already in the history."""
        rows = [(_fingerprint(recs), la, recs) for la, recs in launches]
        prints = [r[0] for r in rows]
        if len(set(prints)) != len(prints):
            raise UsageError(f"{source}: holds the same launch more than once; nothing added")
        added = now_utc()
        with self._write():
            known = self._known(prints)
            if known:
                t, when = known[0][1], known[0][2]
                raise UsageError(f"{source}: {len(known)} of its {len(rows)} launches are "
                                 f"already in the history (tag {t!r}, added {when}); nothing "
                                 "added")
            if not self.has_tag(tag):
                seq = self.db.execute("SELECT coalesce(max(seq), 0) + 1 FROM tags").fetchone()[0]
                self.db.execute("INSERT INTO tags VALUES (?, ?, ?)", (tag, seq, added))
            self.db.execute(CVARS_TABLE)
            for c in cvar_sets:
                self.db.execute("INSERT OR IGNORE INTO cvars VALUES (?, ?)",
                                (c["digest"], _dump(redact_cvars(c))))
            for s in sessions:
                end = ends.get(s["session_id"])
                self.db.execute("INSERT OR IGNORE INTO sessions VALUES (?, ?, ?)",
                                (s["session_id"], _dump(s), _dump(end) if end else None))
            results = []
            for fp, la, recs in rows:
                run = la.run
                cur = self.db.execute(
                    "INSERT INTO launches (fingerprint, tag, source_file, added_utc, session_id, "
                    "launch_id, config, round, benchmark, library, library_version, mpi_version, "
                    "mpigauge_version, hosts, nranks, nnodes, date_utc, records) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (fp, tag, os.path.abspath(source), added, la.meta.get("session_id"),
                     la.launch_id, la.config, la.round, run.get("benchmark"),
                     run.get("mpi_library"), run.get("mpi_library_version"),
                     run.get("mpi_version"), run.get("mpigauge_version"),
                     ",".join(sorted(set(run.get("hosts") or []))), run.get("nranks"),
                     run.get("nnodes"), run.get("date_utc") or la.meta.get("date_utc"),
                     _dump(recs)))
                for r in la.results:
                    if result_problem(r) is None:
                        results.append((cur.lastrowid, r.get("benchmark") or run.get("benchmark"),
                                        r.get("variant") or "", r["size_bytes"], r["unit"],
                                        r["median"], r.get("ci95_low"), r.get("ci95_high"),
                                        r.get("p99"),
                                        r.get("samples") if isinstance(r.get("samples"), int)
                                        else None, r.get("validation")))
            self.db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                results)
        return len(rows)

    def remove(self, tag):
        """Remove a tag and every launch and result under it; the number of
        launches removed."""
        with self._write():
            if not self.has_tag(tag):
                raise UsageError(f"no tag {tag!r} in {self.path} (history list shows them)")
            ids = "SELECT id FROM launches WHERE tag = ?"
            self.db.execute(f"DELETE FROM results WHERE launch IN ({ids})", (tag,))
            n = self.db.execute("DELETE FROM launches WHERE tag = ?", (tag,)).rowcount
            self.db.execute("DELETE FROM tags WHERE tag = ?", (tag,))
            if self._has_marks():
                self.db.execute("DELETE FROM marks WHERE tag = ?", (tag,))
            self.db.execute("DELETE FROM sessions WHERE session_id NOT IN "
                            "(SELECT DISTINCT session_id FROM launches WHERE session_id "
                            "IS NOT NULL)")
        return n

    def _has_marks(self):
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                               "name = 'marks'").fetchone() is not None

    def set_marks(self, marks):
        """Replace the marks of the tags named in marks: [(tag, benchmark,
        variant, nranks, size, unit, kind, text)]; each tag must exist."""
        with self._write():
            self.db.execute(MARKS_TABLE)
            for tag in sorted({m[0] for m in marks}):
                if not self.has_tag(tag):
                    raise UsageError(f"no tag {tag!r} in {self.path} to mark")
                self.db.execute("DELETE FROM marks WHERE tag = ?", (tag,))
            self.db.executemany("INSERT OR REPLACE INTO marks VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                marks)

    def marks(self):
        """{MarkKey: Mark}."""
        if not self._has_marks():
            return {}
        return {MarkKey(*r[:6]): Mark(r[6], r[7]) for r in self.db.execute(
            "SELECT tag, benchmark, variant, nranks, size_bytes, unit, kind, text FROM marks")}

    def _known(self, prints):
        out = []
        for i in range(0, len(prints), 500):
            chunk = prints[i:i + 500]
            out += self.db.execute(
                "SELECT fingerprint, tag, added_utc FROM launches WHERE fingerprint IN (%s)"
                % ",".join("?" * len(chunk)), chunk).fetchall()
        return out

    # ---- series for show and the dashboard -----------------------------------------

    def series(self, benchmark=None, size=None):
        """A SeriesRow per result, in tag order. A
        result without a positive, finite median (a history written by an
        earlier release took NaN, zero or a negative) is left out and counted
        in self.left_out."""
        where, args = _where([("r.benchmark", benchmark), ("r.size_bytes", size)],
                             "r.validation IS NOT 'failed'")
        self.left_out = self.db.execute(
            "SELECT count(*) FROM results r" + where + " AND NOT " + _GOOD_MEDIAN,
            args).fetchone()[0]
        where += " AND " + _GOOD_MEDIAN
        return [SeriesRow(*r) for r in self.db.execute(
            "SELECT l.tag, coalesce(l.config, ''), r.benchmark, r.variant, l.nranks, "
            "r.size_bytes, r.unit, r.median, r.ci95_low, r.ci95_high, l.id, l.date_utc, "
            "l.library FROM results r JOIN launches l ON l.id = r.launch "
            "JOIN tags t ON t.tag = l.tag" + where + " ORDER BY t.seq, l.id", args)]

    def launch(self, launch_id):
        row = self.db.execute("SELECT tag, records FROM launches WHERE id = ?",
                              (launch_id,)).fetchone()
        return (row[0], self._json(row[1], list)) if row else (None, [])

    def families(self):
        """{benchmark: the family its newest run record names (None: none
        named)}: the programs' own filing, never a copy of their tables."""
        out = {}
        for bench, text in self.db.execute(
                "SELECT benchmark, records FROM launches WHERE id IN "
                "(SELECT max(id) FROM launches GROUP BY benchmark)"):
            run = next((r for r in self._json(text, list)
                        if isinstance(r, dict) and r.get("type") == "run"), {})
            fam = run.get("family")
            out[bench] = fam if isinstance(fam, str) else None
        return out

    def benchmarks(self):
        return [b for (b,) in self.db.execute("SELECT DISTINCT benchmark FROM results "
                                              "ORDER BY benchmark")]


# a median the trends can use: a finite positive number (SQLite keeps a NaN
# written as text, which compares above every number)
_GOOD_MEDIAN = ("(typeof(r.median) IN ('real', 'integer') AND r.median > 0 "
                "AND r.median < 1e308)")


def result_problem(r):
    """None when a result (already checked by schema.problem on reading: types,
    finite numbers, a size up to 2^62) may enter the history, else why not:
    the rest of the rules compare applies, a positive median and a unit."""
    if r["median"] <= 0:
        return f"median {r['median']!r} is not a positive number"
    if not r["unit"]:
        return "no unit"
    return None


def _where(pairs, always=None):
    """(" WHERE a = ? AND ...", [values]) of the (column, value) pairs whose value is
    not None, and a condition that always holds; ("", []) when there is none."""
    conds = [always] if always else []
    args = []
    for col, val in pairs:
        if val is not None:
            conds.append(f"{col} = ?")
            args.append(val)
    return (" WHERE " + " AND ".join(conds) if conds else ""), args


def _dump(rec):
    if isinstance(rec, list):
        return json.dumps([{k: v for k, v in r.items() if k != "_line"} for r in rec],
                          sort_keys=True, separators=(",", ":"))
    return json.dumps({k: v for k, v in rec.items() if k != "_line"}, sort_keys=True,
                      separators=(",", ":"))


def _fingerprint(recs):
    """A launch's identity: its run and result records (not the runner's bookkeeping)."""
    core = [r for r in recs if r.get("type") in ("run", "result")]
    return hashlib.sha256(_dump(core).encode("utf-8")).hexdigest()


def launch_records(records):
    """Group a results file's records by launch: ([(Launch, [its records])], sessions,
    session ends, launches without a run record). A runner's file ties records to launches
    by launch_id; a program's own file has one launch per run record."""
    from .results import build_set
    groups, order, current, n = {}, [], None, 0
    latest, has = {}, {}        # launch_id -> its current group; group -> record types in it
    for rec in records:
        t = rec.get("type")
        if t in ("session", "session_end") or (t == "cvars" and rec.get("launch_id") is None):
            continue        # a cvars set is the file's, kept once per digest: not a launch
        lid = rec.get("launch_id")
        if lid is None:
            if t == "run" or current is None:
                n += 1
                current = ("file", n)
            key = current
        else:
            # the same launch id twice (files of separate runs exported together): a second
            # run or launch record starts another launch
            key = latest.get(lid)
            if key is None or (t in ("run", "launch") and t in has[key]):
                n += 1
                key = latest[lid] = ("id", lid, n)
        if key not in groups:
            groups[key] = []
            has[key] = set()
            order.append(key)
        groups[key].append(rec)
        has[key].add(t)
    out, empty = [], 0
    for key in order:
        rs = build_set(groups[key], "")
        if not rs.launches:
            empty += 1
            continue
        for la in rs.launches:
            la.meta = la.meta or {}
        out.append((rs.launches[0], groups[key]))
    sessions = [r for r in records if r.get("type") == "session" and r.get("session_id")]
    ends = {r["session_id"]: r for r in records
            if r.get("type") == "session_end" and r.get("session_id")}
    return out, sessions, ends, empty
