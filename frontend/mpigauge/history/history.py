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

from ..core.common import UsageError, open_input, now_utc
from ..data.cvars import redact as redact_cvars
from .history_read import HistoryReading, refuse

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


def default_db():
    """--db, else $MPIGAUGE_HISTORY, else the user's data folder."""
    if os.environ.get(ENV):
        return os.environ[ENV]
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "mpigauge", "history.sqlite")


class History(HistoryReading):
    """An open history database (its reading in history_read.HistoryReading).
    create: make it when the file is missing."""

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
            refuse(path, f"not a usable SQLite database ({e})")

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
            refuse(self.path, "is a folder, not a history database")
        try:
            with open_input(self.path, "rb") as f:
                head = f.read(len(SQLITE_MAGIC))
        except OSError as e:
            raise UsageError(f"cannot read {self.path}: {e.strerror}") from None
        if head and head != SQLITE_MAGIC:
            refuse(self.path, "not an mpigauge history: not an SQLite database (another kind "
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
            refuse(self.path, "an SQLite database of another program, not an mpigauge history")
        ver = db.execute("PRAGMA user_version").fetchone()[0]
        if ver > SCHEMA:
            refuse(self.path, f"a history of a newer mpigauge (schema {ver}; this one reads "
                   f"{SCHEMA})")
        have = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = {"tags", "sessions", "launches", "results"} - have
        if missing:
            refuse(self.path, f"marked as an mpigauge history but without its tables "
                   f"({', '.join(sorted(missing))})")
        check = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if check != "ok":
            first = " ".join(check.replace("*** in database main ***", "").split())[:160]
            refuse(self.path, f"a damaged history ({first})")

    def close(self):
        self.db.close()

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


def result_problem(r):
    """None when a result (already checked by schema.problem on reading: types,
    finite numbers, a size up to 2^62) may enter the history, else why not:
    the rest of the rules compare applies, a positive median and a unit."""
    if r["median"] <= 0:
        return f"median {r['median']!r} is not a positive number"
    if not r["unit"]:
        return "no unit"
    return None


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
    from ..data.results import build_set
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
