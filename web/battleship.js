// The Battleship page of `bimaru-sat serve`: the player against the computer, whose shots come
// from POST /api/advise at the chosen level (docs/web.md, docs/advisor.md), or against a friend
// on the same device (hot-seat). The whole game is one model, saved in localStorage after every
// change; everything on the screen (squares, their names, messages, score, heat maps) is
// derived from it. The rules are in battleship-rules.js, the boards' drawing in
// battleship-board.js, the statistics, settings and sounds in battleship-keep.js.
// Plain JavaScript modules, no framework, nothing loaded from elsewhere.

import {
  SIZE, SHIPS, shipOf, squareName, squareAt, rowCol, horizontalOf, randomFleet, line, result,
  isSunk, sunkAll, hits, record as recordOf,
} from "./battleship-rules.js";
import { drawBoard } from "./battleship-board.js";
import { GAME_KEY, writeJson, loadSettings, saveSettings, count, statLines, sound } from "./battleship-keep.js";

const $ = (id) => document.getElementById(id);

// The levels the menu offers (its options are the only list of them), and a level's name.
const levels = () => Array.from($("level").options, (o) => o.value);
const levelName = (level) => {
  const option = Array.from($("level").options).find((o) => o.value === level);
  return option ? option.textContent.split(" (")[0] : level;
};

// The model: the only state of the game. Side 1 is the player (`mine`, `myShots`), side 2 the
// computer or the friend (`theirs`, `theirShots`); side 1 shoots first.
function fresh(rules, coach) {
  return {
    version: 2,
    phase: "placing",            // "placing", then "playing"; over when a fleet is sunk
    level: levels().includes(rules.level) ? rules.level : "tuned", // the computer's strategy
    opponent: rules.opponent === "friend" ? "friend" : "computer",
    salvo: !!rules.salvo,        // a shot for each ship afloat, every turn
    next: null,                  // rules chosen during the battle, for the next game
    seed: Math.floor(Math.random() * 2 ** 31), // varies the random levels' shots from game to game
    coach: !!coach,              // the heat map of the player's next shot
    thinks: false,               // the computer's heat map over the player's board
    mine: randomFleet(),         // side 1's ships: [{letter, cells}]
    theirs: randomFleet(),       // side 2's ships, hidden until sunk
    myShots: [],                 // squares side 1 shot, in order
    theirShots: [],              // squares side 2 shot, in order
    volleys: { 1: [], 2: [] },   // the number of shots of each finished turn of each side
    aim: [],                     // the squares of the salvo being called
    picked: null,                // the ship being placed (its letter)
    placer: 1,                   // hot-seat: the side placing its fleet
    viewer: 1,                   // hot-seat: the side whose boards are shown
    curtain: null,               // hot-seat: the side the device passes to, both fleets hidden
    counted: false,              // the statistics have this game
    cursor: { theirs: 44, mine: 44 },
  };
}

// A game saved by the page before Salvo and hot-seat (version 1) goes on as a plain one.
function upgrade(m) {
  if (!m || typeof m !== "object") return null;
  if (m.version === 2) return m;
  if (m.version !== 1) return null;
  return {
    ...fresh({ level: m.level }, m.coach), ...m, version: 2, opponent: "computer", salvo: false,
    next: m.next ? { level: m.next } : null,
    volleys: { 1: m.myShots.map(() => 1), 2: m.theirShots.map(() => 1) },
    aim: [], placer: 1, viewer: 1, curtain: null, thinks: false,
    // A game that was over before is not counted again; one still going is, when it ends.
    counted: m.phase === "playing" && (sunkAll(m.theirs, m.myShots) || sunkAll(m.mine, m.theirShots)),
  };
}

function load() {
  try {
    return upgrade(JSON.parse(localStorage.getItem(GAME_KEY)));
  } catch {
    return null;
  }
}

let model = load() || fresh({});
let settings = loadSettings();
// Not state: what the server answered for the heat maps, by the number of shots asked about.
const heat = { theirs: null, mine: null };
const asking = { theirs: null, mine: null };
let busy = false;
let stalled = null; // the computer's shot count when its request failed (a reload retries)
let problem = "";
let confirming = false;

const save = () => writeJson(GAME_KEY, model);
const friend = () => model.opponent === "friend";
const fleetOf = (side) => (side === 1 ? model.mine : model.theirs);
const shotsBy = (side) => (side === 1 ? model.myShots : model.theirShots);

const afloat = (side) => fleetOf(side).filter((s) => !isSunk(s, shotsBy(3 - side))).length;
function winner() {
  if (model.phase !== "playing") return null;
  if (sunkAll(model.theirs, model.myShots)) return 1;
  if (sunkAll(model.mine, model.theirShots)) return 2;
  return null;
}
// The side whose turn it is (side 1 first), and how many shots its turn fires.
const shooter = () => (model.volleys[1].length === model.volleys[2].length ? 1 : 2);
const volleySize = (side) => Math.min(model.salvo ? afloat(side) : 1, SIZE * SIZE - shotsBy(side).length);
// The side whose boards the screen shows.
const viewer = () => (!friend() ? 1 : model.phase === "placing" ? model.placer : model.viewer);
const canFire = () => model.phase === "playing" && !winner() && !model.curtain
  && shooter() === viewer() && !busy;

// Words for a side, seen by the viewer: "You", "The computer", "Player 2".
function who(side) {
  if (side === viewer()) return "You";
  return friend() ? `Player ${side}` : "The computer";
}
const whose = (side) => (side === viewer() ? "your" : friend() ? `Player ${side}'s` : "the computer's");
const cap = (s) => s[0].toUpperCase() + s.slice(1);

// A side's record of its shots, as /api/advise reads it.
const record = (side) => recordOf(fleetOf(3 - side), shotsBy(side));

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
  settle();
  save();
  render();
}

// A volley of `side`: its shots fired together, the turn passed, the sounds played.
function volley(side, squares) {
  shotsBy(side).push(...squares);
  model.volleys[side].push(squares.length);
  const shots = shotsBy(side);
  const fleet = fleetOf(3 - side);
  const kinds = squares.map((_, j) => result(fleet, shots, shots.length - squares.length + j).kind);
  if (settings.sound) sound(kinds.includes("sunk") ? "sunk" : kinds.includes("hit") ? "hit" : "miss");
}

// The computer's turn, when it is due.
async function computerTurn() {
  if (friend() || busy || model.phase !== "playing" || winner() || shooter() !== 2
    || stalled === model.theirShots.length) return;
  busy = true;
  try {
    const seed = (model.seed || 0) + model.theirShots.length + 1;
    const body = { ...record(2), strategy: model.level, seed };
    if (model.salvo) body.salvo = volleySize(2);
    const answer = await advise(body);
    const squares = (answer.salvo || [answer.shot]).map(squareAt);
    problem = "";
    busy = false;
    change(() => volley(2, squares));
  } catch (e) {
    busy = false;
    stalled = model.theirShots.length;
    problem = "The computer could not shoot: " + e.message + " (reload the page to try again)";
    render();
  }
}

// A heat map: the posterior of where the ships are, given one side's shots. `board` is the
// board it is drawn over ("theirs": the coach, the viewer's shots; "mine": the computer's).
async function heatMap(board) {
  const on = board === "theirs" ? model.coach : model.thinks && !friend();
  if (!on || model.phase !== "playing" || winner() || model.curtain) return;
  const side = board === "theirs" ? viewer() : 2;
  const n = shotsBy(side).length;
  if ((heat[board] && heat[board].n === n && heat[board].side === side) || asking[board] === `${side}:${n}`) return;
  asking[board] = `${side}:${n}`;
  try {
    const answer = await advise({ ...record(side), strategy: "posterior" });
    asking[board] = null;
    if (shotsBy(side).length === n) {
      heat[board] = { n, side, probabilities: answer.probabilities.flat() };
      render();
    }
  } catch (e) {
    asking[board] = null;
    heat[board] = { n, side, probabilities: null }; // not asked again for this shot
    problem = "The heat map could not be drawn: " + e.message;
    render();
  }
}

// A shot of the viewer at square `i` of the other waters: at once, or, in Salvo, one more
// square of the salvo called (again: taken back), fired when it has all its squares.
function fire(i) {
  const side = viewer();
  if (!canFire() || shotsBy(side).includes(i)) return;
  change(() => {
    model.cursor.theirs = i;
    const k = model.aim.indexOf(i);
    if (k >= 0) {
      model.aim.splice(k, 1);
      return;
    }
    model.aim.push(i);
    if (model.aim.length >= volleySize(side)) {
      const squares = model.aim;
      model.aim = [];
      volley(side, squares);
    }
  });
}

// Placement of the viewer's fleet: the ship `letter` laid on `cells`, when they are on the
// board and free; false otherwise.
function fits(letter, cells) {
  const others = new Set(fleetOf(viewer()).filter((s) => s.letter !== letter).flatMap((s) => s.cells));
  return cells.every((i) => i >= 0 && i < SIZE * SIZE) && !cells.some((i) => others.has(i));
}

// Moves the ship so that its square `offset` lands on `target`; a placed ship is put down.
function place(letter, target, offset, horizontal) {
  const ship = fleetOf(viewer()).find((s) => s.letter === letter);
  const cells = line(ship.cells.length, target, offset, horizontal);
  if (!cells || !fits(letter, cells)) return false;
  change(() => {
    ship.cells = cells;
    model.picked = null;
  });
  return true;
}

// Turns the ship picked up about its first square; where it does not fit so, it is shifted
// along its new line (its first square still covered), then about each of its other squares.
function rotate() {
  const ship = fleetOf(viewer()).find((s) => s.letter === model.picked);
  if (model.phase !== "placing" || !ship) return;
  const horizontal = !horizontalOf(ship);
  for (const pivot of ship.cells) {
    for (let offset = 0; offset < ship.cells.length; offset++) {
      const cells = line(ship.cells.length, pivot, offset, horizontal);
      if (cells && fits(ship.letter, cells)) {
        problem = "";
        change(() => (ship.cells = cells));
        return;
      }
    }
  }
  problem = `No room to turn the ${shipOf(ship.letter).name} here.`;
  render();
}

// A tap or Enter on one of the viewer's squares while placing: pick up the ship there, or put
// the picked ship down with its first square there.
function tapMine(i) {
  if (model.phase !== "placing" || model.curtain) return;
  const fleet = fleetOf(viewer());
  const there = fleet.find((s) => s.cells.includes(i));
  problem = "";
  if (model.picked && (!there || there.letter !== model.picked)) {
    const ship = fleet.find((s) => s.letter === model.picked);
    if (!place(ship.letter, i, 0, horizontalOf(ship))) {
      problem = `The ${shipOf(ship.letter).name} does not fit with its first square at ${squareName(i)}.`;
      render();
    }
    return;
  }
  change(() => {
    model.picked = there ? (model.picked === there.letter ? null : there.letter) : null;
    model.cursor.mine = i;
  });
}

// A game against the computer is counted in the statistics once, when it ends.
function settle() {
  const w = winner();
  if (!w || model.counted || friend()) return;
  model.counted = true;
  count({
    level: model.level, salvo: model.salvo, won: w === 1, myShots: model.myShots.length,
    theirShots: model.theirShots.length, hits: hits(model.theirs, model.myShots),
  });
}

// The view of a board, from the model: "theirs" the other waters and the viewer's shots,
// "mine" the viewer's waters and the other side's shots.
function view(which) {
  const side = viewer();
  const target = which === "theirs";
  const shooting = target ? side : 3 - side;
  const shots = shotsBy(shooting);
  const over = !!winner();
  const map = heat[which];
  const shown = target ? model.coach : model.thinks && !friend();
  const volleys = model.volleys[shooting];
  const n = volleys.length ? volleys[volleys.length - 1] : 0;
  return {
    fleet: fleetOf(3 - shooting),
    shots,
    target,
    over,
    hidden: !!model.curtain,
    cursor: model.cursor[which],
    last: new Set(shots.slice(shots.length - n)),
    aim: target && canFire() ? model.aim : [],
    picked: model.phase === "placing" ? model.picked : null,
    probabilities: map && shown && !over && map.side === (target ? side : 2) && map.n === shots.length ? map.probabilities : null,
    thinks: !target,
  };
}

// What the last turn of `side` found, in one sentence (a salvo's squares together).
function lastTurn(side) {
  const volleys = model.volleys[side];
  if (!volleys.length) return "";
  const shots = shotsBy(side);
  const fleet = fleetOf(3 - side);
  const n = volleys[volleys.length - 1];
  const said = [];
  for (let k = shots.length - n; k < shots.length; k++) {
    const r = result(fleet, shots, k);
    said.push(`${squareName(shots[k])}: ${r.kind === "sunk"
      ? `hit, ${whose(3 - side)} ${shipOf(r.ship.letter).name} is sunk` : r.kind}`);
  }
  return n === 1 ? `${who(side)} fired at ${said[0]}.` : `${who(side)} fired a salvo of ${n}: ${said.join("; ")}.`;
}

function turnLine() {
  const w = winner();
  if (model.curtain) return `Hidden: the device passes to Player ${model.curtain}.`;
  if (model.phase === "placing") return friend() ? `Player ${model.placer} places a fleet.` : "Placing your fleet.";
  if (w) return `Game over after ${model.volleys[1].length} turns.`;
  const turn = model.volleys[shooter()].length + 1;
  const side = shooter();
  return `Turn ${turn}: ${side === viewer() ? "your turn" : friend() ? `Player ${side}'s turn` : "the computer's turn"}`
    + (model.salvo ? `, ${volleySize(side)} shots.` : ".");
}

function messageLines() {
  const w = winner();
  if (model.curtain) return [`Pass the device to Player ${model.curtain}.`];
  if (model.phase === "placing") {
    const then = friend() && model.placer === 1 ? "then Done: hide my fleet" : "then Start the battle";
    return [`Place ${friend() ? `Player ${model.placer}'s` : "your"} fleet: Random fleet, or drag a ship `
      + `(or pick it up with a tap) and Rotate ship; ${then}.`];
  }
  const lines = [];
  if (w) {
    const you = shotsBy(1).length;
    const them = shotsBy(2).length;
    if (friend()) lines.push(`Player ${w} wins! Player ${w} sank the other fleet in ${shotsBy(w).length} shots; Player ${3 - w} fired ${shotsBy(3 - w).length}.`);
    else lines.push(w === 1 ? `You win! You sank the computer's fleet in ${you} shots; the computer fired ${them}.`
      : `The computer wins: it sank your fleet in ${them} shots; you fired ${you}. Its fleet is revealed.`);
    return lines;
  }
  const first = viewer() === 1 ? [1, 2] : [2, 1];
  for (const side of first) {
    const said = lastTurn(side);
    if (said) lines.push(said);
  }
  const side = shooter();
  if (friend() && side !== viewer()) lines.push(`Now hide your fleet and pass the device to Player ${side}.`);
  else if (side === viewer()) {
    const k = volleySize(side);
    lines.push(k > 1 ? `Your turn: choose ${k} squares of the other waters (${model.aim.length} chosen).`
      : `Your turn: fire at ${friend() ? `Player ${3 - side}'s` : "the computer's"} waters.`);
  } else lines.push("The computer is aiming…");
  if (model.next) {
    const n = model.next;
    const parts = [];
    if (n.level && n.level !== model.level) parts.push(levelName(n.level));
    if (n.opponent && n.opponent !== model.opponent) parts.push(n.opponent === "friend" ? "a friend as the opponent" : "the computer as the opponent");
    if (n.salvo !== undefined && n.salvo !== model.salvo) parts.push(n.salvo ? "Salvo" : "one shot a turn");
    if (parts.length) lines.push(`${cap(parts.join(", "))} applies from the next game; this one goes on ${friend() ? "as it is" : `at ${levelName(model.level)}`}${model.salvo ? ", Salvo" : ""}.`);
  }
  return lines;
}

function fleetList(root, side) {
  const shots = shotsBy(3 - side);
  $(`${root.id}-title`).textContent = `${cap(whose(side))} ships`;
  root.replaceChildren(...SHIPS.map((s) => {
    const ship = fleetOf(side).find((t) => t.letter === s.letter);
    const sunk = isSunk(ship, shots);
    const li = document.createElement("li");
    li.textContent = `${s.letter} ${s.name} (${s.len})${sunk ? ": sunk" : ""}`;
    li.classList.toggle("sunk", sunk);
    return li;
  }));
}

function render() {
  const w = winner();
  const placing = model.phase === "placing";
  const side = viewer();
  const hidden = !!model.curtain;
  document.body.dataset.phase = hidden ? "curtain" : w ? "over" : model.phase;
  document.body.classList.toggle("reduce-motion", !!settings.motion);
  drawBoard($("theirs"), "theirs", view("theirs"));
  drawBoard($("mine"), "mine", view("mine"));
  const other = friend() ? `Player ${3 - side}'s` : "Computer's";
  $("their-title").textContent = `${other} waters: ${friend() ? `Player ${side}'s` : "your"} shots`;
  $("my-title").textContent = friend() ? `Player ${side}'s waters: Player ${3 - side}'s shots`
    : "Your waters: the computer's shots";
  $("boards").hidden = hidden;
  $("curtain").hidden = !hidden;
  if (hidden) {
    $("curtain-title").textContent = `Player ${model.curtain}'s turn`;
    $("curtain-text").textContent = `Pass the device to Player ${model.curtain}. Player ${3 - model.curtain}, look away: `
      + `both fleets stay hidden until Player ${model.curtain} presses the button.`;
    $("ready").textContent = `Show Player ${model.curtain}'s boards`;
  }
  $("random").hidden = !placing || hidden;
  $("rotate").hidden = !placing || hidden;
  $("start").hidden = !placing || hidden;
  $("start").textContent = friend() && model.placer === 1 ? "Done: hide my fleet" : "Start the battle";
  $("pass").hidden = !(friend() && !placing && !w && !hidden && shooter() !== viewer());
  $("rotate").disabled = !model.picked;
  $("new-game").hidden = hidden;
  $("confirm-new").hidden = !confirming;
  const next = model.next || {};
  $("level").value = next.level || (levels().includes(model.level) ? model.level : "tuned");
  $("opponent").value = next.opponent || model.opponent;
  $("salvo").checked = next.salvo !== undefined ? next.salvo : model.salvo;
  $("coach").checked = model.coach;
  $("thinks").checked = model.thinks;
  $("thinks").closest("label").hidden = friend();
  $("level").closest("label").hidden = friend();
  $("sound").checked = !!settings.sound;
  $("motion").checked = !!settings.motion;
  $("turn").textContent = turnLine();
  const lines = messageLines();
  if (problem) lines.push(problem);
  const message = $("message");
  message.replaceChildren(...lines.map((t) => Object.assign(document.createElement("p"), { textContent: t })));
  message.classList.toggle("error", !!problem);
  $("score").textContent = friend()
    ? `Player 1's shots: ${model.myShots.length}. Player 2's shots: ${model.theirShots.length}.`
    : `Your shots: ${model.myShots.length}. The computer's shots: ${model.theirShots.length}.`;
  fleetList($("their-fleet"), 3 - side);
  fleetList($("my-fleet"), side);
  $("results").hidden = !w;
  if (w) {
    const mine = shotsBy(side);
    const hits = mine.filter((i) => fleetOf(3 - side).some((t) => t.cells.includes(i))).length;
    $("outcome").textContent = (friend() ? `Player ${w} wins. ` : w === 1 ? "You win. " : "The computer wins. ")
      + `${friend() ? `Player ${side}` : "You"}: ${mine.length} shots, ${hits} hits (${Math.round((100 * hits) / Math.max(mine.length, 1))}% accuracy).`;
    $("stats").replaceChildren(...statLines(levels(), levelName).map((t) => Object.assign(document.createElement("li"), { textContent: t })));
    $("stats-title").hidden = friend();
    $("stats").hidden = friend();
  }
  if (!w && model.phase === "playing") {
    computerTurn();
    heatMap("theirs");
    heatMap("mine");
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

// A new game with the rules chosen (those chosen during the last battle included).
function newGame() {
  heat.theirs = null;
  heat.mine = null;
  problem = "";
  confirming = false;
  const next = model.next || {};
  const rules = {
    level: next.level || model.level,
    opponent: next.opponent || model.opponent,
    salvo: next.salvo !== undefined ? next.salvo : model.salvo,
  };
  const coach = model.coach;
  const thinks = model.thinks;
  change(() => {
    model = fresh(rules, coach);
    model.thinks = thinks;
  });
}

// A rule chosen: before the first shot it applies at once (a new opponent or Salvo starts the
// placing again); during the battle it waits for the next game, and the page says so.
function choose(rule, value) {
  const early = model.phase === "placing" && !model.myShots.length;
  if (early) {
    if (rule === "opponent" && value !== model.opponent) {
      change(() => {
        model.opponent = value;
        model.placer = 1;
        model.viewer = 1;
        model.curtain = null;
        model.picked = null;
      });
    } else change(() => (model[rule] = value));
    return;
  }
  change(() => {
    const next = { ...(model.next || {}), [rule]: value };
    if (value === model[rule]) delete next[rule];
    model.next = Object.keys(next).length ? next : null;
  });
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
    const ship = fleetOf(viewer()).find((s) => s.cells.includes(i));
    drag = ship ? { letter: ship.letter, offset: ship.cells.indexOf(i), from: i } : { from: i };
  });
  mine.addEventListener("pointerup", (e) => {
    const i = cellAt(e);
    const d = drag;
    drag = null;
    if (i === null || !d) return;
    if (d.letter && i !== d.from) {
      const ship = fleetOf(viewer()).find((s) => s.letter === d.letter);
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
    const fleet = randomFleet();
    if (viewer() === 1) model.mine = fleet;
    else model.theirs = fleet;
    model.picked = null;
    problem = "";
  }));
  $("rotate").addEventListener("click", rotate);
  $("start").addEventListener("click", () => {
    change(() => {
      model.picked = null;
      problem = "";
      if (friend() && model.placer === 1) {
        model.placer = 2;
        model.curtain = 2;
        return;
      }
      model.phase = "playing";
      if (friend()) model.curtain = 1;
    });
    // The battle starts: the focus goes to the waters to fire at (or the hiding screen's button).
    (model.curtain ? $("ready") : $("theirs")).focus();
  });
  $("pass").addEventListener("click", () => {
    change(() => {
      model.curtain = shooter();
    });
    $("ready").focus();
  });
  $("ready").addEventListener("click", () => {
    change(() => {
      model.viewer = model.curtain;
      model.curtain = null;
      model.aim = [];
    });
    $(model.phase === "placing" ? "mine" : "theirs").focus();
  });
  // New game: at once while placing or after the end; during the battle it asks first.
  $("new-game").addEventListener("click", () => {
    if (model.phase === "playing" && !winner()) {
      confirming = true;
      render();
      $("confirm-no").focus();
    } else newGame();
  });
  $("confirm-yes").addEventListener("click", () => {
    newGame();
    $("new-game").focus();
  });
  $("confirm-no").addEventListener("click", () => {
    confirming = false;
    render();
    $("new-game").focus();
  });
  $("again").addEventListener("click", () => {
    newGame();
    $("mine").focus();
  });
  $("level").addEventListener("change", (e) => choose("level", e.target.value));
  $("opponent").addEventListener("change", (e) => choose("opponent", e.target.value));
  $("salvo").addEventListener("change", (e) => choose("salvo", e.target.checked));
  $("coach").addEventListener("change", (e) => change(() => (model.coach = e.target.checked)));
  $("thinks").addEventListener("change", (e) => change(() => (model.thinks = e.target.checked)));
  for (const id of ["sound", "motion"]) {
    $(id).addEventListener("change", (e) => {
      settings = { ...settings, [id]: e.target.checked };
      saveSettings(settings);
      render();
    });
  }
  save();
  render();
}

init();
