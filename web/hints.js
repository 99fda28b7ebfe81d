// Hints: asking the server for the next forced cell, the hint in one sentence, and the hint box.

import { ApiFailure, api } from "./api.js";
import { drawBoard } from "./board.js";
import { check, markMistakes, mistakes } from "./check.js";
import { $, game, needPuzzle } from "./game.js";
import { action, say } from "./message.js";
import { save } from "./keep.js";
import { clearMarks } from "./play.js";

// The hint box: the hint in one sentence, at most 3 lines unless "more" was pressed, and the
// whole reason under Details.
export function drawHint() {
  const box = $("hint-box"), text = $("hint-text"), more = $("hint-more");
  box.hidden = !game.hintText;
  if (!game.hintText) return;
  text.textContent = game.hintText;
  $("hint-details").hidden = !game.hintReason;
  $("hint-reason").textContent = game.hintReason || "";
  text.classList.toggle("clamped", !game.hintMore);
  more.hidden = !game.hintMore && text.scrollHeight <= text.clientHeight + 1;
  more.textContent = game.hintMore ? "less" : "more";
  more.setAttribute("aria-expanded", String(game.hintMore));
}
export async function hint() {
  needPuzzle();
  if (game.solved) return;
  const wrong = await mistakes().catch(() => []);
  if (wrong.length) {
    say(`Your board has ${wrong.length} mistake${wrong.length === 1 ? "" : "s"}, so no hint can follow from it.`, {
      error: true,
      actions: [["Mark the mistakes", () => markMistakes(wrong)]],
    });
    return;
  }
  const state = game.cells.join("");
  const cols = game.puzzle.cols;
  let text = "";
  for (let r = 0; r < game.puzzle.rows; r++) text += state.slice(r * cols, (r + 1) * cols) + "\n";
  let answer;
  try {
    answer = await api("hint", { puzzle: game.source, state: text });
  } catch (e) {
    if (e instanceof ApiFailure && e.answer && e.answer.status === "unsat") {
      say("Your board has a mistake, so no hint can follow from it.", {
        error: true, details: e.message, actions: [["Mark the mistakes", action(check)]],
      });
      return;
    }
    throw e;
  }
  clearMarks();
  if (answer.status === "complete") {
    say("Every cell is filled.");
    drawBoard();
    return;
  }
  // A hint is help, as Solve is: the game sets no best time.
  game.assisted = true;
  game.hint = answer.row * cols + answer.col;
  game.cursor = { row: answer.row, col: answer.col };
  game.hintCells = new Set((answer.cells || []).map(([r, c]) => r * cols + c));
  game.hintLines = new Set([...(answer.rows || []).map((r) => `row-${r}`), ...(answer.cols || []).map((c) => `col-${c}`)]);
  game.hintText = hintSentence(answer);
  game.hintReason = `${answer.text} Found by ${answer.method}.`;
  say(`Hint: the highlighted cell is ${answer.content === "water" ? "water" : "part of a ship"}.`);
  drawBoard();
  save();
}

// The hint in one sentence: the cell, what it holds and the one rule that decides it (a count
// of its own row or column first, then no-touch, the other counts, the fleet, the ship shape,
// the rest, clues and filled cells last). The cells and counts it cites are highlighted.
export function hintSentence(answer) {
  const cell = `Row ${answer.row + 1}, column ${answer.col + 1}`;
  const water = answer.content === "water";
  const what = water ? "water" : "a ship part";
  const other = water ? "a ship part" : "water";
  const own = [`row ${answer.row + 1} holds`, `column ${answer.col + 1} holds`];
  const rank = (r) => (own.some((o) => r.startsWith(o)) ? 0 : r.startsWith("ships never touch") ? 1
    : /^(row|column) \d+ holds/.test(r) ? 2 : r.startsWith("the fleet has") ? 3 : r.startsWith("every ship part") ? 4
      : r.startsWith("the clue") || r.includes("already filled") ? 6 : 5);
  const rule = [...(answer.rules || [])].sort((a, b) => rank(a) - rank(b))[0] || "the rules";
  const because = rank(rule) === 6 ? "because of " + rule : "because " + rule;
  const n = (answer.cells || []).length;
  const given = n ? ` (see the highlighted ${n === 1 ? "cell" : "cells"})` : "";
  switch (answer.method) {
    case "propagation": return `${cell} is ${what}, ${because}${given}.`;
    case "look-ahead": return `${cell} is ${what}: were it ${other}, ${rule} could not hold${given}.`;
    case "case-split": return `${cell} is ${what}: were it ${other}, a highlighted cell could be neither a ship part nor water.`;
    default: return `${cell} is ${what}: were it ${other}, the fleet could not be placed${given}.`;
  }
}
