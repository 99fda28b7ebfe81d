#!/usr/bin/env python3
"""Compare bimaru-sat's uniqueness proofs with kissat and CaDiCaL on the project's own export.

For every board, in one loop and interleaved (so that a change in the machine's load falls on
both sides alike):

1. `bimaru-sat --unique BOARD` with default flags (or the flags given with --flags): the
   wall time of the whole process, parse to exit.
2. `bimaru-sat --emit-dimacs Q.cnf --exclude-solution --encoding placement --card totalizer
   BOARD` writes the uniqueness query (not timed): the formula with the solution found blocked,
   which is UNSAT exactly when the solution is unique.
3. kissat 4.0.4 and CaDiCaL 1.9.5, as python-sat ships them, solve Q.cnf: solve time only (the
   clauses are loaded before the clock starts).

Each side runs --repeat times per board (default 3), the sides taking turns, and counts its
median: one run alone is at the mercy of a cold file cache or a passing load (a board of 36 ms
once took 0.67 s as the first of the loop). Prints one line per board, then over the boards
where either side needs at least --floor seconds, the median of the per-board ratios external /
bimaru-sat for each solver (above 1: bimaru-sat is faster).

Usage:
  python3 -m venv .venv && .venv/bin/pip install python-sat
  .venv/bin/python scripts/sat_compare.py [--bin target/release/bimaru-sat] [--timeout 120] \
      [--flags "--threads 1"] [--repeat 3] puzzles/hard/heldout puzzles/generated/30x30-minimal

A side stopped by --timeout is charged the time it ran, so such a ratio is a bound; a board
where one run of a side is stopped is not run again.
"""

import argparse
import multiprocessing
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from pysat.formula import CNF
from pysat.solvers import Solver

EXTERNAL = (("kissat", "kissat404"), ("cadical", "cadical195"))


def boards(paths):
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if name.endswith(".json"):
                    yield os.path.join(path, name)
        else:
            yield path


def bimaru(binary, flags, board, timeout):
    """Wall time of one `bimaru-sat --unique` process, and its exit code ("timeout" when killed).

    The clock stops when a blocking wait returns: `subprocess.run(timeout=...)` polls instead,
    sleeping up to 50 ms between polls, which charged every run 0-50 ms it did not take (a
    0.32 s board read 0.37 s). A timer thread kills the process at the timeout."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [binary, "--unique", *flags, board],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    killed = threading.Event()

    def kill():
        killed.set()
        child.kill()

    timer = threading.Timer(timeout, kill)
    timer.start()
    code = child.wait()
    elapsed = time.perf_counter() - start
    timer.cancel()
    return elapsed, "timeout" if killed.is_set() else code


def export(binary, board, cnf):
    subprocess.run(
        [binary, "--emit-dimacs", cnf, "--exclude-solution", "--encoding", "placement",
         "--card", "totalizer", board],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )


def solve_child(name, clauses, pipe):
    with Solver(name=name, bootstrap_with=clauses) as solver:
        start = time.perf_counter()
        answer = solver.solve()
        pipe.send((time.perf_counter() - start, answer))


def external(name, clauses, timeout):
    """Solve time of `name` on `clauses`, and its answer (None when stopped by the timeout).

    python-sat cannot interrupt kissat or CaDiCaL, so each solve runs in a child process (forked:
    the clauses are not copied), which is killed at the timeout. The clock runs in the child,
    from the end of loading to the answer."""
    receive, send = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(
        target=solve_child, args=(name, clauses, send)
    )
    start = time.perf_counter()
    child.start()
    send.close()
    if receive.poll(timeout):
        try:
            elapsed, answer = receive.recv()
        except EOFError:
            # The child ended without an answer (killed, out of memory): no time to count.
            child.join()
            raise SystemExit(f"{name} exited with code {child.exitcode} before answering")
    else:
        elapsed, answer = time.perf_counter() - start, None
        child.kill()
    child.join()
    return elapsed, answer


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--bin", default="target/release/bimaru-sat")
    parser.add_argument("--flags", default="", help="extra bimaru-sat flags")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--floor", type=float, default=0.3)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side per board")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    flags = shlex.split(args.flags)
    ratios = {label: [] for label, _ in EXTERNAL}
    with tempfile.TemporaryDirectory() as tmp:
        for board in boards(args.paths):
            cnf = os.path.join(tmp, "q.cnf")
            export(args.bin, board, cnf)
            clauses = CNF(from_file=cnf).clauses
            runs = {"bimaru-sat": []} | {label: [] for label, _ in EXTERNAL}
            codes = {}
            for _ in range(args.repeat):
                if codes.get("bimaru-sat") != "exit timeout":
                    seconds, code = bimaru(args.bin, flags, board, args.timeout)
                    runs["bimaru-sat"].append(seconds)
                    codes["bimaru-sat"] = f"exit {code}"
                for label, name in EXTERNAL:
                    if codes.get(label) != "stopped":
                        seconds, answer = external(name, clauses, args.timeout)
                        runs[label].append(seconds)
                        codes[label] = {False: "unsat", True: "sat", None: "stopped"}[answer]
            times = {side: statistics.median(values) for side, values in runs.items()}
            ours = times["bimaru-sat"]
            line = [f"{os.path.basename(board)}: bimaru-sat {ours:.2f} s ({codes['bimaru-sat']})"]
            for label, _ in EXTERNAL:
                theirs = times[label]
                line.append(f"{label} {theirs:.2f} s ({codes[label]})")
                if max(ours, theirs) >= args.floor:
                    ratios[label].append(theirs / ours)
            print(", ".join(line), flush=True)
    for label, values in ratios.items():
        if values:
            print(
                f"{label} / bimaru-sat: median {statistics.median(values):.2f} over "
                f"{len(values)} boards (range {min(values):.2f}-{max(values):.2f})"
            )
        else:
            print(f"{label} / bimaru-sat: no board needs {args.floor} s", file=sys.stderr)


if __name__ == "__main__":
    main()
