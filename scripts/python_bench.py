#!/usr/bin/env python3
"""Measurements of the Python package for docs/benchmarks.md (issue 23).

overhead FILE [--rounds N] [--unique]
    Solves every board of FILE (the 303 Rubin boards) one after another through
    `bimaru_sat.solve` and, in the same process, through `_solve_all_in_rust` (the same
    `solve` calls in a Rust loop, no Python between them), alternating, N rounds each; prints
    each round's seconds and the ratio of the medians.

dask DIR [--workers 1 2]
    `bimaru_sat.dask.batch` over DIR on a LocalCluster of each number of worker processes
    (started before the clock runs, warmed up on one file), and the speed-up of the last over
    the first.
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


def dask(folder: str, workers: list[int]) -> None:
    from distributed import Client, LocalCluster

    import bimaru_sat.dask as bdask

    files = bimaru_sat._native.batch_files([folder])
    times = {}
    for n in workers:
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.wait_for_workers(n)
            list(bdask.batch([files[0][0]], client=client))
            start = time.perf_counter()
            lines = list(bdask.batch([folder], client=client, progress=False))
            times[n] = time.perf_counter() - start
            print(f"{n} workers: {len(lines)} boards in {times[n]:.2f} s", flush=True)
    first, last = workers[0], workers[-1]
    print(f"speed-up of {last} workers over {first}: {times[first] / times[last]:.2f}x")


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
    args = parser.parse_args()
    if args.command == "overhead":
        overhead(args.file, args.rounds, args.unique)
    else:
        dask(args.folder, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
