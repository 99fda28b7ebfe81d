// The engine's answers about the board: the solution, Check and its wrong cells, Solve and
// Reveal one cell.

import { api } from "./api.js";
import { drawAll, drawBoard } from "./board.js";
import { $, elapsed, game, isShip, needPuzzle, plural } from "./game.js";
import { save } from "./keep.js";
import { say } from "./message.js";
import { clearMarks, edit, finished, pushHistory, record } from "./play.js";
import { breaks } from "./rules.js";

export async function solution() {
  if (game.solution) return game.solution;
  const answer = await api("unique", { puzzle: game.source });
  if (answer.status !== "unique") {
    throw new Error("This puzzle has more than one solution, so cells cannot be checked against one.");
  }
  game.solution = answer.grid;
  return game.solution;
}

// The cells that disagree with the solution.
export async function mistakes() {
  const rows = await solution();
  const cols = game.puzzle.cols;
  const wrong = [];
  game.cells.forEach((letter, i) => {
    if (letter === "?" || game.given[i]) return;
    if (isShip(letter) !== (rows[Math.floor(i / cols)][i % cols] !== ".")) wrong.push(i);
  });
  return wrong;
}

// Marks the wrong cells; the message names each rule the board breaks, then the wrong cells.
export function markMistakes(wrong, broken = []) {
  game.wrong = new Set(wrong);
  drawBoard();
  const crosses = wrong.length ? [`${plural(wrong.length, "wrong cell")}, marked with a red cross.`] : [];
  say([...broken, ...crosses].join(" "), { error: true });
}

export async function check() {
  needPuzzle();
  const broken = breaks().sentences;
  let wrong = [];
  try {
    wrong = await mistakes();
  } catch (e) {
    // Without a unique solution the rules alone are checked.
    if (!broken.length) throw e;
  }
  clearMarks();
  if (wrong.length || broken.length) {
    markMistakes(wrong, broken);
    return;
  }
  const open = game.cells.filter((c) => c === "?").length;
  drawBoard();
  say(open ? `No mistakes so far; ${open} cell${open === 1 ? "" : "s"} to go.` : "No mistakes.");
}

export function askSolve() {
  needPuzzle();
  if (game.solved) return;
  $("confirm-solve").hidden = false;
  $("reveal-one").focus();
}

export async function solve() {
  needPuzzle();
  $("confirm-solve").hidden = true;
  const rows = await solution().catch(async () => (await api("solve", { puzzle: game.source })).grid);
  const cols = game.puzzle.cols;
  const next = game.cells.map((c, i) => (game.given[i] ? c : rows[Math.floor(i / cols)][i % cols] === "." ? "." : "s"));
  pushHistory();
  game.cells = next;
  game.trial = new Set();
  game.trialOn = false;
  clearMarks();
  game.revealed = true;
  game.assisted = true;
  game.solved = true;
  game.elapsed = elapsed();
  game.since = null;
  record();
  finished();
  drawAll();
  save();
}

// Fills one cell from the solution: a wrong one first, else an open one.
export async function revealOne() {
  needPuzzle();
  $("confirm-solve").hidden = true;
  const rows = await solution();
  const cols = game.puzzle.cols;
  const wrong = await mistakes();
  const open = game.cells.map((c, i) => i).filter((i) => game.cells[i] === "?");
  const ships = open.filter((i) => rows[Math.floor(i / cols)][i % cols] !== ".");
  const i = wrong[0] ?? ships[0] ?? open[0];
  if (i === undefined) return;
  const letter = rows[Math.floor(i / cols)][i % cols] === "." ? "." : "s";
  game.cursor = { row: Math.floor(i / cols), col: i % cols };
  game.assisted = true;
  edit([[i, letter]]);
  if (!game.solved) {
    game.hint = i;
    drawBoard();
    say(`Revealed row ${game.cursor.row + 1}, column ${game.cursor.col + 1}: ${letter === "." ? "water" : "ship"}.`);
  }
}
