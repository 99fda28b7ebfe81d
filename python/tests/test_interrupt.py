"""Ctrl-C stops every long call (issue 37): each call runs its work on a thread of its own and
raises KeyboardInterrupt at once; the work reads the call's stop flag at its next check, so its
thread is gone within half a second, instead of running on to the end on a core nobody uses.
"""

from __future__ import annotations

import _thread
import os
import signal
import threading
import time

import pytest

import bimaru_sat
from bimaru_sat import _native
from conftest import ROOT

# A clue-poor 30x30 whose uniqueness proof takes tens of seconds on this machine.
HARD = ROOT / "puzzles" / "hard" / "tuning" / "30x30-seed3001.json"
SMALL = ROOT / "puzzles" / "ist-example.txt"


def workers() -> int:
    """The threads of this process named `bimaru-call` (Linux): the worker of a long call, and
    the threads it started, which inherit its name (a pool they keep, like rayon's, included)."""
    count = 0
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm") as comm:
                count += comm.read().strip() == "bimaru-call"
        except (FileNotFoundError, ProcessLookupError):  # the thread ended while we looked
            # (an ended thread's directory can still be listed; reading it then gives ESRCH)
            pass
    return count


def settled() -> int:
    """The number of worker threads once it has not changed for 0.2 s (at most 2 s)."""
    start = time.monotonic()
    count, since = workers(), time.monotonic()
    while time.monotonic() - since < 0.2 and time.monotonic() - start < 2.0:
        time.sleep(0.01)
        if workers() != count:
            count, since = workers(), time.monotonic()
    return count


def hard() -> bimaru_sat.Puzzle:
    return bimaru_sat.read_file(str(HARD))


def small() -> bimaru_sat.Puzzle:
    return bimaru_sat.read_file(str(SMALL))


# name: (the long call, a quick call of the same function that starts any pool it keeps)
CALLS = {
    "solve": (lambda: bimaru_sat.solve(hard(), unique=True), lambda: bimaru_sat.solve(small())),
    "generate": (
        lambda: bimaru_sat.generate("30x30", grade="fiendish", seed=7),
        lambda: bimaru_sat.generate("10x10"),
    ),
    "grade": (lambda: bimaru_sat.grade(hard()), lambda: bimaru_sat.grade(small())),
    "hint": (lambda: bimaru_sat.hint(hard()), lambda: bimaru_sat.hint(small())),
    "compare": (lambda: bimaru_sat.compare([hard()]), lambda: bimaru_sat.compare([small()])),
    "batch": (
        lambda: _native.batch_lines(str(HARD), unique=True),
        lambda: _native.batch_lines(str(SMALL), unique=True),
    ),
}


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc")
@pytest.mark.parametrize("name", sorted(CALLS))
def test_ctrl_c_ends_the_worker_thread_within_half_a_second(name):
    long, quick = CALLS[name]
    # The same call on a small board first, so that the threads a call keeps (a pool) exist
    # before the count is taken.
    quick()
    kept = settled()
    # A process started in the background by a non-interactive shell inherits SIGINT ignored,
    # and Python then installs no handler for it: Ctrl-C gets its usual meaning here.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # The workers are counted the moment before Ctrl-C, not after the call returns: a worker
        # that reads its stop flag quickly may be gone by then, which is the point of the test.
        at_interrupt: list[int] = []

        def interrupt() -> None:
            at_interrupt.append(workers())
            _thread.interrupt_main()

        timer = threading.Timer(0.3, interrupt)
        timer.start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            long()
        interrupted = time.monotonic()
        timer.join()
        # The call was still working when Ctrl-C came (else this test would prove nothing).
        assert interrupted - started >= 0.25, f"{name} ended before the interrupt"
        assert at_interrupt and at_interrupt[0] > kept, f"{name}: no worker thread at the interrupt"
        while workers() > kept and time.monotonic() - interrupted < 0.5:
            time.sleep(0.01)
        assert workers() <= kept, f"{name}: the worker still runs 0.5 s after Ctrl-C"
    finally:
        signal.signal(signal.SIGINT, previous)
