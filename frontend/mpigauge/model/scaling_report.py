# SPDX-License-Identifier: BSD-3-Clause
"""The rank-count scaling of a set, and its changes between sets, as text
lines and JSON records (`mpigauge model --scaling`, compare, series;
doc/collectives.md)."""
from ..core.common import size_label
from .scaling import CLASSES, analyse, boundaries, sweeps
from .scaling_compare import compare


def line_name(key):
    extra = f" {key.variant}" if key.variant else ""
    size = size_label(key.size)
    return f"{key.bench} {size}{' B' if size.isdigit() else ''}{extra}"


def _counts(counts):
    """2-8 when every count between is there, else the list."""
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ",".join(str(c) for c in counts)


def _num(v):
    return f"{v:.3g}"


def class_text(sc):
    f = sc.fit
    if f is None:
        return "no class (four counts or more are needed)"
    terms = f"a {_num(f.a)} us" + (f", b {_num(f.b)} us" if dict(CLASSES)[f.cls] else "")
    counts = sc.sweep.counts
    terms += "".join(f", {c:+.3g} us from {counts[i + 1]}" for i, c in zip(f.steps, f.shifts))
    return f"{f.cls} ({terms}; chosen in {sc.support:.0%} of resamples)"


def step_text(s):
    return f"{s.lo}->{s.hi} x{s.ratio:.3g} [{s.ci[0]:.3g}, {s.ci[1]:.3g}]"


def set_lines(label, results):
    """One line per analysed line of a set."""
    out = []
    for sc in results:
        sw = sc.sweep
        launches = len({k for p in sw.counts for k in sw.values[p]})
        steps = ("steps " + ", ".join(step_text(s) for s in sc.steps)) if sc.steps else \
            (sc.note or "no step")
        out.append(f"{line_name(sw.key)} ({label}, {launches} launches, {_counts(sw.counts)} "
                   f"ranks): {class_text(sc)}; {steps}")
    return out


def _fit_doc(sc):
    f = sc.fit
    return None if f is None else {"class": f.cls, "a_us": f.a, "b_us": f.b,
                                   "shifts_us": f.shifts, "support": sc.support}


def set_doc(label, sc):
    k = sc.sweep.key
    return {"type": "scaling", "set": label, "benchmark": k.bench, "size_bytes": k.size,
            "unit": k.unit, "variant": k.variant, "counts": sc.sweep.counts,
            "model": _fit_doc(sc), "level": sc.level, "note": sc.note or None,
            "steps": [{"from": s.lo, "to": s.hi, "ratio": s.ratio, "ci": list(s.ci)}
                      for s in sc.steps]}


def analyse_set(rs, threshold, alpha, seed=1):
    """[Scaling] of every line of a set, intervals at 1 - alpha / its boundaries."""
    sw = sweeps(rs)
    level = 1.0 - alpha / max(1, boundaries(sw))
    return [analyse(s, threshold, level, seed) for s in sw]


def change_lines(blabel, nlabel, compared):
    """Per line of both sides: the steps NEW added or removed, the jumps
    that changed, and the class; one line when nothing changed."""
    out = []
    for ab, an, changes, cls in compared:
        head = f"{line_name(ab.sweep.key)}, {nlabel} against {blabel}"
        says = []
        for c in changes:
            word = {"added": "a step added", "removed": "a step removed",
                    "grew": "the jump grew", "shrank": "the jump shrank"}[c.what]
            if c.route == "jump":
                says.append(f"{word} at {c.lo}->{c.hi} ranks: x{c.ratio:.3g} "
                            f"[{c.ci[0]:.3g}, {c.ci[1]:.3g}] of {blabel}'s jump")
            else:
                b = c.before
                says.append(f"{word} at {c.lo}->{c.hi} ranks: {nlabel} x{b[0] * c.ratio:.3g} "
                            f"[{c.ci[0]:.3g}, {c.ci[1]:.3g}] of {blabel} at {c.hi}, "
                            f"x{b[0]:.3g} [{b[1]:.3g}, {b[2]:.3g}] at {c.lo}")
        if cls == "changed":
            says.append(f"the class changed: {ab.fit.cls} -> {an.fit.cls}")
        if says:
            out.append(f"{head}: " + "; ".join(says))
        else:
            what = (f"the class {ab.fit.cls} in both" if cls == "same" else
                    "the class unclear" if ab.fit and an.fit else "no class fitted")
            out.append(f"{head}: no step added or removed ({len(ab.sweep.counts) - 1} "
                       f"boundaries, {_counts(ab.sweep.counts)} ranks); {what}")
    return out


def change_docs(blabel, nlabel, compared):
    docs = []
    for ab, an, changes, cls in compared:
        k = ab.sweep.key
        docs.append({"type": "scaling_change", "base": blabel, "new": nlabel,
                     "benchmark": k.bench, "size_bytes": k.size, "unit": k.unit,
                     "variant": k.variant, "counts": ab.sweep.counts,
                     "class": {"verdict": cls, "base": _fit_doc(ab), "new": _fit_doc(an)},
                     "changes": [{"what": c.what, "from": c.lo, "to": c.hi, "ratio": c.ratio,
                                  "ci": list(c.ci), "route": c.route,
                                  "before": list(c.before) or None} for c in changes],
                     "level": ab.level})
    return docs


def scaling_lines(base, news, threshold, alpha=0.05):
    """compare's section: [(lines, records)] per NEW with sweeps on both
    sides; [] when there are none."""
    lines, docs = [], []
    for new in news:
        got = compare(base, new, threshold, alpha)
        if got:
            lines += change_lines(base.label, new.label, got)
            docs += change_docs(base.label, new.label, got)
    if not lines:
        return []
    head = (f"rank-count scaling (lines measured at several rank counts; a step is a jump "
            f"beyond {threshold:.0%} of the steepest class, each boundary at alpha "
            f"{1 - docs[0]['level']:.3g}; doc/collectives.md):")
    return [([head] + lines, docs)]
