# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge best`: its command line (the work is best.py's)."""
from ..verdict.options import add_verdict_options
from .best import cmd_best


def add_parser(sub):
    b = sub.add_parser("best", help="best configuration per benchmark and size, and its ties",
                       description="For an interleaved run over configurations (a knob's "
                       "values): per benchmark and size the best configuration and those not "
                       "distinguishable from it.")
    b.add_argument("files", nargs="+", metavar="FILE|LABEL")
    add_verdict_options(b)
    b.add_argument("--format", choices=("text", "json"), default="text")
    b.add_argument("--export", nargs=2, metavar=("KIND", "FILE"),
                   help="write a tuning file of the best algorithms: ompi-rules (Open MPI "
                   "coll_tuned dynamic rules) or mpich-json (MPICH collective selection); "
                   "doc/tuning.md")
    b.add_argument("--significant-only", action="store_true",
                   help="--export: name an algorithm only where the sweep found it significantly "
                   "better than the library's own choice (default: wherever its median was)")
    b.add_argument("--library", metavar="FILE",
                   help="--export mpich-json: the MPICH library whose own selection the file "
                   "keeps for what was not swept (default: the one the launches loaded)")
    b.set_defaults(func=cmd_best)
