# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge dashboard --db DB -o DIR`: a static site of a history, no
server needed (doc/history.md). index.html: the tags and the regressions of
the last tag against the one before; one page per benchmark family with the
trend of every benchmark and size over the tags (median, 95% CI band, each
launch, regimes, verdicts); one provenance page per tag with every launch's
run record, which the charts and tables link to.

The folder is written beside DIR and moved in place whole; a DIR that is
not an mpigauge dashboard (no marker file) is never replaced."""
import base64
import hashlib
import html
import json
import os
import re
import shutil
import tempfile
from typing import NamedTuple

from ..data import regimes as rg
from ..core.common import UsageError, fmt_num, now_utc, size_label, version, warn
from .history_read import MarkKey
from .history_cli import point, trend
from ..look.render import HTML_STYLE
from ..look import overview as ov
from ..look.trendchart import STYLE as CHART_STYLE, chart

MARKER = ".mpigauge-dashboard"
FAMILIES = (("pt2pt", "Point-to-point"), ("collective", "Collectives"),
            ("onesided", "One-sided"), ("overlap", "Overlap and progress"))

SCRIPT = """
(function () {
  var errors = [];
  window.addEventListener('error', function (e) {
    errors.push(String(e.message));
    document.body.setAttribute('data-script-errors', String(errors.length));
  });
  var filter = document.getElementById('filter');
  var only = document.getElementById('only-regressions');
  var count = document.getElementById('shown');
  var cards = Array.prototype.slice.call(document.querySelectorAll('.card'));
  function apply() {
    var words = (filter ? filter.value : '').toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    cards.forEach(function (c) {
      var text = c.getAttribute('data-key');
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      if (only && only.checked && c.getAttribute('data-regression') !== '1') ok = false;
      c.style.display = ok ? '' : 'none';
      if (ok) shown++;
    });
    if (count) count.textContent = shown + ' of ' + cards.length + ' charts shown';
  }
  if (filter) filter.addEventListener('input', apply);
  if (only) only.addEventListener('change', apply);
  apply();
  document.body.setAttribute('data-script-errors', String(errors.length));
  document.body.setAttribute('data-script-ok', '1');
})();
"""
SCRIPT_HASH = base64.b64encode(hashlib.sha256(SCRIPT.encode("utf-8")).digest()).decode()
CSP = (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
       f"script-src 'sha256-{SCRIPT_HASH}'")
EXTRA_STYLE = """
.cards{display:flex;flex-wrap:wrap}.card{margin:4px}.card h4{margin:2px 0;font-size:.85em}
nav a{margin-right:1em}.regress{color:#b00;font-weight:bold}.mark{color:#6a3d9a;font-weight:bold}
details{margin:.3em 0}summary{cursor:pointer}
"""


def family_of(families, bench):
    """The page of a benchmark: the family its programs name in their run
    records (History.families); "pt2pt" for records of a version that did
    not name it."""
    f = families.get(bench)
    return f if f in dict(FAMILIES) else "pt2pt"


def slug(text):
    """A file name for a tag's page: its letters and digits, at most 80 of
    them (a file name has at most 255 bytes), and a digest of the whole tag
    that tells two long tags apart."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:80].strip("_") or "tag"
    return s + "-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:6]


def page(title, body, up=""):
    """A page; up: the way to the site's top from its folder ("../")."""
    js = f"<script>{SCRIPT}</script>"
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">"
            f"<title>{html.escape(title)}</title>"
            f"<style>{HTML_STYLE}{CHART_STYLE}{ov.STYLE}{EXTRA_STYLE}</style></head>\n"
            f"<body data-script-errors=\"0\">\n{nav(up)}<h1>{html.escape(title)}</h1>\n{body}\n"
            f"<p class=\"small\">made by mpigauge {html.escape(version())} on {now_utc()}</p>\n"
            f"{js}</body></html>\n")


def nav(up=""):
    links = [f'<a href="{up}index.html">overview</a>'] + \
        [f'<a href="{up}{f}.html">{html.escape(t)}</a>' for f, t in FAMILIES]
    return "<nav>" + "".join(links) + "</nav>\n"


def series_points(tags_rows, unit, threshold, alpha, labels=None):
    """The points of one series over its tags, each with its verdict against the previous
    tag (launch medians of the two tags, Mann-Whitney; one launch: its own CI).
    labels: tag -> its label on the axis (default the tag)."""
    from ..verdict.verdicts import verdict
    pts, prev = [], None
    for tag, meds, lids, cis in tags_rows:
        m, lo, hi = point(meds, cis)
        p = {"tag": tag, "label": (labels or {}).get(tag, tag), "median": m, "low": lo,
             "high": hi, "launches": meds, "ids": lids,
             "regimes": len(rg.clusters(meds)), "verdict": None}
        if prev is not None:
            row = verdict(prev["launches"], meds, unit, threshold, alpha,
                          base_ci=(prev["low"], prev["high"]) if len(prev["launches"]) == 1 else None,
                          new_ci=(lo, hi) if len(meds) == 1 else None)
            p["verdict"] = row.verdict
            p["ratio"] = row.ratio
        pts.append(p)
        prev = p
    return pts


class SeriesCard(NamedTuple):
    """One series of a family page: its benchmark, name, points over the tags, unit,
    whether the last tag is slower, its group (benchmark, variant, configuration,
    ranks) and size."""
    bench: str
    name: str
    points: list
    unit: str
    slower: bool
    group: str
    size: int


def tag_order(hist, by):
    """The tags in the order of the x axis (by "tag": as added; "date": by their first run
    date), and each tag's axis label."""
    summary = hist.tag_summary()
    if by == "date":
        summary = sorted(summary, key=lambda t: (t.first or "", t.tag))
        return [t.tag for t in summary], {t.tag: (t.first or "")[:10] or t.tag for t in summary}
    return [t.tag for t in summary], {}


def build(hist, threshold, alpha, title, by="tag"):
    """{file name: html} of the site."""
    rows = hist.series()
    if hist.left_out:
        warn(f"{hist.path}: {hist.left_out} results without a positive median (NaN, zero or "
             "negative, from an earlier release) left out of the trends")
    if not rows:
        raise UsageError(f"{hist.path} holds no results yet")
    series = trend(rows)
    tags, labels = tag_order(hist, by)
    rank = {t: i for i, t in enumerate(tags)}
    pages = {f: [] for f, _ in FAMILIES}
    regressions = []
    links = {t: f"provenance/{slug(t)}.html" for t in tags}
    families = hist.families()
    marks = hist.marks()
    for key, tags_rows in series.items():
        bench, variant, nranks, cfg, size, unit = key
        tags_rows = sorted(tags_rows, key=lambda r: rank[r.tag])
        pts = series_points(tags_rows, unit, threshold, alpha, labels)
        for p in pts:
            m = None if cfg else marks.get(MarkKey(p["tag"], bench, variant, nranks, size, unit))
            if m:
                p["mark"] = m.text
        group = " ".join(x for x in [bench, f"[{variant}]" if variant else "",
                                     f"@{cfg}" if cfg else ""] if x) + f", {nranks} ranks"
        name = f"{group}, size {size_label(size)}"
        last = pts[-1]
        bad = (last.get("verdict") or "") == "slower" and last["tag"] == tags[-1]
        fam = family_of(families, bench)
        if bad:
            regressions.append((fam, name, pts[-2]["tag"], last))
        pages[fam].append(SeriesCard(bench, name, pts, unit, bad, group, size))
    site = {"index.html": index_page(hist, title, tags, regressions, series, marks)}
    for f, t in FAMILIES:
        site[f"{f}.html"] = family_page(t, pages[f], links, tags)
    for t in {k.tag for k in marks}:
        site[f"changes/{slug(t)}.html"] = changes_page(t, marks)
    for t in tags:
        site[links[t]] = provenance_page(hist, t)
    return site


def changes_page(tag, marks):
    """What changed in one release, as a series walk named it."""
    rows = sorted((k.benchmark, k.variant, k.nranks or 0, k.size, k.unit, v)
                  for k, v in marks.items() if k.tag == tag)
    body = [f"<p>The series whose change a series walk (<code>mpigauge series</code>, "
            f"doc/releases.md) pinned to <b>{html.escape(tag)}</b>: the release that introduced "
            "it, with the verdict and what the host paid on each side.</p>",
            "<table><tr><th>benchmark</th><th>ranks</th><th>size</th><th>unit</th>"
            "<th>what changed</th></tr>"]
    for bench, variant, nranks, size, unit, (kind, text) in rows:
        name = bench + (f" [{variant}]" if variant else "")
        body.append(f"<tr><td>{html.escape(name)}</td><td class=num>{nranks}</td>"
                    f"<td class=num>{html.escape(size_label(size))}</td><td>{html.escape(unit)}"
                    f"</td><td>{html.escape(text)}</td></tr>")
    body.append("</table>")
    return page(f"what changed in {tag}", "\n".join(body), up="../")


def _marks_section(tags, marks):
    per = {}
    for k in marks:
        per[k.tag] = per.get(k.tag, 0) + 1
    if not per:
        return []
    out = ["<h2>What changed, release by release (a series walk)</h2><table><tr><th>release"
           "</th><th>series changed</th></tr>"]
    for t in [t for t in tags if t in per]:
        out.append(f"<tr><td><a href=\"changes/{slug(t)}.html\">{html.escape(t)}</a></td>"
                   f"<td class=num>{per[t]}</td></tr>")
    return out + ["</table>"]


def index_page(hist, title, tags, regressions, series, marks=None):
    body = [f"<p>{len(tags)} tags, {len(series)} series (benchmark, variant, ranks, "
            f"configuration, size) from <code>{html.escape(hist.path)}</code>.</p>"]
    body.append("<h2>Tags</h2><table><tr><th>tag</th><th>added (UTC)</th><th>launches</th>"
                "<th>benchmarks</th><th>library</th><th>configurations</th><th>run dates</th>"
                "<th>provenance</th></tr>")
    from ..data.results import short_library
    for t in hist.tag_summary():
        lib = ", ".join(sorted({short_library(x) for x in t.libraries}))
        dates = f"{str(t.first or '')[:10]}..{str(t.last or '')[:10]}"
        body.append(f"<tr><td>{html.escape(t.tag)}</td><td>{html.escape(str(t.added))}</td>"
                    f"<td class=num>{html.escape(str(t.launches))}</td>"
                    f"<td class=num>{html.escape(str(t.benchmarks))}</td>"
                    f"<td>{html.escape(lib)}</td>"
                    f"<td>{html.escape(', '.join(map(str, t.configs)) or '-')}</td>"
                    f"<td>{html.escape(dates)}</td>"
                    f"<td><a href=\"provenance/{slug(t.tag)}.html\">launches</a></td></tr>")
    body.append("</table>")
    body += _marks_section(tags, marks or {})
    prev = tags[-2] if len(tags) > 1 else None
    body.append(f"<h2>Regressions of {html.escape(tags[-1])}"
                f"{' against ' + html.escape(prev) if prev else ''}</h2>")
    if not regressions:
        body.append("<p>none: no series is slower.</p>" if prev else
                    "<p>one tag only: nothing to compare yet.</p>")
    else:
        body.append("<table><tr><th>family</th><th>series</th><th>before</th><th>now</th>"
                    "<th>ratio</th><th>verdict</th></tr>")
        for fam, name, before, p in regressions:
            body.append(f"<tr class=slower><td><a href=\"{fam}.html\">{fam}</a></td>"
                        f"<td>{html.escape(name)}</td><td>{html.escape(before)}</td>"
                        f"<td>{html.escape(fmt_num(p['median']))}</td>"
                        f"<td class=num>{html.escape(fmt_num(p['ratio']))}</td>"
                        f"<td class=regress>{html.escape(p['verdict'])}</td></tr>")
        body.append("</table>")
    body.append("<p class=small>Each tag's point is the median of its launches' medians with "
                "its 95% CI (one launch: its own CI); a step is judged against the previous tag "
                "alone (Mann-Whitney on the launch medians, 5% threshold by default), so an "
                "interleaved check (<code>mpigauge history check</code>) is the stronger "
                "verdict.</p>")
    return page(title, "\n".join(body))


def card_id(name):
    return "c-" + slug(name)


def family_grid(items, tags):
    """The benchmark x size grid of the last tag against the previous one."""
    if len(tags) < 2:
        return "<p>One tag only: the grid of the last tag against the previous one needs two.</p>"
    rows = {}
    for it in items:
        pts = it.points
        if pts[-1]["tag"] == tags[-1] and len(pts) > 1 and pts[-2]["tag"] == tags[-2]:
            rows.setdefault(it.group, (it.group, it.bench, {}))[2][it.size] = (pts[-1], it.unit)
    if not rows:
        return (f"<p>No series of this family has both {html.escape(tags[-1])} and "
                f"{html.escape(tags[-2])}.</p>")
    ordered = [rows[g] for g in sorted(rows, key=lambda g: (rows[g][1], g))]
    return ov.grid(ordered, tags[-1], tags[-2],
                   lambda g, size: card_id(f"{g}, size {size_label(size)}"))


def family_page(title, items, links, tags):
    if not items:
        return page(title, "<p>No benchmark of this family in the history.</p>")
    n_bad = sum(1 for it in items if it.slower)
    body = [f"<p>{len(items)} series, {n_bad} slower in the last tag.</p>",
            "<h2>At a glance</h2>", family_grid(items, tags),
            "<p>Below, per benchmark: the median per size with a line per tag; the trend of "
            "each size over the tags is one click away (points link to the launches' "
            "provenance; a dashed ring marks a tag whose launches fell into more than one "
            "regime; triangles mark a verdict against the previous tag).</p>",
            '<p><input id="filter" type="search" placeholder="filter: benchmark, size, '
            'configuration"> <label><input id="only-regressions" type="checkbox"> slower '
            'in the last tag only</label> <span id="shown"></span></p>']
    groups = {}
    for it in items:
        groups.setdefault(it.bench, {}).setdefault(it.group, []).append(it)
    rank = {t: i for i, t in enumerate(tags)}
    for bench in sorted(groups):
        body.append(f"<h2 id=\"{html.escape(bench)}\">{html.escape(bench)}</h2>")
        for group in sorted(groups[bench]):
            its = sorted(groups[bench][group], key=lambda it: it.size)
            per_tag = {}
            for it in its:
                for p in it.points:
                    per_tag.setdefault(p["tag"], {})[it.size] = p["median"]
            lines = sorted(per_tag.items(), key=lambda kv: rank.get(kv[0], 0))
            n_bad = sum(1 for it in its if it.slower)
            body.append(f"<h3>{html.escape(group)}"
                        f"{' <span class=regress>' + str(n_bad) + ' slower</span>' if n_bad else ''}"
                        f"</h3>{ov.size_chart(lines, its[0].unit, group)}")
            body.append(f"<details{' open' if n_bad else ''}><summary>each size over the tags "
                        f"({len(its)} charts)</summary><div class=cards>")
            for it in its:
                name, pts, bad = it.name, it.points, it.slower
                svg = chart(pts, it.unit, name, lambda t: links[t] + "#" + bench)
                changed = "".join(f" <span class=mark>changed in {html.escape(p['tag'])}</span>"
                                  for p in pts if p.get("mark"))
                body.append(f"<div class=card id=\"{card_id(name)}\" data-key=\""
                            f"{html.escape(name.lower())}\" data-regression=\"{1 if bad else 0}\">"
                            f"<h4>{html.escape(name)}"
                            f"{' <span class=regress>slower</span>' if bad else ''}{changed}</h4>"
                            f"{svg}</div>")
            body.append("</div></details>")
    return page(title, "\n".join(body))


def provenance_page(hist, tag):
    recs = hist.records(tag)
    body = [f"<p>Every launch of <b>{html.escape(tag)}</b>: its run record (library, hosts, "
            "bindings, command line, environment, options) as the program wrote it.</p>"]
    seen = set()
    meta = {}
    for r in recs:
        if r.get("type") == "launch":
            meta[r.get("launch_id")] = r
        if r.get("type") != "run":
            continue
        bench = r.get("benchmark", "?")
        anchor = f' id="{html.escape(bench)}"' if bench not in seen else ""
        seen.add(bench)
        m = meta.get(r.get("launch_id"), {})
        head = ", ".join(str(x) for x in [bench, r.get("date_utc"), m.get("config"),
                                          f"round {m['round']}" if m.get("round") is not None
                                          else None, str(r.get("mpi_library") or "")[:60]] if x)
        body.append(f"<details{anchor}><summary>{html.escape(head)}</summary><pre>"
                    f"{html.escape(json.dumps(r, indent=1, sort_keys=True))}</pre></details>")
    return page(f"provenance: {tag}", "\n".join(body), up="../")


def write_site(site, out):
    """Write the site to out, complete or not at all."""
    out = os.path.abspath(out)
    if os.path.islink(out):
        raise UsageError(f"-o {out}: a symbolic link; it is never followed or replaced (give "
                         "a new folder)")
    if os.path.exists(out):
        if not os.path.isdir(out) or not os.path.isfile(os.path.join(out, MARKER)):
            raise UsageError(f"-o {out}: exists and is not an mpigauge dashboard (not even an "
                             "empty folder is replaced; give a new path)")
    parent = os.path.dirname(out)
    if not os.path.isdir(parent):
        raise UsageError(f"-o {out}: folder {parent} does not exist")
    tmp = tempfile.mkdtemp(prefix=os.path.basename(out) + ".tmp.", dir=parent)
    try:
        for name, text in site.items():
            path = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(tmp, MARKER), "w", encoding="utf-8") as f:
            f.write("made by mpigauge dashboard; the folder is replaced whole on the next run\n")
        os.chmod(tmp, 0o755)
        old = None
        if os.path.exists(out):
            old = out + ".old." + os.path.basename(tmp)
            os.rename(out, old)
        os.rename(tmp, out)
        if old:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
