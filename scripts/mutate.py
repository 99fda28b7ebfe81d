#!/usr/bin/env python3
"""Mutation run (issue 14): mutate corpus inputs and run every command on them.

Each input is a corpus file with a few hostile edits (huge numbers, deleted or repeated lines,
flipped bytes, truncation). Commands take turns: solve (several backends and flags), convert,
render, hint, grade, batch, decode and advise (solve, hint, grade and batch with
`--time-limit 8`: a hard puzzle is then a clean exit 4; the posterior has its own 4 s default). Each run has a 10 s timeout and a 4 GiB address
space limit, so runaway memory shows as an abort instead of the OOM killer.

Counted: panics (exit 101), aborts (134), other signals, timeouts, internal errors (70), and
every grid printed by `solve --to json`, which is checked here, independently of the crate,
against the puzzle as `convert --to json` reads it. Failing inputs are kept in --out.

    nice -n 19 python3 scripts/mutate.py --count 20000 --out /tmp/mutate

The summary is printed at the end (and every 1000 inputs); docs/reliability.md records runs.
"""

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TOKENS = [b"0", b"1", b"-1", b"9", b"10", b"?", b"9223372036854775808", b"9223372036854775807",
          b"-9223372036854775808", b"18446744073709551616", b"4294967295", b"4294967296",
          b"1000000000000000000", b"1000000", b"100000", b"1000", b"1e400", b"NaN", b" ", b"\n",
          b"\r\n", b"\t", b",", b";", b"[", b"]", b"{", b"}", b'"', b":", b"/", b"=", b"#",
          b"S", b"W", b"M", b".", b"<", b">", b"^", b"v", b"T", b"B", b"L", b"R", b"null",
          b"\xef\xbb\xbf", b"\x00", b"\xff"]


def mutate(data: bytes, rnd: random.Random) -> bytes:
    b = bytearray(data)
    if rnd.random() < 0.5:
        # A mutant that keeps the format: a few digits or piece letters changed.
        spots = [i for i, x in enumerate(b) if chr(x) in "0123456789SWMLRTBC.<>^v?"]
        for i in rnd.sample(spots, min(len(spots), rnd.choice([1, 1, 2, 3]))):
            b[i] = ord(rnd.choice("0123456789" if chr(b[i]).isdigit() else "SWMLRTBC.<>^v?0"))
        return bytes(b)
    for _ in range(rnd.choice([1, 1, 1, 2, 2, 3, 6])):
        op = rnd.randrange(7)
        i = rnd.randrange(len(b) + 1)
        if op == 0:  # insert a token
            b[i:i] = rnd.choice(TOKENS)
        elif op == 1:  # replace the number or word around i by a token
            a = i
            while a > 0 and chr(b[a - 1]).isalnum():
                a -= 1
            e = i
            while e < len(b) and chr(b[e]).isalnum():
                e += 1
            b[a:e] = rnd.choice(TOKENS)
        elif op == 2 and b:  # delete a stretch
            del b[i:i + rnd.randint(1, 16)]
        elif op == 3 and b:  # flip a byte
            j = min(i, len(b) - 1)
            b[j] = rnd.randrange(256) if rnd.random() < 0.2 else rnd.choice(b"0123456789 \n?.SWM")
        elif op == 4:  # repeat or drop a line
            lines = bytes(b).split(b"\n")
            k = rnd.randrange(len(lines))
            if rnd.random() < 0.5:
                lines.insert(k, lines[k])
            else:
                del lines[k]
            b = bytearray(b"\n".join(lines))
        elif op == 5:  # truncate
            del b[i:]
        elif op == 6:  # a number multiplied: a digit string repeated
            digits = rnd.choice([b"9", b"1", b"0"]) * rnd.randint(2, 25)
            b[i:i] = digits
    return bytes(b)


def seeds(dirs):
    files = []
    for d in dirs:
        d = Path(d)
        if not d.exists():
            continue
        for p in sorted(d.rglob("*")):
            if p.is_file() and p.stat().st_size <= 200_000 and ".git" not in p.parts:
                files.append(p)
    return files


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def run(cmd, timeout):
    try:
        r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout, preexec_fn=limit_memory)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


# ---------------------------------------------------------------- independent grid check

PIECES = set(".ctblrm")


def json_stream(text):
    dec = json.JSONDecoder()
    i, out = 0, []
    text = text.strip()
    while i < len(text):
        obj, j = dec.raw_decode(text, i)
        out.append(obj)
        i = j
        while i < len(text) and text[i].isspace():
            i += 1
    return out


def check_grid(puzzle, grid):
    """None when `grid` (row strings) solves `puzzle` (the JSON puzzle schema), else why not."""
    R, C = puzzle["rows"], puzzle["cols"]
    if len(grid) != R or any(len(row) != C for row in grid):
        return "grid size"
    g = [row.lower() for row in grid]
    if any(ch not in PIECES for row in g for ch in row):
        return "unknown letter"
    ship = [[ch != "." for ch in row] for row in g]
    for r, k in enumerate(puzzle["row_counts"]):
        if k is not None and sum(ship[r]) != k:
            return f"row {r} count"
    for c, k in enumerate(puzzle["col_counts"]):
        if k is not None and sum(ship[r][c] for r in range(R)) != k:
            return f"column {c} count"
    for r in range(R - 1):  # no diagonal contact
        for c in range(C):
            if ship[r][c] and ((c > 0 and ship[r + 1][c - 1]) or (c + 1 < C and ship[r + 1][c + 1])):
                return f"diagonal contact at {r},{c}"
    seen = [[False] * C for _ in range(R)]
    fleet = Counter()
    for r in range(R):
        for c in range(C):
            if not ship[r][c] or seen[r][c]:
                continue
            right = c + 1 < C and ship[r][c + 1]
            down = r + 1 < R and ship[r + 1][c]
            if right and down:
                return f"bent ship at {r},{c}"
            cells = [(r, c)]
            dr, dc = (0, 1) if right else (1, 0)
            while True:
                nr, nc = cells[-1][0] + dr, cells[-1][1] + dc
                if nr < R and nc < C and ship[nr][nc]:
                    cells.append((nr, nc))
                else:
                    break
            for (a, b) in cells:
                seen[a][b] = True
            n = len(cells)
            want = ("c" if n == 1 else
                    ("l" + "m" * (n - 2) + "r" if dr == 0 else "t" + "m" * (n - 2) + "b"))
            got = "".join(g[a][b] for a, b in cells)
            if got != want:
                return f"ship pieces {got} at {r},{c}"
            fleet[n] += 1
    want_fleet = Counter({int(k): v for k, v in puzzle["fleet"].items() if v})
    if fleet != want_fleet:
        return f"fleet {dict(fleet)} != {dict(want_fleet)}"
    names = {"water": ".", "submarine": "c", "top": "t", "bottom": "b", "left": "l",
             "right": "r", "middle": "m"}
    for clue in puzzle.get("clues", []):
        ch = g[clue["row"]][clue["col"]]
        if clue["piece"] == "ship":
            if ch == ".":
                return "ship clue on water"
        elif names[clue["piece"]] != ch:
            return f"clue {clue} not kept"
    return None


# ---------------------------------------------------------------- the run

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "target/release/bimaru-sat"))
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--out", default="/tmp/bimaru-mutate")
    ap.add_argument("--commands", default="",
                    help="comma-separated command names to run (default: all)")
    ap.add_argument("corpus", nargs="*", default=[
        str(ROOT.parent / "shared/corpus"), str(ROOT.parent / "shared/seeds/rowan-samples"),
        str(ROOT / "puzzles"), str(ROOT / "tests/hostile/corpus")])
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rnd = random.Random(args.seed)
    files = seeds(args.corpus)
    if not files:
        sys.exit("no corpus files")
    rowan = [f for f in files if "rowan" in str(f) and f.suffix == ".txt"]
    # Mostly puzzles the tool reads (so that mutants reach past the parser), some other files.
    readable = [f for f in files if run([args.bin, "convert", "--to", "json", str(f)], 30)[0] == 0]
    others = [f for f in files if f not in readable]
    print(f"{len(readable)} readable puzzle files, {len(others)} other files", flush=True)
    puzzle = ROOT / "puzzles/ist-example.txt"
    answers = [b"s SATISFIABLE\nv 1 -2 3 0\n", b"SAT\n1 -2 0\n", b"s UNSATISFIABLE\n",
               b"Optimal - objective value 2.00000000\n      0 x_1h_0_0   1   0\n"]
    tmp = Path(tempfile.mkdtemp(prefix="mutate-"))
    svg = tmp / "out.svg"
    B = args.bin
    commands = [
        ("solve-json", lambda f: [B, "--time-limit", "8", "--to", "json", f]),
        ("solve", lambda f: [B, "--time-limit", "8", f]),
        ("solve-unique", lambda f: [B, "--time-limit", "8", "--unique", "--to", "json", f]),
        ("solve-placement", lambda f: [B, "--time-limit", "8", "--encoding", "placement",
                                       "--to", "json", f]),
        ("solve-ilp", lambda f: [B, "--backend", "ilp", "--time-limit", "8", "--to", "json", f]),
        ("solve-count", lambda f: [B, "--time-limit", "8", "--count", "3", "--to", "json", f]),
        ("convert", lambda f: [B, "convert", "--to", "json", f]),
        ("render", lambda f: [B, "render", "--svg", str(svg), f]),
        ("hint", lambda f: [B, "hint", "--time-limit", "8", f]),
        ("grade", lambda f: [B, "grade", "--time-limit", "8", f]),
        ("batch", lambda f: [B, "batch", "--time-limit", "8", f]),
        ("decode", lambda f: [B, "decode", str(puzzle), f]),
        ("decode-ilp", lambda f: [B, "decode", "--backend", "ilp", str(puzzle), f]),
        ("advise", lambda f: [B, "advise", f]),
        ("advise-posterior", lambda f: [B, "advise", "--posterior", "--method", "sample",
                                        "--samples", "2000", f]),
    ]
    if args.commands:
        wanted = set(args.commands.split(","))
        commands = [c for c in commands if c[0] in wanted]
        if not commands:
            ap.error(f"--commands: none of {sorted(wanted)} is a command here")
    tally = Counter()
    per_command = Counter()
    start = time.time()
    for i in range(args.count):
        name, make = commands[i % len(commands)]
        if name.startswith("decode"):
            base = rnd.choice(answers)
        elif name.startswith("advise") and rowan:
            base = rnd.choice(rowan).read_bytes()
        else:
            pool = readable if readable and (rnd.random() < 0.9 or not others) else others
            base = rnd.choice(pool).read_bytes()
        data = mutate(base, rnd)
        inp = tmp / f"input{rnd.choice(['.txt', '.json', '.dzn', '.param', ''])}"
        inp.write_bytes(data)
        cmd = make(str(inp))
        code, stdout, stderr = run(cmd, args.timeout)
        per_command[name] += 1
        kind = None
        if code == "timeout":
            kind = "timeout"
        elif code == 101:
            kind = "panic"
        elif code == 134:
            kind = "abort"
        elif code < 0:
            kind = f"signal {-code}"
        elif code == 70:
            kind = "internal error"
        elif code not in (0, 1, 2, 3, 4):
            kind = f"exit {code}"
        if kind is None and code == 0 and name.startswith("solve") and "--to" in cmd:
            conv = run([B, "convert", "--to", "json", str(inp)], args.timeout)
            try:
                puzzles = json_stream(conv[1].decode()) if conv[0] == 0 else []
                results = json_stream(stdout.decode())
            except (ValueError, UnicodeDecodeError):
                puzzles, results = [], []
            if not puzzles or len(puzzles) != len(results):
                tally["grids unchecked"] += 1
            for p, res in zip(puzzles, results):
                grids = res.get("grids") or ([res["grid"]] if res.get("grid") else [])
                for grid in grids:
                    why = check_grid(p, grid)
                    tally["grids checked"] += 1
                    if why:
                        kind = f"wrong grid ({why})"
        if kind:
            tally[kind] += 1
            keep = out / f"{i:06d}-{name}{inp.suffix}"
            keep.write_bytes(data)
            (out / f"{i:06d}-{name}.cmd").write_text(
                " ".join(cmd) + f"\n{kind}\n" + stderr.decode(errors="replace")[-2000:])
        else:
            tally[f"exit {code}"] += 1
        if (i + 1) % 1000 == 0 or i + 1 == args.count:
            print(f"[{i + 1} inputs, {time.time() - start:.0f} s] " +
                  ", ".join(f"{k}: {v}" for k, v in sorted(tally.items())), flush=True)
    print("per command: " + ", ".join(f"{k} {v}" for k, v in per_command.items()))
    bad = sum(v for k, v in tally.items() if not k.startswith(("exit", "grids")))
    print(f"inputs: {args.count}, findings: {bad} (kept in {out})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
