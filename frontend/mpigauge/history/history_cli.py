# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge history add|list|show|check|export` (doc/history.md)."""
import argparse
import json
import math
import os
import sys
from typing import NamedTuple

from ..core.common import (EXIT_FAIL, EXIT_OK, UsageError, check_output_path, fmt_num,
                           terminal_text, parse_size_arg, size_label, text_table, warn,
                           write_text_atomic)
from .history import History, default_db, launch_records, result_problem
from ..verdict.options import add_verdict_options
from ..data.results import SeriesKey
from ..core.stats import median, median_ci


def add_parser(sub):
    h = sub.add_parser("history", help="keep results across releases in a database; check a "
                       "new run against the last",
                       description="A history of results in one SQLite database (--db, else "
                       "$MPIGAUGE_HISTORY, else ~/.local/share/mpigauge/history.sqlite). TAG "
                       "names what was added (a release, a nightly build); TAG@LABEL one "
                       "configuration of an interleaved run.")
    h.add_argument("--db", help="the history database (default: $MPIGAUGE_HISTORY, else "
                   "~/.local/share/mpigauge/history.sqlite)")
    hs = h.add_subparsers(dest="action", metavar="ACTION")
    a = hs.add_parser("add", help="add a results file under a tag (the same launches twice "
                      "are refused)")
    a.add_argument("file", metavar="FILE")
    a.add_argument("--tag", help="default: the file's name without .jsonl")
    hs.add_parser("list", help="the tags, in the order they were added, with what they hold")
    s = hs.add_parser("show", help="one benchmark over the tags: median, CI and range of the "
                      "launches per size")
    s.add_argument("benchmark", metavar="BENCH")
    s.add_argument("--size", type=parse_size_arg, help="only this message size")
    s.add_argument("--format", choices=("text", "json"), default="text")
    c = hs.add_parser("check", help="verdicts of NEW against a tag; exit 1 on a regression")
    c.add_argument("new", metavar="FILE|TAG[@LABEL]")
    c.add_argument("--against", required=True, metavar="TAG[@LABEL]|last",
                   help="the base: a tag, or last (the last tag added before NEW)")
    add_verdict_options(c)
    c.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    c.add_argument("-o", "--output", help="write the comparison to FILE")
    c.add_argument("--floor", action="append", default=[], metavar="BENCH[:SIZE]=VALUE",
                   help="an absolute gate as well as the verdicts (repeatable): NEW's median "
                   "at BENCH (and SIZE; every size without) no worse than VALUE in the "
                   "series' unit, a floor for a rate (bw:1M=10000) and a ceiling for a time "
                   "(latency:8=2.5); exit 1 when the 95%% CI of NEW's median lies beyond it")
    r = hs.add_parser("remove", help="remove a tag and everything added under it")
    r.add_argument("tag", metavar="TAG")
    e = hs.add_parser("export", help="JSON Lines back out (all, or some tags)")
    e.add_argument("--tag", action="append", help="only this tag (repeatable)")
    e.add_argument("-o", "--output", help="write to FILE instead of standard output")
    h.set_defaults(func=cmd_history)


def cmd_history(a):
    if not a.action:
        raise UsageError("give an action: add, list, show, check, remove or export")
    path = a.db or default_db()
    hist = History(path, create=a.action == "add")
    try:
        return {"add": _add, "list": _list, "show": _show, "check": _check,
                "remove": _remove, "export": _export}[a.action](hist, a)
    finally:
        hist.close()


def _add(hist, a):
    return add_file(hist, a.file, a.tag)


def add_file(hist, file, tag=None):
    """Add the launches of a results file to the history under tag (default:
    the file's name); prints what was added."""
    from ..data.results import read_records
    recs, warns = read_records(file)
    for w in warns:
        warn(w)
    launches, sessions, ends, empty = launch_records(recs)
    if not launches:
        raise UsageError(f"{file}: no launches with results (is it an mpigauge results file?)")
    tag = tag or os.path.splitext(os.path.basename(file))[0]
    if not tag.strip() or "@" in tag or tag == "last" or len(tag) > 200 or \
            any(not c.isprintable() for c in tag):
        raise UsageError(f"--tag {tag!r}: a tag is not empty, at most 200 printable "
                         "characters, has no '@' and is not 'last'")
    bad = [(la.launch_id, result_problem(r)) for la, _ in launches for r in la.results
           if result_problem(r) is not None]
    if bad:
        warn(f"{file}: {len(bad)} results not added to the history, e.g. launch "
             f"{bad[0][0]}: {bad[0][1]}")
    n = hist.add(launches, sessions, ends, tag, file,
                 [r for r in recs if r.get("type") == "cvars"])
    configs = sorted({la.config for la, _ in launches if la.config is not None})
    more = f", configurations {', '.join(configs)}" if configs else ""
    skipped = f" ({empty} launches without results not added)" if empty else ""
    print(f"mpigauge history: added {n} launches of {file} as {tag!r}{more}{skipped} "
          f"to {hist.path}")
    return EXIT_OK


def _remove(hist, a):
    n = hist.remove(a.tag)
    print(f"mpigauge history: removed {a.tag!r} ({n} launches) from {hist.path}")
    return EXIT_OK


def _table(header, rows):
    return "\n".join(text_table(header, rows))


def _list(hist, a):
    from ..data.results import short_library
    rows = []
    for tag, n, nb, libs, cfgs, hosts, first, last, added in hist.tag_summary():
        lib = ", ".join(sorted({short_library(x) for x in libs})) or "-"
        nhosts = len({h for hs in hosts for h in hs.split(",")})
        dates = (first or "-")[:10] + ("" if (first or "")[:10] == (last or "")[:10]
                                       else " .. " + (last or "")[:10])
        rows.append([tag, added, n, nb, lib, ",".join(cfgs) or "-", nhosts, dates])
    if not rows:
        print(f"{hist.path}: no tags yet")
        return EXIT_OK
    print(_table(["tag", "added (UTC)", "launches", "benchmarks", "library", "configurations",
                  "hosts", "run dates"], rows))
    return EXIT_OK


class TagLaunches(NamedTuple):
    """One tag of a series: its launches' medians, ids and 95% CIs."""
    tag: str
    medians: list
    launches: list
    cis: list


def trend(rows):
    """Group SeriesRows by SeriesKey (where: the configuration) and tag, in order:
    {series: [TagLaunches]}."""
    out = {}
    for r in rows:
        s = out.setdefault(SeriesKey(r.benchmark, r.variant, r.nranks, r.config, r.size,
                                     r.unit), [])
        if not s or s[-1].tag != r.tag:
            s.append(TagLaunches(r.tag, [], [], []))
        s[-1].medians.append(r.median)
        s[-1].launches.append(r.launch)
        s[-1].cis.append((r.ci95_low, r.ci95_high))
    return out


def point(meds, cis):
    """Median over launches and its 95% CI (one launch: its own CI)."""
    m = median(meds)
    if len(meds) == 1:
        lo, hi = cis[0]
        return m, (lo if lo is not None else m), (hi if hi is not None else m)
    lo, hi = median_ci(meds)[:2]
    return m, lo, hi


def _show(hist, a):
    rows = hist.series(a.benchmark, a.size)
    if hist.left_out:
        warn(f"{hist.path}: {hist.left_out} results without a positive median (NaN, zero or "
             "negative, from an earlier release) left out")
    if not rows:
        known = ", ".join(hist.benchmarks()) or "none"
        raise UsageError(f"no results of {a.benchmark!r}"
                         f"{' at ' + size_label(a.size) if a.size is not None else ''} in "
                         f"{hist.path} (benchmarks: {known})")
    out, recs = [], []
    for (bench, variant, nranks, cfg, size, unit), tags in trend(rows).items():
        for tag, meds, _, cis in tags:
            m, lo, hi = point(meds, cis)
            recs.append({"benchmark": bench, "variant": variant or None, "nranks": nranks,
                         "config": cfg or None, "size_bytes": size, "unit": unit, "tag": tag,
                         "median": m, "ci95_low": lo, "ci95_high": hi, "launches": len(meds),
                         "min": min(meds), "max": max(meds)})
            out.append([bench + (f" [{variant}]" if variant else ""), nranks, cfg or "-",
                        size_label(size), tag, f"{fmt_num(m)} {unit}",
                        f"{fmt_num(lo)}..{fmt_num(hi)}", f"{fmt_num(min(meds))}..{fmt_num(max(meds))}",
                        len(meds)])
    if a.format == "json":
        sys.stdout.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in recs))
    else:
        print(_table(["benchmark", "ranks", "config", "size", "tag", "median", "95% CI",
                      "launch range", "launches"], out))
    for line in tool_changes(hist, rows):
        warn(line)
    return EXIT_OK


def tool_of(run):
    """What measured a launch, from its run record: (tool, version, what its
    figure is): an imported suite, or mpigauge's own run."""
    imp = run.get("imported")
    if isinstance(imp, dict):
        return imp.get("suite"), imp.get("version"), f"{imp.get('statistic')}s"
    return "mpigauge", run.get("mpigauge_version", "?"), "medians over samples"


def tool_changes(hist, rows):
    """One sentence for each pair of neighbouring tags of a series whose
    launches came from different tools (OSU's own program, then mpigauge's
    drop-in under the same name; a new version of one tool is no change): a
    step there may be the tool's."""
    tools = {}
    for r in rows:
        if r.tag not in tools:
            _, recs = hist.launch(r.launch)
            run = next((x for x in recs if isinstance(x, dict) and x.get("type") == "run"), {})
            tools[r.tag] = tool_of(run)
    tags = list(tools)
    out = []
    for before, after in zip(tags, tags[1:]):
        (t0, v0, s0), (t1, v1, s1) = tools[before], tools[after]
        if (t0, s0) != (t1, s1):
            out.append(f"the tool changed between tags {before} and {after}: {t0} {v0} ({s0}) "
                       f"-> {t1} {v1} ({s1}): a step there may be the tool's, not the "
                       "library's; tag the first run of the new tool apart (e.g. `--tag "
                       f"{after}-{t1.split()[0]}`) and measure one release with both "
                       "(doc/import.md)")
    return out


def _side(hist, spec, against=None):
    """A ResultSet of FILE, TAG or TAG@LABEL (against: the other side's tag, for last)."""
    from ..data.results import build_set, load_results
    if os.path.isfile(spec) and against is None:
        rs = load_results(spec)
        labels = sorted({la.config for la in rs.launches if la.config is not None})
        if len(labels) > 1:
            raise UsageError(f"{spec} holds the configurations {', '.join(labels)}: add it "
                             "(`history add`) and check TAG@LABEL")
        return rs, None, None
    tag, _, label = spec.partition("@")
    if tag == "last":
        tag = hist.last_tag(before=against)
        if tag is None:
            raise UsageError("no earlier tag in the history to check against")
    if not hist.has_tag(tag):
        have = ", ".join(t for t, _ in hist.tags()) or "none"
        raise UsageError(f"no tag {tag!r} in {hist.path} (tags: {have})")
    if label and label not in hist.configs(tag):
        raise UsageError(f"tag {tag!r} has no configuration {label!r} (it has: "
                         f"{', '.join(hist.configs(tag)) or 'none'})")
    recs = hist.records(tag, label or None)
    name = f"{tag}@{label}" if label else tag
    return build_set(recs, name, name), tag, label or None


def _check(hist, a):
    from ..verdict.compare import compare_sets, comparison, parse_threshold
    from ..look.render import render_json, render_markdown, render_text
    threshold = parse_threshold(a.threshold)
    floors = [parse_floor(f) for f in a.floor]
    if not 0 < a.alpha < 1:
        raise UsageError("--alpha must be between 0 and 1")
    if a.output:
        check_output_path(a.output, [a.new, a.against, hist.path])
    new, new_tag, new_label = _side(hist, a.new)
    base, base_tag, base_label = _side(hist, a.against, against=new_tag or "")
    if new_tag == base_tag and new_label == base_label:
        raise UsageError(f"NEW and --against are both {a.new!r}")
    # two configurations of one interleaved session: paired by round
    sb, sn = (hist.sessions_of(base_tag, base_label) if base_tag else set(),
              hist.sessions_of(new_tag, new_label) if new_tag else set())
    if base_label and new_label and len(sb) == 1 and sb == sn and None not in sb:
        base.keymode = new.keymode = "line"
        base.path = new.path = "session " + next(iter(sb))
    new.label = new.label or os.path.basename(a.new)
    floor_series(new, floors)
    rows, ob, on = compare_sets(base, new, threshold, a.alpha, a.error_control,
                                covariate=a.covariate)
    if not rows:
        raise UsageError(f"nothing in common between {base.label} and {new.label} (same "
                         "benchmark, variant, ranks, options, size and unit)")
    c = comparison(base, new, rows, ob, on)
    for w in c.warnings:    # what differs is said once, with the table
        warn(w)
    render = {"text": render_text, "markdown": render_markdown, "json": render_json}[a.format]
    doc = render([c], threshold, a.alpha, a.error_control)
    doc = doc if doc.endswith("\n") else doc + "\n"
    if a.output:
        write_text_atomic(a.output, doc)
    else:
        sys.stdout.write(doc)
    slower = [r for r in rows if r.verdict == "slower"]
    beyond = check_floors(new, floors)
    if slower:
        print(f"mpigauge history: regression: {len(slower)} of {len(rows)} series of "
              f"{new.label} are slower than {base.label}", file=sys.stderr)
    return EXIT_FAIL if slower or beyond else EXIT_OK


def parse_floor(text):
    """BENCH[:SIZE]=VALUE -> (bench, size or None, value); UsageError."""
    where, eq, value = text.partition("=")
    bench, colon, size = where.partition(":")
    try:
        v = float(value)
        sz = parse_size_arg(size) if colon else None
    except (ValueError, argparse.ArgumentTypeError) as e:
        raise UsageError(f"--floor {text}: BENCH[:SIZE]=VALUE, like bw:1M=10000 ({e})") from None
    if not eq or not bench or not v > 0 or not math.isfinite(v):
        raise UsageError(f"--floor {text}: BENCH[:SIZE]=VALUE with a finite positive VALUE, like "
                         "bw:1M=10000 or latency:8=2.5")
    return bench, sz, v


def floor_series(new, floors):
    """[(floor, [(key, items)])]: the series of NEW each floor applies to;
    UsageError for a floor that names none (checked before the comparison)."""
    out = []
    for bench, size, value in floors:
        hits = [(k, items) for k, items in new.series().items()
                if k.bench == bench and (size is None or k.size == size)]
        if not hits:
            raise UsageError(f"--floor {bench}{'' if size is None else ':' + size_label(size)}"
                             f": no such series in {new.label}")
        out.append(((bench, size, value), sorted(hits, key=lambda kv: kv[0].size or 0)))
    return out


def check_floors(new, floors):
    """Each floor against NEW's series: a line on standard error per series
    checked; the number whose whole 95% CI of the median is beyond it."""
    from ..verdict.verdicts import higher_is_better
    beyond = 0
    for (bench, size, value), hits in floor_series(new, floors):
        for key, items in hits:
            meds = [r["median"] for _, r in items]
            med, (lo, hi, _) = median(meds), median_ci(meds)
            up = higher_is_better(key.unit)
            out = (hi < value) if up else (lo > value)
            unclear = not out and ((lo < value) if up else (hi > value))
            state = ("BEYOND" if out else "unclear (the CI holds it)" if unclear else "met")
            beyond += out
            print(f"floor {terminal_text(bench)} {size_label(key.size)}: {fmt_num(med)} {key.unit} "
                  f"[{fmt_num(lo)}, {fmt_num(hi)}], {'at least' if up else 'at most'} "
                  f"{fmt_num(value)}: {state}", file=sys.stderr)
    return beyond


def _export(hist, a):
    if a.output:
        check_output_path(a.output, [hist.path])
    tags = a.tag or [None]
    recs = []
    for t in tags:
        if t is not None and not hist.has_tag(t):
            raise UsageError(f"no tag {t!r} in {hist.path}")
        recs += hist.records(t)
    if not recs:
        raise UsageError(f"nothing to export: {hist.path} holds no results"
                         + (f" under the tags {', '.join(a.tag)}" if a.tag else "")
                         + (f"; {a.output} was not written" if a.output else ""))
    text = "".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in recs)
    if a.output:
        write_text_atomic(a.output, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK
