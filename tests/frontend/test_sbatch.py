# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge run --sbatch FILE` and `--allocations K` (measure/sbatch.py):
the job script (a job array for K allocations), written and nothing run;
submitted through a fake sbatch that runs the array's tasks as Slurm would,
each with its own job variables, and their results joined; the refusals.
The real flow runs on the emulated two-node Slurm
(tests/cluster/check_slurm_cluster.sh)."""
import json
import os
import subprocess
import sys
import unittest

import helpers as h
from fakerun import FakeRun

# sbatch --wait --parsable SCRIPT: the array's tasks one after the other,
# each with the job variables Slurm gives an array task; prints the job id
FAKE_SBATCH = r'''#!/bin/sh
for script; do :; done
echo "$@" >"$FAKE_SBATCH_LOG"
k=$(sed -n 's/^#SBATCH --array=1-\([0-9]*\)$/\1/p' "$script")
rc=0
for i in $(seq 1 "${k:-1}"); do
    SLURM_JOB_ID=$((700 + i)) SLURM_ARRAY_JOB_ID=700 SLURM_ARRAY_TASK_ID=$i \
        SLURM_JOB_NODELIST=n$i SLURM_JOB_PARTITION=debug bash "$script" >/dev/null 2>&1 || rc=1
done
echo 700
exit $rc
'''


# scontrol show job -o JOB: the job's Features (the constraint the session
# record reads where the environment lacks it)
FAKE_SCONTROL = """#!/bin/sh
echo "JobId=$5 JobName=mpigauge-allocations Features=emu DelayBoot=00:00:00"
"""


# sbatch --wait --parsable [--exclude=NODES] SCRIPT on a cluster of two
# nodes, n1 and n2: one job a call (ids 801, 802, ...), on the first node
# not excluded; none left: refused as Slurm refuses it
FAKE_SBATCH_NODES = r'''#!/bin/sh
for script; do :; done
echo "$@" >>"$FAKE_SBATCH_LOG"
n=$(($(wc -l <"$FAKE_SBATCH_LOG")))
ex=$(printf '%s\n' "$@" | sed -n 's/^--exclude=//p' | tr ',' ' ')
for node in n1 n2; do
    case " $ex " in *" $node "*) continue ;; esac
    SLURM_JOB_ID=$((800 + n)) SLURM_JOB_NODELIST=$node SLURM_JOB_PARTITION=debug \
        bash "$script" >/dev/null 2>&1 || exit 1
    echo $((800 + n))
    exit 0
done
echo "sbatch: error: Batch job submission failed: Requested node configuration is not available" >&2
exit 1
'''


class Sbatch(FakeRun, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.sbin = os.path.join(self.d, "sbin")
        os.mkdir(self.sbin)
        self._exe(os.path.join(self.sbin, "sbatch"), FAKE_SBATCH)
        self._exe(os.path.join(self.sbin, "scontrol"), FAKE_SCONTROL)
        self.log = os.path.join(self.d, "sbatch.log")

    def run_cli(self, *extra, sbatch=True, timeout=120):
        env = dict(os.environ, FAKE_SBATCH_LOG=self.log)
        for k in list(env):
            if k.startswith("SLURM_"):
                del env[k]
        # without sbatch: a PATH of nothing (Slurm's sbatch is in /usr/bin)
        env["PATH"] = self.sbin + os.pathsep + env.get("PATH", "") if sbatch else self.d
        cmd = [sys.executable, h.FRONTEND, "run", "--suite", self.suite("ok\n"),
               "--bindir", self.bin, "--launcher", self.launcher, "--mpi", "openmpi",
               "-o", self.out] + list(extra)
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                              cwd=self.d)

    def test_the_script_is_written_and_nothing_runs(self):
        job = os.path.join(self.d, "job.sbatch")
        p = self.run_cli("--repeat", "2", "--allocations", "3", "--sbatch", job,
                         "--sbatch-option=--nodes=2", "--", "-m", "8")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("wrote " + job, p.stdout)
        self.assertFalse(os.path.exists(self.out))
        self.assertFalse(os.path.exists(self.log))
        with open(job) as f:
            text = f.read()
        lines = text.splitlines()
        self.assertEqual([x for x in lines if x.startswith("#SBATCH")], [
            "#SBATCH --job-name=mpigauge-allocations", "#SBATCH --array=1-3",
            f"#SBATCH --output={self.d}/r.%a.out", "#SBATCH --ntasks=2", "#SBATCH --nodes=2"])
        self.assertEqual(lines[-2], f"cd {self.d}")
        run = lines[-1]
        self.assertTrue(run.startswith("exec "), run)
        self.assertIn(" run --suite ", run)
        self.assertIn(' -o ' + self.d + '/r."$SLURM_ARRAY_TASK_ID".jsonl -- -m 8', run)
        for own in ("--sbatch", "--allocations", "--force"):
            self.assertNotIn(own, run)
        self.assertEqual(subprocess.run(["bash", "-n", job]).returncode, 0)

    def test_k_allocations_are_submitted_and_joined(self):
        p = self.run_cli("--repeat", "2", "--allocations", "3", "--exit-grace", "5")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(self.log) as f:
            self.assertEqual(f.read().split(), ["--wait", "--parsable",
                                                os.path.join(self.d, "r.sbatch")])
        self.assertIn("job 700: 3 allocations, sbatch exit 0", p.stderr)
        for i in (1, 2, 3):
            self.assertIn(f"allocation {i}: job {700 + i} task {i}, nodes n{i}, 2 launches",
                          p.stdout)
            self.assertTrue(os.path.isfile(os.path.join(self.d, f"r.{i}.jsonl")))
        recs = self.records()
        sessions = [r for r in recs if r["type"] == "session"]
        self.assertEqual([(s["allocation"]["job_id"], s["allocation"]["array_task_id"])
                          for s in sessions], [("701", "1"), ("702", "2"), ("703", "3")])
        self.assertEqual(sessions[0]["allocation"]["partition"], "debug")
        self.assertEqual({s["allocation"]["constraint"] for s in sessions}, {"emu"})
        self.assertEqual(sum(r["type"] == "launch" for r in recs), 6)
        # a second call would replace them: refused
        p = self.run_cli("--allocations", "3")
        self.assertEqual(p.returncode, 2)
        self.assertIn("r.sbatch exists", p.stderr)

    def test_dependent_jobs_leave_out_the_nodes_before_them(self):
        self._exe(os.path.join(self.sbin, "sbatch"), FAKE_SBATCH_NODES)
        p = self.run_cli("--repeat", "2", "--allocations", "3", "--exclude-previous",
                         "--exit-grace", "5")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(self.log) as f:
            calls = [x.split() for x in f.read().splitlines()]
        d = self.d
        self.assertEqual(calls, [
            ["--wait", "--parsable", f"{d}/r.1.sbatch"],
            ["--wait", "--parsable", "--exclude=n1", f"{d}/r.2.sbatch"],
            ["--wait", "--parsable", "--exclude=n1,n2", f"{d}/r.3.sbatch"],
            ["--wait", "--parsable", f"{d}/r.3.sbatch"]])
        self.assertIn("allocation 3: sbatch refused it without the nodes of the allocations "
                      "before it (n1,n2: sbatch: error: Batch job submission failed: Requested "
                      "node configuration is not available); submitted again without --exclude",
                      p.stderr)
        self.assertIn("job 802: allocation 2 of 3, without n1, sbatch exit 0", p.stderr)
        for i, (job, node) in enumerate(((801, "n1"), (802, "n2"), (804, "n1")), 1):
            self.assertIn(f"allocation {i}: job {job}, nodes {node}, 2 launches", p.stdout)
        sessions = [r for r in self.records() if r["type"] == "session"]
        self.assertEqual([s["allocation"]["nodelist"] for s in sessions], ["n1", "n2", "n1"])
        with open(f"{d}/r.2.sbatch") as f:
            text = f.read()
        self.assertNotIn("--array", text)
        self.assertIn(f" -o {d}/r.2.jsonl", text)
        self.assertNotIn("--exclude-previous", text)

    def test_refusals(self):
        p = self.run_cli("--allocations", "2", sbatch=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("a Slurm job array, and sbatch is not on PATH", p.stderr)
        for extra, said in ((["--allocations", "0"], "between 1 and 1000"),
                            (["--alloc", "2"], "give --sbatch"),
                            (["--allocations", "2", "--sbatch-option", "nodes=2"],
                             "one option of sbatch"),
                            (["--exclude-previous"], "--allocations K of 2 or more"),
                            (["--allocations", "2", "--exclude-previous", "--sbatch",
                              os.path.join(self.d, "j.sbatch")], "without --sbatch")):
            p = self.run_cli(*extra)
            self.assertEqual(p.returncode, 2, extra)
            self.assertIn(said, p.stderr)
        with open(os.path.join(self.d, "r.2.jsonl"), "w") as f:
            f.write("{}\n")
        p = self.run_cli("--allocations", "2")
        self.assertEqual(p.returncode, 2)
        self.assertIn("r.2.jsonl exists", p.stderr)
        self.assertFalse(os.path.exists(self.log))
        with open(os.path.join(self.d, "r.2.jsonl")) as f:
            self.assertEqual(json.loads(f.read()), {})


if __name__ == "__main__":
    unittest.main()
