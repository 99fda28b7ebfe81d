// What the puzzle page keeps in localStorage: the game on the board (cells, history, timer,
// crossed-off ships, result) and the recent games, listed under Recent puzzles.

import { $, clock, elapsed, game } from "./game.js";
import { readJson, writeJson } from "./storage.js";
import { action } from "./message.js";
import { resume } from "./start.js";

export const RECENT_MAX = 12;
export const STORE = "bimaru.";

export const stored = (name) => readJson(STORE + name, null);
export const store = (name, value) => writeJson(STORE + name, value);

export function save() {
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

export function drawRecent() {
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
