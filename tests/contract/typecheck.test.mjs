// typecheck.test.mjs -- a generated client works: TypeScript types are
// generated from openapi.yaml with openapi-typescript, and every API call of
// the web front end (web/js/*.js, through the JSDoc-typed get/post/
// streamLines of web/js/api.js) is type-checked against them by the
// TypeScript compiler (tests/contract/tsconfig.json: checkJs, noEmit): the
// path must be documented for the method, a body must fit a documented
// request media type, `job: true` only where the operation answers 202.
//
// The pages' other type errors (DOM typing of plain JavaScript) are not the
// contract's business: only diagnostics inside a call of the api module, or
// in api.js's annotations and api-types.d.ts, fail the test; their number is
// printed.
//
// Endpoints the front end already calls but the document does not have yet
// are listed in PENDING; they type as "anything" until they land, and the
// test fails once the document has them, so the line gets deleted.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { ROOT } from './server.mjs';

// === Endpoints the pages call before the document has them =================
// One list: whoever adds the endpoint to openapi.yaml deletes its line.
const PENDING = {
  // '/v1/sudoku/example': 'post', // issue N
};

const OUT = path.join(ROOT, 'build/contract-types');
const CONFIG = path.join(ROOT, 'tests/contract/tsconfig.json');

let generated;
let first; // the program of the real check, reused by the probe
before(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  const ast = await openapiTS(new URL(`file://${path.join(ROOT, 'openapi.yaml')}`), { defaultNonNullable: false });
  generated = astToString(ast);
  fs.writeFileSync(path.join(OUT, 'openapi.d.ts'), generated);
  const pending = Object.entries(PENDING)
    .map(([p, m]) => `  ${JSON.stringify(p)}: { ${m}: { requestBody?: { content: { 'application/json': any } }; responses: { 200: { content: { 'application/json': any } }; 202: unknown } } };`)
    .join('\n');
  fs.writeFileSync(path.join(OUT, 'pending.d.ts'), `// written by tests/contract/typecheck.test.mjs from its PENDING list\nexport interface PendingPaths {\n${pending}\n}\n`);
});

test('no pending endpoint is in the document already', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8');
  for (const p of Object.keys(PENDING))
    assert.ok(!doc.includes(`\n  ${p}:`), `${p} is in openapi.yaml now: delete its PENDING line in typecheck.test.mjs`);
});

test('the generated types name every operation', () => {
  for (const id of ['solveSudoku', 'countNQueens', 'getJob', 'solveSudokuBatch']) assert.match(generated, new RegExp(`\\b${id}: \\{`));
});

// The calls of the api module in a source file: [start, end) ranges.
function apiCalls(sf) {
  const out = [];
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'api'
    ) {
      out.push([node.getStart(sf), node.getEnd(), node.expression.name.text]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

test('every API call of web/js type-checks against openapi.yaml', () => {
  const parsed = ts.getParsedCommandLineOfConfigFile(CONFIG, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')) });
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  first = program;
  const all = ts.getPreEmitDiagnostics(program);
  const relevant = [];
  let calls = 0;
  const byFile = new Map();
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.includes('/web/js/')) continue;
    const c = apiCalls(sf);
    calls += c.length;
    byFile.set(sf.fileName, c);
  }
  let other = 0;
  for (const d of all) {
    const f = d.file ? d.file.fileName : '';
    const where = d.file ? d.file.getLineAndCharacterOfPosition(d.start) : null;
    const text = `${path.relative(ROOT, f) || '(config)'}${where ? `:${where.line + 1}:${where.character + 1}` : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n  ')}`;
    const inCall = (byFile.get(f) || []).some(([s, e]) => d.start >= s && d.start < e);
    const ours = !d.file || f.endsWith('api-types.d.ts') || f.endsWith('/build/contract-types/openapi.d.ts') || /puzzled-openapi/.test(text);
    if (inCall || ours) relevant.push(text);
    else other++;
  }
  console.log(`typecheck: ${calls} API calls in web/js checked; ${other} other diagnostics in the pages (not the contract's)`);
  assert.ok(calls >= 15, `only ${calls} API calls found in web/js`);
  assert.deepEqual(relevant, [], 'API calls that openapi.yaml does not allow');
});

// The checker must be able to fail: a call the document forbids is caught.
test('a call the document does not allow is caught', () => {
  const probe = path.join(OUT, 'probe.js');
  fs.writeFileSync(
    probe,
    [
      "import * as api from '../../web/js/api.js';",
      "api.post('v1/sudoku/solve', { grid: 42 });", // grid is a string or rows
      "api.post('v1/nqueens/solve', { n: 8, queens: 'x' });", // queens is an array
      "api.get('v1/no/such/path');",
      "api.post('v1/healthz', {});", // no POST there
      "api.post('v1/sudoku/validate', { grid: '....' }, { job: true });", // validate answers no 202
      "api.post('v1/sudoku/solve', 'text', { contentType: 'application/xml' });",
      '',
    ].join('\n'),
  );
  const parsed = ts.getParsedCommandLineOfConfigFile(CONFIG, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram([...parsed.fileNames, probe], parsed.options, undefined, first);
  const lines = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && d.file.fileName === probe)
    .map((d) => d.file.getLineAndCharacterOfPosition(d.start).line + 1);
  assert.deepEqual([...new Set(lines)].sort((a, b) => a - b), [2, 3, 4, 5, 6, 7]);
});
