# SPDX-License-Identifier: BSD-3-Clause
"""Tuning files from a knob sweep (`mpigauge best --export`): an Open MPI
coll_tuned dynamic-rules file or an MPICH collective-selection JSON file
that gives, per collective, rank count and message size, the algorithm the
sweep measured best (doc/tuning.md).

The choice per benchmark, rank count and size: the configuration with the
best median. Where it forces an algorithm, the file names that algorithm;
where it leaves the choice to the library (the sweep's default, or a
configuration that forces another collective), the file keeps the
library's own choice. Sizes between two measured ones take the smaller
one's choice; rank counts likewise."""
import json
import re

from ..core.common import UsageError, open_input, size_label
from .verdicts import higher_is_better
from ..core.stats import median

# Open MPI (coll_base_functions.h: COLLTYPE_T, 4.1 and 5.0): the collective's
# id in a rules file, the fan-out its forced mode passes (tree or chain), and
# whether the rule's message size is the whole buffer of all ranks (the
# per-rank block times the rank count) or mpigauge's size.
OMPI_COLLS = {
    "allgather": (0, "tree", True),
    "allreduce": (2, "tree", False),
    "alltoall": (3, "tree", True),
    "barrier": (6, "tree", False),
    "bcast": (7, "chain", False),
    "gather": (9, "tree", True),
    "reduce": (11, "chain", False),
    "reduce_scatter_block": (13, "chain", True),
    "scatter": (15, "chain", True),
}
# coll_tuned's algorithm names by number (the MCA enumerations, the same in
# 4.1.4 and 5.0.x; 5.0 adds allgather's 7, sparbit).
OMPI_ALGORITHMS = {
    "allgather": "ignore linear bruck recursive_doubling ring neighbor two_proc sparbit",
    "allreduce": "ignore basic_linear nonoverlapping recursive_doubling ring segmented_ring "
                 "rabenseifner",
    "alltoall": "ignore linear pairwise modified_bruck linear_sync two_proc",
    "barrier": "ignore linear double_ring recursive_doubling bruck two_proc tree",
    "bcast": "ignore basic_linear chain pipeline split_binary_tree binary_tree binomial knomial "
             "scatter_allgather scatter_allgather_ring",
    "gather": "ignore basic_linear binomial linear_sync",
    "reduce": "ignore linear chain pipeline binary binomial in-order_binary rabenseifner",
    "reduce_scatter_block": "ignore basic_linear recursive_doubling recursive_halving butterfly",
    "scatter": "ignore basic_linear binomial linear_nb",
}
# MPICH's selection tree tests avg_msg_size (the bytes of one rank's buffer,
# mpigauge's size) only for these (csel.c); barrier has no size.
MPICH_COLLS = {"allreduce": "Allreduce", "bcast": "Bcast", "reduce": "Reduce",
               "alltoall": "Alltoall", "barrier": "Barrier"}
KINDS = ("ompi-rules", "mpich-json")


def _truthy(v):
    return str(v).strip().lower() in ("1", "true", "yes", "on", "enabled")


def ompi_forced(env, bench):
    """The coll_tuned algorithm number `env` forces for `bench`, or None."""
    if bench not in OMPI_COLLS or not _truthy(env.get("OMPI_MCA_coll_tuned_use_dynamic_rules",
                                                      "0")):
        return None
    v = str(env.get(f"OMPI_MCA_coll_tuned_{bench}_algorithm", "")).strip()
    if not v:
        return None
    names = OMPI_ALGORITHMS[bench].split()
    if v.isascii() and v.isdigit() and len(v) <= 3 and int(v) < len(names):
        n = int(v)
    elif v in names:
        n = names.index(v)
    else:
        raise UsageError(f"OMPI_MCA_coll_tuned_{bench}_algorithm={v[:40]}: not one of coll_tuned's "
                         f"algorithms (0 to {len(names) - 1}: {', '.join(names)})")
    return n or None


def mpich_forced(env, bench):
    """The MPIR algorithm name `env` forces for `bench`, or None."""
    if bench not in MPICH_COLLS:
        return None
    v = str(env.get(f"MPIR_CVAR_{bench.upper()}_INTRA_ALGORITHM", "")).strip().lower()
    if not v or v == "auto":
        return None
    if v.isdigit():
        raise UsageError(f"MPIR_CVAR_{bench.upper()}_INTRA_ALGORITHM={v}: give the algorithm "
                         "by name (the selection file names it)")
    return v


def forced(kind, env, bench):
    return (ompi_forced if kind == "ompi-rules" else mpich_forced)(env, bench)


def ompi_params(env, bench):
    """(fan-in/out, segment size) that coll_tuned's forced mode uses for
    `bench` under `env`: the rule reproduces the swept run."""
    fan = OMPI_COLLS[bench][1]
    pre = "OMPI_MCA_coll_tuned_"
    fanout = env.get(f"{pre}{bench}_algorithm_{fan}_fanout",
                     env.get(f"{pre}init_{fan}_fanout", "4"))
    seg = env.get(f"{pre}{bench}_algorithm_segmentsize", "0")
    try:
        return int(fanout), int(seg)
    except ValueError:
        raise UsageError(f"{bench}: fan-out {fanout!r} or segment size {seg!r} is not a "
                         "number") from None


def config_envs(sets):
    """{label: env} of the configurations, from their launch records."""
    out = {}
    for s in sets:
        for m in s.launch_meta:
            if m.get("config") == s.label and isinstance(m.get("env"), dict):
                out.setdefault(s.label, m["env"])
        out.setdefault(s.label, {})
    return out


def library_file(sets):
    """The MPI library file the launches loaded (their mpi_install)."""
    for s in sets:
        for m in s.launch_meta:
            f = ((m.get("mpi_install") or {}).get("library") or {}).get("file")
            if f:
                return f
    return None


def _median(items):
    """The median of a series' launch medians."""
    return median([r["median"] for _, r in items])


def choices(kind, sets, rows, envs, verdict, significant_only=False):
    """{(bench, nranks): [(size, algorithm or None, label, own, decided)]}
    from best_rows' rows: per size the forced algorithm with the best median,
    or None (the library's choice) where the configurations that leave the
    choice to the library (the sweep's default, or configurations that
    force another collective; pooled: the median over all their launches)
    did better. own: that pooled median over the best algorithm's;
    decided: whether the algorithm and the first of those configurations
    differ significantly (paired by round, one adjustment over these
    comparisons: verdict([(forced set, own set, key)]) -> [decided]).
    significant_only: an algorithm only where it is significantly better;
    elsewhere the library's own choice."""
    supported = OMPI_COLLS if kind == "ompi-rules" else MPICH_COLLS
    series = [(st, st.series()) for st in sets]  # built once, not per row
    out, pending = {}, []
    for row in rows:
        k = row["key"]
        if k.bench not in supported or k.variant:
            continue
        pick = max if higher_is_better(row["unit"]) else min
        mine, own, own_items = [], [], []
        for st, ser in series:
            items = ser.get(k)
            if not items:
                continue
            if forced(kind, envs.get(st.label, {}), k.bench) is None:
                own.append(st)
                own_items += items
            else:
                mine.append((st, _median(items)))
        if not mine:
            continue
        best = pick(mine, key=lambda c: c[1])
        entry = [k.size if k.size is not None else 0,
                 forced(kind, envs[best[0].label], k.bench), best[0].label, None, False]
        if own:
            own_med = _median(own_items)
            entry[3] = own_med / best[1]
            if pick(best[1], own_med) == own_med and own_med != best[1]:
                entry[1:3] = None, own[0].label + (f" and {len(own) - 1} more" if len(own) > 1
                                                   else "")
            pending.append((entry, best[0], own[0], k))
        out.setdefault((k.bench, k.nranks), []).append(entry)
    for (entry, _, own, _), decided in zip(pending, verdict(
            [(b, o, k) for _, b, o, k in pending])):
        entry[4] = decided
        if significant_only and entry[1] is not None and not decided:
            entry[1:3] = None, own.label  # within the noise: the library's own choice
    for v in out.values():
        v.sort(key=lambda t: t[0])
    return {k: [tuple(e) for e in v] for k, v in out.items()}


def ranges(entries):
    """[(from_size, algorithm, [entries])]: runs of one choice, the first
    from 0."""
    out = []
    for e in entries:
        if out and out[-1][1] == e[1]:
            out[-1][2].append(e)
        else:
            out.append([e[0] if out else 0, e[1], [e]])
    return [tuple(r) for r in out]


def _why(run):
    """What the sweep measured over one range: its sizes, the configuration
    that was best, and the library's own choice against the best algorithm
    (own / algorithm; significant or within the noise)."""
    sizes = [e[0] for e in run]
    span = size_label(sizes[0]) + ("" if len(sizes) == 1 else f"-{size_label(sizes[-1])}")
    labels = ", ".join(sorted({e[2] for e in run}))
    own = [e[3] for e in run if e[3] is not None]
    if not own:
        return f"{span}: best {labels} (the library's own choice not measured)"
    rng = f"{min(own):.2f}" + ("" if min(own) == max(own) else f"-{max(own):.2f}")
    sig = sum(1 for e in run if e[4])
    how = ("significant" if sig == len(run) else "within the noise" if not sig
           else f"significant at {sig} of {len(run)} sizes")
    who = "the library's own choice" if run[0][1] is None else "best"
    return f"{span}: {who} ({labels}); own choice / best algorithm {rng}, {how}"


def ompi_rules_text(ch, envs_of_alg, source):
    """The rules file text. envs_of_alg(bench, alg) -> the env of a
    configuration that forced it."""
    colls = {}
    for (bench, nranks), entries in ch.items():
        colls.setdefault(bench, {})[nranks] = ranges(entries)
    lines = ["# Open MPI coll_tuned dynamic rules, written by mpigauge best --export ompi-rules",
             f"# from {source}",
             "# load with OMPI_MCA_coll_tuned_use_dynamic_rules=1 and",
             "# OMPI_MCA_coll_tuned_dynamic_rules_filename=THIS_FILE (doc/tuning.md)",
             "# message size: bytes of one rank's buffer (allreduce, bcast, reduce, barrier) or",
             "# of all ranks' blocks (allgather, alltoall, gather, scatter, reduce_scatter_block)",
             "# algorithm 0: the library's own choice",
             f"{len(colls)}  # collectives"]
    for bench in sorted(colls, key=lambda b: OMPI_COLLS[b][0]):
        cid, _, times_p = OMPI_COLLS[bench]
        lines += [f"{cid}  # {bench}", f"{len(colls[bench])}  # rank counts"]
        names = OMPI_ALGORITHMS[bench].split()
        for nranks in sorted(colls[bench]):
            rs = colls[bench][nranks]
            lines += [f"{nranks}  # ranks", f"{len(rs)}  # message sizes"]
            for start, alg, run in rs:
                msg = start * nranks if times_p else start
                if alg is None:
                    fan, seg, name = 0, 0, "the library's own choice"
                else:
                    fan, seg = ompi_params(envs_of_alg(bench, alg), bench)
                    name = names[alg] if alg < len(names) else str(alg)
                lines.append(f"{msg} {alg or 0} {fan} {seg}  # {name}; {_why(run)}")
    return "\n".join(lines) + "\n"


def mpich_default_tree(path):
    """MPICH's own MPIR-level selection tree, from the library file that
    holds it (compiled in as a JSON string): the tree whose containers are
    MPIR_ algorithms."""
    try:
        with open_input(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror} (give the MPICH library with --library)") from None
    for chunk in data.split(b"\x00"):
        if b'"collective=bcast"' not in chunk or b"algorithm=MPIR_Bcast_intra_" not in chunk:
            continue
        text = chunk.decode("latin-1")
        try:
            tree = json.loads(text[text.index("{"):])
        except ValueError:
            continue
        if isinstance(tree, dict) and "collective=allreduce" in tree:
            return tree, data
    raise UsageError(f"{path}: no MPICH collective-selection tree in it (is it MPICH's "
                     "libmpi/libmpich? Intel MPI has none)")


def mpich_container(bench, alg, data):
    """The container key for algorithm `alg` of `bench`, checked against the
    names the library knows."""
    name = MPICH_COLLS[bench]
    for key in (f"algorithm=MPIR_{name}_intra_{alg}", f"algorithm=MPIR_{name}_allcomm_{alg}"):
        if key.encode() in data:
            return key
    raise UsageError(f"MPICH's {bench} algorithm {alg!r}: this library's selection file has "
                     f"no MPIR_{name}_intra_{alg}")


def _mpich_sizes(bench, rs, own, data):
    """The avg_msg_size levels of one rank count."""
    if bench == "barrier":
        start, alg, _ = rs[-1]
        return dict(own) if alg is None else {mpich_container(bench, alg, data): {}}
    node = {}
    for i, (start, alg, _) in enumerate(rs):
        key = f"avg_msg_size<{rs[i + 1][0]}" if i + 1 < len(rs) else "avg_msg_size=any"
        node[key] = json.loads(json.dumps(own)) if alg is None \
            else {mpich_container(bench, alg, data): {}}
    return node


def mpich_json_tree(ch, base, data):
    """MPICH's own tree with the swept collectives' intra-communicator
    subtrees replaced."""
    tree = json.loads(json.dumps(base))
    per = {}
    for (bench, nranks), entries in ch.items():
        per.setdefault(bench, {})[nranks] = ranges(entries)
    for bench, by_ranks in per.items():
        top = tree.setdefault(f"collective={bench}", {})
        own = top.get("comm_type=intra", {})
        counts = sorted(by_ranks)
        intra = {}
        for i, nranks in enumerate(counts):
            key = f"comm_size<{counts[i + 1]}" if i + 1 < len(counts) else "comm_size=any"
            intra[key] = _mpich_sizes(bench, by_ranks[nranks], own, data)
        top["comm_type=intra"] = intra
    return tree


def summary_rows(ch, kind):
    """Rows for the text summary: collective, ranks, from size, algorithm."""
    rows = []
    for (bench, nranks) in sorted(ch):
        for start, alg, run in ranges(ch[(bench, nranks)]):
            if alg is None:
                name = "(library's own choice)"
            elif kind == "ompi-rules":
                names = OMPI_ALGORITHMS[bench].split()
                name = f"{alg} {names[alg]}" if alg < len(names) else str(alg)
            else:
                name = alg
            rows.append((bench, nranks, start, name, _why(run)))
    return rows


def load_env(kind, path):
    """The environment that makes a library load tuning file `path`."""
    if kind == "ompi-rules":
        return {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                "OMPI_MCA_coll_tuned_dynamic_rules_filename": path}
    return {"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE": path}


def file_kind(path):
    """ompi-rules or mpich-json, from the file's first non-blank character."""
    try:
        with open_input(path, encoding="utf-8", errors="replace") as f:
            head = f.read(4096)
    except OSError as e:
        raise UsageError(f"tuning={path}: {e.strerror}") from None
    stripped = re.sub(r"(?m)^\s*#.*$", "", head).strip()
    if stripped.startswith("{"):
        return "mpich-json"
    if re.match(r"^\d", stripped):
        return "ompi-rules"
    raise UsageError(f"tuning={path}: neither an Open MPI rules file nor an MPICH JSON file")


def common_env(envs):
    """The variables every configuration sets alike, except those that force
    an algorithm or load a tuning file: what a confirming run keeps."""
    items = None
    for env in envs.values():
        now = set((k, str(v)) for k, v in env.items())
        items = now if items is None else items & now
    skip = re.compile(r"_algorithm$|_ALGORITHM$|use_dynamic_rules|dynamic_rules_filename|"
                      r"TUNING_JSON_FILE")
    return dict(sorted((k, v) for k, v in (items or ()) if not skip.search(k)))
