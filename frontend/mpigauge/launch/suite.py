# SPDX-License-Identifier: BSD-3-Clause
"""Suite files: one benchmark invocation per line (doc/compare.md)."""
import os
import re
import shlex

from ..core.common import PATHS, UsageError, open_input

SUITE_NAMES = ("quick", "pt2pt", "collectives", "onesided", "overlap", "full")
# "each FAMILY ARGS": one line per name the family's program answers to
# (PROGRAM --list-names), so that a new operation needs no suite line
EACH = {"collective": "coll", "onesided": "rma"}


class SuiteEntry:
    def __init__(self, name, args, ranks=None, timeout=None, source="", each=None):
        self.name = name          # benchmark name without mpigauge_
        self.args = args          # list of program arguments
        self.ranks = ranks        # fixed rank count or None (use -n)
        self.timeout = timeout    # seconds or None (use --timeout)
        self.source = source      # "file:line"
        self.each = each          # "each FAMILY": the family, name its program (EACH)

    def named(self, name):
        """This line for one of its family's names."""
        return SuiteEntry(name, list(self.args), self.ranks, self.timeout, self.source)

    def __repr__(self):
        return (f"SuiteEntry({self.name!r}, {self.args!r}, ranks={self.ranks!r}, "
                f"timeout={self.timeout!r}, source={self.source!r})")

    def line(self):
        return " ".join([self.name] + [shlex.quote(a) for a in self.args])


_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def suite_dirs():
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    dirs = [os.path.join(here, "suites")]
    for d in (PATHS["suitesdir"], PATHS["srcsuitesdir"]):
        if d:
            dirs.append(d)
    return dirs


def find_suite(spec, relative_to=None):
    """A suite name (quick, pt2pt, ...) or a file path -> path."""
    if os.sep in spec or spec.endswith(".txt") or os.path.isfile(spec):
        path = spec
        if relative_to and not os.path.isabs(path):
            cand = os.path.join(relative_to, path)
            if os.path.isfile(cand):
                path = cand
        if not os.path.exists(path):
            raise UsageError(f"suite file {spec!r} not found")
        open_input(path).close()    # a pipe, device or folder: refused here
        return path
    if not _NAME_RE.match(spec):
        raise UsageError(f"bad suite name {spec!r}")
    for d in ([relative_to] if relative_to else []) + suite_dirs():
        cand = os.path.join(d, spec + ".txt")
        if os.path.isfile(cand):
            return cand
    raise UsageError(f"unknown suite {spec!r}: no {spec}.txt in "
                     + ", ".join(suite_dirs()) + f" (built-in suites: {', '.join(SUITE_NAMES)})")


def parse_suite(text, source="<suite>", include=None, _stack=()):
    """Parse a suite file's text into SuiteEntry objects.

    One benchmark invocation per line: NAME [ARGS...], NAME being the program
    name with or without "mpigauge_". Optional KEY=VALUE words before NAME:
    ranks=N (this line always runs on N ranks), timeout=SECONDS. "include
    SUITE" inserts another suite (a name or a file). '#' starts a comment;
    words are split like a POSIX shell (quotes work). "each FAMILY [ARGS...]"
    (FAMILY collective or onesided) stands for one line per name the family's
    program lists (mpigauge_coll --list-names), expanded when the programs
    are found (runner)."""
    entries = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        where = f"{source}:{lineno}"
        try:
            words = shlex.split(raw, comments=True)
        except ValueError as e:
            raise UsageError(f"{where}: {e}") from None
        if not words:
            continue
        if words[0] == "include":
            if len(words) != 2:
                raise UsageError(f"{where}: 'include' takes one suite name or file")
            if include is None:
                raise UsageError(f"{where}: include is not allowed here")
            entries.extend(include(words[1], where, _stack))
            continue
        ranks = timeout = None
        while words and "=" in words[0] and not words[0].startswith("-"):
            key, _, val = words.pop(0).partition("=")
            if key == "ranks":
                if not val.isdigit() or int(val) < 1:
                    raise UsageError(f"{where}: ranks must be a positive integer, not {val!r}")
                ranks = int(val)
            elif key == "timeout":
                try:
                    timeout = float(val)
                except ValueError:
                    timeout = -1.0
                if not 0 < timeout <= 1e6:
                    raise UsageError(f"{where}: timeout must be a positive number of seconds, not {val!r}")
            else:
                raise UsageError(f"{where}: unknown key {key!r} (known: ranks=N, timeout=SECONDS)")
        if not words:
            raise UsageError(f"{where}: no benchmark name after the keys")
        if words[0] == "each":
            if len(words) < 2 or words[1] not in EACH:
                raise UsageError(f"{where}: 'each' takes a family: "
                                 + ", ".join(sorted(EACH)))
            entries.append(SuiteEntry(EACH[words[1]], words[2:], ranks, timeout, where,
                                      each=words[1]))
            continue
        name = words[0]
        if name.startswith("mpigauge_"):
            name = name[len("mpigauge_"):]
        if name.startswith("-") or not _NAME_RE.match(name) or "/" in name:
            raise UsageError(f"{where}: {words[0]!r} is not a benchmark name "
                             "(a line is: [ranks=N] [timeout=S] NAME [ARGS...])")
        entries.append(SuiteEntry(name, words[1:], ranks, timeout, where))
    return entries


def load_suite(spec):
    def include(sub, where, stack):
        here = os.path.dirname(os.path.abspath(stack[-1])) if stack else None
        try:
            path = find_suite(sub, relative_to=here)
        except UsageError as e:
            raise UsageError(f"{where}: {e}") from None
        real = os.path.realpath(path)
        if real in stack:
            raise UsageError(f"{where}: include cycle through {path}")
        return _load(path, stack + (real,))

    def _load(path, stack):
        with open_input(path, encoding="utf-8") as f:
            return parse_suite(f.read(), path, include, stack)

    path = find_suite(spec)
    entries = _load(path, (os.path.realpath(path),))
    if not entries:
        raise UsageError(f"suite {path} lists no benchmarks")
    return path, entries
