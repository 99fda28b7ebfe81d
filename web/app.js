// The page of `bimaru-sat serve`: draws the board as src/render.rs does, keeps the player's
// cells, and asks the server's JSON API (docs/web.md) for everything that needs the engine.
// Plain JavaScript, no framework, nothing loaded from elsewhere.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 32; // as render.rs
const PAD = 8;
const INSET = 4;

// A cell holds one letter: "?" unknown, "." water, "s" a ship part of unknown kind, or a
// piece "c" (submarine), "t" "b" "l" "r" (ends), "m" (middle), as the API's grids write them.
const PIECE_OF_CLUE = {
  water: ".", ship: "s", submarine: "c", top: "t", bottom: "b", left: "l", right: "r", middle: "m",
};

const game = {
  source: null,     // the puzzle as JSON text, sent to the API
  puzzle: null,     // that JSON, parsed
  given: [],        // per cell: the clue's letter, or null
  cells: [],        // per cell: the letter shown
  history: [],      // earlier `cells`, for undo
  cursor: { row: 0, col: 0 },
  hint: null,       // { row, col } of the hint shown
  wrong: new Set(), // cells Check found wrong
  solution: null,   // the unique solution's rows, once known
  solved: false,    // whether the solution is drawn
};

const $ = (id) => document.getElementById(id);

function say(text, isError = false) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("error", isError);
}

async function api(route, body) {
  const response = await fetch("/api/" + route, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let value = text;
  if ((response.headers.get("Content-Type") || "").includes("json")) {
    value = JSON.parse(text);
  }
  if (!response.ok) {
    const message = value && value.error ? value.error : response.status + " " + text;
    const error = new Error(message);
    error.answer = value;
    throw error;
  }
  return value;
}

// Runs an action, showing its failure as the message.
function action(run) {
  return async (event) => {
    if (event) event.preventDefault();
    try {
      await run();
    } catch (e) {
      say(e.message, true);
    }
  };
}

function needPuzzle() {
  if (!game.puzzle) throw new Error("No puzzle yet: paste one, open a file or make a new one.");
}

const index = (row, col) => row * game.puzzle.cols + col;

// ---- loading ----

async function load(text) {
  const converted = await api("convert", { puzzle: text, to: "json" });
  const puzzle = JSON.parse(converted.text);
  delete puzzle.solution; // never shown: Check and Solve ask the server
  start(puzzle);
  say(`${puzzle.rows}x${puzzle.cols} puzzle (${converted.from}), ${puzzle.clues.length} clues.`);
}

function start(puzzle) {
  game.puzzle = puzzle;
  game.source = JSON.stringify(puzzle);
  const n = puzzle.rows * puzzle.cols;
  game.given = new Array(n).fill(null);
  for (const clue of puzzle.clues) {
    game.given[clue.row * puzzle.cols + clue.col] = PIECE_OF_CLUE[clue.piece];
  }
  game.cells = game.given.map((g) => g || "?");
  game.history = [];
  game.cursor = { row: 0, col: 0 };
  game.solution = null;
  clearMarks();
  $("share-box").hidden = true;
  $("second-box").hidden = true;
  draw();
}

function clearMarks() {
  game.hint = null;
  game.wrong.clear();
  game.solved = false;
  $("hint-text").hidden = true;
}

// ---- playing ----

const NEXT = { "?": ".", ".": "s" }; // anything else (a ship part) goes back to unknown

function setCell(row, col, letter) {
  const i = index(row, col);
  if (game.given[i] || game.cells[i] === letter) {
    draw();
    return;
  }
  game.history.push(game.cells.slice());
  game.cells[i] = letter;
  clearMarks();
  draw();
}

function cycle(row, col) {
  setCell(row, col, NEXT[game.cells[index(row, col)]] || "?");
}

function undo() {
  needPuzzle();
  const previous = game.history.pop();
  if (!previous) {
    say("Nothing to undo.");
    return;
  }
  game.cells = previous;
  clearMarks();
  draw();
}

const isShip = (letter) => letter !== "?" && letter !== ".";

// "met" when a line holds as many ship parts as its count, "over" when more, or when no cell
// is left open and it holds fewer.
function lineState(cells, count) {
  if (count === null || count === undefined) return "";
  const ships = cells.filter(isShip).length;
  if (ships > count) return "over";
  if (ships === count) return "met";
  return cells.includes("?") ? "" : "over";
}

// The player's cells as the state `hint` reads.
function stateText() {
  const { rows, cols } = game.puzzle;
  let text = "";
  for (let r = 0; r < rows; r++) {
    text += game.cells.slice(r * cols, (r + 1) * cols).join("") + "\n";
  }
  return text;
}

// ---- drawing (as src/render.rs) ----

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// One cell's content at (x, y), dark for a clue.
function drawPiece(svg, letter, x, y, given) {
  const ship = given ? "#1f3a5f" : "#6d8fb8";
  const cx = x + CELL / 2, cy = y + CELL / 2, r = CELL / 2 - INSET;
  if (letter === ".") {
    el("rect", { x, y, width: CELL, height: CELL, fill: given ? "#9cc9ee" : "#e3f1fc" }, svg);
    const c = CELL - 12, q = c / 4, h = c / 2;
    el("path", {
      d: `M ${x + 6} ${cy} q ${q} -5 ${h} 0 t ${h} 0`, fill: "none",
      stroke: given ? "#1f3a5f" : "#9cc9ee", "stroke-width": 2,
    }, svg);
  } else if (letter === "c") {
    el("circle", { cx, cy, r, fill: ship }, svg);
  } else if (letter === "m") {
    el("rect", { x: x + INSET, y: y + INSET, width: CELL - 2 * INSET, height: CELL - 2 * INSET, fill: ship }, svg);
  } else if ("lrtb".includes(letter)) {
    const angle = { l: 0, t: 90, r: 180, b: 270 }[letter];
    const a = x + INSET + r, top = y + INSET, bottom = y + CELL - INSET, right = x + CELL - INSET;
    el("path", {
      d: `M ${a} ${top} H ${right} V ${bottom} H ${a} A ${r} ${r} 0 0 1 ${a} ${top} Z`,
      transform: `rotate(${angle} ${cx} ${cy})`, fill: ship,
    }, svg);
  } else if (letter === "s") {
    const w = given ? CELL / 2 : CELL - 2 * INSET;
    const off = (CELL - w) / 2;
    el("rect", { x: x + off, y: y + off, width: w, height: w, rx: 3, ry: 3, fill: ship }, svg);
  }
}

// Draws a board of `cells` into `svg`; `play` adds the counts' colours, marks and cursor.
function drawBoard(svg, cells, play) {
  const { rows, cols } = game.puzzle;
  const width = PAD + cols * CELL + CELL + PAD, height = PAD + rows * CELL + CELL + PAD;
  svg.replaceChildren();
  for (const [k, v] of Object.entries({ width, height, viewBox: `0 0 ${width} ${height}` })) {
    svg.setAttribute(k, v);
  }
  el("rect", { x: 0, y: 0, width, height, fill: "white" }, svg);
  const corner = (row, col) => [PAD + col * CELL, PAD + row * CELL];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const [x, y] = corner(r, c);
      const i = r * cols + c;
      drawPiece(svg, cells[i], x, y, game.given[i] !== null);
    }
  }
  const grid = el("g", { stroke: "#9aa5b1", "stroke-width": 1 }, svg);
  for (let r = 0; r <= rows; r++) {
    el("line", { x1: PAD, y1: PAD + r * CELL, x2: PAD + cols * CELL, y2: PAD + r * CELL }, grid);
  }
  for (let c = 0; c <= cols; c++) {
    el("line", { x1: PAD + c * CELL, y1: PAD, x2: PAD + c * CELL, y2: PAD + rows * CELL }, grid);
  }
  el("rect", {
    x: PAD, y: PAD, width: cols * CELL, height: rows * CELL, fill: "none", stroke: "#2b3440", "stroke-width": 2,
  }, svg);
  const line = (r0, c0, dr, dc, n) => Array.from({ length: n }, (_, k) => cells[(r0 + dr * k) * cols + c0 + dc * k]);
  const count = (text, x, y, state, attrs) => {
    const t = el("text", { x, y, class: ("count " + (play ? state : "")).trim(), ...attrs }, svg);
    t.textContent = text;
  };
  game.puzzle.row_counts.forEach((k, r) => {
    if (k === null) return;
    count(k, PAD + cols * CELL + CELL / 2, PAD + r * CELL + CELL / 2, lineState(line(r, 0, 0, 1, cols), k), { "data-row": r });
  });
  game.puzzle.col_counts.forEach((k, c) => {
    if (k === null) return;
    count(k, PAD + c * CELL + CELL / 2, PAD + rows * CELL + CELL / 2, lineState(line(0, c, 1, 0, rows), k), { "data-col": c });
  });
  if (!play) return;
  for (const i of game.wrong) {
    const [x, y] = corner(Math.floor(i / cols), i % cols);
    el("path", { d: `M ${x + 6} ${y + 6} L ${x + CELL - 6} ${y + CELL - 6} M ${x + CELL - 6} ${y + 6} L ${x + 6} ${y + CELL - 6}`, class: "wrong" }, svg);
  }
  if (game.hint) {
    const [x, y] = corner(game.hint.row, game.hint.col);
    el("rect", { id: "hint-mark", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, "data-row": game.hint.row, "data-col": game.hint.col }, svg);
  }
  // Transparent squares on top take the clicks and carry the state, for people and tests.
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const [x, y] = corner(r, c);
      el("rect", { x, y, width: CELL, height: CELL, class: "cell", "data-row": r, "data-col": c, "data-state": cells[r * cols + c] }, svg);
    }
  }
  const [x, y] = corner(game.cursor.row, game.cursor.col);
  el("rect", { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, class: "cursor" }, svg);
}

function draw() {
  drawBoard($("board"), game.cells, true);
}

// ---- the engine's answers ----

async function solution() {
  if (game.solution) return game.solution;
  const answer = await api("unique", { puzzle: game.source });
  if (answer.status !== "unique") {
    throw new Error("The puzzle has several solutions, so cells cannot be checked against one (Is it unique? draws a second).");
  }
  game.solution = answer.grid;
  return game.solution;
}

async function check() {
  needPuzzle();
  const rows = await solution();
  game.wrong.clear();
  let open = 0;
  game.cells.forEach((letter, i) => {
    const truth = rows[Math.floor(i / game.puzzle.cols)][i % game.puzzle.cols];
    if (letter === "?") open++;
    else if (isShip(letter) !== (truth !== ".")) game.wrong.add(i);
  });
  draw();
  const wrong = game.wrong.size;
  if (wrong > 0) say(`${wrong} wrong cell${wrong === 1 ? "" : "s"}, marked.`, true);
  else if (open > 0) say(`No mistakes so far; ${open} cell${open === 1 ? "" : "s"} to go.`);
  else say("Solved! Every cell is right.");
}

async function hint() {
  needPuzzle();
  const answer = await api("hint", { puzzle: game.source, state: stateText() });
  clearMarks();
  if (answer.status === "complete") {
    say("No open cell left.");
    draw();
    return;
  }
  game.hint = { row: answer.row, col: answer.col };
  game.cursor = { row: answer.row, col: answer.col };
  const text = $("hint-text");
  // Cells are named (row, column), counted from 0 at the top left.
  text.textContent = answer.text;
  text.hidden = false;
  say(`Hint: the highlighted cell is ${answer.content === "water" ? "water" : "a ship part"}.`);
  draw();
}

async function solve() {
  needPuzzle();
  const answer = await api("solve", { puzzle: game.source });
  game.history.push(game.cells.slice());
  const cols = game.puzzle.cols;
  game.cells = game.cells.map((_, i) => answer.grid[Math.floor(i / cols)][i % cols]);
  clearMarks();
  game.solved = true;
  draw();
  say("Solved.");
}

async function unique() {
  needPuzzle();
  const answer = await api("unique", { puzzle: game.source });
  if (answer.status === "unique") {
    game.solution = answer.grid;
    $("second-box").hidden = true;
    say("The solution is unique.");
    return;
  }
  const cols = game.puzzle.cols;
  const second = answer.grids[1];
  drawBoard($("second"), game.cells.map((_, i) => second[Math.floor(i / cols)][i % cols]), false);
  $("second-box").hidden = false;
  say("Not unique: a second solution is drawn below the board.", true);
}

async function grade() {
  needPuzzle();
  const answer = await api("grade", { puzzle: game.source });
  say(`Grade: ${answer.text}`);
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
  history.replaceState(null, "", "/?p=" + encodeURIComponent(body));
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

async function generate() {
  const request = { size: $("size").value.trim() || "10x10", seed: Math.floor(Math.random() * 2 ** 31) };
  if ($("fleet").value.trim()) request.fleet = $("fleet").value.trim();
  if ($("grade").value) request.grade = $("grade").value;
  say("Generating…");
  const puzzle = await api("generate", request);
  const rows = puzzle.solution;
  delete puzzle.solution;
  start(puzzle);
  game.solution = rows; // unique by construction
  $("input").value = game.source;
  say(`New ${puzzle.rows}x${puzzle.cols} puzzle, ${puzzle.clues.length} clues.`);
}

// ---- wiring ----

function onKey(event) {
  if (!game.puzzle) return;
  const { rows, cols } = game.puzzle;
  const cur = game.cursor;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const key = event.key;
  if (moves[key]) {
    cur.row = Math.min(rows - 1, Math.max(0, cur.row + moves[key][0]));
    cur.col = Math.min(cols - 1, Math.max(0, cur.col + moves[key][1]));
    draw();
  } else if (key === " " || key === "Enter") {
    cycle(cur.row, cur.col);
  } else if (key === "w" || key === ".") {
    setCell(cur.row, cur.col, ".");
  } else if (key === "s") {
    setCell(cur.row, cur.col, "s");
  } else if (key === "Backspace" || key === "Delete" || key === "?") {
    setCell(cur.row, cur.col, "?");
  } else if (key === "u" || ((event.ctrlKey || event.metaKey) && key === "z")) {
    undo();
  } else {
    return;
  }
  event.preventDefault();
}

document.addEventListener("DOMContentLoaded", () => {
  $("open-text").addEventListener("click", action(() => load($("input").value)));
  $("file").addEventListener("change", action(async () => {
    const file = $("file").files[0];
    if (!file) return;
    const text = await file.text();
    $("input").value = text;
    await load(text);
  }));
  $("generate").addEventListener("click", action(generate));
  $("undo").addEventListener("click", action(undo));
  $("check").addEventListener("click", action(check));
  $("hint").addEventListener("click", action(hint));
  $("solve").addEventListener("click", action(solve));
  $("unique").addEventListener("click", action(unique));
  $("grade-button").addEventListener("click", action(grade));
  $("share").addEventListener("click", action(share));
  $("download").addEventListener("click", action(download));
  const wrap = $("board-wrap");
  wrap.addEventListener("keydown", onKey);
  $("board").addEventListener("click", (event) => {
    const cell = event.target.closest(".cell");
    if (!cell) return;
    const row = Number(cell.dataset.row), col = Number(cell.dataset.col);
    game.cursor = { row, col };
    cycle(row, col);
    wrap.focus();
  });
  const p = new URLSearchParams(location.search).get("p");
  if (p) {
    $("input").value = p;
    action(() => load(p))();
  }
});
