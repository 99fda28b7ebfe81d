// The puzzle's tools: Unique?, Grade, Share and the SVG download.

import { api } from "./api.js";
import { buildBoard } from "./board.js";
import { $, game, needPuzzle } from "./game.js";
import { save } from "./keep.js";
import { say } from "./message.js";
import { gradeWords } from "./play.js";

export async function unique() {
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

export async function grade() {
  needPuzzle();
  const answer = game.grade || (await api("grade", { puzzle: game.source }));
  game.grade = answer;
  save();
  say(gradeWords(answer), { details: answer.text });
}

export async function share() {
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

export async function download() {
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
