# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge dashboard`: its command line (the work is dashboard.py's)."""
import os

from ..core.common import EXIT_OK, UsageError
from .dashboard import build, write_site
from .history import History, default_db


def cmd_dashboard(a):
    from ..verdict.compare import parse_threshold
    threshold = parse_threshold(a.threshold)
    if not 0 < a.alpha < 1:
        raise UsageError("--alpha must be between 0 and 1")
    db = a.db or default_db()
    inside = os.path.realpath(db).startswith(os.path.realpath(a.output) + os.sep)
    if inside:
        raise UsageError(f"-o {a.output}: holds the history database {db}, and the folder is "
                         "replaced whole: choose another folder for the site")
    hist = History(db)
    try:
        site = build(hist, threshold, a.alpha, a.title or "mpigauge history", a.by)
    finally:
        hist.close()
    write_site(site, a.output)
    print(f"mpigauge dashboard: {len(site)} pages in {a.output}")
    return EXIT_OK


def add_parser(sub):
    d = sub.add_parser("dashboard", help="a static site of a history: trends, regimes, "
                       "regressions, provenance",
                       description="One page per benchmark family with the trend of each "
                       "benchmark and size over the tags of a history (median and 95% CI of "
                       "the launches, each launch, regimes, the verdict against the previous "
                       "tag), an overview with the last tag's regressions, and the launches' "
                       "provenance. Static files: open index.html, no server.")
    d.add_argument("--db", help="the history database (default as for mpigauge history)")
    d.add_argument("-o", "--output", required=True, help="the site's folder (made or replaced "
                   "whole; a folder that is not a dashboard is never replaced)")
    d.add_argument("--title")
    d.add_argument("--by", choices=("tag", "date"), default="tag",
                   help="the x axis: the tags in the order they were added (default), or by "
                   "their run dates, labelled with the date")
    d.add_argument("--threshold", default="5%", help="practical significance (default 5%%)")
    d.add_argument("--alpha", type=float, default=0.05)
    d.set_defaults(func=cmd_dashboard)
