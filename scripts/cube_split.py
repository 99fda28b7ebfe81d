#!/usr/bin/env python3
"""Simulate cube and conquer on the longest ships' placements of a uniqueness query.

The query is the project's `--emit-dimacs Q.cnf --exclude-solution --encoding placement --card
totalizer` export (UNSAT exactly when the solution is unique); its comments name each placement
variable. CaDiCaL 1.9.5 from python-sat solves the whole query, then each cube with a fresh solver;
it prints the solve times, and for two workers the slower one's total (cubes dealt in turn to the
worker free first) and whole / slower.

Two ways to cut, over the placement variables of the longest ships in the export's order:
  --fractions 0.15,0.25   two cubes per fraction f: "some placement among the first f" (a clause)
                          and "none of them" (assumptions)
  --groups 4,8            m equal groups; cube i: "none in groups 1..i-1, some in group i"

Usage:
  .venv/bin/python scripts/cube_split.py Q.cnf --fractions 0.15,0.25 --groups 4
Figures: docs/benchmarks/2026-11-28-session-43.md.
"""

import argparse
import re
import time

from pysat.formula import CNF
from pysat.solvers import Solver

PLACEMENT = re.compile(r"c var (\d+) placement len (\d+) ")


def solve(clauses, extra, assumptions):
    solver = Solver(name="cadical195", bootstrap_with=clauses)
    for clause in extra:
        solver.add_clause(clause)
    start = time.perf_counter()
    answer = solver.solve(assumptions=assumptions)
    took = time.perf_counter() - start
    solver.delete()
    return answer, took


def slower_of_two(times):
    workers = [0.0, 0.0]
    for t in times:
        workers[workers.index(min(workers))] += t
    return max(workers)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cnf")
    parser.add_argument("--fractions", default="")
    parser.add_argument("--groups", default="")
    args = parser.parse_args()
    clauses = CNF(from_file=args.cnf).clauses
    lengths = {}
    with open(args.cnf) as f:
        for line in f:
            m = PLACEMENT.match(line)
            if m:
                lengths[int(m.group(1))] = int(m.group(2))
    longest = max(lengths.values())
    ships = sorted(v for v, n in lengths.items() if n == longest)
    answer, whole = solve(clauses, [], [])
    print(f"{args.cnf}: length {longest}, {len(ships)} placements, whole {answer} {whole:.2f} s")
    for f in [float(x) for x in args.fractions.split(",") if x]:
        cut = ships[: int(len(ships) * f)]
        _, a = solve(clauses, [cut], [])
        _, b = solve(clauses, [], [-v for v in cut])
        print(f"f={f}: {len(cut)} placements, some {a:.2f} s, none {b:.2f} s, "
              f"whole / slower {whole / max(a, b):.2f}")
    for m in [int(x) for x in args.groups.split(",") if x]:
        n = len(ships)
        groups = [ships[i * n // m:(i + 1) * n // m] for i in range(m)]
        times = []
        for i, group in enumerate(groups):
            before = [-v for g in groups[:i] for v in g]
            times.append(solve(clauses, [group], before)[1])
        slower = slower_of_two(times)
        print(f"m={m}: cubes {' '.join(f'{t:.2f}' for t in times)} s, sum {sum(times):.2f} s, "
              f"slower of two workers {slower:.2f} s, whole / slower {whole / slower:.2f}")


if __name__ == "__main__":
    main()
