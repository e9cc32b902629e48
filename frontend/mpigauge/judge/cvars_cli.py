# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge cvars`: the control variables (MPI_T cvars) results ran with,
and every one that differs between sides (doc/mpit.md)."""
import sys

from ..core.common import EXIT_OK
from ..data.cvars import show_value, differences, side_sets
from ..data.results import load_inputs


def cmd_cvars(a):
    """One side: the sets of control variables its launches ran with. Two
    or more: every variable that differs from the first side's set."""
    sets = load_inputs(a.files)
    out = []
    if len(sets) == 1 or a.list:
        for rs in sets:
            counts = side_sets(rs)
            if not counts:
                out.append(f"{rs.label}: no control variables recorded (runs with --no-cvars, "
                           "a library without MPI_T, or an mpigauge before 0.9)")
            for d, n in counts.most_common():
                tab = rs.cvar_tables.get(d)
                size = f"{len(tab)} variables" if tab is not None else "the set is not in the file"
                out.append(f"{rs.label}: set {d}: {size}, {n} launch{'es' if n != 1 else ''}")
                if a.list and tab is not None:
                    out += [f"  {k} = {show_value(v)}" for k, v in tab.items()]
    for new in ([] if a.list else sets[1:]):
        lines = differences(sets[0], new, shown=None)
        out += lines or [f"{sets[0].label} -> {new.label}: the same control variables"]
    sys.stdout.write("\n".join(out) + "\n")
    return EXIT_OK


def add_parser(sub):
    c = sub.add_parser("cvars", help="the MPI library's control variables (MPI_T) of results, "
                       "and what differs between them",
                       description="With one side: the sets of control variables (MPI_T "
                       "cvars) its launches ran with. With more: every variable whose value "
                       "differs from the first side's, and those only one side has. Sides as "
                       "for compare: FILE LABEL LABEL... or FILE FILE....")
    c.add_argument("files", nargs="+", metavar="FILE|LABEL", help="BASE [NEW...]")
    c.add_argument("--list", action="store_true", help="list every variable of each set")
    c.set_defaults(func=cmd_cvars)
