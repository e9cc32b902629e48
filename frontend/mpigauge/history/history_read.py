# SPDX-License-Identifier: BSD-3-Clause
"""Reading a results history (history.History, doc/history.md): its tags,
records, series and marks, and the rows they are read as."""
import json
from typing import NamedTuple, Optional

from ..core.common import UsageError


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


def refuse(path, why):
    raise UsageError(f"{path}: {why}; it is left as it is (give another --db, or move it away)")


# a median the trends can use: a finite positive number (SQLite keeps a NaN
# written as text, which compares above every number)
_GOOD_MEDIAN = ("(typeof(r.median) IN ('real', 'integer') AND r.median > 0 "
                "AND r.median < 1e308)")


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


class HistoryReading:
    """The queries of an open history (self.db, self.path: history.History)."""

    def _json(self, text, kind=dict):
        """A record (or list of records) as stored, or the refusal of a damaged history."""
        try:
            v = json.loads(text)
        except (TypeError, ValueError):
            v = None
        ok = isinstance(v, kind) and (kind is dict or all(isinstance(r, dict) for r in v))
        if not ok:
            refuse(self.path, "a damaged history (a stored record is not JSON)")
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

    def _has_marks(self):
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                               "name = 'marks'").fetchone() is not None

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
