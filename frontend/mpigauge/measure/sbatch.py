# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge run --sbatch FILE`: the run as a Slurm job script, nothing run;
`--allocations K`: the same suite in K allocations, a job array whose task
i runs the whole interleaved run into OUT.i.jsonl; without --sbatch it is
submitted (`sbatch --wait`) and the tasks' results joined into OUT
(doc/slurm.md)."""
import datetime
import os
import shlex
import shutil
import subprocess
import sys

from ..core.common import EXIT_FAIL, EXIT_OK, PATHS, UsageError, version, write_atomic
from ..data.results import allocation_words, read_records

MAX_ALLOCATIONS = 1000
# the options the script writes itself (each with its value)
OWN = ("--sbatch", "--allocations", "--sbatch-option", "-o", "--output", "--force",
       "--exclude-previous")
FLAGS = ("--force", "--exclude-previous")   # of OWN, those without a value


def frontend_command():
    """How a job starts this front-end: the `mpigauge` script beside the
    package (the build tree's or the installed one), else mpigauge.py."""
    d = PATHS["script_dir"]
    for name in ("mpigauge", "mpigauge.py"):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            p = os.path.abspath(p)
            return [p] if os.access(p, os.X_OK) else [sys.executable, p]
    raise UsageError(f"--sbatch: no mpigauge script in {d} to start in the job")


def run_arguments(argv, parse):
    """The run's own arguments (after `run`) without the options the script
    writes itself; parse(words) -> the parsed options, to check that none of
    them is left (an abbreviation such as --sbat)."""
    out, i = [], 0
    while i < len(argv):
        w = argv[i]
        if w == "--":
            out += argv[i:]
            break
        name = w.split("=", 1)[0]
        if name in OWN:
            i += 1 if ("=" in w or name in FLAGS) else 2
            continue
        if w.startswith("-o") and not w.startswith("--") and len(w) > 2:
            i += 1
            continue
        out.append(w)
        i += 1
    left = parse(out)
    if left.sbatch or left.allocations is not None or left.output or left.sbatch_option \
            or left.force or left.exclude_previous:
        raise UsageError("--sbatch, --allocations: give --sbatch, --allocations, "
                         "--sbatch-option and -o in full, each once")
    return out


def task_output(output, task):
    base, ext = os.path.splitext(output)
    return f"{base}.{task}{ext or '.jsonl'}"


def job_script(args, output, k, nranks, options, cwd, command, force=False):
    """The job script's text: `command run ARGS -o OUTPUT` in the submit
    folder, as a job array of k tasks when k > 1."""
    base, ext = os.path.splitext(output)
    log = os.path.join(cwd, base)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["#!/bin/bash",
             f"# `mpigauge run` as a Slurm job, written by `mpigauge run --sbatch` "
             f"(mpigauge {version()}, {when}).",
             "# Options of sbatch on its command line override the #SBATCH lines."]
    if k > 1:
        lines += [f"# {k} allocations: a job array; task i runs the whole interleaved suite in "
                  "an allocation of its own",
                  f"# into {base}.i{ext or '.jsonl'} (every run record names its allocation: "
                  "doc/slurm.md).",
                  "#SBATCH --job-name=mpigauge-allocations",
                  f"#SBATCH --array=1-{k}",
                  f"#SBATCH --output={log}.%a.out"]
        out = shlex.quote(base + ".") + '"$SLURM_ARRAY_TASK_ID"' + shlex.quote(ext or ".jsonl")
    else:
        lines += ["#SBATCH --job-name=mpigauge-run", f"#SBATCH --output={log}.out"]
        out = shlex.quote(output)
    lines.append(f"#SBATCH --ntasks={nranks}")
    lines += [f"#SBATCH {o}" for o in options]
    cut = args.index("--") if "--" in args else len(args)
    cmd = " ".join(shlex.quote(w) for w in command + ["run"] + args[:cut])
    rest = " ".join(shlex.quote(w) for w in args[cut:])
    lines += ["set -eu", f"cd {shlex.quote(cwd)}",
              f"exec {cmd} -o {out}{' --force' if force else ''}{' ' + rest if rest else ''}",
              ""]
    return "\n".join(lines)


def _check_options(options):
    for o in options:
        if not o.startswith("-") or "\n" in o:
            raise UsageError(f"--sbatch-option {o!r}: one option of sbatch (e.g. "
                             "--sbatch-option=--nodes=2)")


def _refuse_existing(paths, force):
    for p in paths:
        if os.path.lexists(p) and not (force and os.path.isfile(p) and not os.path.islink(p)):
            raise UsageError(f"{p} exists (--force replaces a regular file)")


def cmd(a, entries, parse):
    """--sbatch and/or --allocations: write the script; submit and join
    when --sbatch is not given."""
    k = 1 if a.allocations is None else a.allocations
    if not 1 <= k <= MAX_ALLOCATIONS:
        raise UsageError(f"--allocations must be between 1 and {MAX_ALLOCATIONS}")
    if not a.output:
        raise UsageError("--sbatch, --allocations: -o FILE (the results file) is required")
    if any(c.isspace() or c == "%" for c in os.path.abspath(a.output)):
        raise UsageError(f"-o {a.output}: a job script's output path without spaces or %")
    options = list(a.sbatch_option or [])
    _check_options(options)
    args = run_arguments(a.argv[1:] if a.argv[:1] == ["run"] else a.argv, parse)
    nranks = max((e.ranks or a.nranks) for e in entries)
    outputs = [task_output(a.output, i) for i in range(1, k + 1)] if k > 1 else [a.output]
    if not a.sbatch and shutil.which("sbatch") is None:
        raise UsageError(f"--allocations {k}: the {k} allocations are a Slurm job array, and "
                         "sbatch is not on PATH (outside Slurm there is one allocation: run "
                         "without --allocations, or write the script with --sbatch FILE)")
    if a.exclude_previous:
        if a.sbatch or k < 2:
            raise UsageError("--exclude-previous: K dependent jobs that it submits itself "
                             "(--allocations K of 2 or more, without --sbatch)")
        scripts = [os.path.splitext(o)[0] + ".sbatch" for o in outputs]
        _refuse_existing(scripts + outputs + [a.output], a.force)
        texts = [job_script(args, o, 1, nranks, options, os.getcwd(), frontend_command(),
                            a.force) for o in outputs]
        return submit_dependent(scripts, texts, outputs, a.output)
    script = a.sbatch or os.path.splitext(a.output)[0] + ".sbatch"
    _refuse_existing([script] + (outputs if a.sbatch else outputs + [a.output] * (k > 1)),
                     a.force)
    text = job_script(args, a.output, k, nranks, options, os.getcwd(), frontend_command(),
                      a.force)
    with open(script, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(script, 0o755)
    if a.sbatch:
        print(f"mpigauge run: wrote {script}: submit it with sbatch"
              + (f" ({k} allocations, a job array)" if k > 1 else ""))
        return EXIT_OK
    return submit(script, outputs, a.output, k)


def submit(script, outputs, output, k):
    """sbatch --wait the script; the tasks' results joined into output."""
    p = subprocess.run(["sbatch", "--wait", "--parsable", script], stdout=subprocess.PIPE,
                       text=True)
    job = p.stdout.strip().split(";")[0]
    print(f"mpigauge run: job {job or '?'}: {k} allocation{'s' * (k > 1)}, "
          f"sbatch exit {p.returncode}", file=sys.stderr)
    missing = [o for o in outputs if not os.path.isfile(o)]
    for line in allocation_lines(outputs):
        print(line)
    if k > 1:
        join(outputs, output)
    if missing:
        print("mpigauge run: error: no results from " + ", ".join(missing), file=sys.stderr)
    return EXIT_OK if p.returncode == 0 and not missing else EXIT_FAIL


def _sbatch(script, exclude):
    cmd = ["sbatch", "--wait", "--parsable"] + ([f"--exclude={exclude}"] if exclude else [])
    p = subprocess.run(cmd + [script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout.strip().split(";")[0], p.stderr.strip()


def submit_dependent(scripts, texts, outputs, output):
    """--exclude-previous: one job per allocation, each submitted when the
    one before it has ended, asking Slurm to leave out every node of the
    allocations before it; where no allocation is possible without them
    (sbatch refuses the request), submitted again without and said."""
    nodes, rcs = [], []
    for i, (script, text, out) in enumerate(zip(scripts, texts, outputs), 1):
        with open(script, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(script, 0o755)
        exclude = ",".join(nodes)
        rc, job, err = _sbatch(script, exclude)
        if rc != 0 and exclude and not os.path.isfile(out):
            print(f"mpigauge run: allocation {i}: sbatch refused it without the nodes of the "
                  f"allocations before it ({exclude}: {err.splitlines()[-1] if err else rc}); "
                  "submitted again without --exclude", file=sys.stderr)
            rc, job, err = _sbatch(script, "")
        print(f"mpigauge run: job {job or '?'}: allocation {i} of {len(scripts)}"
              + (f", without {exclude}" if exclude and rc == 0 else "")
              + f", sbatch exit {rc}", file=sys.stderr)
        rcs.append(rc)
        got = (_allocation(out)[0] or {}).get("nodelist")
        if got and got not in nodes:
            nodes.append(got)
    missing = [o for o in outputs if not os.path.isfile(o)]
    for line in allocation_lines(outputs):
        print(line)
    join(outputs, output)
    if missing:
        print("mpigauge run: error: no results from " + ", ".join(missing), file=sys.stderr)
    return EXIT_OK if not any(rcs) and not missing else EXIT_FAIL


def _allocation(path):
    """(the allocation a results file ran in, or None; its launches); (None,
    0) when there is no file."""
    if not os.path.isfile(path):
        return None, 0
    recs, _ = read_records(path)
    allocs = [r["allocation"] for r in recs if isinstance(r.get("allocation"), dict)]
    return (allocs[-1] if allocs else None), sum(r.get("type") == "launch" for r in recs)


def allocation_lines(outputs):
    """One line per task: its allocation (job, task, nodes) and launches."""
    lines = []
    for i, path in enumerate(outputs, 1):
        if not os.path.isfile(path):
            continue
        alloc, launches = _allocation(path)
        said = allocation_words(alloc) or "job ?"
        lines.append(f"  allocation {i}: {said}, {launches} launches ({path})")
    return lines


def join(outputs, output):
    """The tasks' files one after the other in output (complete or not at
    all); the task files stay."""
    def copy(tmp):
        with open(tmp, "wb") as dst:
            for path in outputs:
                if os.path.isfile(path):
                    with open(path, "rb") as src:
                        shutil.copyfileobj(src, dst)
    write_atomic(output, copy)
