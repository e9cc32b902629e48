# SPDX-License-Identifier: BSD-3-Clause
"""Renderings of a comparison: text, Markdown, HTML and JSON Lines (the
stable, documented schema of doc/compare.md, golden-tested)."""
import datetime
import html
import json
import math
import re

from ..core.common import fmt_num, fmt_p, size_label, text_table, version
from ..verdict.compare import verdict_counts
from ..verdict.verdicts import DIFFERENCES, SLIGHTLY
from ..data.hostcost import describe as describe_host

COLUMNS = ("benchmark", "size", "unit", "base", "new", "new/base", "95% CI", "p (adj.)",
           "launches", "verdict")
NUMERIC = (1, 3, 4, 5, 7)
JSON_SCHEMA = 1


def more_rounds(r):
    """Rounds to add that would likely decide an unclear series, or None."""
    need = r.rounds_needed
    if r.verdict != "unclear" or not need:
        return None
    return max(1, need - r.used_pairs())


def _verdict_cell(r):
    v = r.verdict
    more = more_rounds(r)
    if more:
        v += f" (~{more} more rounds)" if more <= 1000 else " (> 1000 more rounds)"
    return v


def table_rows(rows):
    out = []
    for r in rows:
        lo, hi = r.ci
        ci = f"[{lo:.3f}, {hi:.3f}]" if not (math.isnan(lo) or math.isnan(hi)) else "n/a"
        cov = r.ci_coverage
        if cov is not None and cov < 0.95 - 1e-9:
            ci += f" ({cov * 100:.0f}%)"
        used = f"{r.pairs} pairs" if r.paired else f"{r.m} vs {r.n}"
        if r.paired and r.dropped:
            used += f" (-{len(r.dropped)})"
        ratio = f"{r.ratio:.3f}" if not math.isnan(r.ratio) else "n/a"
        out.append([r.label, size_label(r.key.size), r.key.unit,
                    fmt_num(r.base_median), fmt_num(r.new_median), ratio,
                    ci, fmt_p(r.p_decisive()), used, _verdict_cell(r)])
    return out


def _regime_text(r):
    parts = []
    for side in ("base", "new"):
        g = r.regimes[side]
        if len(g) > 1:
            parts.append(f"{side} " + " / ".join(f"{fmt_num(v)} x{c}" for v, c in g))
    return "; ".join(parts)


def notes(rows, base, new):
    """Sentences under a table: method notes, regimes, outliers."""
    out = []
    bare = [s.label for s in (base, new)
            if any(la.run.get("imported") and not la.sentinels for la in s.launches)]
    if bare:
        out.append(f"{' and '.join(dict.fromkeys(bare))}: imported, without sentinels: a launch "
                   "outside its side's regime cannot be explained")
    for r in rows:
        if r.note and r.note not in out:
            out.append(r.note)
    for r in rows:
        rt = _regime_text(r)
        if rt:
            n = len(r.dropped)
            d = (f"; {n} pair{'s' if n > 1 else ''} straddled a change and "
                 f"{'are' if n > 1 else 'is'} left out") if n else ""
            out.append(f"{r.label} {size_label(r.key.size)}: launch regimes: {rt}{d}")
        for o in r.outliers:
            out.append(f"{r.label} {size_label(r.key.size)}: outside: {o}")
        if r.host and r.verdict in DIFFERENCES:
            out.append(f"{r.label} {size_label(r.key.size)}: {r.verdict}, the host paid: "
                       + describe_host(r.host))
    return out


def method_line(rows, base, new, threshold, alpha, control):
    paired = any(r.paired for r in rows)
    if rows and all(r.single_value for r in rows):
        return (f"ratio = {new.label} / {base.label}, one value a side without samples "
                f"(imported): no test ran; each ratio is checked against the tolerance "
                f"+-{threshold * 100:g}% (within or beyond tolerance)")
    ctl = {"bh": "Benjamini-Hochberg", "holm": "Holm", "none": "no"}[control]
    if rows and all(r.test == "allocations-t" for r in rows):
        return (f"ratio = {new.label} / {base.label}, the mean over allocations (sessions) of "
                f"each one's median log ratio of launches paired by round; Student's t over the "
                f"allocations, {ctl} adjustment over {len(rows)} series, alpha {alpha:g}, "
                f"threshold {threshold * 100:g}%")
    if paired:
        return (f"ratio = {new.label} / {base.label}, Hodges-Lehmann estimate over launches "
                f"paired by round; Wilcoxon signed-rank test, {ctl} adjustment over "
                f"{len(rows)} series, alpha {alpha:g}, threshold {threshold * 100:g}%")
    stat = getattr(base, "statistic", "median")
    how = ("per-launch means (--means: OSU's figure; an imported OSU program matched to the "
           "mpigauge benchmark that runs it, options not compared)" if stat == "mean"
           else "per-launch medians")
    return (f"ratio = median of {new.label} / median of {base.label} over {how}; "
            f"Mann-Whitney U test (separate runs: not interleaved, drifts between them are "
            f"not controlled), {ctl} adjustment over {len(rows)} series, alpha {alpha:g}, "
            f"threshold {threshold * 100:g}%")


def _group_unmatched(items):
    """[(label, key)] -> "label (unit): sizes ..." lines."""
    d = {}
    for label, k in items:
        d.setdefault((label, k.nranks, k.unit), []).append(k.size)
    return [f"{b} ({u}{', %s ranks' % n if '(' not in b else ''}): sizes "
            + ", ".join(size_label(s) for s in sizes) for (b, n, u), sizes in d.items()]


def _summary(rows):
    c = verdict_counts(rows)
    return ", ".join(f"{v} {k}" for k, v in c.items()) or "nothing compared"


def _differs_head(c):
    return (f"what differs ({c.base.label} -> {c.new.label}; all the control variables: "
            "mpigauge cvars)")


def render_text(comparisons, threshold, alpha, control):
    lines = []
    for c in comparisons:
        base, new, rows, ob, on, warns = c[:6]
        lines.append(f"{new.label} vs {base.label} ({base.path}"
                     + (f", {new.path})" if new.path != base.path else ")"))
        lines.append(method_line(rows, base, new, threshold, alpha, control))
        lines.extend(text_table(COLUMNS, table_rows(rows), right={3, 4, 5, 7}))
        lines.append("summary: " + _summary(rows))
        lines.extend("note: " + n for n in notes(rows, base, new))
        lines.extend(f"only in {base.label}: {s}" for s in _group_unmatched(ob))
        lines.extend(f"only in {new.label}: {s}" for s in _group_unmatched(on))
        if c.differs:
            lines.append(_differs_head(c) + ":")
            lines.extend("  " + d for d in c.differs)
        lines.extend("warning: " + w for w in warns)
        lines.append("")
    return "\n".join(lines)


def _md_escape(s):
    return str(s).replace("|", "\\|")


def render_markdown(comparisons, threshold, alpha, control):
    lines = []
    for c in comparisons:
        base, new, rows, ob, on, warns = c[:6]
        lines += [f"### {_md_escape(new.label)} vs {_md_escape(base.label)}", "",
                  _md_escape(method_line(rows, base, new, threshold, alpha, control)) + ".", "",
                  "| " + " | ".join(COLUMNS) + " |",
                  "| " + " | ".join("---:" if i in NUMERIC else "---"
                                    for i in range(len(COLUMNS))) + " |"]
        for r in table_rows(rows):
            cells = [_md_escape(c) for c in r]
            if cells[-1] in ("faster", "slower"):
                cells[-1] = f"**{cells[-1]}**"
            elif cells[-1].startswith(SLIGHTLY):
                cells[-1] = f"*{cells[-1]}*"
            lines.append("| " + " | ".join(cells) + " |")
        lines += ["", "Summary: " + _summary(rows) + "."]
        extra = [f"Note: {_md_escape(n)}" for n in notes(rows, base, new)]
        extra += [f"Only in {_md_escape(base.label)}: {_md_escape(s)}" for s in _group_unmatched(ob)]
        extra += [f"Only in {_md_escape(new.label)}: {_md_escape(s)}" for s in _group_unmatched(on)]
        extra += [f"Warning: {_md_escape(w)}" for w in warns]
        if extra:
            lines.append("")
            lines.extend("* " + e for e in extra)
        if c.differs:
            lines += ["", _md_escape(_differs_head(c)) + ":", ""]
            lines.extend("* " + _md_escape(d) for d in c.differs)
        lines.append("")
    return "\n".join(lines)


HTML_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f0f0f0}
.faster{background:#d8f5d8}.slower{background:#f8d4d4}.slightly{background:#f1ecdf}.unclear{background:#fff3c4}.unstable{background:#e8dcf5}
.warn{color:#a15c00}.small{font-size:0.85em;color:#555}
pre{background:#f6f6f6;padding:0.5em;overflow-x:auto;font-size:0.85em}
svg{max-width:100%;height:auto}
"""


def html_table(header, rows, numeric=(), classes=None):
    h = ["<table><tr>" + "".join(f"<th>{html.escape(str(c))}</th>" for c in header) + "</tr>"]
    for i, r in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes and classes[i] else ""
        h.append(f"<tr{cls}>" + "".join(
            f'<td{" class=num" if j in numeric else ""}>{html.escape(str(c))}</td>'
            for j, c in enumerate(r)) + "</tr>")
    h.append("</table>")
    return "\n".join(h)


def render_html_comparisons(comparisons, threshold, alpha, control):
    parts = []
    for c in comparisons:
        base, new, rows, ob, on, warns = c[:6]
        parts.append(f"<h2>{html.escape(new.label)} vs {html.escape(base.label)}</h2>")
        parts.append(f'<p class="small">{html.escape(method_line(rows, base, new, threshold, alpha, control))}. '
                     f"base: {html.escape(base.path)}; new: {html.escape(new.path)}.</p>")
        body = table_rows(rows)
        marked = ("faster", "slower", "slightly", "unclear", "unstable")
        words = [r[-1].split(" ")[0].rstrip(":") for r in body]
        parts.append(html_table(COLUMNS, body, numeric=NUMERIC,
                                classes=[w if w in marked else "" for w in words]))
        parts.append("<p>Summary: " + html.escape(_summary(rows)) + ".</p>")
        items = [html.escape("Note: " + n) for n in notes(rows, base, new)]
        items += [html.escape(f"Only in {base.label}: {s}") for s in _group_unmatched(ob)]
        items += [html.escape(f"Only in {new.label}: {s}") for s in _group_unmatched(on)]
        items += [f'<span class="warn">{html.escape("Warning: " + w)}</span>' for w in warns]
        if items:
            parts.append("<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
        if c.differs:
            parts.append(f"<p>{html.escape(_differs_head(c))}:</p><ul>"
                         + "".join(f"<li>{html.escape(d)}</li>" for d in c.differs) + "</ul>")
    return "\n".join(parts)


# Pages are self-contained and run no script: inline styles and SVG only.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


# characters HTML does not allow in text (a terminal's escape sequences
# from a library's name or a file): shown as Python writes them
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def visible(page):
    """A page with every control character (but tab and the line ends) shown
    as \\xNN, never raw."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], page)


def html_page(title, body):
    return visible(
        f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">"
        f"<title>{html.escape(title)}</title><style>{HTML_STYLE}</style></head>\n"
        f"<body>\n<h1>{html.escape(title)}</h1>\n{body}\n"
        f'<p class="small">made by mpigauge {html.escape(version())} on '
        f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}</p>\n"
        f"</body></html>\n")


def _num(v):
    """A float for JSON: 6 significant digits (stable golden files); None for
    NaN and infinities."""
    if v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v))):
        return None
    return float(f"{v:.6g}") if isinstance(v, float) else v


def json_records(comparisons, threshold, alpha, control):
    """The comparison as records (doc/compare.md, "compare --format json")."""
    recs = []
    for c in comparisons:
        base, new, rows, ob, on, warns = c[:6]
        recs.append({"type": "comparison", "schema": JSON_SCHEMA,
                     "base": {"label": base.label, "path": base.path},
                     "new": {"label": new.label, "path": new.path},
                     "method": "paired" if any(r.paired for r in rows) else "unpaired",
                     "alpha": alpha, "threshold": threshold, "error_control": control,
                     "series": len(rows), "summary": dict(verdict_counts(rows)),
                     "only_base": _group_unmatched(ob), "only_new": _group_unmatched(on),
                     "warnings": list(warns), "what_differs": list(c.differs)})
        for r in rows:
            k = r.key
            lo, hi = r.ci
            recs.append({
                "type": "series", "schema": JSON_SCHEMA, "base": base.label, "new": new.label,
                "benchmark": k.bench, "variant": k.variant, "nranks": k.nranks, "match": k.where,
                "size_bytes": k.size, "unit": k.unit, "label": r.label,
                "base_median": _num(r.base_median), "new_median": _num(r.new_median),
                "ratio": _num(r.ratio), "ci_low": _num(lo), "ci_high": _num(hi),
                "ci_coverage": _num(r.ci_coverage), "test": r.test,
                "p": _num(r.p), "p_adjusted": _num(r.p_adjusted),
                "speedup": _num(r.speedup), "verdict": r.verdict,
                "paired": r.paired, "pairs": r.pairs,
                "pairs_dropped": [{"base": b.launch_id, "new": n.launch_id, "round": b.round}
                                  for b, n in r.dropped],
                "regimes": {s: [{"value": _num(v), "launches": c} for v, c in r.regimes[s]]
                            for s in ("base", "new")},
                "same_mixture": bool(r.same_mixture),
                "rounds_needed": r.rounds_needed, "more_rounds": more_rounds(r),
                "launches": {"base": r.base_launches, "new": r.new_launches},
                "note": r.note, "outliers": list(r.outliers),
                "host": [{"field": f, "base": _num(b), "new": _num(n)}
                         for f, _, _, b, n in r.host]})
    return recs


def render_json(comparisons, threshold, alpha, control):
    return "".join(json.dumps(r, sort_keys=False, separators=(",", ":")) + "\n"
                   for r in json_records(comparisons, threshold, alpha, control))
