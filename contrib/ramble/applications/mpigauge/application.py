# SPDX-License-Identifier: BSD-3-Clause
"""mpigauge as a Ramble application (doc/packaging.md): a workload per
benchmark program, its CSV results read as figures of merit per benchmark,
message size and variant (the median, the 95% confidence interval and the
sample count), and success when the program exits 0 with every validated
row Pass. The OSU route (the osu_* names under Ramble's own
osu-micro-benchmarks application) is doc/osu.md's."""
from ramble.appkit import *


class Mpigauge(ExecutableApplication):
    """MPI microbenchmarks: medians with confidence intervals and provenance,
    an OSU drop-in, and a front-end that compares MPI libraries and releases
    with statistical verdicts."""

    name = "mpigauge"

    tags("synthetic-benchmarks", "mpi", "network-latency-bound", "network-bandwidth-bound",
         "network-collectives", "network-onesided")

    software_spec("mpigauge", pkg_spec="mpigauge", package_manager="spack*")
    required_package("mpigauge", package_manager="spack*")

    benchmarks = ["latency", "bw", "bibw", "mbw_mr", "multi_lat", "allreduce", "allgather",
                  "alltoall", "bcast", "reduce", "barrier", "iallreduce", "put_latency",
                  "get_latency", "put_bw", "startup"]

    for bench in benchmarks:
        executable(
            name=f"execute-{bench}",
            template=f"mpigauge_{bench} -c --format csv {{additional_args}}",
            use_mpi=True,
        )
        # the launch's exit status, for the success criterion (a failed
        # validation or any other failure exits non-zero)
        executable(name=f"status-{bench}", template="echo mpigauge-exit-status: $?",
                   use_mpi=False)
        workload(bench, executables=[f"execute-{bench}", f"status-{bench}"])

    workload_variable("additional_args", default="",
                      description="further options of the program (-m 8:4096, --time-budget 1)",
                      workloads=benchmarks)

    # (no braces: Ramble expands {...} in a regular expression as a variable)
    csv_row = (r"^(?P<bench>[a-z0-9_]+),(?P<size>[0-9]+),(?P<unit>[^,]+),"
               r"(?P<median>[0-9.eE+-]+)," + r"[^,]*," * 7 + r"(?P<ci_low>[0-9.eE+-]+),"
               r"(?P<ci_high>[0-9.eE+-]+),(?P<samples>[0-9]+),[0-9]+,[a-z_]*,"
               r"(?P<variant>[^,]*),.*,(?P<validation>Pass|Fail|)\s*$")
    figure_of_merit_context("row", regex=csv_row,
                            output_format="{bench} {size} B {variant}")
    figure_of_merit("median", fom_regex=csv_row, group_name="median", units="",
                    contexts=["row"])
    figure_of_merit("ci95_low", fom_regex=csv_row, group_name="ci_low", units="",
                    contexts=["row"])
    figure_of_merit("ci95_high", fom_regex=csv_row, group_name="ci_high", units="",
                    contexts=["row"])
    figure_of_merit("samples", fom_regex=csv_row, group_name="samples", units="",
                    contexts=["row"])
    figure_of_merit("unit", fom_regex=csv_row, group_name="unit", units="", contexts=["row"])
    figure_of_merit("validation", fom_regex=csv_row, group_name="validation", units="",
                    contexts=["row"])

    success_criteria("exit-0", mode="string", match=r"^mpigauge-exit-status: 0$",
                     file="{log_file}")
    success_criteria("results", mode="string", match=r"^benchmark,size_bytes,unit,median",
                     file="{log_file}")
