// The Battleship page (`/battleship`) in Debian's Chromium, driven by playwright-core. Run by
// tests/web.rs:
//
//   node tests/web/battleship.mjs BASE_URL SCREENSHOT_DIR
//
// At 1200x900 and at 390x844 (a phone) it plays whole games against the computer: a random
// fleet, a ship picked up, moved by dragging and rotated, the battle started, shots fired by
// clicks and then by the keyboard alone, each answered by the computer's shot, the coach's heat
// map shown and hidden, a reload in the middle of the game that resumes it, and the end with a
// winner and the shot counts. At 1200x900 the player aims at the computer's ships (read from the
// saved game) and wins; on the phone the player sweeps the board row by row, and whoever sinks
// the other fleet first wins. The level menu offers four levels, each naming its mean shots, far
// apart; a level chosen while placing applies at once, one chosen during the battle from the
// next game, as the page says. axe-core audits both layouts (no serious or critical violation);
// any console error or request to another host fails the test.

import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [base, shots] = process.argv.slice(2);
if (!shots) {
  console.error("usage: node battleship.mjs BASE_URL SCREENSHOT_DIR");
  process.exit(2);
}
const origin = new URL(base).origin;
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const profile = mkdtempSync(join(tmpdir(), "bimaru-battleship-"));
const problems = [];
let checks = 0;
function check(condition, what) {
  if (!condition) throw new Error("failed: " + what);
  checks++;
  console.log("ok: " + what);
}

async function browser(viewport) {
  const context = await chromium.launchPersistentContext(profile + "-" + viewport.width, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport,
  });
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin + "/")) return route.continue();
    problems.push("request to another host: " + url);
    return route.abort();
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => {
    if (m.type() === "error") problems.push("console: " + m.text());
  });
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  return { context, page };
}

async function audit(page, what) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => axe.run(document, { resultTypes: ["violations"] }));
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const said = bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  check(bad.length === 0, `axe-core finds no serious or critical violation ${what}` + (bad.length ? ": " + said.join("; ") : ""));
}

const model = (page) => page.evaluate(() => JSON.parse(localStorage.getItem("bimaru.battleship")));
const message = (page) => page.locator("#message").innerText();
const theirCell = (page, i) => page.locator(`#theirs .cell[data-index="${i}"]`);
const mineCell = (page, i) => page.locator(`#mine .cell[data-index="${i}"]`);

// Waits until the computer has answered every shot of the player (or the game is over).
async function answered(page) {
  await page.waitForFunction(() => {
    const m = JSON.parse(localStorage.getItem("bimaru.battleship"));
    const done = (fleet, shots) => fleet.every((s) => s.cells.every((i) => shots.includes(i)));
    return m.theirShots.length === m.myShots.length || done(m.theirs, m.myShots);
  }, null, { timeout: 20000 });
}

const over = (m) => [[m.theirs, m.myShots], [m.mine, m.theirShots]]
  .some(([fleet, s]) => fleet.every((ship) => ship.cells.every((i) => s.includes(i))));

// Moves the keyboard cursor of the computer's board to square `i` and fires.
async function fireByKeys(page, i) {
  const m = await model(page);
  let at = m.cursor.theirs;
  await page.locator("#theirs").focus();
  while (at % 10 < i % 10) { await page.keyboard.press("ArrowRight"); at++; }
  while (at % 10 > i % 10) { await page.keyboard.press("ArrowLeft"); at--; }
  while (at < i - 9) { await page.keyboard.press("ArrowDown"); at += 10; }
  while (at > i + 9) { await page.keyboard.press("ArrowUp"); at -= 10; }
  const active = await page.locator("#theirs").getAttribute("aria-activedescendant");
  check(active === `theirs-${i}`, `the cursor reaches square ${i} by arrow keys`);
  await page.keyboard.press("Enter");
}

async function play(viewport, aim) {
  const { context, page } = await browser(viewport);
  const where = `at ${viewport.width}x${viewport.height}`;
  await page.goto(base + "battleship");
  check((await page.title()).includes("Battleship"), `the page opens ${where}`);
  check((await message(page)).includes("Place your fleet"), `a new game starts by placing the fleet ${where}`);

  // A random fleet: 17 squares of ships, none overlapping.
  const before = (await model(page)).mine;
  await page.locator("#random").click();
  const fleet = (await model(page)).mine;
  const cells = fleet.flatMap((s) => s.cells);
  check(cells.length === 17 && new Set(cells).size === 17, `a random fleet covers 17 squares ${where}`);
  check(JSON.stringify(before) !== JSON.stringify(fleet), `"Random fleet" places a new fleet ${where}`);
  check(await page.locator("#mine .cell.own").count() === 17, `the player's ships are drawn ${where}`);

  // Pick up the PT boat by a tap, rotate it (or be told there is no room), drag it elsewhere.
  const boat = fleet.find((s) => s.letter === "P");
  await mineCell(page, boat.cells[0]).click();
  check((await mineCell(page, boat.cells[0]).getAttribute("aria-label")).includes("PT boat, picked up"), `a tap picks up a ship ${where}`);
  await page.locator("#rotate").click();
  const turned = (await model(page)).mine.find((s) => s.letter === "P").cells;
  const told = (await message(page)).includes("No room to turn");
  check(turned[1] - turned[0] !== boat.cells[1] - boat.cells[0] || told, `"Rotate ship" turns it or says why not ${where}`);
  const taken = new Set((await model(page)).mine.filter((s) => s.letter !== "P").flatMap((s) => s.cells));
  const now = (await model(page)).mine.find((s) => s.letter === "P").cells;
  const horizontal = now[1] === now[0] + 1;
  const free = Array.from({ length: 100 }, (_, i) => i).find((i) => {
    const other = horizontal ? i + 1 : i + 10;
    return !taken.has(i) && !taken.has(other) && (horizontal ? i % 10 < 9 : i < 90) && !now.includes(i);
  });
  const from = await mineCell(page, now[0]).boundingBox();
  const to = await mineCell(page, free).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
  await page.mouse.up();
  const moved = (await model(page)).mine.find((s) => s.letter === "P").cells;
  check(moved[0] === free, `dragging a ship moves it ${where}`);

  // The level menu: four levels, the weakest first, each naming its mean shots; consecutive means
  // at least 3 shots apart except between the two strongest.
  const options = await page.locator("#level option").evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  check(JSON.stringify(options.map((o) => o[0])) === JSON.stringify(["beginner", "hunter", "density", "tuned"]),
    `the level menu offers beginner, hunter, density and tuned ${where}`);
  const means = options.map((o) => Number((o[1].match(/\(([\d.]+) shots/) || [])[1]));
  check(means.every((m, k) => k === 0 || m < means[k - 1] && (k === means.length - 1 || means[k - 1] - m >= 3)),
    `each level names its mean shots, far apart: ${means.join(", ")} ${where}`);
  // Chosen while placing, a level applies to this game.
  const first = viewport.width < 700 ? "beginner" : "hunter";
  await page.locator("#level").selectOption(first);
  check((await model(page)).level === first, `a level chosen while placing applies at once (${first}) ${where}`);

  await page.locator("#start").click();
  check((await message(page)).includes("Your turn"), `the battle starts on the player's turn ${where}`);
  // Chosen during the battle, it applies from the next game, and the page says so.
  await page.locator("#level").selectOption("density");
  const chosen = await model(page);
  check(chosen.level === first && chosen.next === "density", `a level chosen during the battle waits for the next game ${where}`);
  check((await message(page)).includes("Strong applies from the next game"), `the page says the level applies from the next game ${where}`);
  await audit(page, `during the battle ${where}`);

  const theirs = (await model(page)).theirs;
  const order = aim
    ? [...theirs.flatMap((s) => s.cells), ...Array.from({ length: 100 }, (_, i) => i)]
    : Array.from({ length: 100 }, (_, i) => i);
  const targets = [...new Set(order)];
  let fired = 0;
  let reloaded = false;
  let coached = false;
  for (const i of targets) {
    const m = await model(page);
    if (over(m)) break;
    if (m.myShots.includes(i)) continue;
    if (fired < 8) {
      await theirCell(page, i).click();
    } else {
      await fireByKeys(page, i);
    }
    fired++;
    await answered(page);
    const after = await model(page);
    if (fired === 1) {
      check(after.myShots.length === 1 && after.theirShots.length === 1, `a click fires and the computer answers ${where}`);
      const label = await theirCell(page, i).getAttribute("aria-label");
      check(/^Row \d+, column \d+: (miss|hit|sunk)/.test(label), `the square is named with its result: "${label}" ${where}`);
    }
    if (fired === 4 && !coached) {
      await page.locator("#coach").check();
      await page.waitForSelector("#theirs .cell.heat");
      const label = await page.locator("#theirs .cell.heat").first().getAttribute("aria-label");
      check(/% likely a ship$/.test(label), `the coach shades the open squares ${where}`);
      await page.locator("#coach").uncheck();
      check(await page.locator("#theirs .cell.heat").count() === 0, `the coach hides again ${where}`);
      coached = true;
    }
    if (fired === 6 && !reloaded) {
      const saved = await model(page);
      await page.reload();
      await page.waitForSelector("#theirs .cell");
      const back = await model(page);
      check(JSON.stringify(back.myShots) === JSON.stringify(saved.myShots)
        && JSON.stringify(back.theirShots) === JSON.stringify(saved.theirShots), `a reload resumes the game ${where}`);
      const marked = await page.locator('#theirs .cell:not([data-mark="open"])').count();
      check(marked === saved.myShots.length, `the resumed board shows every shot ${where}`);
      check((await message(page)).includes("Your turn"), `the resumed game is the player's turn ${where}`);
      reloaded = true;
    }
  }
  const end = await model(page);
  check(over(end), `the game is played to its end (${end.myShots.length} shots against ${end.theirShots.length}) ${where}`);
  const text = await message(page);
  check(/You win!|The computer wins/.test(text) && text.includes(`${end.myShots.length}`) && text.includes(`${end.theirShots.length}`),
    `the end names the winner and the shot counts: "${text}" ${where}`);
  if (aim) check(text.includes("You win!"), `aiming at the ships wins ${where}`);
  const sunk = await page.locator('#theirs .cell[data-mark="sunk"]').count();
  check(aim ? sunk === 17 : sunk <= 17, `sunk ships are drawn ${where}`);
  await audit(page, `at the end ${where}`);
  await page.screenshot({ path: join(shots, viewport.width < 700 ? "battleship-phone.png" : "battleship.png"), fullPage: true });

  // A new game starts by placing again.
  await page.locator("#new-game").click();
  check((await model(page)).myShots.length === 0 && (await message(page)).includes("Place your fleet"), `"New game" starts over ${where}`);
  check((await model(page)).level === "density", `the next game is played at the level chosen during the last ${where}`);
  await context.close();
}

try {
  await play({ width: 1200, height: 900 }, true);
  await play({ width: 390, height: 844 }, false);
  check(problems.length === 0, "no request to another host and no console error" + (problems.length ? ": " + problems.join("; ") : ""));
  console.log(`all ${checks} battleship checks passed`);
} catch (e) {
  console.error(e.message);
  if (problems.length) console.error(problems.join("\n"));
  process.exit(1);
}
