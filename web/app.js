// The page of `bimaru-sat serve`: a Bimaru player. It draws the board as an ARIA grid of cells,
// keeps the player's cells, undo history, timer and crossed-off ships in localStorage, and asks
// the server's JSON API (docs/web.md) for puzzles, solutions, hints and grades.
// Plain JavaScript, no framework, nothing loaded from elsewhere.
"use strict";

// A cell holds one letter: "?" unknown, "." water, "s" a ship part the player placed, or a
// clue's piece "c" (submarine), "t" "b" "l" "r" (ends), "m" (middle), as the API's grids
// write them.
const PIECE_OF_CLUE = {
  water: ".", ship: "s", submarine: "c", top: "t", bottom: "b", left: "l", right: "r", middle: "m",
};
const PIECE_WORDS = {
  "?": "unknown", ".": "water", s: "ship", c: "submarine", t: "ship, top end", b: "ship, bottom end",
  l: "ship, left end", r: "ship, right end", m: "ship, middle",
};
const HISTORY_MAX = 500;
const RECENT_MAX = 12;
const STORE = "bimaru.";

const game = {
  key: null,        // the puzzle's name in localStorage (its puzz.link body when it has one)
  source: null,     // the puzzle as JSON text, sent to the API
  puzzle: null,     // that JSON, parsed
  title: "",        // "10x10 medium"
  solution: null,   // the unique solution's rows, once known
  grade: null,      // the grade answer, once known
  given: [],        // per cell: the clue's letter, or null
  cells: [],        // per cell: "?", "." or "s" (clues: their letter)
  history: [],      // earlier `cells`, for undo
  future: [],       // undone `cells`, for redo
  crossed: {},      // ships crossed off by hand: "length:index" -> true
  elapsed: 0,       // ms played before `since`
  since: null,      // when the clock last started (ms), or null when stopped
  solved: false,
  revealed: false,  // the solution was shown
  assisted: false,  // Solve or Reveal one cell was used in this game: no best time
  result: null,     // once solved: { ms, kind, assisted, best, newBest } (the banner)
  asked: null,      // the grade the puzzle was generated for, or null
  grading: null,    // the grade's request: "pending", "failed", or null
  cursor: { row: 0, col: 0 },
  hint: null,       // index of the hinted cell
  hintText: null,   // the hint in one sentence, shown in the hint box
  hintReason: null, // the hint's whole reason, under Details in the hint box
  hintCells: new Set(), // the cells the hint cites, highlighted
  hintLines: new Set(), // the counts it cites: "row-2", "col-5"
  hintMore: false,  // the hint box shows the whole reason (else at most 3 lines)
  wrong: new Set(), // cells marked wrong
  mode: "s",        // what a click places: "s" or "."
  trial: new Set(), // the cells whose marks are trial marks, to be accepted or discarded together
  trialOn: false,   // trial mode: the player's new marks are trial marks
};

const $ = (id) => document.getElementById(id);

// ---- messages ----

// Shows `text` (and, folded, the solver's `details`), or clears the message.
function say(text, { error = false, details = "", actions = [] } = {}) {
  const m = $("message");
  m.replaceChildren();
  m.classList.toggle("error", error);
  if (!text) return;
  const p = document.createElement("p");
  p.textContent = text;
  m.appendChild(p);
  for (const [label, run] of actions) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", run);
    m.appendChild(b);
  }
  if (details) {
    const d = document.createElement("details");
    const s = document.createElement("summary");
    s.textContent = "Details";
    const t = document.createElement("p");
    t.textContent = details;
    d.append(s, t);
    m.appendChild(d);
  }
}

// An API failure in a player's words; the server's message goes in the details.
class ApiFailure extends Error {
  constructor(status, answer) {
    const raw = answer && answer.error ? answer.error : String(answer || status);
    super(raw);
    this.status = status;
    this.answer = answer;
  }

  get words() {
    const kind = this.answer && this.answer.status;
    if (kind === "unsat") return "This puzzle has no solution.";
    if (kind === "multiple") return "This puzzle has more than one solution.";
    if (kind === "timeout") return "That took too long; try a smaller or easier puzzle.";
    if (this.status === 413) return "That puzzle text is far too long.";
    if (this.message.startsWith("no puzzle of grade")) return "No puzzle of that grade turned up at this size; try another grade or size.";
    if (this.status === 422) return "This board is too large for this server.";
    if (this.status === 429) return "The server is busy; try again in a moment.";
    if (this.status === 400) return "That puzzle could not be read.";
    return "Something went wrong on the server.";
  }
}

// Posts `body` to the API route. `signal` (an AbortController's) cancels the request: the
// browser closes the connection and the server stops the request's work at once (docs/web.md).
// A cancelled request rejects with an AbortError, which `action` keeps quiet.
async function api(route, body, signal) {
  let response;
  try {
    response = await fetch("/api/" + route, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (aborted(e)) throw e;
    throw new Error("Cannot reach the server. Is bimaru-sat serve still running?");
  }
  const text = await response.text();
  let value = text;
  if ((response.headers.get("Content-Type") || "").includes("json")) value = JSON.parse(text);
  if (!response.ok) throw new ApiFailure(response.status, value);
  return value;
}

const aborted = (e) => e && e.name === "AbortError";

// The requests the page may stop needing, each with its AbortController: the "New puzzle" the
// player waits for, and the background questions about the puzzle on the board (`learn`). The
// next puzzle asked for in advance is `upcoming`'s.
const pending = { generate: null, learn: null };

function cancel(name) {
  if (pending[name]) pending[name].abort();
  pending[name] = null;
}

// A new AbortController for `name`, cancelling the one before.
function controllerFor(name) {
  cancel(name);
  pending[name] = new AbortController();
  return pending[name];
}

// Runs an action, showing its failure as the message (a cancelled request says nothing).
function action(run) {
  return async (event) => {
    if (event) event.preventDefault();
    try {
      await run();
    } catch (e) {
      if (aborted(e)) return;
      if (e instanceof ApiFailure) say(e.words, { error: true, details: e.message });
      else say(e.message, { error: true });
    }
  };
}

function needPuzzle() {
  if (!game.puzzle) throw new Error("No puzzle yet: make a new one or import one.");
}

const index = (row, col) => row * game.puzzle.cols + col;
const isShip = (letter) => letter !== "?" && letter !== ".";
const clock = (ms) => {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
};

// ---- storage ----

function stored(name) {
  try {
    return JSON.parse(localStorage.getItem(STORE + name));
  } catch (e) {
    return null;
  }
}

function store(name, value) {
  try {
    localStorage.setItem(STORE + name, JSON.stringify(value));
  } catch (e) {
    // Full or refused: the game goes on unsaved.
  }
}

const elapsed = () => game.elapsed + (game.since === null ? 0 : Date.now() - game.since);

function save() {
  if (!game.puzzle) return;
  store("game." + game.key, {
    source: game.source, title: game.title, solution: game.solution, grade: game.grade,
    cells: game.cells, history: game.history, future: game.future, crossed: game.crossed,
    trial: [...game.trial], trialOn: game.trialOn,
    elapsed: elapsed(), solved: game.solved, revealed: game.revealed, asked: game.asked,
    assisted: game.assisted, result: game.result, saved: Date.now(),
  });
  store("current", game.key);
  const recent = (stored("recent") || []).filter((k) => k !== game.key);
  recent.unshift(game.key);
  for (const old of recent.splice(RECENT_MAX)) localStorage.removeItem(STORE + "game." + old);
  store("recent", recent);
  drawRecent();
}

function drawRecent() {
  const list = $("recent");
  list.replaceChildren();
  for (const key of stored("recent") || []) {
    const saved = stored("game." + key);
    if (!saved) continue;
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    const done = saved.solved ? "solved" : `${saved.cells.filter((c, i) => c !== "?").length} cells marked`;
    b.textContent = `${saved.title}: ${done}, ${clock(saved.elapsed)}`;
    if (key === game.key) b.setAttribute("aria-current", "true");
    b.addEventListener("click", action(async () => {
      save();
      resume(key, saved);
    }));
    li.appendChild(b);
    list.appendChild(li);
  }
}

// ---- starting a puzzle ----

// The puzzle's name in storage and in the address bar: its puzz.link body when it has one.
async function nameOf(source) {
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
async function begin(puzzle, known = {}) {
  const source = JSON.stringify(puzzle);
  const { key, puzzlink } = await nameOf(source);
  if (known.signal && known.signal.aborted) return;
  if (puzzlink) history.replaceState(null, "", "/?p=" + encodeURIComponent(key));
  const saved = stored("game." + key);
  if (saved && saved.source === source) {
    resume(key, saved);
    return;
  }
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

function setPuzzle(key, puzzle, title) {
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

// Reopens a stored game.
function resume(key, saved) {
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
async function learn() {
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

async function openText(text) {
  const converted = await api("convert", { puzzle: text, to: "json" });
  const puzzle = JSON.parse(converted.text);
  delete puzzle.solution;
  await begin(puzzle);
}

// The next puzzle of the chosen size, grade and fleet, asked for while the player plays, so that
// "New puzzle" shows it at once. One is kept at a time, only for the choices it was asked with:
// asking for other choices cancels it.
let upcoming = null;

// No seed: the server answers from its pool of puzzles made in advance when it holds one of these
// choices, else makes one of a random seed (named in the answer's Bimaru-Seed header).
function generateRequest() {
  const request = { size: $("size").value };
  const grade = $("grade").value;
  if (grade) request.grade = grade;
  const fleet = $("fleet-spec").value.trim();
  if (fleet) request.fleet = fleet;
  return request;
}

const choicesOf = (request) => JSON.stringify([request.size, request.grade || "", request.fleet || ""]);

function prefetch() {
  const request = generateRequest();
  const choices = choicesOf(request);
  if (upcoming && upcoming.choices === choices) return;
  if (upcoming) upcoming.controller.abort();
  const controller = new AbortController();
  // A failure is left for the request "New puzzle" then makes itself, which shows it.
  upcoming = { choices, controller, answer: api("generate", request, controller.signal).catch(() => null) };
}

// Grades that no puzzle of a size has with its own fleet: a 6x6 is never fiendish (the generator
// finds none in 200 seeds of 2,000 draws each; see docs/web.md), so the menu does not offer it.
const NO_GRADE = { "6x6": ["fiendish"] };

// Offers only the grades the chosen size has; a grade it lacks gives way to the hardest it has.
function fitGrades() {
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
function choose() {
  fitGrades();
  if (pending.generate) action(generate)();
  else prefetch();
  if (game.puzzle) drawBanner();
}

async function generate() {
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
      controller.signal.addEventListener("abort", () => taken.abort());
      upcoming = null;
      puzzle = await answer;
      if (controller.signal.aborted) return;
    } else if (upcoming) {
      upcoming.controller.abort();
      upcoming = null;
    }
    if (!puzzle) puzzle = await api("generate", request, controller.signal);
    const solution = puzzle.solution;
    delete puzzle.solution;
    await begin(puzzle, { solution, asked: grade || null, signal: controller.signal });
  } finally {
    if (pending.generate === controller) pending.generate = null;
  }
  prefetch();
}

// ---- playing ----

function clearMarks() {
  game.hint = null;
  game.hintText = null;
  game.hintReason = null;
  game.hintCells = new Set();
  game.hintLines = new Set();
  game.hintMore = false;
  game.wrong.clear();
}

// The hint box: the hint in one sentence, at most 3 lines unless "more" was pressed, and the
// whole reason under Details.
function drawHint() {
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

// One step of the undo history: the cells, and which of them hold trial marks.
const snapshot = () => ({ cells: game.cells, trial: [...game.trial] });

function restoreStep(step) {
  // A game saved before trial mode keeps bare cell arrays.
  game.cells = Array.isArray(step) ? step : step.cells;
  game.trial = new Set(Array.isArray(step) ? [] : step.trial);
}

function pushHistory() {
  game.history.push(snapshot());
  if (game.history.length > HISTORY_MAX) game.history.shift();
  game.future = [];
}

const HELD = "During a trial your normal marks stay as they are: accept or discard the trial first.";

// During a trial the normal marks stay as they are: only open cells and trial marks change, so
// that discarding the trial gives back the board as it was.
const kept = (i) => game.trialOn && game.cells[i] !== "?" && !game.trial.has(i);

// Sets cells (index -> letter) as one step of the undo history. In trial mode a mark is a trial
// mark; a normal mark set on a trial mark makes it normal.
function edit(changes) {
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
function toggleTrial() {
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
function endTrial(accept) {
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

function drawTrial() {
  const n = game.trial.size;
  $("trial").setAttribute("aria-pressed", String(game.trialOn));
  $("trial-box").hidden = !game.trialOn && !n;
  $("trial-text").textContent = `Trial${game.trialOn ? " on" : ""}: ${plural(n, "trial mark")}.`;
  $("trial-accept").disabled = !n;
  $("trial-discard").disabled = !n;
}

function afterEdit() {
  clearMarks();
  $("confirm-solve").hidden = true;
  say("");
  if (game.since === null && !game.solved) game.since = Date.now();
  complete();
  drawAll();
  save();
}

function undo() {
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

function redo() {
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
function reopen() {
  if (game.revealed) {
    game.solved = false;
    game.revealed = false;
    game.result = null;
    game.since = Date.now();
  }
}

// Whether the player's ships are exactly the solution's: then the game is over.
function complete() {
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
function kindOf() {
  return `${game.puzzle.rows}x${game.puzzle.cols} ${gradeName() || "ungraded"}`;
}

// The result of the solve just made, kept with the game: a solve without help sets the best
// time of its size and grade (kept in localStorage) when it beats it.
function record() {
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
function drawBanner() {
  const r = game.solved ? game.result : null;
  $("banner").hidden = !r;
  if (!r) return;
  const time = clock(r.ms);
  const best = r.best === null ? "" : ` Best: ${clock(r.best)}.`;
  let text;
  if (game.revealed) text = `Solution shown after ${time} — ${r.kind}, assisted: no best time.${best}`;
  else if (r.assisted) text = `Solved in ${time} — ${r.kind}, assisted (Solve or Reveal was used): no best time.${best}`;
  else if (r.newBest) text = `Solved in ${time} — ${r.kind}. Best: ${time}, a new best time!`;
  else text = `Solved in ${time} — ${r.kind}.${best}`;
  $("banner-text").textContent = text;
  const request = generateRequest();
  $("next-puzzle").textContent = `Next puzzle (${request.size}${request.grade ? " " + request.grade : ""})`;
}

function finished() {
  const grade = game.grade ? ` Grade: ${game.grade.grade}.` : "";
  const how = game.revealed ? "Solution shown after" : "Solved in";
  const assisted = game.assisted && !game.revealed ? " Assisted: Solve or Reveal was used." : "";
  say(`${how} ${clock(game.elapsed)}.${grade}${assisted}`, { details: gradeDetails() });
  tick();
}

function gradeDetails() {
  return game.grade ? `${gradeWords(game.grade)} (${game.grade.text})` : "";
}

function gradeWords(g) {
  switch (g.grade) {
    case "easy": return "Easy: every cell follows from the numbers and the ships beside it.";
    case "medium": return "Medium: some cells need you to look one step ahead.";
    case "hard": return "Hard: some cells need you to try a cell and follow it a few steps.";
    case "fiendish": return "Fiendish: some cells need long chains of trying.";
    default: return `Grade: ${g.grade}.`;
  }
}

// ---- shapes and the fleet ----

// What the board shows of a cell: `shape`, the letter it is drawn with, `join`, the sides
// ("u", "d", "l", "r") where a ship neighbour continues it, and `open`, the sides its name
// says are still open. A player's ship part claims only what the marks and clues decide, as
// pzprjs draws it: its end is round toward a side whose neighbour is water (or the edge) when
// the opposite neighbour is a ship part, it is a submarine when all four neighbours are water,
// a middle between two ship parts in a line; else it stays "s", square toward every open side.
const SIDES = [["u", -1, 0], ["d", 1, 0], ["l", 0, -1], ["r", 0, 1]];
const OPPOSITE = { u: "d", d: "u", l: "r", r: "l" };
const END_TOWARD = { u: "t", d: "b", l: "l", r: "r" };
const SIDE_WORDS = { u: "above", d: "below", l: "on the left", r: "on the right" };

function drawing(cells, i) {
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
function shipWords(open) {
  if (!open.length) return "ship";
  if (open.length === 4) return "ship, open on all sides";
  const words = open.map((side) => SIDE_WORDS[side]);
  const list = words.length === 1 ? words[0] : words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
  return "ship, open " + list;
}

// The lengths of the complete ships on the board: straight runs of ship cells closed by water
// or the edge at both ends and along both sides.
function completeShips(cells) {
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

// ---- rules shown as they break ----

const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;
const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five"];
const cellWords = (i) => `row ${Math.floor(i / game.puzzle.cols) + 1}, column ${(i % game.puzzle.cols) + 1}`;

// The rules the player's marks break, from the cells alone (no solution needed), so that they
// are shown as they break: `lines`, the counts broken ("row-2", "col-5": more ship parts than
// the count, or fewer with no open cell left); `cells`, index -> the rule the cell breaks
// (ships touching, even at a corner; a ship longer than the fleet's longest); `fleet`, length
// -> how many complete ships of that length stand beyond the fleet's; `sentences`, each break
// in words, as Check says them.
function ruleBreaks(cells) {
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
let breaksOf = { cells: null, value: null };
function breaks() {
  if (breaksOf.cells !== game.cells) breaksOf = { cells: game.cells, value: ruleBreaks(game.cells) };
  return breaksOf.value;
}

const tooMany = (n) => `${NUMBER_WORDS[n] || n} too many`;

// The fleet panel is one Tab stop: the list takes the focus, named by a summary; the arrow keys
// move the focus among its icons (out of the Tab order), Enter or space crosses one off.
function onFleetKey(event) {
  const icons = [...$("fleet-list").querySelectorAll(".ship-icon:not(:disabled)")];
  if (!icons.length) return;
  const at = icons.indexOf(document.activeElement);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  let next;
  if (step) next = at < 0 ? 0 : Math.min(icons.length - 1, Math.max(0, at + step));
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = icons.length - 1;
  else return;
  icons[next].focus();
  event.preventDefault();
}

function drawFleet() {
  const list = $("fleet-list");
  const focused = list.contains(document.activeElement) && document.activeElement !== list ? document.activeElement.id : null;
  list.replaceChildren();
  const summary = [];
  const fleet = game.puzzle.fleet || {};
  const placed = {};
  for (const n of completeShips(game.cells)) placed[n] = (placed[n] || 0) + 1;
  for (const length of Object.keys(fleet).map(Number).sort((a, b) => b - a)) {
    const count = fleet[length];
    if (!count) continue;
    const done = placed[length] || 0;
    const li = document.createElement("li");
    li.dataset.length = length;
    const label = document.createElement("span");
    label.className = "fleet-count";
    const extra = breaks().fleet[length] || 0;
    label.textContent = `${done} of ${count} placed${extra ? ": " + tooMany(extra) : ""}`;
    li.classList.toggle("over", extra > 0);
    li.dataset.placed = done;
    li.dataset.left = Math.max(0, count - done);
    for (let k = 0; k < count; k++) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "ship-icon";
      b.id = `ship-${length}-${k}`;
      b.tabIndex = -1;
      const auto = k < done;
      const crossed = auto || !!game.crossed[`${length}:${k}`];
      b.classList.toggle("crossed", crossed);
      b.setAttribute("aria-pressed", String(crossed));
      b.setAttribute("aria-label", `Ship of length ${length}${auto ? ", on the board" : crossed ? ", crossed off" : ""}`);
      b.disabled = auto;
      for (let j = 0; j < length; j++) b.appendChild(document.createElement("i"));
      b.addEventListener("click", () => {
        const key = `${length}:${k}`;
        if (game.crossed[key]) delete game.crossed[key];
        else game.crossed[key] = true;
        drawFleet();
        save();
      });
      li.appendChild(b);
    }
    li.appendChild(label);
    list.appendChild(li);
    summary.push(`${count === 1 ? "one ship" : count + " ships"} of length ${length}, ${done} placed${extra ? ", " + tooMany(extra) : ""}`);
  }
  list.setAttribute("aria-label", `Fleet: ${summary.join("; ")}. Arrow keys pick a ship, Enter crosses it off.`);
  if (focused && $(focused)) $(focused).focus();
}

// ---- the board ----

// "met" when a line holds as many ship parts as its count, "over" when more, "short" when no cell
// is left open and it holds fewer.
function lineState(cells, count) {
  if (count === null || count === undefined) return "";
  const ships = cells.filter(isShip).length;
  if (ships > count) return "over";
  if (ships === count) return "met";
  return cells.includes("?") ? "" : "short";
}

// Whether cell `i` shows a trial mark: one of the trial, or one a stroke under way paints in
// trial mode.
function trialMark(i) {
  if (game.trial.has(i)) return true;
  return game.trialOn && stroke.letter !== null && stroke.letter !== "?" && stroke.cells.has(i);
}

function cellName(i) {
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
function buildBoard(root, cells, play) {
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

function drawBoard() {
  const board = $("board");
  buildBoard(board, game.cells, true);
  board.setAttribute("aria-activedescendant", `cell-${game.cursor.row}-${game.cursor.col}`);
  fit();
  drawHint();
}

function drawAll() {
  drawBoard();
  drawTrial();
  drawFleet();
  drawInfo();
  drawBanner();
  tick();
}

// The puzzle's size and grade, shown with it.
function gradeName() {
  return game.grade ? game.grade.grade : game.asked;
}

function drawInfo() {
  if (!game.puzzle) return;
  const { rows, cols } = game.puzzle;
  const name = gradeName();
  const grade = name ? `grade: ${name}` : game.grading === "pending" ? "grading…" : game.grading === "failed" ? "grade not known" : "";
  $("puzzle-info").textContent = `${rows}x${cols} puzzle${grade ? ", " + grade : ""}`;
}

// The cell size that fits the board in the window.
function fit() {
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

function tick() {
  $("timer").textContent = clock(elapsed());
  $("timer").classList.toggle("stopped", game.since === null);
}

// ---- the engine's answers ----

async function solution() {
  if (game.solution) return game.solution;
  const answer = await api("unique", { puzzle: game.source });
  if (answer.status !== "unique") {
    throw new Error("This puzzle has more than one solution, so cells cannot be checked against one.");
  }
  game.solution = answer.grid;
  return game.solution;
}

// The cells that disagree with the solution.
async function mistakes() {
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
function markMistakes(wrong, broken = []) {
  game.wrong = new Set(wrong);
  drawBoard();
  const crosses = wrong.length ? [`${plural(wrong.length, "wrong cell")}, marked with a red cross.`] : [];
  say([...broken, ...crosses].join(" "), { error: true });
}

async function check() {
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

async function hint() {
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
  game.hint = answer.row * cols + answer.col;
  game.cursor = { row: answer.row, col: answer.col };
  game.hintCells = new Set((answer.cells || []).map(([r, c]) => r * cols + c));
  game.hintLines = new Set([...(answer.rows || []).map((r) => `row-${r}`), ...(answer.cols || []).map((c) => `col-${c}`)]);
  game.hintText = hintSentence(answer);
  game.hintReason = `${answer.text} Found by ${answer.method}.`;
  say(`Hint: the highlighted cell is ${answer.content === "water" ? "water" : "part of a ship"}.`);
  drawBoard();
}

// The hint in one sentence: the cell, what it holds and the one rule that decides it (a count
// of its own row or column first, then no-touch, the other counts, the fleet, the ship shape,
// the rest, clues and filled cells last). The cells and counts it cites are highlighted.
function hintSentence(answer) {
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

function askSolve() {
  needPuzzle();
  if (game.solved) return;
  $("confirm-solve").hidden = false;
  $("reveal-one").focus();
}

async function solve() {
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
async function revealOne() {
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

async function unique() {
  needPuzzle();
  const answer = await api("unique", { puzzle: game.source });
  if (answer.status === "unique") {
    game.solution = answer.grid;
    $("second-box").hidden = true;
    say("This puzzle has exactly one solution.");
    return;
  }
  const cols = game.puzzle.cols;
  const second = answer.grids[1];
  buildBoard($("second"), game.cells.map((_, i) => second[Math.floor(i / cols)][i % cols]), false);
  $("second-box").hidden = false;
  say("This puzzle has more than one solution: a second one is drawn below.", { error: true });
}

async function grade() {
  needPuzzle();
  const answer = game.grade || (await api("grade", { puzzle: game.source }));
  game.grade = answer;
  save();
  say(gradeWords(answer), { details: answer.text });
}

async function share() {
  needPuzzle();
  const answer = await api("convert", { puzzle: game.source, to: "puzzlink" });
  const url = answer.text.trim();
  $("share-url").value = url;
  const body = url.slice(url.indexOf("?") + 1);
  const link = $("share-link");
  link.href = "/?p=" + encodeURIComponent(body);
  link.textContent = location.origin + "/?p=" + body;
  $("share-box").hidden = false;
  say("Share the puzz.link URL, or the link that reopens this page on the puzzle.");
}

async function download() {
  needPuzzle();
  const svg = await api("render", { puzzle: game.source, solution: game.solved });
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = "bimaru.svg";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ---- input ----

function setMode(letter) {
  game.mode = letter;
  $("mode-ship").setAttribute("aria-pressed", String(letter === "s"));
  $("mode-water").setAttribute("aria-pressed", String(letter === "."));
}

function announce() {
  $("announce").textContent = cellName(index(game.cursor.row, game.cursor.col));
}

// Marks the cursor's cell with `letter`, or clears it when it already holds it.
function toggleAt(letter) {
  const i = index(game.cursor.row, game.cursor.col);
  edit([[i, game.cells[i] === letter ? "?" : letter]]);
  announce();
}

function onKey(event) {
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
function onShortcut(event) {
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
const stroke = { letter: null, cells: new Map(), before: null, held: false };

function cellAt(x, y) {
  const target = document.elementFromPoint(x, y);
  const cell = target && target.closest("#board .cell");
  return cell ? [Number(cell.dataset.row), Number(cell.dataset.col)] : null;
}

function paint(row, col) {
  const i = index(row, col);
  if (kept(i) && !game.given[i]) stroke.held = true;
  if (game.given[i] || stroke.cells.has(i) || kept(i)) return;
  stroke.cells.set(i, stroke.letter);
  const cells = stroke.before.slice();
  for (const [j, letter] of stroke.cells) cells[j] = letter;
  game.cells = cells;
  drawBoard();
}

function onPointerDown(event) {
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

function onPointerMove(event) {
  if (stroke.letter === null) return;
  const at = cellAt(event.clientX, event.clientY);
  if (at) paint(...at);
}

function onPointerUp() {
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

// ---- wiring ----

document.addEventListener("DOMContentLoaded", () => {
  const on = (id, run) => $(id).addEventListener("click", action(run));
  on("open-text", () => openText($("input").value));
  $("file").addEventListener("change", action(async () => {
    const file = $("file").files[0];
    if (!file) return;
    const text = await file.text();
    $("input").value = text;
    await openText(text);
  }));
  on("generate", generate);
  on("next-puzzle", generate);
  for (const id of ["size", "grade", "fleet-spec"]) $(id).addEventListener("change", choose);
  on("undo", undo);
  on("redo", redo);
  on("check", check);
  on("hint", hint);
  on("solve", askSolve);
  on("solve-yes", solve);
  on("reveal-one", revealOne);
  on("solve-no", () => {
    $("confirm-solve").hidden = true;
  });
  on("unique", unique);
  on("grade-button", grade);
  on("share", share);
  on("download", download);
  on("hint-more", () => {
    game.hintMore = !game.hintMore;
    drawHint();
  });
  on("mode-ship", () => setMode("s"));
  on("mode-water", () => setMode("."));
  on("trial", toggleTrial);
  on("trial-accept", () => endTrial(true));
  on("trial-discard", () => endTrial(false));
  const board = $("board");
  board.addEventListener("keydown", onKey);
  document.addEventListener("keydown", onShortcut);
  $("fleet-list").addEventListener("keydown", onFleetKey);
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", onPointerUp);
  board.addEventListener("contextmenu", (e) => e.preventDefault());
  board.addEventListener("focus", () => game.puzzle && announce());
  window.addEventListener("resize", () => {
    fit();
    drawHint();
  });
  window.addEventListener("pagehide", () => {
    // Leaving: nothing asked for is needed any more.
    save();
    cancel("generate");
    cancel("learn");
    if (upcoming) upcoming.controller.abort();
    upcoming = null;
  });
  window.addEventListener("pageshow", (e) => {
    if (e.persisted && game.puzzle) prefetch();
  });
  document.addEventListener("visibilitychange", save);
  setInterval(() => {
    if (game.since !== null) tick();
  }, 1000);
  const prefs = stored("prefs");
  if (prefs) {
    $("size").value = prefs.size || "10x10";
    $("grade").value = prefs.grade || "";
  }
  fitGrades();
  drawRecent();
  const p = new URLSearchParams(location.search).get("p");
  const current = stored("current");
  const saved = current && stored("game." + current);
  action(async () => {
    if (p) {
      $("input").value = p;
      await openText(p);
    } else if (saved) {
      resume(current, saved);
    } else {
      await generate();
    }
    prefetch();
  })();
});
