# SPDX-License-Identifier: BSD-3-Clause
"""What one launch came to (ok, failed, partial, timeout, ...), from its
exit code and the JSON records it printed; never from its prose."""
import json

from ..core.common import tail_text


def parse_json_lines(data):
    """Complete JSON object lines of a program's stdout; others are ignored."""
    recs = []
    for line in data.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            recs.append(rec)
    return recs


PLUGIN_HINT = ("the launcher started separate one-rank jobs instead of one MPI job "
               "(with srun: Open MPI needs --mpi=pmix, MPICH --mpi=pmi2)")
EXIT_MEANING = {1: "validation or output failure", 2: "usage error", 77: "not applicable here",
                126: "the launcher or the program cannot be run",
                127: "the launcher, or a program it runs, not found",
                99: "MPI or internal error"}


def classify(rc, timed_out, recs, nranks, hung=False):
    """(status, message, keep_results) of one launch, from its exit code and
    the JSON records it printed (never from its prose): run records (one per
    MPI job: more than one, or a world size other than nranks, is a launch
    that formed the wrong job), error records (usage errors; code "ranks"
    with the counts), results against the run record's sizes."""
    runs = [r for r in recs if r.get("type") == "run"]
    results = [r for r in recs if r.get("type") == "result"]
    errors = [r for r in recs if r.get("type") == "error"]
    seen = sorted({r.get("nranks") for r in runs if isinstance(r.get("nranks"), int)})
    got = sorted({e.get("ranks_got") for e in errors
                  if e.get("code") == "ranks" and isinstance(e.get("ranks_got"), int)})
    if len(runs) > 1 or (seen and seen != [nranks]) or (got and got != [nranks]):
        world = "/".join(map(str, seen or got)) or "?"
        n = len(runs) if len(runs) > 1 else len(errors)
        return ("wrong-size", f"asked for {nranks} ranks but the program saw a world of "
                f"{world} ({n} {'run' if len(runs) > 1 else 'error'} records): {PLUGIN_HINT}", False)
    missing = []
    if runs:
        sizes = runs[0].get("options", {}).get("sizes_bytes") or []
        have = {r.get("size_bytes") for r in results}
        missing = [s for s in sizes if s not in have]
    complete = bool(runs) and bool(results) and not missing
    if hung and complete:
        return ("ok", "stopped after its last record: it hung at exit (in MPI_Finalize, as MPICH "
                "4.0.2 with UCX does: openucx/ucx#8738); results kept", True)
    if timed_out or hung:
        if complete:
            return ("timeout", "timed out after printing all results (hung at exit); results kept", True)
        return ("timeout", "timed out", False)
    if rc == 0:
        if not runs:
            return ("failed", "exit 0 but no run record on standard output (did the launcher "
                    "start the program?)", False)
        if not complete:
            return ("failed", f"exit 0 but results are missing for {len(missing) or 'all'} sizes "
                    "(the program was stopped early)", False)
        return ("ok", "", True)
    if rc == 77:
        return ("skipped", "not applicable here (exit 77)", False)
    msg = f"exit {rc}" + (f" ({EXIT_MEANING[rc]})" if rc in EXIT_MEANING else "")
    if rc == 1 and not runs and not errors:
        # not the program's own exit: it printed nothing (srun outside an
        # allocation, a launcher that refused its options)
        msg = f"exit {rc} with no record printed: the launcher failed or the program did not start"
    if errors:
        msg += ": " + errors[0].get("message", "")
    if rc < 0:
        msg = f"killed by signal {-rc}"
    if results and runs and not complete:
        # stopped early (Open MPI's mpirun exits 1 when a rank is killed):
        # not a validation failure; its rows are left out (--keep-partial)
        return ("partial", f"{msg}; results for {len(results)} of {len(results) + len(missing)} "
                "sizes (stopped early), left out", False)
    # exit 1 with every size: a validation failure, rows marked by the program
    return ("failed", msg, rc == 1 and complete)


def error_lines(stderr, most=6):
    """What to show of a failed launch's standard error: the program's own
    error lines ("error:"), not the launcher's banner around them; else its
    last lines."""
    if not (stderr or "").strip():
        return []
    errs = [x for x in stderr.splitlines() if "error:" in x][:3]
    return errs or tail_text(stderr, most).splitlines()
