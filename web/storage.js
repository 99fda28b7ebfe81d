// What both pages (the puzzle page and the Battleship page) keep in localStorage: a value as
// JSON, read and written without ever failing (a full or blocked storage: the page goes on
// unsaved).

export function readJson(key, otherwise) {
  try {
    return JSON.parse(localStorage.getItem(key)) || otherwise;
  } catch {
    return otherwise;
  }
}

export function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // A full or blocked storage: the game goes on unsaved.
  }
}
