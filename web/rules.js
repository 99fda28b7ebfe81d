// The rules the player's marks break, from the cells alone, shown as they break.

import { NUMBER_WORDS, cellWords, game, isShip, plural } from "./game.js";
import { SIDES, completeShips } from "./shapes.js";

// The clues with a closed side: the side their ship goes on to (none for a submarine), their
// name, and the rule in words.
const CLOSED_CLUE = {
  t: { open: "d", name: "top end", rule: "a top end's ship goes on downward only" },
  b: { open: "u", name: "bottom end", rule: "a bottom end's ship goes on upward only" },
  l: { open: "r", name: "left end", rule: "a left end's ship goes on to the right only" },
  r: { open: "l", name: "right end", rule: "a right end's ship goes on to the left only" },
  c: { open: null, name: "submarine", rule: "a submarine has water all round" },
};
const capital = (s) => s[0].toUpperCase() + s.slice(1);

// The rules the player's marks break, from the cells alone (no solution needed), so that they
// are shown as they break: `lines`, the counts broken ("row-2", "col-5": more ship parts than
// the count, or fewer with no open cell left); `cells`, index -> the rule the cell breaks
// (ships touching, even at a corner; a ship longer than the fleet's longest; a ship part against
// a clue's closed side); `fleet`, length
// -> how many complete ships of that length stand beyond the fleet's; `sentences`, each break
// in words, as Check says them.
export function ruleBreaks(cells) {
  const { rows, cols } = game.puzzle;
  const at = (r, c) => (r < 0 || c < 0 || r >= rows || c >= cols ? "." : cells[r * cols + c]);
  const sentences = [], lines = new Set(), marked = new Map(), fleetOver = {};
  const mark = (i, why) => {
    if (!marked.has(i)) marked.set(i, why);
  };
  const line = (key, name, list, count) => {
    if (count === null || count === undefined) return;
    const ships = list.filter(isShip).length;
    if (ships > count) sentences.push(`${name} has ${plural(ships, "ship cell")}; its count is ${count}.`);
    else if (ships < count && !list.includes("?")) {
      sentences.push(`${name} has ${plural(ships, "ship cell")} and no open cell left; its count is ${count}.`);
    } else return;
    lines.add(key);
  };
  for (let r = 0; r < rows; r++) {
    line(`row-${r}`, `Row ${r + 1}`, cells.slice(r * cols, (r + 1) * cols), game.puzzle.row_counts[r]);
  }
  for (let c = 0; c < cols; c++) {
    line(`col-${c}`, `Column ${c + 1}`, Array.from({ length: rows }, (_, r) => cells[r * cols + c]), game.puzzle.col_counts[c]);
  }
  // Ships touching: two ship parts diagonal to each other (a bent ship is two touching too).
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (!isShip(at(r, c))) continue;
      for (const dc of [-1, 1]) {
        if (!isShip(at(r + 1, c + dc))) continue;
        const i = r * cols + c, j = (r + 1) * cols + c + dc;
        mark(i, "touches another ship at a corner");
        mark(j, "touches another ship at a corner");
        sentences.push(`Ships touch at ${cellWords(i)} and ${cellWords(j)}: ships never touch, not even at a corner.`);
      }
    }
  }
  // A ship part against a clue's closed side: an end's ship goes on away from its round side
  // only, and a submarine has water all round.
  for (let i = 0; i < rows * cols; i++) {
    const clue = game.given[i];
    if (!(clue in CLOSED_CLUE)) continue;
    const r = Math.floor(i / cols), c = i % cols;
    for (const [side, dr, dc] of SIDES) {
      if (side === CLOSED_CLUE[clue].open || !isShip(at(r + dr, c + dc))) continue;
      const j = (r + dr) * cols + c + dc;
      if (game.given[j]) continue;
      const { name, rule } = CLOSED_CLUE[clue];
      mark(j, `against the closed side of the ${name} at ${cellWords(i)}`);
      sentences.push(`${capital(cellWords(j))} is a ship part against the closed side of the ${name} at ${cellWords(i)}: ${rule}.`);
    }
  }
  // Runs longer than the fleet's longest ship.
  const fleet = game.puzzle.fleet || {};
  const lengths = Object.keys(fleet).filter((k) => fleet[k] > 0).map(Number);
  const longest = lengths.length ? Math.max(...lengths) : Infinity;
  for (const [dr, dc] of [[0, 1], [1, 0]]) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (!isShip(at(r, c)) || isShip(at(r - dr, c - dc))) continue;
        const run = [];
        for (let rr = r, cc = c; isShip(at(rr, cc)); rr += dr, cc += dc) run.push(rr * cols + cc);
        if (run.length <= longest) continue;
        for (const i of run) mark(i, `part of a ship longer than the fleet's longest (${longest})`);
        sentences.push(`The ship from ${cellWords(run[0])} is ${run.length} cells long; the fleet's longest ship has ${longest}.`);
      }
    }
  }
  // More complete ships of a length than the fleet has.
  const placed = {};
  for (const n of completeShips(cells)) placed[n] = (placed[n] || 0) + 1;
  for (const n of Object.keys(placed).map(Number).sort((a, b) => b - a)) {
    const count = fleet[n] || 0;
    if (placed[n] <= count || n > longest) continue;
    fleetOver[n] = placed[n] - count;
    sentences.push(`${plural(placed[n], "ship")} of length ${n} ${placed[n] === 1 ? "is" : "are"} placed; the fleet has ${NUMBER_WORDS[count] || count}.`);
  }
  return { lines, cells: marked, fleet: fleetOver, sentences };
}

// The rule breaks of the cells on the board, worked out once per change of them.
export let breaksOf = { cells: null, value: null };
export function breaks() {
  if (breaksOf.cells !== game.cells) breaksOf = { cells: game.cells, value: ruleBreaks(game.cells) };
  return breaksOf.value;
}
