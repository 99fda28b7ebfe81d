// What the board shows of a ship part (its shape, joins and open sides), and the complete ships
// on the board.

import { game, isShip } from "./game.js";

// What the board shows of a cell: `shape`, the letter it is drawn with, `join`, the sides
// ("u", "d", "l", "r") where a ship neighbour continues it, and `open`, the sides its name
// says are still open. A player's ship part claims only what the marks and clues decide, as
// pzprjs draws it: its end is round toward a side whose neighbour is water (or the edge) when
// the opposite neighbour is a ship part, it is a submarine when all four neighbours are water,
// a middle between two ship parts in a line; else it stays "s", square toward every open side.
export const SIDES = [["u", -1, 0], ["d", 1, 0], ["l", 0, -1], ["r", 0, 1]];
export const OPPOSITE = { u: "d", d: "u", l: "r", r: "l" };
export const END_TOWARD = { u: "t", d: "b", l: "l", r: "r" };
export const SIDE_WORDS = { u: "above", d: "below", l: "on the left", r: "on the right" };

export function drawing(cells, i) {
  const letter = cells[i];
  const { rows, cols } = game.puzzle;
  const r = Math.floor(i / cols), c = i % cols;
  const near = {};
  for (const [side, dr, dc] of SIDES) {
    const rr = r + dr, cc = c + dc;
    const x = rr < 0 || cc < 0 || rr >= rows || cc >= cols ? "." : cells[rr * cols + cc];
    near[side] = x === "?" ? "open" : isShip(x) ? "ship" : "water";
  }
  const sides = (kind) => SIDES.map(([side]) => side).filter((side) => near[side] === kind);
  const join = isShip(letter) ? sides("ship").join("") : "";
  if (letter !== "s") return { shape: letter, join, open: [] };
  const ships = sides("ship"), water = sides("water");
  if (water.length === 4) return { shape: "c", join, open: [] };
  if (ships.length === 2 && OPPOSITE[ships[0]] === ships[1]) return { shape: "m", join, open: [] };
  if (ships.length === 1) {
    const away = OPPOSITE[ships[0]];
    if (near[away] === "water") return { shape: END_TOWARD[away], join, open: [] };
    // Along the ship only: across it the cells cannot be ship parts anyway.
    return { shape: "s", join, open: [away] };
  }
  return { shape: "s", join, open: ships.length ? [] : sides("open") };
}

// "ship, open on the right", "ship, open above, below and on the left", "ship, open on all sides".
export function shipWords(open) {
  if (!open.length) return "ship";
  if (open.length === 4) return "ship, open on all sides";
  const words = open.map((side) => SIDE_WORDS[side]);
  const list = words.length === 1 ? words[0] : words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
  return "ship, open " + list;
}

// The lengths of the complete ships on the board: straight runs of ship cells closed by water
// or the edge at both ends and along both sides.
export function completeShips(cells) {
  const { rows, cols } = game.puzzle;
  const at = (r, c) => (r < 0 || c < 0 || r >= rows || c >= cols ? "." : cells[r * cols + c]);
  const lengths = [];
  const seen = new Set();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (!isShip(at(r, c)) || seen.has(r * cols + c)) continue;
      const horizontal = isShip(at(r, c + 1));
      const [dr, dc] = horizontal ? [0, 1] : [1, 0];
      const run = [];
      let rr = r, cc = c;
      while (isShip(at(rr, cc))) {
        run.push([rr, cc]);
        seen.add(rr * cols + cc);
        rr += dr;
        cc += dc;
      }
      const ends = at(r - dr, c - dc) === "." && at(rr, cc) === ".";
      const sides = run.every(([a, b]) => at(a + dc, b + dr) === "." && at(a - dc, b - dr) === ".");
      if (ends && sides) lengths.push(run.length);
    }
  }
  return lengths;
}
