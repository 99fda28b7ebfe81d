#!/usr/bin/env python3
"""A large JSON board for the memory figures of docs/reliability.md.

    python3 scripts/big_board.py ROWS COLS [FLEET_JSON] [--open] > board.json

FLEET_JSON is ships per length (default the standard fleet, {"4":1,"3":2,"2":3,"1":4}). With
--open every row and column count is null (unknown); otherwise the counts are those of the fleet
placed at random (seed 1) without touching, so the board has a solution.
"""
import json
import random
import sys


def counted(rows, cols, fleet, seed=1):
    rnd = random.Random(seed)
    blocked = set()
    row_counts, col_counts = [0] * rows, [0] * cols
    for length, n in sorted(((int(k), v) for k, v in fleet.items()), reverse=True):
        for _ in range(n):
            for _ in range(100000):
                across = length == 1 or rnd.random() < 0.5
                if across and cols >= length:
                    r, c = rnd.randrange(rows), rnd.randrange(cols - length + 1)
                    cells = [(r, c + i) for i in range(length)]
                elif not across and rows >= length:
                    r, c = rnd.randrange(rows - length + 1), rnd.randrange(cols)
                    cells = [(r + i, c) for i in range(length)]
                else:
                    continue
                if any(cell in blocked for cell in cells):
                    continue
                for (a, b) in cells:
                    row_counts[a] += 1
                    col_counts[b] += 1
                    blocked.update((a + da, b + db) for da in (-1, 0, 1) for db in (-1, 0, 1))
                break
            else:
                sys.exit("the fleet does not fit")
    return row_counts, col_counts


def main():
    args = [a for a in sys.argv[1:] if a != "--open"]
    rows, cols = int(args[0]), int(args[1])
    fleet = json.loads(args[2]) if len(args) > 2 else {"4": 1, "3": 2, "2": 3, "1": 4}
    if "--open" in sys.argv:
        row_counts, col_counts = [None] * rows, [None] * cols
    else:
        row_counts, col_counts = counted(rows, cols, fleet)
    json.dump({"rows": rows, "cols": cols, "row_counts": row_counts, "col_counts": col_counts,
               "fleet": fleet}, sys.stdout)


if __name__ == "__main__":
    main()
