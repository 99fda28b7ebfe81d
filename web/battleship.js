// The Battleship page of `bimaru-sat serve`: the player against the computer, whose shots come
// from POST /api/advise at the chosen level (docs/web.md, docs/advisor.md). The whole game is
// one model, saved in localStorage after every change; everything on the screen (cells, their
// names, messages, score, the coach's heat map) is derived from it.
// Plain JavaScript, no framework, nothing loaded from elsewhere.
"use strict";

const SIZE = 10;
const SHIPS = [
  { letter: "A", name: "carrier", len: 5 },
  { letter: "B", name: "battleship", len: 4 },
  { letter: "D", name: "destroyer", len: 3 },
  { letter: "S", name: "submarine", len: 3 },
  { letter: "P", name: "PT boat", len: 2 },
];
const KEY = "bimaru.battleship";
const $ = (id) => document.getElementById(id);
const shipOf = (letter) => SHIPS.find((s) => s.letter === letter);
const squareName = (i) => "ABCDEFGHIJ"[i % SIZE] + (Math.floor(i / SIZE) + 1);
const rowCol = (i) => ({ row: Math.floor(i / SIZE), col: i % SIZE });

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
function randomFleet() {
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

// The levels the menu offers (its options are the only list of them), and a level's name.
const levels = () => Array.from($("level").options, (o) => o.value);
const levelName = (level) => {
  const option = Array.from($("level").options).find((o) => o.value === level);
  return option ? option.textContent.split(" (")[0] : level;
};

// The model: the only state of the page.
function fresh(level, coach) {
  return {
    version: 1,
    phase: "placing",            // "placing", then "playing"; over when a fleet is sunk
    level: levels().includes(level) ? level : "tuned", // the computer's strategy (/api/advise's `strategy`)
    next: null,                  // a level chosen during the battle, for the next game
    seed: Math.floor(Math.random() * 2 ** 31), // varies the random levels' shots from game to game
    coach: !!coach,              // the heat map of the player's next shot
    mine: randomFleet(),         // the player's ships: [{letter, cells}]
    theirs: randomFleet(),       // the computer's ships, hidden until sunk
    myShots: [],                 // squares the player shot, in order
    theirShots: [],              // squares the computer shot, in order
    picked: null,                // the ship being placed (its letter)
    cursor: { theirs: 44, mine: 44 },
  };
}

let model = load() || fresh();
// Not state: what the server answered for the coach, by the number of shots it was asked for.
let heat = null;
let busy = false;
let stalled = null; // the computer's shot count when its request failed (a reload retries)
let coaching = null; // the number of shots the coach's request in flight is about
let problem = "";

function load() {
  try {
    const m = JSON.parse(localStorage.getItem(KEY));
    return m && m.version === 1 ? m : null;
  } catch {
    return null;
  }
}

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(model));
  } catch {
    // A full or blocked storage: the game goes on unsaved.
  }
}

// Derived: what a shot found. `k` is the shot's number in `shots`.
function result(fleet, shots, k) {
  const at = shots[k];
  const ship = fleet.find((s) => s.cells.includes(at));
  if (!ship) return { kind: "miss" };
  const before = new Set(shots.slice(0, k + 1));
  return { kind: ship.cells.every((i) => before.has(i)) ? "sunk" : "hit", ship };
}

// Derived: a square's state for the shooter: "open", "miss", "hit" or "sunk".
function mark(fleet, shots, i) {
  const k = shots.indexOf(i);
  if (k < 0) return "open";
  const ship = fleet.find((s) => s.cells.includes(i));
  if (!ship) return "miss";
  const shot = new Set(shots);
  return ship.cells.every((j) => shot.has(j)) ? "sunk" : "hit";
}

const sunkAll = (fleet, shots) => fleet.every((s) => s.cells.every((i) => shots.includes(i)));
const winner = () => (sunkAll(model.theirs, model.myShots) ? "you" : sunkAll(model.mine, model.theirShots) ? "computer" : null);
const myTurn = () => model.phase === "playing" && !winner() && model.myShots.length === model.theirShots.length;

// The shooter's record, as /api/advise reads it.
function record(fleet, shots) {
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

async function advise(body) {
  const response = await fetch("/api/advise", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  return answer;
}

function change(update) {
  update();
  save();
  render();
}

// The computer's turn, when it is due.
async function computerTurn() {
  if (busy || stalled === model.theirShots.length || model.phase !== "playing" || winner()
    || model.theirShots.length >= model.myShots.length) return;
  busy = true;
  try {
    const seed = (model.seed || 0) + model.theirShots.length + 1;
    const answer = await advise({ ...record(model.mine, model.theirShots), strategy: model.level, seed });
    const at = "ABCDEFGHIJ".indexOf(answer.shot[0]) + (Number(answer.shot.slice(1)) - 1) * SIZE;
    problem = "";
    busy = false;
    change(() => model.theirShots.push(at));
  } catch (e) {
    busy = false;
    stalled = model.theirShots.length;
    problem = "The computer could not shoot: " + e.message + " (reload the page to try again)";
    render();
  }
}

async function coach() {
  if (!model.coach || model.phase !== "playing" || winner()) return;
  const n = model.myShots.length;
  if ((heat && heat.n === n) || coaching === n) return;
  coaching = n;
  try {
    const answer = await advise({ ...record(model.theirs, model.myShots), strategy: "posterior" });
    coaching = null;
    if (model.myShots.length === n) {
      heat = { n, probabilities: answer.probabilities.flat() };
      render();
    }
  } catch (e) {
    coaching = null;
    heat = { n, probabilities: null }; // not asked again for this shot
    problem = "The coach could not answer: " + e.message;
    render();
  }
}

function fire(i) {
  if (!myTurn() || busy || model.myShots.includes(i)) return;
  change(() => {
    model.myShots.push(i);
    model.cursor.theirs = i;
  });
}

// Placement: the ship `letter` moved so that its square number `offset` lands on `target`,
// laid horizontally or not; false when it would leave the board or overlap another ship.
function place(letter, target, offset, horizontal) {
  const ship = model.mine.find((s) => s.letter === letter);
  const { row, col } = rowCol(target);
  const r0 = horizontal ? row : row - offset;
  const c0 = horizontal ? col - offset : col;
  const len = ship.cells.length;
  if (r0 < 0 || c0 < 0 || (horizontal ? c0 + len > SIZE : r0 + len > SIZE)) return false;
  const cells = Array.from({ length: len }, (_, k) => (horizontal ? r0 * SIZE + c0 + k : (r0 + k) * SIZE + c0));
  const others = new Set(model.mine.filter((s) => s !== ship).flatMap((s) => s.cells));
  if (cells.some((i) => others.has(i))) return false;
  change(() => {
    ship.cells = cells;
  });
  return true;
}

const horizontalOf = (ship) => ship.cells.length > 1 && ship.cells[1] === ship.cells[0] + 1;

function rotate() {
  const ship = model.mine.find((s) => s.letter === model.picked);
  if (model.phase !== "placing" || !ship) return;
  if (!place(ship.letter, ship.cells[0], 0, !horizontalOf(ship))) {
    problem = `No room to turn the ${shipOf(ship.letter).name} here.`;
    render();
  }
}

// A tap or Enter on one of the player's squares while placing: pick up the ship there, or put
// the picked ship down with its first square there.
function tapMine(i) {
  if (model.phase !== "placing") return;
  const there = model.mine.find((s) => s.cells.includes(i));
  problem = "";
  if (model.picked && (!there || there.letter !== model.picked)) {
    const ship = model.mine.find((s) => s.letter === model.picked);
    if (!place(ship.letter, i, 0, horizontalOf(ship))) {
      problem = `The ${shipOf(ship.letter).name} does not fit there.`;
      render();
    }
    return;
  }
  change(() => {
    model.picked = there ? (model.picked === there.letter ? null : there.letter) : null;
    model.cursor.mine = i;
  });
}

// The view, derived from the model.
function cellName(i, words) {
  const { row, col } = rowCol(i);
  return `Row ${row + 1}, column ${col + 1}: ${words}`;
}

function drawBoard(root, which) {
  const theirs = which === "theirs";
  const fleet = theirs ? model.theirs : model.mine;
  const shots = theirs ? model.myShots : model.theirShots;
  const cursor = model.cursor[which];
  const probabilities = theirs && model.coach && heat && heat.n === model.myShots.length ? heat.probabilities : null;
  const top = probabilities ? Math.max(...probabilities.filter((_, i) => !shots.includes(i)), 1e-9) : 1;
  const rows = [];
  for (let r = 0; r < SIZE; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    for (let c = 0; c < SIZE; c++) {
      const i = r * SIZE + c;
      const d = document.createElement("div");
      d.className = "cell";
      d.id = `${which}-${i}`;
      d.setAttribute("role", "gridcell");
      d.dataset.index = i;
      const state = mark(fleet, shots, i);
      d.dataset.mark = state;
      const ship = fleet.find((s) => s.cells.includes(i));
      let words = state === "open" ? "not shot" : state;
      if (theirs) {
        if (state === "sunk") words += `, ${shipOf(ship.letter).name}`;
        if (probabilities && state === "open") {
          const p = probabilities[i];
          d.style.setProperty("--heat", (p / top).toFixed(3));
          d.classList.add("heat");
          words += `, ${Math.round(p * 100)}% likely a ship`;
        }
      } else {
        if (ship) {
          d.dataset.ship = ship.letter;
          d.classList.add("own");
          words = `${shipOf(ship.letter).name}` + (state === "open" ? "" : `, ${state}`);
          if (model.picked === ship.letter) {
            d.classList.add("picked");
            words += ", picked up";
          }
        } else {
          words = state === "open" ? "water" : state;
        }
      }
      if (i === cursor) d.classList.add("cursor");
      d.setAttribute("aria-label", cellName(i, words));
      row.appendChild(d);
    }
    rows.push(row);
  }
  root.replaceChildren(...rows);
  root.setAttribute("aria-activedescendant", `${which}-${cursor}`);
}

function lastShot(fleet, shots, who) {
  if (!shots.length) return "";
  const k = shots.length - 1;
  const r = result(fleet, shots, k);
  const whose = who === "You" ? "the computer's" : "your";
  const said = r.kind === "sunk" ? `hit, ${whose} ${shipOf(r.ship.letter).name} is sunk` : r.kind;
  return `${who} fired at ${squareName(shots[k])}: ${said}.`;
}

function render() {
  drawBoard($("theirs"), "theirs");
  drawBoard($("mine"), "mine");
  const w = winner();
  const placing = model.phase === "placing";
  $("random").hidden = !placing;
  $("rotate").hidden = !placing;
  $("start").hidden = !placing;
  $("rotate").disabled = !model.picked;
  $("level").value = model.next || (levels().includes(model.level) ? model.level : "tuned");
  $("coach").checked = model.coach;
  document.body.dataset.phase = w ? "over" : model.phase;
  let lines;
  if (placing) {
    lines = ["Place your fleet: Random fleet, or drag a ship (or pick it up with a tap) and Rotate ship; then Start the battle."];
  } else if (w) {
    lines = [w === "you"
      ? `You win! You sank the computer's fleet in ${model.myShots.length} shots; the computer fired ${model.theirShots.length}.`
      : `The computer wins: it sank your fleet in ${model.theirShots.length} shots; you fired ${model.myShots.length}.`];
  } else {
    lines = [lastShot(model.theirs, model.myShots, "You"), lastShot(model.mine, model.theirShots, "The computer"),
      myTurn() ? "Your turn: fire at the computer's waters." : "The computer is aiming…"].filter(Boolean);
  }
  if (model.next && !placing && !w) {
    lines.push(`${levelName(model.next)} applies from the next game; this one goes on at ${levelName(model.level)}.`);
  }
  if (problem) lines.push(problem);
  const message = $("message");
  message.replaceChildren(...lines.map((t) => Object.assign(document.createElement("p"), { textContent: t })));
  message.classList.toggle("error", !!problem);
  $("score").textContent = `Your shots: ${model.myShots.length}. The computer's shots: ${model.theirShots.length}.`;
  $("their-fleet").replaceChildren(...SHIPS.map((s) => {
    const ship = model.theirs.find((t) => t.letter === s.letter);
    const sunk = ship.cells.every((i) => model.myShots.includes(i));
    const li = document.createElement("li");
    li.textContent = `${s.name} (${s.len})${sunk ? ": sunk" : ""}`;
    li.classList.toggle("sunk", sunk);
    return li;
  }));
  if (!w && model.phase === "playing") {
    computerTurn();
    coach();
  }
}

function announce(which) {
  const cell = $(`${which}-${model.cursor[which]}`);
  if (cell) $("announce").textContent = cell.getAttribute("aria-label");
}

function onKey(which, e) {
  const moves = { ArrowUp: -SIZE, ArrowDown: SIZE, ArrowLeft: -1, ArrowRight: 1 };
  const at = model.cursor[which];
  if (e.key in moves) {
    const { row, col } = rowCol(at);
    const blocked = (e.key === "ArrowLeft" && col === 0) || (e.key === "ArrowRight" && col === SIZE - 1)
      || (e.key === "ArrowUp" && row === 0) || (e.key === "ArrowDown" && row === SIZE - 1);
    e.preventDefault();
    if (!blocked) change(() => (model.cursor[which] = at + moves[e.key]));
    announce(which);
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    if (which === "theirs") fire(at);
    else tapMine(at);
    announce(which);
  } else if ((e.key === "r" || e.key === "R") && which === "mine") {
    e.preventDefault();
    rotate();
  }
}

// Dragging a ship of one's own: pressed on one of its squares, released on another square.
let drag = null;
function cellAt(e) {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  const cell = el && el.closest("#mine .cell");
  return cell ? Number(cell.dataset.index) : null;
}

function init() {
  const theirs = $("theirs");
  const mine = $("mine");
  theirs.addEventListener("click", (e) => {
    const cell = e.target.closest(".cell");
    if (cell) fire(Number(cell.dataset.index));
  });
  theirs.addEventListener("keydown", (e) => onKey("theirs", e));
  mine.addEventListener("keydown", (e) => onKey("mine", e));
  mine.addEventListener("pointerdown", (e) => {
    const i = cellAt(e);
    if (i === null || model.phase !== "placing") return;
    const ship = model.mine.find((s) => s.cells.includes(i));
    drag = ship ? { letter: ship.letter, offset: ship.cells.indexOf(i), from: i } : { from: i };
  });
  mine.addEventListener("pointerup", (e) => {
    const i = cellAt(e);
    const d = drag;
    drag = null;
    if (i === null || !d) return;
    if (d.letter && i !== d.from) {
      const ship = model.mine.find((s) => s.letter === d.letter);
      problem = "";
      if (!place(d.letter, i, d.offset, horizontalOf(ship))) {
        problem = `The ${shipOf(d.letter).name} does not fit there.`;
        render();
      }
    } else {
      tapMine(i);
    }
  });
  $("random").addEventListener("click", () => change(() => {
    model.mine = randomFleet();
    model.picked = null;
    problem = "";
  }));
  $("rotate").addEventListener("click", rotate);
  $("start").addEventListener("click", () => change(() => {
    model.phase = "playing";
    model.picked = null;
    problem = "";
  }));
  $("new-game").addEventListener("click", () => {
    heat = null;
    problem = "";
    change(() => (model = fresh(model.next || model.level, model.coach)));
  });
  // Before the battle the level applies at once; during it, from the next game.
  $("level").addEventListener("change", (e) => change(() => {
    const level = e.target.value;
    if (model.phase === "placing") model.level = level;
    model.next = model.phase === "placing" || level === model.level ? null : level;
  }));
  $("coach").addEventListener("change", (e) => change(() => (model.coach = e.target.checked)));
  save();
  render();
}

init();
