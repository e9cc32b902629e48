# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge plot`: median against message size, one panel per benchmark,
one line per set with its CI band; or (--against ranks) against the rank
count of --ranks-sweep, one line per collective (needs matplotlib)."""
import io
import os
import math
import sys
from collections import OrderedDict

from ..core.common import (EXIT_NO_MATPLOTLIB, EXIT_OK, UsageError, check_output_path, size_label,
                           warn, write_atomic)
from ..core.common import plain_text as plain
from ..verdict.verdicts import higher_is_better
from ..data.results import bench_label, load_inputs, needs_config_label
from ..core.stats import median, median_ci


def aggregate(items):
    """Per-launch results of one key -> (median, low, high, launches): with one
    launch its own median and 95% CI; with several the median of the
    per-launch medians and its order-statistics CI (min..max for few launches)."""
    meds = [r["median"] for _, r in items]
    if len(items) == 1:
        r = items[0][1]
        lo, hi = r.get("ci95_low"), r.get("ci95_high")
        return r["median"], lo if lo is not None else r["median"], hi if hi is not None else r["median"], 1
    lo, hi, _ = median_ci(meds)
    return median(meds), lo, hi, len(meds)


def panels(sets):
    """OrderedDict panel key (a SeriesGroup) ->
    [(set, [(size, median, lo, hi)])]."""
    out = OrderedDict()
    for s in sets:
        per = OrderedDict()
        for key, items in s.series().items():
            per.setdefault(key.group(), []).append((key.size,) + aggregate(items)[:3])
        for pk, pts in per.items():
            out.setdefault(pk, []).append((s, sorted(pts)))
    return out


def import_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


MISSING_MPL = ("mpigauge plot: needs matplotlib, which this Python ({}) cannot import; install it "
               "with `apt-get install python3-matplotlib` (Debian's python3) or "
               "`python3 -m pip install matplotlib`, or run scripts/setup-deps.sh")


def make_figure(plt, sets, title=None):
    from matplotlib.ticker import FuncFormatter, LogLocator
    pans = panels(sets)
    if not pans:
        raise UsageError("nothing to plot: no results with a positive median")
    need = needs_config_label(list(pans))
    npan = len(pans)
    ncols = min(3, npan)
    nrows = (npan + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols, 3.9 * nrows), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    labels = [s.label for s in sets]
    for ax, (pk, series) in zip([a for row in axes for a in row], pans.items()):
        for s, pts in series:
            pts = [p for p in pts if p[0] > 0 and p[1] > 0]
            if not pts:
                continue
            c = colours[labels.index(s.label) % len(colours)]
            xs = [p[0] for p in pts]
            ax.plot(xs, [p[1] for p in pts], marker="o", markersize=3, color=c,
                    label=plain(s.label))
            ax.fill_between(xs, [max(p[2], 1e-300) for p in pts], [p[3] for p in pts],
                            color=c, alpha=0.2, linewidth=0)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=2, numticks=12))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: size_label(int(round(x))) if x >= 1 else ""))
        hib = higher_is_better(pk.unit)
        better = {True: "higher is better", False: "lower is better"}.get(hib, "")
        name = bench_label(pk, need)
        ax.set_title(plain(name))
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(plain(f"{pk.unit}" + (f" ({better})" if better else "")))
        ax.grid(True, which="major", alpha=0.3)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        lo, hi = ax.get_ylim()
        few = hi > 0 and lo > 0 and math.log10(hi / lo) < 1.5
        ax.yaxis.set_minor_formatter(FuncFormatter(
            lambda v, _, few=few: f"{v:g}" if few and v > 0 and
            round(v / 10 ** math.floor(math.log10(v)), 6) in (2, 3, 5) else ""))
        ax.legend(fontsize="small")
    for ax in [a for row in axes for a in row][npan:]:
        ax.set_visible(False)
    if title:
        fig.suptitle(plain(title))
    fig.tight_layout()
    return fig


def rank_lines(sets, size=None):
    """--against ranks: OrderedDict panel (set label, size, unit) -> OrderedDict
    line -> [(ranks, median, lo, hi)]. From results with variant ranks=N
    (--ranks-sweep; a line per benchmark, and a benchmark with the one size
    0, barrier, is a line of every panel of its set and unit); else from
    launches at several rank counts (`mpigauge run` over ranks=N lines; a
    line per benchmark and variant, such as footprint's stages)."""
    out, sizeless, by_count = OrderedDict(), [], OrderedDict()
    for s in sets:
        for key, items in s.series().items():
            var = key.variant or ""
            if not var.startswith("ranks="):
                if size is None or key.size == size:
                    line = key.bench + (f" [{var}]" if var else "")
                    by_count.setdefault((s.label, key.size, key.unit), OrderedDict()).setdefault(
                        line, []).append((key.nranks,) + aggregate(items)[:3])
                continue
            try:
                n = int(var[6:])
            except ValueError:
                continue
            point = (n,) + aggregate(items)[:3]
            if key.size == 0:
                sizeless.append((s.label, key.unit, key.bench, point))
            elif size is None or key.size == size:
                out.setdefault((s.label, key.size, key.unit), OrderedDict()).setdefault(
                    key.bench, []).append(point)
    for label, unit, bench, point in sizeless:
        panels = [k for k in out if k[0] == label and k[2] == unit] or [(label, 0, unit)]
        for k in panels:
            out.setdefault(k, OrderedDict()).setdefault(bench, []).append(point)
    if not out:
        for panel, lines in by_count.items():
            several = OrderedDict((ln, pts) for ln, pts in lines.items()
                                  if len({p[0] for p in pts}) > 1)
            if several:
                out[panel] = several
    for lines in out.values():
        for b in lines:
            lines[b].sort()
    return out


def make_ranks_figure(plt, sets, size=None, title=None):
    """Median against the rank count, one panel per set and size, one line
    per benchmark (a collective) with its CI band."""
    pans = rank_lines(sets, size)
    if not pans:
        raise UsageError("nothing to plot against ranks: no results with a variant ranks=N "
                         "(run the collectives with --ranks-sweep) and no benchmark measured "
                         "at several rank counts"
                         + ("" if size is None else f" at size {size}"))
    ncols = min(2, len(pans))
    nrows = (len(pans) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(7.6 * ncols, 4.8 * nrows), squeeze=False)
    flat = [a for row in axes for a in row]
    for ax, ((label, sz, unit), lines) in zip(flat, pans.items()):
        for i, (bench, pts) in enumerate(lines.items()):
            xs = [p[0] for p in pts]
            # the colour cycle has 10: past it the lines differ in style too
            line, = ax.plot(xs, [p[1] for p in pts], marker="os^"[i // 10 % 3], markersize=3,
                            linestyle=("-", "--", ":")[i // 10 % 3], label=plain(bench))
            ax.fill_between(xs, [p[2] for p in pts], [p[3] for p in pts],
                            color=line.get_color(), alpha=0.2, linewidth=0)
        ax.set_yscale("log")
        ax.set_title(plain(f"{label}: {size_label(sz)}" if sz else label))
        ax.set_xlabel("ranks")
        ax.set_ylabel(plain(unit))
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize="small", ncol=2)
    for ax in flat[len(pans):]:
        ax.set_visible(False)
    if title:
        fig.suptitle(plain(title))
    fig.tight_layout()
    return fig


def plot_svg_or_none(sets):
    plt = import_pyplot()
    if plt is None:
        return None
    fig = make_figure(plt, sets)
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    i = svg.find("<svg")
    return svg[i:] if i >= 0 else svg


def _save(plt, fig, a):
    try:
        write_atomic(a.output, lambda tmp: fig.savefig(tmp, dpi=a.dpi))
    except OSError as e:
        raise UsageError(f"cannot write {a.output}: {e.strerror}") from None
    plt.close(fig)
    print(f"mpigauge plot: wrote {a.output}", file=sys.stderr)
    return EXIT_OK


def _figure(plt, a):
    """The figure a asks for: the timeline of a samples file, or sets
    against size or rank count."""
    if a.timeline:
        from ..data.samples import load, make_timeline
        if len(a.files) != 1:
            raise UsageError("--timeline takes one samples file (mpigauge_NAME --samples FILE)")
        header, series = load(a.files[0])
        return make_timeline(plt, header, series, a.title)
    sets = load_inputs(a.files)
    for s in sets:
        for w in s.warnings:
            warn(w)
    if a.against == "ranks":
        return make_ranks_figure(plt, sets, a.size, a.title)
    if a.size is not None:
        raise UsageError("--size goes with --against ranks")
    return make_figure(plt, sets, a.title)


def cmd_plot(a):
    plt = import_pyplot()
    if plt is None:
        print(MISSING_MPL.format(sys.executable), file=sys.stderr)
        return EXIT_NO_MATPLOTLIB
    ext = os.path.splitext(a.output)[1].lower()
    if ext not in (".png", ".svg", ".pdf"):
        raise UsageError(f"-o {a.output}: the name must end in .png, .svg or .pdf")
    if not 10 <= a.dpi <= 1000:
        raise UsageError(f"--dpi {a.dpi}: give 10 to 1000")
    check_output_path(a.output, a.files)
    return _save(plt, _figure(plt, a), a)
