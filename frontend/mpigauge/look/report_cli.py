# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge report`: its command line (the work is report.py's)."""
from .ranks import parse_spec
from .report import cmd_report


def add_parser(sub):
    rp = sub.add_parser("report", help="one self-contained HTML page for results",
                        description="Sessions, launch status, noise sentinels, provenance, "
                        "result tables and plots (embedded SVG); with several sets also the "
                        "comparison of each against the first. Sets as for compare.")
    rp.add_argument("files", nargs="+", metavar="FILE|LABEL")
    rp.add_argument("-o", "--output", required=True, help="report.html")
    rp.add_argument("--title")
    rp.add_argument("--threshold", default="5%")
    rp.add_argument("--no-plot", action="store_true")
    rp.add_argument("--summary", action="store_true",
                    help="also print each set's headline figures (a time at the smallest "
                    "message, a rate at its peak, with the 95%% CI) to standard output")
    rp.add_argument("--ranks", action="append", metavar="BENCH:SIZE", type=parse_spec,
                    help="every rank of that row (results run with --per-rank): a strip per "
                    "launch, hosts coloured, the slowest rank and host named (repeatable)")
    rp.add_argument("--samples", action="append", metavar="FILE",
                    help="a samples file (mpigauge_NAME --samples FILE): its timeline, and a "
                    "periodic disturbance with its period (repeatable)")
    rp.set_defaults(func=cmd_report)
