// tables.test.mjs -- openapi.yaml held to the code's tables, so that the
// document and the server cannot drift apart.
//
// tools/api_tables (PUZZLED_API_TABLES, built by the Makefile) prints every
// route of the router and every endpoint's description (api/endpoint.h)
// with its options table (api/opts.h).  Against openapi.yaml:
//
//   routes      every path and method the router serves is an operation,
//               and every operation is served;
//   media       an endpoint's body media types are its requestBody's;
//   query       its query rows are the operation's query parameters, no
//               more, no fewer;
//   body        its JSON rows are the properties of the application/json
//               body's schema ($ref and allOf followed), no more, no fewer
//               (a row for another endpoint's option, refused with a hint,
//               must not be there), `required` alike;
//   each row    type (integer, boolean, number, string with enum, object),
//               minimum and maximum (a bound the server's settings decide,
//               --timeout-ms, --threads, is no number in the document; nor
//               is a bound the row's reader checks against other fields),
//               default (the same value, or none on both sides), enum (the
//               same names), the members of an object alike.
//
// A mismatch names the operation, where, and both sides.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Contract, deref } from './oas.mjs';
import { ROOT } from './server.mjs';

const contract = new Contract(path.join(ROOT, 'openapi.yaml'));
const doc = contract.doc;
const bin = process.env.PUZZLED_API_TABLES || path.join(ROOT, 'build/tools/api_tables');
const tables = JSON.parse(execFileSync(bin, { encoding: 'utf8' }));

const opOf = (method, p) => contract.ops.find((o) => o.method === method && o.path === p);

// A schema with $refs followed and allOf merged (properties, required).
function schemaOf(s) {
  s = deref(doc, s || {});
  if (!s.allOf) return s;
  const out = { ...s, properties: { ...(s.properties || {}) }, required: [...(s.required || [])] };
  delete out.allOf;
  for (const part of s.allOf) {
    const p = schemaOf(part);
    Object.assign(out.properties, p.properties || {});
    out.required.push(...(p.required || []));
    if (p.type && !out.type) out.type = p.type;
  }
  return out;
}

// Rows of a table that share a name (variants, or the two forms of box)
// count as one: the widest bounds, the same kind.
function byName(rows, where) {
  const m = new Map();
  for (const r of rows) {
    if (!r.in.includes(where) || r.kind === 'elsewhere') continue;
    const old = m.get(r.name);
    if (!old) {
      m.set(r.name, { ...r });
      continue;
    }
    if (typeof r.max === 'number' && typeof old.max === 'number') old.max = Math.max(old.max, r.max);
    if (typeof r.min === 'number' && typeof old.min === 'number') old.min = Math.min(old.min, r.min);
    old.required = old.required && r.required;
  }
  return m;
}

const types = { int: 'integer', bool: 'boolean', number: 'number', enum: 'string', object: 'object' };
const setOf = (a) => JSON.stringify([...new Set(a)].sort());

// What differs between a row and its schema; [] when they agree.
function rowProblems(row, s0, where) {
  const s = schemaOf(s0);
  const out = [];
  const say = (what, code, docv) => out.push(`${where}: ${what}: the code has ${JSON.stringify(code)}, openapi.yaml ${JSON.stringify(docv)}`);
  if (row.kind === 'data') return out; // puzzle data: its shape is the schema's business
  const want = types[row.kind];
  if (s.type !== want) say('type', want, s.type);
  if (row.kind === 'int' || row.kind === 'number') {
    if (row.only) {
      if (setOf(row.only) !== setOf(s.enum || [])) say('values', row.only, s.enum);
    } else {
      const num = (v) => (typeof v === 'number' ? v : undefined); // settings are no number
      if (num(row.min) !== s.minimum) say('minimum', row.min, s.minimum);
      if (num(row.max) !== s.maximum) say('maximum', row.max, s.maximum);
    }
    const def = typeof row.default === 'number' ? row.default : undefined;
    if (def !== s.default) say('default', row.default, s.default);
  }
  if (row.kind === 'bool' && row.default !== s.default) say('default', row.default, s.default);
  if (row.kind === 'enum') {
    if (setOf(row.enum) !== setOf(s.enum || [])) say('enum', row.enum, s.enum);
    if ((row.default ?? undefined) !== s.default) say('default', row.default, s.default);
  }
  if (row.kind === 'object' && row.fields) out.push(...membersProblems(row.fields, s, where));
  return out;
}

// The JSON rows of a table against an object schema's properties.
function membersProblems(rows, s0, where) {
  const s = schemaOf(s0);
  const props = s.properties || {};
  const rowsByName = byName(rows, 'json');
  const out = [];
  for (const [name, row] of rowsByName) {
    if (!(name in props)) {
      out.push(`${where}.${name}: the code reads it, openapi.yaml does not list it`);
      continue;
    }
    out.push(...rowProblems(row, props[name], `${where}.${name}`));
  }
  for (const name of Object.keys(props))
    if (!rowsByName.has(name)) out.push(`${where}.${name}: openapi.yaml lists it, the code does not read it`);
  const req = [...rowsByName.values()].filter((r) => r.required).map((r) => r.name);
  if (setOf(req) !== setOf(s.required || [])) out.push(`${where}: required: the code has ${JSON.stringify(req)}, openapi.yaml ${JSON.stringify(s.required || [])}`);
  for (const r of rows)
    if (r.kind === 'elsewhere' && r.name in props) out.push(`${where}.${r.name}: refused by the code (another endpoint's), listed by openapi.yaml`);
  return out;
}

test('every route is an operation of openapi.yaml, and every operation a route', () => {
  const served = new Set();
  const problems = [];
  for (const r of tables.routes)
    for (const m of r.methods) {
      served.add(`${m} ${r.path}`);
      if (!opOf(m, r.path)) problems.push(`${m} ${r.path}: served, not in openapi.yaml`);
    }
  for (const o of contract.ops)
    if (!served.has(`${o.method} ${o.path}`)) problems.push(`${o.method} ${o.path}: in openapi.yaml, not served`);
  assert.deepEqual(problems, []);
  console.log(`tables: ${served.size} operations, each served and documented`);
});

for (const ep of tables.endpoints) {
  test(`${ep.method} ${ep.path}: openapi.yaml has its table`, () => {
    const o = opOf(ep.method, ep.path);
    assert.ok(o, `${ep.method} ${ep.path} is not in openapi.yaml`);
    const problems = [];
    const rb = o.op.requestBody ? deref(doc, o.op.requestBody) : null;
    const media = Object.keys(rb?.content || {});
    if (setOf(media) !== setOf(ep.media)) problems.push(`media types: the code reads ${JSON.stringify(ep.media)}, openapi.yaml ${JSON.stringify(media)}`);

    const params = new Map(o.params.filter((p) => p.in === 'query').map((p) => [p.name, p]));
    const rows = byName(ep.opts, 'query');
    for (const [name, row] of rows) {
      const p = params.get(name);
      if (!p) {
        problems.push(`query ${name}: the code reads it, openapi.yaml does not list it`);
        continue;
      }
      if (!!p.required !== row.required) problems.push(`query ${name}: required: the code ${row.required}, openapi.yaml ${!!p.required}`);
      problems.push(...rowProblems(row, p.schema, `query ${name}`));
    }
    for (const name of params.keys())
      if (!rows.has(name)) problems.push(`query ${name}: openapi.yaml lists it, the code does not read it`);

    const json = rb?.content?.['application/json'];
    const bodyRows = ep.opts.filter((r) => r.in.includes('json'));
    if (json) problems.push(...membersProblems(ep.opts, json.schema, 'body'));
    else if (bodyRows.length) problems.push(`body: the code reads ${bodyRows.length} members, openapi.yaml has no JSON body`);
    assert.deepEqual(problems, [], `${ep.method} ${ep.path} and openapi.yaml differ`);
  });
}
