# SPDX-License-Identifier: BSD-3-Clause
"""Export of the fitted point-to-point costs to SimGrid's SMPI (doc/models.md).

SMPI's piecewise network model times a message of s bytes from four tables
of segments, each segment starting at a size threshold (a message takes the
segment of the largest threshold at most its size):

  smpi/os      the blocking send's overhead, o + s * O seconds (MPI_Send)
  smpi/ois     the non-blocking send's overhead (MPI_Isend), the same form
  smpi/or      the receive's overhead (zero here)
  smpi/lat-factor, smpi/bw-factor   the link's latency and bandwidth, scaled

A blocking ping-pong then costs os(s) + latency(s) one way, a window of W
non-blocking sends W * ois(s) plus the latency of its last message and the
acknowledgement's one-way time, and a message of a collective (MPI_Isend
under the hood) ois(s) + latency(s). The export splits each size's costs
so that all three hold, from the latency curve's lines alpha + beta s and
the streaming curve's (bw: W messages back to back) per-message lines
g + G s, both fitted to hold every measured size within a tolerance,
segment by segment over the union of their breakpoints:

  latency(s) = max(0, alpha - g)       the part of a message no send pays
  os(s)      = (alpha - latency) + beta s
  ois(s)     = g + G s - (latency(s) + the acknowledgement) / W

so a ping-pong costs alpha + beta s, a window g + G s a message, and an
isend hop alpha + G s. The links' bandwidth is far beyond the curves' (the
overheads carry the bytes). A segment's line may meet the axis below zero
(superlinear sizes): SMPI takes a negative intercept, the sizes of the
segment cost what was measured. Sends are all detached (no rendezvous
wait: smpi/send-is-detached-thresh past every size) so the overheads hold
at every size; the platform is a crossbar of hosts (one hop between any
two, no contention) and computation between calls is not simulated."""
import math
from typing import List, NamedTuple, Tuple
from xml.sax.saxutils import quoteattr

from .hockney import Model

LINK_BANDWIDTH = "10000GBps"    # far beyond any curve: the overheads carry the bytes
LINK_LATENCY_US = 1.0           # the backbone's latency, scaled by smpi/lat-factor
FACTOR_ENVELOPE = 16            # bytes SMPI adds to a message in smpi/lat-factor's lookup
ACK_BYTES = 4                   # the bw programs' acknowledgement per window
DETACHED_ALL = 2 ** 31 - 1      # smpi/send-is-detached-thresh (an int) past every message


class Segment(NamedTuple):
    threshold: int      # bytes: the segment holds sizes from here
    intercept: float    # us
    slope: float        # us per byte


def stream_curve(bw_curve):
    """{size: [us per message]} from a bandwidth curve {size: [MB/s]} (a
    megabyte per second is a byte per us); sizes of 0 bytes, and launches
    without a positive rate, carry no time and are left out."""
    out = {}
    for s, vals in bw_curve.items():
        got = [s / v for v in vals if s > 0 and isinstance(v, (int, float)) and v > 0]
        if got:
            out[s] = got
    return out


def _cuts(*models):
    """The union of the models' segment starts, 0 first."""
    out = {0}
    for m in models:
        out.update(r.lo for r in m.regimes[1:])
    return sorted(out)


def _line(model, m):
    """(alpha, beta) of the regime a size of m bytes falls in."""
    return _at([Segment(r.lo if i else 0, r.alpha, r.beta)
                for i, r in enumerate(model.regimes)], m)[1:]


def tables(latency: Model, stream: Model, window: int):
    """The segments (os, ois, wire) of the export, each a list of Segment
    from size 0 (wire: the link latency in us, slope 0), as the module
    says."""
    os_, ois, wire = [], [], []
    for z in _cuts(latency, stream):
        alpha, beta = _line(latency, z)
        g, big_g = _line(stream, max(z, 1))
        lat = max(0.0, alpha - g)
        wire.append(Segment(z, lat, 0.0))
        os_.append(Segment(z, alpha - lat, beta))
        ois.append((z, g, big_g))
    ack = predict_at(os_, ACK_BYTES) + predict_at(wire, ACK_BYTES)
    ois = [Segment(z, g - (predict_at(wire, z) + ack) / window, big_g) for z, g, big_g in ois]
    return os_, ois, wire


def predict_at(segs, m):
    """A table's time in us at m bytes."""
    seg = _at(segs, m)
    return seg.intercept + seg.slope * m


def _linear(segs):
    """smpi/os's form: threshold:intercept:slope in seconds, ';'-separated.
    SMPI gives a message the segment of the largest threshold below its
    size (a message of exactly a threshold's size takes the segment
    before), so a segment from size z is written from z - 1."""
    return ";".join(f"{max(s.threshold - 1, 0)}:{_sec(s.intercept)}:{_sec(s.slope)}"
                    for s in segs)


def _sec(us):
    return f"{us * 1e-6:.9g}"


def config(latency: Model, stream: Model, window: int) -> List[Tuple[str, str]]:
    """The SMPI configuration as [(option, value)]."""
    os_, ois, wire = tables(latency, stream, window)
    return [("smpi/os", _linear(os_)), ("smpi/ois", _linear(ois)), ("smpi/or", "0:0:0"),
            ("smpi/lat-factor", _factors(wire)), ("smpi/bw-factor", "0:1"),
            ("smpi/send-is-detached-thresh", str(DETACHED_ALL)),
            ("smpi/simulate-computation", "no"), ("network/crosstraffic", "0")]


def _factors(segs):
    """smpi/lat-factor's form: threshold:factor of the platform's link
    latency (LINK_LATENCY_US). SMPI looks a message of s bytes up in this
    table as s + FACTOR_ENVELOPE bytes (SimGrid 3.32, measured: with
    thresholds 15 and 16, a message of 0 bytes takes the first and not the
    second; 8 bytes 16 and not 31; 40 bytes 48 and not 63), and as in
    _linear the segment of the largest threshold below that: a segment from
    z bytes is written from z - 1 + FACTOR_ENVELOPE."""
    return ";".join(f"{s.threshold - 1 + FACTOR_ENVELOPE if s.threshold else 0}:"
                    f"{s.intercept / LINK_LATENCY_US:.9g}" for s in segs)


def platform(props, hosts, comment=""):
    """A SimGrid platform file (version 4.1): the configuration, and a
    cluster of `hosts` hosts behind one backbone that carries the latency
    (scaled by smpi/lat-factor), no link with contention (FATPIPE)."""
    if hosts < 2:
        raise ValueError("a platform of fewer than two hosts has no messages")
    lines = ["<?xml version='1.0'?>",
             '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">']
    if comment:
        lines.append("<!-- " + comment.replace("--", "- -") + " -->")
    lines.append("  <config>")
    lines += [f"    <prop id={quoteattr(k)} value={quoteattr(v)}/>" for k, v in props]
    lines += ["  </config>",
              f'  <cluster id="mpigauge" prefix="node-" suffix="" radical="0-{hosts - 1}" '
              f'speed="1Gf" bw="{LINK_BANDWIDTH}" lat="0us" bb_bw="{LINK_BANDWIDTH}" '
              f'bb_lat="{LINK_LATENCY_US:g}us" bb_sharing_policy="FATPIPE" '
              'sharing_policy="FATPIPE"/>',
              "</platform>"]
    return "\n".join(lines) + "\n"


def hostfile(hosts):
    return "".join(f"node-{i}\n" for i in range(hosts))


def predicted(latency: Model, stream: Model, window: int, m):
    """What the export makes SMPI report at m bytes, by its own tables:
    (one-way time in us, bandwidth in MB/s, nan at 0 bytes)."""
    os_, ois, wire = tables(latency, stream, window)

    def one_way(n):
        return predict_at(os_, n) + predict_at(wire, n)
    per = predict_at(ois, m) + (predict_at(wire, m) + one_way(ACK_BYTES)) / window
    return one_way(m), (m / per if m > 0 and per > 0 else math.nan)


def _at(segs, m):
    """The segment a message of m bytes takes."""
    seg = segs[0]
    for s in segs:
        if s.threshold <= m:
            seg = s
    return seg
