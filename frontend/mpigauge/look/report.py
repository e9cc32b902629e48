# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge report`: one self-contained HTML page for results: sessions,
launch status, the noise sentinels of every launch, provenance, result
tables, the comparisons of the sets and plots."""
import html
import io
import json
import os
import shlex
import sys
from collections import OrderedDict

from ..data import regimes as rg
from ..core.common import EXIT_OK, check_output_path, fmt_num, size_label, warn, write_text_atomic
from ..verdict.compare import compare_sets, comparison
from .plot import aggregate, plot_svg_or_none
from .render import html_table, html_page, render_html_comparisons
from ..data.results import bench_label, load_inputs, needs_config_label, short_library
from ..core.stats import median
from ..verdict.compare import parse_threshold


def sentinel_table(s):
    """One row per launch with its sentinels, outliers explained."""
    sums = [(la, rg.sentinel_summary(la.sentinels.get("before"), la.sentinels.get("after")))
            for la in s.launches]
    sums = [(la, x) for la, x in sums if x]
    if not sums:
        return ""
    typical = rg.typical_summary([x for _, x in sums])
    rows = []
    for la, x in sums:
        rows.append([la.run.get("benchmark"), la.round if la.round is not None else "",
                     fmt_num(x.get("probe_before_us")), fmt_num(x.get("probe_after_us")),
                     fmt_num(x.get("compute_rate")), fmt_num(x.get("load1")),
                     x.get("ctxt_delta", ""), x.get("steal_delta", ""),
                     rg.explain(x, typical)])
    return ("<h3>Noise sentinels</h3><p class=\"small\">Per launch: the 8-byte probe before and "
            "after the benchmark (us), the computation rate (Munits/s, slowest rank), the "
            "1-minute load, context switches and steal during the launch; typical probe "
            f"{fmt_num(typical.get('probe_us'))} us.</p>"
            + html_table(["benchmark", "round", "probe before", "probe after", "compute",
                          "load", "ctxt", "steal", "note"], rows, numeric=(1, 2, 3, 4, 5, 6, 7)))


def link_share(items, value):
    """A bandwidth (MB/s) as a share of the slowest link of the launches'
    ranks (their run records' "links"), when the ranks span nodes and every
    link is known; else None."""
    rates = []
    for la, _ in items:
        run = la.run
        links = run.get("links")
        if (run.get("nnodes") or 1) < 2 or not isinstance(links, list) or not links or \
                any(not isinstance(x, dict) or not isinstance(x.get("gbps"), (int, float))
                    for x in links):
            return None
        rates.append(min(x["gbps"] for x in links))
    low = min(rates) if rates else 0
    return value / (low * 125.0) if low > 0 and value == value else None


def results_tables(s):
    """A table per benchmark of one set: median, CI, launch range, p99, regimes."""
    parts = []
    parts.append("<h3>Results</h3>")
    parts.append('<p class="small">Median: the median of the per-launch medians (one launch: its '
                 "own median); CI: its 95% confidence interval (several launches: order statistics "
                 "over launches, min..max below 6 launches; one launch: the launch's own CI).</p>")
    series = s.series()
    need = needs_config_label(list(series))
    by_bench = OrderedDict()
    for key, items in series.items():
        by_bench.setdefault(key.group(), []).append((key, items))
    for pk, rows in by_bench.items():
        name = bench_label(pk, need)
        parts.append(f"<h4>{html.escape(name)} ({html.escape(str(pk.unit))})</h4>")
        body, shares = [], []
        for key, items in rows:
            med, lo, hi, n = aggregate(items)
            shares.append(link_share(items, med) if key.unit == "MB/s" else None)
            meds = [r["median"] for _, r in items]
            p99 = median([r["p99"] for _, r in items if isinstance(r.get("p99"), (int, float))] or [float("nan")])
            groups = rg.describe(meds, rg.clusters(meds))
            regimes = " / ".join(f"{fmt_num(v)} x{c}" for v, c in groups) if len(groups) > 1 else ""
            body.append([size_label(key.size), fmt_num(med), f"{fmt_num(lo)} .. {fmt_num(hi)}",
                         fmt_num(min(meds)), fmt_num(max(meds)), fmt_num(p99), n, regimes])
        head = ["size", "median", "95% CI", "lowest launch", "highest launch", "p99",
                "launches", "launch regimes"]
        numeric = (1, 2, 3, 4, 5, 6)
        if any(x is not None for x in shares):
            head.insert(3, "of link")
            for row, x in zip(body, shares):
                row.insert(3, "-" if x is None else f"{100 * x:.0f}%")
            numeric = (1, 2, 3, 4, 5, 6, 7)
        parts.append(html_table(head, body, numeric=numeric))
    return "\n".join(parts)


def _bytes(n):
    label = size_label(n)
    return f"{label[:-1]} {label[-1]}iB" if label[-1:] in ("K", "M", "G") else f"{label} B"


def headlines(s):
    """[(benchmark line, figure text)] of one set: per benchmark line a time at
    its smallest message, a rate at its peak, each with its 95% CI (the
    median over launches, as the tables)."""
    from ..verdict.verdicts import higher_is_better
    series = s.series()
    need = needs_config_label(list(series))
    by = OrderedDict()
    for key, items in series.items():
        by.setdefault(key.group(), []).append((key, items))
    out = []
    for grp, rows in by.items():
        if higher_is_better(grp.unit):
            key, items = max(rows, key=lambda kv: aggregate(kv[1])[0])
            what = f"peak, at {_bytes(key.size)}"
        else:
            key, items = min(rows, key=lambda kv: kv[0].size)
            what = f"at {_bytes(key.size)}"
        med, lo, hi, _ = aggregate(items)
        out.append((bench_label(grp, need), f"{fmt_num(med)} {grp.unit} {what} "
                    f"(95% CI {fmt_num(lo)}-{fmt_num(hi)})"))
    return out


def headlines_html(sets):
    parts = ['<h2 id="headlines">Headline figures</h2>']
    for s in sets:
        parts.append(f"<h3>{html.escape(s.label)}</h3>")
        parts.append(html_table(["benchmark", "figure"], [list(x) for x in headlines(s)]))
    return "\n".join(parts)


def report_body(s, k=1):
    parts = [f'<h2 id="set-{k}">{html.escape(s.label)}</h2>',
             f'<p class="small">{html.escape(s.path)}</p>']
    if s.sessions or s.launch_meta:
        counts = OrderedDict()
        for m in s.launch_meta:
            counts[m.get("status")] = counts.get(m.get("status"), 0) + 1
        rows = [[x.get("session_id"), x.get("suite"), x.get("launcher"), x.get("repeat"),
                 x.get("date_utc"), x.get("host")] for x in s.sessions]
        if rows:
            parts.append("<h3>Sessions</h3>")
            parts.append(html_table(["session", "suite", "launcher", "repeat", "started (UTC)", "host"], rows))
        parts.append("<p>Launches: " + html.escape(", ".join(f"{v} {k}" for k, v in counts.items())) + "</p>")
        bad = [m for m in s.launch_meta if m.get("status") not in ("ok",)]
        if bad:
            parts.append("<h3>Launches that did not succeed</h3>")
            for m in bad:
                parts.append(f"<p><b>{html.escape(str(m.get('benchmark')))}</b> "
                             f"{html.escape(str(m.get('status')))}: {html.escape(str(m.get('message', '')))}</p>")
                if m.get("command"):
                    parts.append("<pre>" + html.escape(" ".join(shlex.quote(str(w)) for w in m["command"])) + "</pre>")
                if m.get("stderr_tail"):
                    parts.append("<pre>" + html.escape(m["stderr_tail"]) + "</pre>")
    parts.append(sentinel_table(s))
    parts.append("<h3>Provenance</h3>")
    prov = OrderedDict()
    for la in s.launches:
        r = la.run
        row = (r.get("benchmark"), short_library(r.get("mpi_library")), r.get("mpigauge_version"),
               r.get("nranks"), r.get("nnodes"), ", ".join(sorted(set(r.get("hosts") or []))),
               " ".join(r.get("bindings") or []))
        p = prov.setdefault(row, [0, r.get("date_utc"), r.get("date_utc"), r])
        p[0] += 1
        p[1] = min(p[1] or "", r.get("date_utc") or "")
        p[2] = max(p[2] or "", r.get("date_utc") or "")
    parts.append(html_table(["benchmark", "MPI", "mpigauge", "ranks", "nodes", "hosts", "bindings",
                             "launches", "first", "last"],
                            [list(k) + [v[0], v[1], v[2]] for k, v in prov.items()]))
    seen = set()
    for k, v in prov.items():
        r = v[3]
        lib = r.get("mpi_library_version") or r.get("mpi_library")
        if lib in seen:
            continue
        seen.add(lib)
        parts.append("<details><summary>" + html.escape(short_library(lib)) + ": library, options, "
                     "environment</summary><pre>" + html.escape(str(lib)) + "\n\ncommand line: "
                     + html.escape(" ".join(r.get("command_line") or [])) + "\noptions: "
                     + html.escape(json.dumps(r.get("options"), sort_keys=True)) + "\nenv: "
                     + html.escape(json.dumps(r.get("env"), sort_keys=True))
                     + f"\ntimer: {html.escape(str(r.get('timer')))}, resolution "
                     f"{html.escape(str(r.get('timer_resolution_s')))} s, overhead "
                     f"{html.escape(str(r.get('timer_overhead_s')))} s</pre></details>")
    parts.append(results_tables(s))
    return "\n".join(parts)


def samples_section(paths, no_plot):
    """Per samples file: its disturbances in one line (a periodic one with
    its period) and the timeline."""
    from .plot import import_pyplot
    from ..data.samples import describe_spikes, load, make_timeline
    parts = []
    for p in paths:
        header, series = load(p)
        line = describe_spikes(series)
        print(f"mpigauge report: {p}: {line}", file=sys.stderr)
        parts.append(f"<h3>{html.escape(os.path.basename(p))}: "
                     f"{html.escape(str(header.get('benchmark')))}</h3><p>{html.escape(line)}</p>")
        plt = None if no_plot else import_pyplot()
        if plt is not None:
            fig = make_timeline(plt, header, series)
            buf = io.StringIO()
            fig.savefig(buf, format="svg")
            plt.close(fig)
            svg = buf.getvalue()
            parts.append(svg[svg.find("<svg"):])
    return "\n<h2>Samples</h2>\n" + "\n".join(parts) if parts else ""


def cmd_report(a):
    check_output_path(a.output, list(a.files) + list(a.samples or []))
    sets = load_inputs(a.files)
    for s in sets:
        for w in s.warnings:
            warn(w)
    toc = [("headlines", "Headline figures")]
    body = [headlines_html(sets)]
    if not a.no_plot:
        svg = plot_svg_or_none(sets)
        toc.append(("plots", "Plots"))
        body.append('<h2 id="plots">Plots</h2>\n' + (svg if svg else "<p>(plots need matplotlib: "
                                                     "python3 -m pip install matplotlib)</p>"))
        if not svg:
            warn("matplotlib is missing: the report has no plots")
    if len(sets) > 1:
        threshold = parse_threshold(a.threshold)
        comps = []
        for new in sets[1:]:
            rows, ob, on = compare_sets(sets[0], new, threshold, 0.05)
            comps.append(comparison(sets[0], new, rows, ob, on))
        toc.append(("comparison", "Comparison"))
        body.append('<h2 id="comparison">Comparison</h2>\n'
                    + render_html_comparisons(comps, threshold, 0.05, "bh"))
    for k, s in enumerate(sets, 1):
        toc.append((f"set-{k}", f"{s.label}: sessions, launches, provenance, tables"))
        body.append(report_body(s, k))
    for spec in a.ranks or []:
        from .ranks import section
        body.append(section(sets, spec, a.no_plot))
    body.append(samples_section(a.samples or [], a.no_plot))
    body = ('<ul class="toc">' + "".join(f'<li><a href="#{i}">{html.escape(t)}</a></li>'
                                         for i, t in toc) + "</ul>\n" + "\n".join(body))
    if a.summary:
        for s in sets:
            print(f"{s.label}:" if len(sets) > 1 else "headline figures:")
            for name, text in headlines(s):
                print(f"  {name:<12} {text}")
    title = a.title or ("mpigauge report: " + ", ".join(s.label for s in sets))
    write_text_atomic(a.output, html_page(title, body))
    print(f"mpigauge report: wrote {a.output}", file=sys.stderr)
    return EXIT_OK
