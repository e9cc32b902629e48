# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge guidelines run|report|list`: the self-consistent performance
guidelines (doc/guidelines.md) measured with mpigauge_guidelines, every
rule at every rank count as one suite line, K rounds (and configurations,
interleaved, as `mpigauge run`), then judged: holds, violated (by how much,
with the interval and the settings that chose the algorithm) or unclear."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

from ..core.common import (EXIT_FAIL, EXIT_OK, UsageError, check_output_path, parse_size_arg,
                           write_text_atomic)
from .guidelines import VIOLATED, checks, render_json, render_text
from ..verdict.options import (add_verdict_options, check_launch_limits, check_seconds,
                               with_threshold)
from ..launch.programs import find_program, program_dirs


def rules_of(bindirs):
    """[(name, guideline)] as mpigauge_guidelines lists them."""
    dirs = [os.path.join(d, sub) for d in program_dirs(bindirs) for sub in ("", "collective")]
    prog = find_program("guidelines", dirs)
    if prog is None:
        raise UsageError("no mpigauge_guidelines program (give --bindir, a build folder)")
    p = subprocess.run([prog, "--list-rules"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise UsageError(f"{prog} --list-rules failed: {p.stderr.strip()[:200]}")
    return [tuple(line.split(None, 1)) for line in p.stdout.splitlines() if line.strip()]


def suite_text(rules, nranks, sizes, budget):
    """One line per rule and rank count."""
    return "".join(f"ranks={n} guidelines --rule {r} -m {sizes} --time-budget {budget:g}\n"
                   for n in nranks for r in rules)


def _ranks(text):
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        out = []
    if not out or min(out) < 2:
        raise UsageError(f"-n {text}: give rank counts of at least 2, like 2,4")
    return out


def _pick(known, wanted):
    names = [n for n, _ in known]
    if wanted is None or wanted == "all":
        return names
    if not wanted.strip():
        raise UsageError("--rules '': give rule names (mpigauge guidelines list) or all")
    out = []
    for w in wanted.split(","):
        if w not in names:
            raise UsageError(f"--rules: no rule {w!r} (mpigauge guidelines list)")
        out.append(w)
    return out


def measure(a, rules, nranks, sizes, out, configs):
    """One `mpigauge run` of the rules (a suite line per rule and rank count)
    into out; its exit code."""
    from ..measure.configs import parse_config_arg
    from ..measure.runrequest import RunRequest, run
    with tempfile.TemporaryDirectory(prefix="mg-guidelines-") as d:
        suite = os.path.join(d, "guidelines.txt")
        with open(suite, "w", encoding="utf-8") as f:
            f.write(suite_text(rules, nranks, sizes, a.time_budget))
        return run(RunRequest(suite=suite, output=out, repeat=a.rounds, force=bool(a.force),
                              bindir=[a.bindir] if a.bindir is not None else None,
                              timeout=a.timeout, launcher=a.launcher, max_ranks=a.max_ranks,
                              seed=a.seed, quiet=bool(a.quiet),
                              configs=[parse_config_arg(c) for c in configs or []]))


def _sizes(text):
    """-m as the program takes it (N, MIN:MAX or a list N,N,...), checked
    here: option text never becomes suite syntax."""
    import argparse
    ok = re.fullmatch(r"[^:,\s]+(:[^:,\s]+)?|[^:,\s]+(,[^:,\s]+)*", text)
    try:
        if not ok:
            raise argparse.ArgumentTypeError(text)
        for x in re.split(r"[:,]", text):
            parse_size_arg(x)
    except argparse.ArgumentTypeError:
        raise UsageError(f"-m {text!r}: give sizes as N, MIN:MAX or N,N,... (like 64:64K)") \
            from None
    return text


def _check_run_options(a):
    """Every option of `guidelines run` checked before anything is launched."""
    if not a.output:
        raise UsageError("guidelines run needs -o FILE.jsonl (the results)")
    check_output_path(a.output)
    if a.report:
        # the report would replace the results it is made from
        check_output_path(a.report, [a.output], opt="--report")
    _sizes(a.sizes)
    check_seconds("--time-budget", a.time_budget)
    if a.rounds < 1:
        raise UsageError(f"--rounds {a.rounds}: give 1 or more (a verdict needs 2 or more)")
    check_launch_limits(a)
    _ranks(a.nranks)


def cmd_run(a):
    _check_run_options(a)
    rules = _pick(rules_of(a.bindir and [a.bindir]), a.rules)
    rc = measure(a, rules, _ranks(a.nranks), a.sizes, a.output, a.config)
    if not os.path.isfile(a.output):
        return rc
    out = report(a)
    return out if rc == EXIT_OK else rc


def try_configs(cs, configs):
    """For each violated rule of an Open MPI run whose collective coll_tuned
    can force: (rule, rank counts, sizes, [--config text]) with one
    configuration per algorithm, each the violated run's own configuration
    (by label; the default one without --config) plus the forcing."""
    from ..verdict.tuning import OMPI_ALGORITHMS
    given = {c.split()[0]: c for c in configs or []}
    want = {}
    for c in cs:
        op = c.says.split("(", 1)[0].lower()
        if c.verdict != VIOLATED or c.rule == "monotony" or op not in OMPI_ALGORITHMS \
                or "Open MPI" not in c.library:
            continue
        w = want.setdefault((c.config, c.rule, op), (set(), set()))
        w[0].add(c.nranks)
        w[1].add(c.size)
    out = []
    for (config, rule, op), (ranks, sizes) in want.items():
        base = given.get(config, config or "default")
        algs = OMPI_ALGORITHMS[op].split()[1:]
        cfgs = [f"{base.split()[0]}-{name} " + " ".join(base.split()[1:]) +
                f" OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_{op}_algorithm={k}"
                for k, name in enumerate(algs, 1)]
        out.append((rule, sorted(ranks), sorted(sizes), [base] + cfgs))
    return out


def run_tries(a, cs):
    """--try-algorithms: every violated rule again, its library's choice and
    each algorithm coll_tuned can force, interleaved; the verdicts per
    algorithm (files beside -o: FILE.try-RULE.jsonl)."""
    for rule, ranks, sizes, cfgs in try_configs(cs, a.config):
        out = f"{os.path.splitext(a.output)[0]}.try-{rule}.jsonl"
        print(f"\n{rule}: the library's choice and {len(cfgs) - 1} forced algorithms, "
              f"{a.rounds} rounds -> {out}", flush=True)
        # one size as MIN:MAX (a lone number is a sweep's largest size)
        measure(a, [rule], ranks, ",".join(str(x) for x in sizes) if len(sizes) > 1
                else f"{sizes[0]}:{sizes[0]}", out, cfgs)
        if os.path.isfile(out):
            tried = checks(out, a.threshold_value, a.alpha, a.error_control)
            sys.stdout.write(render_tries(rule, tried))


def render_tries(rule, tried):
    """One line per configuration: the verdict at each size."""
    lines = []
    for label in dict.fromkeys(c.config for c in tried):
        mine = [c for c in tried if c.config == label and c.rule == rule]
        lines.append(f"  {label:<34} " + " ".join(
            f"{c.size}:{c.verdict}({c.ratio:.2f})" for c in sorted(mine, key=lambda x: x.size)))
    return "\n".join(lines) + "\n"


def report(a):
    cs = checks(a.output, a.threshold_value, a.alpha, a.error_control)
    text = render_json(cs) if a.format == "json" else render_text(
        cs, a.threshold_value, a.alpha, a.show)
    if a.report:
        write_text_atomic(a.report, text)
    sys.stdout.write(text)
    if getattr(a, "try_algorithms", False) and a.format == "text":
        run_tries(a, cs)
    if a.fail_on_violation and any(c.verdict == VIOLATED for c in cs):
        return EXIT_FAIL
    return EXIT_OK


def cmd(a):
    if a.action == "list":
        for name, says in rules_of(a.bindir and [a.bindir]):
            print(f"{name:<48} {says}")
        return EXIT_OK
    if a.action == "report":
        if len(a.files) != 1:
            raise UsageError("guidelines report needs one results file")
        a.output = a.files[0]
        if a.report:
            check_output_path(a.report, [a.output], opt="--report")
        return report(a)
    if a.files:
        raise UsageError(f"guidelines run takes no files ({shlex.join(a.files)}): -o names "
                         "the results")
    return cmd_run(a)


def add_parser(sub):
    g = sub.add_parser("guidelines", help="the self-consistent performance guidelines as "
                       "verdicts: holds, violated, unclear",
                       description="Measure each guideline's collective and its mock-up "
                       "(MPI_Allreduce(n) against MPI_Reduce(n) + MPI_Bcast(n), ...) in one "
                       "launch per rule and rank count, K rounds, and judge them pair by pair "
                       "of the same launch with compare's statistics and error control; "
                       "monotony (no slower at a size than at the next larger one) from the "
                       "same launches (doc/guidelines.md).")
    g.add_argument("action", choices=("run", "report", "list"))
    g.add_argument("files", nargs="*", metavar="FILE", help="report: the results file")
    g.add_argument("--rules", help="run: a comma-separated list of rules (default all)")
    g.add_argument("-n", "--nranks", default="2", help="run: rank counts, like 2,4 (default 2)")
    g.add_argument("-m", "--sizes", default="64:64K",
                   help="run: n, the bytes of the whole result (a multiple of 4 times the "
                   "ranks; default 64:64K)")
    g.add_argument("--rounds", type=int, default=10, help="run: launches per rule and rank "
                   "count (default 10)")
    g.add_argument("--time-budget", type=float, default=0.05,
                   help="run: measuring time per size and side, seconds (default 0.05)")
    g.add_argument("--config", action="append", metavar="'LABEL [KEY=VALUE...]'",
                   help="run: a configuration (as mpigauge run; repeatable, interleaved)")
    g.add_argument("--bindir", help="the build folder")
    g.add_argument("--timeout", type=float, default=None)
    g.add_argument("--launcher", default=None)
    g.add_argument("--max-ranks", type=int, default=None)
    g.add_argument("--seed", type=int, default=None)
    g.add_argument("-o", "--output", help="run: the results file (JSON Lines)")
    g.add_argument("--force", action="store_true", help="run: replace -o's file")
    g.add_argument("--report", metavar="FILE", help="write the report to FILE as well")
    g.add_argument("--format", choices=("text", "json"), default="text")
    g.add_argument("--show", choices=("violated", "all"), default="violated",
                   help="text: the checks listed one by one (default the violations)")
    g.add_argument("--try-algorithms", action="store_true",
                   help="run: with Open MPI, run each violated rule again with every "
                   "algorithm coll_tuned can force for its collective, interleaved with the "
                   "library's choice, and say which hold")
    g.add_argument("--fail-on-violation", action="store_true",
                   help="exit 1 when a guideline is violated")
    g.add_argument("-q", "--quiet", action="store_true")
    add_verdict_options(g)
    g.set_defaults(func=with_threshold(cmd))
