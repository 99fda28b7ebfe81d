// The fleet panel: the ships by length, placed or crossed off, one Tab stop.

import { $, NUMBER_WORDS, game } from "./game.js";
import { save } from "./keep.js";
import { breaks } from "./rules.js";
import { completeShips } from "./shapes.js";

export const tooMany = (n) => `${NUMBER_WORDS[n] || n} too many`;

// The fleet panel is one Tab stop: the list takes the focus, named by a summary; the arrow keys
// move the focus among its icons (out of the Tab order), Enter or space crosses one off.
export function onFleetKey(event) {
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

export function drawFleet() {
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
