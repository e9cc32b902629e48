# SPDX-License-Identifier: BSD-3-Clause
"""What a run says while it runs (doc/compare.md, "Progress"): a line per
launch on standard error, or with -q on a terminal one line rewritten after
each launch; the time left from the durations so far."""
import sys

from ..core.common import fmt_duration
from .outcome import error_lines


def show(quiet, i, total, it, rnd, rounds, res, elapsed, eta):
    lab = f" [{it.config.label}]" if it.config.label is not None else ""
    line = (f"[{i:{len(str(total))}d}/{total}] {it.entry.name}{lab} (round {rnd}/{rounds}, "
            f"{it.n} ranks) {res['status']}" + (f": {res['message']}" if res["message"] else "")
            + f" in {res['duration_s']:.1f} s | elapsed {fmt_duration(elapsed)}"
            f" | ETA {fmt_duration(eta)}")
    if not quiet:
        print(line, file=sys.stderr, flush=True)
        if res["status"] != "ok":
            for s in error_lines(res["stderr"]):
                print(f"    | {s}", file=sys.stderr)
    elif sys.stderr.isatty():
        # quiet on a terminal (a series' step): one line, rewritten, gone at the end
        end = "\r\x1b[K" if i == total else ""
        sys.stderr.write(f"\r\x1b[K  launch {i} of {total}, round {rnd}/{rounds}, "
                         f"{it.entry.name}{lab}, {fmt_duration(eta)} left" + end)
        sys.stderr.flush()


def eta(rest, durations, elapsed, done, group):
    """Seconds left: each item's mean so far (a group's launches run at once)."""
    guess = sum((sum(durations[(l2, c2)]) / len(durations[(l2, c2)]))
                if (l2, c2) in durations else elapsed / done for _, l2, c2 in rest)
    return guess / max(1, group)
