// Starting a puzzle on the page: naming it, opening it (or the stored game of it), learning its
// solution and grade in the background, and New puzzle with the next one asked for in advance.

import { aborted, api, controllerFor, pending } from "./api.js";
import { drawAll, drawInfo } from "./board.js";
import { $, PIECE_OF_CLUE, game } from "./game.js";
import { save, store, stored } from "./keep.js";
import { action, say } from "./message.js";
import { clearMarks, complete, drawBanner, finished } from "./play.js";

// The puzzle's name in storage and in the address bar: its puzz.link body when it has one.
export async function nameOf(source) {
  try {
    const answer = await api("convert", { puzzle: source, to: "puzzlink" });
    const url = answer.text.trim();
    return { key: url.slice(url.indexOf("?") + 1), puzzlink: url };
  } catch (e) {
    let h = 0;
    for (const ch of source) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
    return { key: "json-" + (h >>> 0).toString(36), puzzlink: null };
  }
}

// Opens `puzzle` (parsed JSON without its solution); `known` may carry its solution and grade.
// `known.asked` is the grade it was generated for; `known.signal` a request that, once
// cancelled, means the player no longer wants it.
export async function begin(puzzle, known = {}) {
  const source = JSON.stringify(puzzle);
  const { key, puzzlink } = await nameOf(source);
  if (known.signal && known.signal.aborted) return;
  if (puzzlink) history.replaceState(null, "", "/?p=" + encodeURIComponent(key));
  const saved = stored("game." + key);
  if (saved && saved.source === source) {
    resume(key, saved);
    return;
  }
  markSeen(key);
  setPuzzle(key, puzzle, `${puzzle.rows}x${puzzle.cols}${known.asked ? " " + known.asked : ""}`);
  game.solution = known.solution || null;
  game.grade = known.grade || null;
  game.asked = known.asked || null;
  game.since = Date.now();
  say(`New ${game.title} puzzle. Place the fleet.`);
  drawAll();
  save();
  learn();
}

export function setPuzzle(key, puzzle, title) {
  game.key = key;
  game.puzzle = puzzle;
  game.source = JSON.stringify(puzzle);
  game.title = title;
  const n = puzzle.rows * puzzle.cols;
  game.given = new Array(n).fill(null);
  for (const clue of puzzle.clues) game.given[clue.row * puzzle.cols + clue.col] = PIECE_OF_CLUE[clue.piece];
  game.cells = game.given.map((g) => g || "?");
  game.history = [];
  game.future = [];
  game.crossed = {};
  game.trial = new Set();
  game.trialOn = false;
  game.elapsed = 0;
  game.since = null;
  game.solved = false;
  game.revealed = false;
  game.assisted = false;
  game.result = null;
  game.asked = null;
  game.grading = null;
  game.cursor = { row: 0, col: 0 };
  clearMarks();
  $("share-box").hidden = true;
  $("second-box").hidden = true;
  $("confirm-solve").hidden = true;
}

// The names of the puzzles opened on this page, newest last, so that New puzzle never reopens
// one (the recent list keeps only the last games).
const SEEN_MAX = 2000;
const seen = () => stored("seen") || [];
function markSeen(key) {
  store("seen", [...seen().filter((k) => k !== key), key].slice(-SEEN_MAX));
}

const MAKING_FRESH = "Every ready puzzle of this kind has been played: making a fresh one…";

// A puzzle from `request` not opened here before: `puzzle`, or, when that was (the pool's ready
// puzzles and its stock of a kind come round again), a fresh one made from a random seed.
// `making` is called as one is asked for.
async function unseen(puzzle, request, signal, making = () => {}) {
  for (let tries = 0; tries < 5; tries++) {
    const { solution: _, ...rest } = puzzle;
    const { key } = await nameOf(JSON.stringify(rest));
    if (!seen().includes(key) && !stored("game." + key)) break;
    making();
    puzzle = await api("generate", { ...request, seed: Math.floor(Math.random() * 2 ** 31) }, signal);
  }
  return puzzle;
}

// Reopens a stored game.
export function resume(key, saved) {
  markSeen(key);
  setPuzzle(key, JSON.parse(saved.source), saved.title);
  Object.assign(game, {
    solution: saved.solution, grade: saved.grade, cells: saved.cells, history: saved.history || [],
    future: saved.future || [], crossed: saved.crossed || {}, elapsed: saved.elapsed || 0,
    solved: !!saved.solved, revealed: !!saved.revealed, asked: saved.asked || null,
    assisted: !!saved.assisted, result: saved.result || null,
    trial: new Set(saved.trial || []), trialOn: !!saved.trialOn,
  });
  game.since = game.solved ? null : Date.now();
  nameOf(game.source).then(({ puzzlink }) => {
    if (puzzlink && game.key === key) history.replaceState(null, "", "/?p=" + encodeURIComponent(key));
  });
  if (game.solved) finished();
  else say(`${game.title} puzzle, as you left it.`);
  drawAll();
  save();
  learn();
}

// Asks the server, in the background, for what the page needs to know: the solution (to
// notice completion) and the grade.
// A new puzzle cancels the questions about the one before.
export async function learn() {
  const key = game.key;
  const { signal } = controllerFor("learn");
  try {
    if (!game.solution) {
      const answer = await api("unique", { puzzle: game.source }, signal);
      if (game.key !== key) return;
      if (answer.status === "unique") game.solution = answer.grid;
      else say("This puzzle has more than one solution, so it cannot tell you when you are done.", { error: true });
    }
    if (!game.grade && game.solution) {
      game.grading = "pending";
      drawInfo();
      const grade = await api("grade", { puzzle: game.source }, signal);
      if (game.key !== key) return;
      game.grade = grade;
      game.grading = null;
      game.title = `${game.puzzle.rows}x${game.puzzle.cols} ${grade.grade}`;
    }
    save();
    complete();
    drawAll();
  } catch (e) {
    // The page plays on without them.
    if (game.key === key && !aborted(e)) {
      game.grading = game.grading && "failed";
      drawInfo();
    }
  } finally {
    if (pending.learn && pending.learn.signal === signal) pending.learn = null;
  }
}

export async function openText(text) {
  const converted = await api("convert", { puzzle: text, to: "json" });
  const puzzle = JSON.parse(converted.text);
  delete puzzle.solution;
  await begin(puzzle);
}

// The next puzzle of the chosen size, grade and fleet, asked for while the player plays, so that
// "New puzzle" shows it at once. One is kept at a time, only for the choices it was asked with:
// asking for other choices cancels it.
export let upcoming = null;

// No seed: the server answers from its pool of puzzles made in advance when it holds one of these
// choices, else makes one of a random seed (named in the answer's Bimaru-Seed header).
export function generateRequest() {
  const request = { size: $("size").value };
  const grade = $("grade").value;
  if (grade) request.grade = grade;
  const fleet = $("fleet-spec").value.trim();
  if (fleet) request.fleet = fleet;
  return request;
}

export const choicesOf = (request) => JSON.stringify([request.size, request.grade || "", request.fleet || ""]);

// Leaving the page: the puzzle asked for in advance is no longer needed.
export function dropUpcoming() {
  if (upcoming) upcoming.controller.abort();
  upcoming = null;
}

export function prefetch() {
  const request = generateRequest();
  const choices = choicesOf(request);
  if (upcoming && upcoming.choices === choices) return;
  if (upcoming) upcoming.controller.abort();
  const controller = new AbortController();
  // `making`: a fresh one is being made; `taken`: New puzzle waits for it.
  const next = { choices, controller, making: false, taken: false };
  const answer = api("generate", request, controller.signal).then((p) => unseen(p, request, controller.signal, () => {
    next.making = true;
    if (next.taken) say(MAKING_FRESH);
  }));
  // A failure is left for the request "New puzzle" then makes itself, which shows it.
  next.answer = answer.catch(() => null).finally(() => {
    next.making = false;
  });
  upcoming = next;
}

// Grades that no puzzle of a size has with its own fleet: a 6x6 is never fiendish (the generator
// finds none in 200 seeds of 2,000 draws each; see docs/web.md), so the menu does not offer it.
export const NO_GRADE = { "6x6": ["fiendish"] };

// Offers only the grades the chosen size has; a grade it lacks gives way to the hardest it has.
export function fitGrades() {
  const none = $("fleet-spec").value.trim() ? [] : NO_GRADE[$("size").value] || [];
  const menu = $("grade");
  for (const option of menu.options) {
    const lacking = none.includes(option.value);
    option.disabled = lacking;
    option.textContent = option.value && lacking ? `${option.value} (none at this size)` : option.value || "any";
  }
  if (menu.selectedOptions[0] && menu.selectedOptions[0].disabled) {
    const offered = [...menu.options].filter((o) => !o.disabled);
    say(`No ${$("size").value} puzzle is ${menu.value}; ${offered[offered.length - 1].value} is the hardest.`);
    menu.value = offered[offered.length - 1].value;
  }
}

// A new Size, Grade or fleet: the puzzle asked for in advance is cancelled and asked for again;
// a "New puzzle" the player is waiting for is made again with the new choices.
export function choose() {
  fitGrades();
  if (pending.generate) action(generate)();
  else prefetch();
  if (game.puzzle) drawBanner();
}

export async function generate() {
  const controller = controllerFor("generate");
  const request = generateRequest();
  const { size, grade = "" } = request;
  store("prefs", { size, grade });
  say("Making a new puzzle…");
  try {
    let puzzle = null;
    const choices = choicesOf(request);
    if (upcoming && upcoming.choices === choices) {
      // Taken: from now on a change of the choices cancels it as the player's own request.
      const { answer } = upcoming;
      const taken = upcoming.controller;
      upcoming.taken = true;
      if (upcoming.making) say(MAKING_FRESH);
      controller.signal.addEventListener("abort", () => taken.abort());
      upcoming = null;
      puzzle = await answer;
      if (controller.signal.aborted) return;
    } else if (upcoming) {
      upcoming.controller.abort();
      upcoming = null;
    }
    if (!puzzle) puzzle = await api("generate", request, controller.signal);
    puzzle = await unseen(puzzle, request, controller.signal, () => say(MAKING_FRESH));
    const solution = puzzle.solution;
    delete puzzle.solution;
    await begin(puzzle, { solution, asked: grade || null, signal: controller.signal });
  } finally {
    if (pending.generate === controller) pending.generate = null;
  }
  prefetch();
}
