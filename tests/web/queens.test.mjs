// queens.test.mjs -- the N-Queens page: counting with progress and Cancel,
// placing queens and reading the analysis, min-conflicts with its plot, the
// solution pager; and (once issue 23 lands) counts as jobs with live
// events and DELETE.

import { before, after } from 'node:test';
import { assert, webTest, startServer, startBrowser, openPage, shoot, metric } from './harness.mjs';

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2', '--timeout-ms', '120000'], 'web-queens');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const button = (page, name) => page.getByRole('button', { name, exact: true });
const countCard = (page) => page.locator('section.card', { has: page.getByRole('heading', { name: 'Count all solutions' }) });
const boardGrid = (page) => page.getByRole('grid', { name: /Chess board/ });
const square = (page, r, c, n) => boardGrid(page).locator('[role=gridcell]').nth(r * n + c);

async function waitIdle(base) {
  for (let t = 0; t < 50; t++) {
    if ((await metric(base, 'puzzled_jobs_inflight')) === 0) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

// The page's first answer is no reconnection, and an analysis it aborts
// itself is no lost server: either one re-ran the analysis, and together
// they looped (the page never went idle).
webTest('a fresh page analyses its empty board once', async () => {
  const analyses = [];
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`, {
    before: (p) => p.on('request', (r) => r.url().endsWith('/v1/nqueens/analyze') && analyses.push(r.postData())),
  });
  await page.waitForLoadState('networkidle');
  assert.deepEqual(analyses, ['{"n":8,"placed":[]}']);
  assert.equal(await page.locator('#conn').innerText(), '');
  page.assertNoErrors();
});

webTest('count 12 queens and see 14200', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  const card = countCard(page);
  await card.getByLabel('n', { exact: true }).fill('12');
  await card.getByRole('button', { name: 'Count', exact: true }).click();
  await card.locator('[data-testid=count]').waitFor();
  assert.equal(await card.locator('[data-testid=count]').innerText(), '14,200');
  // every subproblem of the split done (their number is the split's business)
  const stats = await card.locator('table.stats').innerText();
  const total = stats.match(/subproblems\s+([\d,]+)/)[1];
  assert.match(stats, new RegExp(`subproblems done\\s+${total}\\b`));
  page.assertNoErrors();
});

// n = 27 is hours of work, so the count is still running when Cancel is
// clicked on any machine (n = 18 and a 700 ms wait assumed a slow one).
webTest('start a count of 27 queens and cancel it', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  const card = countCard(page);
  await card.getByLabel('n', { exact: true }).fill('27');
  await card.getByRole('button', { name: 'Count', exact: true }).click();
  const cancel = card.getByRole('button', { name: 'Cancel', exact: true });
  await cancel.waitFor();
  await card.getByText('Counting the solutions for n = 27').waitFor();
  let inflight = 0;
  for (let i = 0; i < 200 && inflight < 1; i++) {
    inflight = await metric(srv.base, 'puzzled_jobs_inflight');
    if (inflight < 1) await page.waitForTimeout(50);
  }
  assert.ok(inflight >= 1, 'the count is running on the server');
  await cancel.click();
  await card.getByText('Cancelled.').waitFor();
  assert.ok(await cancel.isHidden());
  assert.ok(await card.getByRole('button', { name: 'Count', exact: true }).isEnabled());
  // the server stopped the search (the pool notices the client left)
  assert.ok(await waitIdle(srv.base), 'the server is idle again after Cancel');
  page.assertNoErrors();
});

webTest('a count runs as a job with live progress', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  const card = countCard(page);
  // note whether a progress bar ever shows, however briefly
  await page.evaluate(() => {
    window.sawProgress = false;
    new MutationObserver(() => {
      if (document.querySelector('section.page:not([hidden]) progress')) window.sawProgress = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  const created = page.waitForResponse((r) => /\/v1\/nqueens\/count/.test(r.url()));
  const events = page.waitForResponse((r) => /\/v1\/jobs\/[^/]+\/events$/.test(r.url()));
  await card.getByLabel('n', { exact: true }).fill('16');
  await card.getByRole('button', { name: 'Count', exact: true }).click();
  const res = await created;
  assert.equal(res.status(), 202, 'the count was accepted as a job');
  assert.match(res.headers().location, /^\/v1\/jobs\//);
  // progress arrives from the event stream while it runs
  assert.match((await events).headers()['content-type'], /^text\/event-stream/);
  await card.locator('[data-testid=count]').waitFor({ timeout: 120_000 });
  assert.equal(await page.evaluate(() => window.sawProgress), true, 'a progress bar was shown');
  assert.equal(await card.locator('[data-testid=count]').innerText(), '14,772,512');
  page.assertNoErrors();
});

webTest('cancelling a count job deletes it on the server', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  const card = countCard(page);
  // the Count button's GET, not the board's quiet POST count of completions
  // (a fast 8x8 job: caught by a looser match, its DELETE never came)
  const created = page.waitForResponse((r) => r.request().method() === 'GET' && /\/v1\/nqueens\/count\?/.test(r.url()));
  // n = 27 is hours of work: the job still runs when Cancel is clicked,
  // however fast the machine (n = 18 once ended first under ASan)
  await card.getByLabel('n', { exact: true }).fill('27');
  await card.getByRole('button', { name: 'Count', exact: true }).click();
  const location = (await created).headers().location;
  const deleted = page.waitForRequest((r) => r.method() === 'DELETE' && r.url().endsWith(location));
  await card.getByRole('button', { name: 'Cancel', exact: true }).click();
  await deleted;
  await card.getByText('Cancelled.').waitFor();
  const job = await (await fetch(`${srv.base}${location}`)).json();
  assert.equal(job.status, 'cancelled');
  assert.ok(await waitIdle(srv.base));
  page.assertNoErrors();
});

webTest('place queens by clicking: candidates, dead rows, completions', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  // empty 8x8: every square safe, 92 completions
  await page.locator('dd.completions').waitFor();
  assert.equal(await page.locator('dd.completions').innerText(), '92');
  await square(page, 0, 0, 8).click();
  await page.locator('dd.completions').waitFor();
  // a corner queen leaves row 1 six safe squares (columns 3..8), and 4 completions
  const row1 = await boardGrid(page).locator('[role=gridcell]').evaluateAll((cells) =>
    cells.slice(8, 16).map((c) => c.classList.contains('cand')),
  );
  assert.deepEqual(row1, [false, false, true, true, true, true, true, true]);
  assert.equal(await page.locator('dd.completions').innerText(), '4');
  // a queen on the same diagonal: both marked, the verdict says so
  await square(page, 1, 1, 8).click();
  await page.getByText('Two queens attack each other (red).').waitFor();
  assert.equal(await boardGrid(page).locator('.sq.clash').count(), 2);
  // move it to a safe square, then block row 2 completely: a dead end
  await square(page, 1, 2, 8).click();
  await square(page, 2, 4, 8).click();
  await square(page, 3, 1, 8).click();
  await square(page, 4, 3, 8).click();
  await page.getByText(/Dead end: row \d has no safe square left/).waitFor();
  // Complete from here on an empty board gives a full solution
  await button(page, 'Empty board').click();
  await button(page, 'First solution').click();
  await page.getByText(/^The first solution found by backtracking \(\d+ nodes/).waitFor();
  assert.equal(await boardGrid(page).locator('.sq.q').count(), 8);
  assert.equal(await boardGrid(page).locator('.sq.clash').count(), 0);
  // keyboard: arrows and Space move a queen
  await square(page, 0, 0, 8).focus();
  await page.keyboard.press('Space');
  await page.getByText('1 queen to go.').waitFor();
  await shoot(page, 'queens');
  page.assertNoErrors();
});

webTest('min-conflicts for 2000 queens plots its trace', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Min-conflicts for large n' }) });
  await card.getByLabel('n', { exact: true }).fill('2000');
  await card.getByRole('button', { name: 'Solve', exact: true }).click();
  await card.getByText(/^Solved 2,000 queens in/).waitFor();
  const pts = await card.locator('svg.plot polyline').getAttribute('points');
  assert.ok(pts.split(' ').length > 10, 'the plot has points');
  assert.match(await card.locator('svg.plot').getAttribute('aria-label'), /Conflicts after each move: \d+ at the start, 0 after/);
  assert.match(await card.getByText(/is not drawn/).innerText(), /2,000 queens/);
  // a board small enough is drawn, and checked
  await card.getByLabel('n', { exact: true }).fill('30');
  await card.getByRole('button', { name: 'Solve', exact: true }).click();
  await card.getByText(/^Solved 30 queens/).waitFor();
  const queens = await card.locator('.qboard .sq').evaluateAll((sq) => sq.map((s, i) => (s.classList.contains('q') ? i : -1)).filter((i) => i >= 0));
  assert.equal(queens.length, 30);
  const rc = queens.map((i) => [Math.floor(i / 30), i % 30]);
  for (let a = 0; a < 30; a++) {
    for (let b = a + 1; b < 30; b++) {
      const [r1, c1] = rc[a];
      const [r2, c2] = rc[b];
      assert.ok(r1 !== r2 && c1 !== c2 && Math.abs(r1 - r2) !== Math.abs(c1 - c2), 'no two queens attack');
    }
  }
  page.assertNoErrors();
});

webTest('page through all solutions of 6 queens', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Every solution, a page at a time' }) });
  await card.getByLabel('n', { exact: true }).fill('6');
  await card.getByRole('button', { name: 'Show', exact: true }).click();
  await card.getByText('Solutions 1–4 of 4.').waitFor();
  assert.equal(await card.locator('.qthumb').count(), 4);
  assert.ok(await card.getByRole('button', { name: 'Next ▶' }).isDisabled());
  await card.getByRole('button', { name: 'Solution 2: show it on the board' }).click();
  await page.getByText('Solved: 6 queens, none attacked.').waitFor();
  // 8 queens: 92 in pages of 12
  await card.getByLabel('n', { exact: true }).fill('8');
  await card.getByRole('button', { name: 'Show', exact: true }).click();
  await card.getByText('Solutions 1–12 of 92.').waitFor();
  await card.getByRole('button', { name: 'Next ▶' }).click();
  await card.getByText('Solutions 13–24 of 92.').waitFor();
  page.assertNoErrors();
});

webTest('an n out of range is refused next to the field', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`, { allow: ['status of 400'] });
  const card = countCard(page);
  await card.getByLabel('n', { exact: true }).fill('30');
  await card.getByRole('button', { name: 'Count', exact: true }).click();
  const err = card.locator('.field.has-error .field-error');
  await err.waitFor();
  assert.match(await err.innerText(), /must be from 1 to 27, got 30/);
  page.assertNoErrors();
});
