// The page of `bimaru-sat serve`: a Bimaru player. It draws the board as an ARIA grid of cells,
// keeps the player's cells, undo history, timer and crossed-off ships in localStorage, and asks
// the server's JSON API (docs/web.md) for puzzles, solutions, hints and grades.
// Plain JavaScript modules, no framework, nothing loaded from elsewhere; this one wires the
// page's controls to the others.

import { cancel } from "./api.js";
import { fit, tick } from "./board.js";
import { askSolve, check, revealOne, solve } from "./check.js";
import { onFleetKey } from "./fleet.js";
import { $, elapsed, game } from "./game.js";
import { drawHint, hint } from "./hints.js";
import { announce, onKey, onPointerDown, onPointerMove, onPointerUp, onShortcut, setMode } from "./input.js";
import { drawRecent, save, stored } from "./keep.js";
import { action } from "./message.js";
import { endTrial, redo, toggleTrial, undo } from "./play.js";
import { choose, dropUpcoming, fitGrades, generate, openText, prefetch, resume, upcoming } from "./start.js";
import { download, grade, share, unique } from "./tools.js";

// What the browser test (tests/web/e2e.mjs) reads in the page, as globals: the game, the time
// played, the puzzle asked for in advance, and the hint box's drawing.
Object.assign(window, { game, elapsed, drawHint });
Object.defineProperty(window, "upcoming", { get: () => upcoming });

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
    dropUpcoming();
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
