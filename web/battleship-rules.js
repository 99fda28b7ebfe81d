// The rules of Battleship for the page (web/battleship.js): the board, the fleet, the squares'
// names, random fleets, what a shot found, and a side's record as /api/advise reads it. Pure
// functions of fleets and shots: no page, no storage.

export const SIZE = 10;
export const LETTERS = "ABCDEFGHIJ";
export const SHIPS = [
  { letter: "A", name: "carrier", len: 5 },
  { letter: "B", name: "battleship", len: 4 },
  { letter: "D", name: "destroyer", len: 3 },
  { letter: "S", name: "submarine", len: 3 },
  { letter: "P", name: "PT boat", len: 2 },
];
export const shipOf = (letter) => SHIPS.find((s) => s.letter === letter);
// Squares are named as in messages and in the contest: column letter, then row ("C8").
export const squareName = (i) => LETTERS[i % SIZE] + (Math.floor(i / SIZE) + 1);
export const squareAt = (name) => LETTERS.indexOf(name[0]) + (Number(name.slice(1)) - 1) * SIZE;
export const rowCol = (i) => ({ row: Math.floor(i / SIZE), col: i % SIZE });
export const horizontalOf = (ship) => ship.cells.length > 1 && ship.cells[1] === ship.cells[0] + 1;

// Every placement of a ship of length `len`: its cells, in index order.
function placements(len) {
  const out = [];
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      if (c + len <= SIZE) out.push(Array.from({ length: len }, (_, k) => r * SIZE + c + k));
      if (len > 1 && r + len <= SIZE) out.push(Array.from({ length: len }, (_, k) => (r + k) * SIZE + c));
    }
  }
  return out;
}

// A fleet drawn uniformly over all legal fleets: each ship uniformly among its placements, the
// whole fleet drawn again when two overlap (as `simulate` draws its hidden fleets).
export function randomFleet() {
  for (;;) {
    const used = new Set();
    const fleet = [];
    for (const s of SHIPS) {
      const all = placements(s.len);
      const cells = all[Math.floor(Math.random() * all.length)];
      if (cells.some((i) => used.has(i))) break;
      cells.forEach((i) => used.add(i));
      fleet.push({ letter: s.letter, cells });
    }
    if (fleet.length === SHIPS.length) return fleet;
  }
}

// The cells of a ship of `len` squares whose square number `offset` is on `target`, laid
// horizontally or not; null when it would leave the board.
export function line(len, target, offset, horizontal) {
  const { row, col } = rowCol(target);
  const r0 = horizontal ? row : row - offset;
  const c0 = horizontal ? col - offset : col;
  if (r0 < 0 || c0 < 0 || (horizontal ? c0 + len > SIZE : r0 + len > SIZE)) return null;
  return Array.from({ length: len }, (_, k) => (horizontal ? r0 * SIZE + c0 + k : (r0 + k) * SIZE + c0));
}

// What a shot found: a miss, a hit, or the ship it sank. `k` is the shot's number in `shots`.
export function result(fleet, shots, k) {
  const at = shots[k];
  const ship = fleet.find((s) => s.cells.includes(at));
  if (!ship) return { kind: "miss" };
  const before = new Set(shots.slice(0, k + 1));
  return { kind: ship.cells.every((i) => before.has(i)) ? "sunk" : "hit", ship };
}

// A square's state for the shooter: "open", "miss", "hit" or "sunk".
export function mark(fleet, shots, i) {
  if (!shots.includes(i)) return "open";
  const ship = fleet.find((s) => s.cells.includes(i));
  if (!ship) return "miss";
  return ship.cells.every((j) => shots.includes(j)) ? "sunk" : "hit";
}

export const isSunk = (ship, shots) => ship.cells.every((i) => shots.includes(i));
export const sunkAll = (fleet, shots) => fleet.every((s) => isSunk(s, shots));
export const hits = (fleet, shots) => shots.filter((i) => fleet.some((s) => s.cells.includes(i))).length;

// The record of `shots` at `fleet`, as /api/advise reads it (a sunk shot names its ship and
// its squares).
export function record(fleet, shots) {
  return {
    size: SIZE,
    fleet: SHIPS.map((s) => s.letter),
    shots: shots.map((at, k) => {
      const r = result(fleet, shots, k);
      const shot = { at: squareName(at), result: r.kind };
      if (r.kind === "sunk") {
        shot.ship = r.ship.letter;
        shot.squares = r.ship.cells.map(squareName);
      }
      return shot;
    }),
  };
}
