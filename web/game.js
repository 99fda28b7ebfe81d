// The puzzle page's game: the one state object every module reads and changes, the pieces'
// letters and words, and small helpers on cells and times.

// A cell holds one letter: "?" unknown, "." water, "s" a ship part the player placed, or a
// clue's piece "c" (submarine), "t" "b" "l" "r" (ends), "m" (middle), as the API's grids
// write them.
export const PIECE_OF_CLUE = {
  water: ".", ship: "s", submarine: "c", top: "t", bottom: "b", left: "l", right: "r", middle: "m",
};
export const PIECE_WORDS = {
  "?": "unknown", ".": "water", s: "ship", c: "submarine", t: "ship, top end", b: "ship, bottom end",
  l: "ship, left end", r: "ship, right end", m: "ship, middle",
};

export const game = {
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
  assisted: false,  // Hint, Solve or Reveal one cell was used in this game: no best time
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

export const $ = (id) => document.getElementById(id);
export function needPuzzle() {
  if (!game.puzzle) throw new Error("No puzzle yet: make a new one or import one.");
}

export const index = (row, col) => row * game.puzzle.cols + col;
export const isShip = (letter) => letter !== "?" && letter !== ".";
export const clock = (ms) => {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
};
export const elapsed = () => game.elapsed + (game.since === null ? 0 : Date.now() - game.since);
export const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;
export const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five"];
export const cellWords = (i) => `row ${Math.floor(i / game.puzzle.cols) + 1}, column ${(i % game.puzzle.cols) + 1}`;
