#!/usr/bin/env python3
"""Writes puzzles/stock/stock.jsonl: the serve pool's stock (src/app/serve/stock.rs).

For every size and grade of the page's menu, PER_KIND puzzles made by

    bimaru-sat generate --size S --grade G --seed N --max-conflicts 2000 --to json

which is byte for byte what `/api/generate` answers for that size, grade and seed with the
size's default fleet (`stock::tests` checks one). Seeds are tried in order from the kind's own
base until PER_KIND puzzles turn up; a kind with none in MAX_SEEDS seeds (a 6x6 fiendish) gets
no stock. Each line: {"size", "grade" (null: any), "seed", "puzzle"}.

Usage: scripts/make_stock.py [--bin target/release/bimaru-sat] [--jobs 2] [--per-kind 3]
A 30x30 fiendish takes two to three minutes; the whole stock about 20 minutes of CPU.
"""

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SIDES = [6, 8, 10, 12, 15, 20, 25, 30]
GRADES = [None, "easy", "medium", "hard", "fiendish"]
MAX_SEEDS = 200


def make(binary, side, grade, seed):
    """The puzzle's text for a seed, or None when the generator finds none of the grade."""
    cmd = [binary, "generate", "--size", f"{side}x{side}", "--seed", str(seed),
           "--max-conflicts", "2000", "--to", "json"]
    if grade:
        cmd += ["--grade", grade]
    run = subprocess.run(cmd, capture_output=True, text=True)
    return run.stdout if run.returncode == 0 else None


def kind(binary, per_kind, side, grade):
    """PER_KIND lines of one kind."""
    base = 1_000_000 * side + 10_000 * (GRADES.index(grade))
    lines = []
    for seed in range(base + 1, base + 1 + MAX_SEEDS):
        puzzle = make(binary, side, grade, seed)
        if puzzle is not None:
            lines.append({"size": f"{side}x{side}", "grade": grade, "seed": seed,
                          "puzzle": puzzle})
            if len(lines) == per_kind:
                break
    print(f"{side}x{side} {grade or 'any'}: {len(lines)} puzzles", file=sys.stderr, flush=True)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="target/release/bimaru-sat")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--per-kind", type=int, default=3)
    parser.add_argument("--out", default="puzzles/stock/stock.jsonl")
    args = parser.parse_args()
    kinds = [(side, grade) for grade in GRADES for side in SIDES]
    # The slow kinds first, so that the two jobs end together.
    kinds.sort(key=lambda k: -(k[0] ** 2) * (1 + GRADES.index(k[1])))
    with ThreadPoolExecutor(args.jobs) as pool:
        made = dict(zip(kinds, pool.map(lambda k: kind(args.bin, args.per_kind, *k), kinds)))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w") as f:
        for grade in GRADES:
            for side in SIDES:
                for line in made[(side, grade)]:
                    f.write(json.dumps(line, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
