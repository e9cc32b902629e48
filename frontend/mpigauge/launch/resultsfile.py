# SPDX-License-Identifier: BSD-3-Clause
"""The results file of `mpigauge run` (doc/compare.md): written record by
record, each write complete and on disk before the next, appended to only
when it is an mpigauge results file."""
import json
import os

from . import launch as ln
from ..core.common import OutputError, UsageError


RESULT_TYPES = ("session", "session_end", "launch", "run", "result", "sentinel", "error",
                "cvars")


def _record_line(line):
    """The record of one line of a results file, or None."""
    try:
        rec = json.loads(line)
    except ValueError:
        return None
    return rec if isinstance(rec, dict) and rec.get("type") in RESULT_TYPES else None


class Writer:
    """The results file: every write complete and on disk before the next.
    A write that fails (a full disk) is rolled back to the end of the last
    complete one and stops the run. --append takes only an mpigauge results
    file (its first line a record) and keeps every valid record: a last
    line without its newline that is a whole record gets the newline; one
    that is not (an earlier run killed in a write) is cut off and counted in
    `torn`, whatever its length. A library's control variables (a cvars
    record) are written once per distinct set (its digest), by the first
    launch that read them; the run records name the digest."""

    def __init__(self, path, append):
        self.path = path
        self.f = open(path, "a+b" if append else "wb")
        self.records = []
        self.torn = 0
        self.cvar_sets = set()
        if append:
            try:
                self._check_append()
                self._known_cvar_sets()
            except BaseException:
                self.f.close()
                raise
        self.f.flush()
        # the end of the last complete write: records go there through the
        # descriptor itself (no buffer that could hold half a record)
        self.end = os.lseek(self.f.fileno(), 0, os.SEEK_END)

    def _known_cvar_sets(self):
        self.f.seek(0)
        for line in self.f:
            if b'"type":"cvars"' in line:
                rec = _record_line(line)
                if rec is not None and isinstance(rec.get("digest"), str):
                    self.cvar_sets.add(rec["digest"])

    def _last_line_start(self, end):
        """Offset of the first byte of the file's last line (no final newline)."""
        pos = end
        while pos > 0:
            step = min(65536, pos)
            self.f.seek(pos - step)
            chunk = self.f.read(step)
            i = chunk.rfind(b"\n")
            if i >= 0:
                return pos - step + i + 1
            pos -= step
        return 0

    def _check_append(self):
        self.f.seek(0, os.SEEK_END)
        end = self.f.tell()
        if not end:
            return
        self.f.seek(0)
        first = self.f.readline(1 << 20)
        complete = first.endswith(b"\n")
        if not complete and end > len(first):
            first = None      # a first line longer than 1 MiB is no record of ours
        if first is None or (_record_line(first) is None and complete):
            raise UsageError(f"--append {self.path}: not an mpigauge results file (its first "
                             "line is not a record); left as it is")
        self.f.seek(end - 1)
        if self.f.read(1) == b"\n":
            return
        start = self._last_line_start(end)
        self.f.seek(start)
        if _record_line(self.f.read(end - start)) is not None:
            self.f.seek(0, os.SEEK_END)
            self.f.write(b"\n")
            self.f.flush()
            return
        if start == 0:
            raise UsageError(f"--append {self.path}: not an mpigauge results file (its only "
                             "line is not a record); left as it is")
        self.torn = end - start
        self.f.truncate(start)

    def write(self, recs):
        recs = [r for r in recs if r.get("type") != "cvars" or r.get("digest") not in
                self.cvar_sets]
        data = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs).encode()
        fd = self.f.fileno()
        with ln.BlockSignals():
            try:
                view = memoryview(data)
                while view:     # a full disk takes part of a write before it fails
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except OSError as e:
                cut = self._roll_back(fd)
                raise OutputError(f"cannot write {self.path}: {e.strerror}; "
                                  + ("rolled back to the last whole record: the file holds "
                                     "every launch before this one" if cut else
                                     "and it could not be cut back to the last whole record")
                                  ) from None
            self.end += len(data)
        self.records += recs
        self.cvar_sets.update(r.get("digest") for r in recs if r.get("type") == "cvars")

    def _roll_back(self, fd):
        """Cut the file back to the end of the last complete write and write
        on from there (no hole); True when that worked."""
        try:
            os.ftruncate(fd, self.end)
            os.lseek(fd, self.end, os.SEEK_SET)
            os.fsync(fd)
            return True
        except OSError:
            try:        # a device (/dev/full) has nothing to cut
                return os.fstat(fd).st_size == self.end
            except OSError:
                return False

    def close(self):
        try:
            self.f.close()
        except OSError:
            pass
