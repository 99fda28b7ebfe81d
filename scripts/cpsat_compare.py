#!/usr/bin/env python3
"""Compare bimaru-sat with OR-Tools CP-SAT on the same boards, in one run.

Each board is solved twice by each side, alternately, and the question is the same: find a
solution, then prove it unique. bimaru-sat runs as a whole process,
`bimaru-sat solve --unique FILE` (wall time of the process, parse to exit). CP-SAT runs in this
process with one worker on a placement model (one Boolean per legal ship placement, cells as
sums of the placements covering them, halos forbidden, row/column/fleet sums, the clues as cell
facts); after the first solution, a blocking clause over its ship cells is added and the model
solved again, which must be infeasible. CP-SAT's time is model building plus both solves.

Boards are read through `bimaru-sat convert --to json`, so any format the tool reads works.

Usage:
  python3 -m venv .venv && .venv/bin/pip install ortools
  .venv/bin/python scripts/cpsat_compare.py [--bin target/release/bimaru-sat] \
      [--timeout 120] [--runs 1] GROUP=FILE_OR_DIR... > table.md

Prints one Markdown row per group: boards, median bimaru-sat and CP-SAT seconds, and the median
and range of the per-board ratio CP-SAT / bimaru-sat. Per-board lines go to standard error.

A side stopped by --timeout is charged the time it ran (its board line on standard error says
so through CP-SAT's status, or bimaru-sat's exit 4), so such a ratio is a bound, not a figure.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from ortools.sat.python import cp_model

PUZZLE_SUFFIXES = (".json", ".dzn", ".txt")


def board_files(path):
    """The boards of a folder (its files of the first suffix present), or the file itself."""
    if not os.path.isdir(path):
        return [path]
    names = sorted(os.listdir(path))
    for suffix in PUZZLE_SUFFIXES:
        chosen = [os.path.join(path, f) for f in names if f.endswith(suffix)]
        if chosen:
            return chosen
    return []


def load(binary, path):
    out = subprocess.run(
        [binary, "convert", "--to", "json", path],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def placements(p):
    """Legal placements (cells list, length) that respect counts and water clues."""
    rows, cols = p["rows"], p["cols"]
    rc, cc = p["row_counts"], p["col_counts"]
    water = {(c["row"], c["col"]) for c in p.get("clues", []) if c["piece"] == "water"}
    lens = sorted(int(k) for k, v in p["fleet"].items() if v > 0)
    out = []

    def fits(cells):
        if any(c in water for c in cells):
            return False
        per_row, per_col = {}, {}
        for r, c in cells:
            per_row[r] = per_row.get(r, 0) + 1
            per_col[c] = per_col.get(c, 0) + 1
        return all(rc[r] is None or rc[r] >= n for r, n in per_row.items()) and all(
            cc[c] is None or cc[c] >= n for c, n in per_col.items()
        )

    for length in lens:
        dirs = [(0, 1)] if length == 1 else [(0, 1), (1, 0)]
        for dr, dc in dirs:
            for r in range(rows - dr * (length - 1)):
                for c in range(cols - dc * (length - 1)):
                    cells = [(r + dr * i, c + dc * i) for i in range(length)]
                    if fits(cells):
                        out.append((cells, length))
    return out


def cpsat_unique(p, timeout):
    """Solve, block, solve again: returns (seconds, solutions found up to 2, status text);
    found is None when the time limit stopped it."""
    start = time.perf_counter()
    rows, cols = p["rows"], p["cols"]
    m = cp_model.CpModel()
    places = placements(p)
    pv = [m.NewBoolVar(f"p{i}") for i in range(len(places))]
    covering = {}
    for i, (cells, _) in enumerate(places):
        for cell in cells:
            covering.setdefault(cell, []).append(i)
    x = {}
    for r in range(rows):
        for c in range(cols):
            v = m.NewBoolVar(f"x{r}_{c}")
            m.Add(v == sum(pv[i] for i in covering.get((r, c), [])))
            x[(r, c)] = v
    for i, (cells, _) in enumerate(places):
        halo = set()
        for r, c in cells:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    q = (r + dr, c + dc)
                    if q in x and q not in cells:
                        halo.add(q)
        for q in halo:
            m.AddImplication(pv[i], x[q].Not())
    for r, k in enumerate(p["row_counts"]):
        if k is not None:
            m.Add(sum(x[(r, c)] for c in range(cols)) == k)
    for c, k in enumerate(p["col_counts"]):
        if k is not None:
            m.Add(sum(x[(r, c)] for r in range(rows)) == k)
    for length, count in p["fleet"].items():
        m.Add(sum(pv[i] for i, (_, n) in enumerate(places) if n == int(length)) == count)

    def cell(r, c):
        return x.get((r, c), 0)

    for clue in p.get("clues", []):
        r, c, piece = clue["row"], clue["col"], clue["piece"]
        up, down, left, right = cell(r - 1, c), cell(r + 1, c), cell(r, c - 1), cell(r, c + 1)
        if piece == "water":
            m.Add(x[(r, c)] == 0)
            continue
        m.Add(x[(r, c)] == 1)
        want = {
            "submarine": (0, 0, 0, 0),
            "top": (0, 1, 0, 0),
            "bottom": (1, 0, 0, 0),
            "left": (0, 0, 0, 1),
            "right": (0, 0, 1, 0),
        }.get(piece)
        if want is not None:
            for nb, w in zip((up, down, left, right), want):
                m.Add(nb == w)
        elif piece == "middle":
            m.Add(left == right)
            m.Add(up == down)
            m.Add(left + up == 1)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = timeout
    found = 0
    status = solver.Solve(m)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        found = 1
        ship = [v for v in x.values() if solver.Value(v)]
        m.AddBoolOr([v.Not() for v in ship])
        solver.parameters.max_time_in_seconds = max(timeout - (time.perf_counter() - start), 0.01)
        status = solver.Solve(m)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            found = 2
    if status == cp_model.UNKNOWN:
        found = None
    return time.perf_counter() - start, found, solver.StatusName(status)


def bimaru_unique(binary, path, timeout):
    start = time.perf_counter()
    r = subprocess.run(
        [binary, "solve", "--unique", "--time-limit", str(timeout), path],
        capture_output=True,
    )
    elapsed = time.perf_counter() - start
    if r.returncode == 4:
        return elapsed, None
    # 0 unique, 3 not unique, 1 no solution.
    found = {0: 1, 3: 2, 1: 0}.get(r.returncode)
    if found is None:
        raise RuntimeError(f"{path}: bimaru-sat exit {r.returncode}: {r.stderr.decode()}")
    return elapsed, found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="target/release/bimaru-sat")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--runs", type=int, default=1, help="runs per side, minimum kept")
    ap.add_argument("groups", nargs="+", metavar="GROUP=PATH[,PATH...]")
    args = ap.parse_args()
    print("| boards | n | bimaru-sat median | CP-SAT median | CP-SAT / bimaru-sat (median of ratios) | range |")
    print("|---|---|---|---|---|---|")
    for group in args.groups:
        name, _, paths = group.partition("=")
        files = [f for p in paths.split(",") for f in board_files(p)]
        ours, theirs, ratios = [], [], []
        for f in files:
            p = load(args.bin, f)
            b_times, c_times = [], []
            for _ in range(args.runs):
                b, b_found = bimaru_unique(args.bin, f, args.timeout)
                c, c_found, c_status = cpsat_unique(p, args.timeout)
                b_times.append(b)
                c_times.append(c)
                if None not in (b_found, c_found) and b_found != c_found:
                    sys.exit(f"{f}: bimaru-sat found {b_found}, CP-SAT {c_found} ({c_status})")
            b, c = min(b_times), min(c_times)
            ours.append(b)
            theirs.append(c)
            ratios.append(c / b)
            # A side stopped by the time limit counts as the limit: the ratio is then a bound.
            print(
                f"{name} {f}: bimaru-sat {b:.3f} s, CP-SAT {c:.3f} s ({c_status}), "
                f"ratio {c / b:.1f}",
                file=sys.stderr,
                flush=True,
            )
        print(
            f"| {name} | {len(files)} | {statistics.median(ours) * 1000:.1f} ms "
            f"| {statistics.median(theirs) * 1000:.1f} ms | {statistics.median(ratios):.1f}x "
            f"| {min(ratios):.1f}–{max(ratios):.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
