# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge selftest`: its command line (the work is selftest.py's)."""
from ..verdict.options import add_verdict_options
from .selftest import cmd_selftest


def add_parser(sub):
    s = sub.add_parser("selftest", help="false-alarm and detection rates of compare on this machine",
                       description=__doc__.split("\n\n")[0])
    s.add_argument("--bindir", help="the build tree (or folder of programs) to test; its "
                   "bench/libmgslow.so is used unless --slowlib is given")
    s.add_argument("--slowlib", help="path of libmgslow.so")
    s.add_argument("--trials", type=int, default=20)
    s.add_argument("--rounds", type=int, default=20, help="rounds per trial (default 20)")
    s.add_argument("--interleave", choices=("turns", "launches"), default="turns",
                   help="how run interleaves the configurations (default turns)")
    s.add_argument("--turn-slice", type=float, default=0.005, metavar="SECONDS",
                   help="turns: run's --turn-slice (default 0.005)")
    s.add_argument("--effects", default="10,3", help="injected slowdowns in %% (default 10,3)")
    s.add_argument("--latency-sizes", default="8,512,8K,64K,1M")
    s.add_argument("--bw-sizes", default="8,512,8K,64K,1M")
    add_verdict_options(s)
    s.add_argument("-o", "--output", required=True, help="folder for the trials and selftest.json")
    s.add_argument("--analyse", action="store_true", help="only analyse the trials in -o")
    s.add_argument("args", nargs="*", help="-- ARGS for every benchmark "
                   "(default --time-budget 0.2)")
    s.set_defaults(func=cmd_selftest)
