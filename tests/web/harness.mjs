// harness.mjs -- what every browser test file shares: the real server on a
// free loopback port, Debian's Chromium driven by playwright-core, a page
// that starts with empty storage in the view asked for (play or engineer)
// and records every uncaught error and console error (each test ends by
// asserting there were none), screenshots, the accessibility audit
// (axe-core), and the list of tests waiting for endpoints that are not on
// main yet.
//
// Environment: PUZZLED_BIN (default build/puzzled), CHROMIUM (default
// /usr/bin/chromium), PUZZLED_WEB_SHOTS (default build/web-shots),
// PUZZLED_TEST_LOGS (server logs; default build/test-logs).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { contractDir, record, recordingFetch } from '../contract/record.mjs';
import { ROOT, startServer } from '../contract/server.mjs';

export { assert };

// === Tests waiting for endpoints that are not on main yet ==================
// One list, so that whoever merges the endpoint deletes its lines here and
// the tests run.  Nothing else in tests/web is ever skipped.
export const PENDING = {
};

// test() that honours PENDING.
export function webTest(name, fn, { timeout = 90_000 } = {}) {
  const skip = PENDING[name] ? `pending: needs ${PENDING[name]}` : false;
  return test(name, { skip, timeout }, (t) => {
    currentTest = name;
    return fn(t);
  });
}

// === The contract record (tests/contract/record.mjs) =======================
// With PUZZLED_CONTRACT_DIR set (`make test` sets it), every answer the
// page gets from the server and every fetch() of the tests themselves is
// written down for tests/contract/validate.mjs.
let currentTest;
globalThis.fetch = recordingFetch(globalThis.fetch, 'web-node', () => currentTest);
const pendingRecords = new Set();

function recordPageAnswers(page, origin) {
  if (!contractDir()) return;
  page.on('response', (res) => {
    if (!res.url().startsWith(origin)) return;
    const testName = currentTest;
    const req = res.request();
    const p = (async () => {
      const reqHeaders = await req.allHeaders().catch(() => req.headers());
      const resHeaders = await res.allHeaders().catch(() => res.headers());
      // A copy revalidated from the browser's cache: the server said 304,
      // the page is shown 200 with the 304's headers: not the server's answer.
      if (reqHeaders['if-none-match'] && res.status() === 200 && !resHeaders['content-type']) return;
      const body = await Promise.race([res.body(), new Promise((r) => setTimeout(() => r(null), 5_000))]).catch(() => null);
      record({
        source: 'web',
        test: testName,
        method: req.method(),
        url: res.url(),
        req_headers: reqHeaders,
        req_body: req.postDataBuffer(),
        status: res.status(),
        resp_headers: resHeaders,
        body,
        incomplete: body === null,
      });
    })();
    pendingRecords.add(p);
    p.finally(() => pendingRecords.delete(p));
  });
}

const SHOTS = path.resolve(ROOT, process.env.PUZZLED_WEB_SHOTS || 'build/web-shots');

// startServer(args, name): build/puzzled on a free port, resolves to
// {base, port, proc, stop()} (tests/contract/server.mjs: one launcher for
// both node suites).
export { startServer };

// Launches Chromium with a fresh profile; resolves to {ctx, close()}.
// `device` adds context options (a phone: viewport, hasTouch, isMobile).
export async function startBrowser(device = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'puzzled-web-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    ...device,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    ctx,
    async close() {
      await Promise.allSettled([...pendingRecords]); // each gives up after 5 s
      await ctx.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// A fresh page on `url` that records uncaught errors and console errors.
// Chromium reports every error answer to fetch() as a console error of its
// own ("Failed to load resource: the server responded with a status of
// 400"), so a test that provokes one on purpose lists it in `allow` (by
// status, e.g. 'status of 422'); any other console error fails the test.
// The page starts with empty storage (no saved game, default settings) in
// `mode` ('play' or 'engineer', for the Sudoku and Killer pages); `keep`
// keeps what an earlier page of the context stored.  `before(page)` runs
// before the first navigation (page.clock.install(), routes).  The
// context's other pages are closed first: they share the storage, and a
// game they save must not become this page's.
export async function openPage(ctx, url, { allow = [], mode = 'play', keep = false, before } = {}) {
  for (const old of ctx.pages()) await old.close();
  const page = await ctx.newPage();
  await page.bringToFront(); // the others are background tabs now (document.hidden)
  if (before) await before(page);
  if (!keep) {
    // a blank page of the same origin (made up here: no favicon.ico
    // request, no app saving a game) to empty the storage from
    const blank = new URL('/__blank__', url).href;
    const html = '<!doctype html><title>blank</title><link rel="icon" href="data:,">';
    await page.route(blank, (r) => r.fulfill({ status: 200, contentType: 'text/html', body: html }));
    await page.goto(blank);
    await page.evaluate((m) => {
      localStorage.clear();
      localStorage.setItem('puzzled.mode', JSON.stringify(m));
    }, mode);
    await page.unroute(blank);
  }
  const errors = [];
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (allow.some((a) => m.text().includes(a))) return;
    errors.push(`console: ${m.text()}`);
  });
  page.assertNoErrors = () => assert.deepEqual(errors, [], 'the page logged errors');
  page.errors = errors;
  recordPageAnswers(page, new URL(url).origin);
  await page.goto(url);
  await page.waitForSelector('main section.page h1');
  return page;
}

// Screenshots of the current page at desktop and phone width, light and
// dark, under build/web-shots/<name>-<width>-<scheme>.png.  Also checks
// that nothing is wider than the phone's screen.  With `audit`, axe-core
// checks each width and scheme too (audit() below).
export async function shoot(page, name, { audit: check = false } = {}) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const files = [];
  for (const [label, width, height] of [
    ['1280', 1280, 900],
    ['390', 390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(50);
      const file = path.join(SHOTS, `${name}-${label}-${scheme}.png`);
      await page.screenshot({ path: file, fullPage: true });
      files.push(file);
      if (check) await audit(page, `${name} at ${width} px, ${scheme}`);
    }
    if (width < 600) {
      const wide = await page.evaluate(() => document.scrollingElement.scrollWidth);
      assert.ok(wide <= width, `${name}: the page is ${wide} px wide on a ${width} px screen`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  return files;
}

// One screenshot of the page as it is (viewport, scheme), named.
export async function snap(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// === Accessibility: axe-core in the page ===================================
// axe's source is evaluated through the debugging protocol, which the
// page's Content-Security-Policy does not govern (a <script> tag would be
// refused).  Every violation of impact serious or critical fails, with its
// rule, its help text and the first elements it names.
const AXE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

export async function audit(page, where) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.failureSummary || ''}`.replace(/\s+/g, ' ')).join(' | ')}`);
  });
  assert.deepEqual(found, [], `axe-core on ${where}`);
}

// The cells of a Sudoku grid as text, row-major ('' for empty).
export async function gridText(page, gridLocator) {
  return gridLocator.locator('[role=gridcell]').evaluateAll((cells) =>
    cells.map((c) => {
      const v = c.querySelector('.v');
      return v ? v.textContent : '';
    }),
  );
}

// Types `solution` into every empty cell of `grid`, row by row, with the
// arrow keys and digits only, starting from the focused first cell.
export async function typeAll(page, grid, solution, n) {
  const shown = await gridText(page, grid);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!shown[r * n + c]) await page.keyboard.press(solution[r * n + c]);
      if (c < n - 1) await page.keyboard.press('ArrowRight');
    }
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
  }
}

// Presses Tab until the focused element matches `selector` (and, when
// given, has the text `text`).
export async function tabTo(page, selector, text, max = 80) {
  for (let i = 0; i < max; i++) {
    const here = await page.evaluate(
      ([s, t]) => {
        const a = document.activeElement;
        return !!a && a.matches(s) && (t === undefined || a.textContent.trim() === t);
      },
      [selector, text],
    );
    if (here) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} ${text || ''}`);
}

// Checks a solved Sudoku: every row, column and box holds 1..n once, and
// the givens (a string, '.' empty) are kept.
export function assertSudoku(cells, n, rows, cols, givens) {
  const SYM = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.slice(0, n);
  assert.equal(cells.length, n * n);
  const want = [...SYM].sort().join('');
  const unit = (idx) => idx.map((i) => cells[i]).sort().join('');
  for (let r = 0; r < n; r++) {
    assert.equal(unit([...Array(n)].map((_, c) => r * n + c)), want, `row ${r + 1}`);
    assert.equal(unit([...Array(n)].map((_, k) => k * n + r)), want, `column ${r + 1}`);
  }
  for (let br = 0; br < n; br += rows) {
    for (let bc = 0; bc < n; bc += cols) {
      const idx = [];
      for (let a = 0; a < rows; a++) for (let b = 0; b < cols; b++) idx.push((br + a) * n + bc + b);
      assert.equal(unit(idx), want, `box at ${br + 1},${bc + 1}`);
    }
  }
  if (givens) {
    [...givens].forEach((g, i) => {
      if (g !== '.' && g !== '0') assert.equal(cells[i], g, `given at cell ${i}`);
    });
  }
}

// Reads a Prometheus series from /metrics.
export async function metric(base, series) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}
