// watch.test.mjs -- the trace player: stepping forward and back in the
// browser, and the replay engine itself (web/js/watch.js, imported here as
// the module the page loads) checked against real traces from the server.

import { before, after } from 'node:test';
import { assert, webTest, startServer, startBrowser, openPage, shoot, gridText, assertSudoku } from './harness.mjs';
import { Replay } from '../../web/js/watch.js';

const CLASSIC = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-watch');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const board = (page) => page.getByRole('grid', { name: 'Puzzle to watch' });
const button = (page, name) => page.getByRole('button', { name, exact: true });

// What the board shows, values and pencil marks, as one string.
const snapshot = (page) =>
  board(page)
    .locator('[role=gridcell]')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')).join('|'));

webTest('step a trace forward and back', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/watch`);
  await page.getByLabel('Method').selectOption('mrv');
  await button(page, 'Trace the search').click();
  await page.getByText(/^Recorded: solved/).waitFor();
  const start = await snapshot(page);
  assert.match(await page.locator('.now').innerText(), /^Start/);
  for (let k = 0; k < 5; k++) await button(page, 'Step forward').click();
  assert.match(await page.locator('.now').innerText(), /^Step 5 of/);
  const at5 = await snapshot(page);
  assert.notEqual(at5, start);
  await button(page, 'Step forward').click();
  const at6 = await snapshot(page);
  assert.notEqual(at6, at5);
  await button(page, 'Step back').click();
  assert.equal(await snapshot(page), at5, 'one step back restores the board exactly');
  // the end of the trace is the solution; the start is the puzzle again
  await button(page, 'Go to the end').click();
  assertSudoku(await gridText(page, board(page)), 9, 3, 3, CLASSIC);
  await button(page, 'Go to the start').click();
  assert.equal(await snapshot(page), start);
  // play runs on by itself, pause stops it
  await page.getByLabel('Speed').selectOption('10');
  await button(page, 'Play').click();
  await page.waitForTimeout(350);
  await button(page, 'Pause').click();
  const pos = Number(/Step (\d+)/.exec(await page.locator('.now').innerText())?.[1] || 0);
  assert.ok(pos > 0, 'playing advanced');
  await page.waitForTimeout(200);
  assert.match(await page.locator('.now').innerText(), new RegExp(`^Step ${pos} `), 'paused');
  await shoot(page, 'watch');
  page.assertNoErrors();
});

webTest('propagation shows eliminations as struck-out pencil marks', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/watch`);
  await page.getByLabel('Examples').selectOption({ label: '9×9 very hard' });
  await page.getByLabel('Method').selectOption('propagation');
  await button(page, 'Trace the search').click();
  await page.getByText(/^Recorded: solved/).waitFor();
  // step until an elimination is shown
  for (let k = 0; k < 60; k++) {
    await button(page, 'Step forward').click();
    if (await board(page).locator('.cd.x').count()) break;
  }
  assert.equal(await board(page).locator('.cd.x').count(), 1);
  assert.match(await page.locator('.now').innerText(), /no longer possible/);
  assert.ok((await board(page).locator('.cands').count()) > 10, 'candidates are drawn');
  page.assertNoErrors();
});

// The replay engine on real traces: every backtrack restores the board of
// its guess, the end is the solution, and stepping all the way back gives
// the puzzle again.
async function trace(grid, method) {
  const r = await fetch(`${srv.base}/v1/sudoku/solve`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ grid, method, trace: true }),
  });
  assert.equal(r.status, 200);
  return r.json();
}

webTest('the replay engine undoes exactly what each step did', async () => {
  const SYM = '123456789';
  for (const [grid, method] of [
    [CLASSIC, 'propagation'],
    ['..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9', 'propagation'],
    [CLASSIC, 'backtracking'],
    [CLASSIC, 'mrv'],
  ]) {
    const res = await trace(grid, method);
    const values = [...grid].map((ch) => SYM.indexOf(ch) + 1);
    const rp = new Replay(9, 3, 3, values, res.trace);
    const states = [Array.from(rp.val).join() + Array.from(rp.mask).join()];
    const atGuess = new Map();
    for (let k = 0; k < res.trace.length; k++) {
      const s = res.trace[k];
      const key = `${s.row},${s.col},${s.value}`;
      if (s.step === 'guess') atGuess.set(key, [...(atGuess.get(key) || []), Array.from(rp.val).join()]);
      rp.forward();
      if (s.step === 'backtrack') {
        const stack = atGuess.get(key);
        assert.ok(stack && stack.length, `${method}: backtrack ${k} has a guess`);
        assert.equal(Array.from(rp.val).join(), stack.pop(), `${method}: backtrack ${k} restores its guess's board`);
      }
      states.push(Array.from(rp.val).join() + Array.from(rp.mask).join());
    }
    if (!res.trace_truncated) {
      assert.equal(Array.from(rp.val).map((v) => SYM[v - 1]).join(''), res.solution, `${method}: the end is the solution`);
    }
    for (let k = res.trace.length; k > 0; k--) {
      rp.back();
      assert.equal(Array.from(rp.val).join() + Array.from(rp.mask).join(), states[k - 1], `${method}: back to step ${k - 1}`);
    }
    rp.seek(res.trace.length);
    rp.seek(0);
    assert.equal(Array.from(rp.val).join() + Array.from(rp.mask).join(), states[0]);
  }
});
