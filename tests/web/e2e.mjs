// The end-to-end test of `bimaru-sat serve` in a real browser: Debian's Chromium driven by
// playwright-core (no browser download). Run by tests/web.rs:
//
//   node tests/web/e2e.mjs BASE_URL PUZZLINK_URL SOLUTION_JSON SCREENSHOT_PNG
//
// BASE_URL is the server (http://127.0.0.1:PORT/), PUZZLINK_URL the puzzle, SOLUTION_JSON the
// CLI's solution rows (`bimaru-sat --to json`'s "grid"). It opens the page on the puzzle from a
// URL, plays cells and watches the counts change colour, undoes, asks for a hint and checks its
// cell against the solution, takes the screenshot, solves and compares the drawn grid with the
// CLI's, then opens a file, a pasted 30x30 board and a puzzle with two solutions, and makes a new
// puzzle. Any request to another host, or any error on the page's console, fails the test.
// Exit status 0 when every check passes.

import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const [base, puzzlink, solutionJson, screenshot] = process.argv.slice(2);
if (!screenshot) {
  console.error("usage: node e2e.mjs BASE_URL PUZZLINK_URL SOLUTION_JSON SCREENSHOT_PNG");
  process.exit(2);
}
const solution = JSON.parse(solutionJson);
const origin = new URL(base).origin;

let checks = 0;
function check(condition, what) {
  if (!condition) throw new Error("failed: " + what);
  checks++;
  console.log("ok: " + what);
}

const profile = mkdtempSync(join(tmpdir(), "bimaru-e2e-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    // --no-sandbox: CI runs as root in a container; --disable-dev-shm-usage: containers have a
    // small /dev/shm.
    "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
  viewport: { width: 1100, height: 720 },
});
const problems = [];
try {
  // The page needs nothing from elsewhere: every other request is refused and reported.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin + "/")) return route.continue();
    problems.push("request to another host: " + url);
    return route.abort();
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => m.type() === "error" && problems.push("console: " + m.text()));
  page.on("pageerror", (e) => problems.push("page error: " + e.message));

  // 1. The puzzle from a URL: /?p=<puzz.link body>.
  const body = puzzlink.slice(puzzlink.indexOf("?") + 1);
  await page.goto(base + "?p=" + encodeURIComponent(body));
  await page.waitForFunction(() => document.querySelectorAll("#board .cell").length > 0);
  const rows = solution.length, cols = solution[0].length;
  check(await page.locator("#board .cell").count() === rows * cols, `the board has ${rows}x${cols} cells`);

  const cell = (r, c) => page.locator(`#board .cell[data-row="${r}"][data-col="${c}"]`);
  const state = async (r, c) => cell(r, c).getAttribute("data-state");
  const rowCount = (r) => page.locator(`#board text.count[data-row="${r}"]`);
  const rowClass = async (r) => (await rowCount(r).getAttribute("class")) || "";
  const fill = async (r) => rowCount(r).evaluate((t) => getComputedStyle(t).fill);
  const isShip = (ch) => ch !== ".";

  // 2. Play: a row that needs exactly one more ship part, and an open cell in it that is water
  // in the solution (so that a second ship part exceeds the count).
  const counts = await page.evaluate(() => JSON.parse(JSON.stringify(game.puzzle.row_counts)));
  let target = null;
  for (let r = 0; r < rows && !target; r++) {
    const letters = [];
    for (let c = 0; c < cols; c++) letters.push(await state(r, c));
    const ships = letters.filter((l) => l !== "?" && l !== ".").length;
    const open = letters.map((l, c) => (l === "?" ? c : -1)).filter((c) => c >= 0);
    if (counts[r] === ships + 1 && open.length >= 2) target = { r, open };
  }
  check(target !== null, "a row one ship part short of its count");
  const { r } = target;
  const [a, b] = target.open;
  const before = await rowClass(r);
  check(!before.includes("met") && !before.includes("over"), `row ${r}'s count starts uncoloured`);
  const neutral = await fill(r);
  await cell(r, a).click(); // water
  check(await state(r, a) === ".", "a click makes water");
  await cell(r, a).click(); // ship
  check(await state(r, a) === "s", "a second click makes a ship part");
  check((await rowClass(r)).includes("met"), `row ${r}'s count is met`);
  const green = await fill(r);
  check(green !== neutral, `a met count changes colour (${neutral} -> ${green})`);
  // The keyboard: move the cursor to the second open cell and make it a ship part.
  await page.locator("#board-wrap").focus();
  const steps = b - a;
  for (let k = 0; k < steps; k++) await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Space");
  await page.keyboard.press("Space");
  check(await state(r, b) === "s", "space cycles the cell under the cursor");
  check((await rowClass(r)).includes("over"), `row ${r}'s count is exceeded`);
  const red = await fill(r);
  check(red !== green && red !== neutral, `an exceeded count has its own colour (${red})`);
  await page.keyboard.press("u");
  await page.keyboard.press("Control+z");
  check(await state(r, b) === "?", "u and Ctrl+Z undo");
  check((await rowClass(r)).includes("met"), "the count is met again after undo");
  for (let k = 0; k < 2; k++) await page.keyboard.press("u");
  check(await state(r, a) === "?", "undo goes back to the start");

  // 3. Mid-game: fill a few cells as the solution has them, then ask for a hint.
  let played = 0;
  for (let rr = 0; rr < rows && played < 6; rr++) {
    for (let c = 0; c < cols && played < 6; c++) {
      if ((await state(rr, c)) !== "?") continue;
      await cell(rr, c).click();
      if (isShip(solution[rr][c])) await cell(rr, c).click();
      played++;
    }
  }
  await page.click("#hint");
  await page.waitForSelector("#hint-mark");
  const hr = Number(await page.locator("#hint-mark").getAttribute("data-row"));
  const hc = Number(await page.locator("#hint-mark").getAttribute("data-col"));
  check(await state(hr, hc) === "?", `the hint names an open cell (${hr}, ${hc})`);
  const message = await page.textContent("#message");
  const saysWater = message.includes("water");
  check(saysWater === !isShip(solution[hr][hc]), `the hint is right: (${hr}, ${hc}) is ${solution[hr][hc]}`);
  const reason = await page.textContent("#hint-text");
  check(reason.includes("because") || reason.includes("rules") || reason.includes("search"), "the hint gives its reason in words");
  await page.screenshot({ path: screenshot });
  check(true, "screenshot written to " + screenshot);

  // 4. Check marks wrong cells: a ship part where the solution has water.
  let wrongAt = null;
  for (let rr = 0; rr < rows && !wrongAt; rr++) {
    for (let c = 0; c < cols && !wrongAt; c++) {
      if ((await state(rr, c)) === "?" && !isShip(solution[rr][c])) wrongAt = [rr, c];
    }
  }
  await cell(...wrongAt).click();
  await cell(...wrongAt).click();
  await page.click("#check");
  await page.waitForSelector("#board .wrong");
  check(await page.locator("#board .wrong").count() === 1, "Check marks the one wrong cell");

  // 5. Solve, and compare the drawn grid with the CLI's answer.
  await page.click("#solve");
  await page.waitForFunction(() => document.querySelector("#message").textContent === "Solved.");
  const drawn = [];
  for (let rr = 0; rr < rows; rr++) {
    let line = "";
    for (let c = 0; c < cols; c++) line += await state(rr, c);
    drawn.push(line);
  }
  check(JSON.stringify(drawn) === JSON.stringify(solution), "the solved board is the CLI's solution");
  await page.click("#check");
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("Solved!"));
  check(true, "Check agrees the board is solved");

  // 6. The other buttons.
  await page.click("#unique");
  await page.waitForFunction(() => document.querySelector("#message").textContent.includes("unique"));
  check((await page.textContent("#message")).includes("is unique"), "Is it unique? says unique");
  await page.click("#grade-button");
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("Grade:"));
  check(true, "Grade answers");
  await page.click("#share");
  await page.waitForSelector("#share-box:not([hidden])");
  check((await page.inputValue("#share-url")) === puzzlink, "Share gives the puzz.link URL");
  const download = page.waitForEvent("download");
  await page.click("#download");
  const file = await download;
  check(file.suggestedFilename() === "bimaru.svg", "Download SVG saves bimaru.svg");

  // 7. The other ways in: a file, a pasted 30x30 board, a puzzle with two solutions, a new one.
  const repo = fileURLToPath(new URL("../../", import.meta.url));
  await page.setInputFiles("#file", join(repo, "puzzles/ist-example.txt"));
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("10x10 puzzle (ist)"));
  check(await page.locator("#board .cell").count() === 100, "Open file… opens the IST example");
  await page.fill("#input", readFileSync(join(repo, "puzzles/generated/30x30/001.json"), "utf8"));
  await page.click("#open-text");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 900);
  const box = await page.locator("#board").boundingBox();
  const view = page.viewportSize();
  check(box.x + box.width <= view.width && box.height <= view.height,
    `a 30x30 board fits the ${view.width}x${view.height} window (${Math.round(box.width)}x${Math.round(box.height)})`);
  const last = await page.locator('#board .cell[data-row="29"][data-state="?"]').first();
  const lastCol = Number(await last.getAttribute("data-col"));
  await cell(29, lastCol).click();
  check(await state(29, lastCol) === ".", `a click on (29, ${lastCol}) of the 30x30 board makes water`);
  // Four open cells, counts unknown, one submarine: four solutions.
  const open = { rows: 2, cols: 2, row_counts: [null, null], col_counts: [null, null], fleet: { "1": 1 }, clues: [] };
  await page.fill("#input", JSON.stringify(open));
  await page.click("#open-text");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 4);
  await page.click("#unique");
  await page.waitForSelector("#second-box:not([hidden])");
  check((await page.textContent("#message")).startsWith("Not unique"), "Is it unique? says not unique");
  check(await page.locator("#second circle").count() === 1, "the second solution is drawn, with its submarine");
  await page.fill("#size", "8x8");
  await page.click("#generate");
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("New 8x8 puzzle"));
  check(await page.locator("#board .cell").count() === 64, "New puzzle makes an 8x8 board");

  check(problems.length === 0, "no request to another host and no console error" + (problems.length ? ": " + problems.join("; ") : ""));
  console.log(`all ${checks} browser checks passed`);
} catch (e) {
  console.error(e.message);
  if (problems.length) console.error(problems.join("\n"));
  process.exitCode = 1;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
