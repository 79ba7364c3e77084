// variants.js -- Sudoku variants on the page, with no DOM: one plain
// description of a puzzle's variant, and what each part of the page needs
// from it.  The description (kept in the game, in storage and in the share
// link) is
//   {names: ['jigsaw', 'x', ...], regions: [id per cell] | null,
//    parity: 'EO..' (one mark per cell) | null, pairs: [[i, j], ...] | null,
//    constraints: [...] | null, extra: [[i, ...], ...] | null}
// with cells i = r*width + c of the board's frame; a classic puzzle has
// none (null).  `constraints` are docs/constraints.md's, kept as the API
// writes them (constraints.js draws them) and `extra` the request's
// extra_units; a puzzle with only those has no names ([]).  From it:
//   frameOf()       the board's frame: n x n, or a layout's bounding box
//                   and the origins of its n x n grids;
//   apiFields()     the request fields of docs/variants.md (variant,
//                   regions, parity, pairs), so that every call about the
//                   puzzle (solve, validate, grade, hint) carries its rules;
//   variantOf()     the description from a generated puzzle's answer;
//   geometryOf()    the Geometry options (regions, grids, extra units,
//                   parity, pair rules, cell tags the board shades) and the
//                   board's decorations (diagonal lines, consecutive marks);
//   shareOf() / readShare() / shareFrame()   the link's fields.
//
// The overlapping layouts (Samurai, Sohei, ... LAYOUTS) are 9x9 grids in a
// frame with holes, as the API names them (names among the variants); the
// page plays a layout alone, not combined with another variant.  Their
// grid origins are janko.at's, as solvers/sudoku/model.c has them (the
// browser tests check each frame against the holes of the API's answers).
//
// Rules (docs/variants.md): x adds both diagonals, windoku the windows
// between the boxes, disjoint one unit per position in a box; even-odd
// limits marked cells to even (E) or odd (O) values; consecutive marks
// pairs that differ by exactly 1 and every other pair of orthogonal
// neighbours differs by more (janko's rule); non-consecutive: no
// neighbours differ by 1.

import { SYMBOLS } from './formats.js';
import { checkedList, typeLabel, rulesOf, shapesOf, needsRing, cellNotes, brokenCells } from './constraints.js';

// The variants the New game card offers: [name, label].
export const VARIANTS = [
  ['classic', 'Classic'],
  ['jigsaw', 'Jigsaw (irregular regions)'],
  ['x', 'Sudoku-X (diagonals)'],
  ['windoku', 'Windoku (four extra windows)'],
  ['disjoint', 'Disjoint groups'],
  ['even-odd', 'Even-odd'],
  ['consecutive', 'Consecutive'],
  ['non-consecutive', 'Non-consecutive'],
  ['samurai', 'Samurai (five overlapping grids)'],
  ['sohei', 'Sohei (four overlapping grids)'],
  ['windmill', 'Windmill (five overlapping grids)'],
  ['butterfly', 'Butterfly (four grids on 12×12)'],
  ['gattai-8', 'Gattai-8 (eight overlapping grids)'],
  ['shogun', 'Shogun (eleven overlapping grids)'],
  ['sumo', 'Sumo (thirteen overlapping grids)'],
  ['clueless-1', 'Clueless 1 (nine grids and their box centres)'],
  ['clueless-2', 'Clueless 2 (nine grids and their centre boxes)'],
];
const KNOWN = new Set(VARIANTS.map(([v]) => v).filter((v) => v !== 'classic'));

// The overlapping layouts: the top-left cells [row, col] of their 9x9
// grids; `tenth`: a Clueless layout's tenth grid, made of each grid's box
// centres (1) or of its centre box (2).
const NINE = [0, 9, 18].flatMap((r) => [0, 9, 18].map((c) => [r, c]));
export const LAYOUTS = {
  samurai: { grids: [[0, 0], [0, 12], [6, 6], [12, 0], [12, 12]] },
  sohei: { grids: [[0, 6], [6, 0], [6, 12], [12, 6]] },
  windmill: { grids: [[0, 3], [3, 12], [6, 6], [9, 0], [12, 9]] },
  butterfly: { grids: [[0, 0], [0, 3], [3, 0], [3, 3]] },
  'gattai-8': { grids: [[0, 0], [0, 12], [0, 24], [6, 6], [6, 18], [12, 0], [12, 12], [12, 24]] },
  shogun: { grids: [[0, 0], [0, 12], [0, 24], [0, 36], [6, 6], [6, 18], [6, 30], [12, 0], [12, 12], [12, 24], [12, 36]] },
  sumo: { grids: [[0, 0], [0, 12], [0, 24], [6, 6], [6, 18], [12, 0], [12, 12], [12, 24], [18, 6], [18, 18], [24, 0], [24, 12], [24, 24]] },
  'clueless-1': { grids: NINE, tenth: 1 },
  'clueless-2': { grids: NINE, tenth: 2 },
};
const LAYOUT_N = 9;

// The layout's name among the names (a layout is played alone), or null.
export const isLayout = (name) => Object.hasOwn(LAYOUTS, name);
export const layoutOf = (v) => (v && v.names.find(isLayout)) || null;

// Whether the description has rules beyond the named variants.
const hasMore = (v) => !!((v.constraints && v.constraints.length) || (v.extra && v.extra.length));

// The board's frame: {height, width, grids} (grids: the origins of a
// layout's n x n grids, null for one n x n grid).
export function frameOf(v, n) {
  const name = layoutOf(v);
  if (!name) return { height: n, width: n, grids: null };
  const grids = LAYOUTS[name].grids;
  return { height: Math.max(...grids.map(([r]) => r)) + n, width: Math.max(...grids.map(([, c]) => c)) + n, grids };
}

// A Clueless layout's tenth grid as frame cells, row by row (9 x 9).
function tenthGrid(kind, width) {
  return Array.from({ length: 81 }, (_, k) => {
    const [r, c] = [Math.floor(k / 9), k % 9];
    const [gi, gj, a, b] = [Math.floor(r / 3), Math.floor(c / 3), r % 3, c % 3];
    return kind === 1 ? (9 * gi + 3 * a + 1) * width + 9 * gj + 3 * b + 1 : (9 * gi + 3 + a) * width + 9 * gj + 3 + b;
  });
}

export function variantLabel(v) {
  if (!v) return 'Classic';
  const names = v.names.map((name) => (VARIANTS.find(([k]) => k === name) || [name, name])[1].replace(/ \(.*\)$/, ''));
  const types = [...new Set((v.constraints || []).map((c) => typeLabel(c.type)))];
  names.push(...(types.length > 3 ? [...types.slice(0, 3), '…'] : types));
  if (v.extra && v.extra.length) names.push('extra units');
  return names.join(' + ');
}

// The variant's rules beside the classic ones, in a player's words (the
// line under the board), or '' for a classic puzzle.
export function rulesText(v, n) {
  if (!v) return '';
  const all = `1–${SYMBOLS[n - 1]}`;
  const rules = {
    jigsaw: `each region with a thick border holds ${all} once (regions replace the boxes)`,
    x: `each main diagonal (shaded) holds ${all} once`,
    windoku: `each shaded window holds ${all} once`,
    disjoint: 'cells in the same place of different boxes hold different digits',
    'even-odd': 'a grey square holds an even digit, a circle an odd one',
    consecutive: 'neighbours joined by a white dot differ by 1, and no other neighbours do',
    'non-consecutive': 'no two side-by-side cells hold digits that differ by 1',
  };
  const layout = layoutOf(v);
  if (layout) {
    const { grids, tenth } = LAYOUTS[layout];
    const each = `each grid’s rows, columns and boxes hold ${all} once`;
    if (tenth) {
      const cells = tenth === 1 ? 'box centres' : 'centre boxes';
      return `${variantLabel(v)}: ${grids.length} ${n}×${n} grids side by side; ${each}, and the shaded ${cells} make a tenth grid with its own rows, columns and boxes.`;
    }
    return `${variantLabel(v)}: ${grids.length} overlapping ${n}×${n} grids; ${each}, and a cell shared by two grids counts in both.`;
  }
  // (a constraint's rule starts with its name: "Thermometer: digits rise ...")
  const parts = [...v.names.map((x) => rules[x])];
  if (v.extra && v.extra.length) parts.push(`each shaded extra unit holds ${all} once`);
  const named = parts.length ? `${variantLabel({ names: v.names, extra: v.extra })}: ${parts.join('; ')}` : '';
  return `${[named, ...rulesOf(v.constraints)].filter(Boolean).join('; ')}.`;
}

// The description from a generated puzzle (or any answer with the fields),
// or null for a classic one or a variant the page cannot play.
export function variantOf(p, n) {
  const names = (Array.isArray(p.variant) ? p.variant : p.variant ? [p.variant] : []).filter((x) => x !== 'classic');
  const constraints = Array.isArray(p.constraints) && p.constraints.length ? p.constraints : null;
  const extra = Array.isArray(p.extra_units) && p.extra_units.length ? p.extra_units : null;
  if ((!names.length && !constraints && !extra) || !names.every((x) => KNOWN.has(x))) return null;
  const flat = (a) => (typeof a === 'string' ? [...a] : a.flat());
  const v = { names, regions: null, parity: null, pairs: null, constraints, extra: null };
  if (p.regions) {
    const ids = new Map(); // labels (numbers or letters) -> 0..n-1, in order of first use
    v.regions = flat(p.regions).map((x) => (ids.has(x) ? ids.get(x) : ids.set(x, ids.size).get(x)));
  }
  if (p.parity) v.parity = flat(p.parity).map((x) => (x ? String(x)[0].toUpperCase() : '.')).join('');
  const width = frameOf(v, n).width;
  if (p.pairs) v.pairs = p.pairs.map((x) => (Array.isArray(x) ? x : x.cells).map(([r, c]) => r * width + c));
  if (extra) v.extra = extra.map((u) => (Array.isArray(u) ? u.map(([r, c]) => r * width + c) : null));
  return checked(v, n);
}

// v when it describes a puzzle of n symbols the page can play, else null
// (an old or broken save, a mistyped link).
export function checked(v, n) {
  if (!v || !Array.isArray(v.names) || !v.names.every((x) => KNOWN.has(x))) return null;
  if (!v.names.length && !hasMore(v)) return null;
  if ((v.constraints || v.extra) && layoutOf(v)) return null;
  if (v.constraints && !checkedList(v.constraints, n)) return null;
  if (layoutOf(v) && (v.names.length > 1 || n !== LAYOUT_N)) return null;
  const { height, width } = frameOf(v, n);
  const nn = height * width;
  const cell = (i) => Number.isInteger(i) && i >= 0 && i < nn;
  if (v.names.includes('jigsaw') !== !!v.regions) return null;
  if (v.regions) {
    if (v.regions.length !== nn || !v.regions.every((x) => Number.isInteger(x) && x >= 0 && x < n)) return null;
    const size = new Array(n).fill(0);
    for (const x of v.regions) size[x]++;
    if (size.some((s) => s !== n)) return null;
  }
  if (v.names.includes('even-odd') !== !!v.parity) return null;
  if (v.parity && (typeof v.parity !== 'string' || !/^[EO.]*$/.test(v.parity) || v.parity.length !== nn)) return null;
  if (v.names.includes('consecutive') !== !!v.pairs) return null;
  if (v.pairs && !v.pairs.every((p) => Array.isArray(p) && p.length === 2 && p.every(cell) && neighbours(p[0], p[1], width))) return null;
  if (v.extra && !(Array.isArray(v.extra) && v.extra.every((u) => Array.isArray(u) && u.length === n && u.every(cell)))) return null;
  return {
    names: v.names.slice(),
    regions: v.regions && v.regions.slice(),
    parity: v.parity || null,
    pairs: v.pairs && v.pairs.map((p) => p.slice()),
    constraints: v.constraints && v.constraints.length ? JSON.parse(JSON.stringify(v.constraints)) : null,
    extra: v.extra && v.extra.length ? v.extra.map((u) => u.slice()) : null,
  };
}

const neighbours = (a, b, w) => (Math.abs(a - b) === 1 && Math.floor(a / w) === Math.floor(b / w)) || Math.abs(a - b) === w;

// The request fields for the variant (nothing for a classic puzzle).
export function apiFields(v, n) {
  if (!v) return {};
  const out = {};
  if (v.names.length) out.variant = v.names.length === 1 ? v.names[0] : v.names.slice();
  const w = frameOf(v, n).width;
  const rc = (i) => [Math.floor(i / w), i % w];
  if (v.constraints) out.constraints = v.constraints;
  if (v.extra) out.extra_units = v.extra.map((u) => u.map(rc));
  if (v.regions) out.regions = Array.from({ length: n }, (_, r) => v.regions.slice(r * n, r * n + n));
  if (v.parity) out.parity = v.parity;
  if (v.pairs) out.pairs = v.pairs.map(([a, b]) => [rc(a), rc(b)]);
  return out;
}

// Geometry options and board decorations: {geometry: {regions, grids,
// extraUnits, tags, parity, pairs, nonConsecutive}, decorations: [...]}.
export function geometryOf(v, n, rows, cols) {
  const layout = layoutOf(v);
  if (layout) return layoutGeometry(layout, n);
  const tags = new Array(n * n).fill('');
  const extraUnits = [];
  const decorations = [];
  const has = (x) => v.names.includes(x);
  if (has('x')) {
    const d = [Array.from({ length: n }, (_, k) => k * n + k), Array.from({ length: n }, (_, k) => k * n + (n - 1 - k))];
    extraUnits.push(...d);
    for (const u of d) for (const i of u) tags[i] = ' diag';
    decorations.push({ type: 'line', cells: [0, n * n - 1], cls: 'diag-line' }, { type: 'line', cells: [n - 1, n * (n - 1)], cls: 'diag-line' });
  }
  if (has('windoku')) {
    for (let wr = 0; wr < n / rows - 1; wr++) {
      for (let wc = 0; wc < n / cols - 1; wc++) {
        const u = [];
        for (let a = 0; a < rows; a++) for (let b = 0; b < cols; b++) u.push((1 + wr * (rows + 1) + a) * n + 1 + wc * (cols + 1) + b);
        extraUnits.push(u);
        for (const i of u) tags[i] += ' win';
      }
    }
  }
  if (has('disjoint')) {
    for (let a = 0; a < rows; a++) {
      for (let b = 0; b < cols; b++) {
        const u = [];
        for (let br = 0; br < n; br += rows) for (let bc = 0; bc < n; bc += cols) u.push((br + a) * n + bc + b);
        extraUnits.push(u);
      }
    }
  }
  if (v.parity) [...v.parity].forEach((m, i) => (tags[i] += m === 'E' ? ' even' : m === 'O' ? ' odd' : ''));
  for (const [a, b] of v.pairs || []) decorations.push({ type: 'pair', cells: [a, b], cls: 'pair-mark' });
  for (const u of v.extra || []) {
    extraUnits.push(u);
    for (const i of u) tags[i] += ' win';
  }
  // a constraint's diagonals and windows are units too (the pencil marks
  // and the conflicts know them); the rest the server checks
  for (const c of v.constraints || []) {
    const units = c.type === 'diagonal' ? [c.cells] : c.type === 'windoku' ? c.windows || [] : [];
    for (const u of units) if (u.length === n) extraUnits.push(u.map(([r, col]) => r * n + col));
  }
  return {
    constraints: v.constraints ? { groups: shapesOf(v.constraints, n), ring: needsRing(v.constraints), notes: cellNotes(v.constraints, n) } : null,
    geometry: {
      regions: v.regions,
      extraUnits,
      tags,
      parity: v.parity,
      pairs: v.pairs || [],
      nonConsecutive: has('consecutive') || has('non-consecutive'),
      check: v.constraints ? (values) => brokenCells(v.constraints, values, n, rows, cols) : null,
    },
    decorations,
  };
}

// A layout's grids and, for a Clueless one, its tenth grid's rows,
// columns and boxes as extra units, its cells shaded (tag ' tenth').
function layoutGeometry(name, n) {
  const { height, width, grids } = frameOf({ names: [name] }, n);
  const tags = new Array(height * width).fill('');
  const extraUnits = [];
  if (LAYOUTS[name].tenth) {
    const t = tenthGrid(LAYOUTS[name].tenth, width);
    const at = (r, c) => t[r * 9 + c];
    for (let k = 0; k < 9; k++) {
      extraUnits.push(Array.from({ length: 9 }, (_, j) => at(k, j)), Array.from({ length: 9 }, (_, j) => at(j, k)));
      extraUnits.push(Array.from({ length: 9 }, (_, j) => at(3 * Math.floor(k / 3) + Math.floor(j / 3), 3 * (k % 3) + (j % 3))));
    }
    for (const i of t) tags[i] = ' tenth';
  }
  return { geometry: { grids, extraUnits, tags }, decorations: [] };
}

// The share link's fields: v (names), r (regions, a symbol per cell),
// q (parity), c (consecutive pairs: cells in base 36, "a.b" joined by _).
export function shareOf(v) {
  if (!v) return {};
  const out = { v: v.names.join(',') };
  if (v.constraints) out.k = JSON.stringify(v.constraints);
  if (v.extra) out.x = v.extra.map((u) => u.map((i) => i.toString(36)).join('.')).join('_');
  if (v.regions) out.r = v.regions.map((x) => SYMBOLS[x] || '0').join('');
  if (v.parity) out.q = v.parity;
  if (v.pairs) out.c = v.pairs.map(([a, b]) => `${a.toString(36)}.${b.toString(36)}`).join('_');
  return out;
}

// The frame a link's grid fills when its variant is a layout: {n, cells},
// else null (the grid is n x n).
export function shareFrame(params) {
  const names = (params.get('v') || '').split(',');
  if (names.length !== 1 || !isLayout(names[0])) return null;
  const { height, width } = frameOf({ names }, LAYOUT_N);
  return { n: LAYOUT_N, cells: height * width };
}

// The description a link holds (null: classic), or {error}.
export function readShare(params, n) {
  if (!params.get('v') && !params.get('k') && !params.get('x')) return null;
  const v = { names: params.get('v') ? params.get('v').split(',') : [], regions: null, parity: null, pairs: null, constraints: null, extra: null };
  if (params.get('k')) {
    try {
      v.constraints = JSON.parse(params.get('k'));
    } catch {
      return { error: 'the link’s constraints cannot be read' };
    }
  }
  if (params.get('x')) v.extra = params.get('x').split('_').map((u) => u.split('.').map((x) => parseInt(x, 36)));
  if (params.get('r')) v.regions = [...params.get('r')].map((ch) => SYMBOLS.indexOf(ch));
  if (params.get('q')) v.parity = params.get('q');
  if (params.has('c')) {
    const text = params.get('c');
    v.pairs = text ? text.split('_').map((p) => p.split('.').map((x) => parseInt(x, 36))) : [];
  }
  return checked(v, n) || { error: 'the link’s variant cannot be read' };
}
