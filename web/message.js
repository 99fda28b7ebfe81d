// The puzzle page's message area: a message (with its details and buttons), and running an
// action whose failure becomes the message.

import { ApiFailure, aborted } from "./api.js";
import { $ } from "./game.js";

// Shows `text` (and, folded, the solver's `details`), or clears the message.
export function say(text, { error = false, details = "", actions = [] } = {}) {
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

// Runs an action, showing its failure as the message (a cancelled request says nothing).
export function action(run) {
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
