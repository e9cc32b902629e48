# Copyright mpigauge developers. SPDX-License-Identifier: (Apache-2.0 OR MIT)
# (the package file may be contributed to Spack under Spack's licence; mpigauge
# itself is BSD-3-Clause)

try:  # Spack 1.0 and later: the build systems live in the package repository
    from spack_repo.builtin.build_systems.autotools import AutotoolsPackage

    LANGUAGE_DEPENDENCIES = True
except ImportError:  # Spack before 1.0 (tests/spack/spack_install.sh runs 0.23)
    LANGUAGE_DEPENDENCIES = False

import os

from spack.package import *


class Mpigauge(AutotoolsPackage):
    """MPI microbenchmarks in the tradition of the OSU Micro-Benchmarks and the
    Intel MPI Benchmarks: point-to-point, collective, one-sided and overlap
    programs that report medians with confidence intervals and full
    provenance, an OSU drop-in (osu_* names, OSU 7.4's output), and the
    `mpigauge` front-end that interleaves configurations, compares MPI
    libraries and releases with statistical verdicts and keeps a history.
    Build one per MPI (spack install mpigauge ^openmpi, ^mpich) to compare
    them."""

    homepage = "https://github.com/mpigauge/mpigauge"
    url = "https://github.com/mpigauge/mpigauge/releases/download/v0.1.0/mpigauge-0.1.0.tar.gz"

    license("BSD-3-Clause")

    # configure refuses the source tree as its build folder
    build_directory = "spack-build"

    # versions: one line per release tarball (`spack checksum mpigauge`);
    # tests/spack/spack_install.sh adds the tarball it makes

    variant("plot", default=True, description="plots and report pictures (matplotlib)")
    variant(
        "osu",
        default=False,
        description="put the osu_* names first on PATH: pipelines that run OSU run mpigauge",
    )

    if LANGUAGE_DEPENDENCIES:
        depends_on("c", type="build")
    depends_on("mpi")
    depends_on("hwloc@2:")
    depends_on("pkgconfig", type="build")
    depends_on("python@3.7:", type=("build", "run"))
    depends_on("py-matplotlib", type="run", when="+plot")

    def configure_args(self):
        # the programs need the MPI compiler only; the GoogleTest unit tests
        # (a C++ compiler, GoogleTest) are the project's own, not a site's
        return [f"MPICC={self.spec['mpi'].mpicc}", "--disable-unit-tests"]

    def setup_run_environment(self, env):
        if self.spec.satisfies("+osu"):
            env.prepend_path("PATH", join_path(self.prefix.libexec, "mpigauge", "osu"))

    def _launch(self, *args, **kwargs):
        """args on two ranks with the MPI's own launcher (Open MPI as root: with
        its --allow-run-as-root, as in a container)."""
        run = None
        for name in ("mpiexec", "mpirun", "srun"):
            path = join_path(self.spec["mpi"].prefix.bin, name)
            if os.path.exists(path):
                run = which(path)
                break
        run = run or which("mpiexec")
        flags = ["-n", "2"]
        if os.geteuid() == 0 and self.spec.satisfies("^openmpi"):
            flags.append("--allow-run-as-root")
        return run(*(flags + list(args)), **kwargs)

    def test_version(self):
        """the front-end and a program answer --version"""
        out = which(self.prefix.bin.mpigauge)("--version", output=str.split, error=str.split)
        assert self.spec.version.string in out
        out = which(self.prefix.bin.mpigauge_latency)("--version", output=str.split)
        assert "mpigauge" in out

    def test_latency(self):
        """mpigauge_latency -c on two ranks: every row validated, JSON results"""
        out = self._launch(
            self.prefix.bin.mpigauge_latency, "-c", "-m", "8:64", "--time-budget", "0.05",
            "--format", "json", output=str.split,
        )
        rows = [line for line in out.splitlines() if '"type":"result"' in line]
        assert len(rows) == 4 and all('"validation":"passed"' in r for r in rows), out

    def test_osu_names(self):
        """osu_latency under OSU's name prints OSU 7.4's title"""
        osu = join_path(self.prefix.libexec, "mpigauge", "osu", "osu_latency")
        out = self._launch(osu, "-m", "8", "-i", "100", "-x", "10", output=str.split)
        assert "# OSU MPI Latency Test v7.4" in out, out
