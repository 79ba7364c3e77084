// formats.js -- grids as text: the symbols (1-9 then A-Z, as the API's
// string grids spell 10..35; numbers past that), the sizes the pages offer,
// the example puzzles, reading a pasted or imported puzzle, the course's
// Killer text format, and the share links' fragments.

import { LIMITS } from './limits.js';

export const SYMBOLS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const symbolOf = (v) => (v > 0 ? SYMBOLS[v - 1] || String(v) : '');

// 1..n for a symbol typed or read, 0 for anything else.
export function valueOf(ch, n) {
  if (String(ch).length !== 1) return 0;
  const i = SYMBOLS.indexOf(String(ch).toUpperCase());
  return i >= 0 && i < n ? i + 1 : 0;
}

// Sizes offered, with the box the API uses by default for each.
export const SIZES = [
  [4, 2, 2],
  [6, 2, 3],
  [8, 2, 4],
  [9, 3, 3],
  [10, 2, 5],
  [12, 3, 4],
  [15, 3, 5],
  [16, 4, 4],
  [20, 4, 5],
  [25, 5, 5],
].map(([n, r, c]) => ({ n, rows: r, cols: c }));

export const boxFor = (n) => SIZES.find((s) => s.n === n) || defaultBox(n);

function defaultBox(n) {
  let r = Math.floor(Math.sqrt(n));
  while (r > 1 && n % r) r--;
  return { n, rows: r, cols: n / r };
}

export const sizeLabel = (s) => `${s.n}×${s.n} (boxes ${s.rows}×${s.cols})`;

export const EXAMPLES = [
  ['', 'Load an example…'],
  ['1..4...3....32..', '4×4'],
  ['.2.4...5..232......6.2.1.1...56.....', '6×6'],
  ['53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79', '9×9 classic'],
  ['8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..', '9×9 very hard'],
  ['..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9', '9×9 hard for brute force'],
];

// values (array of n*n ints, 0 empty) -> the API's string grid
export const toGridString = (values) => values.map((v) => (v ? SYMBOLS[v - 1] : '.')).join('');

// The player's pencil marks on empty cells as the hint endpoints read
// them: [{cell: [r, c], values: [...]}] (bit v-1 of pencil[i] = value v).
export function toApiPencil(values, pencil, n) {
  const marks = [];
  pencil.forEach((m, i) => {
    if (!m || values[i]) return;
    const vs = [];
    for (let v = 1; v <= n; v++) if (m & (1 << (v - 1))) vs.push(v);
    marks.push({ cell: [Math.floor(i / n), i % n], values: vs });
  });
  return marks;
}

// values -> the grid as the API reads it: a string up to 35x35, else rows
// of integers (null empty).
export function toApiGrid(values, n) {
  if (n <= LIMITS.sudoku.maxStringN) return toGridString(values);
  return Array.from({ length: n }, (_, r) => values.slice(r * n, r * n + n).map((v) => v || null));
}

// "r4c5" for cell i of an n x n grid (1-based, as the hints write it).
export const cellName = (i, n) => `r${Math.floor(i / n) + 1}c${(i % n) + 1}`;

// The API's string grid (or an array of arrays of numbers) -> values.
export function fromGrid(grid, n) {
  if (typeof grid === 'string') return [...grid].map((ch) => valueOf(ch, n));
  return grid.flat().map((v) => (v === null || v === undefined ? 0 : v));
}

// Reads pasted or imported text.  Returns {csv: text} for comma-separated
// rows (sent to the server as text/csv), or {grid: string} with separators,
// spaces and box-drawing removed ('.', '0', '_', '*' and '-' between
// separators mean empty) -- or {error} when there is nothing to read.
// The server has the last word on whether it is a puzzle: the page sends
// either form to /v1/sudoku/validate and shows its answer next to the
// field.
export function readPuzzleText(text) {
  const t = String(text || '').trim();
  if (!t) return { error: 'Nothing to read: paste a puzzle first.' };
  const lines = t.split(/\r?\n/).filter((l) => l.trim() && !l.trim().startsWith('#'));
  if (lines.length > 1 && lines.every((l) => l.includes(','))) return { csv: lines.join('\n') + '\n' };
  const kept = lines
    .filter((l) => !/^[\s\-+=|]+$/.test(l)) // ruled separator lines
    .join('')
    .replace(/[\s|+]/g, '')
    .replace(/[_*]/g, '.');
  return { grid: kept.replace(/-/g, '.') };
}

// Whether pasted text is ISS's (sigh's Interactive Sudoku Solver) constraint
// text or URL ('iss'), the API's JSON ('json'), or neither (null: a grid
// or CSV for readPuzzleText).  ISS's items are ".Type~arg~..."; a grid of
// ours never holds '~'.  ISS's other form, N*N givens then an N*N jigsaw
// layout, is 2*N*N characters without blanks: never a square, so never
// one of our grids.
export function puzzleTextKind(text) {
  const t = String(text || '').trim();
  if (t.startsWith('{')) return 'json';
  if (/^(https?:\/\/|\?)\S*[?&]q=/.test(t) || t.includes('~') || /^(\.[A-Z][A-Za-z]+)+$/.test(t)) return 'iss';
  const flat = t.replace(/\s/g, '').length;
  for (let n = 4; n <= 16; n++) if (flat === 2 * n * n) return 'iss';
  return null;
}

// CSV rows -> values (symbols or numbers 1..n; empty fields empty).
export function fromCsv(csv, n) {
  const out = [];
  for (const line of csv.trim().split(/\r?\n/)) {
    for (const f of line.split(',')) {
      const s = f.trim();
      out.push(/^\d+$/.test(s) ? Math.min(+s, n) : valueOf(s, n));
    }
  }
  return out;
}

// === Killer: the course's text format ======================================
//   line 1   the size N
//   line 2   the N symbols (1..N here)
//   line 3   the number of cages
//   then     one cage a line: "sum r,c r,c ..." (0-based)
// Returns {size, cages: [{sum, cells: [[r,c]...]}]} or {error, line}.
export function parseKillerText(text) {
  const lines = String(text)
    .split(/\r?\n/)
    .map((l, i) => [l.trim(), i + 1])
    .filter(([l]) => l && !l.startsWith('#'));
  if (lines.length < 3) return { error: 'needs the size, the symbols and the number of cages', line: 1 };
  const size = +lines[0][0];
  const { minN, maxN } = LIMITS.killer;
  if (!Number.isInteger(size) || size < minN || size > maxN) {
    return { error: `the size must be an integer from ${minN} to ${maxN}, got "${lines[0][0]}"`, line: lines[0][1] };
  }
  const count = +lines[2][0];
  if (!Number.isInteger(count) || count < 0) {
    return { error: `the number of cages must be an integer, got "${lines[2][0]}"`, line: lines[2][1] };
  }
  const cages = [];
  for (const [l, no] of lines.slice(3)) {
    const parts = l.split(/\s+/);
    const sum = +parts[0];
    if (!Number.isInteger(sum)) return { error: `a cage line starts with its sum, got "${parts[0]}"`, line: no };
    const cells = [];
    for (const p of parts.slice(1)) {
      const m = /^(\d+),(\d+)$/.exec(p);
      if (!m) return { error: `a cell is "row,col", got "${p}"`, line: no };
      cells.push([+m[1], +m[2]]);
    }
    cages.push({ sum, cells });
  }
  if (cages.length !== count) {
    return { error: `line 3 announces ${count} cages, ${cages.length} follow`, line: lines[2][1] };
  }
  return { size, cages };
}

export function formatKillerText(size, cages) {
  const syms = Array.from({ length: size }, (_, i) => i + 1).join(' ');
  const body = cages.map((c) => `${c.sum} ${c.cells.map(([r, k]) => `${r},${k}`).join(' ')}`);
  return [String(size), syms, String(cages.length), ...body].join('\n') + '\n';
}

// A Killer as JSON ({size, cages[, diagonals]}) or the text format.
export function parseKiller(text) {
  const t = String(text || '').trim();
  if (!t) return { error: 'Nothing to read: paste a killer first.' };
  if (t.startsWith('{')) {
    let j;
    try {
      j = JSON.parse(t);
    } catch (e) {
      return { error: `not valid JSON: ${e.message}` };
    }
    const size = j.size || (j.box && j.box.rows * j.box.cols) || 9;
    if (!Array.isArray(j.cages)) return { error: 'the JSON has no "cages" list' };
    return { size, cages: j.cages, diagonals: !!j.diagonals };
  }
  const r = parseKillerText(t);
  if (r.error) return { error: r.line ? `line ${r.line}: ${r.error}` : r.error };
  return r;
}

// === Share links ===========================================================
// A puzzle travels in the URL's fragment, after the page's route:
//   #/sudoku?p=<grid>[&b=RxC][&e=<entries>]   (a variant adds its fields,
//                                             variants.js's shareOf)
//   #/killer?n=<N>&k=<cages>[&x=1][&e=<entries>]
// <grid> and <entries> are strings of N*N symbols ('.' empty; an
// overlapping layout's: a symbol per cell of its frame) up to 35x35,
// else the values joined by '-' (0 empty); b is given when the box is not
// the default one for N; <cages> is "sum-cell.cell..." per cage joined by
// '_' (cells as r*N+c in base 36); x=1 is Killer-X.  Only unreserved URL
// characters, so the link survives being pasted anywhere.

const cellsToText = (values, n) =>
  n <= LIMITS.sudoku.maxStringN ? toGridString(values) : values.map((v) => v || 0).join('-');

function textToCells(text, n, max, cells = n * n) {
  const parts = n <= LIMITS.sudoku.maxStringN ? [...text] : text.split('-');
  if (parts.length !== cells) return null;
  const out = parts.map((p) => (n <= LIMITS.sudoku.maxStringN ? valueOf(p, n) : Number(p) || 0));
  if (n <= LIMITS.sudoku.maxStringN && parts.some((p, i) => !out[i] && p !== '.' && p !== '0')) return null;
  if (out.some((v) => !Number.isInteger(v) || v < 0 || v > max)) return null;
  return out;
}

// {n, rows, cols, givens, entries?} -> the fragment's query.
export function sudokuShare({ n, rows, cols, givens, entries }) {
  const q = new URLSearchParams({ p: cellsToText(givens, n) });
  const d = boxFor(n);
  if (d.rows !== rows || d.cols !== cols) q.set('b', `${rows}x${cols}`);
  if (entries && entries.some(Boolean)) q.set('e', cellsToText(entries, n));
  return q.toString();
}

// The fragment's query -> {n, rows, cols, givens, entries} or {error}.
// `frame` {n, cells}: the link's grid fills an overlapping layout's frame
// of that many cells (variants.js's shareFrame), not an n x n grid.
export function readSudokuShare(params, frame = null) {
  const p = params.get('p') || '';
  const len = n0(p);
  const n = frame ? frame.n : Math.round(Math.sqrt(len));
  const cells = frame ? frame.cells : n * n;
  if (cells !== len || n < LIMITS.sudoku.minN || n > LIMITS.sudoku.maxN) return { error: 'the link holds no grid the page can read' };
  const givens = textToCells(p, n, n, cells);
  if (!givens) return { error: 'the link’s grid has symbols a ' + `${n}×${n} grid cannot hold` };
  let { rows, cols } = boxFor(n);
  const b = /^(\d+)x(\d+)$/.exec(params.get('b') || '');
  if (b) [rows, cols] = [+b[1], +b[2]];
  if (rows * cols !== n) return { error: `a ${rows}×${cols} box does not fit a ${n}×${n} grid` };
  let entries = null;
  if (params.get('e')) {
    entries = textToCells(params.get('e'), n, n, cells);
    if (!entries) return { error: 'the link’s entries do not fit its grid' };
  }
  return { n, rows, cols, givens, entries };
}

// N*N from either text form (a string of symbols, or values joined by '-').
function n0(text) {
  return text.includes('-') ? text.split('-').length : text.length;
}

export function killerShare({ n, cages, diagonals, entries }) {
  const q = new URLSearchParams({ n: String(n) });
  q.set('k', cages.map((c) => `${c.sum}-${c.cells.map(([r, k]) => (r * n + k).toString(36)).join('.')}`).join('_'));
  if (diagonals) q.set('x', '1');
  if (entries && entries.some(Boolean)) q.set('e', cellsToText(entries, n));
  return q.toString();
}

export function readKillerShare(params) {
  const n = Number(params.get('n'));
  const { minN, maxN } = LIMITS.killer;
  if (!Number.isInteger(n) || n < minN || n > maxN) return { error: `a killer is ${minN}×${minN} to ${maxN}×${maxN}` };
  const used = new Set();
  const cages = [];
  for (const part of (params.get('k') || '').split('_')) {
    const m = /^(\d{1,4})-([0-9a-z]+(?:\.[0-9a-z]+)*)$/.exec(part);
    if (!m) return { error: 'the link’s cages cannot be read' };
    const cells = [];
    for (const t of m[2].split('.')) {
      const i = parseInt(t, 36);
      if (!(i >= 0 && i < n * n) || used.has(i)) return { error: 'the link’s cages overlap or leave the grid' };
      used.add(i);
      cells.push([Math.floor(i / n), i % n]);
    }
    cages.push({ sum: +m[1], cells });
  }
  let entries = null;
  if (params.get('e')) {
    entries = textToCells(params.get('e'), n, n);
    if (!entries) return { error: 'the link’s entries do not fit its grid' };
  }
  return { n, cages, diagonals: params.get('x') === '1', entries };
}

// === The API's words for players ===========================================
// The API numbers rows, columns, boxes and cages from 0 and names fields as
// JSON paths (grid[0][4], cages[3].cells[1]); a player reads r1c5 and
// "row 1".  The engineer panels show the API's own words.
export function playerField(field) {
  let m = /^grid\[(\d+)\]\[(\d+)\]$/.exec(field || '');
  if (m) return `r${+m[1] + 1}c${+m[2] + 1}`;
  m = /^cages\[(\d+)\](?:\.cells\[(\d+)\])?/.exec(field || '');
  if (m) return m[2] === undefined ? `cage ${+m[1] + 1}` : `cage ${+m[1] + 1}, cell ${+m[2] + 1}`;
  return field || '';
}

export const playerDetail = (detail) =>
  String(detail || '').replace(/\b(row|column|col|box|cage|line) (\d+)\b/g, (_, w, k) => `${w === 'col' ? 'column' : w} ${+k + 1}`);
