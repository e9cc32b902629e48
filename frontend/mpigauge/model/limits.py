# SPDX-License-Identifier: BSD-3-Clause
"""The library's own size limits (MPI_T control variables recorded with the
results) set beside the breakpoints a model found: where they agree and
where they do not (doc/models.md)."""
import re

from ..core.common import size_label
from ..data.cvars import side_sets

# a control variable that is a point-to-point message-size limit: an eager
# or rendezvous threshold, a fragment, cell or fastbox size of a transport
# (Open MPI's btl, pml and mtl components; MPICH's ch3, ch4 shared memory
# and IPC; Intel MPI's), not a GPU's, a collective's or one-sided's
LIMIT = re.compile(r"eager|rndv|rendezvous|thresh|max_send_size|cell_size|fbox", re.I)
TRANSPORT = re.compile(r"^(btl|pml|mtl)_|^MPIR_CVAR_(CH3_|CH4_SHM_|CH4_IPC_|NEMESIS_)|^I_MPI_")
NOT_PT2PT = re.compile(r"accelerator|gpu|_ofi_|multi_nic|_rma_|^osc_|coll", re.I)
# the shared-memory transports', which a run on one node uses: a limit of
# theirs that no breakpoint explains is named
SHARED = re.compile(r"^btl_(vader|sm)_|^pml_ob1_|_SHM_|_POSIX_|^I_MPI_SHM", re.I)
SMALLEST, LARGEST = 64, 1 << 30


def limits(rs):
    """{name: bytes} of the set's size limits: integer values of LIMIT's
    names of a TRANSPORT within 64 B .. 1 GiB, the same in every cvars set
    its launches ran with (a limit that differs between them is left out)."""
    seen = {}
    for digest in side_sets(rs):
        tab = rs.cvar_tables.get(digest) or {}
        for name, value in tab.items():
            if LIMIT.search(name) and TRANSPORT.search(name) and not NOT_PT2PT.search(name) \
                    and value.strip().isdigit():
                seen.setdefault(name, set()).add(int(value))
    return {n: next(iter(v)) for n, v in sorted(seen.items())
            if len(v) == 1 and SMALLEST <= next(iter(v)) <= LARGEST}


def explains(value, after, before):
    """A limit of `value` bytes puts a protocol switch between the sizes
    `after` and `before` when a message of `before` bytes (with the
    library's header) no longer fits under it: after < value <= before."""
    return after < value <= before


def beside(model, lims, lo, hi):
    """Lines: each breakpoint with the limits that explain it exactly, or
    (the shared-memory transports') within its interval; then the
    shared-memory limits within the measured sizes lo..hi that no
    breakpoint explains."""
    out, used = [], set()
    for b in model.breakpoints:
        exact = [n for n, v in lims.items() if explains(v, b.after, b.before)]
        near = [n for n, v in lims.items() if n not in exact and SHARED.search(n)
                and explains(v, b.low[0], b.high[1])]
        used.update(exact + near)
        say = "; ".join(f"{n} = {lims[n]}" for n in exact) or "no limit of the library here"
        if near:
            say += " (within its interval: " + "; ".join(f"{n} = {lims[n]}" for n in near) + ")"
        out.append(f"  breakpoint {size_label(b.after)}|{size_label(b.before)}: {say}")
    for n, v in lims.items():
        if n not in used and SHARED.search(n) and lo < v <= hi:
            out.append(f"  {n} = {v}: no breakpoint there (a limit of a path this run "
                       "did not take, or one the curve does not show)")
    return out
