// formats.js -- grids as text: the symbols (1-9 then A-Z, as the API's
// string grids spell 10..35), the sizes the pages offer, reading a pasted
// or imported puzzle, and the course's Killer text format.

export const SYMBOLS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const symbolOf = (v) => (v > 0 ? SYMBOLS[v - 1] : '');

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

// values (array of n*n ints, 0 empty) -> the API's string grid
export const toGridString = (values) => values.map((v) => (v ? SYMBOLS[v - 1] : '.')).join('');

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
  if (!Number.isInteger(size) || size < 4 || size > 36) {
    return { error: `the size must be an integer from 4 to 36, got "${lines[0][0]}"`, line: lines[0][1] };
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
