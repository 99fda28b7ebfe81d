// A board of the Battleship page (web/battleship.js), drawn from a plain view of it: an ARIA
// grid with its coordinates as column and row headers (A to J, 1 to 10), each square named as
// the messages name it ("C8: hit, last shot"), ships drawn as hulls (joined squares, rounded
// ends), the last turn's squares ringed, a salvo being called, and a heat map.

import { SIZE, LETTERS, shipOf, squareName, horizontalOf, mark } from "./battleship-rules.js";

// A ship's square `i` drawn as a part of its hull: which sides join the next square of the
// same ship, and its ends; a sunk ship carries its letter on its middle square.
function hull(ship, i, cls) {
  const k = ship.cells.indexOf(i);
  const last = ship.cells.length - 1;
  const h = horizontalOf(ship);
  const span = document.createElement("span");
  span.className = `hull ${cls}`;
  if (k > 0) span.classList.add(h ? "join-left" : "join-up");
  if (k < last) span.classList.add(h ? "join-right" : "join-down");
  if (k === 0) span.classList.add(h ? "end-left" : "end-up");
  if (k === last) span.classList.add(h ? "end-right" : "end-down");
  if (k === Math.floor(last / 2) && cls.includes("sunk")) {
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = ship.letter;
    span.appendChild(tag);
  }
  return span;
}

function header(text, role, cls) {
  const h = document.createElement("div");
  h.className = cls;
  h.setAttribute("role", role);
  h.textContent = text;
  return h;
}

// Draws `root` (id `which`) from `view`: `fleet` and the `shots` at it; `target` (the other
// waters: only sunk ships shown, all of them once `over`) or the viewer's own; `hidden` (the
// hot-seat screen: no ship and no shot drawn); `cursor`; `last` (the squares of the last turn);
// `aim` (a salvo being called); `picked` (the ship picked up); `probabilities` (a heat map, or
// null), the computer's (`thinks`) or the coach's.
export function drawBoard(root, which, view) {
  const { fleet, shots, target, over, hidden, cursor, last, aim, picked, probabilities, thinks } = view;
  const top = probabilities ? Math.max(...probabilities.filter((_, i) => !shots.includes(i)), 1e-9) : 1;
  const heads = document.createElement("div");
  heads.className = "row heads";
  heads.setAttribute("role", "row");
  const corner = header("", "columnheader", "head corner");
  corner.appendChild(Object.assign(document.createElement("span"), { className: "visually-hidden", textContent: "Row" }));
  heads.appendChild(corner);
  for (let c = 0; c < SIZE; c++) heads.appendChild(header(LETTERS[c], "columnheader", "head"));
  const rows = [heads];
  for (let r = 0; r < SIZE; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    row.appendChild(header(String(r + 1), "rowheader", "head"));
    for (let c = 0; c < SIZE; c++) {
      const i = r * SIZE + c;
      const d = document.createElement("div");
      d.className = "cell";
      d.id = `${which}-${i}`;
      d.setAttribute("role", "gridcell");
      d.dataset.index = i;
      const state = hidden ? "open" : mark(fleet, shots, i);
      d.dataset.mark = state;
      const ship = hidden ? null : fleet.find((s) => s.cells.includes(i));
      let words;
      if (target) {
        words = state === "open" ? "not shot" : state;
        if (state === "sunk") {
          words += `, ${shipOf(ship.letter).name}`;
          d.appendChild(hull(ship, i, "sunk"));
        } else if (over && ship) {
          words = `${shipOf(ship.letter).name}, ` + (state === "open" ? "not shot" : state) + ", revealed";
          d.appendChild(hull(ship, i, "revealed"));
        }
        if (aim.includes(i)) {
          d.classList.add("aimed");
          words += ", in your salvo";
        }
      } else if (ship) {
        d.appendChild(hull(ship, i, state === "sunk" ? "own sunk" : "own"));
        words = shipOf(ship.letter).name + (state === "open" ? "" : `, ${state}`);
        if (picked === ship.letter) {
          d.classList.add("picked");
          words += ", picked up";
        }
      } else {
        words = state === "open" ? "water" : state;
      }
      if (probabilities && state === "open") {
        const p = probabilities[i];
        const shade = document.createElement("span");
        shade.className = thinks ? "shade thinks" : "shade";
        shade.style.setProperty("--heat", (p / top).toFixed(3));
        d.appendChild(shade);
        d.classList.add("heat");
        words += thinks ? `, the computer thinks ${Math.round(p * 100)}% likely a ship` : `, ${Math.round(p * 100)}% likely a ship`;
      }
      if (last.has(i) && !hidden) {
        d.classList.add("last");
        words += ", last shot";
      }
      if (i === cursor) d.classList.add("cursor");
      d.setAttribute("aria-label", `${squareName(i)}: ${words}`);
      row.appendChild(d);
    }
    rows.push(row);
  }
  root.replaceChildren(...rows);
  root.setAttribute("aria-activedescendant", `${which}-${cursor}`);
}
