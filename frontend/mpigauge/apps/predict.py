# SPDX-License-Identifier: BSD-3-Clause
"""A profile as a weighted suite, and the MPI time it predicts
(doc/applications.md). Each call kind of a profile stands on one mpigauge
benchmark at its size class and communicator size; the profile's MPI time
per rank is predicted as the sum of count x the benchmark's measured cost,
divided by the ranks; two sides (configurations, releases) give a ratio
with a bootstrap interval over their launches. What no benchmark stands
for (a call kind without one, a communicator of one rank, the waiting for
late ranks inside collectives) is measured in the profile and said."""
import random
from typing import NamedTuple

from ..core.common import size_label

# call -> (program, how its cost is read): "time" the program's time per
# call in us at the size (and the communicator's ranks for collectives);
# "stream" the time of one message at the program's bandwidth (MB/s);
# "none" a call whose cost the benchmark of its partner carries (an Irecv
# beside its Isend, a wait that completes what a non-blocking call started)
P2P_TIME = {"MPI_Send": "latency", "MPI_Ssend": "latency", "MPI_Rsend": "latency",
            "MPI_Bsend": "latency", "MPI_Recv": "latency"}
# at the communicator's ranks (sendrecv: the periodic chain of its ranks)
COLL_TIME = {"MPI_Sendrecv": "sendrecv", "MPI_Sendrecv_replace": "sendrecv",
             "MPI_Barrier": "barrier", "MPI_Bcast": "bcast", "MPI_Reduce": "reduce",
             "MPI_Allreduce": "allreduce", "MPI_Gather": "gather", "MPI_Gatherv": "gatherv",
             "MPI_Scatter": "scatter", "MPI_Scatterv": "scatterv", "MPI_Allgather": "allgather",
             "MPI_Allgatherv": "allgatherv", "MPI_Alltoall": "alltoall",
             "MPI_Alltoallv": "alltoallv", "MPI_Alltoallw": "alltoallw",
             "MPI_Reduce_scatter": "reduce_scatter",
             "MPI_Reduce_scatter_block": "reduce_scatter_block", "MPI_Scan": "scan",
             "MPI_Exscan": "exscan", "MPI_Ibarrier": "ibarrier", "MPI_Ibcast": "ibcast",
             "MPI_Ireduce": "ireduce", "MPI_Iallreduce": "iallreduce",
             "MPI_Iallgather": "iallgather", "MPI_Ialltoall": "ialltoall"}
RMA_TIME = {"MPI_Put": "put_latency", "MPI_Get": "get_latency", "MPI_Accumulate": "acc_latency",
            "MPI_Fetch_and_op": "fop_latency", "MPI_Compare_and_swap": "cas_latency"}
STREAM = {"MPI_Isend": "bw", "MPI_Issend": "bw"}
# atomics move one element: their programs take its type, whose size they report
ATOMIC = ("MPI_Fetch_and_op", "MPI_Compare_and_swap")
ATOMIC_TYPE = {1: "char", 4: "int", 8: "long"}
NO_SIZE = ("barrier", "ibarrier")
# the reductions reduce floats by default (4 bytes): a call of 1 or 2 bytes
# (a bool, a char, a short) is measured with their char elements (-T char)
REDUCTIONS = ("allreduce", "reduce", "scan", "exscan", "reduce_scatter",
              "reduce_scatter_block", "iallreduce", "ireduce")
FLOAT_BYTES = 4
CARRIED = ("MPI_Irecv", "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome",
           "MPI_Win_fence", "MPI_Win_lock", "MPI_Win_unlock", "MPI_Win_flush")
# the point-to-point and one-sided programs run on 2 ranks
PAIR_RANKS = 2


class Need(NamedTuple):
    """One benchmark series a profile stands on: the program, its ranks,
    the size, how its figure becomes a cost, and the calls it stands for
    (summed over the ranks) with their share of the profile's MPI time."""
    program: str
    ranks: int
    size: int
    how: str
    calls: int
    call: str
    seconds: float


class Plan(NamedTuple):
    needs: list
    unpredicted: list      # (call, size, comm size, seconds, why)
    carried: float         # seconds of calls whose cost their partner's benchmark carries
    wait: float            # collectives' seconds above their fastest rank's
    mpi_s: float           # the profile's MPI time, summed over the ranks
    nranks: int


def plan(profile):
    """The benchmarks a profile stands on (Plan)."""
    needs, unpredicted, carried, wait = [], [], 0.0, 0.0
    for c in profile.calls:
        name, size, n = c["call"], c["size_class"], c["comm_size"]
        if name in CARRIED:
            carried += c["seconds"]
            continue
        if not c.get("size_known", True) and name not in ("MPI_Barrier", "MPI_Ibarrier"):
            unpredicted.append((name, size, n, c["seconds"], "its source (mpiP) gives no size "
                                "for it"))
            continue
        if name in COLL_TIME:
            if n < 2:
                unpredicted.append((name, size, n, c["seconds"], "a communicator of one rank"))
                continue
            # per rank: above the fastest rank is waiting for the late ones
            wait += c["seconds"] - c["ranks"] * c["seconds_min"]
            # a call of no data costs what the smallest message does (the
            # programs that move data start at 1 byte)
            at = size if size > 0 or COLL_TIME[name] in NO_SIZE else 1
            needs.append(Need(COLL_TIME[name], n, at, "time", c["count"], name, c["seconds"]))
        elif name in ATOMIC:
            # one element: the program takes its type (-T), not a size
            if size not in ATOMIC_TYPE:
                unpredicted.append((name, size, n, c["seconds"], f"no element type of {size} "
                                    "bytes in its benchmark"))
                continue
            needs.append(Need(RMA_TIME[name], PAIR_RANKS, size, "time", c["count"], name,
                              c["seconds"]))
        elif name in P2P_TIME or name in RMA_TIME:
            prog = P2P_TIME.get(name) or RMA_TIME[name]
            needs.append(Need(prog, PAIR_RANKS, size, "time", c["count"], name, c["seconds"]))
        elif name in STREAM:
            needs.append(Need(STREAM[name], PAIR_RANKS, max(1, size), "stream", c["count"], name,
                              c["seconds"]))
        else:
            unpredicted.append((name, size, n, c["seconds"], "no benchmark stands for it"))
    mpi = sum(c["seconds"] for c in profile.calls)
    return Plan(needs, unpredicted, carried, wait, mpi, profile.head["nranks"])


def suite_text(p, budget=0.1, name="profile"):
    """The suite that measures what plan p needs: one line per program and
    rank count, its sizes listed."""
    sizes = {}
    for nd in p.needs:
        sizes.setdefault((nd.program, nd.ranks), set()).add(nd.size)
    lines = [f"# the benchmarks profile {name} stands on (mpigauge profile suite)"]
    for (prog, ranks), ss in sorted(sizes.items()):
        ss = sorted(ss)
        if prog in ("fop_latency", "cas_latency"):     # one line per element type
            lines += [f"ranks={ranks} {prog} -T {ATOMIC_TYPE[z]} --time-budget {budget:g}"
                      for z in ss]
            continue
        if prog in REDUCTIONS and ss[0] < FLOAT_BYTES:
            small = [z for z in ss if z < FLOAT_BYTES]
            lines.append(f"ranks={ranks} {prog} -T char{_sizes(small)} --time-budget {budget:g}")
            ss = [z for z in ss if z >= FLOAT_BYTES]
            if not ss:
                continue
        m = "" if prog in NO_SIZE else _sizes(ss)
        lines.append(f"ranks={ranks} {prog}{m} --time-budget {budget:g}")
    return "\n".join(lines) + "\n"


def _sizes(ss):
    """-m of sorted sizes: a lone size as MIN:MAX (a lone number is a
    sweep's largest size)."""
    return f" -m {ss[0]}:{ss[0]}" if len(ss) == 1 else f" -m {','.join(map(str, ss))}"


def costs(rs, p):
    """{need index: [cost per call in seconds, one per launch]} of a result
    set: each need's series (program, ranks, size), its launches' medians."""
    by = {}
    for key, items in rs.series().items():
        by.setdefault((key.bench, key.nranks, key.size, key.unit), []).extend(
            r["median"] for _, r in items)
    out = {}
    for i, nd in enumerate(p.needs):
        unit = "MB/s" if nd.how == "stream" else "us"
        vals = by.get((nd.program, nd.ranks, nd.size, unit))
        if vals:
            out[i] = [(nd.size / v if nd.how == "stream" else v) * 1e-6 for v in vals]
    return out


def _median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def total(p, cost):
    """The predicted MPI time per rank: sum of calls x cost, over the ranks."""
    return sum(p.needs[i].calls * _median(v) for i, v in cost.items()) / max(1, p.nranks)


class Prediction(NamedTuple):
    base_s: float
    new_s: float
    ratio: float
    ci: tuple
    verdict: str
    contributions: list     # (delta seconds per rank, need) largest first
    missing: list           # needs neither side measured
    covered: float          # share of the profile's MPI time the needs stand for


def compare(p, base_rs, new_rs, threshold=0.05, reps=2000, seed=1):
    """The profile's predicted MPI time under base and new, their ratio with
    a 95% bootstrap interval (launches resampled within each series and
    side), a verdict and each call's contribution to the change."""
    cb, cn = costs(base_rs, p), costs(new_rs, p)
    both = sorted(set(cb) & set(cn))
    missing = [p.needs[i] for i in range(len(p.needs)) if i not in both]
    cb = {i: cb[i] for i in both}
    cn = {i: cn[i] for i in both}
    tb, tn = total(p, cb), total(p, cn)
    rng = random.Random(seed)
    ratios = []
    for _ in range(reps if both else 0):
        rb = {i: [rng.choice(v) for _ in v] for i, v in cb.items()}
        rn = {i: [rng.choice(v) for _ in v] for i, v in cn.items()}
        b = total(p, rb)
        ratios.append(total(p, rn) / b if b > 0 else float("inf"))
    ratios.sort()
    ci = (ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]) if ratios \
        else (float("nan"), float("nan"))
    ratio = tn / tb if tb > 0 else float("nan")
    contrib = sorted(((p.needs[i].calls * (_median(cn[i]) - _median(cb[i])) / max(1, p.nranks),
                       p.needs[i]) for i in both), key=lambda x: -abs(x[0]))
    # the calls measured, and the waits and receives their benchmarks carry
    covered = (sum(p.needs[i].seconds for i in both) + (p.carried if both else 0.0)) / p.mpi_s \
        if p.mpi_s > 0 else 0.0
    return Prediction(tb, tn, ratio, ci, _verdict(ci, threshold), contrib, missing, covered)


def _verdict(ci, threshold):
    lo, hi = ci
    if lo != lo:
        return "unclear"
    if lo > 1 + threshold:
        return "slower"
    if hi < 1 / (1 + threshold):
        return "faster"
    if lo >= 1 / (1 + threshold) and hi <= 1 + threshold:
        return "same"
    return "unclear"


def fmt_s(s):
    """Seconds in s, ms or us, three digits."""
    a = abs(s)
    return f"{s:.3g} s" if a >= 1 or s == 0 else f"{s * 1e3:.3g} ms" if a >= 1e-3 else \
        f"{s * 1e6:.3g} us"


def headline(name, pr):
    """The profile's line: its MPI time under both sides, the ratio with its
    interval, the verdict, the calls that made most of the change."""
    top = [f"{nd.call} {size_label(nd.size)} ({'+' if d >= 0 else '-'}{fmt_s(abs(d))})"
           for d, nd in pr.contributions[:2] if d != 0]
    lo, hi = pr.ci
    return (f"profile {name}: MPI time {fmt_s(pr.base_s)} -> {fmt_s(pr.new_s)} "
            f"(x{pr.ratio:.2f}, 95% CI {lo:.2f}-{hi:.2f}): {pr.verdict}"
            + (f"; most of it {', '.join(top)}" if top else ""))


def details(p, pr, top=8):
    """The lines after the headline: contributions per call, then what the
    prediction does not cover (measured in the profile, never hidden)."""
    out = ["  contributions per call (per rank, new - base):"]
    for d, nd in pr.contributions[:top]:
        out.append(f"    {nd.call:<22} {size_label(nd.size):>5} on {nd.ranks} ranks, "
                   f"{nd.calls} calls: {'+' if d >= 0 else '-'}{fmt_s(abs(d))}")
    mpi = p.mpi_s or 1.0
    own = p.mpi_s / max(1, p.nranks)
    out.append(f"  the profile itself measured {fmt_s(own)} of MPI per rank, the benchmarks "
               f"predict {fmt_s(pr.base_s)} of it under the base: the difference is time no "
               "benchmark sees (waiting for partners and late ranks) or another library")
    out.append(f"  the benchmarks stand for {100 * pr.covered:.0f}% of the profile's MPI time"
               + (f" ({100 * p.carried / mpi:.0f}% of it in waits and receives whose cost the "
                  "sends' and collectives' benchmarks carry)" if p.carried else "")
               + "; what they do not:")
    if p.wait > 0:
        out.append(f"    {100 * p.wait / mpi:.0f}% waiting for late ranks inside collectives "
                   "(load imbalance: no benchmark predicts it)")
    for name, size, n, secs, why in sorted(p.unpredicted, key=lambda x: -x[3])[:5]:
        out.append(f"    {100 * secs / mpi:.1f}% {name} {size_label(size)}: {why}")
    for nd in pr.missing[:5]:
        out.append(f"    {100 * nd.seconds / mpi:.1f}% {nd.call} {size_label(nd.size)}: "
                   f"{nd.program} at {nd.ranks} ranks was not measured on both sides "
                   "(mpigauge profile suite)")
    return out
