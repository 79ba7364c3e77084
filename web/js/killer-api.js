// killer-api.js -- the Killer page's calls to puzzled, in one place: solve
// (any method, as a job with progress when the server takes one) and
// generate, and the API's vocabulary the page offers.

import * as api from './api.js';
import { LIMITS } from './limits.js';
import { toApiGrid, toApiPencil } from './formats.js';

export const METHODS = [
  ['auto', 'auto'],
  ['advanced', 'advanced (combinations, 45 rule)'],
  ['backtracking', 'backtracking'],
];
export const DIFFICULTIES = ['easy', 'medium', 'hard', 'expert'];

// The levels a size can be generated at: a 4x4 Killer is never graded
// above LIMITS.killer.generateTop4 (the server answers 422 past it).
export function difficultiesFor(n) {
  return n === 4 ? DIFFICULTIES.slice(0, DIFFICULTIES.indexOf(LIMITS.killer.generateTop4) + 1) : DIFFICULTIES;
}

// The cage sizes the server picks for a level on n x n when none are given
// (killer_gen_cages_for_level() in solvers/killer/generate.c): easy 1..3,
// medium 2..3, harder 2..4; from 16x16 on 1..3 easy and 1..4 above (a
// 16x16 Killer without one-cell cages is refused).  [min, max].
export function cagesFor(n, level) {
  const easy = level === 'easy';
  const lo = easy || n >= 16 ? 1 : 2;
  const hi = Math.min(easy || (level === 'medium' && n < 16) ? 3 : 4, n - 1);
  return [Math.min(lo, hi), hi];
}

// Disables the levels of `sel` (a select of DIFFICULTIES) that size n
// cannot take, moving its value to the hardest one left when it was one.
export function limitDifficulties(sel, n) {
  const ok = difficultiesFor(n);
  for (const o of sel.options) o.disabled = !ok.includes(o.value);
  if (!ok.includes(sel.value)) sel.value = ok[ok.length - 1];
}

// The request body for a killer: {size, box, cages[, diagonals]}.
export function killerBody({ n, rows, cols, cages, diagonals }) {
  const body = { size: n, box: { rows, cols }, cages: cages.map((c) => ({ sum: c.sum, cells: c.cells })) };
  if (diagonals) body.diagonals = true;
  return body;
}

// extra: {method, max_solutions, timeout_ms}
export const solve = (k, extra, opts) => api.post('v1/killer/solve', { ...killerBody(k), ...extra }, { job: true, ...opts });

// The next logical step for the board (the player's entries and pencil
// marks), by the Killer's own techniques then the Sudoku ones.  A killer
// has no givens: an empty givens grid, so that a wrong entry is answered
// `wrong` (not a 422).
export function hint(values, pencil, k, opts) {
  const n = k.n;
  const body = { ...killerBody(k), grid: toApiGrid(values, n), givens: toApiGrid(new Array(n * n).fill(0), n) };
  const marks = toApiPencil(values, pencil, n);
  if (marks.length) body.pencil = marks;
  return api.post('v1/killer/hint', body, opts);
}

// {n, cageMin, cageMax, difficulty, diagonals}
export function generate({ n, cageMin, cageMax, difficulty, diagonals }, opts) {
  const body = { size: n, difficulty, count: 1 };
  if (cageMin && cageMax) body.cage_size = { min: cageMin, max: cageMax };
  if (diagonals) body.diagonals = true;
  return api.post('v1/killer/generate', body, opts);
}
