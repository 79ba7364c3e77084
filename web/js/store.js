// store.js -- what the page keeps in localStorage, under "puzzled.<key>":
// each page's current game (game.js's toJSON), the player's settings and
// the mode.  Storage may be missing or full (private windows, quotas): a
// failed write is ignored and a failed or malformed read gives the
// default, so the page always works, only without memory.

const PREFIX = 'puzzled.';

export function load(key, fallback = null) {
  try {
    const text = window.localStorage.getItem(PREFIX + key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

export function save(key, value) {
  try {
    window.localStorage.setItem(PREFIX + key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export function remove(key) {
  try {
    window.localStorage.removeItem(PREFIX + key);
  } catch {
    /* nothing kept, nothing to remove */
  }
}

// The player's settings, with their defaults.
export const SETTINGS = {
  autoPencil: ['Remove pencil marks from a placed digit’s row, column and box', true],
  instantCheck: ['Check each entry against the solution (counts mistakes)', true],
  highlight: ['Highlight the row, column, box and digit of the selected cell', true],
  showTimer: ['Show the timer', true],
};

export function settings() {
  const saved = load('settings', {}) || {};
  const out = {};
  for (const [k, [, def]] of Object.entries(SETTINGS)) out[k] = typeof saved[k] === 'boolean' ? saved[k] : def;
  return out;
}

export function saveSettings(s) {
  save('settings', s);
  window.dispatchEvent(new CustomEvent('puzzled-settings', { detail: s }));
}

// 'play' or 'engineer', shared by the Sudoku and Killer pages.
export const mode = () => (load('mode', 'play') === 'engineer' ? 'engineer' : 'play');

export function setMode(m) {
  save('mode', m);
  window.dispatchEvent(new CustomEvent('puzzled-mode', { detail: m }));
}
