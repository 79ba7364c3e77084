// killer-api.js -- the Killer page's calls to puzzled, in one place: solve
// (any method, as a job with progress when the server takes one) and
// generate, and the API's vocabulary the page offers.

import * as api from './api.js';
import { LIMITS } from './limits.js';

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

// {n, cageMin, cageMax, difficulty, diagonals}
export function generate({ n, cageMin, cageMax, difficulty, diagonals }, opts) {
  const body = { size: n, difficulty, count: 1 };
  if (cageMin && cageMax) body.cage_size = { min: cageMin, max: cageMax };
  if (diagonals) body.diagonals = true;
  return api.post('v1/killer/generate', body, opts);
}
