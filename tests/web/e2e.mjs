// The end-to-end test of `bimaru-sat serve` in a real browser: Debian's Chromium driven by
// playwright-core (no browser download). Run by tests/web.rs:
//
//   node tests/web/e2e.mjs BASE_URL PUZZLINK_URL SOLUTION_JSON SCREENSHOT_DIR
//
// BASE_URL is the server (http://127.0.0.1:PORT/), PUZZLINK_URL the puzzle, SOLUTION_JSON the
// CLI's solution rows (`bimaru-sat --to json`'s "grid"). At 1200x900 it checks that a fresh
// visit opens on a new puzzle and `?p=` on the given one (kept in the address bar), that a
// placed 3-ship draws as end, middle, end once closed (an end is round only where the cell
// beyond is decided; a lone ship part beside open cells is no end and is named "open") and the
// fleet panel counts it, right click and drag,
// undo and redo, that a reload restores the cells, the undo history and the timer, the recent
// list, a hint on a board with a mistake, Solve asking first and revealing one cell, finishing
// by keyboard alone ("Solved in", the timer stopped), every control reached with Tab, the other
// buttons, that "New puzzle" shows the puzzle asked for in advance without waiting, that Size
// and Grade changes cancel their requests, the solved banner and best times (assisted solves
// set none), the shortcuts anywhere with the fleet panel one Tab stop, and on an empty board
// rule breaks marked before Check (a second 4-ship, ships touching at a corner, an overfull
// row) and named by Check, a hint's cited cells and counts highlighted, and trial mode (trial
// marks in another colour, named so, discarded and accepted together, through undo, redo and a
// reload); at
// 390x844 (a phone) the board first, the hint beside it (at most 3 lines, "more"), the mode
// switch for taps (thumb-sized, as every button). axe-core audits both layouts (no serious or
// critical violation). Screenshots of both go
// to SCREENSHOT_DIR/web.png and web-phone.png. Any request to another host, or any error on the
// page's console other than the API's expected 422 answers, fails the test. It then asks for
// every size and grade in turn (poolLoop, below; BIMARU_E2E_POOL_LOOP=0 leaves it out). Issue
// 50's rough edges are checked by roughEdges, at both sizes.

import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const started = Date.now();
const [base, puzzlink, solutionJson, shots] = process.argv.slice(2);
if (!shots) {
  console.error("usage: node e2e.mjs BASE_URL PUZZLINK_URL SOLUTION_JSON SCREENSHOT_DIR");
  process.exit(2);
}
const solution = JSON.parse(solutionJson);
const origin = new URL(base).origin;
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const repo = fileURLToPath(new URL("../../", import.meta.url));
const body = puzzlink.slice(puzzlink.indexOf("?") + 1);
const rows = solution.length, cols = solution[0].length;
const isShip = (ch) => ch !== ".";

let checks = 0;
function check(condition, what) {
  if (!condition) throw new Error("failed: " + what);
  checks++;
  console.log("ok: " + what);
}

const profile = mkdtempSync(join(tmpdir(), "bimaru-e2e-"));
const problems = [];

async function browser(viewport, extra = {}) {
  const context = await chromium.launchPersistentContext(profile + "-" + viewport.width, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      // --no-sandbox: CI runs as root in a container; --disable-dev-shm-usage: containers have
      // a small /dev/shm.
      "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
    viewport,
    ...extra,
  });
  // The page needs nothing from elsewhere: every other request is refused and reported.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    // A request a page-level route (the 3 s delay of step 11) already handled, once that route
    // is removed, comes here too: "already handled" is no failure.
    if (url.startsWith(origin + "/")) return route.continue().catch(() => {});
    problems.push("request to another host: " + url);
    return route.abort();
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => {
    // A puzzle with several solutions has no grade: the API answers 422, which Chromium logs.
    if (m.type() === "error" && !m.text().includes("status of 422")) problems.push("console: " + m.text());
  });
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  return { context, page };
}

function helpers(page) {
  const cell = (r, c) => page.locator(`#board .cell[data-row="${r}"][data-col="${c}"]`);
  // A locator's box, waiting while it has none: the board is drawn anew when an answer from
  // the background (the puzzle's grade, its uniqueness) arrives, and a cell looked up in the
  // middle of that has no box for a moment.
  const box = async (locator) => {
    for (let tries = 0; tries < 100; tries++) {
      const b = await locator.boundingBox();
      if (b) return b;
      await page.waitForTimeout(20);
    }
    throw new Error(`no box for ${locator}`);
  };
  return {
    cell,
    box,
    state: (r, c) => cell(r, c).getAttribute("data-state"),
    shape: (r, c) => cell(r, c).getAttribute("data-shape"),
    message: () => page.textContent("#message"),
    waitMessage: (text) => page.waitForFunction((t) => document.querySelector("#message").textContent.includes(t), text),
    board: () => page.evaluate(() => game.cells.join("")),
  };
}

// axe-core, run in the page (evaluated through the debugger, so the page's CSP allows it).
async function audit(page, what) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => axe.run(document, { resultTypes: ["violations"] }));
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const said = bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
  check(bad.length === 0, `axe-core finds no serious or critical violation ${what}` + (bad.length ? ": " + said.join("; ") : ""));
}

async function desktop() {
  const { context, page } = await browser({ width: 1200, height: 900 });
  const { cell, box, state, shape, message, waitMessage } = helpers(page);
  try {
    // 1. A first visit opens on a new puzzle, and names it in the address bar.
    await page.goto(base);
    await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 100);
    check(true, "a first visit opens on a new 10x10 puzzle");
    await page.waitForFunction(() => location.search.startsWith("?p="));
    check(true, "the new puzzle's ?p= is in the address bar: " + page.url());

    // 2. ?p= opens the given puzzle, and stays.
    await page.goto(base + "?p=" + encodeURIComponent(body));
    await page.waitForFunction((src) => game.key === src, body);
    check(await page.locator("#board .cell").count() === rows * cols, `?p= opens the ${rows}x${cols} puzzle`);
    check(new URL(page.url()).searchParams.get("p") === body, "?p= is kept in the address bar");
    check(await page.locator("#import").getAttribute("open") === null, "the puzzle text is folded behind Import");

    // 3. A 3-ship placed by a drag: its middle a middle, its ends as far as they are decided.
    let ship = null;
    for (let c = 0; c < cols && !ship; c++) {
      for (let r = 0; r + 2 < rows && !ship; r++) {
        if (solution[r][c] === "t" && solution[r + 1][c] === "m" && solution[r + 2][c] === "b") ship = { r, c, dr: 1, dc: 0 };
      }
    }
    for (let r = 0; r < rows && !ship; r++) {
      const at = solution[r].indexOf("lmr");
      if (at >= 0) ship = { r, c: at, dr: 0, dc: 1 };
    }
    check(ship !== null, "the solution has a 3-ship");
    const part = (k) => [ship.r + ship.dr * k, ship.c + ship.dc * k];
    for (let k = 0; k < 3; k++) check(await state(...part(k)) === "?", `cell ${part(k)} of the 3-ship is open`);
    const centre = async (r, c) => {
      const b = await box(cell(r, c));
      return [b.x + b.width / 2, b.y + b.height / 2];
    };
    await page.mouse.move(...(await centre(...part(0))));
    await page.mouse.down();
    await page.mouse.move(...(await centre(...part(1))), { steps: 4 });
    await page.mouse.move(...(await centre(...part(2))), { steps: 4 });
    await page.mouse.up();
    for (let k = 0; k < 3; k++) check(await state(...part(k)) === "s", `the drag painted ${part(k)} a ship part`);
    // An honest board: the middle is a middle, but an end is drawn round only where the cell
    // beyond it is decided (water or the edge); until then it stays square and is named open.
    const beyond = async (r, c) => r < 0 || c < 0 || r >= rows || c >= cols || (await state(r, c)) === ".";
    const ends = [[part(0), [ship.r - ship.dr, ship.c - ship.dc], ship.dr ? "t" : "l"],
      [part(2), [ship.r + 3 * ship.dr, ship.c + 3 * ship.dc], ship.dr ? "b" : "r"]];
    check(await shape(...part(1)) === "m", "the 3-ship's middle draws as a middle");
    for (const [at, next, round] of ends) {
      const decided = await beyond(...next);
      const drawn = await shape(...at);
      const name = await cell(...at).getAttribute("aria-label");
      check(decided ? drawn === round : drawn === "s" && name.includes("open"),
        `the end at ${at} is drawn round only if the cell beyond is decided (${drawn}: ${name})`);
    }
    check((await cell(...part(1)).getAttribute("aria-label")).startsWith(`Row ${part(1)[0] + 1}, column ${part(1)[1] + 1}: ship`),
      "cells have names: " + (await cell(...part(1)).getAttribute("aria-label")));
    const fleetLeft = () => page.locator('#fleet-list li[data-length="3"]').getAttribute("data-placed");
    check(await fleetLeft() === "0", "an open 3-ship is not yet counted as placed");

    // 4. Right click makes water; the ship's surroundings in water complete it.
    const around = [];
    for (let k = -1; k <= 3; k++) {
      for (const side of [-1, 0, 1]) {
        const r = ship.r + ship.dr * k + ship.dc * side, c = ship.c + ship.dc * k + ship.dr * side;
        if (r < 0 || c < 0 || r >= rows || c >= cols || (side === 0 && k >= 0 && k <= 2)) continue;
        if ((await state(r, c)) === "?") around.push([r, c]);
      }
    }
    for (const [r, c] of around) await cell(r, c).click({ button: "right" });
    for (const [r, c] of around) check(await state(r, c) === ".", `right click made (${r}, ${c}) water`);
    check(await page.locator(".cell[data-state='.'] .piece").first().evaluate((p) => getComputedStyle(p, "::before").content) === '"~"',
      "water is marked with a wave");
    const shapes = [await shape(...part(0)), await shape(...part(1)), await shape(...part(2))].join("");
    check(shapes === (ship.dr ? "tmb" : "lmr"), `the closed 3-ship draws as end, middle, end (${shapes})`);
    const thickness = async (r, c) => {
      const b = await box(cell(r, c).locator(".piece"));
      return ship.dr ? b.width : b.height;
    };
    const [endWidth, middleWidth] = [await thickness(...part(0)), await thickness(...part(1))];
    check(Math.abs(endWidth - middleWidth) <= 1, `ends and middles are equally thick (${endWidth} and ${middleWidth} px)`);
    check(await fleetLeft() === "1", "the fleet panel counts the closed 3-ship as placed");
    check(await page.locator('#fleet-list li[data-length="3"] .ship-icon.crossed').count() === 1,
      "the placed 3-ship is crossed off the fleet");
    // Crossing off by hand.
    const sub = page.locator('#fleet-list li[data-length="1"] .ship-icon').last();
    await sub.click();
    check(await sub.getAttribute("aria-pressed") === "true", "a ship is crossed off by hand");

    // 5. Undo and redo.
    const last = around[around.length - 1];
    await page.click("#undo");
    check(await state(...last) === "?", "Undo takes back the last water");
    check(await fleetLeft() === "0", "and the fleet panel follows");
    await page.click("#redo");
    check(await state(...last) === ".", "Redo puts it back");

    // 6. A hint on a board with a mistake says so, and marks it on request.
    let wrongAt = null;
    for (let r = 0; r < rows && !wrongAt; r++) {
      for (let c = 0; c < cols && !wrongAt; c++) {
        if ((await state(r, c)) === "?" && !isShip(solution[r][c])) wrongAt = [r, c];
      }
    }
    await cell(...wrongAt).click();
    check(await message() === "", "an edit clears the old message");
    await page.click("#hint");
    await waitMessage("mistake");
    await page.getByRole("button", { name: "Mark the mistakes" }).click();
    await page.waitForSelector("#board .cell.wrong");
    check(await page.locator("#board .cell.wrong").count() === 1, "the hint offers to mark the one mistake, and does");
    await cell(...wrongAt).click(); // clears it
    check(await state(...wrongAt) === "?", "a click on a ship part clears it");
    await page.click("#hint");
    await page.waitForSelector("#board .cell.hinted");
    const hinted = page.locator("#board .cell.hinted");
    const [hr, hc] = [Number(await hinted.getAttribute("data-row")), Number(await hinted.getAttribute("data-col"))];
    check((await message()).includes("water") === !isShip(solution[hr][hc]), `the hint is right about (${hr}, ${hc})`);
    check((await page.textContent("#hint-text")).length > 10, "the hint gives its reason: " + (await page.textContent("#hint-text")));
    check((await page.textContent("#hint-text")).startsWith(`Row ${hr + 1}, column ${hc + 1} is `) &&
      !(await page.textContent("#hint-text")).includes(" other "), "the hint names its rule in one sentence, no long list");
    check(await page.isVisible("#hint-details summary") && (await page.getAttribute("#hint-details", "open")) === null &&
      (await page.textContent("#hint-reason")).startsWith(`Row ${hr + 1}, column ${hc + 1} is `),
      "the whole reason stays folded under Details: " + (await page.textContent("#hint-reason")));
    await page.screenshot({ path: join(shots, "web.png") });
    check(true, "desktop screenshot written to " + join(shots, "web.png"));

    // 7. A reload restores the cells, the undo history and the timer.
    await page.waitForTimeout(1100);
    const before = await page.evaluate(() => ({ cells: game.cells.join(""), history: game.history.length, elapsed: elapsed() }));
    await page.reload();
    await page.waitForFunction((src) => game.key === src && document.querySelectorAll("#board .cell").length > 0, body);
    const after = await page.evaluate(() => ({ cells: game.cells.join(""), history: game.history.length, elapsed: elapsed() }));
    check(after.cells === before.cells, "a reload restores the cells");
    check(after.history === before.history && after.history > 0, `a reload restores the undo history (${after.history} steps)`);
    check(after.elapsed >= before.elapsed && before.elapsed >= 1000, `a reload keeps the timer (${before.elapsed} -> ${after.elapsed} ms)`);
    await page.click("#undo");
    check(await state(...wrongAt) === "s", "undo works across the reload (the mistake is back)");
    await page.click("#redo");
    check(await state(...wrongAt) === "?", "and so does redo");
    await page.locator("#recent-box summary").click();
    check(await page.locator("#recent button").count() >= 2, "the recent puzzles list holds the first puzzle and this one");

    // 8. Solve asks first; "Reveal one cell" fills one right cell.
    await page.click("#solve");
    check(await page.isVisible("#confirm-solve"), "Solve asks first");
    const open = (await page.evaluate(() => game.cells.filter((c) => c === "?").length));
    await page.click("#reveal-one");
    await page.waitForFunction((n) => game.cells.filter((c) => c === "?").length === n - 1, open);
    check(!(await page.isVisible("#confirm-solve")), "Reveal one cell fills one cell and closes the question");

    // 9. Every control is reached with Tab, and the game is finished with the keyboard alone.
    await page.locator("#recent-box summary").click();
    await page.evaluate(() => document.activeElement.blur());
    const reached = new Set();
    for (let k = 0; k < 40; k++) {
      await page.keyboard.press("Tab");
      reached.add(await page.evaluate(() => document.activeElement.id || document.activeElement.textContent.trim()));
    }
    for (const id of ["board", "mode-ship", "mode-water", "undo", "redo", "hint", "check", "solve", "generate", "share", "download", "Import"]) {
      check(reached.has(id), `Tab reaches ${id}`);
    }
    await page.focus("#board");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowLeft");
    check((await page.textContent("#announce")).startsWith("Row "), "a cursor move is announced: " + (await page.textContent("#announce")));
    const cursor = await page.evaluate(() => game.cursor);
    for (let r = 0; r < cursor.row; r++) await page.keyboard.press("ArrowUp");
    for (let c = 0; c < cursor.col; c++) await page.keyboard.press("ArrowLeft");
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const now = await page.evaluate(([rr, cc]) => game.cells[rr * game.puzzle.cols + cc], [r, c]);
        const want = isShip(solution[r][c]);
        if (now === "?" || isShip(now) !== want) {
          if (now !== "?") await page.keyboard.press("Backspace");
          await page.keyboard.press(want ? "s" : "w");
        }
        if (c < cols - 1) await page.keyboard.press("ArrowRight");
      }
      for (let c = 0; c < cols - 1; c++) await page.keyboard.press("ArrowLeft");
      if (r < rows - 1) await page.keyboard.press("ArrowDown");
    }
    await waitMessage("Solved in");
    check(/Solved in \d+:\d\d\./.test(await message()), "finishing shows " + (await message()));
    const stopped = await page.textContent("#timer");
    await page.waitForTimeout(1200);
    check(await page.textContent("#timer") === stopped, `the timer stopped at ${stopped}`);
    await page.waitForFunction(() => game.grade !== null);
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#message").textContent.includes("Solved in"));
    check((await message()).includes("Grade:"), "the finished game reopens finished, with its grade: " + (await message()));
    check(await page.isVisible("#banner") && (await page.textContent("#banner-text")).includes("assisted"),
      "its banner comes back, marked assisted (Reveal one cell was used): " + (await page.textContent("#banner-text")));
    await audit(page, "on the finished desktop page");

    // 10. The other buttons.
    await page.click("#unique");
    await waitMessage("exactly one solution");
    check(true, "Is it unique? says unique");
    await page.click("#grade-button");
    await page.waitForFunction(() => /Easy|Medium|Hard|Fiendish/.test(document.querySelector("#message").textContent));
    check((await page.locator("#message details").count()) === 1, "the grade is in words, the solver's terms in a details fold");
    await page.click("#share");
    await page.waitForSelector("#share-box:not([hidden])");
    check((await page.inputValue("#share-url")) === puzzlink, "Share gives the puzz.link URL");
    const download = page.waitForEvent("download");
    await page.click("#download");
    check((await download).suggestedFilename() === "bimaru.svg", "Download SVG saves bimaru.svg");

    // 11. Import: a file, a pasted 30x30 board that fits the window, a puzzle with two solutions.
    await page.locator("#import summary").click();
    await page.setInputFiles("#file", join(repo, "puzzles/ist-example.txt"));
    await page.waitForFunction((src) => game.key === src, body);
    check(true, "Open file… opens the IST example, as it was left");
    await page.fill("#input", readFileSync(join(repo, "puzzles/generated/30x30/001.json"), "utf8"));
    await page.click("#open-text");
    await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 900);
    const fit = await page.locator("#board").boundingBox();
    check(fit.x + fit.width <= 1200 && fit.y + fit.height <= 900,
      `a 30x30 board fits the 1200x900 window (${Math.round(fit.width)}x${Math.round(fit.height)})`);
    await cell(29, 29).click({ button: "right" });
    check(await state(29, 29) === "." || (await page.evaluate(() => game.given[899] !== null)), "the 30x30 board takes clicks");
    const small = await page.evaluate(() => document.querySelector("#board").style.getPropertyValue("--cell"));
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.fill("#input", puzzlink);
    await page.click("#open-text");
    await page.waitForFunction((src) => game.key === src, body);
    const big = await page.locator("#board").boundingBox();
    check(big.width > 500, `the board scales up on a 1920x1080 window (${Math.round(big.width)} px wide; 30x30 cells were ${small})`);
    const two = { rows: 2, cols: 2, row_counts: [null, null], col_counts: [null, null], fleet: { "1": 1 }, clues: [] };
    await page.fill("#input", JSON.stringify(two));
    await page.click("#open-text");
    await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 4);
    await page.click("#unique");
    await page.waitForSelector("#second-box:not([hidden])");
    check((await message()).includes("more than one solution"), "Is it unique? says not unique");
    check(await page.locator('#second .cell[data-shape="c"]').count() === 1, "the second solution is drawn, with its submarine");
    await page.selectOption("#size", "8x8");
    await page.click("#generate");
    await waitMessage("New 8x8");
    check(await page.locator("#board .cell").count() === 64, "New puzzle makes an 8x8 board");
    // The next puzzle is asked for while this one is played. Once it has come, "New puzzle"
    // shows it without waiting for the server, which from here on takes 3 s to answer.
    await page.waitForFunction(() => upcoming !== null);
    await page.evaluate(() => upcoming.answer);
    await page.route("**/api/generate", async (route) => {
      await new Promise((done) => setTimeout(done, 3000));
      // The page may have cancelled the request meanwhile (a new Size or Grade does).
      await route.continue().catch(() => {});
    });
    const shown = await page.evaluate(() => game.key);
    await page.click("#generate");
    await page.waitForFunction((k) => game.key !== k && document.querySelectorAll("#board .cell").length === 64, shown, { timeout: 1500 });
    check(true, "New puzzle shows the puzzle asked for in advance at once (the server now answers in 3 s)");
    await page.unroute("**/api/generate");

    // 12. Puzzles on tap: every size up to 30x30 in the menu; five Size/Grade changes in a row
    // cancel the requests made for them (the server stops their work), so that a 10x10 easy
    // asked for next appears within a second; its grade is shown with it.
    const sizes = await page.locator("#size option").allTextContents();
    check(["10x10", "12x12", "15x15", "20x20", "25x25", "30x30"].every((s) => sizes.includes(s)),
      "the size menu offers every size up to 30x30: " + sizes.join(", "));
    await page.selectOption("#grade", "fiendish");
    await page.selectOption("#size", "6x6");
    const fiendishOff = () => page.$eval('#grade option[value="fiendish"]', (o) => o.disabled);
    check(await fiendishOff() && (await page.inputValue("#grade")) === "hard" && (await message()).includes("hardest"),
      "at 6x6 the grade menu does not offer fiendish (none exists) and says hard is the hardest: " + (await message()));
    await page.selectOption("#size", "10x10");
    check(!(await fiendishOff()), "at 10x10 it offers fiendish again");
    // The server's pool and its stock answer every kind at once, so each request is held back
    // here for 2 s (all but the 10x10 easy's) to stand for a server still making it: each must be
    // cancelled by the page when the next change comes. (That the server then stops its work is
    // `a_client_that_goes_away_stops_its_generation`.)
    await page.selectOption("#grade", "");
    await page.waitForFunction(() => upcoming !== null);
    await page.evaluate(() => upcoming.answer);
    const generate = [];
    const ending = (r, how) => {
      const g = generate.find((g) => g.request === r);
      if (g && !g.ended) g.ended = how;
    };
    page.on("request", (r) => {
      if (r.url().endsWith("/api/generate")) generate.push({ request: r, ended: null });
    });
    page.on("requestfinished", (r) => ending(r, "answered"));
    page.on("requestfailed", (r) => ending(r, "cancelled: " + (r.failure() && r.failure().errorText)));
    await page.route("**/api/generate", async (route) => {
      const asked = JSON.parse(route.request().postData() || "{}");
      if (!(asked.size === "10x10" && asked.grade === "easy")) await new Promise((done) => setTimeout(done, 2000));
      await route.continue().catch(() => {});
    });
    for (const [menu, choice] of [["#size", "20x20"], ["#grade", "hard"], ["#size", "30x30"], ["#grade", "fiendish"], ["#size", "25x25"]]) {
      await page.selectOption(menu, choice);
      await page.waitForTimeout(300);
    }
    const during = generate.length;
    const before10 = await page.evaluate(() => game.key);
    const asked = Date.now();
    await page.selectOption("#size", "10x10");
    await page.selectOption("#grade", "easy");
    await page.click("#generate");
    await page.waitForFunction((k) => game.key !== k && document.querySelectorAll("#board .cell").length === 100, before10, { timeout: 10000 });
    const took = Date.now() - asked;
    await page.waitForTimeout(200); // the aborts' events
    await page.unroute("**/api/generate");
    const endings = generate.slice(0, during).map((g) => g.ended || "still running");
    check(during === 5 && endings.every((e) => e === "cancelled: net::ERR_ABORTED"),
      `the requests for the five changes were cancelled as the next came (${during} requests: ${endings.join(", ")})`);
    check(took <= 1000, `after five Size/Grade changes a 10x10 easy appears within 1 s (${took} ms)`);
    check((await page.textContent("#puzzle-info")).includes("grade: easy"), "its grade is shown with it: " + (await page.textContent("#puzzle-info")));

    // 13. A solve worth finishing: this 10x10 played to the end shows the banner and saves a best
    // time; Next puzzle gives a new board at the same settings; Solve (and Solve, Undo, Redo)
    // is marked assisted and sets no best time.
    await page.click("#mode-ship");
    const target = await page.evaluate(() => ({ rows: game.solution, given: game.given }));
    for (let r = 0; r < 10; r++) {
      for (let c = 0; c < 10; c++) {
        if (target.rows[r][c] !== "." && !target.given[r * 10 + c]) await cell(r, c).click();
      }
    }
    await page.waitForSelector("#banner:not([hidden])");
    const banner = () => page.textContent("#banner-text");
    check(/^Solved in \d+:\d\d — 10x10 easy\./.test(await banner()), "playing a 10x10 to the end shows the banner: " + (await banner()));
    check(await page.getAttribute("#banner", "role") === "status", "the banner is a status");
    const bests = () => page.evaluate(() => JSON.parse(localStorage.getItem("bimaru.best")) || {});
    const best = (await bests())["10x10 easy"];
    check(typeof best === "number" && best >= 0, `the best time of 10x10 easy is saved (${best} ms)`);
    check((await banner()).includes("best time") || (await banner()).includes("Best:"), "the banner names the best time");
    const solvedKey = await page.evaluate(() => game.key);
    await page.click("#next-puzzle");
    await page.waitForFunction((k) => game.key !== k && !game.solved && document.querySelectorAll("#board .cell").length === 100, solvedKey);
    check(await page.isHidden("#banner"), "Next puzzle gives a new 10x10 board, and the banner goes");
    check((await page.textContent("#puzzle-info")).includes("grade: easy"), "at the same settings: " + (await page.textContent("#puzzle-info")));
    await page.click("#solve");
    await page.click("#solve-yes");
    await page.waitForSelector("#banner:not([hidden])");
    check((await banner()).includes("assisted"), "after Solve the result says assisted: " + (await banner()));
    await page.click("#undo");
    check(await page.isHidden("#banner"), "Undo after Solve reopens the game");
    await page.click("#redo");
    await page.waitForSelector("#banner:not([hidden])");
    check((await banner()).includes("assisted") && (await page.evaluate(() => game.solved)),
      "Solve, Undo, Redo is still an assisted solve: " + (await banner()));
    check((await bests())["10x10 easy"] === best, "and sets no best time");

    // 14. Keys wherever the focus is, except in text fields; the fleet panel is one Tab stop.
    const solvedOne = await page.evaluate(() => game.key);
    await page.click("#generate");
    await page.waitForFunction((k) => game.key !== k && !game.solved && game.solution !== null, solvedOne);
    const free = await page.evaluate(() => {
      const i = game.cells.findIndex((c, j) => c === "?" && game.solution[Math.floor(j / game.puzzle.cols)][j % game.puzzle.cols] === ".");
      return [Math.floor(i / game.puzzle.cols), i % game.puzzle.cols];
    });
    await cell(...free).click({ button: "right" });
    check(await state(...free) === ".", "a move: water at " + free);
    await page.click("#hint");
    await page.waitForSelector("#board .cell.hinted");
    check(await page.evaluate(() => document.activeElement.id) === "hint", "the focus is on Hint after clicking it");
    await page.keyboard.press("Control+z");
    check(await state(...free) === "?", "after clicking Hint, Ctrl+Z undoes the last move");
    await page.keyboard.press("Control+y");
    check(await state(...free) === ".", "Ctrl+Y redoes it");
    await page.keyboard.press("u");
    check(await state(...free) === "?", "u undoes it");
    await page.keyboard.press("r");
    check(await state(...free) === ".", "r redoes it");
    check(await page.locator("#board .cell.hinted").count() === 0, "the edits cleared the hint");
    await page.keyboard.press("h");
    await page.waitForSelector("#board .cell.hinted");
    check(true, "h asks for a hint");
    await page.keyboard.press("c");
    await waitMessage("No mistakes");
    check(true, "c checks: " + (await message()));
    await page.keyboard.press("m");
    check(await page.getAttribute("#mode-water", "aria-pressed") === "true", "m switches to water mode");
    await page.keyboard.press("m");
    check(await page.getAttribute("#mode-ship", "aria-pressed") === "true", "and back to ship mode");
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press(" ");
    check(await page.getAttribute("#mode-water", "aria-pressed") === "true", "space off the board and buttons switches the mode too");
    await page.keyboard.press(" ");
    check(await page.getAttribute("#mode-ship", "aria-pressed") === "true", "and back");
    await page.evaluate(() => { document.querySelector("#import").open = true; });
    await page.fill("#input", "");
    await page.focus("#input");
    await page.keyboard.type("uhm");
    check(await state(...free) === "." && (await page.inputValue("#input")) === "uhm" &&
      (await page.getAttribute("#mode-ship", "aria-pressed")) === "true", "keys typed in a text field are text, not shortcuts");
    await page.focus("#board");
    await page.keyboard.press("Tab");
    check(await page.evaluate(() => document.activeElement.id) === "fleet-list", "Tab from the board reaches the fleet panel in one step");
    check((await page.getAttribute("#fleet-list", "aria-label")).startsWith("Fleet: "), "the fleet panel is named by a summary: " + (await page.getAttribute("#fleet-list", "aria-label")));
    check(await page.evaluate(() => [...document.querySelectorAll("#fleet-list .ship-icon")].every((b) => b.tabIndex === -1)),
      "no fleet icon is a Tab stop");
    await page.keyboard.press("ArrowRight");
    const icon = await page.evaluate(() => document.activeElement.id);
    check(icon.startsWith("ship-"), "an arrow key picks a ship of the fleet: " + icon);
    await page.keyboard.press("Enter");
    check(await page.getAttribute("#" + icon, "aria-pressed") === "true", "Enter crosses it off, and the focus stays on it");
    check(await page.evaluate(() => document.activeElement.id) === icon, "the focus stays on the ship");

    // 15. Hints a player can follow: the board highlights the cells and counts a hint cites
    // (the server's answer names them); the hinted cells are filled in turn until a hint cites
    // cells, not only counts. Hints with the fewest rules come first, so on some boards a dozen
    // or more cite only a count (a row of 0, a full column) before the first that cites cells:
    // the loop goes on while cells are open.
    let answer = null;
    const cellCount = await page.evaluate(() => game.cells.length);
    for (let k = 0; k < cellCount; k++) {
      const asked = page.waitForResponse((r) => r.url().endsWith("/api/hint"));
      await page.click("#hint");
      answer = await (await asked).json();
      if (answer.status !== "hint") break;
      await page.waitForSelector("#board .cell.hinted");
      if (answer.cells.length) break;
      const at = cell(answer.row, answer.col);
      if (answer.content === "water") await at.click({ button: "right" });
      else await at.click();
    }
    check(answer.cells.length > 0, `a hint cites cells: ${JSON.stringify(answer.cells)} and counts: rows ${answer.rows}, columns ${answer.cols}`);
    const lit = await page.$$eval("#board .cell.cited", (ds) => ds.map((d) => `${d.dataset.row},${d.dataset.col}`).sort().join(" "));
    check(lit === answer.cells.map(([r, c]) => `${r},${c}`).sort().join(" "), `after a hint the cited cells are highlighted (${lit})`);
    const litCounts = await page.$$eval("#board .count.cited", (ds) => ds.map((d) => (d.dataset.row !== undefined ? "row-" + d.dataset.row : "col-" + d.dataset.col)).sort().join(" "));
    check(litCounts === [...answer.rows.map((r) => "row-" + r), ...answer.cols.map((c) => "col-" + c)].sort().join(" "),
      `and so are the counts it cites (${litCounts})`);
    const [cr, cc] = answer.cells[0];
    check((await cell(cr, cc).getAttribute("aria-label")).includes("cited by the hint"), "a cited cell's name says so: " + (await cell(cr, cc).getAttribute("aria-label")));
    check(await cell(cr, cc).evaluate((d) => getComputedStyle(d).outlineStyle) === "dashed", "cited cells have a dashed frame, not colour alone");
    check((await page.textContent("#hint-text")).split(". ").length === 1, "the hint box holds one sentence: " + (await page.textContent("#hint-text")));
    check((await page.textContent("#hint-reason")).startsWith(answer.text), "and Details the whole reason, with how it was found: " + (await page.textContent("#hint-reason")));
    check(await page.locator("#message details").count() === 0, "the message above holds no second Details");
    await audit(page, "with a hint's cells highlighted");

    // 16. An honest board, on an empty 10x10 with the standard fleet (row 1's count 3): a ship
    // part beside open cells is not drawn as an end, and its name says what is open.
    const empty = {
      rows: 10, cols: 10, row_counts: [3, ...Array(9).fill(null)], col_counts: Array(10).fill(null),
      fleet: { "4": 1, "3": 2, "2": 3, "1": 4 }, clues: [],
    };
    await page.fill("#input", JSON.stringify(empty));
    await page.click("#open-text");
    await page.waitForFunction(() => game.puzzle.clues.length === 0 && game.puzzle.row_counts[0] === 3 && game.cells.every((c) => c === "?"));
    await waitMessage("more than one solution");
    await page.click("#mode-ship");
    const name = (r, c) => cell(r, c).getAttribute("aria-label");
    await cell(5, 5).click();
    check(await shape(5, 5) === "s" && (await name(5, 5)).endsWith(": ship, open on all sides"),
      "a lone ship part among open cells is square and named so: " + (await name(5, 5)));
    await cell(5, 4).click({ button: "right" });
    check(await shape(5, 5) === "s" && (await name(5, 5)).includes("open") && !(await name(5, 5)).includes("end"),
      "an isolated ship cell beside open cells is not drawn as an end: " + (await name(5, 5)));
    await cell(5, 6).click();
    check(await shape(5, 5) === "l" && (await name(5, 5)).endsWith(": ship, left end"),
      "with water on its left and a ship part on its right it is a left end: " + (await name(5, 5)));
    check(await shape(5, 6) === "s" && (await name(5, 6)).endsWith(": ship, open on the right"),
      "the part beside it, open on the right, is not an end: " + (await name(5, 6)));
    await cell(5, 7).click({ button: "right" });
    check(await shape(5, 6) === "r", "water beyond it makes it a right end");

    // 17. Rules shown as they break, before Check: a second 4-ship (the standard fleet has one),
    // two ships touching at a corner, a row with more ship parts than its count; then Check
    // names each rule broken.
    const drag = async (from, to, button = "left") => {
      const b = await box(cell(...from)), e = await box(cell(...to));
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
      await page.mouse.down({ button });
      await page.mouse.move(e.x + e.width / 2, e.y + e.height / 2, { steps: 6 });
      await page.mouse.up({ button });
    };
    await drag([0, 0], [0, 3]);
    await cell(0, 4).click({ button: "right" });
    await drag([1, 0], [1, 4], "right");
    const fours = page.locator('#fleet-list li[data-length="4"]');
    check(await fours.getAttribute("data-placed") === "1" && !(await fours.getAttribute("class") || "").includes("over"),
      "one closed 4-ship is placed, and that is the fleet's");
    const rowOne = page.locator('#board .count[data-row="0"]');
    check((await rowOne.getAttribute("class")).includes("over") && (await rowOne.getAttribute("aria-label")).includes("too many"),
      "row 1 with 4 ship parts and a count of 3 is marked at once: " + (await rowOne.getAttribute("aria-label")));
    await drag([2, 0], [2, 3]);
    await cell(2, 4).click({ button: "right" });
    await drag([3, 0], [3, 4], "right");
    check((await fours.getAttribute("class") || "").includes("over") && (await fours.textContent()).includes("2 of 1 placed: one too many"),
      "a second 4-ship marks the fleet panel's row before Check: " + (await fours.textContent()));
    check((await page.getAttribute("#fleet-list", "aria-label")).includes("one too many"), "and the fleet panel's name says so");
    await cell(6, 7).click();
    for (const [r, c] of [[5, 6], [6, 7]]) {
      check((await cell(r, c).getAttribute("class")).includes("breaks") && (await name(r, c)).includes("touches another ship"),
        `two ships touching at a corner are both marked before Check: ${await name(r, c)}`);
    }
    check(await page.locator("#board .cell.breaks").count() === 2, "and no other cell is");
    check(await page.locator("#board .cell.breaks").first().evaluate((d) => getComputedStyle(d, "::after").content) === '"!"',
      "the mark is not colour alone: a \"!\" in the cell's corner");
    await page.click("#check");
    await waitMessage("its count is");
    const said = await message();
    check(said.includes("Row 1 has 4 ship cells; its count is 3."), "Check names the count broken: " + said);
    check(said.includes("Ships touch at row 6, column 7 and row 7, column 8: ships never touch, not even at a corner."),
      "Check names the no-touch rule");
    check(said.includes("2 ships of length 4 are placed; the fleet has one."), "Check names the fleet rule");
    await audit(page, "with rule breaks marked");

    // 18. Trial mode: marks in another colour (and named so), accepted or thrown away together;
    // normal marks stay as they are meanwhile; undo, redo, a reload and the rule marks cover
    // trial marks.
    const trials = page.locator("#board .cell.trial");
    check(await page.isHidden("#trial-box"), "no trial box before a trial");
    const switchBox = await box(page.locator("#trial"));
    check(switchBox.width >= 44 && switchBox.height >= 44,
      `the Trial switch is thumb-sized (${Math.round(switchBox.width)}x${Math.round(switchBox.height)})`);
    await page.keyboard.press("t");
    check(await page.getAttribute("#trial", "aria-pressed") === "true" && await page.isVisible("#trial-box"),
      "t turns trial mode on, and shows Accept trial and Discard trial");
    await cell(8, 1).click();
    await cell(8, 3).click({ button: "right" });
    check(await trials.count() === 2 && await state(8, 1) === "s" && await state(8, 3) === ".",
      "a ship part and water marked in trial mode are trial marks");
    check((await name(8, 1)).includes("ship") && (await name(8, 1)).includes("(trial)") && (await name(8, 3)).includes("water (trial)"),
      `and named so: "${await name(8, 1)}", "${await name(8, 3)}"`);
    const colour = (r, c) => cell(r, c).locator(".piece").evaluate((p) => getComputedStyle(p).backgroundColor);
    check(await colour(8, 1) !== await colour(5, 5), `drawn in another colour (${await colour(8, 1)}, a normal part ${await colour(5, 5)})`);
    await cell(5, 5).click();
    check(await state(5, 5) === "s" && (await message()).includes("normal marks stay"), "a normal mark stays as it is during a trial: " + (await message()));
    await cell(7, 0).click();
    check((await cell(7, 0).getAttribute("class")).includes("breaks"), "the live rule marks count trial marks (a trial part touching another at a corner)");
    await page.click("#undo");
    check(await trials.count() === 2 && await state(7, 0) === "?", "Undo takes back a trial mark");
    await page.click("#redo");
    check(await trials.count() === 3 && (await name(7, 0)).includes("(trial)"), "Redo puts it back as a trial mark");
    await page.click("#trial-discard");
    check(await trials.count() === 0 && await state(8, 1) === "?" && await state(8, 3) === "?" && await state(7, 0) === "?" && await state(5, 5) === "s",
      "Discard trial removes every trial mark and nothing else");
    check(await page.getAttribute("#trial", "aria-pressed") === "false", "and ends the trial");
    await page.keyboard.press("u");
    check(await trials.count() === 3, "Undo brings the discarded trial marks back");
    await audit(page, "with trial marks");
    const trialKey = await page.evaluate(() => game.key);
    await page.reload();
    await page.waitForFunction((k) => game.key === k && document.querySelectorAll("#board .cell").length === 100, trialKey);
    check(await trials.count() === 3 && (await name(8, 1)).includes("(trial)"), "a reload keeps the trial marks");
    await page.click("#trial-accept");
    check(await trials.count() === 0 && await state(8, 1) === "s" && await state(8, 3) === "." && await state(7, 0) === "s",
      "Accept trial makes them normal marks");
    await page.keyboard.press("u");
    check(await trials.count() === 3, "and Undo makes them trial marks again");
    if (process.env.BIMARU_E2E_EXTRA_SHOT) await page.screenshot({ path: process.env.BIMARU_E2E_EXTRA_SHOT });
  } finally {
    await context.close();
  }
}

async function phone() {
  const { context, page } = await browser({ width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const { cell, state } = helpers(page);
  try {
    await page.goto(base + "?p=" + encodeURIComponent(body));
    await page.waitForFunction((src) => game.key === src, body);
    const board = await page.locator("#board").boundingBox();
    check(board.y < 80, `on a phone the board comes first (${Math.round(board.y)} px down)`);
    check(board.x >= 0 && board.x + board.width <= 390, `and fits the width (${Math.round(board.width)} px)`);
    // Thumb-sized targets: the mode switch is on the first screen, each half at least 44x44 px,
    // and every button shown at least 44 px tall.
    for (const id of ["mode-ship", "mode-water"]) {
      const b = await page.locator("#" + id).boundingBox();
      check(b.width >= 44 && b.height >= 44 && b.y >= 0 && b.y + b.height <= 844,
        `on a phone ${id} is on the first screen and thumb-sized (${Math.round(b.width)}x${Math.round(b.height)} at y ${Math.round(b.y)})`);
    }
    const small = await page.evaluate(() => [...document.querySelectorAll("button")]
      .filter((b) => b.offsetParent !== null && b.getBoundingClientRect().height < 44)
      .map((b) => `${b.id || b.textContent.trim()} ${b.getBoundingClientRect().height}`));
    check(small.length === 0, "every button shown on a phone is at least 44 px tall" + (small.length ? ": " + small.join(", ") : ""));
    // Taps with the mode switch: water, then ship.
    const open = [];
    for (let r = 0; r < rows && open.length < 2; r++) {
      for (let c = 0; c < cols && open.length < 2; c++) if (!isShip(solution[r][c]) && (await state(r, c)) === "?") open.push([r, c]);
    }
    await page.tap("#mode-water");
    await cell(...open[0]).tap();
    check(await state(...open[0]) === ".", "in water mode a tap makes water");
    await page.tap("#mode-ship");
    await cell(...open[1]).tap();
    check(await state(...open[1]) === "s", "in ship mode a tap makes a ship part");
    await page.tap("#undo");
    await page.tap("#hint");
    await page.waitForSelector("#board .cell.hinted");
    const hint = await page.locator("#hint-box").boundingBox();
    const after = await page.locator("#board").boundingBox();
    check(hint.y >= after.y + after.height && hint.y - (after.y + after.height) < 120,
      `the hint sits right under the board (${Math.round(hint.y - after.y - after.height)} px below)`);
    check(hint.y + hint.height <= 844, "and on the first screen");
    const mode = await page.locator("#mode-water").boundingBox();
    check(mode.y + mode.height <= 844, `with the hint shown, the mode switch is still on the first screen (y ${Math.round(mode.y)})`);
    // The hint box shows at most 3 lines; a longer reason folds behind "more".
    const lines = () => page.evaluate(() => {
      const p = document.querySelector("#hint-text");
      return p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight);
    });
    check(await lines() <= 3.05, `the hint box shows at most 3 lines (${(await lines()).toFixed(1)})`);
    const reason = await page.textContent("#hint-text");
    await page.evaluate((t) => { game.hintText = t; drawHint(); }, (reason + " ").repeat(6).trim());
    check(await lines() <= 3.05 && await page.isVisible("#hint-more"), `a long reason is cut to 3 lines (${(await lines()).toFixed(1)}), with "more"`);
    const more = await page.locator("#hint-more").boundingBox();
    check(more.height >= 44 && more.width >= 44, `"more" is thumb-sized (${Math.round(more.width)}x${Math.round(more.height)})`);
    await page.tap("#hint-more");
    check(await lines() > 3.5 && (await page.getAttribute("#hint-more", "aria-expanded")) === "true",
      `"more" shows the whole reason (${(await lines()).toFixed(1)} lines)`);
    await page.tap("#hint-more");
    check(await lines() <= 3.05, "and \"less\" folds it again");
    await page.evaluate((t) => { game.hintText = t; drawHint(); }, reason);
    await page.screenshot({ path: join(shots, "web-phone.png") });
    check(true, "phone screenshot written to " + join(shots, "web-phone.png"));
    await audit(page, "on the phone layout");
  } finally {
    await context.close();
  }
}

// The page's rough edges (issue 50): the controls stay where they are whatever the message area
// holds (at 1200x900 and at 390x844); a hint counts as help, so a game solved with one sets no
// best time; New puzzle never reopens a game already played, even when the pool's ready puzzles
// and its stock of a kind come round again (20 clicks of 10x10 easy give 20 puzzles not seen
// before, each within 3 s; the same for 20x20 hard, its times printed); a ship part placed
// against a clue's closed side is marked at once and named by Check.
async function roughEdges(viewport, extra = {}) {
  const { context, page } = await browser(viewport, extra);
  const { cell, state, message, waitMessage } = helpers(page);
  const at = ` at ${viewport.width}x${viewport.height}`;
  try {
    await page.goto(base);
    await page.waitForFunction(() => game.puzzle && document.querySelectorAll("#board .cell").length > 0);
    await page.selectOption("#size", "10x10");
    await page.selectOption("#grade", "easy");
    const shown = await page.evaluate(() => game.key);
    await page.click("#generate");
    await page.waitForFunction((k) => game.key !== k && game.solution !== null && document.querySelectorAll("#board .cell").length === 100, shown);
    await page.click("#mode-ship");
    // The toolbar's buttons, where they are: a hint, a message and their clearing move none.
    const controls = () => page.evaluate(() => ["mode-ship", "mode-water", "undo", "hint", "check", "solve"].map((id) => {
      const b = document.getElementById(id).getBoundingClientRect();
      return `${id} ${Math.round(b.x + scrollX)},${Math.round(b.y + scrollY)} ${Math.round(b.width)}x${Math.round(b.height)}`;
    }).join("; "));
    const before = await controls();
    await page.click("#hint");
    await page.waitForSelector("#board .cell.hinted");
    check(await page.isVisible("#hint-box") && (await controls()) === before,
      `a hint appears and the toolbar stays where it was${at}: ${before}` + ((await controls()) === before ? "" : ` / now ${await controls()}`));
    await page.keyboard.press("m");
    await waitMessage("Mode: water");
    await page.keyboard.press("m");
    check((await controls()) === before, `a message changes and the toolbar stays${at}`);
    await page.click("#check");
    await waitMessage("No mistakes");
    check((await controls()) === before, `Check's message and the toolbar stays${at}: ${await message()}`);
    const water = await page.evaluate(() => {
      const i = game.cells.findIndex((c, j) => c === "?" && game.solution[Math.floor(j / game.puzzle.cols)][j % game.puzzle.cols] === ".");
      return [Math.floor(i / game.puzzle.cols), i % game.puzzle.cols];
    });
    await cell(...water).click({ button: "right" });
    await page.waitForFunction(() => document.querySelector("#hint-box").hidden && !document.querySelector("#message").textContent);
    check((await controls()) === before, `the message and hint clear and the toolbar stays${at}`);
    if (viewport.width < 700) return;

    // A hint is help: the game it was asked in, solved, sets no best time.
    const bests = () => page.evaluate(() => JSON.parse(localStorage.getItem("bimaru.best")) || {});
    const best = (await bests())["10x10 easy"];
    const target = await page.evaluate(() => ({ rows: game.solution, given: game.given }));
    for (let r = 0; r < 10; r++) {
      for (let c = 0; c < 10; c++) {
        if (target.rows[r][c] !== "." && !target.given[r * 10 + c] && (await state(r, c)) === "?") await cell(r, c).click();
      }
    }
    await page.waitForSelector("#banner:not([hidden])");
    const banner = await page.textContent("#banner-text");
    check(banner.includes("assisted (Hint, Solve or Reveal was used): no best time") && !banner.includes("new best"),
      "a game solved after a hint is assisted and gets no new best time: " + banner);
    check((await bests())["10x10 easy"] === best, `and the best time of 10x10 easy stays ${best} ms`);

    // New puzzle never reopens a game already played.
    for (const [size, grade] of [["10x10", "easy"], ["20x20", "hard"]]) {
      await page.selectOption("#size", size);
      await page.selectOption("#grade", grade);
      const played = new Set(await page.evaluate(() => JSON.parse(localStorage.getItem("bimaru.seen")) || []));
      const keys = [], times = [], said = [];
      let seeded = 0;
      const count = (request) => {
        if (request.url().endsWith("/api/generate") && JSON.parse(request.postData() || "{}").seed !== undefined) seeded++;
      };
      page.on("request", count);
      // Every message the page shows, however briefly.
      await page.evaluate(() => {
        window.saidLog = [];
        new MutationObserver(() => window.saidLog.push(document.querySelector("#message").textContent))
          .observe(document.querySelector("#message"), { childList: true, subtree: true, characterData: true });
      });
      for (let k = 0; k < 20; k++) {
        const key = await page.evaluate(() => game.key);
        const t0 = Date.now();
        await page.click("#generate");
        await page.waitForFunction((prev) => game.key !== prev && game.puzzle.rows * game.puzzle.cols === document.querySelectorAll("#board .cell").length,
          key, { timeout: 20000 });
        times.push(Date.now() - t0);
        keys.push(await page.evaluate(() => game.key));
        said.push(await message());
      }
      page.off("request", count);
      const fresh = keys.filter((k) => !played.has(k));
      const making = (await page.evaluate(() => window.saidLog)).filter((m) => m.includes("making a fresh one")).length;
      console.log(`${size} ${grade}: ${seeded} made fresh from a random seed, ${making} times said so`);
      // A fresh 20x20 hard takes long enough that New puzzle waits for it: the page says so.
      if (size === "20x20") {
        check(seeded > 0 && making > 0, `when the ready puzzles of ${size} ${grade} have all been played, the page makes fresh ones and says so while New puzzle waits (${seeded} made, said ${making} times)`);
      }
      console.log(`${size} ${grade}: New puzzle times (ms): ${times.join(", ")}`);
      check(new Set(keys).size === 20 && fresh.length === 20 && !said.some((m) => m.includes("as you left it")),
        `20 New puzzle clicks of ${size} ${grade} give 20 different puzzles, none played before (${new Set(keys).size} different, ${fresh.length} new)`);
      if (size === "10x10") check(Math.max(...times) <= 3000, `each within 3 s (worst ${Math.max(...times)} ms)`);
    }

    // A ship part against a clue's closed side is marked at once, and Check names it.
    const closed = {
      rows: 10, cols: 10, row_counts: Array(10).fill(null), col_counts: Array(10).fill(null),
      fleet: { "4": 1, "3": 2, "2": 3, "1": 4 }, clues: [{ row: 4, col: 4, piece: "left" }],
    };
    await page.evaluate(() => { document.querySelector("#import").open = true; });
    await page.fill("#input", JSON.stringify(closed));
    await page.click("#open-text");
    await page.waitForFunction(() => game.puzzle.clues.length === 1 && game.given[44] === "l" && game.cells.filter((c) => c !== "?").length === 1);
    await page.click("#mode-ship");
    await cell(4, 5).click();
    check(!(await cell(4, 5).getAttribute("class")).includes("breaks"), "a ship part on the open side of a left end breaks no rule");
    await cell(4, 3).click();
    const name = await cell(4, 3).getAttribute("aria-label");
    check((await cell(4, 3).getAttribute("class")).includes("breaks")
      && name.includes("breaks a rule: against the closed side of the left end at row 5, column 5"),
      "a ship part against a left end's closed side is marked at once: " + name);
    await page.click("#check");
    await waitMessage("closed side");
    check((await message()).includes("Row 5, column 4 is a ship part against the closed side of the left end at row 5, column 5: a left end's ship goes on to the right only."),
      "Check names it: " + (await message()));
  } finally {
    await context.close();
  }
}

// Puzzles on tap (issue 36; BIMARU_E2E_POOL_LOOP=0 leaves it out): a minute after the
// start (the server started just before this script), every size of the menu at every grade in
// turn, each chosen and asked for with New puzzle: each gives a puzzle, the median time from
// the choice to the new board is at most 1 s, the worst at most 3 s. Each time is printed, with
// whether the server's pool gave the puzzle (its Bimaru-Pool header: hit, stock or miss). A grade
// the menu does not offer at a size (6x6 fiendish: none exists) is listed, not asked for.
async function poolLoop() {
  const { context, page } = await browser({ width: 1200, height: 900 });
  try {
    await page.goto(base);
    await page.waitForFunction(() => game.puzzle && document.querySelectorAll("#board .cell").length > 0);
    const wait = started + 60_000 - Date.now();
    if (wait > 0) await page.waitForTimeout(wait);
    const pooled = [];
    page.on("response", (r) => {
      if (r.url().endsWith("/api/generate")) pooled.push(r.headers()["bimaru-pool"] || String(r.status()));
    });
    const sizes = await page.locator("#size option").allTextContents();
    const grades = await page.$$eval("#grade option", (options) => options.map((o) => o.value));
    const times = [], failed = [], notOffered = [];
    for (const size of sizes) {
      for (const value of grades) {
        const grade = value || "any";
        const n = Number(size.split("x")[0]) ** 2;
        const before = await page.evaluate(() => game.key);
        pooled.length = 0;
        const asked = Date.now();
        await page.selectOption("#size", size);
        if (await page.$eval(`#grade option[value="${value}"]`, (o) => o.disabled)) {
          notOffered.push(`${size} ${grade}`);
          continue;
        }
        await page.selectOption("#grade", value);
        await page.click("#generate");
        const outcome = await page.waitForFunction(([k, n]) => {
          if (game.key !== k && document.querySelectorAll("#board .cell").length === n) return "puzzle";
          const m = document.querySelector("#message");
          return m.classList.contains("error") && m.textContent ? "error: " + m.textContent : false;
        }, [before, n], { timeout: 30_000 }).then((h) => h.jsonValue()).catch(() => "no answer in 30 s");
        const took = Date.now() - asked;
        times.push(took);
        if (outcome !== "puzzle") failed.push(`${size} ${grade}: ${outcome}`);
        console.log(`pool loop: ${size} ${grade}: ${took} ms, ${outcome === "puzzle" ? "a puzzle" : outcome} (generate answers: ${pooled.join(", ") || "none"})`);
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    const worst = sorted[sorted.length - 1];
    console.log(`pool loop: ${times.length} puzzles asked for, median ${median} ms, worst ${worst} ms, ${failed.length} without a puzzle; not offered: ${notOffered.join(", ") || "none"}`);
    check(notOffered.join() === "6x6 fiendish", "the menu offers every size and grade but 6x6 fiendish: " + (notOffered.join(", ") || "all offered"));
    check(failed.length === 0, "every size and grade gives a puzzle" + (failed.length ? ": " + failed.join("; ") : ""));
    check(median <= 1000, `the median time to a new puzzle is at most 1 s (${median} ms)`);
    check(worst <= 3000, `the worst time to a new puzzle is at most 3 s (${worst} ms)`);
  } finally {
    await context.close();
  }
}

try {
  await desktop();
  await phone();
  await roughEdges({ width: 1200, height: 900 });
  await roughEdges({ width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  if (process.env.BIMARU_E2E_POOL_LOOP !== "0") await poolLoop();
  check(problems.length === 0, "no request to another host and no console error" + (problems.length ? ": " + problems.join("; ") : ""));
  console.log(`all ${checks} browser checks passed`);
} catch (e) {
  console.error(e.message);
  if (problems.length) console.error(problems.join("\n"));
  process.exitCode = 1;
} finally {
  for (const w of [1200, 390]) rmSync(profile + "-" + w, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}
