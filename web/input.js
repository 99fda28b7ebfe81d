// Input: the keyboard on the board, the page's shortcuts, the Ship/Water switch, and pointer
// painting.

import { cellName, drawBoard } from "./board.js";
import { check } from "./check.js";
import { $, game, index } from "./game.js";
import { hint } from "./hints.js";
import { action, say } from "./message.js";
import { HELD, edit, kept, redo, toggleTrial, undo } from "./play.js";

export function setMode(letter) {
  game.mode = letter;
  $("mode-ship").setAttribute("aria-pressed", String(letter === "s"));
  $("mode-water").setAttribute("aria-pressed", String(letter === "."));
}

export function announce() {
  $("announce").textContent = cellName(index(game.cursor.row, game.cursor.col));
}

// Marks the cursor's cell with `letter`, or clears it when it already holds it.
export function toggleAt(letter) {
  const i = index(game.cursor.row, game.cursor.col);
  edit([[i, game.cells[i] === letter ? "?" : letter]]);
  announce();
}

export function onKey(event) {
  if (!game.puzzle) return;
  const { rows, cols } = game.puzzle;
  const cur = game.cursor;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const key = event.key;
  const ctrl = event.ctrlKey || event.metaKey;
  if (moves[key]) {
    cur.row = Math.min(rows - 1, Math.max(0, cur.row + moves[key][0]));
    cur.col = Math.min(cols - 1, Math.max(0, cur.col + moves[key][1]));
    drawBoard();
    announce();
  } else if (key === "Home" || key === "End") {
    cur.col = key === "Home" ? 0 : cols - 1;
    drawBoard();
    announce();
  } else if ((key === " " || key === "Enter") && !ctrl) {
    toggleAt(game.mode);
  } else if ((key === "w" || key === ".") && !ctrl) {
    toggleAt(".");
  } else if (key === "s" && !ctrl) {
    toggleAt("s");
  } else if (key === "Backspace" || key === "Delete") {
    edit([[index(cur.row, cur.col), "?"]]);
    announce();
  } else {
    return; // the page's own shortcuts (onShortcut) take the rest
  }
  event.preventDefault();
}

// The page's shortcuts, wherever the focus is except in a text field: undo, redo, hint, check
// and the mode switch (space too, where it would press nothing else).
export function onShortcut(event) {
  if (event.defaultPrevented || !game.puzzle || event.altKey) return;
  const target = event.target instanceof Element ? event.target : document.body;
  if (target.closest("input, textarea, select, [contenteditable]:not([contenteditable='false'])")) return;
  const key = event.key;
  const lower = key.length === 1 ? key.toLowerCase() : key;
  const ctrl = event.ctrlKey || event.metaKey;
  if (ctrl && (lower === "y" || (lower === "z" && event.shiftKey))) action(redo)();
  else if (ctrl && lower === "z") action(undo)();
  else if (ctrl || event.shiftKey && key !== " ") return;
  else if (key === "u") action(undo)();
  else if (key === "r") action(redo)();
  else if (key === "h") action(hint)();
  else if (key === "c") action(check)();
  else if (key === "t") action(toggleTrial)();
  else if (key === "m" || (key === " " && !target.closest("button, a, summary, [role='button'], [tabindex]:not(body)"))) {
    setMode(game.mode === "s" ? "." : "s");
    say(`Mode: ${game.mode === "s" ? "ship" : "water"}.`);
  } else return;
  event.preventDefault();
}

// Pointer painting: the first cell decides what the stroke paints (the mode's letter, water
// for the right button, or clearing when the cell already holds it); every cell the pointer
// then crosses gets the same; the whole stroke is one undo step.
export const stroke = { letter: null, cells: new Map(), before: null, held: false };

export function cellAt(x, y) {
  const target = document.elementFromPoint(x, y);
  const cell = target && target.closest("#board .cell");
  return cell ? [Number(cell.dataset.row), Number(cell.dataset.col)] : null;
}

export function paint(row, col) {
  const i = index(row, col);
  if (kept(i) && !game.given[i]) stroke.held = true;
  if (game.given[i] || stroke.cells.has(i) || kept(i)) return;
  stroke.cells.set(i, stroke.letter);
  const cells = stroke.before.slice();
  for (const [j, letter] of stroke.cells) cells[j] = letter;
  game.cells = cells;
  drawBoard();
}

export function onPointerDown(event) {
  if (!game.puzzle || game.solved || (event.button !== 0 && event.button !== 2)) return;
  const at = cellAt(event.clientX, event.clientY);
  if (!at) return;
  event.preventDefault();
  $("board").focus({ preventScroll: true });
  const [row, col] = at;
  game.cursor = { row, col };
  const letter = event.button === 2 ? "." : game.mode;
  stroke.letter = game.cells[index(row, col)] === letter ? "?" : letter;
  stroke.cells = new Map();
  stroke.held = false;
  stroke.before = game.cells;
  $("board").setPointerCapture(event.pointerId);
  paint(row, col);
}

export function onPointerMove(event) {
  if (stroke.letter === null) return;
  const at = cellAt(event.clientX, event.clientY);
  if (at) paint(...at);
}

export function onPointerUp() {
  if (stroke.letter === null) return;
  const changes = [...stroke.cells];
  game.cells = stroke.before;
  stroke.letter = null;
  if (!edit(changes)) {
    drawBoard();
    if (stroke.held && !changes.length) say(HELD);
  }
  announce();
}
