// play.test.mjs -- play mode, as a player meets it: a whole 9x9 and a
// whole Killer played to "completed" by keyboard, a 9x9 on a 390 px phone
// by touch with the number pad alone, undo and redo, a reload that keeps
// the game, share links both ways, the timer (on a clock the test drives:
// nothing here depends on the machine's speed), mistakes, pencil marks,
// highlighting, the shortcuts on the page, and the print sheet.

import { before, after } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { assert, webTest, startServer, startBrowser, openPage, gridText, typeAll, assertSudoku, shoot, snap } from './harness.mjs';
import { ROOT } from '../contract/server.mjs';

// The page's first Sudoku (the "9×9 classic" example) and its solution.
const PUZZLE = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const SOLUTION = '534678912672195348198342567859761423426853791713924856961537284287419635345286179';
// The page's first Killer (an easy 9x9) and its solution.
const KILLER_SOLUTION = '274186935569473821831592476123647598947258613685931247496315782358729164712864359';
const T0 = new Date('2030-01-01T09:00:00Z').getTime();

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-play');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const sudokuGrid = (page) => page.getByRole('grid', { name: 'Sudoku grid' });
const killerGrid = (page) => page.getByRole('grid', { name: 'Killer grid' });
const button = (page, name) => page.getByRole('button', { name, exact: true });
const cellAt = (grid, i) => grid.locator('[role=gridcell]').nth(i);
const current = (page) => page.locator('section.page:not([hidden])');

// A page whose clock stands still at T0 + 1 s until the test moves it.
const stillClock = async (page) => {
  await page.clock.install({ time: T0 });
  await page.clock.pauseAt(T0 + 1000);
};

// Tab from the top of the page until the focus is on a cell of `grid`.
async function tabIntoGrid(page, grid) {
  for (let k = 0; k < 60; k++) {
    await page.keyboard.press('Tab');
    if (await grid.evaluate((g) => g.contains(document.activeElement))) return;
  }
  throw new Error('Tab never reached the board');
}

webTest('a whole 9x9, by keyboard, to "completed" with its time', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { before: stillClock });
  const grid = sudokuGrid(page);
  assert.equal((await gridText(page, grid)).map((v) => v || '.').join(''), PUZZLE);
  await tabIntoGrid(page, grid);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'row 1, column 1: 5, given');
  await page.clock.runFor(125_000);
  await page.locator('.gamebar .time', { hasText: '2:05' }).waitFor();
  await typeAll(page, grid, SOLUTION, 9);
  const done = page.locator('.done-banner');
  await done.waitFor();
  assert.match(await done.innerText(), /Completed!\s+Solved in 2:05 with 0 mistakes\./);
  assert.equal((await gridText(page, grid)).join(''), SOLUTION);
  assert.equal(await grid.locator('.cell.entry').count(), 51);
  // a completed game is frozen: no digit, no undo
  assert.ok(await button(page, 'Undo').isDisabled());
  assert.ok(await page.getByRole('group', { name: 'Digits' }).getByRole('button', { name: '1', exact: true }).isDisabled());
  await page.clock.runFor(60_000);
  assert.equal(await page.locator('.gamebar .time').innerText(), '2:05', 'the clock stopped at completion');
  await page.clock.resume(); // screenshots wait for animation frames
  await shoot(page, 'play-sudoku-completed', { audit: true });
  page.assertNoErrors();
});

// Killer hints (POST /v1/killer/hint): the first game's first step is a
// cage technique, shown with its cells and applied as one undoable step
// that the solution agrees with; a wrong entry is named, not hinted.
webTest('Killer hints: the next step, applied; a wrong entry named', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/killer`);
  const grid = killerGrid(page);
  await page.getByRole('button', { name: 'Hint', exact: true }).click();
  await page.locator('.hint-text').waitFor();
  assert.match(await page.locator('.hint-text').innerText(), /^(cage-combination|innies-outies|cage-locked|naked-single|hidden-single|full-house)/);
  assert.match(await page.locator('.hint-text').innerText(), /cage \d+|cages\[\d+\]|row|column|box/);
  assert.ok((await grid.locator('.cell.hint').count()) >= 1);
  await page.getByRole('button', { name: 'Apply the hint', exact: true }).click();
  await page.locator('.status', { hasText: 'Hint applied' }).waitFor();
  const values = await gridText(page, grid);
  values.forEach((v, i) => v && assert.equal(v, KILLER_SOLUTION[i], `the hint's placement at ${i}`));
  // a wrong digit in the first cell: the hint names it
  const wrong = KILLER_SOLUTION[0] === '1' ? '2' : '1';
  await cellAt(grid, 0).click();
  await page.keyboard.press(wrong);
  await page.getByRole('button', { name: 'Hint', exact: true }).click();
  await page.getByText(/1 entry contradicts the solution: r1c1 \(marked\)/).waitFor();
  page.assertNoErrors();
});

webTest('a whole Killer, by keyboard, to "completed"', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/killer`);
  const grid = killerGrid(page);
  assert.equal(await grid.locator('.csum').count(), 34, 'every cage drawn with its sum');
  await tabIntoGrid(page, grid);
  // a wrong digit first: counted, marked, then corrected
  await page.keyboard.press('1');
  await page.locator('.gamebar .mistakes', { hasText: 'Mistakes: 1' }).waitFor();
  assert.ok((await cellAt(grid, 0).getAttribute('class')).includes('wrong'));
  await page.keyboard.press(KILLER_SOLUTION[0]);
  await typeAll(page, grid, KILLER_SOLUTION, 9);
  await page.locator('.done-banner').waitFor();
  assert.match(await page.locator('.done-banner').innerText(), /Completed!\s+Solved in \d+:\d\d with 1 mistake\./);
  const values = await gridText(page, grid);
  assertSudoku(values, 9, 3, 3);
  assert.equal(values.join(''), KILLER_SOLUTION);
  await shoot(page, 'play-killer-completed');
  page.assertNoErrors();
});

webTest('a 9x9 on a 390 px phone, by touch, with the number pad alone', async () => {
  const phone = await startBrowser({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  try {
    const page = await openPage(phone.ctx, `${srv.base}/#/sudoku`);
    const grid = sudokuGrid(page);
    const pad = page.getByRole('group', { name: 'Digits' });
    // nothing sticks out of the screen; the board and the pad fit its width
    assert.ok((await page.evaluate(() => document.scrollingElement.scrollWidth)) <= 390);
    const gb = await grid.boundingBox();
    assert.ok(gb.x >= 0 && gb.x + gb.width <= 390 && gb.width >= 330, `the board is ${gb.width} px wide`);
    for (let v = 1; v <= 9; v++) {
      const b = await pad.getByRole('button', { name: String(v), exact: true }).boundingBox();
      assert.ok(b.height >= 40 && b.width >= 32 && b.x + b.width <= 390, `digit ${v}: ${b.width}x${b.height} px`);
    }
    await page.evaluate(() => window.addEventListener('keydown', () => (window.keys = (window.keys || 0) + 1), true));
    const shown = await gridText(page, grid);
    for (let i = 0; i < 81; i++) {
      if (shown[i]) continue;
      await cellAt(grid, i).tap();
      // a tap selects (and shows it), and opens no on-screen keyboard
      assert.equal(await page.evaluate(() => !!document.activeElement.closest('input, textarea, select, [contenteditable]')), false);
      if (i === 2) assert.ok((await cellAt(grid, i).getAttribute('class')).includes('sel'));
      await pad.getByRole('button', { name: SOLUTION[i], exact: true }).tap();
    }
    assert.equal(await page.evaluate(() => window.keys || 0), 0, 'no key was pressed');
    await page.locator('.done-banner').waitFor();
    await snap(page, 'play-sudoku-phone-touch-completed');
    assert.equal((await gridText(page, grid)).join(''), SOLUTION);
    page.assertNoErrors();
  } finally {
    await phone.close();
  }
});

webTest('undo and redo every entry: keys, buttons, pencil marks and their pruning', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
  const grid = sudokuGrid(page);
  const labels = () => grid.locator('[role=gridcell]').evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')).join('|'));
  const start = await labels();
  await cellAt(grid, 3).click(); // r1c4 (empty)
  await page.keyboard.press('Shift+2'); // a pencil mark
  await page.keyboard.press('Shift+4');
  assert.match(await cellAt(grid, 3).getAttribute('aria-label'), /empty, pencil marks 2 4$/);
  const marked = await labels();
  await cellAt(grid, 2).click(); // r1c3, a peer of r1c4
  await page.keyboard.press('4'); // prunes the 4 from r1c4
  assert.match(await cellAt(grid, 3).getAttribute('aria-label'), /pencil marks 2$/);
  const placed = await labels();
  await page.keyboard.press('Space'); // pencil mode
  assert.equal(await button(page, 'Pencil').getAttribute('aria-pressed'), 'true');
  await cellAt(grid, 5).click();
  await page.keyboard.press('6');
  await page.keyboard.press('Space');
  const all = await labels();
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  assert.equal(await labels(), marked, 'undo takes the digit and its pruning back as one step');
  await button(page, 'Undo').click();
  await button(page, 'Undo').click();
  assert.equal(await labels(), start);
  assert.ok(await button(page, 'Undo').isDisabled());
  await page.keyboard.press('Control+y');
  await page.keyboard.press('Control+Shift+z');
  assert.equal(await labels(), marked);
  await button(page, 'Redo').click();
  assert.equal(await labels(), placed);
  await button(page, 'Redo').click();
  assert.equal(await labels(), all);
  assert.ok(await button(page, 'Redo').isDisabled());
  // the setting: marks stay when a peer gets the digit
  await page.getByText('Settings').click();
  await page.getByLabel(/Remove pencil marks/).uncheck();
  await cellAt(grid, 7).click(); // r1c8
  await page.keyboard.press('Shift+1');
  await cellAt(grid, 8).click();
  await page.keyboard.press('1');
  assert.match(await cellAt(grid, 7).getAttribute('aria-label'), /pencil marks 1$/);
  await cellAt(grid, 3).click();
  await shoot(page, 'play-sudoku-marks', { audit: true });
  page.assertNoErrors();
});

webTest('a reload brings the game back: entries, marks, history, mistakes, time', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { before: stillClock });
  const grid = sudokuGrid(page);
  await cellAt(grid, 2).click();
  await page.keyboard.press('4');
  await cellAt(grid, 3).click();
  await page.keyboard.press('1'); // wrong (6)
  await cellAt(grid, 5).click();
  await page.keyboard.press('Shift+8');
  await page.clock.runFor(61_000);
  await page.locator('.gamebar .time', { hasText: '1:01' }).waitFor();
  const labels = () => grid.locator('[role=gridcell]').evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')).join('|'));
  const saved = await labels();
  await page.reload();
  await page.getByText('Welcome back: your game is as you left it.').waitFor();
  assert.equal(await labels(), saved);
  assert.equal(await page.locator('.gamebar .mistakes').innerText(), 'Mistakes: 1');
  assert.equal(await page.locator('.gamebar .time').innerText(), '1:01');
  await page.clock.runFor(10_000);
  await page.locator('.gamebar .time', { hasText: '1:11' }).waitFor();
  // the history came back too
  await button(page, 'Undo').click();
  await button(page, 'Undo').click();
  assert.match(await cellAt(grid, 3).getAttribute('aria-label'), /: empty$/);
  page.assertNoErrors();
});

webTest('share links: the puzzle, and the entries when asked, both ways', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
  const grid = sudokuGrid(page);
  await cellAt(grid, 2).click();
  await page.keyboard.press('4');
  await button(page, 'Share').click();
  const url = current(page).getByLabel('Link to this puzzle');
  const plain = await url.inputValue();
  assert.equal(plain, `${srv.base}/#/sudoku?p=${PUZZLE}`);
  await current(page).getByLabel('Include my entries').check();
  const withEntries = await url.inputValue();
  assert.match(withEntries, /&e=\.\.4\.+$/);
  // a stranger opens it: the same puzzle and entries; the address loses the puzzle
  const other = await openPage(browser.ctx, withEntries);
  const g2 = sudokuGrid(other);
  await other.getByText('The puzzle from the link. Have fun!').waitFor();
  const cells = await gridText(other, g2);
  assert.equal(cells.map((v) => v || '.').join(''), `${PUZZLE.slice(0, 2)}4${PUZZLE.slice(3)}`);
  assert.equal(await g2.locator('.cell.given').count(), 30);
  assert.equal(await g2.locator('.cell.entry').count(), 1);
  assert.equal(new URL(other.url()).hash, '#/sudoku');
  // a reload keeps the game from the link (it is saved) without the link
  await other.reload();
  await other.getByText('Welcome back').waitFor();
  assert.equal((await gridText(other, g2)).map((v) => v || '.').join(''), `${PUZZLE.slice(0, 2)}4${PUZZLE.slice(3)}`);
  // a Killer travels the same way
  await other.goto(`${srv.base}/#/killer`);
  const kg = killerGrid(other);
  await kg.waitFor();
  await cellAt(kg, 0).click();
  await other.keyboard.press('2');
  await current(other).getByRole('button', { name: 'Share', exact: true }).click();
  await current(other).getByLabel('Include my entries').check();
  const klink = await current(other).getByLabel('Link to this puzzle').inputValue();
  assert.match(klink, /#\/killer\?n=9&k=/);
  const third = await openPage(browser.ctx, klink);
  await third.getByText('The killer from the link. Have fun!').waitFor();
  assert.equal(await killerGrid(third).locator('.csum').count(), 34);
  assert.equal((await gridText(third, killerGrid(third)))[0], '2');
  // a broken link says so, and the page still works
  const broken = await openPage(browser.ctx, `${srv.base}/#/sudoku?p=12x`);
  await broken.getByText(/This link does not hold a puzzle the page can read/).waitFor();
  assert.equal(await sudokuGrid(broken).locator('[role=gridcell]').count(), 81);
  for (const p of [page, other, third, broken]) p.assertNoErrors();
});

webTest('the timer: pause hides the board, resume, hide it, hidden tabs stop it', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { before: stillClock });
  const timer = page.locator('.gamebar button.timer');
  await page.clock.runFor(30_000);
  await page.locator('.gamebar .time', { hasText: '0:30' }).waitFor();
  await timer.click();
  assert.equal(await timer.getAttribute('aria-pressed'), 'true');
  await page.getByText('Paused', { exact: true }).waitFor();
  assert.equal(await page.locator('section.page:not([hidden]) .sgrid').evaluate((g) => getComputedStyle(g).visibility), 'hidden', 'no peeking while paused');
  await page.clock.runFor(300_000);
  assert.equal(await page.locator('.gamebar .time').innerText(), '0:30');
  await page.clock.resume(); // screenshots wait for animation frames; the game is paused anyway
  await shoot(page, 'play-sudoku-paused', { audit: true });
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  await button(page, 'Resume').click();
  await page.clock.runFor(5_000);
  await page.locator('.gamebar .time', { hasText: '0:35' }).waitFor();
  // the tab goes to the background: the clock stops, and starts again on return
  const visibility = (hidden) =>
    page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { value: h, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  await visibility(true);
  await page.clock.runFor(600_000);
  await visibility(false);
  await page.clock.runFor(1_000);
  await page.locator('.gamebar .time', { hasText: '0:36' }).waitFor();
  // hidden on request, still counting
  await page.getByText('Settings').click();
  await page.getByLabel('Show the timer').uncheck();
  assert.equal(await page.locator('.gamebar .time').isVisible(), false);
  await page.clock.runFor(4_000);
  await page.getByLabel('Show the timer').check();
  await page.locator('.gamebar .time', { hasText: '0:40' }).waitFor();
  page.assertNoErrors();
});

webTest('mistakes: checked as you go, or on request; Check marks them', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
  const grid = sudokuGrid(page);
  await cellAt(grid, 2).click();
  await page.keyboard.press('9'); // 4 is right
  await page.locator('.gamebar .mistakes', { hasText: 'Mistakes: 1' }).waitFor();
  assert.match(await cellAt(grid, 2).getAttribute('class'), /\bwrong\b/);
  assert.match(await cellAt(grid, 2).getAttribute('aria-label'), /, wrong$/);
  await page.getByText('Settings').click();
  await page.getByLabel(/Check each entry/).uncheck();
  assert.doesNotMatch(await cellAt(grid, 2).getAttribute('class'), /\bwrong\b/);
  assert.equal(await page.locator('.gamebar .mistakes').isVisible(), false);
  await button(page, 'Check').click();
  await page.getByText('1 entry is wrong (marked red).').waitFor();
  assert.match(await cellAt(grid, 2).getAttribute('class'), /\bwrong\b/);
  page.assertNoErrors();
});

webTest('the selected cell stands out, with its row, column, box and digit', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
  const grid = sudokuGrid(page);
  await cellAt(grid, 0).click(); // r1c1 holds a 5 given
  const cls = await grid.locator('[role=gridcell]').evaluateAll((cs) => cs.map((c) => c.className));
  const has = (i, k) => cls[i].split(' ').includes(k);
  assert.ok(has(0, 'sel'));
  for (const i of [1, 8, 9, 18, 20, 72]) assert.ok(has(i, 'peer'), `cell ${i} is a peer`);
  assert.ok(!has(40, 'peer') && !has(30, 'peer'));
  const fives = [...PUZZLE].flatMap((ch, i) => (ch === '5' && i ? [i] : []));
  assert.ok(fives.length >= 2);
  for (const i of fives) assert.ok(has(i, 'same'), `the 5 at ${i} is lit`);
  assert.ok(!has(1, 'same'));
  // drawn: a ring and its own colour, with or without the focus
  const look = (i) => cellAt(grid, i).evaluate((c) => [getComputedStyle(c).backgroundColor, getComputedStyle(c, '::after').boxShadow]);
  const [bgSel, ring] = await look(0);
  const [bgPeer] = await look(1);
  const [bgFar] = await look(40);
  assert.notEqual(ring, 'none');
  assert.ok(new Set([bgSel, bgPeer, bgFar]).size === 3, `three shades: ${bgSel} ${bgPeer} ${bgFar}`);
  await page.getByRole('button', { name: 'Share' }).focus();
  assert.notEqual((await look(0))[1], 'none', 'still shown when the board has no focus');
  // highlighting off: the selected cell stays marked, its peers do not
  await page.getByText('Settings').click();
  await page.getByLabel(/Highlight the row/).uncheck();
  assert.match(await cellAt(grid, 0).getAttribute('class'), /\bsel\b/);
  assert.equal(await grid.locator('.cell.peer, .cell.same').count(), 0);
  await cellAt(grid, 40).click();
  assert.match(await cellAt(grid, 40).getAttribute('class'), /\bsel\b/);
  page.assertNoErrors();
});

webTest('the keyboard shortcuts are on the page', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
  await page.getByText('Keyboard shortcuts').click();
  const text = await page.locator('details.keys').innerText();
  for (const k of ['Arrows', 'Shift + digit', 'Space or N', 'Ctrl+Z', 'Ctrl+Y']) assert.ok(text.includes(k), k);
  page.assertNoErrors();
});

webTest('print: the grid alone, black on white, givens only', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
  const grid = sudokuGrid(page);
  await cellAt(grid, 2).click();
  await page.keyboard.press('4');
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  for (const hidden of ['header.top', '.gamebar', '.numpad', '.page-head', 'footer']) {
    assert.equal(await page.locator(hidden).first().isVisible(), false, `${hidden} is not printed`);
  }
  assert.ok(await grid.isVisible());
  const look = await grid.evaluate((g) => {
    const given = g.querySelector('.cell.given');
    const entry = g.querySelector('.cell.entry .v');
    const peer = g.querySelector('.cell.peer') || given;
    return {
      bg: getComputedStyle(g).backgroundColor,
      peerBg: getComputedStyle(peer).backgroundColor,
      ink: getComputedStyle(given.querySelector('.v')).color,
      entry: getComputedStyle(entry).visibility,
    };
  });
  assert.deepEqual(look, { bg: 'rgb(255, 255, 255)', peerBg: 'rgb(255, 255, 255)', ink: 'rgb(0, 0, 0)', entry: 'hidden' });
  const dir = path.resolve(ROOT, process.env.PUZZLED_WEB_SHOTS || 'build/web-shots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, 'print-sudoku.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen', colorScheme: 'light' });
  page.assertNoErrors();
});
