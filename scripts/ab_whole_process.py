#!/usr/bin/env python3
"""Two builds of bimaru-sat, whole process, board by board (acceptance 5 of issue 33).

    python3 scripts/ab_whole_process.py OLD NEW FILE... [--repeat 5] [--flag=--threads=1] [--per-board]

For each file, runs `BIN --unique [FLAGS] FILE` with OLD, then NEW, `--repeat` times (the two
builds interleaved, so a busy spell hits both), and takes each side's median wall time. Prints
the sum of the medians, the ratio NEW / OLD of the sums, the geometric mean of the per-board
ratios and the worst board; `--per-board` also prints each board. Only the Python standard
library is needed. A board where the two builds exit with different codes stops the run.
"""

import argparse
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path


def run(binary, flags, path):
    start = time.perf_counter()
    done = subprocess.run(
        [binary, "--unique", *flags, path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - start, done.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the build compared against")
    parser.add_argument("new", help="the build measured")
    parser.add_argument("files", nargs="+", help="puzzle files")
    parser.add_argument("--repeat", type=int, default=5, help="runs per board and build")
    parser.add_argument(
        "--flag", action="append", default=[], help="a flag for both builds (repeatable)"
    )
    parser.add_argument("--per-board", action="store_true", help="print every board")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    rows = []
    for path in args.files:
        old, new = [], []
        for _ in range(args.repeat):
            t_old, code_old = run(args.old, args.flag, path)
            t_new, code_new = run(args.new, args.flag, path)
            if code_old != code_new:
                sys.exit(f"{path}: OLD exited with {code_old}, NEW with {code_new}")
            old.append(t_old)
            new.append(t_new)
        row = (Path(path).name, statistics.median(old), statistics.median(new), code_new)
        rows.append(row)
        if args.per_board:
            name, o, n, code = row
            print(f"{name:32} {o * 1e3:9.1f} ms {n * 1e3:9.1f} ms {n / o:6.2f}  exit {code}", flush=True)
    sum_old = sum(r[1] for r in rows)
    sum_new = sum(r[2] for r in rows)
    geomean = math.exp(statistics.mean(math.log(r[2] / r[1]) for r in rows))
    worst = max(rows, key=lambda r: r[2] / r[1])
    print(
        f"{len(rows)} boards: sum {sum_old * 1e3:.1f} ms -> {sum_new * 1e3:.1f} ms "
        f"(ratio {sum_new / sum_old:.3f}); geometric mean of ratios {geomean:.3f}; "
        f"worst {worst[0]} {worst[2] / worst[1]:.2f}"
    )


if __name__ == "__main__":
    main()
