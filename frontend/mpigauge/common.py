"""Shared pieces of the front-end: exit codes, the usage error, installation
paths (set by the `mpigauge` script) and number formatting."""
import math
import os
import sys

# Set by the `mpigauge` script (substituted by make) or left as in the source tree.
PATHS = {"version": None, "bindir": None, "suitesdir": None, "srcsuitesdir": None,
         "script_dir": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}

# Exit codes of the front-end.
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_NO_MATPLOTLIB, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class UsageError(Exception):
    """A problem with the command line or an input file: message, exit 2."""


def configure(**paths):
    """Installation facts from the `mpigauge` script (version, bindir,
    suitesdir, srcsuitesdir, script_dir); values still of the form @x@ are
    ignored."""
    for k, v in paths.items():
        if v and not (v.startswith("@") and v.endswith("@")):
            PATHS[k] = v


def version():
    return PATHS["version"] or "source"


def warn(msg):
    print(f"mpigauge: warning: {msg}", file=sys.stderr)


def size_label(b):
    if not isinstance(b, int):
        return str(b)
    for shift, suffix in ((30, "G"), (20, "M"), (10, "K")):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift}{suffix}"
    return str(b)


def fmt_num(v):
    if v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v))):
        return "n/a"
    a = abs(v)
    if a >= 1000:
        return f"{v:.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    if a >= 0.01:
        return f"{v:.3f}"
    return f"{v:.3g}"


def fmt_p(p):
    if p is None:
        return "n/a"
    return f"{p:.3f}" if p >= 0.001 else "<0.001"

