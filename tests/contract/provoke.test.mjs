// provoke.test.mjs -- every operation of openapi.yaml, driven from the
// document itself against the real server, so that a route added to the
// document is exercised without anyone writing a test for it:
//
//   2xx   the operation's example request (its required query parameters'
//         `example`, its request body's example) must answer 2xx; HEAD too
//         for GET operations; with `Prefer: respond-async` 202 + Location
//         where the operation documents 202;
//   400   an unknown query parameter, named in the problem's errors[], where
//         the operation reads parameters or a body; on every operation, a
//         request head without Host (refused before the route), naming it;
//   404   an unknown job id, or a hidden file for the web front end;
//   405   a method the path does not have, with the Allow header listing
//         the ones it has;
//   413   a body one byte over the limit, with the operation's own method;
//   415   a body of a type no operation takes (application/xml);
//   422   the operation's request example named `unprocessable` in
//         openapi.yaml (a body the rules refuse: the document shows it);
//   501   a Transfer-Encoding other than chunked (gzip), naming the header.
//
// A documented 4xx this file has no way to provoke fails the test, naming
// it; so does an operation without an example request.  Every exchange is
// recorded (PUZZLED_CONTRACT_DIR) and `make test-contract` validates it with
// the rest.  The last test scrapes /metrics of this server, which has by
// then answered every route and most statuses, and checks it with promtool
// and the Prometheus naming rules.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Contract, deref } from './oas.mjs';
import { exchange } from './record.mjs';
import { startServer, ROOT } from './server.mjs';

const MAX_BODY = 4096;
const MAX_BATCH_BODY = 8192;
const contract = new Contract(path.join(ROOT, 'openapi.yaml'));
const doc = contract.doc;

// A body the rules refuse (422): the operation's JSON request example
// named `unprocessable`, or undefined.
function unprocessable(o) {
  const rb = o.op.requestBody ? deref(doc, o.op.requestBody) : null;
  const ex = rb?.content?.['application/json']?.examples?.unprocessable;
  return ex ? deref(doc, ex).value : undefined;
}

let srv;
let current = 'provoke';
const send = (method, url, opts = {}) => exchange(srv.base, method, url, { source: 'provoke', test: current, ...opts });

before(async () => {
  srv = await startServer(['--threads', '2', '--max-body', String(MAX_BODY), '--max-batch-body', String(MAX_BATCH_BODY)], 'contract-provoke');
});
after(async () => {
  if (srv) assert.equal(await srv.stop(), 0, 'the server exits 0 on SIGTERM');
});

// The example request of an operation: {url, headers, body} or a reason.
function exampleRequest(o, jobId) {
  const q = new URLSearchParams();
  const headers = {};
  for (const p of o.params) {
    if ((p.in !== 'query' && p.in !== 'header') || !p.required) continue;
    const s = deref(doc, p.schema || {});
    const v = p.example ?? s.example ?? s.default;
    if (v === undefined) return { missing: `${p.in} parameter ${p.name} has no example` };
    if (p.in === 'header') headers[p.name] = String(v);
    else q.set(p.name, String(v));
  }
  let url = o.path.replace('{id}', jobId || 'A'.repeat(22));
  if ([...q.keys()].length) url += `?${q}`;
  const rb = o.op.requestBody ? deref(doc, o.op.requestBody) : null;
  if (!rb) return { url, headers, body: null };
  for (const [mt, media] of Object.entries(rb.content || {})) {
    const ex = media.example !== undefined ? media.example : media.examples ? deref(doc, Object.values(media.examples)[0]).value : undefined;
    if (ex === undefined) continue;
    const body = typeof ex === 'string' ? ex : JSON.stringify(ex);
    return { url, headers: { ...headers, 'Content-Type': mt }, body };
  }
  return { missing: 'the request body has no example' };
}

const documents = (o, code) => Object.prototype.hasOwnProperty.call(o.op.responses || {}, String(code));
const problem = (r) => {
  assert.match(r.headers['content-type'] || '', /^application\/problem\+json/);
  return JSON.parse(r.body);
};

// Jobs to point the job routes at: one ended, one still running.
const jobs = {};
async function makeJob(n, token) {
  const headers = { Prefer: 'respond-async', ...(token ? { 'Job-List-Token': token } : {}) };
  const r = await send('GET', `/v1/nqueens/count?n=${n}`, { headers });
  assert.equal(r.status, 202);
  jobs.token = JSON.parse(r.body).list_token;
  return r.headers.location.split('/').pop();
}
async function waitEnded(id) {
  for (let i = 0; i < 600; i++) { // 30 s: sanitizer builds are slow
    const r = await send('GET', `/v1/jobs/${id}`);
    if (JSON.parse(r.body).finished) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`job ${id} did not end`);
}

test('jobs to work on', async () => {
  current = 'jobs to work on';
  jobs.ended = await makeJob(8);
  await waitEnded(jobs.ended);
});

// DELETE of a job is exercised by the jobs test below (202 and 204).
const destructive = (o) => o.method === 'DELETE' && o.path.includes('{id}');
for (const o of contract.ops) {
  if (!destructive(o)) test(`${o.id}: its example request answers 2xx`, async () => {
    current = `${o.id} 2xx`;
    const req = exampleRequest(o, jobs.ended);
    assert.ok(!req.missing, `${o.id}: ${req.missing}; give it an example in openapi.yaml`);
    const r = await send(o.method, req.url, { headers: req.headers, body: req.body });
    assert.ok(r.status >= 200 && r.status < 300, `${o.method} ${req.url} answered ${r.status}: ${r.body.slice(0, 300)}`);
    if (o.method === 'GET') {
      const h = await send('HEAD', req.url, { headers: req.headers });
      assert.equal(h.status, r.status, 'HEAD answers as GET does');
      assert.equal(h.body, '', 'HEAD has no body');
    }
    if (documents(o, 202)) {
      const a = await send(o.method, req.url, { headers: { ...req.headers, Prefer: 'respond-async' }, body: req.body });
      assert.equal(a.status, 202, `with Prefer: respond-async: ${a.body.slice(0, 200)}`);
      assert.match(a.headers.location, /^\/v1\/jobs\/[A-Za-z0-9_-]{22}$/);
      await waitEnded(a.headers.location.split('/').pop());
      const res = await send('GET', `${a.headers.location}/result`);
      assert.equal(res.status, r.status, "the job's result has the synchronous call's status");
    }
  });

  test(`${o.id}: every documented 4xx (and 501) is provoked`, async () => {
    current = `${o.id} 4xx`;
    const req = exampleRequest(o, destructive(o) ? null : jobs.ended);
    const codes = Object.keys(o.op.responses || {}).filter((c) => /^4\d\d$/.test(c) || c === '501');
    const headerProblem = (r, status, field) => {
      assert.equal(r.status, status, `${o.id}: ${r.body.slice(0, 200)}`);
      const p = problem(r);
      assert.ok(p.errors.some((e) => e.in === 'header' && e.field === field), JSON.stringify(p));
      assert.equal(r.headers.connection, 'close', 'the connection is closed after a refused head');
    };
    for (const code of codes) {
      if (code === '400') {
        headerProblem(await send(o.method, req.url || o.path, { setHost: false }), 400, 'Host');
        if (!o.params.some((x) => x.in === 'query') && !o.op.requestBody) continue;
        const sep = req.url.includes('?') ? '&' : '?';
        const r = await send(o.method, `${req.url}${sep}contract_probe=1`, { headers: req.headers, body: req.body });
        assert.equal(r.status, 400, `${o.id}: an unknown query parameter: ${r.status}`);
        const p = problem(r);
        assert.ok(p.errors.some((e) => e.in === 'query' && e.field === 'contract_probe'), JSON.stringify(p));
      } else if (code === '501') {
        const r = await send(o.method, req.url || o.path, { headers: { 'Transfer-Encoding': 'gzip' } });
        headerProblem(r, 501, 'Transfer-Encoding');
      } else if (code === '404') {
        const url = o.path.includes('{id}') ? o.path.replace('{id}', 'A'.repeat(22)) : o.path === '/' ? '/.contract' : null;
        assert.ok(url, `${o.id}: no way to provoke 404 here; add one to provoke.test.mjs`);
        const r = await send(o.method, url);
        assert.equal(r.status, 404);
        problem(r);
      } else if (code === '405') {
        const have = contract.ops.filter((x) => x.path === o.path).map((x) => x.method);
        const other = ['PUT', 'PATCH', 'DELETE', 'POST'].find((m) => !have.includes(m));
        const r = await send(other, req.url || o.path);
        assert.equal(r.status, 405, `${other} ${o.path}`);
        problem(r);
        const allow = (r.headers.allow || '').split(/,\s*/);
        for (const m of have) assert.ok(allow.includes(m), `Allow (${r.headers.allow}) lists ${m}`);
      } else if (code === '413') {
        const limit = o.path === '/v1/sudoku/batch' ? MAX_BATCH_BODY : MAX_BODY;
        const ct = (req.headers && req.headers['Content-Type']) || 'text/plain';
        const r = await send(o.method, req.url || o.path, { headers: { 'Content-Type': ct }, body: 'x'.repeat(limit + 1) });
        assert.equal(r.status, 413, `${o.method} with ${limit + 1} bytes`);
        problem(r);
      } else if (code === '415') {
        const r = await send(o.method, req.url, { headers: { 'Content-Type': 'application/xml' }, body: '<grid/>' });
        assert.equal(r.status, 415);
        problem(r);
      } else if (code === '422') {
        const body = unprocessable(o);
        assert.ok(body, `${o.id} documents 422: give its request body an example named unprocessable in openapi.yaml`);
        const r = await send(o.method, req.url, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        assert.equal(r.status, 422, r.body.slice(0, 300));
        assert.ok(problem(r).detail, 'a 422 says what breaks the rules');
      } else {
        assert.fail(`${o.id} documents ${code}, which provoke.test.mjs has no way to provoke: add one`);
      }
    }
  });
}

test('the web front end: a file, and 304 for the ETag it had', async () => {
  current = 'web 304';
  for (const file of ['/', '/js/app.js', '/css/app.css', '/favicon.svg']) {
    const r = await send('GET', file);
    assert.equal(r.status, 200, file);
    const again = await send('GET', file, { headers: { 'If-None-Match': r.headers.etag } });
    assert.equal(again.status, 304, `${file} with its ETag`);
  }
});

test('jobs: list, follow, cancel a running one (202), delete an ended one (204)', async () => {
  current = 'jobs';
  const running = await makeJob(18, jobs.token);
  const list = await send('GET', '/v1/jobs?limit=1', { headers: { 'Job-List-Token': jobs.token } });
  assert.equal(list.status, 200);
  assert.deepEqual(JSON.parse(list.body).jobs.map((j) => j.id), [running]);
  const none = await send('GET', '/v1/jobs');
  assert.equal(none.status, 400, 'no list without a job-list token');
  const events = await send('GET', `/v1/jobs/${jobs.ended}/events`);
  assert.match(events.body, /^event: done$/m);
  const c = await send('DELETE', `/v1/jobs/${running}`);
  assert.equal(c.status, 202, 'a running job is cancelled');
  await waitEnded(running);
  const d = await send('DELETE', `/v1/jobs/${running}`);
  assert.equal(d.status, 204, 'an ended job is deleted');
  const gone = await send('GET', `/v1/jobs/${running}`);
  assert.equal(gone.status, 404);
});

// === /metrics =================================================================
// promtool's own lint, plus the naming rules it does not check: counters
// end in _total, durations are _seconds, no other unit than base units, and
// every series of a family has the same label names.
export function metricsNaming(text) {
  const bad = [];
  const types = new Map();
  const labels = new Map();
  for (const line of text.split('\n')) {
    let m = line.match(/^# TYPE (\S+) (\S+)$/);
    if (m) {
      types.set(m[1], m[2]);
      continue;
    }
    if (!line || line.startsWith('#')) continue;
    // name{label="value",...} value; values may hold any character, \" escaped
    m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\})? (\S+)$/);
    if (!m || !Number.isFinite(Number(m[4].replace(/^\+?Inf$/, '1')))) {
      bad.push(`unparsable line: ${line}`);
      continue;
    }
    const name = m[1];
    const family = [...types.keys()].find((f) => name === f || (/_(bucket|sum|count)$/.test(name) && name.replace(/_(bucket|sum|count)$/, '') === f));
    if (!family) {
      bad.push(`${name}: no # TYPE line`);
      continue;
    }
    const names = [...(m[3] || '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)].map((x) => x[1]).filter((k) => k !== 'le').sort().join(',');
    const key = `${family}`;
    if (labels.has(key) && labels.get(key) !== names) bad.push(`${family}: series with labels {${names}} and {${labels.get(key)}}`);
    labels.set(key, names);
  }
  for (const [name, type] of types) {
    if (type === 'counter' && !name.endsWith('_total')) bad.push(`${name}: a counter must end in _total`);
    if (type !== 'counter' && name.endsWith('_total')) bad.push(`${name}: only counters end in _total`);
    if (/(_ms|_milliseconds|_us|_microseconds|_minutes|_hours|_kilobytes|_kb|_mb|_megabytes|_percent)(_total)?$/.test(name))
      bad.push(`${name}: not a base unit (seconds, bytes, ratios)`);
    const words = name.split('_');
    if (['duration', 'latency', 'time', 'elapsed', 'age', 'uptime'].some((w) => words.includes(w)) && !/_seconds(_total)?$/.test(name))
      bad.push(`${name}: a duration must be in _seconds`);
    if (!name.startsWith('puzzled_')) bad.push(`${name}: not in the puzzled_ namespace`);
  }
  return bad;
}

test('/metrics after all of it: promtool check metrics, and Prometheus naming', async () => {
  current = 'metrics';
  const r = await send('GET', '/metrics');
  assert.equal(r.status, 200);
  const dir = process.env.PUZZLED_CONTRACT_DIR;
  if (dir) fs.writeFileSync(path.join(dir, 'metrics.txt'), r.body);
  const promtool = spawnSync('promtool', ['check', 'metrics'], { input: r.body, encoding: 'utf8' });
  if (promtool.error && promtool.error.code === 'ENOENT') {
    assert.fail('promtool is not installed (Debian package prometheus: make deps installs it)');
  }
  assert.equal(promtool.status, 0, `promtool check metrics:\n${promtool.stdout}${promtool.stderr}`);
  assert.equal(`${promtool.stdout}${promtool.stderr}`.trim(), '', 'promtool has nothing to say');
  assert.deepEqual(metricsNaming(r.body), []);
  // Every documented route shows up under its own label.
  for (const p of new Set(contract.ops.map((o) => o.path)))
    assert.ok(r.body.includes(`route="${p}"`), `/metrics counts route ${p}`);
});
