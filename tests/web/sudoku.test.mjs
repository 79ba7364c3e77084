// sudoku.test.mjs -- the Sudoku page's engineer view in a real browser
// against the real server: typing, pasting, importing, checking, solving,
// comparing, the keyboard alone, generate, grade and hint, a 503 wait, a
// lost connection.  (play.test.mjs plays; found.test.mjs has the bugs.)

import { before, after } from 'node:test';
import {
  assert, webTest, startServer, startBrowser, openPage, shoot, gridText, tabTo, assertSudoku, metric,
} from './harness.mjs';

// The README's puzzle and its (unique) solution.
const PUZZLE = '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..';
const SOLUTION = '812753649943682175675491283154237896369845721287169534521974368438526917796318452';

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-sudoku');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const board = (page) => page.getByRole('grid', { name: 'Sudoku grid' });
const button = (page, name) => page.getByRole('button', { name, exact: true }).filter({ visible: true });
const label = (page, text) => page.getByLabel(text, { exact: true }).filter({ visible: true });
const open = (url, opts = {}) => openPage(browser.ctx, url, { mode: 'engineer', ...opts });

// Types a puzzle string into the board from its first cell, with the
// keyboard: a symbol writes, '.' leaves the cell, arrows move.
async function typePuzzle(page, puzzle, n) {
  await board(page).locator('[role=gridcell]').first().click();
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const ch = puzzle[r * n + c];
      if (ch !== '.') await page.keyboard.press(ch);
      await page.keyboard.press('ArrowRight'); // wraps to the row's start after the last cell
    }
    await page.keyboard.press('ArrowDown');
  }
}

webTest('type a 9x9 puzzle and solve it, then check every cell', async () => {
  const page = await open(`${srv.base}/#/sudoku`);
  await button(page, 'Clear all').click(); // an empty board, typing givens
  await typePuzzle(page, PUZZLE, 9);
  const typed = await gridText(page, board(page));
  assert.equal(typed.map((v) => v || '.').join(''), PUZZLE);
  await button(page, 'Solve').click();
  await page.getByText('Solved: the solution is unique.').waitFor();
  const cells = await gridText(page, board(page));
  assertSudoku(cells, 9, 3, 3, PUZZLE);
  assert.equal(cells.join(''), SOLUTION);
  assert.equal(await board(page).locator('.cell.solved').count(), [...PUZZLE].filter((ch) => ch === '.').length, 'the solver’s digits are told apart');
  // the statistics table says what the server said
  const stats = page.locator('table.stats').first();
  assert.match(await stats.innerText(), /nodes/);
  await shoot(page, 'sudoku-solved');
  page.assertNoErrors();
});

webTest('keyboard-only solve of a 4x4', async () => {
  const page = await open(`${srv.base}/#/sudoku`);
  // Size: Tab to the board's first select and pick 4x4 with the keyboard.
  await tabTo(page, '.board-tools select');
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => document.activeElement.value), '4');
  // The givens, typed into the grid (the first cell is its only tab stop).
  await tabTo(page, '[role=gridcell]');
  const puzzle = '1..4...3....32..';
  const solution = '1324241341323241';
  const keys = async (s) => {
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 4; c++) {
        const ch = s[r * 4 + c];
        if (ch !== '.') await page.keyboard.press(ch);
        await page.keyboard.press('ArrowRight');
      }
      await page.keyboard.press('ArrowDown');
    }
  };
  await keys(puzzle);
  // "Typing enters: my answers", by the keyboard (radio group: arrows).
  await tabTo(page, 'input[type=radio][value=givens]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.value), 'answers');
  await tabTo(page, '[role=gridcell]');
  // answers into the empty cells; the givens stay
  const answers = [...solution].map((ch, i) => (puzzle[i] === '.' ? ch : '.')).join('');
  await keys(answers);
  const cells = await gridText(page, board(page));
  assert.equal(cells.join(''), solution);
  // the page says the game is done: the answers agree with the rules
  await page.locator('.done-banner').waitFor();
  // Check, reached with Tab and pressed with Enter.
  await tabTo(page, '.eng-only button', 'Check');
  await page.keyboard.press('Enter');
  await page.getByText('Complete and correct').waitFor();
  // givens and answers are told apart on the board
  assert.equal(await board(page).locator('.cell.given').count(), 5);
  assert.equal(await board(page).locator('.cell.entry').count(), 11);
  page.assertNoErrors();
});

webTest('paste a malformed grid and see the error next to it', async () => {
  const page = await open(`${srv.base}/#/sudoku`, { allow: ['status of 400'] });
  const area = page.getByLabel('Paste a puzzle');
  await area.fill('1..x\n');
  await button(page, 'Load').click();
  // the server's message, in the field's own error slot, tied to it for screen readers
  const err = page.locator('.field.has-error', { has: area }).locator('.field-error');
  await err.waitFor();
  assert.match(await err.innerText(), /a string grid has N\*N characters/);
  const described = await area.getAttribute('aria-describedby');
  assert.ok(described.includes(await err.getAttribute('id')));
  assert.equal(await area.getAttribute('aria-invalid'), 'true');
  // The same text pasted straight onto the board: the error shows under the board.
  await board(page).locator('[role=gridcell]').first().click();
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.setData('text/plain', '12345');
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  });
  const boardErr = page.locator('.board-wrap .field-error');
  await boardErr.waitFor();
  assert.match(await boardErr.innerText(), /N\*N characters/);
  // A good paste loads, and a grid with separators is read too.
  await area.fill('8 . . | . . . | . . .\n. . 3 | 6 . . | . . .\n. 7 . | . 9 . | 2 . .\n------+-------+------\n. 5 . | . . 7 | . . .\n. . . | . 4 5 | 7 . .\n. . . | 1 . . | . 3 .\n------+-------+------\n. . 1 | . . . | . 6 8\n. . 8 | 5 . . | . 1 .\n. 9 . | . . . | 4 . .\n');
  await button(page, 'Load').click();
  await page.getByText('Loaded a 9×9 puzzle.').waitFor();
  assert.equal((await gridText(page, board(page))).map((v) => v || '.').join(''), PUZZLE);
  assert.equal(await page.locator('.field.has-error').count(), 0);
  await shoot(page, 'sudoku');
  page.assertNoErrors();
});

webTest('CSV import and a 6x6 with 2x3 boxes', async () => {
  const page = await open(`${srv.base}/#/sudoku`);
  const six = '.2.4...5..232......6.2.1.1...56.....';
  const csv = [0, 1, 2, 3, 4, 5].map((r) => [...six.slice(r * 6, r * 6 + 6)].map((ch) => (ch === '.' ? '' : ch)).join(','));
  await page.getByLabel('Paste a puzzle').fill(csv.join('\n'));
  await button(page, 'Load').click();
  await page.getByText('Loaded a 6×6 puzzle.').waitFor();
  await button(page, 'Solve').click();
  await page.locator('.status.ok', { hasText: 'Solved' }).waitFor();
  assertSudoku(await gridText(page, board(page)), 6, 2, 3, six);
  page.assertNoErrors();
});

webTest('check marks the cells that break a rule', async () => {
  const page = await open(`${srv.base}/#/sudoku`, { allow: ['status of 422'] });
  await button(page, 'Clear all').click();
  await board(page).locator('[role=gridcell]').first().click();
  await page.keyboard.press('5');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('5');
  await button(page, 'Check').click();
  await page.getByText(/rule.* broken/).waitFor();
  assert.equal(await board(page).locator('.cell.conflict').count(), 2);
  // and Solve refuses the same grid with a 422 that names both cells: in a
  // player's words under the board, in the API's in the Solve panel
  await button(page, 'Solve').click();
  const err = page.locator('.board-wrap .field-error');
  await err.filter({ hasText: 'r1c1' }).waitFor();
  assert.match(await err.innerText(), /^⚠?\s*r1c1: 5 repeats in row 1; r1c3: 5 repeats in row 1/);
  assert.doesNotMatch(await err.innerText(), /row 0|grid\[/);
  assert.match(await page.locator('section.card', { hasText: 'Max solutions' }).locator('.status.error').innerText(), /grid\[0\]\[0\]: 5 repeats in row 0/);
  assert.equal(await board(page).locator('.cell.err').count(), 2);
  page.assertNoErrors();
});

webTest('a bad option is shown next to its field', async () => {
  const page = await open(`${srv.base}/#/sudoku`, { allow: ['status of 400'] });
  await label(page, 'Max solutions').fill('0');
  await button(page, 'Solve').click();
  const err = page.locator('.field.has-error', { has: label(page, 'Max solutions') }).locator('.field-error');
  await err.waitFor();
  assert.match(await err.innerText(), /from 1 to 10000/);
  page.assertNoErrors();
});

webTest('compare methods on one puzzle', async () => {
  const page = await open(`${srv.base}/#/sudoku`);
  await label(page, 'Examples').selectOption({ label: '9×9 classic' });
  await button(page, 'Compare methods').click();
  await page.getByText(/Ran 8 methods/).waitFor({ timeout: 60_000 });
  const rows = page.locator('table.compare tbody tr');
  assert.equal(await rows.count(), 8);
  const text = await rows.allInnerTexts();
  for (const m of ['backtracking', 'mrv', 'propagation', 'best-first', 'algorithm-x', 'dlx', 'cdcl', 'fast']) {
    const row = text.find((t) => t.startsWith(m));
    assert.ok(row, `${m} has a row`);
    assert.match(row, /solved/, `${m} solved it`);
  }
  page.assertNoErrors();
});

webTest('a 25x25 grid: every unit complete after solving', async () => {
  const page = await open(`${srv.base}/#/sudoku`);
  await label(page, 'Size').selectOption('25');
  assert.equal(await board(page).locator('[role=gridcell]').count(), 625);
  await board(page).locator('[role=gridcell]').first().click();
  await page.keyboard.press('P'); // the 25th symbol
  await button(page, 'Solve').click();
  await page.locator('.status', { hasText: /^Solved/ }).waitFor({ timeout: 30_000 });
  const cells = await gridText(page, board(page));
  assert.equal(cells[0], 'P');
  assertSudoku(cells, 25, 5, 5);
  page.assertNoErrors();
});

webTest('generate, grade and take a hint', async () => {
  const page = await open(`${srv.base}/#/sudoku`);
  await label(page, 'Difficulty').selectOption('easy');
  const gen = page.waitForResponse((r) => r.url().endsWith('/v1/sudoku/generate'));
  await button(page, 'New puzzle').click();
  const generated = await (await gen).json();
  const p = generated.puzzles[0];
  await page.locator('.puzzle-out .badge').waitFor();
  const cells = await gridText(page, board(page));
  const givens = cells.filter(Boolean).length;
  assert.ok(givens >= 17 && givens < 81, `${givens} givens`);
  const solution = typeof p.solution === 'string' ? p.solution : p.solution.flat().join('');
  cells.forEach((v, i) => v && assert.equal(v, solution[i], `given ${i} agrees with the solution`));
  await button(page, 'Grade').click();
  await page.getByText(/^Graded: /).waitFor();
  assert.match(await page.locator('.puzzle-out .badge').textContent(), /easy|medium|hard|expert|extreme|beyond/);
  assert.ok((await page.locator('table.techniques tbody tr').count()) >= 1);
  await button(page, 'Hint').click();
  await page.locator('.hint-text').waitFor();
  assert.ok((await page.locator('.hint-text').innerText()).length > 10);
  assert.ok((await board(page).locator('.cell.hint').count()) >= 1);
  await shoot(page, 'sudoku-hint');
  // applying the hint places a value the solution agrees with, or removes candidates
  const was = await gridText(page, board(page));
  await button(page, 'Apply the hint').click();
  const now = await gridText(page, board(page));
  now.forEach((v, i) => {
    if (v && !was[i]) assert.equal(v, solution[i], `the hint's placement at ${i}`);
  });
  page.assertNoErrors();
});

webTest('a hint on a wrong entry names the cell', async () => {
  const page = await open(`${srv.base}/#/sudoku`);
  await label(page, 'Examples').selectOption({ label: '9×9 classic' });
  // row 1, column 3 is 4 in the solution; write 1 there
  await board(page).locator('[role=gridcell]').nth(2).click();
  await page.keyboard.press('1');
  await button(page, 'Hint').click();
  await page.getByText(/1 entry contradicts the solution: r1c3 \(marked\)/).waitFor();
  assert.equal(await board(page).locator('.cell.wrong').count(), 1);
  assert.equal(await board(page).locator('[role=gridcell]').nth(2).getAttribute('class').then((c) => c.includes('wrong')), true);
  page.assertNoErrors();
});

webTest('generate a 12x12 puzzle and solve it', async () => {
  const page = await open(`${srv.base}/#/sudoku`);
  await label(page, 'Size').selectOption('12');
  await button(page, 'New puzzle').click();
  await page.locator('.puzzle-out .badge').waitFor({ timeout: 30_000 });
  const puzzle = (await gridText(page, board(page))).map((v) => v || '.').join('');
  await button(page, 'Solve').click();
  await page.getByText('Solved: the solution is unique.').waitFor(); // generated puzzles are unique
  assertSudoku(await gridText(page, board(page)), 12, 3, 4, puzzle);
  page.assertNoErrors();
});

webTest('a 503 waits for Retry-After and says so', async () => {
  // A job store of one record: while a long count job holds it, a solve
  // (sent as a job) is refused with 503 + Retry-After; the page waits, says
  // so, and retries once the count has ended (its record can then go).
  const busy = await startServer(['--threads', '1', '--max-jobs', '1'], 'web-503');
  try {
    const page = await open(`${busy.base}/#/sudoku`, { allow: ['status of 503'] });
    const hog = await fetch(`${busy.base}/v1/nqueens/count?n=18&timeout_ms=2500`, {
      headers: { Prefer: 'respond-async' },
    });
    assert.equal(hog.status, 202);
    const hogAt = hog.headers.get('location');
    for (let t = 0; t < 100 && (await metric(busy.base, 'puzzled_jobs_inflight')) !== 1; t++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await label(page, 'Examples').selectOption({ label: '9×9 classic' });
    await button(page, 'Solve').click();
    await page.getByText(/The server is busy; waiting \d+ s \(Retry-After\)/).waitFor({ timeout: 10_000 });
    await page.locator('.status.ok', { hasText: 'Solved' }).waitFor({ timeout: 30_000 });
    const gone = await fetch(`${busy.base}${hogAt}`);
    assert.equal(gone.status, 404, 'the ended count made room (evicted)');
    page.assertNoErrors();
  } finally {
    await busy.stop();
  }
});

webTest('a lost connection says so', async () => {
  const gone = await startServer(['--threads', '1'], 'web-gone');
  const page = await open(`${gone.base}/#/sudoku`, { allow: ['net::ERR_'] });
  await label(page, 'Examples').selectOption({ label: '4×4' });
  await page.waitForLoadState('networkidle'); // the example's solution came
  await gone.stop();
  await button(page, 'Check').click();
  await page.getByText('Lost the connection to the puzzled server').waitFor();
  await page.getByText('The connection to the server was lost.').waitFor();
  page.assertNoErrors();
});
