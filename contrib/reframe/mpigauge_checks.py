# SPDX-License-Identifier: BSD-3-Clause
"""ReFrame checks of mpigauge (ReFrame 4.x; contrib/reframe/README.md).

* MpigaugePt2pt, MpigaugeCollective, MpigaugeOverlap: one test per
  benchmark of the family (a parameter), run with the partition's launcher
  on the environment's mpigauge build (its `extras`: `bindir`, and
  `srun_mpi`, the `srun --mpi=` plugin of that MPI). The program writes its
  JSON Lines results with -o; the performance variables come from them:
  per size, `median_<size>` and the bounds of its 95% CI, `ci95_low_<size>`
  and `ci95_high_<size>` (overlap: of l_0, the step without computation,
  and `overlap_ratio_<size>`). Sanity: exit code 0, a run record, a result for
  every size, and every result validated (-c) as passed.
* MpigaugeCompare: the interleaved comparison of two builds
  (`mpigauge run` with two configurations in randomized rounds, then
  `mpigauge compare --format json`): sanity, every series has a verdict;
  performance, the number of series that are `slower` (reference 0) and
  the new/base ratio per benchmark and size.

References: the variable `reference_file`, a JSON file
{"SYSTEM:PARTITION" or "*": {"BENCHMARK": {"SIZE": [VALUE, LOWER, UPPER]}}}
(LOWER and UPPER fractions as in ReFrame's reference tuples, null for none)
of medians; default references/this-machine.json next to this file.
"""
import json
import os
import shlex

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.backends import getlauncher
from reframe.core.builtins import parameter, run_after, run_before, sanity_function, variable

HERE = os.path.dirname(os.path.abspath(__file__))


def results(path, benchmark, size=None, variant=None):
    """The result records of a benchmark (at one size; of one variant, None: none)."""
    with open(path, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    return [r for r in recs if r.get("type") == "result" and r.get("benchmark") == benchmark
            and (size is None or r.get("size_bytes") == size) and r.get("variant") == variant]


@sn.deferrable
def result_field(path, benchmark, size, field, variant=None):
    """A field of the result record of one size (and variant) in a results file."""
    recs = results(path, benchmark, size, variant)
    if not recs:
        raise sn.SanityError(f"{path}: no result for {benchmark} at {size} bytes")
    return recs[0][field]


@sn.deferrable
def last_extra(path, benchmark, size, name):
    """An extra of the last result of one size (overlap: the reported overlap_ratio)."""
    with open(path, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    recs = [r for r in recs if r.get("type") == "result" and r.get("size_bytes") == size
            and r.get("benchmark") == benchmark]
    if not recs or name not in (recs[-1].get("extra") or {}):
        raise sn.SanityError(f"{path}: no {name} for {benchmark} at {size} bytes")
    return recs[-1]["extra"][name]


@sn.deferrable
def series_field(path, benchmark, size, field):
    """A field of a comparison's series record (mpigauge compare --format json)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("type") == "series" and rec.get("benchmark") == benchmark and \
                    rec.get("size_bytes") == size and not rec.get("variant"):
                return rec[field]
    raise sn.SanityError(f"{path}: no series for {benchmark} at {size} bytes")


@sn.deferrable
def check_results(path, benchmark, sizes, variant=None):
    """The file has a run record and, for every size, a result (of the variant) and every
    result validated as passed."""
    with open(path, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    runs = [r for r in recs if r.get("type") == "run"]
    every = [r for r in recs if r.get("type") == "result"]
    res = [r for r in every if r.get("variant") == variant]
    sn.evaluate(sn.assert_eq(len(runs), 1, msg=f"{path}: {len(runs)} run records, not 1"))
    got = sorted(r["size_bytes"] for r in res)
    sn.evaluate(sn.assert_eq(got, sorted(sizes),
                             msg=f"{path}: sizes {got}, expected {sorted(sizes)}"))
    bad = sorted({r["size_bytes"] for r in every if r.get("validation") != "passed"})
    sn.evaluate(sn.assert_false(bad, msg=f"{path}: validation failed at sizes {bad}"))
    sn.evaluate(sn.assert_eq(runs[0].get("benchmark"), benchmark))
    return True


def find_program(bindir, name):
    """The program in an install's bindir, or in a build tree's family folders."""
    for sub in ("", "pt2pt", "collective", "overlap", "onesided"):
        path = os.path.join(bindir, sub, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def load_references(path, system, partition):
    """{benchmark: {size: (value, lower, upper)}} for this system and partition."""
    if not path or not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out = {}
    for key in ("*", system, f"{system}:{partition}"):
        for bench, sizes in (data.get(key) or {}).items():
            for size, ref in sizes.items():
                out.setdefault(bench, {})[int(size)] = tuple(ref)
    return out


class MpigaugeBase(rfm.RunOnlyRegressionTest):
    """One mpigauge program over a few sizes; see the module's help."""
    valid_systems = ["*"]
    valid_prog_environs = ["+mpigauge"]
    num_tasks = 2
    sizes = variable(typ.List[int], value=[8, 1024, 65536])
    iterations = variable(int, value=50)
    extra_args = variable(str, value="")
    reference_file = variable(str, value=os.path.join(HERE, "references", "this-machine.json"))
    results_file = "mpigauge.jsonl"
    variant = None          # the results the figures come from (overlap: step=0)
    time_limit = "10m"
    tags = {"mpigauge"}
    maintainers = ["mpigauge"]

    @run_after("setup")
    def set_program(self):
        bindir = self.current_environ.extras.get("bindir") or ""
        self.skip_if(not bindir, f"environment {self.current_environ.name} has no "
                     "extras.bindir (the folder of its mpigauge programs)")
        self.executable = find_program(bindir, self.program_path())
        self.skip_if(not self.executable, f"{self.program_path()} is not in {bindir}")
        self.executable_opts = (["-m", ",".join(str(s) for s in self.sizes), "-i",
                                 str(self.iterations), "-c", "-o", self.results_file] +
                                shlex.split(self.extra_args))
        self.descr = f"mpigauge {self.benchmark} on {self.num_tasks} ranks"
        # the launcher's exit status, for schedulers that do not report it (squeue)
        self.postrun_cmds = ['echo "mpigauge exit status: $?"']

    def program_path(self):
        return f"mpigauge_{self.benchmark}"

    @run_before("run")
    def set_launcher_options(self):
        opts = []
        if self.job.launcher.registered_name == "srun":
            plugin = self.current_environ.extras.get("srun_mpi")
            if plugin:
                opts.append(f"--mpi={plugin}")
        opts += self.current_environ.extras.get("launcher_options", [])
        self.job.launcher.options += opts

    @sanity_function
    def validate(self):
        status = sn.extractsingle(r"^mpigauge exit status: (\d+)$", self.stdout, 1, int)
        return sn.all([sn.assert_eq(status, 0, msg="the program exited with {0}, not {1}"),
                       check_results(os.path.join(self.stagedir, self.results_file),
                                     self.benchmark, self.sizes, self.variant)])

    @run_before("performance")
    def set_perf_variables(self):
        path = os.path.join(self.stagedir, self.results_file)
        unit = self.unit
        self.perf_variables = {}
        for s in self.sizes:
            for field in ("median", "ci95_low", "ci95_high"):
                self.perf_variables[f"{field}_{s}"] = sn.make_performance_function(
                    result_field(path, self.benchmark, s, field, self.variant), unit)
        refs = load_references(self.reference_file, self.current_system.name,
                               self.current_partition.name).get(self.benchmark, {})
        key = f"{self.current_system.name}:{self.current_partition.name}"
        table = {}
        for s, (value, lower, upper) in refs.items():
            if s in self.sizes:
                table[f"median_{s}"] = (value, lower, upper, unit)
        if table:
            self.reference = {key: table}


@rfm.simple_test
class MpigaugePt2pt(MpigaugeBase):
    benchmark = parameter(["latency", "bw", "bibw", "pingping", "multi_lat", "mbw_mr"])

    @property
    def unit(self):
        return "us" if self.benchmark in ("latency", "pingping", "multi_lat") else "MB/s"


@rfm.simple_test
class MpigaugeCollective(MpigaugeBase):
    benchmark = parameter(["allreduce", "bcast", "alltoall", "allgather", "reduce",
                           "iallreduce"])
    unit = "us"

    @run_after("init")
    def nonblocking_figures(self):
        # a non-blocking collective's rows: the call alone (pure) and with computation
        if self.benchmark.startswith("i"):
            self.variant = "phase=pure"


@rfm.simple_test
class MpigaugeOverlap(MpigaugeBase):
    benchmark = parameter(["send_overlap", "recv_overlap"])
    sizes = [65536, 1048576]
    iterations = 20
    unit = "us"
    variant = "step=0"      # l_0: the time per iteration without computation

    @run_before("performance")
    def add_overlap_ratio(self):
        path = os.path.join(self.stagedir, self.results_file)
        for s in self.sizes:
            self.perf_variables[f"overlap_ratio_{s}"] = sn.make_performance_function(
                last_extra(path, self.benchmark, s, "overlap_ratio"), "fraction")


@rfm.simple_test
class MpigaugeCompare(rfm.RunOnlyRegressionTest):
    """Two builds interleaved in randomized rounds, compared paired by round (in an
    environment with the feature mpigauge-frontend: the front-end runs there)."""
    valid_systems = ["*"]
    valid_prog_environs = ["+mpigauge-frontend"]
    base_bindir = variable(str, value=os.environ.get("MPIGAUGE_BASE_BINDIR", ""))
    new_bindir = variable(str, value=os.environ.get("MPIGAUGE_NEW_BINDIR", ""))
    frontend = variable(str, value=os.environ.get("MPIGAUGE_FRONTEND", "mpigauge"))
    suite = variable(str, value="quick")
    rounds = variable(int, value=3)
    sizes = variable(typ.List[int], value=[8, 1024])
    bench_args = variable(str, value="-i 20")
    num_tasks = 1
    time_limit = "20m"
    tags = {"mpigauge", "compare"}
    maintainers = ["mpigauge"]

    @run_after("setup")
    def set_command(self):
        self.skip_if(not self.base_bindir or not self.new_bindir,
                     "set base_bindir and new_bindir (-S or MPIGAUGE_BASE_BINDIR, "
                     "MPIGAUGE_NEW_BINDIR)")
        # the front-end launches the programs itself: no launcher in front of it
        self.job.launcher = getlauncher("local")()
        launcher = "srun" if self.current_partition.launcher_type.registered_name == "srun" \
            else "mpirun"
        sizes = ",".join(str(s) for s in self.sizes)
        self.executable = self.frontend
        self.executable_opts = [
            "run", "--suite", self.suite, "--repeat", str(self.rounds), "--launcher", launcher,
            "--config", f"'base bindir={self.base_bindir}'",
            "--config", f"'new bindir={self.new_bindir}'",
            "-o", "results.jsonl", "--", "-m", sizes] + shlex.split(self.bench_args)
        self.postrun_cmds = [f"{self.frontend} compare results.jsonl base new --format json "
                             "-o compare.jsonl"]

    @sanity_function
    def validate(self):
        path = os.path.join(self.stagedir, "compare.jsonl")
        series = sn.extractall(r'"type":\s*"series".*"verdict":\s*"(\S+?)"', path, 1)
        return sn.all([sn.assert_found(r'"type":\s*"comparison"', path),
                       sn.assert_gt(sn.count(series), 0),
                       sn.assert_found(r'"type":\s*"session_end"',
                                       os.path.join(self.stagedir, "results.jsonl"))])

    @run_before("performance")
    def set_perf_variables(self):
        path = os.path.join(self.stagedir, "compare.jsonl")
        self.perf_variables = {
            "slower_series": sn.make_performance_function(
                sn.count(sn.extractall(r'"verdict":\s*"slower"', path)), "series")}
        # new/base per benchmark and size, as the comparison found them
        with open(path, encoding="utf-8") as f:
            series = [json.loads(line) for line in f if '"type":"series"' in line]
        for r in series:
            if r.get("variant"):
                continue
            self.perf_variables[f"ratio_{r['benchmark']}_{r['size_bytes']}"] = \
                sn.make_performance_function(series_field(path, r["benchmark"],
                                                          r["size_bytes"], "ratio"), "new/base")
        # any slower series fails the check
        self.reference = {"*": {"slower_series": (0, None, 0, "series")}}
