# SPDX-License-Identifier: BSD-3-Clause
"""The application itself as a configuration (`mpigauge app`,
doc/applications.md): a real MPI command run under each configuration,
launch by launch in randomised rounds as a suite's lines are, its figure
read from its output by a named pattern, written as results that
`compare`, `history` and `series` read like a benchmark's."""
import math
import re
from typing import NamedTuple

from ..core.common import UsageError


class Figure(NamedTuple):
    """How a launch's figure is read: a pattern whose first group is the
    number (None: the launch's wall time), its unit, what it is."""
    name: str
    pattern: object
    unit: str
    says: str


_NUM = r"([0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)"
FIGURES = {
    "wall": Figure("wall", None, "s", "the launch's wall time"),
    "lammps": Figure("lammps", re.compile(r"^Loop time of " + _NUM + r" on \d+ procs", re.M),
                     "s", "LAMMPS's Loop time (the run's time steps)"),
    "lammps-comm": Figure("lammps-comm",
                          re.compile(r"^Comm\s*\|\s*[0-9.eE+-]+\s*\|\s*" + _NUM + r"\s*\|", re.M),
                          "s", "LAMMPS's Comm row (avg over ranks) of its MPI task timing"),
    "gromacs": Figure("gromacs", re.compile(r"^\s*Time:\s+[0-9.eE+-]+\s+" + _NUM, re.M), "s",
                      "GROMACS's wall time of the run (its Time: line)"),
    "hpcc-ptrans": Figure("hpcc-ptrans", re.compile(r"^PTRANS_time=" + _NUM, re.M), "s",
                          "hpcc's PTRANS time (hpccoutf.txt's summary)"),
    "nwchem": Figure("nwchem", re.compile(r"^\s*Total times\s+cpu:\s+[0-9.]+s\s+wall:\s+" + _NUM
                                          + "s", re.M), "s", "NWChem's wall time (its Total times line)"),
    "netpipe": Figure("netpipe", re.compile(r"^\s*\d+:\s+\d+ bytes\s+\d+ times -->\s+" + _NUM,
                                            re.M), "Mbps", "NetPIPE's last (largest) rate"),
}


def figure_of(spec):
    """A named figure (FIGURES), or re:PATTERN:UNIT with one group; UsageError."""
    if spec in FIGURES:
        return FIGURES[spec]
    if spec.startswith("re:"):
        pattern, _, unit = spec[3:].rpartition(":")
        try:
            rx = re.compile(pattern, re.M)
        except re.error as e:
            raise UsageError(f"--figure {spec!r}: {e}") from None
        if rx.groups != 1 or not unit or not re.fullmatch(r"[A-Za-z/%]+", unit):
            raise UsageError(f"--figure {spec!r}: re:PATTERN:UNIT, the pattern with one group "
                             "(the number), the unit like s or MB/s")
        return Figure("re", rx, unit, f"the pattern {pattern}")
    raise UsageError(f"--figure {spec!r}: one of {', '.join(FIGURES)}, or re:PATTERN:UNIT")


def read_figure(fig, output, wall_s):
    """(value, None) of a launch's output, or (None, why not). The last match
    counts (LAMMPS prints a Loop time per run command; the last is the run's
    end); a figure must be a finite number above 0."""
    if fig.pattern is None:
        return wall_s, None
    found = fig.pattern.findall(output or "")
    if not found:
        return None, f"no {fig.says} in its output"
    try:
        v = float(found[-1])
    except ValueError:
        return None, f"{found[-1]!r} is not a number"
    if not (math.isfinite(v) and v > 0):
        return None, f"{fig.says} is {found[-1]}, not a figure above 0"
    return v, None


def records(session, seq, config, rnd, name, nranks, value, unit, status, message, argv,
            library):
    """The launch, run and result records of one launch of the application
    (the result only when it gave its figure)."""
    lid = f"{session}-{seq:04d}"
    out = [{"type": "launch", "launch_id": lid, "session_id": session, "benchmark": name,
            "config": config, "round": rnd, "source": "app", "status": status,
            "message": message}]
    if value is None:
        return out
    out.append({"type": "run", "schema": 1, "benchmark": name, "family": "application",
                "description": f"the application {name}: its figure per launch",
                "launch_id": lid, "config": config, "round": rnd, "nranks": nranks,
                "mpi_library": library or "unknown", "command_line": argv,
                "options": {"benchmark": {}, "sizes_bytes": [0]}})
    out.append({"type": "result", "benchmark": name, "size_bytes": 0, "unit": unit,
                "median": value, "launch_id": lid, "samples": 1})
    return out


def ranks_of(argv):
    """The rank count a launch command asks for (-n, -np, --np, -c, --ntasks),
    or None."""
    for i, w in enumerate(argv[:-1]):
        if w in ("-n", "-np", "--np", "-c", "--ntasks", "-N") and argv[i + 1].isdigit():
            return int(argv[i + 1])
        m = re.fullmatch(r"--(?:np|ntasks|n)=(\d+)", w)
        if m:
            return int(m.group(1))
    return None
