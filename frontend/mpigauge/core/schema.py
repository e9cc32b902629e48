# SPDX-License-Identifier: BSD-3-Clause
"""What the front-end needs of each record it reads, checked on load: a
record whose fields have the wrong JSON type is named (file and line) and
left out, so that no input ends in a traceback. Only the fields the
front-end uses are checked; others pass through untouched (doc/output.md,
doc/compare.md)."""
import math

STR, INT, NUM, BOOL, LIST, DICT = "string", "integer", "number", "boolean", "list", "object"
MAX_SIZE = 1 << 62      # bytes: beyond any message an MPI program sends


def _finite(v):
    """A number a float can hold (an integer of 400 digits is not one)."""
    if isinstance(v, int):
        return -1.7976931348623157e308 <= v <= 1.7976931348623157e308
    return math.isfinite(v)


def _is(v, kind):
    if kind == STR:
        return isinstance(v, str)
    if kind == INT:
        return isinstance(v, int) and not isinstance(v, bool)
    if kind == NUM:
        return isinstance(v, (int, float)) and not isinstance(v, bool) and not \
            (isinstance(v, float) and math.isnan(v))
    if kind == BOOL:
        return isinstance(v, bool)
    if kind == LIST:
        return isinstance(v, list)
    return isinstance(v, dict)


# field -> kind; a field may be absent or null unless listed in REQUIRED
FIELDS = {
    "session": {"session_id": STR, "configs": LIST, "order": LIST, "seed": INT, "suite": STR},
    "session_end": {"sequential": DICT, "counts": DICT},
    "launch": {"launch_id": STR, "benchmark": STR, "config": STR, "round": INT, "source": STR,
               "status": STR, "message": STR, "command": LIST, "env": DICT, "position": INT,
               "stderr_tail": STR, "date_utc": STR},
    "run": {"benchmark": STR, "nranks": INT, "nnodes": INT, "hosts": LIST, "bindings": LIST,
            "options": DICT, "launch_id": STR, "config": STR, "round": INT, "env": DICT,
            "command_line": LIST, "mpi_library": STR, "mpi_library_version": STR,
            "date_utc": STR, "mpigauge_version": STR, "family": STR, "cvars": DICT,
            "osu": DICT, "cpu_model": STR, "kernel": STR},
    "cvars": {"digest": STR, "mpi_library": STR, "fields": LIST, "cvars": LIST},
    "result": {"benchmark": STR, "size_bytes": INT, "unit": STR, "median": NUM, "variant": STR,
               "validation": STR, "ci95_low": NUM, "ci95_high": NUM, "p99": NUM,
               "launch_id": STR},
    "sentinel": {"phase": STR, "probe_latency_us": NUM, "compute_rate_min": NUM, "nodes": LIST,
                 "launch_id": STR},
}
REQUIRED = {"run": ("benchmark",), "cvars": ("digest", "cvars"), "result": ("size_bytes", "unit", "median"),
            "sentinel": ("phase",)}
NODE_FIELDS = {"host": STR, "load1": NUM, "ctxt": INT, "steal_jiffies": INT}


def problem(rec):
    """None when the record is usable, else what is wrong with it."""
    t = rec.get("type")
    if not isinstance(t, str):
        return "record without a type"
    spec = FIELDS.get(t)
    if spec is None:
        return None                 # a record type the front-end does not read
    for k in REQUIRED.get(t, ()):
        if rec.get(k) is None:
            return f"{t} record without {k}"
    for k, kind in spec.items():
        v = rec.get(k)
        if v is not None and not _is(v, kind):
            return f"{t} record: {k} is not a {kind}"
        if v is not None and kind == NUM and not _finite(v):
            return f"{t} record: {k} is not a finite number"
    if t == "result" and not 0 <= rec["size_bytes"] <= MAX_SIZE:
        return "result record: size_bytes is not a message size (0 to 2^62)"
    opts = rec.get("options")
    if t == "run" and opts is not None:
        if not _is(opts.get("benchmark", {}), DICT) or not _is(opts.get("sizes_bytes", []), LIST):
            return "run record: options.benchmark or options.sizes_bytes has the wrong type"
    if t in ("run",) and not all(_is(x, STR) for x in (rec.get("hosts") or []) +
                                 (rec.get("bindings") or []) + (rec.get("command_line") or [])):
        return "run record: hosts, bindings and command_line hold strings"
    if t == "sentinel":
        for nd in rec.get("nodes") or []:
            if not _is(nd, DICT) or any(nd.get(k) is not None and not _is(nd[k], kind)
                                        for k, kind in NODE_FIELDS.items()):
                return "sentinel record: a node state has the wrong type"
    if t == "session_end" and rec.get("sequential") is not None and \
            not _is(rec["sequential"].get("looks", []), LIST):
        return "session_end record: sequential.looks is not a list"
    if t == "session":
        for c in rec.get("configs") or []:
            if not _is(c, DICT) or not _is(c.get("label"), STR):
                return "session record: a configuration without a label"
    return None


def mismatch(obj, spec, required=()):
    """What is wrong with an object read from a file against spec (field ->
    kind; a field not in `required` may be absent or null), or None. A
    number must be finite."""
    if not isinstance(obj, dict):
        return "not an object"
    for k in required:
        if obj.get(k) is None:
            return f"no {k}"
    for k, kind in spec.items():
        v = obj.get(k)
        if v is None:
            continue
        if not _is(v, kind):
            return f"{k} is not a{'n' if kind[0] in 'aeiou' else ''} {kind}"
        if kind == NUM and not _finite(v):
            return f"{k} is not a finite number"
    return None
