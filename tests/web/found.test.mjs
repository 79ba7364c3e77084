// found.test.mjs -- issue 38's "fix what was found", one test each, every
// one failing on the page before the fix: thumbnails, the Compare table,
// the exact-cover error, "— nodes", a page opened while the server was
// down, the limits the page shows, batch text, pencil marks on big grids,
// the phone's tab bar, "1 pair ... attack", panels that kept another
// puzzle's results, and API words in front of players.  (play.test.mjs
// has the play-mode ones: the selected cell, the phone, undo, reload.)

import { before, after } from 'node:test';
import { assert, webTest, startServer, startBrowser, openPage, gridText, snap } from './harness.mjs';

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-found');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const button = (page, name) => page.getByRole('button', { name, exact: true }).filter({ visible: true });
const label = (page, text) => page.getByLabel(text, { exact: true }).filter({ visible: true });
const cardOf = (page, title) => page.locator('section.card', { has: page.getByRole('heading', { name: title, exact: true }) });

webTest('N-Queens thumbnails are boards, not 19 px slivers', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  const card = cardOf(page, 'Every solution, a page at a time');
  await card.getByLabel('n', { exact: true }).fill('8');
  await card.getByRole('button', { name: 'Show', exact: true }).click();
  await card.getByText('Solutions 1–12 of 92.').waitFor();
  const widths = await card.locator('.qthumb .qboard').evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().width));
  assert.equal(widths.length, 12);
  for (const w of widths) assert.ok(w >= 90, `a thumbnail board is ${w} px wide`);
  page.assertNoErrors();
});

webTest('the Compare table stays inside its card at 1280 px', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { mode: 'engineer' });
  await label(page, 'Examples').selectOption({ label: '9×9 classic' });
  await button(page, 'Compare methods').click();
  await page.getByText(/Ran 8 methods/).waitFor({ timeout: 60_000 });
  const [table, card, wrap] = await page.locator('table.compare').evaluate((t) => {
    const c = t.closest('.card');
    const w = t.closest('.table-wrap');
    return [t.getBoundingClientRect().right, c.getBoundingClientRect().right, w.scrollWidth - w.clientWidth];
  });
  assert.ok(table <= card, `the table ends at ${table} px, its card at ${card} px`);
  assert.equal(wrap, 0, 'no scrolling needed');
  page.assertNoErrors();
});

webTest('the exact-cover error goes once a good problem is solved', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/cover`, { allow: ['status of 400'] });
  await page.getByLabel('Options, one per line').fill('A\nB\nC');
  await page.getByLabel('Items (covered exactly once)').fill('A B');
  await button(page, 'Solve').click();
  await page.locator('.field-error', { hasText: 'line 3' }).waitFor();
  await page.getByLabel('Options, one per line').fill('A\nB');
  await button(page, 'Solve').click();
  await page.getByText('Solved.').waitFor();
  assert.equal(await page.locator('.field-error').filter({ visible: true }).count(), 0);
  assert.equal(await page.locator('[aria-invalid=true]').count(), 0);
  page.assertNoErrors();
});

webTest('"First solution" at n = 32 says how it was found, not "— nodes"', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  await page.getByLabel('n (board size)').fill('32');
  await page.getByLabel('n (board size)').press('Enter');
  await page.getByLabel('n (board size)').dispatchEvent('change');
  await button(page, 'First solution').click();
  const status = page.locator('.status.ok', { hasText: 'The first solution' });
  await status.waitFor();
  const text = await status.innerText();
  assert.doesNotMatch(text, /—/);
  assert.match(text, /found by [a-z-]+ \(\d[\d,]* (nodes?|moves?)/);
  page.assertNoErrors();
});

webTest('a page opened while the server was down loads by itself when it is back', async () => {
  const first = await startServer(['--threads', '1'], 'web-down-1');
  let second;
  try {
    const page = await openPage(browser.ctx, `${first.base}/#/sudoku`, {
      allow: ['net::ERR_', 'Failed to fetch dynamically imported module'],
    });
    await page.evaluate(() => (window.sameDocument = true));
    await first.stop();
    await page.getByRole('link', { name: 'Killer', exact: true }).click();
    await page.getByText(/This page could not be loaded/).waitFor();
    await page.getByText('The connection to the server was lost').waitFor();
    // the same port again, and the page notices without a reload
    second = await startServer(['--threads', '1', '--port', String(first.port)], 'web-down-2');
    await page.getByRole('grid', { name: 'Killer grid' }).waitFor({ timeout: 20_000 });
    assert.equal(await page.locator('section.page:not([hidden]) h1').innerText(), 'Killer Sudoku');
    assert.equal(await page.evaluate(() => window.sameDocument), true, 'no reload');
    await page.getByText('The connection to the server was lost').waitFor({ state: 'detached' }).catch(() => {});
    assert.equal(await page.locator('#conn').innerText(), '');
    page.assertNoErrors();
  } finally {
    await first.stop();
    await second?.stop();
  }
});

webTest('the limits the page shows are the API’s', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  // min-conflicts: the page checks n itself, in its hint's words, and sends nothing
  const mc = cardOf(page, 'Min-conflicts for large n');
  assert.match(await mc.locator('.field-hint').first().innerText(), /^4 to 10,000,000$/);
  let sent = 0;
  page.on('request', (r) => r.url().includes('/v1/nqueens/solve') && r.method() === 'POST' && sent++);
  await mc.getByLabel('n', { exact: true }).fill('2');
  await mc.getByRole('button', { name: 'Solve', exact: true }).click();
  await mc.getByText('n must be from 4 to 10,000,000 for min-conflicts.').waitFor();
  assert.equal(sent, 0);
  // every solution of n = 20, a page at a time (the API allows up to 64)
  const sol = cardOf(page, 'Every solution, a page at a time');
  assert.match(await sol.locator('.field-hint').innerText(), /1 to 64; the total is known up to 16/);
  await sol.getByLabel('n', { exact: true }).fill('20');
  await sol.getByRole('button', { name: 'Show', exact: true }).click();
  await sol.getByText(/^Solutions 1–12\.$/).waitFor();
  assert.equal(await sol.locator('.qthumb').count(), 12);
  page.assertNoErrors();

  // Sudoku: the sizes the page says are the sizes the API reads
  const sp = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { mode: 'engineer', allow: ['status of 400'] });
  assert.match(await sp.locator('.lead.eng-only').innerText(), /4×4 to 35×35 \(CSV up to 64×64\)/);
  assert.match(await sp.getByText(/^Text up to 35×35/).innerText(), /CSV up to 64×64/);
  // a 7x7 has no box: the page asks for one, and takes it
  await sp.getByLabel('Paste a puzzle').fill('1'.padEnd(49, '.'));
  await button(sp, 'Load').click();
  const boxErr = sp.locator('.box-field > .field-error');
  await boxErr.waitFor();
  assert.match(await boxErr.innerText(), /N = 7 has no box shape/);
  await sp.getByLabel('Box rows').fill('1');
  await sp.getByLabel('Box columns').fill('7');
  await button(sp, 'Load').click();
  await sp.getByText('Loaded a 7×7 puzzle.').waitFor();
  assert.equal(await sp.getByRole('grid', { name: 'Sudoku grid' }).locator('[role=gridcell]').count(), 49);
  await button(sp, 'Solve').click();
  await sp.locator('.status', { hasText: /^Solved, but the puzzle is not unique/ }).waitFor();
  sp.assertNoErrors();
});

webTest('batch answers wrap between words, grids anywhere', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/batch`);
  await button(page, 'Use a sample').click();
  await button(page, 'Run').click();
  await page.getByText('Done: 6 puzzles answered.').waitFor();
  const styles = await page.locator('table.preview td:nth-child(3)').evaluateAll((tds) =>
    tds.map((td) => [td.className, getComputedStyle(td).wordBreak]),
  );
  const msgs = styles.filter(([c]) => c === 'msg');
  assert.ok(msgs.length >= 2, 'the invalid lines say why');
  for (const [, wb] of msgs) assert.notEqual(wb, 'break-all');
  for (const [c, wb] of styles.filter(([k]) => k === 'grid-text')) assert.equal(wb, 'break-all', c);
  page.assertNoErrors();
});

webTest('pencil marks on 16x16 and 25x25 are readable, or listed beside the board', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { mode: 'engineer' });
  for (const [n, width] of [
    [16, 1280],
    [25, 1280],
    [16, 390],
    [25, 390],
  ]) {
    await page.setViewportSize({ width, height: 900 });
    await label(page, 'Size').selectOption(String(n));
    await page.locator('section.page:not([hidden]) input[value=answers]').check({ force: true });
    const grid = page.getByRole('grid', { name: 'Sudoku grid' });
    await grid.locator('[role=gridcell]').nth(n + 1).click();
    await page.keyboard.press('Shift+1');
    await page.keyboard.press('Shift+A');
    const look = await grid.evaluate((g) => {
      const cd = [...g.querySelectorAll('.cd')].find((x) => x.textContent);
      return { mode: g.dataset.marks, px: parseFloat(getComputedStyle(cd).fontSize), shown: getComputedStyle(cd).visibility };
    });
    if (look.mode === 'inline') assert.ok(look.px >= 8, `${n}x${n} at ${width} px: marks of ${look.px} px`);
    else {
      assert.equal(look.shown, 'hidden', `${n}x${n} at ${width} px: too small to draw`);
      assert.equal(await page.locator('.marks-line').filter({ visible: true }).innerText(), 'Pencil marks in r2c2: 1 A');
      const dot = await grid.locator('.cell.has-marks').evaluate((c) => getComputedStyle(c, '::before').content);
      assert.notEqual(dot, 'none', 'a dot says the cell has marks');
    }
    await snap(page, `marks-${n}x${n}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  page.assertNoErrors();
});

webTest('every tab of the navigation is on a 390 px screen', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
  await page.setViewportSize({ width: 390, height: 844 });
  const links = page.locator('nav a[data-page]');
  assert.equal(await links.count(), 6);
  for (const box of await links.evaluateAll((as) => as.map((a) => a.getBoundingClientRect().toJSON()))) {
    assert.ok(box.left >= 0 && box.right <= 390 && box.width > 20, `a tab at ${box.left}..${box.right}`);
  }
  assert.equal(await page.locator('nav ul').evaluate((u) => u.scrollWidth - u.clientWidth), 0);
  await page.setViewportSize({ width: 1280, height: 900 });
  page.assertNoErrors();
});

webTest('two attacking queens are "two queens", not "1 pair ... attack"', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/queens`);
  const sq = (r, c) => page.getByRole('grid', { name: /Chess board/ }).locator('[role=gridcell]').nth(r * 8 + c);
  await page.locator('dd.completions').waitFor();
  await sq(0, 0).click();
  await sq(1, 1).click();
  await page.getByText('Two queens attack each other (red).').waitFor();
  await sq(2, 2).click();
  await page.getByText('3 pairs of queens attack each other (red).').waitFor();
  page.assertNoErrors();
});

webTest('one puzzle, one state: a new puzzle clears every panel of the old one', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { mode: 'engineer' });
  const six = '.2.4...5..232......6.2.1.1...56.....';
  await page.getByLabel('Paste a puzzle').fill(six);
  await button(page, 'Load').click();
  await page.getByText('Loaded a 6×6 puzzle.').waitFor();
  await button(page, 'Compare methods').click();
  await page.getByText(/Ran \d methods/).waitFor({ timeout: 60_000 });
  await button(page, 'Solve').click();
  await page.locator('.status.ok', { hasText: /^Solved/ }).waitFor();
  await button(page, 'Grade').click();
  await page.getByText(/^Graded: /).waitFor();
  // now another puzzle: a generated one
  await button(page, 'New puzzle').click();
  await page.getByText(/^New \w+ puzzle/).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('table.compare').count(), 0, 'Compare forgot the 6x6');
  assert.equal(await page.locator('table.stats').count(), 0, 'Solve forgot the 6x6');
  assert.equal(await page.locator('table.techniques').count(), 0, 'Grade forgot the 6x6');
  assert.equal(await page.getByText('Loaded a 6×6 puzzle.').count(), 0, 'Import forgot the 6x6');
  assert.equal(await page.getByText(/^Ran \d methods/).count(), 0);
  assert.equal(await page.locator('.cell.solved').count(), 0, 'no solver digits of the 6x6 on the board');
  page.assertNoErrors();
});

webTest('players read r1c1 and row 1, never grid[0][0] or row 0', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { allow: ['status of 422'] });
  await button(page, 'Enter your own').click();
  const grid = page.getByRole('grid', { name: 'Sudoku grid' });
  await grid.locator('[role=gridcell]').nth(0).click();
  await page.keyboard.press('5');
  await grid.locator('[role=gridcell]').nth(1).click();
  await page.keyboard.press('5');
  await button(page, 'Start playing').click();
  const note = page.locator('.status.warn', { hasText: 'breaks the rules' });
  await note.waitFor();
  assert.equal(await note.innerText(), 'This puzzle breaks the rules at r1c1, r1c2.');
  assert.deepEqual((await gridText(page, grid)).slice(0, 2), ['5', '5']);
  // the rules, checked as you play: both marked, in words a player reads
  assert.match(await grid.locator('[role=gridcell]').nth(0).getAttribute('aria-label'), /^row 1, column 1: 5, given, breaks a rule$/);
  page.assertNoErrors();
});
