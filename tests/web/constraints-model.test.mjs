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
import { shapesOf, needsRing, cellNotes } from '../../web/js/constraints.js';
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
