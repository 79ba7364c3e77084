// killer.test.mjs -- the Killer page's engineer view: drawing cages with
// the mouse and the keyboard, solving (both methods, Killer-X), importing
// the text format, errors from the server next to the cages, generating.
// (play.test.mjs plays a Killer to the end.)

import { before, after } from 'node:test';
import { assert, webTest, startServer, startBrowser, openPage, shoot, gridText, assertSudoku } from './harness.mjs';

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-killer');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const board = (page) => page.getByRole('grid', { name: /Killer grid/ });
const button = (page, name) => page.getByRole('button', { name, exact: true }).filter({ visible: true });
const label = (page, text) => page.getByLabel(text, { exact: true }).filter({ visible: true });
const open = (url, opts = {}) => openPage(browser.ctx, url, { mode: 'engineer', ...opts });
const cell = (page, r, c, n) => board(page).locator('[role=gridcell]').nth(r * n + c);

// A 4x4 killer with one solution (1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1).
const CAGES = [
  { sum: 7, cells: [[0, 0], [0, 1], [1, 1]] },
  { sum: 7, cells: [[0, 2], [0, 3]] },
  { sum: 5, cells: [[1, 0], [2, 0]] },
  { sum: 3, cells: [[1, 2], [1, 3]] },
  { sum: 7, cells: [[2, 1], [2, 2], [3, 2]] },
  { sum: 4, cells: [[2, 3], [3, 3]] },
  { sum: 7, cells: [[3, 0], [3, 1]] },
];

// A cell's text to its value: 1-9, then A = 10, B = 11... (16x16 boards)
const valueOf = (t) => '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.indexOf(t) + 1;

function assertCages(values, n, cages) {
  for (const cage of cages) {
    const vs = cage.cells.map(([r, c]) => valueOf(values[r * n + c]));
    assert.equal(vs.reduce((a, b) => a + b, 0), cage.sum, `cage ${JSON.stringify(cage)}`);
    assert.equal(new Set(vs).size, vs.length, 'no repeat in a cage');
  }
}

webTest('draw a 4x4 killer and solve it', async () => {
  const page = await open(`${srv.base}/#/killer`);
  await label(page, 'Size').first().selectOption('4');
  const sum = page.getByLabel('Cage sum');
  for (const cage of CAGES) {
    for (const [r, c] of cage.cells) await cell(page, r, c, 4).click();
    await sum.fill(String(cage.sum));
    await sum.press('Enter');
  }
  assert.equal(await page.locator('ol[aria-label=Cages] li').count(), CAGES.length);
  // every cage is drawn: its sum in one corner, dashed sides around it
  assert.equal(await board(page).locator('.csum').count(), CAGES.length);
  assert.ok((await board(page).locator('.cage.ct').count()) >= CAGES.length);
  await button(page, 'Solve').click();
  await page.getByText('Solved: the solution is unique.').waitFor();
  const values = await gridText(page, board(page));
  assertSudoku(values, 4, 2, 2);
  assertCages(values, 4, CAGES);
  assert.equal(values.join(''), '1234341221434321');
  // the baseline method agrees
  await label(page, 'Method').selectOption('backtracking');
  await button(page, 'Solve').click();
  await page.locator('table.stats', { hasText: 'backtracking' }).waitFor();
  assert.equal((await gridText(page, board(page))).join(''), '1234341221434321');
  await shoot(page, 'killer');
  page.assertNoErrors();
});

webTest('draw a cage with the keyboard alone and delete it', async () => {
  const page = await open(`${srv.base}/#/killer`);
  await label(page, 'Size').first().selectOption('4');
  await cell(page, 0, 0, 4).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  assert.equal(await board(page).locator('.cell.selected').count(), 2);
  await page.getByLabel('Cage sum').focus();
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('ol[aria-label=Cages] li').count(), 1);
  assert.match(await cell(page, 0, 0, 4).getAttribute('aria-label'), /cage 1, sum 3/);
  await button(page, 'Delete cage 1').click();
  assert.equal(await page.locator('ol[aria-label=Cages] li').count(), 0);
  page.assertNoErrors();
});

webTest('import the text format, solve Killer-X', async () => {
  const page = await open(`${srv.base}/#/killer`);
  const text = ['4', '1 2 3 4', String(CAGES.length), ...CAGES.map((c) => `${c.sum} ${c.cells.map(([r, k]) => `${r},${k}`).join(' ')}`)].join('\n');
  await page.getByLabel(/Paste a killer/).fill(text);
  await button(page, 'Load').click();
  await page.getByText('Loaded a 4×4 killer with 7 cages.').waitFor();
  await page.getByLabel(/Killer-X/).check();
  assert.equal(await board(page).locator('.cell.diag').count(), 8, 'both diagonals are shaded');
  await button(page, 'Solve').click();
  // 1234/3412/2143/4321 has 1,4,4,1 on its main diagonal: no Killer-X solution
  await page.getByText('No solution: these cages allow none.').waitFor();
  // export it back as text: the same cages
  await button(page, 'As text').click();
  assert.equal((await page.getByLabel(/Paste a killer/).inputValue()).trim(), text);
  page.assertNoErrors();
});

webTest('an impossible cage is named next to the cages', async () => {
  const page = await open(`${srv.base}/#/killer`, { allow: ['status of 422'] });
  await label(page, 'Size').first().selectOption('4');
  await cell(page, 0, 0, 4).click();
  await cell(page, 0, 1, 4).click();
  await page.getByLabel('Cage sum').fill('30');
  await page.getByLabel('Cage sum').press('Enter');
  await button(page, 'Solve').click();
  const err = page.locator('.card [data-api=cages] .field-error');
  await err.waitFor();
  assert.match(await err.innerText(), /cage 1: 30 cannot be made of 2 distinct symbols/);
  assert.equal(await board(page).locator('.cell.cage-err').count(), 2);
  // under the board, in a player's words
  assert.match(await page.locator('.board-wrap > .field-error').innerText(), /cage 1: 30 cannot be made of 2 distinct symbols/);
  // a malformed import is refused in the browser, next to the text field
  await page.getByLabel(/Paste a killer/).fill('4\n1 2 3 4\n1\n3 0,0 zz');
  await button(page, 'Load').click();
  const ierr = page.locator('.field.has-error', { has: page.getByLabel(/Paste a killer/) }).locator('.field-error');
  assert.match(await ierr.innerText(), /line 4: a cell is "row,col", got "zz"/);
  page.assertNoErrors();
});

webTest('a 4x4 killer offers the levels the server makes, no more', async () => {
  const page = await open(`${srv.base}/#/killer`);
  const gen = page.getByRole('region', { name: 'Generate' });
  const size = gen.getByLabel('Size', { exact: true });
  const diff = gen.getByLabel('Difficulty', { exact: true });
  await diff.selectOption('expert');
  await size.selectOption('4');
  assert.equal(await diff.inputValue(), 'medium', 'moved to the hardest level a 4x4 has');
  assert.ok(await diff.locator('option[value=hard]').isDisabled());
  assert.ok(!(await diff.locator('option[value=medium]').isDisabled()));
  await button(page, 'Generate').click();
  await page.locator('.status.ok', { hasText: /^New .*killer/ }).waitFor();
  await size.selectOption('9');
  assert.ok(!(await diff.locator('option[value=expert]').isDisabled()));
  page.assertNoErrors();
});

// Generate on the open page (its panel as it is set), then Solve: one sum
// per cage on the board, and the solution keeps the rules and the sums.
async function generateAndSolve(page, n, rows, cols) {
  const gen = page.waitForResponse((r) => r.url().endsWith('/v1/killer/generate'));
  await button(page, 'Generate').click();
  const p = (await (await gen).json()).puzzles[0];
  assert.equal(p.size, n);
  await page.locator('.status.ok', { hasText: /^New .*killer/ }).waitFor();
  assert.equal(await board(page).locator('.csum').count(), p.cages.length);
  await button(page, 'Solve').click();
  await page.getByText('Solved: the solution is unique.').waitFor();
  const values = await gridText(page, board(page));
  assertSudoku(values, n, rows, cols);
  assertCages(values, n, p.cages);
  page.assertNoErrors();
}

webTest('generate a killer and solve it', async () => {
  await generateAndSolve(await open(`${srv.base}/#/killer`), 6, 2, 3);
});

webTest('a 16x16 killer: generated, drawn and solved', async () => {
  const page = await open(`${srv.base}/#/killer`);
  const panel = page.getByRole('region', { name: 'Generate' });
  await panel.getByLabel('Size', { exact: true }).selectOption('16');
  await panel.getByLabel('Difficulty', { exact: true }).selectOption('easy');
  await generateAndSolve(page, 16, 4, 4);
});
