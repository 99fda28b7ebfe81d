#!/usr/bin/env python3
"""Measurements of the Python package for docs/benchmarks.md (issue 23).

overhead FILE [--rounds N] [--unique]
    Solves every board of FILE (the 303 Rubin boards) one after another through
    `bimaru_sat.solve` and, in the same process, through `_solve_all_in_rust` (the same
    `solve` calls in a Rust loop, no Python between them), alternating, N rounds each; prints
    each round's seconds and the ratio of the medians.

dask DIR [--workers 1 2] [--no-race]
    `bimaru_sat.dask.batch` over DIR on a LocalCluster of each number of worker processes
    (started before the clock runs, warmed up on one file), and the speed-up of the last over
    the first. Each worker's CPU time (user + system) is read before and after the run: the
    CPU time of one worker against that of the busiest of N is the speed-up that N cores of
    their own would give (the wall-clock figure needs a machine that is not shared: under
    Linux's autogroup scheduling all the workers of one session share that session's slice
    of the CPU, however many they are). With --no-race each worker solves on one thread (no configuration race, and
    RAYON_NUM_THREADS=1), so that N workers are N threads.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import bimaru_sat


def overhead(path: str, rounds: int, unique: bool) -> None:
    boards = bimaru_sat.read_file_all(path)
    python, rust = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for board in boards:
            bimaru_sat.solve(board, unique=unique)
        python.append(time.perf_counter() - start)
        rust.append(bimaru_sat._native._solve_all_in_rust(boards, unique=unique))
        print(f"python {python[-1]:.3f} s   rust {rust[-1]:.3f} s", flush=True)
    ratio = statistics.median(python) / statistics.median(rust)
    print(f"{len(boards)} boards, unique={unique}: median python {statistics.median(python):.3f} s, "
          f"median rust {statistics.median(rust):.3f} s, ratio {ratio:.3f}")


def dask(folder: str, workers: list[int], race: bool) -> None:
    import os

    from distributed import Client, LocalCluster

    if not race:
        os.environ["RAYON_NUM_THREADS"] = "1"  # inherited by the worker processes

    import bimaru_sat.dask as bdask

    files = bimaru_sat._native.batch_files([folder])
    times, busiest = {}, {}
    for n in workers:
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.wait_for_workers(n)
            list(bdask.batch([files[0][0]], client=client))
            before = client.run(_cpu)
            start = time.perf_counter()
            lines = list(bdask.batch([folder], client=client, progress=False, race=race))
            times[n] = time.perf_counter() - start
            after = client.run(_cpu)
            used = sorted(after[w] - before[w] for w in after)
            busiest[n] = used[-1]
            print(f"{n} workers: {len(lines)} boards in {times[n]:.2f} s wall; worker CPU "
                  + ", ".join(f"{u:.2f}" for u in used) + " s", flush=True)
    first, last = workers[0], workers[-1]
    print(f"speed-up of {last} workers over {first}: wall {times[first] / times[last]:.2f}x, "
          f"busiest worker's CPU {busiest[first] / busiest[last]:.2f}x")


def _cpu() -> float:
    """This process's CPU time (user and system, every thread), on a worker."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    o = commands.add_parser("overhead")
    o.add_argument("file")
    o.add_argument("--rounds", type=int, default=5)
    o.add_argument("--unique", action="store_true")
    d = commands.add_parser("dask")
    d.add_argument("folder")
    d.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    d.add_argument("--no-race", action="store_true")
    args = parser.parse_args()
    if args.command == "overhead":
        overhead(args.file, args.rounds, args.unique)
    else:
        dask(args.folder, args.workers, not args.no_race)
    return 0


if __name__ == "__main__":
    sys.exit(main())
