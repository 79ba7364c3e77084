// tour.test.mjs -- the README's "A short tour" run as written, so the
// documentation cannot drift from the service: every command of its sh block
// is executed by bash against a live server (the host and port, and the job
// id the tour makes up, replaced by the real ones; `@puzzles.txt` is a file
// of three lines made here), through a `curl` that is the real curl behind
// curl-shim.mjs, which records each exchange.  For each command:
//
//   - it exits 0 and every answer it got is valid for openapi.yaml (the same
//     check as validate.mjs: status documented, body valid for its schema
//     and media type, headers, and for 2xx the request itself);
//   - what the README shows after it holds: a `# HTTP/1.1 NNN` line is the
//     status, `# Location:`-style lines are headers it has, `# event: X`
//     events it streamed, the first "status" of a `# {...}` answer is the
//     answer's status, and the plain lines shown for a text answer (the
//     batch) are lines of it.
//
// The server runs with --timeout-ms and --job-timeout-ms of 5 s, so that the
// tour's two long commands (a count of 17 queens as a job, 10^7 queens)
// cost seconds, not half a minute; a timed-out answer is still a documented
// one.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Contract, exchangeOf, parseSse } from './oas.mjs';
import { startServer, ROOT } from './server.mjs';

const README = path.join(ROOT, 'README.md');
const TOUR_HOST = 'http://127.0.0.1:8080';
const TOUR_JOB = '3q2-RZ4a0kDUqJ5mxG1u0A';
const contract = new Contract(path.join(ROOT, 'openapi.yaml'));

// The tour's commands: [{line, text, expect: [comment lines after it]}].
export function tourCommands(markdown) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^## A short tour/.test(l));
  assert.ok(start >= 0, 'README.md has no "## A short tour"');
  let i = start;
  while (i < lines.length && lines[i] !== '```sh') i++;
  assert.ok(i < lines.length, 'the tour has no ```sh block');
  const cmds = [];
  for (i++; i < lines.length && lines[i] !== '```'; i++) {
    const l = lines[i];
    if (!l.trim() || l.trimStart().startsWith('#')) continue;
    const first = i + 1;
    let text = l;
    // go on while a quote is open or the line continues (\ or a pipe)
    const open = (t) => (t.replace(/'[^']*'/g, '').match(/'/g) || []).length % 2 === 1;
    while (open(text) || /(\\|\|)\s*$/.test(text.replace(/\s+#.*$/, ''))) text += `\n${lines[++i]}`;
    const expect = [];
    while (i + 1 < lines.length && /^#( |$)/.test(lines[i + 1])) expect.push(lines[++i].slice(2));
    cmds.push({ line: first, text, expect });
  }
  return cmds;
}

let srv;
let work;
let shimDir;
let outDir;
const commands = tourCommands(fs.readFileSync(README, 'utf8'));
const state = { job: null };

before(async () => {
  srv = await startServer(['--timeout-ms', '5000', '--job-timeout-ms', '5000'], 'contract-tour');
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'puzzled-tour-'));
  shimDir = path.join(work, 'bin');
  outDir = path.join(work, 'out');
  fs.mkdirSync(shimDir);
  fs.mkdirSync(outDir);
  const real = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();
  assert.ok(real, 'curl is not installed');
  fs.writeFileSync(path.join(shimDir, 'curl'), `#!/bin/sh\nexec node ${path.join(ROOT, 'tests/contract/curl-shim.mjs')} "$@"\n`, { mode: 0o755 });
  process.env.TOUR_REAL_CURL = real;
  // the batch example's file: a unique puzzle, an empty grid (many
  // solutions), a line with an 'x' at position 5
  fs.writeFileSync(
    path.join(work, 'puzzles.txt'),
    [
      '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
      '.'.repeat(81),
      `1234x${'.'.repeat(76)}`,
      '',
    ].join('\n'),
  );
});

after(async () => {
  if (srv) assert.equal(await srv.stop(), 0);
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('the README has a tour to run', () => {
  assert.ok(commands.length >= 30, `only ${commands.length} commands found in the tour`);
});

for (const cmd of commands) {
  const title = `README.md:${cmd.line}: ${cmd.text.split('\n')[0].slice(0, 90)}`;
  test(title, { timeout: 60_000 }, () => {
    let text = cmd.text.split(TOUR_HOST).join(srv.base);
    if (text.includes(TOUR_JOB)) {
      assert.ok(state.job, 'the tour uses a job id before any command made a job');
      text = text.split(TOUR_JOB).join(state.job);
    }
    const before = new Set(fs.readdirSync(outDir));
    const run = spawnSync('bash', ['-c', `set -o pipefail\n${text}`], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${shimDir}:${process.env.PATH}`, TOUR_OUT: outDir, TOUR_COMMAND: `README.md:${cmd.line}` },
      maxBuffer: 256 << 20,
    });
    assert.equal(run.status, 0, `the command failed (exit ${run.status}): ${run.stderr}`);
    const made = fs
      .readdirSync(outDir)
      .filter((f) => f.endsWith('.json') && !before.has(f))
      .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
    assert.ok(made.length > 0, 'the command made no request');
    for (const f of made) {
      const rec = JSON.parse(fs.readFileSync(path.join(outDir, f), 'utf8'));
      const ex = exchangeOf(rec, `README.md:${cmd.line}`);
      const r = contract.checkExchange(ex);
      assert.deepEqual(r.list.map((m) => `${m.path}: ${m.message}`), [], `${r.label}: not what openapi.yaml says`);
      if (ex.status === 202 && ex.headers.location) state.job = ex.headers.location.split('/').pop();
      checkShown(cmd.expect, ex);
    }
  });
}

// What the README shows after a command, against the answer.
function checkShown(shown, ex) {
  let json = null;
  try {
    json = JSON.parse(ex.body);
  } catch {
    /* not JSON */
  }
  const events = ex.type === 'text/event-stream' ? parseSse(ex.body, []).map((e) => e.event) : [];
  const lines = ex.type === 'text/plain' ? ex.body.split('\n') : [];
  let statusShown = false;
  for (const s of shown) {
    let m;
    if ((m = s.match(/^HTTP\/1\.1 (\d{3})/))) {
      assert.equal(ex.status, Number(m[1]), `README shows "${s}"`);
    } else if ((m = s.match(/^(Location|Content-Type|Preference-Applied): (.*)$/))) {
      const got = ex.headers[m[1].toLowerCase()];
      assert.ok(got, `README shows the header ${m[1]}`);
      if (m[1] !== 'Location') assert.equal(got.split(';')[0], m[2], `README shows "${s}"`);
    } else if ((m = s.match(/^event: (\w+)/))) {
      assert.ok(events.includes(m[1]), `README shows "${s}"; the stream had ${events.join(', ')}`);
    } else if (s.startsWith('{') && !statusShown && json && typeof json === 'object') {
      const st = shown.join('\n').match(/"status":"(\w+)"/);
      statusShown = true;
      if (st && json.status !== undefined) assert.equal(json.status, st[1], 'the "status" the README shows');
    } else if (lines.length && /^[0-9a-z]/.test(s) && !s.includes('...')) {
      assert.ok(lines.includes(s), `README shows the line "${s}"`);
    }
  }
}
