# SPDX-License-Identifier: BSD-3-Clause
"""Self-consistent performance guidelines as verdicts (`mpigauge
guidelines`, doc/guidelines.md): the results of mpigauge_guidelines, whose
launches measure a collective and its mock-up at every size, judged pair by
pair of the same launch with compare's paired statistics and error control;
and monotony (a collective no slower at a size than at the next larger
one), from the same launches."""
import json
import math
from collections import OrderedDict
from typing import NamedTuple

from ..core.common import UsageError
from ..verdict.verdicts import decide, paired_row
from ..data.cvars import digest_of
from ..data.results import build_set, config_labels, read_records
from ..core.stats import adjust_pvalues, median

HOLDS, VIOLATED, UNCLEAR = "holds", "violated", "unclear"
# compare's verdict of the collective (new) against its mock-up (base)
VERDICT = {"faster": HOLDS, "same": HOLDS, "slightly faster": HOLDS,
           "slightly slower": HOLDS, "slower": VIOLATED}


class Check(NamedTuple):
    """One guideline (or monotony step) at one rank count and size."""
    config: str
    rule: str          # the rule's name, or "monotony"
    says: str          # "Allreduce(n) <= Reduce(n) + Bcast(n)", or "Bcast(64) <= Bcast(128)"
    nranks: int
    size: int
    collective_us: float
    mockup_us: float   # monotony: the next larger size's median
    ratio: float       # collective over mock-up, paired by launch (Hodges-Lehmann)
    ci: tuple
    p: float
    pairs: int
    verdict: str       # holds, violated, unclear
    detail: str        # compare's verdict, or why unclear
    cvars: tuple = ()  # a violation's library settings that choose the algorithm
    library: str = ""  # the MPI library the launches ran

    def as_dict(self):
        d = self._asdict()
        d["ci"] = list(self.ci)
        d["cvars"] = dict(self.cvars)
        return d


def _sets(path):
    """(label, ResultSet) per configuration of a results file (one unnamed
    one for a run without configurations)."""
    recs, _ = read_records(path)
    labels = config_labels(recs)
    if not labels:
        return [("", build_set(recs, path, None, "line"))]
    return [(lb, build_set(recs, path, lb, "line", lb, all_configs=False)) for lb in labels]


def _collective_of(says):
    """'Allreduce' of 'Allreduce(n) <= ...'."""
    return says.split("(", 1)[0]


def _algorithm_cvars(launch, collective, tables):
    """The settings of the run that choose the collective's algorithm: Open
    MPI's coll_tuned_<op>_algorithm and use_dynamic_rules, MPICH's
    MPIR_CVAR_<OP>_INTRA_ALGORITHM, Intel MPI's I_MPI_ADJUST_<OP>."""
    op = collective.lower()
    tab = tables.get(digest_of(launch.run)) or {}
    out = []
    for name, value in sorted(tab.items()):
        low = name.lower()
        if low in (f"coll_tuned_{op}_algorithm", "coll_tuned_use_dynamic_rules",
                   f"mpir_cvar_{op}_intra_algorithm", f"i_mpi_adjust_{op}"):
            out.append((name, value))
    env = launch.run.get("env") if isinstance(launch.run.get("env"), dict) else {}
    for name in sorted(env):
        if name.lower() in (f"i_mpi_adjust_{op}", f"ompi_mca_coll_tuned_{op}_algorithm",
                            f"mpir_cvar_{op}_intra_algorithm"):
            out.append((name, env[name]))
    return tuple(out)


def _sides(rs):
    """(rule, says, nranks, size) -> {"collective": items, "mockup": items},
    items as compare's (launch, result) lists (the set's own series: a
    result without a usable median or failing validation is left out)."""
    out = OrderedDict()
    for key, items in rs.series().items():
        side = key.variant.partition("=")[2]
        for la, r in items:
            if la.run.get("rule"):
                k = (la.run["rule"], la.run.get("guideline"), key.nranks, key.size)
                out.setdefault(k, {"collective": [], "mockup": []}).setdefault(
                    side, []).append((la, r))
    return out


def _row(config, rule, says, nranks, size, coll, mock, alpha, threshold):
    row = paired_row(mock, coll, alpha, threshold, 1.0 - alpha, same_launch=True)
    row.unit = "us"
    return row, dict(config=config, rule=rule, says=says, nranks=nranks, size=size,
                     collective_us=median([r["median"] for _, r in coll]),
                     mockup_us=median([r["median"] for _, r in mock]))


def checks(path, threshold=0.05, alpha=0.05, control="bh"):
    """Every check of a results file, all configurations, with verdicts:
    one family of tests per configuration (error control over its
    guidelines, rank counts, sizes and monotony steps)."""
    out = []
    for label, rs in _sets(path):
        sides = _sides(rs)
        if not sides:
            raise UsageError(f"{path}: no results of mpigauge_guidelines"
                             + (f" for configuration {label!r}" if label else ""))
        made = []
        for (rule, says, n, size), s in sides.items():
            if s["collective"] and s["mockup"]:
                made.append(_row(label, rule, says, n, size, s["collective"], s["mockup"],
                                 alpha, threshold))
        made += _monotony(label, sides, alpha, threshold)
        adj = adjust_pvalues([r.p for r, _ in made], control)
        for (row, info), pa in zip(made, adj):
            row.p_adjusted = pa
            decide(row, threshold, alpha)
            v = VERDICT.get(row.verdict, UNCLEAR)
            cv = ()
            if v == VIOLATED:
                la = (sides.get((info["rule"], info["says"], info["nranks"], info["size"]))
                      or {}).get("collective") or [(rs.launches[0], None)]
                cv = _algorithm_cvars(la[0][0], _collective_of(info["says"]), rs.cvar_tables)
            detail = row.verdict if v != UNCLEAR else (row.note or row.verdict)
            out.append(Check(ratio=row.ratio, ci=tuple(row.ci), p=row.p_decisive(),
                             pairs=row.pairs, verdict=v, detail=detail, cvars=cv,
                             library=rs.launches[0].run.get("mpi_library") or "", **info))
    return out


def _monotony(label, sides, alpha, threshold):
    """A collective's time at a size against the next larger size, paired by
    launch: each collective once per rank count (the first rule that
    measures it)."""
    seen, rows = {}, []
    for (rule, says, n, size), s in sides.items():
        coll = _collective_of(says)
        if seen.setdefault((coll, n), rule) != rule or not s["collective"]:
            continue
        rows.append((rule, coll, n, size, s["collective"]))
    by = OrderedDict()
    for rule, coll, n, size, items in rows:
        by.setdefault((coll, n), []).append((size, items))
    out = []
    for (coll, n), series in by.items():
        series.sort(key=lambda x: x[0])
        for (s0, small), (s1, large) in zip(series, series[1:]):
            if s0 == 0:
                continue
            out.append(_row(label, "monotony", f"{coll}({s0}) <= {coll}({s1})", n, s0, small,
                            large, alpha, threshold))
    return out


def counts(cs):
    c = OrderedDict((v, 0) for v in (HOLDS, VIOLATED, UNCLEAR))
    for x in cs:
        c[x.verdict] += 1
    return c


def _size(b):
    for unit, div in (("M", 1 << 20), ("K", 1 << 10)):
        if b >= div and b % div == 0:
            return f"{b // div}{unit}"
    return str(b)


def render_text(cs, threshold, alpha, show="violated"):
    """The report: per configuration a summary line per rank count, then the
    violations (every check with show="all"), 80 columns."""
    lines = []
    for label in OrderedDict((c.config, None) for c in cs):
        mine = [c for c in cs if c.config == label]
        lines.append(f"{label or 'guidelines'}: {len(mine)} checks, threshold "
                     f"{threshold * 100:g}%, alpha {alpha:g} (Benjamini-Hochberg)")
        for n in sorted({c.nranks for c in mine}):
            k = counts([c for c in mine if c.nranks == n])
            lines.append(f"  {n} ranks: {k[HOLDS]} hold, {k[VIOLATED]} violated, "
                         f"{k[UNCLEAR]} unclear")
        shown = [c for c in mine if show == "all" or c.verdict == VIOLATED]
        if shown:
            lines.append(f"  {'guideline':<40} {'P':>2} {'n':>5} {'ratio':>5} "
                         f"{'95% CI':>11} verdict")
        for c in shown:
            ci = (f"{c.ci[0]:.2f}-{c.ci[1]:.2f}" if not math.isnan(c.ci[0]) else "-")
            lines.append(f"  {c.says[:40]:<40} {c.nranks:>2} {_size(c.size):>5} "
                         f"{c.ratio:>5.2f} {ci:>11} {c.verdict}")
            if c.verdict == VIOLATED:
                lines.append(f"    {c.collective_us:.3g} us against {c.mockup_us:.3g} us "
                             f"({(c.ratio - 1) * 100:+.0f}%)"
                             + ("; " + ", ".join(f"{k}={v}" for k, v in c.cvars)
                                if c.cvars else ""))
    return "\n".join(lines) + "\n"


def render_json(cs):
    return "".join(json.dumps(c.as_dict(), sort_keys=True) + "\n" for c in cs)
