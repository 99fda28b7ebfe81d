// The Battleship page (`/battleship`) in Debian's Chromium, driven by playwright-core. Run by
// tests/long/web.rs:
//
//   node tests/web/battleship.mjs BASE_URL SCREENSHOT_DIR
//
// At 1200x900 and at 390x844 (a phone) it plays a whole game at each level of the menu and one
// Salvo game against the computer, and part of a game for two on one device (hot-seat). It
// checks the coordinates drawn as text (A to J, 1 to 10) and used in the squares' names and the
// messages ("C8"), the last shot of each side ringed and named, sunk ships drawn as ships (a
// hull with two ends, each ship apart from its neighbours) and named by their letter and kind,
// the computer's fleet revealed after a loss with the player's shots over it, the results panel
// and statistics that survive a reload, Salvo (a shot for each ship afloat, the salvo announced
// together, the computer's salvo as large as its fleet afloat), the hot-seat screen hiding both
// fleets, the coach's and the computer's heat maps, rotation that shifts a ship to fit, a placed
// ship put down, New game asking first during a battle, the focus on the computer's board when
// the battle starts, a level chosen mid-game applying from the next one (as the page says),
// sounds and reduced motion, and on the phone that the turn, the message and the main button
// are on the first screen in every phase and no control is under 44 px. axe-core audits every
// phase (placing, battle, the New game question, results, the hot-seat screen): no serious or
// critical violation. Any console error or request to another host fails the test.

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
const LETTERS = "ABCDEFGHIJ";
const squareName = (i) => LETTERS[i % 10] + (Math.floor(i / 10) + 1);
const NAMES = { A: "carrier", B: "battleship", D: "destroyer", S: "submarine", P: "PT boat" };

async function browser(viewport) {
  const context = await chromium.launchPersistentContext(profile + "-" + viewport.width, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--autoplay-policy=no-user-gesture-required"],
    viewport,
    hasTouch: viewport.width < 700,
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
const stats = (page) => page.evaluate(() => JSON.parse(localStorage.getItem("bimaru.battleship.stats")) || {});
const message = (page) => page.locator("#message").innerText();
const theirCell = (page, i) => page.locator(`#theirs .cell[data-index="${i}"]`);
const mineCell = (page, i) => page.locator(`#mine .cell[data-index="${i}"]`);
const sunkAll = (fleet, s) => fleet.every((ship) => ship.cells.every((i) => s.includes(i)));
const over = (m) => m.phase === "playing" && (sunkAll(m.theirs, m.myShots) || sunkAll(m.mine, m.theirShots));
const afloat = (fleet, s) => fleet.filter((ship) => !ship.cells.every((i) => s.includes(i))).length;

// Waits until the computer has answered the player's last turn (or the game is over).
async function answered(page) {
  await page.waitForFunction(() => {
    const m = JSON.parse(localStorage.getItem("bimaru.battleship"));
    const done = (fleet, shots) => fleet.every((s) => s.cells.every((i) => shots.includes(i)));
    return m.volleys[1].length === m.volleys[2].length || done(m.theirs, m.myShots);
  }, null, { timeout: 20000 });
}

// On the phone: the element is on the first screen (no scrolling).
async function onFirstScreen(page, selector, what) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.locator(selector).boundingBox();
  check(box && box.y >= 0 && box.y + box.height <= 844, `${what} is on the first screen (${selector}, bottom at ${box && Math.round(box.y + box.height)} px)`);
}

// On the phone: every control shown (buttons, menus, check boxes with their labels, the
// summary, links) at least 44 px tall and wide.
async function thumbSized(page, phase) {
  const small = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll("button, select, label.check, summary, a, input:not([type=checkbox])")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.height < 44 || r.width < 44) out.push(`${el.id || el.textContent.trim().slice(0, 20)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    for (const el of document.querySelectorAll("input[type=checkbox]")) {
      const r = el.closest("label").getBoundingClientRect();
      if (r.width && r.height < 44) out.push(`${el.id} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    return out;
  });
  check(small.length === 0, `no control under 44 px ${phase} on the phone` + (small.length ? ": " + small.join(", ") : ""));
}

// The coordinates: A to J above each board and 1 to 10 beside it, as text in the page.
async function coordinates(page, where) {
  for (const board of ["theirs", "mine"]) {
    const cols = await page.locator(`#${board} .row.heads .head:not(.corner)`).allTextContents();
    const rows = await page.locator(`#${board} .row:not(.heads) .head`).allTextContents();
    check(cols.join("") === LETTERS && rows.join(",") === "1,2,3,4,5,6,7,8,9,10",
      `the ${board} board has columns A to J and rows 1 to 10 as text ${where}`);
  }
  const label = await mineCell(page, 72).getAttribute("aria-label");
  check(label.startsWith("C8: "), `square 72 is named "C8" as in the messages: "${label}" ${where}`);
}

// A sunk ship is drawn as one hull: ends at its first and last squares, joined between, named
// by its letter and its kind.
async function sunkDrawn(page, board, fleet, shots, where) {
  let seen = 0;
  for (const ship of fleet.filter((s) => s.cells.every((i) => shots.includes(i)))) {
    const h = ship.cells[1] === ship.cells[0] + 1;
    const classes = await Promise.all(ship.cells.map((i) => page.locator(`#${board} .cell[data-index="${i}"] .hull`).getAttribute("class")));
    const ends = classes[0].includes(h ? "end-left" : "end-up") && classes[classes.length - 1].includes(h ? "end-right" : "end-down");
    const joined = classes.every((c, k) => (k === 0 || c.includes(h ? "join-left" : "join-up"))
      && (k === classes.length - 1 ? !c.includes(h ? "join-right" : "join-down") : c.includes(h ? "join-right" : "join-down")));
    const sunk = classes.every((c) => c.includes("sunk"));
    const tag = await page.locator(`#${board} .cell[data-index="${ship.cells[Math.floor((ship.cells.length - 1) / 2)]}"] .tag`).textContent();
    const label = await page.locator(`#${board} .cell[data-index="${ship.cells[0]}"]`).getAttribute("aria-label");
    check(ends && joined && sunk && tag === ship.letter && label.includes(NAMES[ship.letter]) && label.includes("sunk"),
      `the sunk ${NAMES[ship.letter]} on the ${board} board is drawn as a ship with two ends, marked ${ship.letter}: "${label}" ${where}`);
    seen++;
  }
  return seen;
}

// The last shot of each side: exactly the squares of its last turn ringed, named "last shot",
// and the message names the same squares.
async function lastShots(page, where) {
  const m = await model(page);
  const text = await message(page);
  for (const [board, shotsOf, side] of [["theirs", m.myShots, 1], ["mine", m.theirShots, 2]]) {
    const n = m.volleys[side].at(-1);
    const expect = shotsOf.slice(shotsOf.length - n).sort((a, b) => a - b);
    const ringed = (await page.locator(`#${board} .cell.last`).evaluateAll((cs) => cs.map((c) => Number(c.dataset.index)))).sort((a, b) => a - b);
    const labels = await page.locator(`#${board} .cell.last`).evaluateAll((cs) => cs.map((c) => c.getAttribute("aria-label")));
    check(JSON.stringify(ringed) === JSON.stringify(expect) && labels.every((l) => l.includes("last shot"))
      && expect.every((i) => text.includes(squareName(i))),
      `the last shots of side ${side} are ringed and named (${expect.map(squareName).join(", ")}) ${where}`);
  }
}

// Moves the keyboard cursor of `board` to square `i` by the arrow keys (the board focused).
async function cursorTo(page, board, i) {
  let c = (await model(page)).cursor[board];
  while (c % 10 < i % 10) { await page.keyboard.press("ArrowRight"); c++; }
  while (c % 10 > i % 10) { await page.keyboard.press("ArrowLeft"); c--; }
  while (c < i - 9) { await page.keyboard.press("ArrowDown"); c += 10; }
  while (c > i + 9) { await page.keyboard.press("ArrowUp"); c -= 10; }
  check(await page.locator(`#${board}`).getAttribute("aria-activedescendant") === `${board}-${i}`, `the cursor reaches ${squareName(i)} by arrow keys`);
}

// A whole game at `level`: `how` is "aim" (the player fires at the ships: a win), "miss" (at the
// water first: a loss) or "sweep" (row by row). Some shots are fired by the keyboard alone.
async function game(page, where, { level, how, salvo = false, keys = false, checks: extra = false }) {
  await page.locator("#level").selectOption(level);
  if (salvo !== (await page.locator("#salvo").isChecked())) await page.locator("#salvo").setChecked(salvo);
  const placing = await model(page);
  check(placing.phase === "placing" && placing.level === level && placing.salvo === salvo, `a ${level}${salvo ? " Salvo" : ""} game is being placed ${where}`);
  await page.locator("#start").click();
  check(await page.evaluate(() => document.activeElement && document.activeElement.id) === "theirs",
    `the focus moves to the computer's board when the battle starts ${where}`);
  const theirs = placing.theirs;
  const ships = theirs.flatMap((s) => s.cells);
  const all = Array.from({ length: 100 }, (_, i) => i);
  const order = how === "aim" ? [...ships, ...all] : how === "miss" ? [...all.filter((i) => !ships.includes(i)), ...ships] : all;
  const targets = [...new Set(order)];
  let t = 0;
  let turns = 0;
  for (;;) {
    const m = await model(page);
    if (over(m)) break;
    const k = salvo ? Math.min(afloat(m.mine, m.theirShots), 100 - m.myShots.length) : 1;
    for (let j = 0; j < k; j++) {
      while (m.myShots.includes(targets[t])) t++;
      const i = targets[t++];
      if (keys && turns % 3 === 1) {
        await page.locator("#theirs").focus();
        await cursorTo(page, "theirs", i);
        await page.keyboard.press("Enter");
      } else {
        await theirCell(page, i).click();
      }
      if (salvo && j < k - 1) {
        const label = await theirCell(page, i).getAttribute("aria-label");
        const aimed = await model(page);
        check(aimed.aim.length === j + 1 && label.includes("in your salvo") && (await message(page)).includes(`(${j + 1} chosen)`),
          `a square of the salvo is marked until the salvo is complete (${j + 1} of ${k}) ${where}`);
      }
    }
    turns++;
    await answered(page);
    const after = await model(page);
    if (salvo && !over(after)) {
      const theirsK = Math.min(afloat(after.theirs, after.myShots), 100 - m.theirShots.length);
      check(after.volleys[1].at(-1) === k && after.volleys[2].at(-1) === theirsK,
        `a salvo of ${k} (the player's ships afloat) is answered by one of ${theirsK} (the computer's afloat) ${where}`);
      const text = await message(page);
      check(k === 1 || text.includes(`You fired a salvo of ${k}:`), `the salvo's results are announced together: "${text.split("\n")[0]}" ${where}`);
    }
    if (turns === 1) await lastShots(page, where);
    if (extra && turns === 2) await midGame(page, where);
  }
  const end = await model(page);
  const text = await message(page);
  check(/You win!|The computer wins/.test(text) && text.includes(`${end.myShots.length}`) && text.includes(`${end.theirShots.length}`),
    `the game at ${level}${salvo ? " (Salvo)" : ""} is played to its end: "${text}" ${where}`);
  if (how === "aim") check(text.includes("You win!"), `aiming at the ships wins ${where}`);
  if (how === "miss") check(text.includes("The computer wins"), `firing at the water first loses ${where}`);
  if (salvo) check(end.volleys[1].some((n) => n > 1), `Salvo turns fire several shots ${where}`);
  await lastShots(page, where).catch(() => {}); // the last turn may be the player's alone
  const sunkTheirs = await sunkDrawn(page, "theirs", end.theirs, end.myShots, where);
  await sunkDrawn(page, "mine", end.mine, end.theirShots, where);
  if (how === "aim") check(sunkTheirs === 5, `all five of the computer's ships are drawn sunk ${where}`);
  // After a loss, the computer's fleet is revealed with the player's shots over it.
  if (text.includes("The computer wins")) {
    const revealed = [];
    for (const ship of end.theirs) {
      for (const i of ship.cells) {
        const has = await theirCell(page, i).locator(".hull").count();
        const label = await theirCell(page, i).getAttribute("aria-label");
        const shot = end.myShots.includes(i);
        const mark = await theirCell(page, i).getAttribute("data-mark");
        revealed.push(has === 1 && label.includes(NAMES[ship.letter]) && (shot ? mark !== "open" : mark === "open"));
      }
    }
    check(revealed.every(Boolean), `after the loss the computer's fleet is revealed, the player's shots over it ${where}`);
    check(text.includes("Its fleet is revealed"), `the page says the computer's fleet is revealed ${where}`);
  }
  check(await page.locator("#results").isVisible(), `the results panel is shown at the end ${where}`);
  return end;
}

// In the middle of a game: the coach's and the computer's heat maps, New game asking first,
// a level chosen mid-game, sounds, reduced motion, a reload that resumes the game.
async function midGame(page, where) {
  await page.locator("#coach").check();
  await page.waitForSelector("#theirs .cell.heat");
  const coach = await page.locator("#theirs .cell.heat").first().getAttribute("aria-label");
  check(/% likely a ship$/.test(coach), `the coach shades the open squares: "${coach}" ${where}`);
  await page.locator("#coach").uncheck();
  check(await page.locator("#theirs .cell.heat").count() === 0, `the coach hides again ${where}`);
  await page.locator("#thinks").check();
  await page.waitForSelector("#mine .cell.heat");
  const thinks = await page.locator("#mine .cell.heat").first().getAttribute("aria-label");
  check(/the computer thinks \d+% likely a ship/.test(thinks), `the computer's heat map shades your board: "${thinks}" ${where}`);
  await page.locator("#thinks").uncheck();
  check(await page.locator("#mine .cell.heat").count() === 0, `the computer's heat map hides again ${where}`);

  const m = await model(page);
  await page.locator("#new-game").click();
  check(await page.locator("#confirm-new").isVisible() && (await model(page)).myShots.length === m.myShots.length,
    `New game during the battle asks first ${where}`);
  await audit(page, `with the New game question ${where}`);
  await page.locator("#confirm-no").click();
  check(!(await page.locator("#confirm-new").isVisible()) && (await model(page)).myShots.length === m.myShots.length,
    `"Keep playing" keeps the battle ${where}`);

  const other = m.level === "density" ? "hunter" : "density";
  await page.locator("#level").selectOption(other);
  const chosen = await model(page);
  check(chosen.level === m.level && chosen.next && chosen.next.level === other, `a level chosen during the battle waits for the next game ${where}`);
  const name = other === "density" ? "Strong" : "Middle";
  check((await message(page)).includes(`${name} applies from the next game`), `the page says the level applies from the next game ${where}`);
  await page.locator("#level").selectOption(m.level);
  check((await model(page)).next === null, `choosing the level of this game again cancels the change ${where}`);

  await page.locator("#motion").check();
  const anim = await page.evaluate(() => getComputedStyle(document.querySelector("#theirs .cell.last"), "::before").animationName);
  check(anim === "none" && await page.evaluate(() => document.body.classList.contains("reduce-motion")), `"Reduce motion" stops the last shot's animation ${where}`);
  await page.locator("#motion").uncheck();
  const moving = await page.evaluate(() => getComputedStyle(document.querySelector("#theirs .cell.last"), "::before").animationName);
  await page.emulateMedia({ reducedMotion: "reduce" });
  const reduced = await page.evaluate(() => getComputedStyle(document.querySelector("#theirs .cell.last"), "::before").animationName);
  await page.emulateMedia({ reducedMotion: "no-preference" });
  check(moving !== "none" && reduced === "none", `the animation runs unless the system asks for reduced motion (${moving}, ${reduced}) ${where}`);
  // Sounds: off by default (no tone made), then on: a shot makes its tones (WebAudio
  // oscillators, counted by a spy on the page's AudioContext).
  await page.evaluate(() => {
    window.tones = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () {
      window.tones++;
      return make.call(this);
    };
  });
  const shoot = async () => {
    const now = await model(page);
    await theirCell(page, Array.from({ length: 100 }, (_, i) => i).find((i) => !now.myShots.includes(i))).click();
    await answered(page);
  };
  await shoot();
  const silent = await page.evaluate(() => window.tones);
  await page.locator("#sound").check();
  await shoot();
  const tones = await page.evaluate(() => window.tones);
  check(silent === 0 && tones > 0 && JSON.parse(await page.evaluate(() => localStorage.getItem("bimaru.battleship.settings"))).sound === true,
    `no sound by default; turned on, a turn plays ${tones} tones ${where}`);

  await audit(page, `during the battle ${where}`);
  const saved = await model(page);
  await page.reload();
  await page.waitForSelector("#theirs .cell");
  const back = await model(page);
  check(JSON.stringify(back.myShots) === JSON.stringify(saved.myShots)
    && JSON.stringify(back.theirShots) === JSON.stringify(saved.theirShots), `a reload resumes the game ${where}`);
  check(await page.locator('#theirs .cell:not([data-mark="open"])').count() === saved.myShots.length, `the resumed board shows every shot ${where}`);
  check(await page.locator("#sound").isChecked(), `the sound setting survives a reload ${where}`);
  await page.locator("#sound").uncheck();
}

// Placing: a random fleet, a ship picked up and put down, rotation that shifts to fit, a drag.
async function placing(page, where) {
  const before = (await model(page)).mine;
  await page.locator("#random").click();
  const fleet = (await model(page)).mine;
  const cells = fleet.flatMap((s) => s.cells);
  check(cells.length === 17 && new Set(cells).size === 17, `a random fleet covers 17 squares ${where}`);
  check(JSON.stringify(before) !== JSON.stringify(fleet), `"Random fleet" places a new fleet ${where}`);
  check(await page.locator("#mine .cell .hull.own").count() === 17, `the player's ships are drawn ${where}`);

  // A known fleet: the PT boat at I10-J10, so that turning it about I10 leaves the board.
  await page.evaluate(() => {
    const m = JSON.parse(localStorage.getItem("bimaru.battleship"));
    m.mine = [{ letter: "A", cells: [0, 1, 2, 3, 4] }, { letter: "B", cells: [10, 11, 12, 13] },
      { letter: "D", cells: [40, 41, 42] }, { letter: "S", cells: [60, 61, 62] }, { letter: "P", cells: [98, 99] }];
    localStorage.setItem("bimaru.battleship", JSON.stringify(m));
  });
  await page.reload();
  await page.waitForSelector("#mine .cell");
  // The carrier A1-E1 and the battleship A2-D2 touch: drawn apart, each with its own ends.
  const hulls = await page.locator("#mine .row:not(.heads)").first().locator(".hull").evaluateAll((hs) => hs.map((h) => h.className));
  const below = await page.locator("#mine .row:not(.heads)").nth(1).locator(".hull").evaluateAll((hs) => hs.map((h) => h.className));
  check(hulls.length === 5 && below.length === 4 && [...hulls, ...below].every((c) => !c.includes("join-up") && !c.includes("join-down"))
    && hulls[4].includes("end-right") && below[3].includes("end-right") && hulls[0].includes("end-left") && below[0].includes("end-left"),
    `two touching ships are drawn apart, each with its own ends ${where}`);
  await mineCell(page, 98).click();
  check((await mineCell(page, 98).getAttribute("aria-label")).includes("PT boat, picked up"), `a tap picks up a ship ${where}`);
  await page.locator("#rotate").click();
  const turned = (await model(page)).mine.find((s) => s.letter === "P").cells;
  check(JSON.stringify(turned) === JSON.stringify([88, 98]), `"Rotate ship" at the board's edge shifts the ship to fit (I9-I10) ${where}`);
  // Put down elsewhere with a tap: the ship is no longer picked up.
  await mineCell(page, 77).click();
  const put = await model(page);
  check(JSON.stringify(put.mine.find((s) => s.letter === "P").cells) === JSON.stringify([77, 87]) && put.picked === null
    && !(await mineCell(page, 77).getAttribute("aria-label")).includes("picked up"), `a ship put down with a tap is no longer picked up ${where}`);
  // Dragged: moved and put down.
  const from = await mineCell(page, 77).boundingBox();
  const to = await mineCell(page, 55).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
  await page.mouse.up();
  const dragged = await model(page);
  check(dragged.mine.find((s) => s.letter === "P").cells[0] === 55 && dragged.picked === null, `dragging a ship moves it and puts it down ${where}`);

  // By the keyboard alone: Enter picks the PT boat up, r turns it, Enter puts it down with its
  // first square at the cursor.
  await page.locator("#mine").focus();
  await cursorTo(page, "mine", 55);
  await page.keyboard.press("Enter");
  check((await model(page)).picked === "P", `Enter picks a ship up ${where}`);
  await page.keyboard.press("r");
  check(JSON.stringify((await model(page)).mine.find((s) => s.letter === "P").cells) === JSON.stringify([55, 56]), `r turns the ship picked up ${where}`);
  await cursorTo(page, "mine", 33);
  await page.keyboard.press("Enter");
  const keyed = await model(page);
  check(JSON.stringify(keyed.mine.find((s) => s.letter === "P").cells) === JSON.stringify([33, 34]) && keyed.picked === null,
    `Enter puts the ship down at the cursor (D4-E4) ${where}`);
  check((await page.locator("#announce").textContent()).startsWith("D4: PT boat"), `the square under the cursor is announced by its coordinates ${where}`);

  // The level menu: four levels, the weakest first, each naming its mean shots.
  const options = await page.locator("#level option").evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  check(JSON.stringify(options.map((o) => o[0])) === JSON.stringify(["beginner", "hunter", "density", "tuned"]),
    `the level menu offers beginner, hunter, density and tuned ${where}`);
  const means = options.map((o) => Number((o[1].match(/\(([\d.]+) shots/) || [])[1]));
  check(means.every((m, k) => k === 0 || m < means[k - 1] && (k === means.length - 1 || means[k - 1] - m >= 3)),
    `each level names its mean shots, far apart: ${means.join(", ")} ${where}`);
}

// Two players on one device: each places a fleet, and a screen hides both fleets between turns.
async function hotSeat(page, where, phone) {
  await page.locator("#salvo").setChecked(false);
  await page.locator("#opponent").selectOption("friend");
  let m = await model(page);
  check(m.opponent === "friend" && m.placer === 1 && (await message(page)).includes("Player 1's fleet"), `a game for two starts with Player 1 placing ${where}`);
  await page.locator("#start").click();
  m = await model(page);
  check(m.curtain === 2 && !(await page.locator("#boards").isVisible()) && await page.locator("#curtain").isVisible()
    && (await page.locator("#curtain").innerText()).includes("Pass the device to Player 2"), `the hot-seat screen hides the fleets before Player 2 places ${where}`);
  check(await page.locator(".hull").count() === 0, `no ship is drawn behind the hot-seat screen ${where}`);
  await audit(page, `on the hot-seat screen ${where}`);
  if (phone) {
    await thumbSized(page, "on the hot-seat screen");
    await onFirstScreen(page, "#ready", "the hot-seat screen's button");
  }
  await page.locator("#ready").click();
  m = await model(page);
  const p2 = JSON.stringify(m.theirs.flatMap((s) => s.cells).sort((a, b) => a - b));
  const drawn = JSON.stringify((await page.locator("#mine .cell:has(.hull)").evaluateAll((cs) => cs.map((c) => Number(c.dataset.index)))).sort((a, b) => a - b));
  check(drawn === p2 && (await message(page)).includes("Player 2's fleet"), `Player 2 places a fleet of its own ${where}`);
  await page.locator("#start").click();
  check((await model(page)).curtain === 1 && await page.locator("#curtain").isVisible(), `the screen hides the fleets before the battle ${where}`);
  await page.locator("#ready").click();
  m = await model(page);
  const target = m.theirs[0].cells[0];
  await theirCell(page, target).click();
  check((await message(page)).includes(`You fired at ${squareName(target)}: hit`) && await page.locator("#pass").isVisible(),
    `Player 1 fires and is asked to pass the device ${where}`);
  if (phone) await onFirstScreen(page, "#pass", "in a hot-seat battle, the button that hides the fleet");
  await page.locator("#pass").click();
  check(await page.locator("#curtain").isVisible() && (await page.locator("#curtain-title").innerText()).includes("Player 2"), `the screen hides the fleets between turns ${where}`);
  await page.locator("#ready").click();
  const text = await message(page);
  const label = await mineCell(page, target).getAttribute("aria-label");
  check(text.includes(`Player 1 fired at ${squareName(target)}: hit`) && label.startsWith(`${squareName(target)}: `) && label.includes("hit"),
    `Player 2 sees Player 1's shot on their own waters: "${label}" ${where}`);
  await audit(page, `in a hot-seat battle ${where}`);
  // To the end: Player 2 fires at the water, Player 1 at Player 2's ships; the screen comes
  // between every two turns; Player 1 wins, and the game is not counted in the statistics.
  const counted = JSON.stringify(await stats(page));
  const water = Array.from({ length: 100 }, (_, i) => i).filter((i) => !m.mine.some((s) => s.cells.includes(i)));
  const ships = m.theirs.flatMap((s) => s.cells);
  let screens = 0;
  for (;;) {
    const now = await model(page);
    if (over(now)) break;
    const side = now.viewer;
    const pick = side === 1 ? ships.find((i) => !now.myShots.includes(i)) : water.find((i) => !now.theirShots.includes(i));
    await theirCell(page, pick).click();
    if (over(await model(page))) break;
    await page.locator("#pass").click();
    check(await page.locator(".hull").count() === 0, `no ship is drawn while the device passes (turn of Player ${side}) ${where}`);
    screens++;
    await page.locator("#ready").click();
  }
  const end = await model(page);
  check((await message(page)).includes("Player 1 wins!") && end.myShots.length === 17 && end.theirShots.length === 16 && screens === 31,
    `a hot-seat game is played to its end, the screen between every two turns (${screens} times) ${where}`);
  check(await page.locator("#results").isVisible() && (await page.locator("#outcome").innerText()).includes("Player 1 wins")
    && !(await page.locator("#stats").isVisible()), `the results panel names the winner ${where}`);
  check(JSON.stringify(await stats(page)) === counted, `a hot-seat game is not counted in the statistics against the computer ${where}`);
  await page.locator("#again").click();
  check((await model(page)).opponent === "friend" && (await model(page)).phase === "placing", `"Play again" starts another game for two ${where}`);
  await page.locator("#opponent").selectOption("computer");
  check((await model(page)).opponent === "computer", `back to the computer ${where}`);
}

async function play(viewport) {
  const { context, page } = await browser(viewport);
  const phone = viewport.width < 700;
  const where = `at ${viewport.width}x${viewport.height}`;
  await page.goto(base + "battleship");
  check((await page.title()).includes("Battleship"), `the page opens ${where}`);
  check((await message(page)).includes("Place your fleet"), `a new game starts by placing the fleet ${where}`);
  await coordinates(page, where);
  if (phone) {
    for (const [sel, what] of [["#turn", "the turn"], ["#message", "the message"], ["#start", "Start the battle"]]) await onFirstScreen(page, sel, `while placing, ${what}`);
    await thumbSized(page, "while placing");
  }
  await audit(page, `while placing ${where}`);
  await placing(page, where);

  // A whole game at each level: a win by aiming, losses by firing at the water first (the
  // computer's fleet then revealed), one sweep; one with the mid-game checks.
  const plan = [
    { level: "beginner", how: "miss" },
    { level: "hunter", how: "aim", keys: true },
    { level: "density", how: "sweep", checks: true },
    { level: "tuned", how: "miss" },
    { level: "tuned", how: "aim", salvo: true },
  ];
  let games = 0;
  for (const [n, g] of plan.entries()) {
    const end = await game(page, where, g);
    games++;
    const s = await stats(page);
    const key = g.level + (g.salvo ? " salvo" : "");
    const total = Object.values(s).reduce((a, v) => a + v.games, 0);
    check(total === games && s[key] && s[key].myShots >= end.myShots.length, `the statistics count ${games} games (${key}: ${JSON.stringify(s[key])}) ${where}`);
    const lines = await page.locator("#stats li").allTextContents();
    check(lines.some((l) => l.includes("average") && l.includes("accuracy") && l.includes("best game")), `the results panel shows the statistics: "${lines[0]}" ${where}`);
    if (n === 0) {
      if (phone) {
        for (const [sel, what] of [["#turn", "the turn"], ["#message", "the message"], ["#again", "Play again"]]) await onFirstScreen(page, sel, `at the end, ${what}`);
        await thumbSized(page, "at the end");
      }
      await audit(page, `on the results panel ${where}`);
      await page.screenshot({ path: join(shots, phone ? "battleship-phone.png" : "battleship-desktop.png"), fullPage: !phone });
      await page.reload();
      await page.waitForSelector("#theirs .cell");
      const again = await page.locator("#stats li").allTextContents();
      check(await page.locator("#results").isVisible() && JSON.stringify(again) === JSON.stringify(lines), `the results and statistics survive a reload ${where}`);
    }
    if (n === 2) {
      // The level chosen during the battle of the mid-game checks was taken back: none waits.
      check((await model(page)).next === null, `no level waits for the next game ${where}`);
    }
    await page.locator(n % 2 ? "#again" : "#new-game").click();
    const next = await model(page);
    check(next.phase === "placing" && next.myShots.length === 0 && (await message(page)).includes("Place your fleet"), `a new game starts over ${where}`);
    if (phone && n === 0) {
      await page.locator("#start").click();
      for (const [sel, what] of [["#turn", "the turn"], ["#message", "the message"], ["#new-game", "New game"], ["#theirs", "the computer's board"]]) await onFirstScreen(page, sel, `during the battle, ${what}`);
      await thumbSized(page, "during the battle");
      await page.locator("#new-game").click();
      await page.locator("#confirm-yes").click();
    }
  }
  // A level chosen during a battle applies to the next game.
  await page.locator("#level").selectOption("beginner");
  await page.locator("#start").click();
  await page.locator("#level").selectOption("hunter");
  await page.locator("#new-game").click();
  await page.locator("#confirm-yes").click();
  check((await model(page)).level === "hunter", `the next game is played at the level chosen during the last ${where}`);

  await hotSeat(page, where, phone);
  await context.close();
}

try {
  await play({ width: 1200, height: 900 });
  await play({ width: 390, height: 844 });
  check(problems.length === 0, "no request to another host and no console error" + (problems.length ? ": " + problems.join("; ") : ""));
  console.log(`all ${checks} battleship checks passed`);
} catch (e) {
  console.error(e.message);
  if (problems.length) console.error(problems.join("\n"));
  process.exit(1);
}
