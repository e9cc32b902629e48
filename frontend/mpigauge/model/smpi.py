# SPDX-License-Identifier: BSD-3-Clause
"""Export of the fitted point-to-point costs to SimGrid's SMPI (doc/models.md).

SMPI's piecewise network model times a message of s bytes from four tables
of segments, each segment starting at a size threshold (a message takes the
segment of the largest threshold at most its size):

  smpi/os      the blocking send's overhead, o + s * O seconds (MPI_Send)
  smpi/ois     the non-blocking send's overhead (MPI_Isend), the same form
  smpi/or      the receive's overhead (zero here)
  smpi/lat-factor, smpi/bw-factor   the link's latency and bandwidth, scaled

A ping-pong then costs os(s) + latency(s) per message one way, and a window
of W non-blocking sends W * ois(s) plus the latency of its last message and
the acknowledgement's one-way time. The export puts the whole one-way time
of the latency curve into the blocking send's overhead, segment by segment
(its lines fitted to hold every measured size within a tolerance: a line
may meet the axis below zero, SMPI takes that, the segment's sizes cost
what was measured), over links of no latency and a bandwidth far beyond
the curve's: the measured cost is not split into wire latency and
overhead (that split is LogGP's, from round trips of many messages).
The streaming curve (bw: W messages back to back) is fitted the same way,
its time per message g + G s per segment, and becomes ois, less the
window's share of the acknowledgement. Sends are all detached (no
rendezvous wait, smpi/send-is-detached-thresh past every size), so that the
overheads hold at every size; the platform is a crossbar of hosts (every
pair one hop at these costs, no contention) and computation between calls
is not simulated."""
import math
from typing import List, NamedTuple, Tuple
from xml.sax.saxutils import quoteattr

from .hockney import Model

LINK_BANDWIDTH = "10000GBps"    # far beyond any curve: the overheads carry the bytes
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


def tables(latency: Model, stream: Model, window: int):
    """The segments (os, ois) of the export, each a list of Segment from
    size 0: os the latency curve's lines, ois the streaming curve's less
    the window's share of the acknowledgement (os at its 4 bytes)."""
    os_ = [Segment(r.lo if i else 0, r.alpha, r.beta) for i, r in enumerate(latency.regimes)]
    ack = predict_at(os_, ACK_BYTES) / window
    ois = [Segment(r.lo if i else 0, r.alpha - ack, r.beta)
           for i, r in enumerate(stream.regimes)]
    return os_, ois


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
    os_, ois = tables(latency, stream, window)
    return [("smpi/os", _linear(os_)), ("smpi/ois", _linear(ois)), ("smpi/or", "0:0:0"),
            ("smpi/lat-factor", "0:1"), ("smpi/bw-factor", "0:1"),
            ("smpi/send-is-detached-thresh", str(DETACHED_ALL)),
            ("smpi/simulate-computation", "no"), ("network/crosstraffic", "0")]


def platform(props, hosts, comment=""):
    """A SimGrid platform file (version 4.1): the configuration, and a
    cluster of `hosts` hosts behind one backbone, none of its links with
    latency or contention (FATPIPE): the costs are the overheads'."""
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
              f'bb_lat="0us" bb_sharing_policy="FATPIPE" '
              'sharing_policy="FATPIPE"/>',
              "</platform>"]
    return "\n".join(lines) + "\n"


def hostfile(hosts):
    return "".join(f"node-{i}\n" for i in range(hosts))


def predicted(latency: Model, stream: Model, window: int, m):
    """What the export makes SMPI report at m bytes, by its own tables:
    (one-way time in us, bandwidth in MB/s, nan at 0 bytes)."""
    os_, ois = tables(latency, stream, window)
    per = predict_at(ois, m) + predict_at(os_, ACK_BYTES) / window
    return predict_at(os_, m), (m / per if m > 0 and per > 0 else math.nan)


def _at(segs, m):
    """The segment a message of m bytes takes."""
    seg = segs[0]
    for s in segs:
        if s.threshold <= m:
            seg = s
    return seg
