// What the Battleship page (web/battleship.js) keeps in the browser besides the game: the
// statistics of the games against the computer, by level and Salvo, and the sound and motion
// settings; and the short sounds themselves (WebAudio, no file).

import { readJson, writeJson } from "./storage.js";

export const GAME_KEY = "bimaru.battleship";
const STATS_KEY = "bimaru.battleship.stats";
const SETTINGS_KEY = "bimaru.battleship.settings";

// The JSON storage helpers are shared with the puzzle page (storage.js).
export { readJson, writeJson };

export const loadSettings = () => readJson(SETTINGS_KEY, { sound: false, motion: false });
export const saveSettings = (settings) => writeJson(SETTINGS_KEY, settings);

// One game more in the statistics of its level (and Salvo): games, wins, the shots of each
// side, the player's hits, and the best game (the fewest shots of a win).
export function count({ level, salvo, won, myShots, theirShots, hits }) {
  const stats = readJson(STATS_KEY, {});
  const key = level + (salvo ? " salvo" : "");
  const s = stats[key] || { games: 0, wins: 0, myShots: 0, theirShots: 0, hits: 0, best: null };
  s.games += 1;
  s.myShots += myShots;
  s.theirShots += theirShots;
  s.hits += hits;
  if (won) {
    s.wins += 1;
    if (s.best === null || myShots < s.best) s.best = myShots;
  }
  stats[key] = s;
  writeJson(STATS_KEY, stats);
}

// The statistics in words, a line for each level (in the menu's order) and Salvo played.
export function statLines(levels, levelName) {
  const stats = readJson(STATS_KEY, {});
  const lines = [];
  for (const salvo of [false, true]) {
    for (const level of levels) {
      const s = stats[level + (salvo ? " salvo" : "")];
      if (!s || !s.games) continue;
      const avg = (n) => (n / s.games).toFixed(1);
      const accuracy = s.myShots ? Math.round((100 * s.hits) / s.myShots) : 0;
      lines.push(`${levelName(level)}${salvo ? ", Salvo" : ""}: ${s.games} ${s.games === 1 ? "game" : "games"}, `
        + `${s.wins} won; your shots ${avg(s.myShots)} a game on average, the computer's ${avg(s.theirShots)}; `
        + `accuracy ${accuracy}%; best game: ${s.best === null ? "no win yet" : s.best + " shots"}.`);
    }
  }
  return lines.length ? lines : ["No game finished yet."];
}

// A short sound for a turn's result: a low note for a miss, a higher one for a hit, three
// falling notes for a sunk ship.
let audio = null;
export function sound(kind) {
  if (typeof AudioContext === "undefined") return;
  try {
    audio = audio || new AudioContext();
    const notes = { miss: [220], hit: [523], sunk: [659, 440, 330] }[kind];
    notes.forEach((f, k) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const t = audio.currentTime + k * 0.09;
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.12, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + 0.12);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.13);
    });
  } catch {
    // No sound where the browser gives none.
  }
}
