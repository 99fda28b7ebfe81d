// Drawing the board: the cells and counts as an ARIA grid, their names, the puzzle's size and
// grade, the cell size that fits the window, and the timer.

import { drawFleet } from "./fleet.js";
import { $, PIECE_WORDS, clock, elapsed, game, isShip } from "./game.js";
import { drawHint } from "./hints.js";
import { stroke } from "./input.js";
import { drawBanner, drawTrial } from "./play.js";
import { breaks } from "./rules.js";
import { drawing, shipWords } from "./shapes.js";

// "met" when a line holds as many ship parts as its count, "over" when more, "short" when no cell
// is left open and it holds fewer.
export function lineState(cells, count) {
  if (count === null || count === undefined) return "";
  const ships = cells.filter(isShip).length;
  if (ships > count) return "over";
  if (ships === count) return "met";
  return cells.includes("?") ? "" : "short";
}

// Whether cell `i` shows a trial mark: one of the trial, or one a stroke under way paints in
// trial mode.
export function trialMark(i) {
  if (game.trial.has(i)) return true;
  return game.trialOn && stroke.letter !== null && stroke.letter !== "?" && stroke.cells.has(i);
}

export function cellName(i) {
  const cols = game.puzzle.cols;
  const r = Math.floor(i / cols), c = i % cols;
  const { shape, open } = drawing(game.cells, i);
  const word = (shape === "s" ? shipWords(open) : PIECE_WORDS[shape]) + (trialMark(i) ? " (trial)" : "");
  const broken = breaks().cells.get(i);
  const extra = (game.given[i] ? ", given" : "") + (game.wrong.has(i) ? ", wrong" : "") + (game.hint === i ? ", hint" : "") +
    (game.hintCells.has(i) ? ", cited by the hint" : "") +
    (broken ? ", breaks a rule: " + broken : "");
  return `Row ${r + 1}, column ${c + 1}: ${word}${extra}`;
}

// Builds the board's cells into `root`: `play` adds the counts' states, marks and cursor.
export function buildBoard(root, cells, play) {
  const { rows, cols } = game.puzzle;
  root.replaceChildren();
  root.style.setProperty("--cols", cols + 1);
  const line = (r0, c0, dr, dc, n) => Array.from({ length: n }, (_, k) => cells[(r0 + dr * k) * cols + c0 + dc * k]);
  const count = (k, state, name, key) => {
    const d = document.createElement("div");
    const cited = play && game.hintLines.has(key);
    d.className = ("count " + (play ? state : "") + (cited ? " cited" : "")).trim();
    d.setAttribute("role", "gridcell");
    d.textContent = k === null ? "" : k;
    d.setAttribute("aria-label", k === null ? `${name}: no number` : `${name}: ${k} ship cells${state === "met" ? ", done" : state === "over" ? ", too many" : state === "short" ? ", too few with no cell left open" : ""}${cited ? ", cited by the hint" : ""}`);
    return d;
  };
  for (let r = 0; r <= rows; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    if (r === rows) {
      game.puzzle.col_counts.forEach((k, c) => {
        const d = count(k, lineState(line(0, c, 1, 0, rows), k), `Column ${c + 1}`, `col-${c}`);
        d.dataset.col = c;
        row.appendChild(d);
      });
      const corner = document.createElement("div");
      corner.className = "count";
      corner.setAttribute("role", "gridcell");
      corner.setAttribute("aria-label", "corner");
      row.appendChild(corner);
      root.appendChild(row);
      break;
    }
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      const d = document.createElement("div");
      d.className = "cell";
      d.setAttribute("role", "gridcell");
      d.dataset.row = r;
      d.dataset.col = c;
      d.dataset.state = cells[i];
      const { shape, join } = drawing(cells, i);
      d.dataset.shape = shape;
      d.dataset.join = join;
      if (game.given[i]) d.classList.add("given");
      if (play && trialMark(i)) d.classList.add("trial");
      if (play) {
        d.id = `cell-${r}-${c}`;
        if (game.wrong.has(i)) d.classList.add("wrong");
        if (game.hint === i) d.classList.add("hinted");
        if (game.hintCells.has(i)) d.classList.add("cited");
        if (breaks().cells.has(i)) d.classList.add("breaks");
        if (game.cursor.row === r && game.cursor.col === c) d.classList.add("cursor");
        d.setAttribute("aria-label", cellName(i));
      }
      const piece = document.createElement("span");
      piece.className = "piece";
      piece.setAttribute("aria-hidden", "true");
      d.appendChild(piece);
      row.appendChild(d);
    }
    const k = game.puzzle.row_counts[r];
    const d = count(k, lineState(line(r, 0, 0, 1, cols), k), `Row ${r + 1}`, `row-${r}`);
    d.dataset.row = r;
    row.appendChild(d);
    root.appendChild(row);
  }
}

export function drawBoard() {
  const board = $("board");
  buildBoard(board, game.cells, true);
  board.setAttribute("aria-activedescendant", `cell-${game.cursor.row}-${game.cursor.col}`);
  fit();
  drawHint();
}

export function drawAll() {
  drawBoard();
  drawTrial();
  drawFleet();
  drawInfo();
  drawBanner();
  tick();
}

// The puzzle's size and grade, shown with it.
export function gradeName() {
  return game.grade ? game.grade.grade : game.asked;
}

export function drawInfo() {
  if (!game.puzzle) return;
  const { rows, cols } = game.puzzle;
  const name = gradeName();
  const grade = name ? `grade: ${name}` : game.grading === "pending" ? "grading…" : game.grading === "failed" ? "grade not known" : "";
  $("puzzle-info").textContent = `${rows}x${cols} puzzle${grade ? ", " + grade : ""}`;
}

// The cell size that fits the board in the window.
export function fit() {
  if (!game.puzzle) return;
  const { rows, cols } = game.puzzle;
  const board = $("board");
  const phone = window.innerWidth < 700;
  const width = (phone ? window.innerWidth - 16 : Math.min(window.innerWidth * 0.62, window.innerWidth - 360));
  const top = board.getBoundingClientRect().top + window.scrollY;
  const height = phone ? window.innerHeight * 0.62 : window.innerHeight - top - 16;
  const size = Math.floor(Math.min(width / (cols + 1), height / (rows + 1)));
  board.style.setProperty("--cell", Math.max(14, Math.min(64, size)) + "px");
}

export function tick() {
  $("timer").textContent = clock(elapsed());
  $("timer").classList.toggle("stopped", game.since === null);
}
