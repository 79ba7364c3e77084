// game.test.mjs -- the page's game model and board geometry in node, no
// browser (web/js/game.js, geometry.js, and the share links of formats.js):
// every history step undoes and redoes exactly, mistakes and completion
// follow the solution, the timer follows the clock it is given, a saved
// game comes back whole, an overlapping layout's frame (a Samurai) has the
// units and peers its five grids give, and what a link or storage may hold
// that is not a game is refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Game, formatTime } from '../../web/js/game.js';
import { Geometry } from '../../web/js/geometry.js';
import { variantOf, geometryOf, shareOf, readShare, apiFields, shareFrame, frameOf } from '../../web/js/variants.js';
import { fromGrid, sudokuShare, readSudokuShare, killerShare, readKillerShare, playerField, playerDetail } from '../../web/js/formats.js';

const PUZZLE = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const SOLUTION = '534678912672195348198342567859761423426853791713924856961537284287419635345286179';

function fresh(clock) {
  const geo = new Geometry({ n: 9, rows: 3, cols: 3 });
  const g = new Game({ n: 9, rows: 3, cols: 3, givens: fromGrid(PUZZLE, 9), solution: fromGrid(SOLUTION, 9), clock });
  g.geometry = geo;
  return { g, geo };
}

const snapshot = (g) => JSON.stringify([g.values, g.pencil, g.given]);

test('geometry: units, peers, regions, diagonals, cages', () => {
  const geo = new Geometry({ n: 9, rows: 3, cols: 3 });
  assert.equal(geo.units.length, 27);
  for (const u of geo.units) assert.equal(new Set(u).size, 9);
  for (let i = 0; i < 81; i++) assert.equal(geo.peers[i].length, 20, `cell ${i} has 20 peers`);
  assert.ok(geo.regionEdge(2, 'right') && !geo.regionEdge(1, 'right'));
  assert.ok(geo.regionEdge(18, 'down') && !geo.regionEdge(9, 'down'));
  const x = new Geometry({ n: 9, rows: 3, cols: 3, extraUnits: Geometry.diagonals(9) });
  assert.equal(x.units.length, 29);
  assert.equal(x.peers[40].length, 20 + 12, 'the centre sees both diagonals');
  // a jigsaw: regions of any shape draw their own lines and make units
  const regions = Array.from({ length: 16 }, (_, i) => [0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3][i]);
  const jig = new Geometry({ n: 4, regions });
  assert.ok(jig.regionEdge(8, 'right') && jig.regionEdge(9, 'down') && !jig.regionEdge(11, 'down'));
  assert.equal(jig.units.length, 12);
  assert.equal(jig.shaded(0), false, 'custom regions are not shaded');
  const cage = new Geometry({ n: 4, rows: 2, cols: 2, cages: [{ sum: 3, cells: [[0, 0], [0, 1]] }] });
  assert.deepEqual([...cage.conflicts([1, 1, 0, 0, ...new Array(12).fill(0)])].sort(), [0, 1], 'a repeat in a row');
  assert.deepEqual([...cage.conflicts([2, 3, 0, 0, ...new Array(12).fill(0)])].sort(), [0, 1], 'a cage over its sum');
  assert.equal(cage.conflicts([1, 2, 0, 0, ...new Array(12).fill(0)]).size, 0);
  const all = (1 << 9) - 1;
  assert.equal(geo.candidates(fromGrid(PUZZLE, 9), 2), all & ~(1 << 4) & ~(1 << 2) & ~(1 << 6) & ~(1 << 5) & ~(1 << 8) & ~(1 << 7));
});

test('every step undoes and redoes exactly, peers’ marks included', () => {
  const { g, geo } = fresh();
  const states = [snapshot(g)];
  g.togglePencil(2, 4);
  g.togglePencil(2, 1);
  g.togglePencil(3, 4); // a peer of 2 (row 1) that will lose its 4
  g.togglePencil(78, 4); // not a peer: keeps it
  states.push(snapshot(g));
  assert.deepEqual(g.place(2, 4, { peers: geo.peers }).sort((a, b) => a - b), [2, 3]);
  assert.equal(g.pencil[3], 0, 'the peer lost the placed digit');
  assert.equal(g.pencil[78], 1 << 3);
  assert.equal(g.pencil[2], 0, 'the cell itself holds a digit now');
  states.push(snapshot(g));
  g.place(3, 6, { peers: geo.peers });
  g.erase(3);
  g.place(5, 1, { peers: geo.peers, autoPencil: false });
  const end = snapshot(g);
  const steps = g.history.length;
  for (let k = 0; k < steps; k++) g.undo();
  assert.equal(snapshot(g), states[0], 'undo all: the givens alone');
  for (let k = 0; k < steps; k++) g.redo();
  assert.equal(snapshot(g), end, 'redo all: where we were');
  g.undo();
  g.place(5, 8, { peers: geo.peers });
  assert.equal(g.canRedo(), false, 'a new step clears redo');
  assert.deepEqual(g.place(0, 1), [], 'a given does not change');
  assert.deepEqual(g.erase(0), [], 'nor is it erased');
});

test('mistakes count wrong entries once, and stay counted after undo', () => {
  const { g, geo } = fresh();
  g.place(2, 1, { peers: geo.peers }); // the solution has 4 there
  assert.equal(g.mistakes, 1);
  assert.deepEqual(g.wrongCells(), [2]);
  g.undo();
  assert.equal(g.mistakes, 1);
  g.place(2, 4, { peers: geo.peers });
  assert.equal(g.mistakes, 1);
  assert.deepEqual(g.wrongCells(), []);
});

test('the timer follows its clock, pauses, and stops at completion', () => {
  let now = 1_000_000;
  const { g, geo } = fresh(() => now);
  g.start();
  now += 65_000;
  assert.equal(formatTime(g.elapsed()), '1:05');
  g.pause();
  now += 1_000_000;
  assert.equal(formatTime(g.elapsed()), '1:05', 'paused time does not count');
  g.start();
  now += 5_000;
  const sol = fromGrid(SOLUTION, 9);
  for (let i = 0; i < 81; i++) if (!g.given[i]) g.place(i, sol[i], { peers: geo.peers });
  assert.deepEqual(g.completed, { ms: 70_000, mistakes: 0 });
  assert.equal(g.running, false);
  now += 99_000;
  assert.equal(g.elapsed(), 70_000);
  assert.deepEqual(g.place(0, 2), [], 'a completed game is frozen');
  assert.equal(g.canUndo(), false);
  assert.equal(formatTime(3_725_000), '1:02:05');
});

test('a puzzle without a known solution completes by the rules', () => {
  const geo = new Geometry({ n: 4, rows: 2, cols: 2 });
  const g = new Game({ n: 4, rows: 2, cols: 2, givens: fromGrid('1..4...3....32..', 4) });
  g.geometry = geo;
  const sol = fromGrid('1324241341323241', 4);
  for (let i = 0; i < 16; i++) if (!g.given[i] && i !== 15) g.place(i, sol[i]);
  g.place(15, 2);
  assert.equal(g.completed, null, 'a repeat is not a completion');
  g.place(15, sol[15]);
  assert.ok(g.completed);
});

test('variant rules: parity, consecutive marks and the non-consecutive rest, in conflicts, candidates and completion', () => {
  // a 4x4 Latin square with janko's consecutive rule: the marked pairs
  // differ by 1, every other neighbour pair by more
  const sol = fromGrid('1324' + '3241' + '2413' + '4132', 4);
  const marked = [];
  for (let i = 0; i < 16; i++) {
    for (const j of [i % 4 < 3 ? i + 1 : -1, i + 4 < 16 ? i + 4 : -1]) if (j >= 0 && Math.abs(sol[i] - sol[j]) === 1) marked.push([i, j]);
  }
  const parity = sol.map((v, i) => (i % 3 ? '.' : v % 2 ? 'O' : 'E')).join('');
  const p = { variant: ['even-odd', 'consecutive'], parity, pairs: marked.map((pr) => pr.map((i) => [Math.floor(i / 4), i % 4])) };
  const v = variantOf(p, 4);
  assert.deepEqual(v.names, ['even-odd', 'consecutive']);
  const { geometry } = geometryOf(v, 4, 1, 4);
  const geo = new Geometry({ n: 4, rows: 1, cols: 4, ...geometry });
  assert.equal(geo.conflicts(sol).size, 0);
  assert.ok(geo.solvedBy(sol));
  const board = (cells) => Object.assign(new Array(16).fill(0), cells);
  assert.deepEqual([...geo.conflicts(board({ 0: 2 }))], [0], 'an even digit on an odd mark');
  assert.ok(!marked.some(([a, b]) => a === 0 && b === 1), 'r1c1-r1c2 is not marked');
  assert.deepEqual([...geo.conflicts(board({ 0: 1, 1: 2 }))].sort(), [0, 1], 'unmarked neighbours that differ by 1');
  const [a, b] = marked[0];
  assert.deepEqual([...geo.conflicts(board({ [a]: sol[a], [b]: sol[a] + 2 }))].sort((x, y) => x - y), [a, b], 'a marked pair that differs by 2');
  // cell 0 is odd (1): its candidates with nothing placed are the odd ones
  assert.equal(geo.candidates(board({}), 0), 0b0101);
  // with r1c2 = 3 placed: not 3 (the row), odd, and not 2 or 4 (unmarked pair)
  assert.equal(geo.candidates(board({ 1: 3 }), 0), 0b0001);
  // the request's fields, the link's and back
  assert.deepEqual(apiFields(v, 4), { variant: ['even-odd', 'consecutive'], parity, pairs: p.pairs });
  const back = readShare(new URLSearchParams(shareOf(v)), 4);
  assert.deepEqual(back, v);
  assert.ok(readShare(new URLSearchParams({ ...shareOf(v), q: 'E' }), 4).error, 'a parity string of the wrong length');
  assert.ok(readShare(new URLSearchParams({ ...shareOf(v), c: '0.5' }), 4).error, 'a pair that is not neighbours');
  assert.equal(readShare(new URLSearchParams(), 4), null, 'no variant: classic');
});

test('a variant game survives storage; jigsaw regions must partition the grid', () => {
  const regions = [0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3];
  const v = variantOf({ variant: 'jigsaw', regions: [regions.slice(0, 4), regions.slice(4, 8), regions.slice(8, 12), regions.slice(12)] }, 4);
  assert.deepEqual(v.regions, regions);
  const g = new Game({ n: 4, rows: 2, cols: 2, givens: fromGrid('1...............', 4), variant: v });
  const back = Game.fromJSON(JSON.parse(JSON.stringify(g)));
  assert.deepEqual(back.variant, v);
  assert.equal(Game.fromJSON({ ...JSON.parse(JSON.stringify(g)), variant: { ...v, regions: regions.map(() => 0) } }), null, 'a broken variant is no game');
  const { geometry } = geometryOf(v, 4, 2, 2);
  const geo = new Geometry({ n: 4, rows: 2, cols: 2, ...geometry });
  assert.ok(geo.regionEdge(8, 'right'), 'region 2 meets region 3 right of r3c1');
  assert.ok(!geo.regionEdge(0, 'right') && geo.regionEdge(1, 'right') && !geo.regionEdge(0, 'down') && geo.regionEdge(4, 'down'));
  assert.deepEqual([...geo.peers[0]].sort((x, y) => x - y), [1, 2, 3, 4, 5, 8, 12], 'row, column and region 0');
});

test('a Samurai: one 21x21 frame, five grids, shared corner boxes, holes out of play', () => {
  const v = variantOf({ variant: 'samurai' }, 9);
  assert.deepEqual(v.names, ['samurai']);
  assert.deepEqual([frameOf(v, 9).height, frameOf(v, 9).width], [21, 21]);
  const { geometry } = geometryOf(v, 9, 3, 3);
  const geo = new Geometry({ n: 9, rows: 3, cols: 3, ...geometry });
  assert.equal(geo.size, 441);
  assert.equal(geo.liveCount, 5 * 81 - 4 * 9, 'four boxes are shared');
  assert.equal(geo.units.length, 5 * 27 - 4, 'a shared box is one unit');
  for (const u of geo.units) assert.ok(u.length === 9 && u.every((i) => geo.isLive(i)));
  const at = (r, c) => r * 21 + c;
  assert.ok(!geo.isLive(at(0, 9)) && !geo.isLive(at(10, 0)) && geo.isLive(at(10, 10)) && geo.isLive(at(6, 6)));
  assert.equal(geo.peers[at(0, 0)].length, 20, 'a cell of one grid');
  assert.equal(geo.peers[at(6, 6)].length, 32, 'a cell of a shared box: two rows, two columns, one box');
  assert.equal(geo.peers[at(0, 9)].length, 0, 'a hole has no peers');
  // outlines: the frame's edge and the holes; box lines inside
  assert.ok(geo.outline(at(0, 8), 'right') && geo.outline(at(0, 12), 'left') && geo.outline(at(8, 0), 'down') && !geo.outline(at(8, 6), 'down'));
  assert.ok(geo.regionEdge(at(8, 6), 'down') && !geo.regionEdge(at(7, 6), 'down'));
  // a game completes with its holes empty
  const g = new Game({ n: 9, rows: 3, cols: 3, givens: [], variant: v });
  g.geometry = geo;
  assert.equal(g.values.length, 441);
  const sol = new Array(441).fill(0);
  for (let r = 0; r < 21; r++) for (let c = 0; c < 21; c++) if (geo.isLive(at(r, c))) sol[at(r, c)] = ((Math.floor(r / 3) + 3 * (r % 3) + c) % 9) + 1;
  assert.equal(geo.conflicts(sol).size, 0, 'a shifted pattern keeps every grid');
  for (let i = 0; i < 441; i++) if (sol[i] && i !== at(20, 20)) g.place(i, sol[i]);
  assert.equal(g.completed, null);
  g.place(at(20, 20), sol[at(20, 20)]);
  assert.ok(g.completed, 'complete with 72 empty holes');
  // the request, storage and the link
  assert.deepEqual(apiFields(v, 9), { variant: 'samurai' });
  assert.deepEqual(Game.fromJSON(JSON.parse(JSON.stringify(g))).values, g.values);
  const q = new URLSearchParams(`${sudokuShare({ n: 9, rows: 3, cols: 3, givens: sol, entries: null })}&${new URLSearchParams(shareOf(v))}`);
  assert.deepEqual(shareFrame(q), { n: 9, cells: 441 });
  assert.deepEqual(readSudokuShare(q, shareFrame(q)).givens, sol);
  assert.deepEqual(readShare(q, 9), v);
  assert.equal(variantOf({ variant: ['samurai', 'x'] }, 9), null, 'a layout is played alone');
  assert.equal(variantOf({ variant: 'samurai' }, 6), null, 'of 9x9 grids');
});

test('a saved game comes back whole; a broken save is refused', () => {
  let now = 5_000;
  const { g, geo } = fresh(() => now);
  g.start();
  g.place(2, 4, { peers: geo.peers });
  g.togglePencil(3, 6);
  g.place(5, 1, { peers: geo.peers });
  g.undo();
  now += 42_000;
  const saved = JSON.parse(JSON.stringify(g));
  const back = Game.fromJSON(saved, () => now);
  assert.equal(snapshot(back), snapshot(g));
  assert.equal(back.history.length, 2);
  assert.equal(back.future.length, 1);
  assert.equal(back.elapsed(), 42_000);
  assert.equal(back.running, true);
  back.redo();
  assert.equal(back.values[5], 1);
  for (const bad of [null, {}, { ...saved, v: 2 }, { ...saved, values: [1, 2] }, { ...saved, n: 100 }, { ...saved, values: saved.values.map(() => 99) }]) {
    assert.equal(Game.fromJSON(bad), null);
  }
  assert.deepEqual(Game.fromJSON({ ...saved, history: [[['x']]] }).history, [], 'a broken history is dropped, not trusted');
});

test('share links carry the puzzle and the entries, and refuse what is not one', () => {
  const givens = fromGrid(PUZZLE, 9);
  const entries = new Array(81).fill(0);
  entries[2] = 4;
  const q = sudokuShare({ n: 9, rows: 3, cols: 3, givens, entries });
  assert.match(q, /^[A-Za-z0-9=&._~-]+$/, 'only unreserved characters');
  const back = readSudokuShare(new URLSearchParams(q));
  assert.deepEqual(back.givens, givens);
  assert.deepEqual(back.entries, entries);
  const six = readSudokuShare(new URLSearchParams(sudokuShare({ n: 6, rows: 3, cols: 2, givens: new Array(36).fill(0) })));
  assert.deepEqual([six.rows, six.cols], [3, 2], 'a box that is not the default travels');
  for (const bad of ['p=123', 'p=' + 'x'.repeat(81), 'p=' + '.'.repeat(81) + '&b=2x2', 'p=' + '.'.repeat(81) + '&e=12']) {
    assert.ok(readSudokuShare(new URLSearchParams(bad)).error, bad);
  }
  const cages = [
    { sum: 7, cells: [[0, 0], [0, 1], [1, 1]] },
    { sum: 3, cells: [[3, 3]] },
  ];
  const k = readKillerShare(new URLSearchParams(killerShare({ n: 4, cages, diagonals: true, entries: null })));
  assert.deepEqual(k.cages, cages);
  assert.equal(k.diagonals, true);
  for (const bad of ['n=4&k=7-0.0', 'n=4&k=7-g', 'n=3&k=1-0', 'n=4&k=x', 'n=4&k=7-0.1&e=1']) {
    assert.ok(readKillerShare(new URLSearchParams(bad)).error, bad);
  }
});

test('the API’s words for players: 1-based rows, columns, boxes and cells', () => {
  assert.equal(playerField('grid[0][4]'), 'r1c5');
  assert.equal(playerField('cages[3].cells[1]'), 'cage 4, cell 2');
  assert.equal(playerField('cages[0]'), 'cage 1');
  assert.equal(playerDetail('5 repeats in row 0'), '5 repeats in row 1');
  assert.equal(playerDetail('3 repeats in box 8 and column 2'), '3 repeats in box 9 and column 3');
});
