// Playing on the page: an edit as one undo step, undo and redo, trial mode, and finishing: the
// solved game's result, best times and banner.

import { drawAll, gradeName, tick } from "./board.js";
import { $, clock, elapsed, game, isShip, needPuzzle, plural } from "./game.js";
import { save, store, stored } from "./keep.js";
import { say } from "./message.js";
import { generateRequest } from "./start.js";

export const HISTORY_MAX = 500;

export function clearMarks() {
  game.hint = null;
  game.hintText = null;
  game.hintReason = null;
  game.hintCells = new Set();
  game.hintLines = new Set();
  game.hintMore = false;
  game.wrong.clear();
}

// One step of the undo history: the cells, and which of them hold trial marks.
export const snapshot = () => ({ cells: game.cells, trial: [...game.trial] });

export function restoreStep(step) {
  // A game saved before trial mode keeps bare cell arrays.
  game.cells = Array.isArray(step) ? step : step.cells;
  game.trial = new Set(Array.isArray(step) ? [] : step.trial);
}

export function pushHistory() {
  game.history.push(snapshot());
  if (game.history.length > HISTORY_MAX) game.history.shift();
  game.future = [];
}

export const HELD = "During a trial your normal marks stay as they are: accept or discard the trial first.";

// During a trial the normal marks stay as they are: only open cells and trial marks change, so
// that discarding the trial gives back the board as it was.
export const kept = (i) => game.trialOn && game.cells[i] !== "?" && !game.trial.has(i);

// Sets cells (index -> letter) as one step of the undo history. In trial mode a mark is a trial
// mark; a normal mark set on a trial mark makes it normal.
export function edit(changes) {
  const next = game.cells.slice();
  const trial = new Set(game.trial);
  let changed = false, held = false;
  for (const [i, letter] of changes) {
    if (kept(i) && !game.given[i] && next[i] !== letter) held = true;
    if (game.given[i] || next[i] === letter || kept(i)) continue;
    next[i] = letter;
    if (letter !== "?" && game.trialOn) trial.add(i);
    else trial.delete(i);
    changed = true;
  }
  if (held && !changed && !game.solved) say(HELD);
  if (!changed || game.solved) return false;
  pushHistory();
  game.cells = next;
  game.trial = trial;
  afterEdit();
  return true;
}

// ---- trial mode ----

// Trial mode on or off; the trial marks made stay until they are accepted or discarded.
export function toggleTrial() {
  needPuzzle();
  if (game.solved) return;
  game.trialOn = !game.trialOn;
  const waiting = game.trial.size ? ` ${plural(game.trial.size, "trial mark")} wait to be accepted or discarded.` : "";
  say(game.trialOn
    ? "Trial on: your new marks are trial marks, drawn in purple; accept them or discard them together."
    : `Trial off: your new marks are normal marks.${waiting}`);
  drawAll();
  save();
}

// Accepting makes the trial marks normal marks; discarding clears them. Either is one undo step
// and ends the trial.
export function endTrial(accept) {
  needPuzzle();
  const n = game.trial.size;
  game.trialOn = false;
  if (!n) {
    say("No trial marks.");
    drawAll();
    save();
    return;
  }
  pushHistory();
  if (!accept) game.cells = game.cells.map((c, i) => (game.trial.has(i) ? "?" : c));
  game.trial = new Set();
  afterEdit();
  if (!game.solved) say(accept ? `Trial accepted: ${plural(n, "mark")} kept.` : `Trial discarded: ${plural(n, "mark")} removed.`);
}

export function drawTrial() {
  const n = game.trial.size;
  $("trial").setAttribute("aria-pressed", String(game.trialOn));
  $("trial-box").hidden = !game.trialOn && !n;
  $("trial-text").textContent = `Trial${game.trialOn ? " on" : ""}: ${plural(n, "trial mark")}.`;
  $("trial-accept").disabled = !n;
  $("trial-discard").disabled = !n;
}

export function afterEdit() {
  clearMarks();
  $("confirm-solve").hidden = true;
  say("");
  if (game.since === null && !game.solved) game.since = Date.now();
  complete();
  drawAll();
  save();
}

export function undo() {
  needPuzzle();
  if (game.solved && !game.revealed) return;
  const previous = game.history.pop();
  if (!previous) {
    say("Nothing to undo.");
    return;
  }
  game.future.push(snapshot());
  restoreStep(previous);
  reopen();
  afterEdit();
}

export function redo() {
  needPuzzle();
  const next = game.future.pop();
  if (!next) {
    say("Nothing to redo.");
    return;
  }
  game.history.push(snapshot());
  restoreStep(next);
  reopen();
  afterEdit();
}

// Undoing past the revealed solution plays on.
export function reopen() {
  if (game.revealed) {
    game.solved = false;
    game.revealed = false;
    game.result = null;
    game.since = Date.now();
  }
}

// Whether the player's ships are exactly the solution's: then the game is over.
export function complete() {
  if (game.solved || !game.solution) return;
  const cols = game.puzzle.cols;
  const same = game.cells.every((letter, i) =>
    isShip(letter) === (game.solution[Math.floor(i / cols)][i % cols] !== "."));
  if (!same) return;
  game.solved = true;
  game.elapsed = elapsed();
  game.since = null;
  // The open cells are water; trial marks that finish the board are right: they stay, normal.
  game.cells = game.cells.map((c) => (c === "?" ? "." : c));
  game.trial = new Set();
  game.trialOn = false;
  record();
  finished();
}

// The kind of puzzle best times are kept for: its size and grade.
export function kindOf() {
  return `${game.puzzle.rows}x${game.puzzle.cols} ${gradeName() || "ungraded"}`;
}

// The result of the solve just made, kept with the game: a solve without help sets the best
// time of its size and grade (kept in localStorage) when it beats it.
export function record() {
  const kind = kindOf();
  const bests = stored("best") || {};
  const before = typeof bests[kind] === "number" ? bests[kind] : null;
  const assisted = game.assisted || game.revealed;
  const newBest = !assisted && (before === null || game.elapsed < before);
  if (newBest) {
    bests[kind] = game.elapsed;
    store("best", bests);
  }
  game.result = { ms: game.elapsed, kind, assisted, best: newBest ? game.elapsed : before, newBest };
}

// The banner of a solved game, drawn from its result.
export function drawBanner() {
  const r = game.solved ? game.result : null;
  $("banner").hidden = !r;
  if (!r) return;
  const time = clock(r.ms);
  const best = r.best === null ? "" : ` Best: ${clock(r.best)}.`;
  let text;
  if (game.revealed) text = `Solution shown after ${time} — ${r.kind}, assisted: no best time.${best}`;
  else if (r.assisted) text = `Solved in ${time} — ${r.kind}, assisted (Hint, Solve or Reveal was used): no best time.${best}`;
  else if (r.newBest) text = `Solved in ${time} — ${r.kind}. Best: ${time}, a new best time!`;
  else text = `Solved in ${time} — ${r.kind}.${best}`;
  $("banner-text").textContent = text;
  const request = generateRequest();
  $("next-puzzle").textContent = `Next puzzle (${request.size}${request.grade ? " " + request.grade : ""})`;
}

export function finished() {
  const grade = game.grade ? ` Grade: ${game.grade.grade}.` : "";
  const how = game.revealed ? "Solution shown after" : "Solved in";
  const assisted = game.assisted && !game.revealed ? " Assisted: Hint, Solve or Reveal was used." : "";
  say(`${how} ${clock(game.elapsed)}.${grade}${assisted}`, { details: gradeDetails() });
  tick();
}

export function gradeDetails() {
  return game.grade ? `${gradeWords(game.grade)} (${game.grade.text})` : "";
}

export function gradeWords(g) {
  switch (g.grade) {
    case "easy": return "Easy: every cell follows from the numbers and the ships beside it.";
    case "medium": return "Medium: some cells need you to look one step ahead.";
    case "hard": return "Hard: some cells need you to try a cell and follow it a few steps.";
    case "fiendish": return "Fiendish: some cells need long chains of trying.";
    default: return `Grade: ${g.grade}.`;
  }
}
