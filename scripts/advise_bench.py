#!/usr/bin/env python3
"""Times `POST /api/advise` on positions drawn from self-play games, checks that each answer is
deterministic (the same request twice, the same shot and heat map) and that `advise --posterior
--method quick` on the command line names the same best squares.

    bimaru-sat serve --port 18935 &
    python3 scripts/advise_bench.py --url http://127.0.0.1:18935 --bin target/release/bimaru-sat

With `--salvo 5` every request also asks for a salvo of five squares (`"salvo": 5`), and the
answer is checked: five distinct untouched squares, the shot first. `--strategy` names the level
the timed requests use (the games that make the positions are always played by `posterior`).

Positions: games played by the API's own advice (strategy posterior) against hidden fleets drawn
uniformly (Python's random, seed 35); every shot's position is kept, and 100 are taken evenly
over all the stages, the opening (no shot) and the five-ships-afloat stage included.
"""
import argparse, json, random, statistics, subprocess, time, urllib.request

FLEET = {"A": 5, "B": 4, "D": 3, "S": 3, "P": 2}
COLS = "ABCDEFGHIJ"


def name(r, c):
    return f"{COLS[c]}{r + 1}"


def draw_fleet(rng):
    while True:
        ships, used = {}, set()
        ok = True
        for k, n in FLEET.items():
            h = rng.random() < 0.5
            r = rng.randrange(10 if h else 11 - n)
            c = rng.randrange(11 - n if h else 10)
            cells = {(r, c + i) if h else (r + i, c) for i in range(n)}
            if cells & used:
                ok = False
                break
            used |= cells
            ships[k] = cells
        if ok:
            return ships


def check_salvo(body, ans, k):
    """The salvo holds `k` distinct squares not shot before, the shot first."""
    salvo = ans.get("salvo", [])
    shot = {s["at"] for s in body["shots"]}
    return len(salvo) == k and len(set(salvo)) == k and salvo[0] == ans["shot"] and not shot & set(salvo)


def post(url, body):
    req = urllib.request.Request(url + "/api/advise", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    t = time.perf_counter()
    with urllib.request.urlopen(req) as resp:
        data = json.loads(resp.read())
    return data, time.perf_counter() - t


def play(url, rng):
    fleet = draw_fleet(rng)
    hits = {k: set() for k in fleet}
    shots, positions = [], []
    while any(hits[k] != fleet[k] for k in fleet):
        body = {"shots": list(shots)}
        positions.append((json.loads(json.dumps(body)), dict((k, set(v)) for k, v in hits.items()), fleet))
        ans, _ = post(url, body)
        r, c = int(ans["shot"][1:]) - 1, COLS.index(ans["shot"][0])
        owner = next((k for k in fleet if (r, c) in fleet[k]), None)
        if owner is None:
            shots.append({"at": ans["shot"], "result": "miss"})
        else:
            hits[owner].add((r, c))
            if hits[owner] == fleet[owner]:
                shots.append({"at": ans["shot"], "result": "sunk", "ship": owner,
                              "squares": [name(*s) for s in sorted(fleet[owner])]})
            else:
                shots.append({"at": ans["shot"], "result": "hit"})
    return positions


def contest_text(shots):
    board = [[0] * 10 for _ in range(10)]
    afloat = list(FLEET)
    for s in shots:
        r, c = int(s["at"][1:]) - 1, COLS.index(s["at"][0])
        board[r][c] = {"miss": 1, "hit": 2, "sunk": 2}[s["result"]]
        if s["result"] == "sunk":
            for q in s["squares"]:
                board[int(q[1:]) - 1][COLS.index(q[0])] = 3
            afloat.remove(s["ship"])
    return "1\n%d\n%s\n%s\n" % (len(afloat), " ".join(afloat),
                                 "\n".join(" ".join(map(str, row)) for row in board))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:18935")
    ap.add_argument("--bin", default="target/release/bimaru-sat")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--strategy", default=None, help="the level of the timed requests")
    ap.add_argument("--salvo", type=int, default=None, help="ask for a salvo of this many squares")
    a = ap.parse_args()
    rng = random.Random(35)
    pool = []
    for _ in range(a.games):
        pool += play(a.url, rng)
    step = len(pool) / a.positions
    chosen = [pool[int(i * step)] for i in range(a.positions)]
    times, afloat5, mismatched, cli_diff, bad_salvos, skipped = [], [], 0, 0, 0, 0
    for body, _, _ in chosen:
        free = 100 - len(body["shots"])
        if a.salvo and a.salvo > free:
            skipped += 1
            continue
        asked = dict(body, **{k: v for k, v in (("strategy", a.strategy), ("salvo", a.salvo)) if v})
        first, t1 = post(a.url, asked)
        second, t2 = post(a.url, asked)
        if a.salvo and not check_salvo(body, first, a.salvo):
            bad_salvos += 1
            print("bad salvo:", first.get("salvo"), body)
        times += [t1, t2]
        if len(first["afloat"]) == 5:
            afloat5 += [t1, t2]
        answer = lambda x: (x["shot"], x.get("salvo"), x["probabilities"])
        if answer(first) != answer(second):
            mismatched += 1
        out = subprocess.run([a.bin, "advise", "--posterior", "--method", "quick"],
                             input=contest_text(body["shots"]), capture_output=True, text=True).stdout
        line = next(l for l in out.splitlines() if l.startswith("Best Move Probability"))
        cli_best = [s.strip() for s in line.split(" at ", 1)[1].split(",")]
        if cli_best != first["best"]:
            cli_diff += 1
            print("CLI differs:", cli_best, first["best"], body)
    ms = sorted(t * 1000 for t in times)
    print(f"strategy {a.strategy or 'posterior'}, salvo {a.salvo or 1}; "
          f"positions {len(chosen) - skipped} (requests {len(times)}), pool {len(pool)} from {a.games} games; "
          f"five ships afloat: {len(afloat5) // 2}")
    print(f"median {statistics.median(ms):.1f} ms, 90th {ms[int(0.9 * len(ms))]:.1f} ms, worst {ms[-1]:.1f} ms")
    if afloat5:
        f = sorted(t * 1000 for t in afloat5)
        print(f"five ships afloat: median {statistics.median(f):.1f} ms, worst {f[-1]:.1f} ms")
    print(f"answers that changed between two requests: {mismatched}; CLI best squares differing: {cli_diff}")
    if a.salvo:
        print(f"salvos not {a.salvo} distinct untouched squares led by the shot: {bad_salvos}; "
              f"positions with fewer untouched squares, skipped: {skipped}")


if __name__ == "__main__":
    main()
