# SPDX-License-Identifier: BSD-3-Clause
"""The model checks itself (doc/models.md): a collective's cost predicted
from the point-to-point Hockney model, for the algorithm the library says
served it (the run record's `algorithm`, known when a cvar forces one), at
the run's rank count, set against the measured time.

An algorithm is the list of message sizes on its critical path, each
costing the one-way time t(s) of the latency curve's regime (hockney.
predict): a binomial tree is ceil(log2 P) messages of m bytes, a ring
allreduce 2 (P - 1) messages of m / P, and so on (ALGORITHMS). Sends that
a library overlaps, the reductions' arithmetic and contention are not in
the model: a collective measured well above its model does more than its
algorithm needs (or waits: ranks that share a core), one well below it
overlaps what the model counts in turn."""
import math

from .hockney import predict


def _lg(p):
    return max(1, math.ceil(math.log2(p))) if p > 1 else 0


def _halving(p, m):
    """m/2, m/4, ... (log2 P steps): recursive halving."""
    return [max(1, math.ceil(m / 2 ** k)) for k in range(1, _lg(p) + 1)] if m else [0] * _lg(p)


def _doubling(p, m):
    """m, 2m, 4m, ... (log2 P steps): recursive doubling of blocks."""
    return [m * 2 ** k for k in range(_lg(p))]


def _share(p, m):
    return max(1, math.ceil(m / p)) if m else 0


def TREE(p, m):
    """ceil(log2 P) messages of m bytes."""
    return [m] * _lg(p)


def LINEAR(p, m):
    """P - 1 messages of m bytes, one after the other."""
    return [m] * (p - 1)


# (operation, algorithm) -> (what it sends, the critical path's sizes);
# m is the operation's size (bcast, reduce, allreduce: the buffer; gather,
# scatter, allgather, alltoall: one block)
ALGORITHMS = {
    ("bcast", "binomial"): ("ceil(log2 P) x m", TREE),
    ("bcast", "bintree"): ("ceil(log2 P) x m", TREE),
    ("bcast", "knomial"): ("ceil(log2 P) x m", TREE),
    ("bcast", "linear"): ("(P-1) x m from the root", LINEAR),
    ("bcast", "basic_linear"): ("(P-1) x m from the root", LINEAR),
    ("bcast", "scatter_recursive_doubling_allgather"):
        ("scatter m/2 .. m/P, then allgather m/P .. m/2",
         lambda p, m: _halving(p, m) + _doubling(p, _share(p, m))),
    ("bcast", "scatter_ring_allgather"):
        ("scatter m/2 .. m/P, then (P-1) x m/P", lambda p, m: _halving(p, m) +
         [_share(p, m)] * (p - 1)),
    ("reduce", "binomial"): ("ceil(log2 P) x m", TREE),
    ("reduce", "knomial"): ("ceil(log2 P) x m", TREE),
    ("reduce", "linear"): ("(P-1) x m into the root", LINEAR),
    ("reduce", "basic_linear"): ("(P-1) x m into the root", LINEAR),
    ("reduce", "rabenseifner"): ("halving m/2 .. m/P twice", lambda p, m: 2 * _halving(p, m)),
    ("reduce", "reduce_scatter_gather"):
        ("halving m/2 .. m/P twice", lambda p, m: 2 * _halving(p, m)),
    ("allreduce", "recursive_doubling"): ("ceil(log2 P) x m", TREE),
    ("allreduce", "recexch"): ("ceil(log2 P) x m", TREE),
    ("allreduce", "ring"): ("2 (P-1) x m/P", lambda p, m: [_share(p, m)] * (2 * (p - 1))),
    ("allreduce", "segmented_ring"):
        ("2 (P-1) x m/P", lambda p, m: [_share(p, m)] * (2 * (p - 1))),
    ("allreduce", "rabenseifner"): ("halving m/2 .. m/P twice", lambda p, m: 2 * _halving(p, m)),
    ("allreduce", "reduce_scatter_allgather"):
        ("halving m/2 .. m/P twice", lambda p, m: 2 * _halving(p, m)),
    ("allreduce", "nonoverlapping"):
        ("a binomial reduce and bcast: 2 ceil(log2 P) x m", lambda p, m: [m] * (2 * _lg(p))),
    ("allreduce", "basic_linear"):
        ("a linear reduce and bcast: 2 (P-1) x m", lambda p, m: [m] * (2 * (p - 1))),
    ("allgather", "ring"): ("(P-1) x m", LINEAR),
    ("allgather", "neighbor_exchange"): ("(P-1) x m", LINEAR),
    ("allgather", "linear"): ("(P-1) x m", LINEAR),
    ("allgather", "basic_linear"): ("(P-1) x m", LINEAR),
    ("allgather", "recursive_doubling"): ("m, 2m .. P/2 m", _doubling),
    ("allgather", "bruck"): ("m, 2m .. P/2 m", _doubling),
    ("allgather", "brucks"): ("m, 2m .. P/2 m", _doubling),
    ("alltoall", "pairwise"): ("(P-1) x m", LINEAR),
    ("alltoall", "linear"): ("(P-1) x m", LINEAR),
    ("alltoall", "basic_linear"): ("(P-1) x m", LINEAR),
    ("alltoall", "scattered"): ("(P-1) x m", LINEAR),
    ("alltoall", "linear_sync"): ("(P-1) x m", LINEAR),
    ("alltoall", "bruck"): ("ceil(log2 P) x P/2 m", lambda p, m: [m * p // 2] * _lg(p)),
    ("alltoall", "brucks"): ("ceil(log2 P) x P/2 m", lambda p, m: [m * p // 2] * _lg(p)),
    ("barrier", "recursive_doubling"): ("ceil(log2 P) x 0 B", lambda p, m: [0] * _lg(p)),
    ("barrier", "dissemination"): ("ceil(log2 P) x 0 B", lambda p, m: [0] * _lg(p)),
    ("barrier", "bruck"): ("ceil(log2 P) x 0 B", lambda p, m: [0] * _lg(p)),
    ("barrier", "linear"): ("2 (P-1) x 0 B", lambda p, m: [0] * (2 * (p - 1))),
    ("barrier", "basic_linear"): ("2 (P-1) x 0 B", lambda p, m: [0] * (2 * (p - 1))),
    ("barrier", "double_ring"): ("2 P x 0 B", lambda p, m: [0] * (2 * p)),
    ("gather", "binomial"): ("m, 2m .. P/2 m into the root", _doubling),
    ("gather", "linear"): ("(P-1) x m into the root", LINEAR),
    ("gather", "basic_linear"): ("(P-1) x m into the root", LINEAR),
    ("scatter", "binomial"): ("P/2 m .. m from the root", lambda p, m: _doubling(p, m)[::-1]),
    ("scatter", "linear"): ("(P-1) x m from the root", LINEAR),
    ("scatter", "basic_linear"): ("(P-1) x m from the root", LINEAR),
}


def served(algorithm):
    """The algorithm's name from a row's `algorithm` (CVAR=NAME), lower
    case; None when unknown."""
    if not isinstance(algorithm, str) or "=" not in algorithm:
        return None
    name = algorithm.split("=", 1)[1].strip().lower()
    return name or None


def operation(bench):
    """The collective a benchmark times (persistent _init: the same)."""
    return bench[:-5] if bench.endswith("_init") else bench


def path(op, alg, p, m):
    """(what it sends, [message sizes on the critical path]) or None when
    the algorithm has no model here."""
    got = ALGORITHMS.get((operation(op), alg))
    return None if got is None else (got[0], got[1](p, m))


def predicted(model, op, alg, p, m):
    """The model's time in us of the collective, or None."""
    got = path(op, alg, p, m)
    if got is None:
        return None
    return sum(predict(model, s) for s in got[1])
