// limits.test.mjs -- every limit the pages show, check or offer
// (web/js/limits.js) is the one openapi.yaml documents, read off the
// document here; so a hint such as "1 to 10,000" cannot drift from the
// server's own 400.  No browser: the document and the module are enough.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { LIMITS, range } from '../../web/js/limits.js';
import { ROOT } from '../contract/server.mjs';

const doc = YAML.parse(fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8'));
const op = (p, m) => doc.paths[p][m];
const body = (p) => {
  const s = op(p, 'post').requestBody.content['application/json'].schema;
  return s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s;
};
const param = (p, m, name) => op(p, m).parameters.find((x) => x.name === name).schema;
// a number the prose of the document states, e.g. /N <= (\d+)/
const stated = (text, re) => {
  const m = re.exec(text || '');
  assert.ok(m, `openapi.yaml no longer says ${re}`);
  return Number(m[1]);
};

test('Sudoku limits', () => {
  const s = LIMITS.sudoku;
  const solve = body('/v1/sudoku/solve');
  assert.equal(s.maxSolutions, solve.properties.max_solutions.maximum);
  assert.equal(s.maxStringN, stated(solve.properties.grid.description, /N <= (\d+)/));
  assert.equal(s.minN, stated(op('/v1/sudoku/solve', 'post').summary, /\((\d+)x\d+ \.\./));
  assert.equal(s.maxN, stated(op('/v1/sudoku/solve', 'post').summary, /\.\. (\d+)x\d+\)/));
  const gen = body('/v1/sudoku/generate').properties.size;
  assert.deepEqual([s.generateMinN, s.generateMaxN], [gen.minimum, gen.maximum]);
  assert.equal(s.batchMaxSolutions, param('/v1/sudoku/batch', 'post', 'max_solutions').maximum);
});

test('Killer limits', () => {
  const k = LIMITS.killer;
  const solve = body('/v1/killer/solve').properties;
  assert.deepEqual([k.minN, k.maxN], [solve.size.minimum, solve.size.maximum]);
  assert.equal(k.maxSolutions, solve.max_solutions.maximum);
  assert.deepEqual(k.generateSizes, body('/v1/killer/generate').properties.size.enum);
  const gen = op('/v1/killer/generate', 'post').description;
  assert.ok(new RegExp(`4x4 above ${k.generateTop4}\\b`).test(gen), `openapi.yaml no longer says 4x4 above ${k.generateTop4}`);
});

test('N-Queens limits', () => {
  const q = LIMITS.queens;
  assert.equal(q.countMaxN, param('/v1/nqueens/count', 'get', 'n').maximum);
  assert.equal(q.solutionsMaxN, param('/v1/nqueens/solutions', 'get', 'n').maximum);
  assert.equal(q.solutionsMaxLimit, param('/v1/nqueens/solutions', 'get', 'limit').maximum);
  assert.equal(q.solutionsTotalMaxN, stated(op('/v1/nqueens/solutions', 'get').responses['200'].description, /`total` for n <= (\d+)/));
  assert.equal(q.maxN, param('/v1/nqueens/solve', 'get', 'n').maximum);
  assert.equal(q.boardMaxN, stated(op('/v1/nqueens/solve', 'post').description, /backtracking \(lexicographic\s+first completion, n <= (\d+)\)/));
  assert.equal(q.traceMaxN, stated(op('/v1/nqueens/solve', 'get').parameters.find((x) => x.name === 'trace').description, /n <= (\d+)/));
  assert.equal(q.minConflictsMinN, stated(op('/v1/nqueens/solve', 'post').description, /(\d+) <= n <= 10\^7/));
});

test('Exact cover limits', () => {
  assert.equal(LIMITS.cover.maxSolutions, body('/v1/exact-cover/solve').properties.max_solutions.maximum);
});

test('the words of a range', () => {
  assert.equal(range(1, 10000), '1 to 10,000');
  assert.equal(range(4, 10000000), '4 to 10,000,000');
});
