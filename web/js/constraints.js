// constraints.js -- the Sudoku `constraints` of docs/constraints.md on the
// page, with no DOM: what each one is called, what it says in words, and
// the shapes that draw it, in the style setters use.  The constraints are
// kept exactly as the API writes them (cells [row, col] from 0), so the
// page sends back what it read; the server reads them (for ISS's text:
// POST /v1/sudoku/validate answers the JSON a text became), solves them
// and checks them (validate).  The page's own check (brokenCells, at the
// end) only marks what the entries already break, for the board.
//
// shapesOf(constraints, n) gives one group per constraint:
//   {k, type, family, title, shapes: [...]}
// in grid units (a cell is 1 x 1, cell (r, c) spans x c..c+1, y r..r+1;
// outside clues stand in the ring around the grid, x or y -1 or n):
//   {kind: 'line', pts: [[x, y], ...], closed?}   a polyline (polygon)
//   {kind: 'circle', x, y, r}                     a circle or dot
//   {kind: 'diamond', x, y, r}                    a lockout end
//   {kind: 'rect', x, y, w, h}                    a shaded cell (windoku)
//   {kind: 'text', x, y, text, anchor?}           a clue or a letter
// each with a class (cls) the stylesheet colours.  `family` is one of
// line, circle, dot, outside, cage, global, unit: the legend groups them,
// and the browser tests count them.  Globals (anti-knight, ...) draw
// nothing: they are named under the board.

// type -> [label, family, rule in a player's words]
const TYPES = {
  thermo: ['Thermometer', 'line', 'digits rise from the bulb along the line'],
  arrow: ['Arrow', 'circle', 'the digits on the arrow sum to the digit in its circle'],
  'double-arrow': ['Double arrow', 'circle', 'the digits on the line sum to the two circles together'],
  'pill-arrow': ['Pill arrow', 'circle', 'the digits on the arrow sum to the number the pill reads'],
  whisper: ['German whisper', 'line', 'neighbours on the green line differ by at least the difference (5)'],
  renban: ['Renban', 'line', 'the purple line holds a set of consecutive digits in any order'],
  palindrome: ['Palindrome', 'line', 'the grey line reads the same from either end'],
  between: ['Between line', 'line', 'digits on the line lie strictly between its two circled ends'],
  lockout: ['Lockout line', 'line', 'the diamonds differ by at least the minimum; no digit on the line lies between them (inclusive)'],
  modular: ['Modular line', 'line', 'every run of three (mod) cells on the line holds one digit of each remainder'],
  entropic: ['Entropic line', 'line', 'every run of three cells holds one low (1–3), one middle (4–6) and one high (7–9) digit'],
  zipper: ['Zipper line', 'line', 'digits the same distance from the line’s centre sum to the same total'],
  'sum-line': ['Sum line', 'line', 'the line splits into runs summing to the given total'],
  'region-sum-line': ['Region sum line', 'line', 'the line sums to the same total in every box it passes through'],
  'equal-sum': ['Equal sum', 'line', 'every group sums to the same total'],
  'kropki-white': ['White dot', 'dot', 'the two digits are consecutive'],
  'kropki-black': ['Black dot', 'dot', 'one digit is double the other'],
  x: ['X', 'dot', 'the two digits sum to 10'],
  v: ['V', 'dot', 'the two digits sum to 5'],
  'greater-than': ['Greater than', 'dot', 'the chevron points at the smaller digit'],
  'little-killer': ['Little killer', 'outside', 'the digits along the arrow’s diagonal sum to the clue (they may repeat)'],
  sandwich: ['Sandwich', 'outside', 'the digits between the 1 and the largest digit of the row or column sum to the clue'],
  'x-sum': ['X-sum', 'outside', 'the first X digits from the clue sum to it, X being the first digit'],
  skyscraper: ['Skyscraper', 'outside', 'the clue counts the digits seen from it, taller hiding shorter'],
  cage: ['Killer cage', 'cage', 'the digits in the dashed cage differ and sum to its total'],
  sum: ['Sum', 'cage', 'the digits in the dotted group sum to its total (they may repeat)'],
  diagonal: ['Diagonal', 'unit', 'the marked diagonal holds each digit once'],
  windoku: ['Windoku', 'unit', 'each shaded window holds each digit once'],
  'anti-knight': ['Anti-knight', 'global', 'cells a chess knight’s move apart hold different digits'],
  'anti-king': ['Anti-king', 'global', 'cells a chess king’s move apart (diagonal touch) hold different digits'],
  'anti-consecutive': ['Anti-consecutive', 'global', 'side-by-side cells never hold consecutive digits'],
  'strict-kropki': ['All kropki dots given', 'global', 'side-by-side cells without a dot are neither consecutive nor in a 1:2 ratio'],
  'strict-xv': ['All XV given', 'global', 'side-by-side cells without an X or V sum to neither 5 nor 10'],
  'disjoint-sets': ['Disjoint sets', 'global', 'cells in the same place of different boxes hold different digits'],
};

export const typeLabel = (t) => (TYPES[t] ? TYPES[t][0] : t);
export const familyOf = (t) => (TYPES[t] ? TYPES[t][1] : 'line');
export const ruleOf = (t) => (TYPES[t] ? TYPES[t][2] : '');
export const isKnownType = (t) => Object.hasOwn(TYPES, t);

// The outside clues need a ring of one cell around the grid.
export const needsRing = (list) => (list || []).some((c) => familyOf(c.type) === 'outside');

const cn = ([r, c]) => `r${r + 1}c${c + 1}`;
const mid = ([r, c]) => [c + 0.5, r + 0.5];
const cellsOf = (c) => c.cells || [];

// Every cell a constraint names (for checking a description, and for the
// cells' spoken descriptions).
export function cellsIn(c) {
  const out = [...cellsOf(c)];
  if (c.circle) out.push(c.circle);
  for (const k of ['circles', 'line', 'pill']) if (Array.isArray(c[k])) out.push(...c[k]);
  for (const s of c.segments || []) out.push(...s);
  for (const w of c.windows || []) out.push(...w);
  return out;
}

// Whether a constraint list is one the page can draw and send on: objects
// of known types whose cells lie in the n x n grid.
export function checkedList(list, n) {
  if (!Array.isArray(list) || list.length > 4096) return false;
  const inGrid = (p) => Array.isArray(p) && p.length === 2 && p.every((x) => Number.isInteger(x) && x >= 0 && x < n);
  return list.every((c) => c && typeof c === 'object' && isKnownType(c.type) && cellsIn(c).every(inGrid));
}

// A constraint in words: its type and where it is (its title and the
// legend's line).
export function describe(c, n) {
  const label = typeLabel(c.type);
  const cells = cellsOf(c);
  const span = cells.length ? `${cn(cells[0])} to ${cn(cells[cells.length - 1])}` : '';
  const sum = c.sum === null || c.sum === undefined ? '' : ` ${c.sum}`;
  switch (c.type) {
    case 'thermo':
      return `${label}: bulb at ${cn(cells[0])}, rising to ${cn(cells[cells.length - 1])}`;
    case 'arrow':
      return `${label}: circle at ${cn(c.circle)}, arrow ${c.line.map(cn).join(', ')}`;
    case 'double-arrow':
      return `${label}: circles at ${c.circles.map(cn).join(' and ')}, line ${c.line.map(cn).join(', ')}`;
    case 'pill-arrow':
      return `${label}: pill ${c.pill.map(cn).join(', ')}, arrow ${c.line.map(cn).join(', ')}`;
    case 'kropki-white':
    case 'kropki-black':
    case 'x':
    case 'v':
      return `${label} between ${cn(cells[0])} and ${cn(cells[1])}`;
    case 'greater-than':
      return `${label}: ${cn(cells[0])} is greater than ${cn(cells[1])}`;
    case 'little-killer':
      return `${label}${sum} along the diagonal ${span}`;
    case 'sandwich':
      return `${label}${sum} in ${c.row !== undefined ? `row ${c.row + 1}` : `column ${c.col + 1}`}`;
    case 'x-sum':
    case 'skyscraper':
      return `${label} ${c.type === 'x-sum' ? c.sum : c.visible} from the ${c.side} of ${cells[0][0] === cells[1 % cells.length][0] ? `row ${cells[0][0] + 1}` : `column ${cells[0][1] + 1}`}`;
    case 'cage':
    case 'sum':
      return `${label}${sum} over ${cells.map(cn).join(', ')}`;
    case 'whisper':
      return `${label} (difference ${c.difference ?? 5}): ${span}`;
    case 'lockout':
      return `${label} (minimum ${c.min_diff}): ${span}`;
    case 'modular':
      return `${label} (mod ${c.mod ?? 3}): ${span}`;
    case 'sum-line':
      return `${label}${sum}${c.loop ? ' (a loop)' : ''}: ${span}`;
    case 'equal-sum':
      return `${label}: ${c.segments.map((s) => s.map(cn).join(' ')).join(' = ')}`;
    case 'diagonal':
      return `${label} (${c.which === 'anti' ? 'top right to bottom left' : 'top left to bottom right'})`;
    case 'windoku':
      return `${label}: ${(c.windows || []).length} windows`;
    default:
      return cells.length ? `${label}: ${span}` : `${label} (over the whole ${n}×${n} grid)`;
  }
}

// === Shapes =================================================================

const line = (cells, cls) => ({ kind: 'line', pts: cells.map(mid), cls });
const circle = (cell, r, cls) => {
  const [x, y] = mid(cell);
  return { kind: 'circle', x, y, r, cls };
};
const text = (x, y, t, cls, anchor = 'middle') => ({ kind: 'text', x, y, text: String(t), cls, anchor });

// The point between two neighbouring cells (a dot, a letter, a chevron).
const edge = (a, b) => {
  const [x1, y1] = mid(a);
  const [x2, y2] = mid(b);
  return [(x1 + x2) / 2, (y1 + y2) / 2];
};

// pts with its first point moved `by` towards the second (off a circle's rim).
function trimStart(pts, by) {
  const [x0, y0] = pts[0];
  const [x1, y1] = pts[1];
  const d = Math.hypot(x1 - x0, y1 - y0) || 1;
  return [[x0 + ((x1 - x0) / d) * by, y0 + ((y1 - y0) / d) * by], ...pts.slice(1)];
}

// An arrow's shaft from the circle's rim through the line, and its head.
function arrowShapes(from, fromR, cells, cls) {
  const pts = trimStart([from, ...cells.map(mid)], fromR);
  return [
    { kind: 'line', pts, cls },
    { kind: 'line', pts: headAt(pts[pts.length - 2], pts[pts.length - 1], 0.28), cls },
  ];
}

// An arrowhead at b for a shaft from a, `size` long.
function headAt([ax, ay], [bx, by], size) {
  const e = Math.hypot(bx - ax, by - ay) || 1;
  const [ux, uy] = [(bx - ax) / e, (by - ay) / e];
  const w = size * 0.7;
  return [
    [bx - ux * size - uy * w, by - uy * size + ux * w],
    [bx, by],
    [bx - ux * size + uy * w, by - uy * size - ux * w],
  ];
}

// A cage's outline, drawn `e` inside its cells: one segment per cell side
// that borders a cell outside the cage, carried on to the next cell along
// that border, or turned in at a concave corner.
function cageOutline(cells, cls, e = 0.1) {
  const key = (r, c) => `${r},${c}`;
  const set = new Set(cells.map(([r, c]) => key(r, c)));
  const has = (r, c) => set.has(key(r, c));
  const out = [];
  // side: the outside neighbour's step (dr, dc); along: the side's direction
  const sides = [
    [-1, 0],
    [1, 0],
    [0, -1],
    [0, 1],
  ];
  for (const [r, c] of cells) {
    for (const [dr, dc] of sides) {
      if (has(r + dr, c + dc)) continue;
      const [ar, ac] = [dc, dr]; // along the side (perpendicular to the step)
      // the two ends: -1 and +1 along
      const end = (s) => {
        const nr = r + s * ar;
        const nc = c + s * ac;
        if (!has(nr, nc)) return 0.5 - e; // a convex corner: stop inside
        return has(nr + dr, nc + dc) ? 0.5 + e : 0.5; // concave: turn in; else run on
      };
      const [cx, cy] = mid([r, c]);
      const off = 0.5 - e; // from the centre to the side, inset
      const [px, py] = [cx + dc * off, cy + dr * off];
      const a = end(-1);
      const b = end(1);
      out.push({ kind: 'line', pts: [[px - ac * a, py - ar * a], [px + ac * b, py + ar * b]], cls });
    }
  }
  return out;
}

// Where an outside clue stands: one step out from the first cell, against
// the direction of the cells (a little killer's diagonal, a row read from
// its side).
function outsidePoint(c, n) {
  const cells = cellsOf(c);
  if (c.type === 'sandwich') return c.row !== undefined ? [-0.5, c.row + 0.5] : [c.col + 0.5, -0.5];
  const [r, col] = cells[0];
  let dr;
  let dc;
  if (c.type === 'little-killer') {
    if (cells.length > 1) [dr, dc] = [cells[1][0] - r, cells[1][1] - col];
    else [dr, dc] = [r === 0 ? 1 : -1, col === 0 ? 1 : -1]; // a corner cell
  } else {
    [dr, dc] = { left: [0, 1], right: [0, -1], top: [1, 0], bottom: [-1, 0] }[c.side] || [0, 1];
  }
  const [x, y] = mid([r - dr, col - dc]);
  return [Math.min(Math.max(x, -0.5), n + 0.5), Math.min(Math.max(y, -0.5), n + 0.5)];
}

function shapesFor(c, n) {
  const cells = cellsOf(c);
  const t = c.type;
  const cls = `c-${t}`;
  switch (t) {
    case 'thermo':
      return [line(cells, cls), circle(cells[0], 0.36, `${cls} bulb`)];
    case 'arrow':
      return [circle(c.circle, 0.4, `${cls} ring`), ...arrowShapes(mid(c.circle), 0.4, c.line, cls)];
    case 'double-arrow':
      return [
        circle(c.circles[0], 0.4, `${cls} ring`),
        circle(c.circles[1], 0.4, `${cls} ring`),
        { kind: 'line', pts: trimStart(trimStart([c.circles[0], ...c.line, c.circles[1]].map(mid), 0.4).reverse(), 0.4), cls },
      ];
    case 'pill-arrow': {
      // the shaft leaves the pill from its cell nearest the line
      const d = (p) => Math.hypot(p[0] - c.line[0][0], p[1] - c.line[0][1]);
      const from = c.pill.reduce((a, b) => (d(b) < d(a) ? b : a));
      return [line(c.pill, `${cls} pill`), ...arrowShapes(mid(from), 0.4, c.line, cls)];
    }
    case 'between':
      return [line(cells, cls), circle(cells[0], 0.38, `${cls} ring`), circle(cells[cells.length - 1], 0.38, `${cls} ring`)];
    case 'lockout': {
      const [x0, y0] = mid(cells[0]);
      const [x1, y1] = mid(cells[cells.length - 1]);
      return [line(cells, cls), { kind: 'diamond', x: x0, y: y0, r: 0.42, cls: `${cls} ring` }, { kind: 'diamond', x: x1, y: y1, r: 0.42, cls: `${cls} ring` }];
    }
    case 'sum-line':
      return [{ ...line(cells, cls), closed: !!c.loop }];
    case 'equal-sum':
      return c.segments.flatMap((s) => (s.length > 1 ? [line(s, cls)] : [circle(s[0], 0.2, `${cls} ring`)]));
    case 'kropki-white':
    case 'kropki-black': {
      const [x, y] = edge(cells[0], cells[1]);
      return [{ kind: 'circle', x, y, r: 0.13, cls: `dot ${cls}` }];
    }
    case 'x':
    case 'v': {
      const [x, y] = edge(cells[0], cells[1]);
      return [text(x, y + 0.11, t.toUpperCase(), `xv ${cls}`)];
    }
    case 'greater-than': {
      const [x, y] = edge(cells[0], cells[1]);
      const ux = cells[1][1] - cells[0][1];
      const uy = cells[1][0] - cells[0][0];
      const pts = [
        [x - ux * 0.08 - uy * 0.14, y - uy * 0.08 + ux * 0.14],
        [x + ux * 0.08, y + uy * 0.08],
        [x - ux * 0.08 + uy * 0.14, y - uy * 0.08 - ux * 0.14],
      ];
      return [{ kind: 'line', pts, cls }];
    }
    case 'little-killer': {
      const [x, y] = outsidePoint(c, n);
      const [mx, my] = mid(cells[0]);
      const [ux, uy] = [(mx - x) * 0.5, (my - y) * 0.5];
      const from = [x + ux * 0.5, y + uy * 0.5];
      const to = [x + ux * 0.95, y + uy * 0.95];
      return [
        text(x, y + 0.1, c.sum, `clue ${cls}`),
        { kind: 'line', pts: [from, to], cls: `${cls} pointer` },
        { kind: 'line', pts: headAt(from, to, 0.12), cls: `${cls} pointer` },
      ];
    }
    case 'sandwich':
    case 'x-sum':
    case 'skyscraper': {
      const [x, y] = outsidePoint(c, n);
      return [text(x, y + 0.12, t === 'skyscraper' ? c.visible : c.sum, `clue ${cls}`)];
    }
    case 'cage':
    case 'sum': {
      const out = cageOutline(cells, cls);
      if (c.sum !== null && c.sum !== undefined) {
        const first = cells.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
        out.push(text(first[1] + 0.08, first[0] + 0.3, c.sum, `csum ${cls}`, 'start'));
      }
      return out;
    }
    case 'diagonal':
      return [line([cells[0], cells[cells.length - 1]], `diag-line ${cls}`)];
    case 'windoku':
      return (c.windows || []).flatMap((w) => w.map(([r, col]) => ({ kind: 'rect', x: col, y: r, w: 1, h: 1, cls })));
    default:
      return cells.length ? [line(cells, cls)] : [];
  }
}

// One group per constraint (see the top of the file).
export function shapesOf(list, n) {
  return (list || []).map((c, k) => ({ k, type: c.type, family: familyOf(c.type), title: describe(c, n), shapes: shapesFor(c, n) }));
}

// The constraints' rules in a player's words, one per type present
// ("Thermometer: digits rise ..."), for the line under the board.
export function rulesOf(list) {
  const seen = [...new Set((list || []).map((c) => c.type))];
  return seen.map((t) => `${typeLabel(t)}: ${ruleOf(t)}`);
}

// The constraints covering each cell, by label, for the cells' spoken
// descriptions: notes[i] = ['thermo 1', ...] (i = r*n + c).
export function cellNotes(list, n) {
  const notes = Array.from({ length: n * n }, () => []);
  const count = {};
  for (const c of list || []) {
    count[c.type] = (count[c.type] || 0) + 1;
    const name = `${typeLabel(c.type).toLowerCase()} ${count[c.type]}`;
    const cells = new Set(cellsIn(c).map(([r, col]) => r * n + col));
    for (const i of cells) notes[i].push(name);
  }
  return notes;
}

// === Checking ===============================================================
// brokenCells(list, values, n, rows, cols): the cells of every constraint
// the entries already break (values: row-major, 0 empty), so the board's
// conflicts and "completed" without a known solution keep the
// constraints too.  A rule is judged on what is filled: a pair when both
// cells are, a sum when it is already over (or, full, not met), a line's
// shape when its cells are.  The server has the last word (validate, and
// the solver's solution a player's entries are held to).

const pairSets = (list, types, n) =>
  new Set(list.filter((c) => types.includes(c.type)).map((c) => pairKey(c.cells[0][0] * n + c.cells[0][1], c.cells[1][0] * n + c.cells[1][1])));
const pairKey = (a, b) => `${Math.min(a, b)}-${Math.max(a, b)}`;

// Orthogonal neighbours [i, j], or cells a step apart (king's diagonal,
// knight's move), each pair once.
function stepPairsOf(n, steps) {
  const out = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      for (const [dr, dc] of steps) {
        const rr = r + dr;
        const cc = c + dc;
        if (rr >= 0 && cc >= 0 && rr < n && cc < n) out.push([r * n + c, rr * n + cc]);
      }
    }
  }
  return out;
}
const STEPS = {
  side: [[0, 1], [1, 0]],
  king: [[1, 1], [1, -1]],
  knight: [[1, 2], [2, 1], [1, -2], [2, -1]],
};

// The cells of c broken on vs (the values of c's cells, in order; 0 empty)
// as indices into c's cells, or [] when it holds so far.
function brokenOf(c, vs, full, at) {
  const all = vs.map((_, k) => k);
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const filled = vs.filter(Boolean);
  const dup = new Set(filled).size !== filled.length;
  switch (c.type) {
    case 'thermo': {
      // a later cell is at least its distance above an earlier one
      for (let a = 0; a < vs.length; a++) for (let b = a + 1; b < vs.length; b++) if (vs[a] && vs[b] && vs[b] - vs[a] < b - a) return [a, b];
      return [];
    }
    case 'whisper':
      for (let k = 1; k < vs.length; k++) if (vs[k] && vs[k - 1] && Math.abs(vs[k] - vs[k - 1]) < (c.difference ?? 5)) return [k - 1, k];
      return [];
    case 'diagonal':
      return dup ? all : [];
    case 'renban':
      return dup || (filled.length && Math.max(...filled) - Math.min(...filled) > vs.length - 1) ? all : [];
    case 'palindrome':
      for (let k = 0; k < vs.length; k++) if (vs[k] && vs[vs.length - 1 - k] && vs[k] !== vs[vs.length - 1 - k]) return [k, vs.length - 1 - k];
      return [];
    case 'between':
    case 'lockout': {
      const [e1, e2] = [vs[0], vs[vs.length - 1]];
      if (!e1 || !e2) return [];
      const [lo, hi] = [Math.min(e1, e2), Math.max(e1, e2)];
      if (c.type === 'lockout' && hi - lo < c.min_diff) return [0, vs.length - 1];
      const inside = (v) => (c.type === 'between' ? v > lo && v < hi : v < lo || v > hi);
      const bad = all.slice(1, -1).filter((k) => vs[k] && !inside(vs[k]));
      return bad.length ? [0, vs.length - 1, ...bad] : [];
    }
    case 'modular':
    case 'entropic': {
      const w = c.type === 'modular' ? c.mod ?? 3 : 3;
      const cls = c.type === 'modular' ? (v) => v % w : (v) => Math.floor((v - 1) / 3);
      for (let a = 0; a < vs.length; a++) for (let b = a + 1; b < Math.min(vs.length, a + w); b++) if (vs[a] && vs[b] && cls(vs[a]) === cls(vs[b])) return [a, b];
      return [];
    }
    case 'zipper': {
      if (!full) return [];
      const m = vs.length;
      const total = m % 2 ? vs[(m - 1) / 2] : vs[0] + vs[m - 1];
      for (let k = 0; k < Math.floor(m / 2); k++) if (vs[k] + vs[m - 1 - k] !== total) return all;
      return [];
    }
    case 'kropki-white':
      return vs[0] && vs[1] && Math.abs(vs[0] - vs[1]) !== 1 ? all : [];
    case 'kropki-black':
      return vs[0] && vs[1] && vs[0] !== 2 * vs[1] && vs[1] !== 2 * vs[0] ? all : [];
    case 'x':
    case 'v':
      return vs[0] && vs[1] && vs[0] + vs[1] !== (c.type === 'x' ? 10 : 5) ? all : [];
    case 'greater-than':
      return vs[0] && vs[1] && vs[0] <= vs[1] ? all : [];
    case 'little-killer':
    case 'sum':
    case 'cage': {
      if (c.type === 'cage' && dup) return all;
      if (c.sum === null || c.sum === undefined) return [];
      const min = sum(vs) + vs.filter((v) => !v).length; // each empty cell adds 1 at least
      return min > c.sum || (full && sum(vs) !== c.sum) ? all : [];
    }
    case 'arrow':
    case 'double-arrow':
    case 'pill-arrow': {
      const head = c.type === 'arrow' ? [c.circle] : c.type === 'double-arrow' ? c.circles : c.pill;
      const hv = head.map(at);
      const lv = c.line.map(at);
      if (!full) return [];
      const target = c.type === 'pill-arrow' ? Number(hv.join('')) : sum(hv);
      return target !== sum(lv) ? all : [];
    }
    case 'x-sum': {
      const x = vs[0];
      if (!x || vs.slice(0, x).some((v) => !v)) return [];
      return sum(vs.slice(0, x)) !== c.sum ? all.slice(0, x) : [];
    }
    case 'skyscraper': {
      if (!full) return [];
      let seen = 0;
      let top = 0;
      for (const v of vs) if (v > top) [top, seen] = [v, seen + 1];
      return seen !== c.visible ? all : [];
    }
    case 'equal-sum': {
      const sums = c.segments.map((s) => (s.every((p) => at(p)) ? sum(s.map(at)) : null)).filter((x) => x !== null);
      return new Set(sums).size > 1 ? all : [];
    }
    case 'sum-line': {
      // digits are positive, so the runs are found greedily from any
      // start; a loop may start at any cell
      if (!full) return [];
      const splits = (from) => {
        let acc = 0;
        for (let k = 0; k < vs.length; k++) {
          acc += vs[(from + k) % vs.length];
          if (acc === c.sum) acc = 0;
          else if (acc > c.sum) return false;
        }
        return acc === 0;
      };
      const starts = c.loop ? all : [0];
      return starts.some(splits) ? [] : all;
    }
    case 'region-sum-line': {
      const sums = (c.segments || []).map((s) => (s.every((p) => at(p)) ? sum(s.map(at)) : null)).filter((x) => x !== null);
      return new Set(sums).size > 1 ? all : [];
    }
    default:
      return []; // windoku and the globals: below
  }
}

export function brokenCells(list, values, n, rows, cols) {
  const bad = new Set();
  for (const c of list || []) for (const i of cellsBrokenBy(c, list, values, n, rows, cols)) bad.add(i);
  return bad;
}

// The indices k of the constraints (list[k]) the entries already break.
export function brokenConstraintIndices(list, values, n, rows, cols) {
  return (list || []).flatMap((c, k) => (cellsBrokenBy(c, list, values, n, rows, cols).size ? [k] : []));
}

// The cells constraint c (of `list`: the strict rules read its dots and
// marks) finds broken on values.
function cellsBrokenBy(c, list, values, n, rows, cols) {
  const bad = new Set();
  const at = ([r, col]) => values[r * n + col];
  const pairs = (ps, broken) => {
    for (const [a, b] of ps) if (values[a] && values[b] && broken(values[a], values[b], a, b)) bad.add(a).add(b);
  };
  const cells = c.type === 'sandwich' ? sandwichCells(c, n) : cellsIn(c);
  const vs = cells.map(at);
  const full = vs.every(Boolean);
  if (c.type === 'sandwich') {
    if (!full) return bad;
    const [a, b] = [vs.indexOf(1), vs.indexOf(n)].sort((x, y) => x - y);
    if (vs.slice(a + 1, b).reduce((x, y) => x + y, 0) !== c.sum) for (const p of cells) bad.add(p[0] * n + p[1]);
    return bad;
  }
  const own = cellsOf(c).length ? cellsOf(c) : cells;
  for (const k of brokenOf(c, own.map(at), full, at)) bad.add(own[k][0] * n + own[k][1]);
  switch (c.type) {
    case 'anti-king':
      pairs(stepPairsOf(n, STEPS.king), (x, y) => x === y);
      break;
    case 'anti-knight':
      pairs(stepPairsOf(n, STEPS.knight), (x, y) => x === y);
      break;
    case 'anti-consecutive':
      pairs(stepPairsOf(n, STEPS.side), (x, y) => Math.abs(x - y) === 1);
      break;
    case 'strict-kropki': {
      const dots = pairSets(list, ['kropki-white', 'kropki-black'], n);
      pairs(stepPairsOf(n, STEPS.side), (x, y, a, b) => !dots.has(pairKey(a, b)) && (Math.abs(x - y) === 1 || x === 2 * y || y === 2 * x));
      break;
    }
    case 'strict-xv': {
      const marks = pairSets(list, ['x', 'v'], n);
      pairs(stepPairsOf(n, STEPS.side), (x, y, a, b) => !marks.has(pairKey(a, b)) && (x + y === 5 || x + y === 10));
      break;
    }
    case 'windoku':
      for (const w of c.windows || []) {
        const vals = w.map(at).filter(Boolean);
        if (new Set(vals).size !== vals.length) for (const p of w) bad.add(p[0] * n + p[1]);
      }
      break;
    case 'disjoint-sets':
      if (rows && cols) pairs(disjointPairs(n, rows, cols), (x, y) => x === y);
      break;
    default:
  }
  return bad;
}

const sandwichCells = (c, n) => Array.from({ length: n }, (_, k) => (c.row !== undefined ? [c.row, k] : [k, c.col]));

// Cells in the same place of two different boxes.
function disjointPairs(n, rows, cols) {
  const out = [];
  for (let i = 0; i < n * n; i++) {
    for (let j = i + 1; j < n * n; j++) {
      const [ri, ci, rj, cj] = [Math.floor(i / n), i % n, Math.floor(j / n), j % n];
      if (ri % rows === rj % rows && ci % cols === cj % cols && (Math.floor(ri / rows) !== Math.floor(rj / rows) || Math.floor(ci / cols) !== Math.floor(cj / cols))) out.push([i, j]);
    }
  }
  return out;
}
