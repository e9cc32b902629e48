# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge plot`: its command line (the work is plot.py's)."""
from ..core.common import parse_size_arg
from .plot import cmd_plot


def add_parser(sub):
    pl = sub.add_parser("plot", help="plot results against message size (needs matplotlib)",
                        description="One panel per benchmark, one line per set (the median, "
                        "with its 95% CI as a band), log axes. Sets as for compare.")
    pl.add_argument("files", nargs="+", metavar="FILE|LABEL")
    pl.add_argument("-o", "--output", required=True, help="out.png, out.svg or out.pdf")
    pl.add_argument("--title")
    pl.add_argument("--dpi", type=int, default=100)
    pl.add_argument("--against", choices=("size", "ranks"), default="size",
                    help="x axis: message size (default), or the rank count of a "
                    "--ranks-sweep (one line per collective, one panel per set and size)")
    pl.add_argument("--size", type=parse_size_arg, default=None,
                    help="--against ranks: only this message size (default every size)")
    pl.add_argument("--timeline", action="store_true",
                    help="FILE is a samples file (mpigauge_NAME --samples FILE): every timed "
                    "sample against its start (warm-up, spikes, regime switches)")
    pl.set_defaults(func=cmd_plot)
