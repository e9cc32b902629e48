# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge run` with fake programs and a fake launcher (no MPI needed):
launch ids, repeats, failures and time-outs recorded and the run going on,
missing programs, wrong world sizes, Ctrl-C leaving a valid file, launchers."""
import json
import os
import signal
import subprocess
import sys
import time
import unittest

import helpers as h
from fakerun import FakeRun, wait_for

mg = h.load_frontend()


class RunnerTest(FakeRun, unittest.TestCase):
    def test_configurations_are_interleaved_in_recorded_rounds(self):
        p = self.cli("envy\nok\n", "--repeat", "4", "--seed", "3", "--config", "a FAKE_VALUE=1",
                     "--config", "b FAKE_VALUE=1.5")
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = self.records()
        s = recs[0]
        self.assertEqual((s["seed"], [c["label"] for c in s["configs"]]), (3, ["a", "b"]))
        launches = [r for r in recs if r["type"] == "launch"]
        self.assertEqual(len(launches), 4 * 2 * 2)
        self.assertEqual([[l["round"], l["source"], l["config"]] for l in launches], s["order"])
        for i in range(0, 16, 2):     # the two configurations of a line, back to back
            self.assertEqual({launches[i]["config"], launches[i + 1]["config"]}, {"a", "b"})
            self.assertEqual(launches[i]["benchmark"], launches[i + 1]["benchmark"])
            self.assertEqual([launches[i]["position"], launches[i + 1]["position"]], [0, 1])
        runs = [r for r in recs if r["type"] == "run" and r["benchmark"] == "envy"]
        self.assertEqual(sorted((r["config"], r["env"]["FAKE_VALUE"]) for r in runs),
                         [("a", "1")] * 4 + [("b", "1.5")] * 4)
        # the same seed gives the same order
        again = self.cli("envy\nok\n", "--repeat", "4", "--seed", "3", "--force", "--config",
                         "a FAKE_VALUE=1", "--config", "b FAKE_VALUE=1.5")
        self.assertEqual(again.returncode, 0)
        self.assertEqual(self.records()[0]["order"], s["order"])
        out = subprocess.run([sys.executable, h.FRONTEND, "compare", self.out, "a", "b",
                              "--format", "json"], capture_output=True, text=True)
        series = [json.loads(l) for l in out.stdout.splitlines()][1:]
        envy = [r for r in series if r["benchmark"] == "envy"]
        self.assertEqual([r["ratio"] for r in envy], [1.5, 1.5])
        self.assertEqual({r["pairs"] for r in series}, {4})

    def test_quiet_progress_is_one_line_on_a_terminal_and_nothing_in_a_pipe(self):
        import io
        from types import SimpleNamespace as NS
        from unittest import mock
        import mpigauge.launch.progress as R

        class Tty(io.StringIO):
            def isatty(self):
                return True
        it = NS(entry=NS(name="latency"), config=NS(label="mpich-5.0.0"), n=2)
        res = {"status": "ok", "message": "", "duration_s": 1.0}
        for stream, want in ((Tty(), "\r\x1b[K  launch 2 of 3, round 1/2, latency "
                                     "[mpich-5.0.0], 2:40 left"), (io.StringIO(), "")):
            with mock.patch.object(R.sys, "stderr", stream):
                R.show(True, 2, 3, it, 1, 2, res, 10.0, 160.0)
            self.assertEqual(stream.getvalue(), want)
        stream = Tty()
        with mock.patch.object(R.sys, "stderr", stream):
            R.show(True, 3, 3, it, 2, 2, res, 12.0, 0.0)
        self.assertTrue(stream.getvalue().endswith("0:00 left\r\x1b[K"))     # cleared at the end

    def test_one_configuration_is_a_plain_run_under_it(self):
        p = self.cli("envy\n", "--repeat", "3", "--config", "x FAKE_VALUE=2")
        self.assertEqual(p.returncode, 0, p.stderr)
        runs = [r for r in self.records() if r["type"] == "run"]
        self.assertEqual([(r["config"], r["env"]["FAKE_VALUE"]) for r in runs], [("x", "2")] * 3)
        other = os.path.join(self.d, "other.jsonl")
        os.rename(self.out, other)
        self.assertEqual(self.cli("envy\n", "--repeat", "3", "--config", "y FAKE_VALUE=1")
                         .returncode, 0)
        out = subprocess.run([sys.executable, h.FRONTEND, "compare", self.out, other,
                              "--format", "json"], capture_output=True, text=True)
        series = [json.loads(l) for l in out.stdout.splitlines()][1:]
        self.assertEqual([r["ratio"] for r in series if r.get("benchmark") == "envy"], [2.0, 2.0])

    def test_turns_start_a_lines_configurations_together(self):
        meet = os.path.join(self.d, "meet")
        os.mkdir(meet)
        os.environ["FAKE_MEET_DIR"] = meet
        try:
            p = self.cli("meet\nok\n", "--repeat", "2", "--seed", "5", "--config", "a",
                         "--config", "b", "--config", "c", "--turn-slice", "0.01")
        finally:
            del os.environ["FAKE_MEET_DIR"]
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = self.records()
        self.assertEqual((recs[0]["interleave"], recs[0]["turn_slice_s"]), ("turns", 0.01))
        launches = [r for r in recs if r["type"] == "launch"]
        self.assertEqual(len(launches), 2 * 2 * 3)
        self.assertEqual({l["status"] for l in launches}, {"ok"})
        groups = {}
        for l in launches:
            t = l["turns"]
            self.assertEqual((t["role"], t["count"]), (l["position"], 3))
            self.assertEqual(l["command"][-4:], ["--turns", f"{t['group']}:{t['role']}:3",
                                                 "--turn-slice", "0.01"])
            groups.setdefault(t["group"], []).append((l["round"], l["benchmark"], l["config"]))
        self.assertEqual(len(groups), 4)     # one per line and round
        for members in groups.values():
            self.assertEqual(len({(r, b) for r, b, _ in members}), 1)
            self.assertEqual(sorted(c for _, _, c in members), ["a", "b", "c"])
        self.assertEqual(len(os.listdir(meet)), 6)   # the two meet groups, 3 marks each

    def test_a_group_past_its_timeout_is_killed_whole(self):
        t0 = time.time()
        p = self.cli("hang\nok\n", "--config", "a", "--config", "b", "--timeout", "1.5")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertLess(time.time() - t0, 30)
        launches = [r for r in self.records() if r["type"] == "launch"]
        self.assertEqual([(l["benchmark"], l["status"]) for l in launches],
                         [("hang", "timeout")] * 2 + [("ok", "ok")] * 2)
        self.assertEqual({l["timeout_s"] for l in launches}, {3.0})   # the group's: 2 x 1.5

    def test_interleave_launches_runs_one_at_a_time(self):
        p = self.cli("ok\n", "--repeat", "2", "--config", "a", "--config", "b",
                     "--interleave", "launches")
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = self.records()
        launches = [r for r in recs if r["type"] == "launch"]
        self.assertEqual(recs[0]["interleave"], "launches")
        self.assertTrue(all("turns" not in l and "--turns" not in l["command"] for l in launches))
        self.assertEqual([l["position"] for l in launches], [0, 1, 0, 1])
        # a plain run (no configurations) never takes turns
        p = self.cli("ok\n", "--repeat", "2", "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(all("--turns" not in r["command"] for r in self.records()
                            if r["type"] == "launch"))

    def test_startup_gets_the_launch_time_and_runs_alone(self):
        t0 = time.time()
        p = self.cli("startup\n", "--repeat", "2", "--config", "a", "--config", "b")
        t1 = time.time()
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = self.records()
        stamps = [float(r["env"]["MG_LAUNCH_TIME"]) for r in recs if r["type"] == "run"]
        self.assertEqual(len(stamps), 4)
        self.assertTrue(all(t0 <= t <= t1 for t in stamps), (t0, stamps, t1))
        self.assertEqual(len(set(stamps)), 4)       # each launch its own
        self.assertTrue(all("--turns" not in r["command"] for r in recs
                            if r["type"] == "launch"))

    def test_turn_slice_is_checked(self):
        for v in ("0", "61", "nan"):
            p = self.cli("ok\n", "--config", "a", "--config", "b", "--turn-slice", v)
            self.assertEqual(p.returncode, 2, v)
            self.assertIn("--turn-slice", p.stderr)

    def test_steps_group_a_lines_configurations(self):
        from mpigauge.measure.runner import _steps
        todo = [(1, 0, 1), (1, 0, 0), (1, 1, 0), (1, 1, 1), (2, 0, 0), (2, 0, 1)]
        self.assertEqual(_steps(todo, True), [todo[0:2], todo[2:4], todo[4:6]])
        self.assertEqual(_steps(todo, False), [[t] for t in todo])
        # a line whose program times its own launch (startup) is never grouped
        self.assertEqual(_steps(todo, True, lambda t: t[1] == 1),
                         [todo[0:2], [todo[2]], [todo[3]], todo[4:6]])

    def test_turns_argv_and_leftover_semaphores(self):
        from mpigauge.launch import steps
        from mpigauge.measure.runner import Item
        it = Item(None, None, "p", "openmpi", 2, ["srun", "-n", "2", "p", "-m", "8"], {})
        self.assertEqual(steps.turns_argv(it, "srun", "g", 1, 2, 0.005),
                         ["srun", "--overlap", "-n", "2", "p", "-m", "8", "--turns", "g:1:2",
                          "--turn-slice", "0.005"])
        it.argv = ["mpirun", "-n", "2", "p"]
        self.assertEqual(steps.turns_argv(it, "mpirun", "g", 0, 3, 0.02)[-4:],
                         ["--turns", "g:0:3", "--turn-slice", "0.02"])
        if os.path.isdir("/dev/shm"):
            name = f"t{os.getpid()}-x"
            mine = [f"/dev/shm/sem.mgt-{name}-{k}-0" for k in ("ready", "turn", "done")]
            other = f"/dev/shm/sem.mgt-{name}y-turn-0"
            for p in mine + [other]:
                open(p, "w").close()
            try:
                steps.remove_semaphores(name)
                self.assertEqual([os.path.exists(p) for p in mine + [other]],
                                 [False, False, False, True])
            finally:
                for p in mine + [other]:
                    if os.path.exists(p):
                        os.unlink(p)

    @unittest.skipUnless(os.path.isdir("/dev/shm"), "POSIX named semaphores live in /dev/shm")
    def test_post_done_says_a_member_is_done_once(self):
        # the done semaphore of a member that never started, as its ranks would
        from mpigauge.launch import steps
        name = f"t{os.getpid()}-pd"
        try:
            self.assertEqual(steps.post_done(name, 1, 3), 3)     # made, posted once per rank
            self.assertEqual(steps.post_done(name, 1, 3), 0)     # done already: nothing more
            self.assertEqual(steps.post_done(name, 1, 4), 1)     # up to the count asked for
            self.assertTrue(os.path.exists(f"/dev/shm/sem.mgt-{name}-done-1"))
        finally:
            self.assertEqual(steps.remove_semaphores(name), 1)

    def test_configuration_errors(self):
        for args, why in ((["--config", "a", "--config", "a"], "given twice"),
                          (["--until-decided"], "needs two or more configurations"),
                          (["--config", "a", "--config", "b", "--until-decided",
                            "--min-rounds", "2"], "4 <= --min-rounds")):
            p = self.cli("ok\n", "--force", *args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(why, p.stderr)

    def test_repeats_and_launch_ids(self):
        p = self.cli("ok\n", "--repeat", "3")
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = self.records()
        self.assertEqual([r["type"] for r in recs][0], "session")
        self.assertEqual(recs[-1]["type"], "session_end")
        launches = [r for r in recs if r["type"] == "launch"]
        self.assertEqual([l["status"] for l in launches], ["ok"] * 3)
        ids = {l["launch_id"] for l in launches}
        self.assertEqual(len(ids), 3)
        body = [r for r in recs if r["type"] in ("run", "result")]
        self.assertEqual(len(body), 9)
        self.assertTrue(all(r["launch_id"] in ids for r in body))
        self.assertIn("[3/3] ok (round 3/3, 2 ranks) ok", p.stderr)
        self.assertIn("ETA", p.stderr)
        # the file is an ordinary results file for compare
        rs = mg.load_results(self.out)
        self.assertEqual(len(rs.launches), 3)

    def test_failures_are_recorded_and_the_run_goes_on(self):
        p = self.cli("fail\ntimeout=1 hang\nskip\nnosuchprogram\nok\n")
        self.assertEqual(p.returncode, 1)
        st = {r["benchmark"]: r for r in self.records() if r["type"] == "launch"}
        self.assertEqual(st["fail"]["status"], "failed")
        self.assertEqual(st["fail"]["exit_code"], 99)
        self.assertIn("MPI error on rank 1", st["fail"]["stderr_tail"])
        self.assertEqual(st["hang"]["status"], "timeout")
        self.assertLess(st["hang"]["duration_s"], 30)
        self.assertEqual(st["skip"]["status"], "skipped")
        self.assertEqual(st["nosuchprogram"]["status"], "missing")
        self.assertEqual(st["ok"]["status"], "ok")
        self.assertIn("nosuchprogram: skipped (missing", p.stderr)
        self.assertEqual(self.records()[-1]["counts"]["missing"], 1)

    def test_timeout_after_complete_output_keeps_results(self):
        p = self.cli("timeout=1 hangafter\n")
        self.assertEqual(p.returncode, 1)
        recs = self.records()
        l = [r for r in recs if r["type"] == "launch"][0]
        self.assertEqual(l["status"], "timeout")
        self.assertIn("results kept", l["message"])
        self.assertEqual(len([r for r in recs if r["type"] == "result"]), 2)

    def test_a_hang_after_the_last_record_is_stopped_after_the_grace(self):
        t0 = time.time()
        p = self.cli("finalhang\n", "--exit-grace", "1")
        took = time.time() - t0
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = self.records()
        l = [r for r in recs if r["type"] == "launch"][0]
        self.assertEqual(l["status"], "ok")
        self.assertIn("hung at exit", l["message"])
        self.assertEqual([r["size_bytes"] for r in recs if r["type"] == "result"], [8, 16])
        # 1 s of grace, then SIGTERM (ignored) and SIGKILL after 10 s: far below the 60 s hang
        self.assertLess(took, 30)

    def test_wrong_world_size_is_detected(self):
        for prog in ("singletons", "needs2"):
            p = self.cli(prog + "\n", "--force")
            self.assertEqual(p.returncode, 1, prog)
            l = [r for r in self.records() if r["type"] == "launch"][0]
            self.assertEqual(l["status"], "wrong-size", prog)
            self.assertIn("asked for 2 ranks but the program saw a world of 1", l["message"])
            self.assertIn("--mpi=pmi2", l["message"])
            self.assertFalse([r for r in self.records() if r["type"] == "result"], prog)

    def test_only_missing_programs(self):
        p = self.cli("nosuch\n")
        self.assertEqual(p.returncode, 1)
        self.assertIn("none of the suite's programs was found", p.stderr)

    def test_secrets_of_a_configuration_never_reach_the_file(self):
        p = self.cli("ok\n", "--config", "a MY_TOKEN=t0ps3cret DB_PASS=hunter2",
                     "--config", "b OMPI_MCA_mca_base_env_list=AWS_SECRET_ACCESS_KEY=k3y")
        self.assertEqual(p.returncode, 0, p.stderr)
        text = self.text()
        for word in ("t0ps3cret", "hunter2", "k3y"):
            self.assertNotIn(word, text)
        self.assertIn("MY_TOKEN=<redacted>", text)

    def test_semaphores_of_a_killed_front_end_are_removed(self):
        shm = os.path.join(self.d, "shm")
        os.mkdir(shm)
        dead = subprocess.Popen(["true"])
        dead.wait()
        names = [f"sem.mgt-20261126T065820Z-a421-0109-{dead.pid}-{k}-0" for k in ("ready", "turn",
                                                                                  "done")]
        alive = f"sem.mgt-20261126T065820Z-a421-0109-{os.getpid()}-turn-0"
        for n in names + [alive, "sem.other-thing"]:
            open(os.path.join(shm, n), "w").close()
        self.assertEqual(mg.steps.remove_stale_semaphores(shm), 3)
        self.assertEqual(sorted(os.listdir(shm)), sorted([alive, "sem.other-thing"]))

    def test_a_launch_cut_short_fails_the_run(self):
        p = self.cli("ok\npartial\nok\n")
        self.assertEqual(p.returncode, 1, p.stderr)
        launches = [r for r in self.records() if r["type"] == "launch"]
        self.assertEqual([l["status"] for l in launches], ["ok", "partial", "ok"])
        self.assertIn("1 partial", p.stderr)

    def test_a_failure_is_said_quiet_or_not(self):
        p = self.cli("ok\nfail\n", "-q")
        self.assertEqual(p.returncode, 1)
        self.assertIn("mpigauge run: 1 of 2 launches failed; the first, fail: failed: exit 99 "
                      "(MPI or internal error)", p.stderr)
        self.assertIn("    | mpigauge_fail: error: MPI error on rank 1", p.stderr)
        # a launcher that fails before the program starts (srun outside an
        # allocation): said as such, not as the program's validation failure
        self._exe(self.launcher, "#!/bin/sh\necho 'srun: error: Unable to allocate resources: "
                  "No partition specified' >&2\nexit 1\n")
        os.unlink(self.out)
        p = self.cli("ok\n", "-q")
        self.assertEqual(p.returncode, 1)
        self.assertIn("exit 1 with no record printed: the launcher failed or the program did "
                      "not start", p.stderr)
        self.assertIn("| srun: error: Unable to allocate resources", p.stderr)
        self.assertNotIn("validation", p.stderr)
        os.unlink(self.out)
        p = self.cli("ok\n", "-q", "--bindir", os.path.join(self.d, "none"))
        self.assertNotEqual(p.returncode, 0)
        self.assertTrue(p.stderr.strip(), "a run with nothing found says so under -q")

    def test_refuses_to_overwrite(self):
        first = '{"type":"session","session_id":"A"}\n'
        with open(self.out, "w") as f:
            f.write(first)
        p = self.cli("ok\n")
        self.assertEqual(p.returncode, 2)
        self.assertIn("exists; use --append", p.stderr)
        p = self.cli("ok\n", "--append")
        self.assertEqual(p.returncode, 0)
        with open(self.out) as f:
            self.assertEqual(f.readline(), first)
        # a file that is not mpigauge results is refused and left alone
        with open(self.out, "w") as f:
            f.write("{}\n")
        p = self.cli("ok\n", "--append", "-q")
        self.assertEqual(p.returncode, 2)
        self.assertIn("not an mpigauge results file", p.stderr)
        with open(self.out) as f:
            self.assertEqual(f.read(), "{}\n")

    def test_ctrl_c_leaves_a_valid_file(self):
        cmd = [sys.executable, h.FRONTEND, "run", "--suite", self.suite("ok\nhang\nok\n"),
               "--bindir", self.bin, "--launcher", self.launcher, "--mpi", "openmpi",
               "-o", self.out, "--repeat", "2"]
        mark = os.path.join(self.d, "hang.running")
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=dict(os.environ, FAKE_MARK=mark))
        wait_for(mark)   # the hang launch runs, after the first ok
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130, err)
        recs = self.records()
        self.assertEqual(recs[-1]["type"], "session_end")
        self.assertTrue(recs[-1]["interrupted"])
        st = [r["status"] for r in recs if r["type"] == "launch"]
        self.assertEqual(st, ["ok", "interrupted"])
        self.assertIn("interrupted", err)


class TestLaunchers(unittest.TestCase):
    def test_native_launchers(self):
        a = mg.launcher_argv("mpirun", "openmpi", 2, ncpus=2)
        self.assertTrue(a[0].startswith("mpirun"))
        self.assertEqual(a[1:], ["-n", "2", "--bind-to", "core"])
        a = mg.launcher_argv("mpirun", "openmpi", 4, ncpus=2)
        self.assertIn("--oversubscribe", a)
        a = mg.launcher_argv("mpiexec", "mpich", 2, ncpus=2)
        self.assertTrue(a[0].startswith("mpiexec"))
        self.assertEqual(a[1:], ["-n", "2", "-bind-to", "core"])
        # Intel MPI pins by itself (the Hydra of 2021.13 refuses -bind-to)
        self.assertEqual([mg.launcher_argv("mpiexec", "mpich", n, ncpus=2, path="/i/mpiexec",
                                           impl="impi") for n in (2, 4)],
                         [["/i/mpiexec", "-n", "2"],
                          ["/i/mpiexec", "-n", "4", "-genv", "I_MPI_PIN", "0"]])
        with self.assertRaises(mg.UsageError):
            mg.launcher_argv("mpirun", None, 2)

    def test_srun_plugin_follows_the_mpi(self):
        self.assertIn("--mpi=pmix", mg.launcher_argv("srun", "openmpi", 2))
        self.assertIn("--mpi=pmi2", mg.launcher_argv("srun", "mpich", 2))
        with self.assertRaises(mg.UsageError) as cm:
            mg.launcher_argv("srun", None, 2)
        self.assertIn("--mpi openmpi|mpich", str(cm.exception))

    def test_custom_launcher(self):
        self.assertEqual(mg.launcher_argv("mylaunch --np {n} -x", "mpich", 3),
                         ["mylaunch", "--np", "3", "-x"])
        self.assertEqual(mg.launcher_argv("srun -O", "mpich", 4),
                         ["srun", "-O", "--mpi=pmi2", "-n", "4"])
        self.assertEqual(mg.launcher_argv("srun --mpi=pmix", "mpich", 2),
                         ["srun", "--mpi=pmix", "-n", "2"])

    def test_allocation_record(self):
        """The Slurm job variables that are set, under their members; none
        outside a job. The run record (mpi/record/mg_facts.c) lists the same
        variables under the same members."""
        import re
        from mpigauge.launch import launcher as lr
        self.assertIsNone(lr.allocation_record({"SLURM_JOB_NODELIST": "n1"}))
        env = {"SLURM_JOB_ID": "12", "SLURM_ARRAY_TASK_ID": "3", "SLURM_JOB_NODELIST": "n[1-2]",
               "SLURM_JOB_PARTITION": "", "PATH": "/bin"}
        asked = []

        def scontrol(argv, features="(null)"):
            asked.append(argv)
            return f"JobId=12 JobName=x Features={features} DelayBoot=00:00:00\n"
        self.assertEqual(lr.allocation_record(env, scontrol),
                         {"scheduler": "slurm", "job_id": "12", "array_task_id": "3",
                          "nodelist": "n[1-2]"})
        self.assertEqual(asked, [["scontrol", "show", "job", "-o", "12"]])
        # the constraint: the job's Features where the environment lacks it
        rec = lr.allocation_record(env, lambda argv: scontrol(argv, "ib&rome"))
        self.assertEqual(rec["constraint"], "ib&rome")
        env["SLURM_JOB_CONSTRAINTS"] = "gpu"
        self.assertEqual(lr.allocation_record(env, lambda argv: 1 / 0)["constraint"], "gpu")
        self.assertEqual(lr.allocation_record(env, lambda argv: "")["constraint"], "gpu")
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "mpi",
                           "record", "mg_facts.c")
        with open(src, encoding="utf-8") as f:
            table = re.findall(r'\{"(\w+)", "(SLURM_\w+)"\}', f.read())
        self.assertEqual(tuple(table), lr.ALLOCATION_VARS)

    def test_detect_mpi_unknown_file(self):
        self.assertIsNone(mg.detect_mpi("/bin/sh"))

    def test_classify(self):
        run = {"type": "run", "nranks": 2, "options": {"sizes_bytes": [8, 64]}}
        res = {"type": "result", "size_bytes": 8}
        res64 = {"type": "result", "size_bytes": 64}
        self.assertEqual(mg.classify(0, False, [run, res, res64], 2)[0], "ok")
        self.assertEqual(mg.classify(0, False, [], 2)[0], "failed")
        # exit 1 with every size: a validation failure, its (marked) rows kept;
        # stopped early (Open MPI exits 1 when a rank is killed): partial, left out
        self.assertEqual(mg.classify(1, False, [run, res, res64], 2)[::2], ("failed", True))
        self.assertEqual(mg.classify(1, False, [run, res], 2)[::2], ("partial", False))
        self.assertIn("results for 1 of 2 sizes", mg.classify(1, False, [run, res], 2)[1])
        self.assertEqual(mg.classify(-15, False, [run, res], 2)[::2], ("partial", False))
        self.assertEqual(mg.classify(2, False, [], 2)[1], "exit 2 (usage error)")
        self.assertEqual(mg.classify(-9, False, [], 2)[1], "killed by signal 9")
        self.assertEqual(mg.classify(0, False, [dict(run, nranks=4), res, res64], 2)[0], "wrong-size")

    def test_exit_0_without_every_size_is_not_ok(self):
        run = {"type": "run", "nranks": 2, "options": {"sizes_bytes": [8, 64]}}
        st, msg, keep = mg.classify(0, False, [run, {"type": "result", "size_bytes": 8}], 2)
        self.assertEqual((st, keep), ("failed", False))
        self.assertIn("missing for 1 sizes", msg)

    def test_usage_error_record_is_read_not_prose(self):
        err = {"type": "error", "code": "usage", "exit_code": 2, "message": "-m: bad size"}
        self.assertEqual(mg.classify(2, False, [err], 2)[1], "exit 2 (usage error): -m: bad size")
        ranks = {"type": "error", "code": "ranks", "ranks_min": 2, "ranks_max": 2, "ranks_got": 1}
        self.assertEqual(mg.classify(2, False, [ranks, ranks], 2)[0], "wrong-size")
        self.assertEqual(mg.classify(2, False, [dict(ranks, ranks_got=2)], 2)[0], "failed")


if __name__ == "__main__":
    unittest.main()
