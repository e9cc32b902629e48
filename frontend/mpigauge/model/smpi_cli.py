# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge model --smpi DIR`: a set's latency and bw curves as a SimGrid
SMPI platform (model/smpi.py): DIR/platform.xml, DIR/hostfile and
DIR/smpi.json (the tables, what the export expects SMPI to report at every
measured size)."""
import json
import math
import os

from ..core.common import UsageError, check_output_folder, size_label, write_text_atomic
from .hockney import FitError, fit_within
from . import smpi

MARK = "smpi.json"
FILES = ("platform.xml", "hostfile", MARK)
DEFAULT_WINDOW = 64     # the bw programs' -W default


def check_folder(path):
    """DIR of --smpi: new, empty, or an earlier export's (its smpi.json
    says so, and it holds nothing else); never a file, a link or someone
    else's folder."""
    check_output_folder(path, "--smpi", lambda p: not set(os.listdir(p)) - set(FILES) and
                        _ours(os.path.join(p, MARK)), "an SMPI export of mpigauge")


def _ours(mark):
    try:
        with open(mark, encoding="utf-8") as f:
            return json.load(f).get("written_by") == "mpigauge model --smpi"
    except (OSError, ValueError, AttributeError):
        return False


def _window(items):
    """The bw launches' window (-W), one for all of them."""
    got = set()
    for la, _ in items:
        opts = (la.run or {}).get("options") or {}
        w = (opts.get("benchmark") or {}).get("window") if isinstance(opts, dict) else None
        got.add(w if isinstance(w, int) and w > 0 else DEFAULT_WINDOW)
    if len(got) > 1:
        raise UsageError(f"bw was run with windows {sorted(got)}: export one window at a time")
    return got.pop() if got else DEFAULT_WINDOW


def _curves(rs, nranks):
    """(latency {size: [us]}, bw {size: [MB/s]}, bw items) of a set at nranks."""
    lat, bw, items = {}, {}, []
    for key, its in rs.series().items():
        if key.nranks != nranks or not isinstance(key.size, int) or key.variant:
            continue
        if key.bench == "latency" and key.unit == "us":
            lat[key.size] = [r["median"] for _, r in its]
        elif key.bench == "bw" and key.unit == "MB/s":
            bw[key.size] = [r["median"] for _, r in its]
            items += its
    return lat, bw, items


def export(rs, folder, hosts, tolerance, figure):
    """Write the export of set rs into folder: the lines to print."""
    groups = sorted({k.nranks for k in rs.series() if k.bench == "latency"})
    if len(groups) != 1:
        raise UsageError(f"{rs.label}: --smpi needs latency at one rank count, found "
                         f"{groups or 'none'}")
    lat, bw, items = _curves(rs, groups[0])
    if not bw:
        raise UsageError(f"{rs.label}: --smpi needs the bw curve beside latency (the streaming "
                         "cost of the non-blocking sends): run bw -m 1:4M too")
    window = _window(items)
    try:
        lm = fit_within(lat, tolerance, figure)
        sm = fit_within(smpi.stream_curve(bw), tolerance, figure)
    except FitError as e:
        raise UsageError(f"{rs.label}: no SMPI export: {e}") from None
    props = smpi.config(lm, sm, window)
    check = []
    for s in sorted(set(lat) | set(bw)):
        one_way, rate = smpi.predicted(lm, sm, window, s)
        meas_l = figure_of(lat.get(s), figure)
        meas_b = figure_of(bw.get(s), "best" if figure == "best" else "median", high=True)
        check.append({"size_bytes": s, "latency_us": one_way, "measured_latency_us": meas_l,
                      "bw_mbps": None if math.isnan(rate) else rate, "measured_bw_mbps": meas_b})
    comment = (f"mpigauge model --smpi: {rs.label}, {groups[0]} ranks measured, "
               f"{len(lm.regimes)} latency and {len(sm.regimes)} streaming segments, "
               f"window {window}")
    os.makedirs(folder, exist_ok=True)
    write_text_atomic(os.path.join(folder, "platform.xml"), smpi.platform(props, hosts, comment))
    write_text_atomic(os.path.join(folder, "hostfile"), smpi.hostfile(hosts))
    doc = {"written_by": "mpigauge model --smpi", "set": rs.label, "nranks": groups[0],
           "hosts": hosts, "window": window, "figure": figure, "tolerance": tolerance,
           "config": dict(props), "sizes": check}
    write_text_atomic(os.path.join(folder, MARK), json.dumps(doc, indent=1) + "\n")
    worst = max((abs(c[k] / c["measured_" + k] - 1.0), k, c["size_bytes"])
                for c in check for k in ("latency_us", "bw_mbps")
                if c.get(k) and c.get("measured_" + k))
    out = [f"{rs.label}: SMPI export in {folder} (platform.xml, hostfile of {hosts} hosts, "
           f"{MARK}): {len(lm.regimes)} latency and {len(sm.regimes)} streaming segments, "
           f"window {window}; the tables give every measured size within "
           f"{100 * worst[0]:.1f}% (worst: {worst[1].split('_')[0]} at {size_label(worst[2])})"]
    out.append(f"  run: smpirun -platform {folder}/platform.xml -hostfile {folder}/hostfile "
               "-np N PROGRAM (compiled with smpicc; bench/smpi_check.sh proves it)")
    return out


def figure_of(vals, figure, high=False):
    """The figure standing for a size: the median, or the best launch (the
    least time, the highest rate)."""
    from ..core.stats import median
    if not vals:
        return None
    if figure == "best":
        return max(vals) if high else min(vals)
    return median(vals)
