# SPDX-License-Identifier: BSD-3-Clause
"""The MPI library's control variables (MPI_T cvars) each side of a
comparison ran with, and what differs between two sides: the first of the
explanations `compare`, `report` and `history check` give for a verdict
(doc/compare.md). A run record names its set by digest ("cvars":
{"digest": ...}); the set itself is a cvars record, kept once per digest in
a results file (doc/output.md)."""
import re
from collections import Counter

from ..core.common import REDACTED, env_is_secret, value_has_secret

SHOWN = 12          # differing variables named in a comparison's notes
SAME_LIBRARY = 0.5  # shared names / the smaller set: below it, two libraries' sets


def redact(rec):
    """The cvars record with the project's one secrets rule applied to every
    value (a file written before the programs applied it themselves): a
    copy, or rec itself when nothing is secret."""
    rows = rec.get("cvars")
    if not isinstance(rows, list):
        return rec

    def secret(r):      # as the programs decide (mpi/mpit/mg_mpit.c): a value holding a
        # secret's NAME=..., or a string (type char) under a secret-looking name
        return r[1] != REDACTED and (value_has_secret(r[1]) or (
            env_is_secret(r[0]) and (len(r) < 3 or r[2] in ("char", None))))
    fixed = [[r[0], REDACTED] + r[2:]
             if isinstance(r, list) and len(r) >= 2 and isinstance(r[0], str) and secret(r)
             else r for r in rows]
    return rec if fixed == rows else dict(rec, cvars=fixed)


def table(rec):
    """{name: value} of a cvars record (secrets redacted), or None when it is
    malformed."""
    rows = redact(rec).get("cvars")
    if not isinstance(rows, list):
        return None
    out = {}
    for r in rows:
        if isinstance(r, list) and len(r) >= 2 and isinstance(r[0], str):
            out[r[0]] = r[1] if isinstance(r[1], str) else str(r[1])
    return out


def digest_of(run):
    c = run.get("cvars")
    return c.get("digest") if isinstance(c, dict) and c.get("state") == "read" else None


def side_sets(rs):
    """Counter digest -> launches of the side that ran with it (launches
    whose run record names no set are left out)."""
    return Counter(d for d in (digest_of(la.run) for la in rs.launches) if d is not None)


def diff(a, b):
    """(changed [(name, a, b)], only in a {name: value}, only in b) of two
    tables."""
    changed = [(k, a[k], b[k]) for k in sorted(a.keys() & b.keys()) if a[k] != b[k]]
    only_a = {k: a[k] for k in sorted(a.keys() - b.keys())}
    only_b = {k: b[k] for k in sorted(b.keys() - a.keys())}
    return changed, only_a, only_b


# variables that differ between any two releases and explain no figure: a
# component's version, the paths a build was installed and configured with
BOOKKEEPING = ("_major_version", "_minor_version", "_release_version", "component_path",
               "param_file", "configure_params", "_version")


def bookkeeping(name):
    return any(name.endswith(m) if m.startswith("_") else m in name for m in BOOKKEEPING)


# what the release studies found to move figures (doc/releases.md): the
# protocols' limits (eager, rendezvous, shared-memory cells, thresholds),
# then how a rank waits and progresses (MPICH 5.0.0's yield); named first
# among the differences, in this order, the rest by name
TELLING = (("EAGER", "RNDV", "RENDEZVOUS", "CELL", "THRESH", "MAX_MSG", "LIMIT", "SEND_SIZE",
            "FRAG"),
           ("YIELD", "PROGRESS", "POLL", "SPIN", "ASYNC", "WAIT", "SLEEP"))


def telling(name):
    """The rank of a control variable's name among the differences: 0 a
    protocol limit, 1 waiting and progress, 2 anything else."""
    up = name.upper()
    return next((i for i, words in enumerate(TELLING) if any(w in up for w in words)),
                len(TELLING))


def show_value(v):
    return repr(v) if v == "" or v.strip() != v or " " in v else v


def _lines(changed, only_a, only_b, la, lb, shown):
    """One line per variable; with a limit (shown) the bookkeeping ones are
    counted in one line, not named."""
    skip = 0
    if shown is not None:
        n = len(changed) + len(only_a) + len(only_b)
        changed = [c for c in changed if not bookkeeping(c[0])]
        only_a = {k: v for k, v in only_a.items() if not bookkeeping(k)}
        only_b = {k: v for k, v in only_b.items() if not bookkeeping(k)}
        skip = n - len(changed) - len(only_a) - len(only_b)

    def by(kv):
        return telling(kv[0]), kv[0]
    out = [f"{k} {show_value(x)} -> {show_value(y)}" for k, x, y in sorted(changed, key=by)]
    out += [f"{k} {show_value(v)} only in {la}" for k, v in sorted(only_a.items(), key=by)]
    out += [f"{k} {show_value(v)} only in {lb}" for k, v in sorted(only_b.items(), key=by)]
    if skip:
        out.append(f"{skip} component versions and installation paths differ too")
    if shown is not None and len(out) > shown:
        rest = len(out) - shown
        out = out[:shown] + [f"... and {rest} more (mpigauge cvars lists them all)"]
    return out


# environment variables that set a library (not those of the job: SLURM_, PMIX_)
SETTING_PREFIXES = ("OMPI_MCA_", "MPIR_CVAR_", "UCX_", "FI_", "I_MPI_", "MV2_", "PSM2_")


def _settings(rs):
    """The library settings in the environment of a side's launches, without
    those whose value changes from launch to launch (a launcher's per-job
    values: OMPI_MCA_orte_hnp_uri, OMPI_MCA_ess_base_jobid, ...: never a
    difference between two sides)."""
    vals, n = {}, 0
    for la in rs.launches:
        env = la.run.get("env")
        if not isinstance(env, dict):
            continue
        n += 1
        for k, v in env.items():
            if k.startswith(SETTING_PREFIXES):
                vals.setdefault(k, set()).add(str(v))
    return {k: next(iter(v)) for k, v in vals.items() if len(v) == 1} if n else None


def env_differences(base, new):
    """Lines naming the library settings of the environment that differ
    (MPICH reads a string cvar set there, MPIR_CVAR_CH4_NETMOD, back as its
    default through MPI_T: the environment says what was asked)."""
    a, b = _settings(base), _settings(new)
    if a is None or b is None:
        return []
    head = f"environment ({base.label} -> {new.label}): "
    return [head + f"{k} {show_value(a[k]) if k in a else 'unset'} -> "
            f"{show_value(b[k]) if k in b else 'unset'}"
            for k in sorted(a.keys() | b.keys()) if a.get(k) != b.get(k)]


# how a library was built, as MPI_Get_library_version says it: MPICH's
# "MPICH Device:" and "MPICH configure:" lines, Open MPI's "package:"
_BUILD_LINE = re.compile(r"^[ \t]*([A-Za-z][\w .()/+-]*?(?:device|configure))[ \t]*:[ \t]*(.*\S)",
                         re.I | re.M)
_PACKAGE = re.compile(r"\bpackage:\s*([^,\n]*[^,\s])")
BUILD_SHOWN = 160   # characters of a build line's difference


def library_build(text):
    """{what: value} of how a library was built, from its version text:
    MPICH's device (its first network module is the default one) and
    configure line, Open MPI's package; {} when the text says none of them
    (Intel MPI)."""
    if not isinstance(text, str):
        return {}
    out = {m.group(1).strip(): m.group(2).strip() for m in _BUILD_LINE.finditer(text)}
    m = _PACKAGE.search(text)
    if m:
        out["package"] = m.group(1).strip()
    return out


def _build_change(key, a, b):
    """A configure line's difference is its options that differ, not the
    whole line (Debian's is a screen long)."""
    if key.lower().endswith("configure"):
        ta, tb = a.split(), b.split()
        a = " ".join(t for t in ta if t not in tb) or "(nothing more)"
        b = " ".join(t for t in tb if t not in ta) or "(nothing more)"
    text = f"{key} {a} -> {b}"
    return text if len(text) <= BUILD_SHOWN else text[:BUILD_SHOWN - 3] + "..."


def build_differences(base, new):
    """Lines naming how the two sides' libraries were built differently
    (the build most of a side's launches ran with): between two releases
    the version differs by design, a build's device or configure options
    are a finding (PyPI's MPICH wheels put UCX before libfabric from 4.3.1
    on, and with it the default network module)."""
    def side_build(rs):
        c = Counter(tuple(sorted(library_build(la.run.get("mpi_library_version")).items()))
                    for la in rs.launches)
        return dict(c.most_common(1)[0][0]) if c else {}
    a, b = side_build(base), side_build(new)
    head = f"library build ({base.label} -> {new.label}): "
    return [head + _build_change(k, a[k], b[k]) for k in sorted(a.keys() & b.keys())
            if a[k] != b[k]]


def differences(base, new, shown=SHOWN):
    """Lines saying how the library settings of two sides differ, or [].
    A side that ran with more than one set is said first; two libraries'
    sets (few names in common) are summarised, with the shared names whose
    values differ."""
    tabs = {**base.cvar_tables, **new.cvar_tables}
    sb, sn = side_sets(base), side_sets(new)
    out = []
    for rs, s in ((base, sb), (new, sn)):
        if len(s) > 1:
            (d1, _), (d2, _) = s.most_common(2)
            if d1 in tabs and d2 in tabs:
                ch, o1, o2 = diff(tabs[d1], tabs[d2])
                out.append(f"{rs.label}: launches ran with {len(s)} different sets of control "
                           "variables (MPI_T): " + "; ".join(
                               _lines(ch, o1, o2, d1, d2, 4)))
    if not sb or not sn:
        return out
    db, dn = sb.most_common(1)[0][0], sn.most_common(1)[0][0]
    if db == dn:
        return out
    if db not in tabs or dn not in tabs:
        return out + [f"control variables (MPI_T) differ (digest {db} vs {dn}; the sets "
                      "themselves are not in the files)"]
    a, b = tabs[db], tabs[dn]
    ch, oa, ob = diff(a, b)
    shared = len(a.keys() & b.keys())
    head = f"cvar ({base.label} -> {new.label}): "
    if shared < SAME_LIBRARY * min(len(a), len(b)):
        return out + [f"control variables (MPI_T): two libraries' sets ({len(a)} in "
                      f"{base.label}, {len(b)} in {new.label}, {shared} names in common, "
                      f"{len(ch)} of them with other values)"] + \
            [head + x for x in _lines(ch, {}, {}, base.label, new.label, shown)]
    return out + [head + x for x in _lines(ch, oa, ob, base.label, new.label, shown)]
