// How long the web page's "New puzzle" takes, as a player sees it: from the click to the new
// board on screen, in Debian's Chromium driven by playwright-core. Not a test (nothing is
// asserted); docs/benchmarks.md records its figures. With `bimaru-sat serve` running:
//
//   node tests/web/new-puzzle-timing.mjs http://127.0.0.1:PORT/ GRADE SIZE CLICKS PAUSE_MS
//
// Each of CLICKS clicks follows the previous board after PAUSE_MS (a player looking at the
// board; 0 clicks again at once). Prints each time, then the median and the worst.

import { chromium } from "playwright-core";

const [base, grade = "fiendish", size = "10x10", clicks = "20", pause = "1000"] = process.argv.slice(2);
if (!base) {
  console.error("usage: node new-puzzle-timing.mjs BASE_URL [GRADE] [SIZE] [CLICKS] [PAUSE_MS]");
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"],
});
try {
  const page = await browser.newPage();
  await page.goto(base);
  await page.waitForFunction(() => game.key);
  await page.selectOption("#size", size);
  await page.selectOption("#grade", grade);
  const times = [];
  for (let i = 0; i < Number(clicks); i++) {
    await page.waitForTimeout(Number(pause));
    const shown = await page.evaluate(() => game.key);
    const start = Date.now();
    await page.click("#generate");
    await page.waitForFunction((k) => game.key !== k, shown, { timeout: 60000 });
    times.push(Date.now() - start);
    console.log(`click ${i + 1}: ${times.at(-1)} ms`);
  }
  times.sort((a, b) => a - b);
  console.log(`median ${times[Math.floor(times.length / 2)]} ms, worst ${times.at(-1)} ms over ${times.length} clicks`);
} finally {
  await browser.close();
}
