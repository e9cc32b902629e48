# SPDX-License-Identifier: BSD-3-Clause
"""The ranks of one row (`report --ranks BENCH:SIZE`): every rank's median
per iteration from `--per-rank` results, drawn as a strip per launch with
the hosts coloured, and the slowest rank and host named (doc/compare.md)."""
import argparse
import html
import io

from ..core.common import UsageError, parse_size_arg, plain_text, size_label


def parse_spec(text):
    """'allreduce:64K' -> ('allreduce', 65536) (argparse type)."""
    bench, _, size = text.partition(":")
    if not bench or not size:
        raise argparse.ArgumentTypeError(f"{text!r}: give BENCHMARK:SIZE, like allreduce:64K")
    return bench, parse_size_arg(size)


def rows_of(sets, bench, size):
    """[(label, launch run record, result record)] of the rows with every
    rank's median (--per-rank)."""
    out = []
    for s in sets:
        for la in s.launches:
            for r in la.results:
                if (r.get("benchmark") or la.run.get("benchmark")) == bench and \
                        r.get("size_bytes") == size and isinstance(r.get("rank_median_us"), list):
                    out.append((s.label, la.run, r))
    return out


def _finite(v):
    return -1.7976931348623157e308 <= v <= 1.7976931348623157e308 and v == v


def _fmt(v):
    """A rank's median as the table shows it; what is not a number, as it is."""
    return f"{v:.4g}" if isinstance(v, (int, float)) and not isinstance(v, bool) \
        else html.escape(str(v))


def summary(run, r):
    hosts = run.get("hosts") or []
    med = r["rank_median_us"]
    live = [(v, k) for k, v in enumerate(med) if isinstance(v, (int, float)) and v > 0]
    if not live:
        return "no rank timed"
    (hi, s), (lo, f) = max(live), min(live)
    host = (lambda k: f" on {hosts[k]}" if k < len(hosts) else "")
    return (f"slowest rank {s}{host(s)} {hi:.3g} us, fastest rank {f}{host(f)} {lo:.3g} us "
            f"({hi / lo:.2f}x)")


def section(sets, spec, no_plot):
    """The report's section for BENCH:SIZE: a line per launch, and the strip
    of its ranks (an HTML table without matplotlib)."""
    from .plot import import_pyplot
    bench, size = spec
    rows = rows_of(sets, bench, size)
    if not rows:
        raise UsageError(f"--ranks {bench}:{size_label(size)}: no result of that benchmark and "
                         "size has every rank's median (run it with --per-rank)")
    parts = [f"<h2>Ranks: {html.escape(bench)} {html.escape(size_label(size))}</h2><ul>"]
    parts += [f"<li>{html.escape(lb)} {html.escape(str(run.get('launch_id') or ''))}: "
              f"{html.escape(summary(run, r))}</li>" for lb, run, r in rows]
    parts.append("</ul>")
    plt = None if no_plot else import_pyplot()
    if plt is None:
        lb, run, r = rows[0]
        hosts = run.get("hosts") or []
        parts.append("<table><tr><th>rank</th><th>host</th><th>median (us)</th></tr>" + "".join(
            f"<tr><td>{k}</td><td>{html.escape(hosts[k] if k < len(hosts) else '')}</td>"
            f"<td>{_fmt(v)}</td></tr>" for k, v in enumerate(r["rank_median_us"])) + "</table>")
        return "\n".join(parts)
    fig, ax = plt.subplots(figsize=(10, 1.2 + 0.5 * len(rows)))
    points = {}         # host -> ([x], [y]): one scatter per host, not one per rank
    for y, (lb, run, r) in enumerate(rows):
        hosts = run.get("hosts") or []
        for k, v in enumerate(r["rank_median_us"]):
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not _finite(v):
                continue            # a rank without a median (or a damaged one)
            xs, ys = points.setdefault(hosts[k] if k < len(hosts) else "?", ([], []))
            xs.append(v)
            ys.append(y)
    for i, (h, (xs, ys)) in enumerate(points.items()):
        # more hosts than the legend can hold: the first ten named
        ax.scatter(xs, ys, color=f"C{i % 10}", s=18 if len(xs) < 2000 else 4,
                   label=plain_text(h) if i < 10 else None)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([plain_text(f"{lb} {run.get('launch_id') or ''}") for lb, run, _ in rows],
                       fontsize=7)
    ax.set_xlabel("rank's median time per iteration (us)")
    ax.set_title(plain_text(f"{bench} {size_label(size)}: every rank (colour: host)"), fontsize=9)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    parts.append(svg[svg.find("<svg"):])
    return "\n".join(parts)
