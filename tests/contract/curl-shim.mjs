#!/usr/bin/env node
// curl-shim.mjs -- stands in for `curl` while tour.test.mjs runs the README's
// commands: it runs the real curl (TOUR_REAL_CURL) with the same arguments,
// writes what it did down (the answer's status, headers and body, and the
// request: method, URL, headers, body) to $TOUR_OUT/<n>.json and to the
// contract record, and prints what curl itself would have printed (the head
// too with -i).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { record } from './record.mjs';

const out = process.env.TOUR_OUT;
const real = process.env.TOUR_REAL_CURL || '/usr/bin/curl';
const n = fs.readdirSync(out).filter((f) => f.endsWith('.json')).length;
const tmp = (name) => path.join(out, `${n}.${name}`);

const args = [];
const reqHeaders = {};
let include = false;
let method = null;
let data = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (/^-[a-zA-Z]+$/.test(a) && a.includes('i') && !['-H', '-X', '-d', '-o', '-w', '-D'].includes(a)) {
    include = true; // -i, -si: the head goes to stdout; the shim prints it
    const rest = a.replace(/i/g, '');
    if (rest !== '-') args.push(rest);
    continue;
  }
  if (a === '-H' || a === '--header') {
    const h = argv[++i];
    const k = h.indexOf(':');
    if (k > 0) reqHeaders[h.slice(0, k).trim().toLowerCase()] = h.slice(k + 1).trim();
    args.push(a, h);
  } else if (a === '-X' || a === '--request') {
    method = argv[++i];
    args.push(a, method);
  } else if (a === '-d' || a === '--data' || a === '--data-binary' || a === '--data-raw') {
    let v = argv[++i];
    if (v.startsWith('@') && a !== '--data-raw') {
      const src = v === '@-' ? 0 : v.slice(1);
      const file = tmp('req');
      fs.writeFileSync(file, fs.readFileSync(src));
      v = `@${file}`;
    }
    // curl -d strips newlines from a file and sends the rest as is
    const text = v.startsWith('@') ? fs.readFileSync(v.slice(1), 'utf8') : v;
    data = a === '-d' || a === '--data' ? text.replace(/[\r\n]/g, '') : text;
    args.push(a, v);
  } else {
    args.push(a);
  }
}

const res = spawnSync(real, [...args, '-s', '-S', '-D', tmp('head'), '-o', tmp('body'), '-w', '%{json}'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
let info = {};
try {
  info = JSON.parse(res.stdout);
} catch {
  /* curl failed before writing */
}
const head = fs.existsSync(tmp('head')) ? fs.readFileSync(tmp('head'), 'latin1') : '';
const body = fs.existsSync(tmp('body')) ? fs.readFileSync(tmp('body')) : Buffer.alloc(0);
const m = method || info.method || (data !== null ? 'POST' : 'GET');
const rec = {
  source: 'tour',
  test: process.env.TOUR_COMMAND || undefined,
  method: m,
  url: info.url_effective || info.url,
  req_headers: reqHeaders,
  req_body: data,
  status: info.response_code || 0,
  resp_headers: head,
  body,
  incomplete: res.status !== 0,
};
record(rec);
fs.writeFileSync(tmp('json'), JSON.stringify({ ...rec, body: body.toString('utf8'), exit: res.status }));
if (include) process.stdout.write(head);
process.stdout.write(body);
process.exit(res.status === null ? 1 : res.status);
