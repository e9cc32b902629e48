# SPDX-License-Identifier: BSD-3-Clause
"""Stops processes now and then: SIGSTOP for STALL seconds every PERIOD
seconds, all at the same instants, then SIGCONT, until they have all ended
(at most 100 s). The processes write their PIDs into PIDFILE, one a line
(tests/samples.sh: each rank is a shell that writes its PID and becomes
the program); the stopper waits for COUNT of them. Prints how many stops
it made.
    python3 tests/stall.py PIDFILE COUNT PERIOD STALL"""
import os
import signal
import sys
import time


def read_pids(path, count, deadline):
    pids = []
    while len(pids) < count and time.monotonic() < deadline:
        time.sleep(0.01)
        with open(path, encoding="ascii") as f:
            pids = [int(x) for x in f.read().split()]
    return pids


def signal_all(pids, sig):
    """How many of pids were still there."""
    alive = 0
    for p in pids:
        try:
            os.kill(p, sig)
            alive += 1
        except ProcessLookupError:
            pass
    return alive


def main(path, count, period, stall):
    deadline = time.monotonic() + 100
    pids = read_pids(path, count, deadline)
    t0, k, stops, alive = time.monotonic() + 0.1, 0, 0, len(pids)
    try:
        while alive and time.monotonic() < deadline:
            time.sleep(max(0.0, t0 + k * period - time.monotonic()))
            k += 1
            try:
                if signal_all(pids, signal.SIGSTOP):
                    stops += 1
                    time.sleep(stall)
            finally:
                alive = signal_all(pids, signal.SIGCONT)
    finally:
        print(f"{stops} stops")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]))
