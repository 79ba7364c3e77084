// batch.test.mjs -- a file of puzzles through the streaming batch
// endpoint: progress, counts by status, the results to download.

import { before, after } from 'node:test';
import fs from 'node:fs';
import { assert, webTest, startServer, startBrowser, openPage, shoot } from './harness.mjs';

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-batch');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const button = (page, name) => page.getByRole('button', { name, exact: true });
const PUZZLE = '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..';
const SOLUTION = '812753649943682175675491283154237896369845721287169534521974368438526917796318452';

// The same puzzle with its digits renamed: k different puzzles, each with
// a solution we know.
function relabel(s, k) {
  const perm = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  for (let i = 8; i > 0; i--) {
    const j = (k * 7 + i * 13) % (i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  return s.replace(/[1-9]/g, (d) => String(perm[d - 1]));
}

webTest('choose a file of puzzles, see progress, download the results', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/batch`);
  const lines = ['# 300 puzzles'];
  for (let k = 0; k < 300; k++) lines.push(relabel(PUZZLE, k));
  lines.push('not a puzzle');
  await page.getByLabel('Open a file').setInputFiles({ name: 'puzzles.txt', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n') + '\n') });
  await page.getByText('puzzles.txt: 301 puzzles.').waitFor();
  await button(page, 'Run').click();
  await page.getByText('Done: 301 puzzles answered.').waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('progress').evaluate((p) => p.value), 1);
  assert.match(await page.locator('.counts').innerText(), /solved\s*300/);
  assert.match(await page.locator('.counts').innerText(), /invalid\s*1/);
  const dl = page.waitForEvent('download');
  await button(page, 'Download .txt').click();
  const file = await (await dl).path();
  const out = fs.readFileSync(file, 'utf8').trim().split('\n');
  assert.equal(out.length, 301);
  for (let k = 0; k < 300; k++) assert.equal(out[k], relabel(SOLUTION, k), `line ${k + 1}`);
  assert.match(out[300], /^invalid: /);
  page.assertNoErrors();
});

webTest('the sample batch: every kind of answer', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/batch`);
  await button(page, 'Use a sample').click();
  await button(page, 'Run').click();
  await page.getByText('Done: 6 puzzles answered.').waitFor();
  const statuses = await page.locator('table.preview tbody tr td:nth-child(2)').allInnerTexts();
  assert.deepEqual(statuses, ['solved', 'solved', 'solved', 'multiple', 'invalid', 'invalid']);
  await shoot(page, 'batch');
  page.assertNoErrors();
});
