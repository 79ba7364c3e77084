#!/usr/bin/env node
// validate.mjs -- every exchange the tests recorded (build/contract/**.jsonl,
// written by tests/contract/record.c for the libcurl clients and by
// tests/contract/record.mjs for node and the browser) checked against
// openapi.yaml; see oas.mjs for what "checked" means per media type.
//
//   node tests/contract/validate.mjs [--spec openapi.yaml] [--coverage]
//        [--summary FILE] DIR...
//
// For each exchange: the operation it reached (an undocumented method on a
// documented path must be answered with a status some operation of the path
// documents, e.g. 405; an undocumented path with 404), the answer's status
// must be documented, its media type one the response lists, its body valid
// for it, documented headers valid (required ones present).  A request that
// was answered 2xx must itself be one the document accepts (query
// parameters, body for its Content-Type).  The answers of async jobs (the
// `result` of GET /v1/jobs/{id}, GET .../result, the `done` event) are also
// checked against the operation that created the job (the 202's Location
// ties them), with the job's result_status and result_type.
//
// With --coverage, every operation must have been answered at least once
// and every 4xx it documents must have been seen (405 counts for every
// operation of the path it was answered on); the gaps are listed by name.
//
// Exit status 0 when all is well, 1 otherwise; mismatches are listed with
// the path into the body, grouped when the same one repeats.

import fs from 'node:fs';
import path from 'node:path';
import { Contract, exchangeOf, mediaType, parseSse } from './oas.mjs';

const args = process.argv.slice(2);
let spec = path.join(path.dirname(new URL(import.meta.url).pathname), '../../openapi.yaml');
let coverage = false;
let summaryFile = null;
const dirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--spec') spec = args[++i];
  else if (args[i] === '--coverage') coverage = true;
  else if (args[i] === '--summary') summaryFile = args[++i];
  else dirs.push(args[i]);
}
if (!dirs.length) {
  console.error('usage: validate.mjs [--spec openapi.yaml] [--coverage] [--summary FILE] DIR...');
  process.exit(2);
}

const contract = new Contract(spec);

function* files(dir) {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.name.endsWith('.jsonl')) yield p;
  }
}

// Reads every record into a normalised exchange.
const exchanges = [];
let unreadable = 0;
for (const dir of dirs) {
  for (const file of files(dir)) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let rec;
      try {
        rec = JSON.parse(line);
      } catch {
        unreadable++;
        console.error(`${file}:${i + 1}: not a JSON record`);
        return;
      }
      exchanges.push(exchangeOf(rec, `${path.relative(process.cwd(), file)}:${i + 1}`, path.basename(file).replace(/-\d+\.jsonl$/, '')));
    });
  }
}

// === Checking =================================================================
const problems = new Map(); // grouping key -> {count, first}
const seen = new Map(); // op id -> Map(status -> count)
const pathSeen = new Map(); // path template -> Map(status -> count), any method
const sources = new Map();
const unroutedSeen = new Map();
let preflights = 0;
let checked = 0;
const jobs = new Map(); // job id -> {op, exchange}

function complain(ex, label, list) {
  for (const m of list) {
    const key = `${label}\u0000${m.path.replace(/\d+/g, 'N')}\u0000${m.message}`;
    const p = problems.get(key);
    if (p) p.count++;
    else problems.set(key, { count: 1, label, path: m.path, message: m.message, where: ex.where, test: ex.test });
  }
}

const bump = (map, k1, k2) => {
  if (!map.has(k1)) map.set(k1, new Map());
  const m = map.get(k1);
  m.set(k2, (m.get(k2) || 0) + 1);
};

// Job ids from 202 answers first, so later exchanges can find their origin.
for (const ex of exchanges) {
  if (ex.status !== 202 || !ex.headers.location) continue;
  const m = contract.match(ex.method, ex.urlPath);
  const id = ex.headers.location.split('/').pop();
  if (m.kind === 'operation') jobs.set(id, { op: m.op, ex });
}

// The job's stored answer checked against the operation that made the job.
function checkJobResult(ex, job, label) {
  if (!job || job.result_status === undefined) return;
  const origin = jobs.get(job.id);
  if (!origin) return;
  const resp = contract.response(origin.op, job.result_status);
  const l = `${label} (result of ${origin.op.id} -> ${job.result_status})`;
  if (!resp) {
    complain(ex, l, [{ path: 'result_status', message: `${job.result_status} is not documented for ${origin.op.id}` }]);
    return;
  }
  const type = mediaType(job.result_type);
  const body = typeof job.result === 'string' ? job.result : JSON.stringify(job.result);
  complain(
    ex,
    l,
    contract
      .checkAnswer(resp, { method: 'GET', status: job.result_status, type, headers: {}, body })
      .filter((m) => !m.path.startsWith('header '))
      .map((m) => ({ ...m, path: `result${m.path.startsWith('(') ? '' : `/${m.path}`}`.replace('//', '/') })),
  );
}

for (const ex of exchanges) {
  bump(sources, ex.source, 'all');
  const r = contract.checkExchange(ex);
  if (r.kind === 'preflight') {
    preflights++;
    continue;
  }
  checked++;
  complain(ex, r.label, r.list);
  if (r.kind === 'path') {
    bump(unroutedSeen, ex.status, 'n');
    continue;
  }
  bump(pathSeen, r.path, ex.status);
  if (r.kind === 'method') continue;
  const o = r.op;
  const label = r.label;
  bump(seen, o.id, ex.status);

  // Job answers, checked again against the operation that made the job.
  if (ex.body !== null && !ex.incomplete && ex.status === 200 && o.path.startsWith('/v1/jobs')) {
    const id = ex.urlPath.split('/')[3];
    try {
      if (o.path === '/v1/jobs/{id}' && ex.type === 'application/json') checkJobResult(ex, JSON.parse(ex.body), label);
      else if (o.path === '/v1/jobs/{id}/events') {
        for (const ev of parseSse(ex.body, [])) if (ev.event === 'done') checkJobResult(ex, JSON.parse(ev.data), label);
      } else if (o.path === '/v1/jobs/{id}/result' && jobs.has(id)) {
        const origin = jobs.get(id);
        const r2 = contract.response(origin.op, ex.status);
        if (r2) complain(ex, `${label} (as ${origin.op.id})`, contract.checkAnswer(r2, { ...ex, headers: {} }));
      }
    } catch {
      /* not JSON: reported by the checks above */
    }
  }
  if (o.path === '/v1/jobs/{id}/result' && ex.status >= 400 && jobs.has(ex.urlPath.split('/')[3]) && ex.status !== 404) {
    const origin = jobs.get(ex.urlPath.split('/')[3]);
    const r2 = contract.response(origin.op, ex.status);
    if (!r2) complain(ex, label, [{ path: 'status', message: `${ex.status} is not documented for ${origin.op.id}, whose job this is` }]);
  }
}

// === Coverage =================================================================
const gaps = [];
for (const o of contract.ops) {
  const st = seen.get(o.id) || new Map();
  if (![...st.values()].some((n) => n > 0)) {
    gaps.push(`${o.id} (${o.method} ${o.path}): never answered`);
    continue;
  }
  for (const code of Object.keys(o.op.responses || {})) {
    if (!/^4\d\d$/.test(code)) continue;
    const n = Number(code);
    const direct = st.get(n) || 0;
    const onPath = n === 405 ? (pathSeen.get(o.path) || new Map()).get(n) || 0 : 0;
    if (!direct && !onPath) gaps.push(`${o.id} (${o.method} ${o.path}): documented ${code} never seen`);
  }
}

// === Report ===================================================================
const lines = [];
lines.push(`contract: ${exchanges.length} exchanges recorded (${[...sources.entries()].map(([s, m]) => `${s} ${m.get('all')}`).join(', ')}); ${checked} checked, ${preflights} CORS preflights (OPTIONS) not described by the document`);
for (const o of contract.ops) {
  const st = seen.get(o.id);
  const parts = st ? [...st.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s} x${n}`) : ['(none)'];
  lines.push(`  ${o.method.padEnd(6)} ${o.path.padEnd(26)} ${parts.join(', ')}`);
}
for (const [p, st] of pathSeen) {
  const other = [...st.entries()].filter(([s]) => s === 405);
  if (other.length) lines.push(`  (other methods) ${p}: ${other.map(([s, n]) => `${s} x${n}`).join(', ')}`);
}
if (unroutedSeen.size) lines.push(`  (no such path): ${[...unroutedSeen.entries()].map(([s, m]) => `${s} x${m.get('n')}`).join(', ')}`);
const summary = lines.join('\n');
console.log(summary);
if (summaryFile) fs.writeFileSync(summaryFile, `${summary}\n`);

let failed = unreadable > 0;
if (problems.size) {
  failed = true;
  const n = [...problems.values()].reduce((a, p) => a + p.count, 0);
  console.log(`\ncontract: ${n} mismatches (${problems.size} distinct):`);
  for (const p of problems.values()) {
    console.log(`  ${p.label}: ${p.path}: ${p.message}${p.count > 1 ? ` (x${p.count})` : ''}  [${p.where}${p.test ? `, ${p.test}` : ''}]`);
  }
}
if (coverage && gaps.length) {
  failed = true;
  console.log(`\ncontract: ${gaps.length} gaps in what the tests provoked:`);
  for (const g of gaps) console.log(`  ${g}`);
}
if (!exchanges.length) {
  failed = true;
  console.log('contract: no exchanges recorded (is PUZZLED_CONTRACT_DIR set for the suites?)');
}
console.log(failed ? 'contract: FAILED' : `contract: every answer matches ${path.relative(process.cwd(), spec)}${coverage ? ', every route and documented 4xx seen' : ''}`);
process.exit(failed ? 1 : 0);
