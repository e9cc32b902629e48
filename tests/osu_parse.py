#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The parsers OSU pipelines use, applied alike to OSU's own output and to
mpigauge's under the OSU names (tests/osu.sh):

* ReFrame's stock OSU check (hpctestlib's osu_benchmark): sanity
  `^SIZE.*Pass`, figure `^SIZE\\s+(\\S+)`, both with re.MULTILINE;
* the awk-style table reader of site scripts: every line that is neither
  empty nor a `#` comment is `SIZE FIGURE [MORE...]`;
* the title: a comment line `# OSU MPI ... Test`.

  osu_parse.py compare OSU_FILE MPIGAUGE_FILE SIZE
      both outputs pass the same checks and have the same sizes; prints
      the figures of SIZE
"""
import re
import sys


def reframe_sanity(text, size):
    """ReFrame's sanity function: a line starting with SIZE with Pass on it."""
    return re.search(rf"^{size}.*Pass", text, re.MULTILINE) is not None


def reframe_figure(text, size):
    """ReFrame's performance function (extractsingle, the first match)."""
    found = re.findall(rf"^{size}\s+(\S+)", text, re.MULTILINE)
    if not found:
        raise ValueError(f"no line starting with {size}")
    return float(found[0])


def rows(text):
    """[(size, figure, rest)] of the data lines, as awk '!/^#/' reads them."""
    out = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        f = line.split()
        out.append((int(f[0]), float(f[1]), f[2:]))
    return out


def title(text):
    """OSU's title line, without a version or what follows the test's name."""
    for line in text.splitlines():
        m = re.match(r"^# (OSU MPI.*? Test)\b", line)
        if m:
            return m.group(1)
    return None


def check(text, size, where):
    """Every check an OSU pipeline makes; the figure of SIZE."""
    problems = []
    if not reframe_sanity(text, size):
        problems.append(f"{where}: ReFrame's sanity ^{size}.*Pass finds nothing")
    try:
        fig = reframe_figure(text, size)
        if not fig > 0:
            problems.append(f"{where}: figure {fig} at {size}")
    except ValueError as e:
        problems.append(f"{where}: {e}")
        fig = None
    r = rows(text)
    if not r or any(rest[-1:] != ["Pass"] for _, _, rest in r):
        problems.append(f"{where}: not every row ends with Pass: {r}")
    if title(text) is None:
        problems.append(f"{where}: no '# OSU MPI ... Test' title")
    return fig, problems


def compare(osu_text, ours_text, size):
    """0 when both pass the checks with the same sizes and title; messages."""
    f_osu, p1 = check(osu_text, size, "OSU")
    f_ours, p2 = check(ours_text, size, "mpigauge")
    problems = p1 + p2
    s_osu = [s for s, _, _ in rows(osu_text)]
    s_ours = [s for s, _, _ in rows(ours_text)]
    if s_osu != s_ours:
        problems.append(f"sizes differ: OSU {s_osu}, mpigauge {s_ours}")
    if title(osu_text) != title(ours_text):
        problems.append(f"titles differ: {title(osu_text)!r} and {title(ours_text)!r}")
    return f_osu, f_ours, problems


def main(argv):
    if len(argv) != 5 or argv[1] != "compare":
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[2], encoding="utf-8") as a, open(argv[3], encoding="utf-8") as b:
        f_osu, f_ours, problems = compare(a.read(), b.read(), int(argv[4]))
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"size {argv[4]}: OSU {f_osu}, mpigauge {f_ours}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
