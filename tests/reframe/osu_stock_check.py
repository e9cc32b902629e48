# SPDX-License-Identifier: BSD-3-Clause
"""The OSU check as ReFrame's test library ships it (hpctestlib's
microbenchmarks/mpi/osu.py, `osu_run`), restated for the test of the OSU
drop-in (tests/reframe/check_reframe.sh, doc/osu.md): the same four
benchmarks, the same command line (`-m SIZE -x 10 -i 1000 -c`, and `D D`
for point-to-point on 2 tasks), the same sanity (`^SIZE.*Pass`) and
performance pattern (`^SIZE\\s+(\\S+)`), the program found on PATH. Like the
library's check it leaves valid_systems, valid_prog_environs and the
collectives' num_tasks to the command line (-S). ReFrame's own file is not
on PyPI; when a ReFrame checkout is at hand, check_reframe.sh runs that one
too (MG_REFRAME_HPCTESTLIB)."""
import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import (deferrable, parameter, required, run_before, sanity_function,
                                   variable)


@rfm.simple_test
class osu_stock_run(rfm.RunOnlyRegressionTest):
    num_warmup_iters = variable(int, value=10)
    num_iters = variable(int, value=1000)
    message_size = variable(int)
    device_buffers = variable(str, value='cpu')
    num_tasks = required
    num_tasks_per_node = 1
    benchmark_info = parameter([
        ('mpi.collective.osu_alltoall', 'latency'),
        ('mpi.collective.osu_allreduce', 'latency'),
        ('mpi.pt2pt.osu_bw', 'bandwidth'),
        ('mpi.pt2pt.osu_latency', 'latency'),
    ], fmt=lambda x: x[0], loggable=True)

    @run_before('setup')
    def command_line(self):
        bench, metric = self.benchmark_info
        self.message_size = 8 if metric == 'latency' else 4194304
        unit = 'us' if metric == 'latency' else 'MB/s'
        self.executable = bench.split('.')[-1]
        self.executable_opts = ['-m', str(self.message_size), '-x', str(self.num_warmup_iters),
                                '-i', str(self.num_iters), '-c']
        if self.device_buffers != 'cpu':
            self.executable_opts += ['-d', self.device_buffers]
        if bench.startswith('mpi.pt2pt'):
            self.executable_opts += ['D', 'D']
            self.num_tasks = 2
        self.perf_variables = {metric: sn.make_performance_function(self.figure, unit)}

    @sanity_function
    def passed(self):
        return sn.assert_found(rf'^{self.message_size}.*Pass', self.stdout)

    @deferrable
    def figure(self):
        return sn.extractsingle(rf'^{self.message_size}\s+(\S+)', self.stdout, 1, float)
