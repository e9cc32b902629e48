# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge compare`: a verdict per benchmark and size (doc/compare.md)."""
import os
import sys

from ..core.common import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, UsageError, check_output_path, warn,
                           write_text_atomic)
from ..model.scaling_report import scaling_lines
from ..verdict.options import add_verdict_options


def _sequential_alpha(sets, alpha):
    """A file from `run --until-decided` is judged at alpha / its planned looks."""
    looks = max((s.looks for s in sets), default=0)
    return (alpha / looks, looks) if looks > 1 else (alpha, None)


def cmd_compare(a):
    from ..verdict.compare import compare_sets, comparison, parse_threshold
    from ..verdict.verdicts import is_regression
    from ..look.render import (html_page, render_html_comparisons, render_json, render_markdown,
                               render_text)
    from ..data.results import load_inputs
    threshold = parse_threshold(a.threshold)
    if not 0 < a.alpha < 1:
        raise UsageError("--alpha must be between 0 and 1")
    if a.output:
        check_output_path(a.output, a.files + ([a.profile] if a.profile else []))
    from .allocation_screen import check as check_screen
    check_screen(a)
    sets = load_inputs(a.files)
    if len(sets) < 2:
        raise UsageError("compare needs BASE and NEW: two or more files, or a file of an "
                         "interleaved run and two or more of its configuration labels")
    alpha, looks = _sequential_alpha(sets, a.alpha)
    means = means_lines(sets) if a.means else []
    base, comparisons = sets[0], []
    for s in sets:
        for w in s.warnings:
            warn(w)
    for new in sets[1:]:
        rows, ob, on = compare_sets(base, new, threshold, alpha, a.error_control,
                                    covariate=a.covariate, by_allocation=a.by_allocation)
        extra = list(means)
        if looks:
            extra.append(f"sequential run ({looks} planned looks): tested at alpha {alpha:.4g} "
                         f"= {a.alpha:g} / {looks}")
        if not rows:
            extra.append(nothing_in_common(base, new, a.means))
        c = comparison(base, new, rows, ob, on, extra)
        for w in c.warnings:    # what differs is said once, with the table
            warn(w)
        comparisons.append(c)
    lead = profile_lines(a, base, sets[1:], threshold)
    if a.by_allocation:
        from ..verdict.allocations import allocation_lines
        lead += [allocation_lines(base, new, threshold) for new in sets[1:]]
        if a.screen_slow:
            from .allocation_screen import screen_lines
            lead.append(screen_lines(base, sets[1], threshold, a.screen_slow,
                                     a.screen_option or ()))
    fmt = {"md": "markdown"}.get(a.format, a.format)
    if fmt is None:
        ext = os.path.splitext(a.output or "")[1].lower()
        fmt = {".md": "markdown", ".html": "html", ".htm": "html", ".json": "json",
               ".jsonl": "json"}.get(ext, "text")
    args = (comparisons, threshold, alpha, a.error_control)
    if fmt == "html":
        body = render_html_comparisons(*args)
        if not a.no_plot:
            from ..look.plot import plot_svg_or_none
            svg = plot_svg_or_none(sets)
            body += "\n<h2>Plots</h2>\n" + (svg or "<p>(plots need matplotlib: "
                                            "python3 -m pip install matplotlib)</p>")
        doc = html_page("mpigauge comparison", body)
    else:
        doc = {"text": render_text, "markdown": render_markdown, "json": render_json}[fmt](*args)
    doc = doc if doc.endswith("\n") else doc + "\n"
    doc = lead_with(fmt, lead, doc)
    if a.model:
        doc = trail_with(fmt, model_lines(base, sets[1:], threshold), doc)
    scaling = scaling_lines(base, sets[1:], max(threshold, 0.10), a.alpha)
    if scaling:
        doc = trail_with(fmt, scaling, doc)
    if a.output:
        write_text_atomic(a.output, doc)
    else:
        sys.stdout.write(doc)
    if not any(c[2] for c in comparisons):
        return EXIT_USAGE
    if a.fail_on_regression and any(is_regression(r) for c in comparisons for r in c[2]):
        print("mpigauge compare: regression: at least one benchmark and size is slower "
              "(or beyond the tolerance on the slower side, one imported value a side)",
              file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def means_lines(sets):
    """--means: every set's launches by their means, imported OSU programs
    under mpigauge's names (the method line says so); the warning that names
    the OSU programs left unmatched."""
    from ..data.results import as_means
    known = {r.get("benchmark") for s in sets for la in s.launches if not la.run.get("imported")
             for r in la.results}
    unmapped = sorted({p for s in sets for p in as_means(s, known)})
    return (["--means: no mpigauge benchmark among the results for " + ", ".join(unmapped)
             + " (the fan tests, osu_init and the persistent point-to-point tests have none)"]
            if unmapped else [])


def nothing_in_common(base, new, means=False):
    """Why two sides share no series: what they match on, and when one side
    is imported (OSU's or IMB's figures) and the other mpigauge's own, that
    the two never share one."""
    def benches(s):
        return sorted({la.run.get("benchmark") or "?" for la in s.launches})

    def imported(s):
        return any(la.run.get("imported") for la in s.launches)
    why = (f"nothing in common between {base.label} and {new.label} (series match by "
           "benchmark, variant, ranks, options, size and unit)")
    if imported(base) != imported(new):
        imp, own = (base, new) if imported(base) else (new, base)
        why += (f": {imp.label} is imported ({', '.join(benches(imp)[:4])}: OSU's or IMB's own "
                f"figures under their programs' names and options), {own.label} mpigauge's own "
                f"results ({', '.join(benches(own)[:4])}); an imported output is compared with "
                "other imported outputs of the same program (doc/import.md)"
                + ("" if means else ", or with mpigauge's means of the same benchmark by "
                   "--means"))
    return why


def profile_lines(a, base, news, threshold):
    """With --profile: per NEW, the profile's predicted MPI time under BASE
    and NEW (its headline, then the lines that explain it), and the same as
    a record; [] without."""
    if not a.profile:
        return []
    from ..apps.predict import compare, details, headline, plan
    from ..apps.profile import load_profile
    prof = load_profile(a.profile)
    p = plan(prof)
    out = []
    for new in news:
        pr = compare(p, base, new, threshold)
        rec = {"type": "profile_prediction", "profile": prof.head["name"], "base": base.label,
               "new": new.label, "base_s": pr.base_s, "new_s": pr.new_s, "ratio": pr.ratio,
               "ci95": list(pr.ci), "verdict": pr.verdict, "covered": pr.covered,
               "contributions": [{"call": nd.call, "size": nd.size, "ranks": nd.ranks,
                                  "delta_s": d} for d, nd in pr.contributions]}
        out.append(([headline(prof.head["name"], pr)] + details(p, pr), rec))
    return out


def lead_with(fmt, lead, doc):
    """The comparison document led by the profile's lines (JSON: records)."""
    import html
    import json
    if not lead:
        return doc
    if fmt == "json":
        return "".join(json.dumps(rec, sort_keys=True) + "\n" for _, rec in lead) + doc
    text = "\n".join(line for lines, _ in lead for line in lines)
    if fmt == "html":
        return doc.replace("<body>", "<body>\n<pre>" + html.escape(text) + "</pre>", 1)
    return text + "\n\n" + doc


def model_lines(base, news, threshold):
    """--model: Hockney's parameters of each latency curve, NEW against BASE,
    with a verdict each: [(lines, records)]."""
    from ..model.summary import parameter_verdicts
    out = []
    for new in news:
        lines, docs = parameter_verdicts(base, new, threshold)
        out.append((["model parameters (mpigauge model; doc/models.md):"] + lines,
                    [dict(d, type="model_parameters") for d in docs]))
    return out


def trail_with(fmt, trail, doc):
    """The comparison document followed by the --model lines (JSON: records)."""
    import html
    import json
    if fmt == "json":
        return doc + "".join(json.dumps(rec, sort_keys=True) + "\n"
                             for _, recs in trail for rec in recs)
    text = "\n".join(line for lines, _ in trail for line in lines)
    if fmt == "html":
        return doc.replace("</body>", "<pre>" + html.escape(text) + "</pre>\n</body>", 1)
    if fmt == "markdown":
        text = "```\n" + text + "\n```"
    return doc + "\n" + text + "\n"


def add_parser(sub):
    c = sub.add_parser("compare", help="compare results with a verdict per benchmark and size",
                       description="Compare NEW against BASE per benchmark, variant, rank count, "
                       "options (or suite line), size and unit. FILE LABEL LABEL...: "
                       "configurations of one interleaved run, paired by round (signed-rank "
                       "test); FILE FILE...: separate runs (Mann-Whitney). A file may be given "
                       "as LABEL=FILE. p-values are adjusted over all series.")
    c.add_argument("files", nargs="+", metavar="FILE|LABEL", help="BASE NEW [NEW...]")
    add_verdict_options(c)
    c.add_argument("--format", choices=("text", "markdown", "md", "html", "json"),
                   help="default: from -o's extension (.md, .html, .json), else text")
    c.add_argument("-o", "--output", help="write to FILE instead of standard output")
    c.add_argument("--fail-on-regression", action="store_true",
                   help="exit 1 when any benchmark and size is slower (with one imported "
                   "value a side: beyond the tolerance on the slower side)")
    c.add_argument("--no-plot", action="store_true", help="HTML: no embedded plot")
    c.add_argument("--means", action="store_true",
                   help="compare each launch's mean per iteration, not its median: OSU's figure, "
                   "so that an imported OSU output meets mpigauge's run of the same benchmark "
                   "(matched by benchmark, ranks, size and unit, options apart; doc/import.md)")
    c.add_argument("--profile", metavar="PROFILE",
                   help="lead with the MPI time this profile (mpigauge profile) predicts under "
                   "BASE and NEW, from the benchmarks it stands on (mpigauge profile suite)")
    c.add_argument("--by-allocation", action="store_true",
                   help="FILE LABEL LABEL: each session of the file is an allocation (run "
                   "--allocations K): a verdict tests the spread between allocations, and an "
                   "allocation worse than the others in most series is named (doc/slurm.md)")
    c.add_argument("--screen-slow", metavar="FILE",
                   help="--by-allocation: screen each allocation named slow at once with "
                   "mpigauge screen run on its nodes (srun -w NODES, one rank per node) into FILE "
                   "(FILE-K with several), and add the screen's verdict")
    c.add_argument("--screen-option", action="append", metavar="ARG",
                   help="--screen-slow: an option for mpigauge_screen (repeatable), e.g. "
                   "--screen-option=--expect-bw=1000")
    c.add_argument("--model", action="store_true",
                   help="also Hockney's parameters (alpha, bandwidth) per protocol regime of "
                   "each latency curve, NEW against BASE, each with its verdict (doc/models.md)")
    c.set_defaults(func=cmd_compare)
