// constraints-model.test.mjs -- a constraint puzzle in the page's model, in
// node, no browser (web/js/variants.js, constraints.js, geometry.js,
// game.js): our JSON read into the variant description and back into the
// request fields unchanged, the share link and storage round trip, what
// the description refuses, the drawing's groups and ring, and the board's
// conflicts and completion without a known solution keeping the
// constraints (held to the test's own rules, fixtures/constraint-rules.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Game } from '../../web/js/game.js';
import { Geometry } from '../../web/js/geometry.js';
import { variantOf, geometryOf, shareOf, readShare, apiFields, checked, rulesText } from '../../web/js/variants.js';
import { shapesOf, needsRing, cellNotes, brokenConstraintIndices } from '../../web/js/constraints.js';
import { fromGrid } from '../../web/js/formats.js';
import { JSON_PUZZLE } from './fixtures/constraints.mjs';
import { brokenConstraints } from './fixtures/constraint-rules.mjs';

const N = 6;
// ISS's 6x6 example's published solution (tests/test_sudoku_iss.c)
const SOLUTION = '325146416325541263263514632451154632';

function board(v) {
  const { geometry } = geometryOf(v, N, 2, 3);
  return new Geometry({ n: N, rows: 2, cols: 3, ...geometry });
}

test('our JSON becomes the description and goes back out unchanged', () => {
  const v = variantOf(JSON_PUZZLE, N);
  assert.ok(v, 'read');
  assert.deepEqual(v.names, []);
  assert.deepEqual(v.constraints, JSON_PUZZLE.constraints);
  const out = apiFields(v, N);
  assert.deepEqual(out, { constraints: JSON_PUZZLE.constraints }, 'no variant name, the list as it came');
  assert.match(rulesText(v, N), /^Thermometer: .+; White dot: .+; Black dot: .+; Sandwich: .+; Killer cage: .+\.$/);
  // the link and storage keep it
  assert.deepEqual(readShare(new URLSearchParams(shareOf(v)), N), v);
  const g = new Game({ n: N, rows: 2, cols: 3, givens: fromGrid(JSON_PUZZLE.grid, N), variant: v });
  assert.deepEqual(Game.fromJSON(JSON.parse(JSON.stringify(g.toJSON()))).variant, v);
});

test('a description the page cannot draw is refused', () => {
  const base = { names: [], regions: null, parity: null, pairs: null };
  assert.equal(checked({ ...base, constraints: [] }, N), null, 'no rules at all');
  assert.equal(checked({ ...base, constraints: [{ type: 'thermo', cells: [[0, 0], [0, 6]] }] }, N), null, 'a cell off the grid');
  assert.equal(checked({ ...base, constraints: [{ type: 'quad', cells: [[0, 0]] }] }, N), null, 'an unknown type');
  assert.equal(checked({ ...base, constraints: [{ type: 'arrow', circle: [0, 0], line: [[0, -1]] }] }, N), null, 'an arrow off the grid');
  assert.equal(checked({ names: ['samurai'], regions: null, parity: null, pairs: null, constraints: JSON_PUZZLE.constraints }, 9), null, 'a layout with constraints');
  assert.equal(readShare(new URLSearchParams('k=%7Bnot'), N).error !== undefined, true, 'a link with broken JSON');
});

test('one drawing group per constraint, the ring for outside clues, notes per cell', () => {
  const groups = shapesOf(JSON_PUZZLE.constraints, N);
  assert.deepEqual(
    groups.map((gr) => [gr.type, gr.family]),
    [
      ['thermo', 'line'],
      ['kropki-white', 'dot'],
      ['kropki-black', 'dot'],
      ['sandwich', 'outside'],
      ['cage', 'cage'],
    ],
  );
  for (const gr of groups) assert.ok(gr.title && gr.shapes.length, gr.type);
  assert.equal(needsRing(JSON_PUZZLE.constraints), true);
  assert.equal(needsRing([{ type: 'thermo', cells: [[0, 0], [0, 1]] }]), false);
  const notes = cellNotes(JSON_PUZZLE.constraints, N);
  assert.deepEqual(notes[3], ['thermometer 1']);
  assert.deepEqual(notes[5 * N], ['killer cage 1']);
});

test('conflicts and completion without a solution keep the constraints', () => {
  const v = variantOf(JSON_PUZZLE, N);
  const geo = board(v);
  const sol = fromGrid(SOLUTION, N);
  assert.deepEqual(brokenConstraints(JSON_PUZZLE.constraints, sol, N), [], 'the solution keeps them (the test’s rules)');
  assert.ok(geo.solvedBy(sol), 'the solution completes the board');
  // rows 1 and 2 swapped: every row, column and box still fine, the
  // constraints not (the test's rules say which), and the board says so
  const swapped = [...sol.slice(N, 2 * N), ...sol.slice(0, N), ...sol.slice(2 * N)];
  assert.ok(new Geometry({ n: N, rows: 2, cols: 3 }).solvedBy(swapped), 'classic rules kept');
  assert.ok(brokenConstraints(JSON_PUZZLE.constraints, swapped, N).length > 0);
  assert.equal(geo.solvedBy(swapped), false, 'not completed');
  assert.ok(geo.conflicts(swapped).size > 0);
  // a partial board: a thermometer's second cell below its bulb
  const partial = new Array(N * N).fill(0);
  partial[3] = 5; // r1c4, the bulb
  partial[N + 4] = 2; // r2c5
  assert.deepEqual([...geo.conflicts(partial)].sort((a, b) => a - b), [3, N + 4]);
  partial[N + 4] = 6;
  assert.equal(geo.conflicts(partial).size, 0, 'rising: fine');
  // a game without a known solution is completed by the rules, constraints included
  // (an empty grid with the constraints: the swap moves givens)
  const play = (grid) => {
    const game = new Game({ n: N, rows: 2, cols: 3, givens: [], variant: v });
    game.geometry = geo;
    grid.forEach((x, i) => game.place(i, x));
    return game;
  };
  assert.ok(!play(swapped).completed, 'a grid breaking a constraint is not completed');
  assert.ok(play(sol).completed, 'the solution is completed by the rules');
});

// Every type, on full grids: the page's check (brokenConstraintIndices,
// under brokenCells) and the test's rules name the same constraints, over
// a known 9x9 solution, grids made from it by swapping two cells of a row,
// cyclic grids (r, c) -> (a*r + b*c + d) mod 9 + 1 (every row a
// permutation: sandwiches, and the global rules held for some a, b), a
// Sudoku keeping disjoint sets, and
// seeded random grids (short lines held by chance).  Each constraint must
// be seen both held and broken, so neither side can agree by always
// saying the same.
test('the page’s check agrees with the test’s rules on every type, full grids', () => {
  const n = 9;
  const S = fromGrid('534678912672195348198342567859761423426853791713924856961537284287419635345286179', n);
  const row = (r, from, to) => Array.from({ length: to - from }, (_, k) => [r, from + k]);
  const list = [
    { type: 'thermo', cells: row(0, 0, 3) },
    { type: 'whisper', cells: row(1, 0, 3) },
    { type: 'renban', cells: row(2, 3, 6) },
    { type: 'palindrome', cells: [[0, 0], [1, 1], [0, 2]] },
    { type: 'between', cells: [[0, 1], [0, 0], [0, 2]] },
    { type: 'lockout', min_diff: 3, cells: row(3, 0, 4) },
    { type: 'modular', mod: 3, cells: row(4, 0, 4) },
    { type: 'entropic', cells: row(5, 0, 4) },
    { type: 'zipper', cells: row(6, 0, 3) },
    { type: 'sum-line', sum: 10, cells: row(7, 0, 3) },
    { type: 'sum-line', sum: 9, loop: true, cells: row(8, 0, 3) },
    { type: 'region-sum-line', cells: row(0, 2, 4), segments: [[[0, 2]], [[0, 3]]] },
    { type: 'equal-sum', segments: [row(1, 0, 2), row(2, 0, 2)] },
    { type: 'kropki-white', cells: [[0, 0], [0, 1]] },
    { type: 'kropki-black', cells: [[0, 1], [1, 1]] },
    { type: 'x', cells: [[2, 0], [2, 1]] },
    { type: 'v', cells: [[3, 3], [3, 4]] },
    { type: 'greater-than', cells: [[4, 4], [4, 5]] },
    { type: 'little-killer', sum: 10, cells: [[0, 1], [1, 0]] },
    { type: 'sandwich', row: 5, sum: 10 },
    { type: 'x-sum', side: 'left', sum: 12, cells: row(6, 0, 9) },
    { type: 'skyscraper', side: 'left', visible: 3, cells: row(7, 0, 9) },
    { type: 'cage', sum: 12, cells: row(8, 6, 9) },
    { type: 'sum', sum: 12, cells: row(4, 6, 9) },
    { type: 'arrow', circle: [0, 8], line: [[1, 8], [2, 8]] },
    { type: 'double-arrow', circles: [[3, 8], [6, 8]], line: [[4, 8], [5, 8]] },
    { type: 'pill-arrow', pill: [[7, 7], [7, 8]], line: row(8, 4, 9) },
    { type: 'diagonal', which: 'main', cells: Array.from({ length: n }, (_, k) => [k, k]) },
    { type: 'windoku', windows: [[[1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [2, 3], [3, 1], [3, 2], [3, 3]]] },
    { type: 'anti-king' },
    { type: 'anti-knight' },
    { type: 'anti-consecutive' },
    { type: 'strict-kropki' },
    { type: 'strict-xv' },
    { type: 'disjoint-sets' },
  ];
  const grids = [S];
  for (let r = 0; r < n; r++) for (let c = 0; c + 1 < n; c += 2) grids.push(S.map((v, i) => (i === r * n + c ? S[i + 1] : i === r * n + c + 1 ? S[i - 1] : v)));
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) for (const d of [0, 4]) grids.push(Array.from({ length: n * n }, (_, i) => ((a * Math.floor(i / n) + b * (i % n) + d) % n) + 1));
  // a Sudoku whose box positions all differ too (disjoint sets held)
  grids.push(Array.from({ length: n * n }, (_, i) => ((3 * (Math.floor(i / n) % 3) + Math.floor(Math.floor(i / n) / 3) + (i % n)) % n) + 1));
  let seed = 36;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let k = 0; k < 400; k++) grids.push(Array.from({ length: n * n }, () => rand() + 1));
  const index = (w) => +/^constraints\[(\d+)\]/.exec(w)[1];
  const verdicts = list.map(() => new Set());
  for (const [k, g] of grids.entries()) {
    const rules = brokenConstraints(list, g, n).map(index);
    const page = brokenConstraintIndices(list, g, n, 3, 3);
    assert.deepEqual(page, rules, `grid ${k}: ${g.join('')}`);
    list.forEach((_, j) => verdicts[j].add(rules.includes(j)));
  }
  assert.deepEqual(
    list.filter((_, j) => verdicts[j].size < 2).map((c) => c.type),
    [],
    'constraints seen only one way',
  );
});
