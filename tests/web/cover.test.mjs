// cover.test.mjs -- the exact-cover editor: Knuth's example, the
// pentomino 6x10 drawn as a tiling, and a bad option named by its line.

import { before, after } from 'node:test';
import { assert, webTest, startServer, startBrowser, openPage, shoot } from './harness.mjs';
import { pentominoProblem } from '../../web/js/cover.js';

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-cover');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const button = (page, name) => page.getByRole('button', { name, exact: true });

webTest('Knuth\'s example: options 1, 4 and 5', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/cover`);
  await page.getByLabel('Max solutions').fill('5');
  await button(page, 'Solve').click();
  await page.getByText('Solved.').waitFor();
  const chosen = await page.locator('ol[aria-label="Chosen options"] li').allInnerTexts();
  assert.deepEqual(chosen, ['option 1: C E F', 'option 4: A D', 'option 5: B G']);
  assert.match(await page.locator('table.stats').innerText(), /complete\s+yes/);
  page.assertNoErrors();
});

webTest('pentominoes tile the 6x10 board', async () => {
  const p = pentominoProblem();
  assert.equal(p.items.length, 72);
  assert.equal(p.options.length, 2056, 'every placement of the 12 pieces (a known count)');
  const page = await openPage(browser.ctx, `${srv.base}/#/cover`);
  await page.getByLabel('Examples').selectOption('pento');
  await page.getByText('2,056 options').waitFor();
  await button(page, 'Solve').click();
  await page.getByText('Solved.').waitFor();
  const tiles = await page.locator('.tiling .tile').allInnerTexts();
  assert.equal(tiles.length, 60);
  const byPiece = {};
  tiles.forEach((t, i) => (byPiece[t] = [...(byPiece[t] || []), [Math.floor(i / 10), i % 10]]));
  assert.deepEqual(Object.keys(byPiece).sort(), [...'FILNPTUVWXYZ']);
  for (const [name, cells] of Object.entries(byPiece)) {
    assert.equal(cells.length, 5, `${name} covers 5 cells`);
    // connected
    const seen = new Set([cells[0].join()]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [r, c] of cells) {
        if (seen.has(`${r},${c}`)) continue;
        if ([[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]].some((x) => seen.has(x.join()))) {
          seen.add(`${r},${c}`);
          grew = true;
        }
      }
    }
    assert.equal(seen.size, 5, `${name} is one piece`);
  }
  await shoot(page, 'cover');
  page.assertNoErrors();
});

webTest('an unknown item is named by its line', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/cover`, { allow: ['status of 400'] });
  await page.getByLabel('Options, one per line').fill('A\nB\nC');
  await page.getByLabel('Items (covered exactly once)').fill('A B');
  await button(page, 'Solve').click();
  const err = page.locator('.field.has-error', { has: page.getByLabel('Options, one per line') }).locator('.field-error');
  await err.waitFor();
  assert.match(await err.innerText(), /line 3: unknown item 'C'/);
  page.assertNoErrors();
});
