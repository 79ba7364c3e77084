// sudoku-api.js -- the Sudoku page's calls to puzzled, in one place: the
// request bodies (grids as the API reads them: strings up to 35x35, rows
// of integers past that), and the API's vocabulary the page offers
// (methods, propagation levels, difficulties, symmetries).  Every function
// takes the caller's {signal, onWait...} options and resolves to the
// answer (api.js says how errors come back).  A puzzle's shape `g` is
// {n, rows, cols, variant}: the box, or a variant's fields (variants.js),
// go with every call about it.

import * as api from './api.js';
import { toApiGrid, toApiPencil } from './formats.js';
import { apiFields } from './variants.js';

export const METHODS = [
  ['auto', 'auto (fastest for the grid)'],
  ['propagation', 'propagation'],
  ['mrv', 'mrv (fewest candidates first)'],
  ['backtracking', 'backtracking'],
  ['best-first', 'best-first'],
  ['dlx', 'dlx (dancing links)'],
  ['algorithm-x', 'algorithm-x'],
  ['cdcl', 'cdcl (clause learning, big grids)'],
  ['fast', 'fast (9×9 only)'],
];
export const LEVELS = ['peers', 'hidden-singles', 'naked-pairs', 'subsets'];
export const DIFFICULTIES = ['easy', 'medium', 'hard', 'expert', 'extreme'];
export const SYMMETRIES = [
  ['none', 'none'],
  ['rotational180', 'rotational 180°'],
  ['rotational90', 'rotational 90°'],
  ['mirror', 'mirror'],
  ['diagonal', 'diagonal'],
];

const box = (rows, cols) => ({ rows, cols });

// The fields saying what the grid is: its box, and a variant's rules
// (jigsaw regions replace the boxes).
const shape = (g) => {
  const v = apiFields(g.variant, g.n);
  return v.regions ? v : { box: box(g.rows, g.cols), ...v };
};

// {valid, complete, n, box, conflicts, conflicts_total}
export const validate = (values, g, opts) => api.post('v1/sudoku/validate', { grid: toApiGrid(values, g.n), ...shape(g) }, opts);

// A pasted grid the server reads for us: its size and box come back.
export const validateText = (grid, boxOrNull, opts) =>
  api.post('v1/sudoku/validate', boxOrNull ? { grid, box: boxOrNull } : { grid }, opts);

export const validateCsv = (csv, opts) => api.post('v1/sudoku/validate', csv, { ...opts, contentType: 'text/csv' });

// ISS's text or URL, read by the server: the answer's `puzzle` is the JSON
// it became (grid, box, constraints, ...), which the page draws and sends.
export const validateIss = (text, opts) => api.post('v1/sudoku/validate', text, { ...opts, contentType: 'text/x-iss' });

// A puzzle as the API's JSON (grid, box, variant fields, constraints),
// checked by the server as it stands.
export const validatePuzzle = (puzzle, opts) => api.post('v1/sudoku/validate', puzzle, opts);

// body: {method, propagation, max_solutions, timeout_ms, trace}; runs as a
// job (progress through opts.onProgress) when the server takes one.
export const solve = (values, g, body, opts) =>
  api.post('v1/sudoku/solve', { grid: toApiGrid(values, g.n), ...shape(g), ...body }, { job: true, ...opts });

// variant: a name of variants.js's VARIANTS ('classic' or none: a classic
// grid); seed: a number, or '' for a fresh puzzle.
export function generate({ n, rows, cols, difficulty, symmetry, variant, seed }, opts) {
  const body = { size: n, box: box(rows, cols), difficulty, symmetry, count: 1 };
  if (variant && variant !== 'classic') body.variant = variant;
  if (variant === 'jigsaw') delete body.box;
  if (seed !== undefined && seed !== '') body.seed = Number(seed);
  return api.post('v1/sudoku/generate', body, opts);
}

export const grade = (givens, g, opts) => api.post('v1/sudoku/grade', { grid: toApiGrid(givens, g.n), ...shape(g) }, opts);

// The next logical step for the board (givens and entries), with the
// player's pencil marks when there are any (not with a variant: the
// server does not read them there yet).
export function hint(values, givens, pencil, g, opts) {
  const n = g.n;
  const body = { grid: toApiGrid(values, n), givens: toApiGrid(givens, n), ...shape(g) };
  const marks = toApiPencil(values, pencil, n);
  if (marks.length && !g.variant) body.pencil = marks;
  return api.post('v1/sudoku/hint', body, opts);
}
