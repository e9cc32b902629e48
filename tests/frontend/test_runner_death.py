# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge run`'s launches when the front-end dies or is interrupted twice
(frontend/mpigauge/launch.py): a launch ends with its front-end, and a
second Ctrl-C does not abandon a launch that ignores SIGTERM."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import helpers as h
from fakerun import wait_for

mg = h.load_frontend()


class TestFrontEndDeath(unittest.TestCase):
    def test_a_launch_ends_when_the_front_end_is_killed(self):
        """SIGKILL of the front-end: its launch (in a session of its own) gets
        SIGTERM from the kernel (setpriv --pdeathsig) instead of running on."""
        if not mg.launch._pdeathsig_prefix():
            self.skipTest("no setpriv --pdeathsig here")
        code = ("import sys, time; sys.path.insert(0, sys.argv[1]); "
                "from mpigauge.launch import launch; "
                "p = launch._start(['sleep', '60'], None); print(p.pid, flush=True); "
                "time.sleep(60)")
        front = subprocess.Popen([sys.executable, "-c", code, h.FRONTEND_DIR],
                                 stdout=subprocess.PIPE, text=True)
        child = int(front.stdout.readline())
        os.kill(front.pid, signal.SIGKILL)
        front.wait()
        for _ in range(100):
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break
            if open(f"/proc/{child}/stat").read().split()[2] == "Z":
                break  # ended, waiting to be reaped by init
            time.sleep(0.05)
        else:
            os.kill(child, signal.SIGKILL)
            self.fail("the launch outlived the front-end")

    def test_a_launch_whose_front_end_died_before_the_signal_was_armed_ends(self):
        """The window before setpriv's prctl: a launch whose parent is not the
        front-end that started it (it died there) ends at once, exit 143,
        without running the command; with its parent alive, the command runs."""
        if not mg.launch._pdeathsig_prefix():
            self.skipTest("no setpriv --pdeathsig here")
        gone = subprocess.run(mg.launch._pdeathsig_prefix(parent=1) + ["echo", "ran"],
                              capture_output=True, text=True, timeout=30)
        self.assertEqual((gone.returncode, gone.stdout), (143, ""))
        p = mg.launch._start(["sh", "-c", "echo ran \"$1\"; exit 3", "sh", "a b"], None)
        out, _ = p.communicate(timeout=30)
        self.assertEqual((p.returncode, out), (3, b"ran a b\n"))


class TestSecondInterrupt(unittest.TestCase):
    def test_a_second_ctrl_c_does_not_abandon_a_launch_that_ignores_sigterm(self):
        """The first SIGINT stops the launch (SIGTERM, then SIGKILL after the
        grace); a second one during the grace must neither cut that short
        nor lose the result (MPICH's hydra ignores SIGTERM)."""
        code = ("import json, signal, sys; sys.path.insert(0, sys.argv[1]); "
                "from mpigauge.launch import launch; "
                "signal.signal(signal.SIGINT, launch.raise_interrupt); "
                "r = launch.run_launch(['sh', '-c', 'trap \"\" TERM; touch \"$0\"; sleep 60', "
                "sys.argv[2]], None, 100, 2); "
                "print(json.dumps({'status': r['status'], 'out': r['exit_code']}))")
        with tempfile.TemporaryDirectory() as tmp:
            mark = os.path.join(tmp, "running")
            front = subprocess.Popen([sys.executable, "-c", code, h.FRONTEND_DIR, mark],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            wait_for(mark)   # the handler is set before the launch starts
        front.send_signal(signal.SIGINT)
        time.sleep(1.0)
        front.send_signal(signal.SIGINT)
        out, err = front.communicate(timeout=60)
        self.assertEqual(front.returncode, 0, err)
        rec = json.loads(out.strip().splitlines()[-1])
        self.assertEqual(rec["status"], "interrupted")
        self.assertEqual(rec["out"], -signal.SIGKILL)
        self.assertIn("still stopping the launch", err)


if __name__ == "__main__":
    unittest.main()
