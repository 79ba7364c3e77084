// variants.test.mjs -- Sudoku variants on the page (issue 35), one flow per
// variant the New game card offers: a puzzle generated with a seed (the
// same one the test asks the API for), what the board draws for it
// (jigsaw borders, diagonals, windows, parity marks, consecutive marks)
// checked against the puzzle's fields, the highlighted peers against the
// variant's units, a wrong digit that breaks the variant's rule and no
// classic one counted as a mistake, a reload that keeps the variant, a
// hint, the whole grid typed by keyboard to "completed" with the solution
// the API gives (checked here against every rule of the variant), the
// print sheet, and the share link.  Then engineer mode: solve, grade and check with the
// variant's fields.  The rules below are the test's own (docs/variants.md),
// not the page's.

import { before, after } from 'node:test';
import { assert, webTest, startServer, startBrowser, openPage, gridText, typeAll, shoot } from './harness.mjs';

const N = 9;
const SYM = '123456789';
const SEED = 35;

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-variants');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const sudokuGrid = (page) => page.getByRole('grid', { name: 'Sudoku grid' });
const button = (page, name) => page.getByRole('button', { name, exact: true }).filter({ visible: true });
const cellAt = (grid, i) => grid.locator('[role=gridcell]').nth(i);
const range = (k) => [...Array(k).keys()];

// === the rules, from a generated puzzle's fields ===========================

// The units of the puzzle `p` (an API answer): rows, columns, boxes or
// regions, and the variant's extra units.
function unitsOf(p) {
  const names = [].concat(p.variant);
  const units = [];
  for (const r of range(N)) units.push(range(N).map((c) => r * N + c));
  for (const c of range(N)) units.push(range(N).map((r) => r * N + c));
  if (p.regions) {
    const flat = p.regions.flat();
    for (const id of new Set(flat)) units.push(range(N * N).filter((i) => flat[i] === id));
  } else units.push(...boxes());
  if (names.includes('x')) units.push(range(N).map((k) => k * N + k), range(N).map((k) => k * N + N - 1 - k));
  if (names.includes('windoku')) {
    for (const r0 of [1, 5]) for (const c0 of [1, 5]) units.push(range(9).map((k) => (r0 + Math.floor(k / 3)) * N + c0 + (k % 3)));
  }
  if (names.includes('disjoint')) {
    for (const k of range(9)) units.push(boxes().map((b) => b[k]));
  }
  return units;
}

// The 3x3 boxes, each in reading order.
const boxes = () => range(9).map((b) => range(9).map((k) => (3 * Math.floor(b / 3) + Math.floor(k / 3)) * N + 3 * (b % 3) + (k % 3)));

// The classic grid's units: what a wrong digit must not break.
const classicUnits = () => [...range(N).map((r) => range(N).map((c) => r * N + c)), ...range(N).map((c) => range(N).map((r) => r * N + c)), ...boxes()];

// Pair rules: [a, b, consecutive] for every marked pair and, with janko's
// consecutive rule or non-consecutive, every unmarked neighbour pair.
function pairRules(p) {
  const names = [].concat(p.variant);
  const marked = (p.pairs || []).map((pr) => pr.map(([r, c]) => r * N + c));
  const key = (a, b) => `${Math.min(a, b)}-${Math.max(a, b)}`;
  const out = marked.map(([a, b]) => [a, b, true]);
  if (names.includes('consecutive') || names.includes('non-consecutive')) {
    const seen = new Set(marked.map(([a, b]) => key(a, b)));
    for (const i of range(N * N)) {
      for (const j of [i % N < N - 1 ? i + 1 : -1, i + N < N * N ? i + N : -1]) if (j >= 0 && !seen.has(key(i, j))) out.push([i, j, false]);
    }
  }
  return out;
}

const kept = (x, y, consecutive) => (consecutive ? Math.abs(x - y) === 1 : Math.abs(x - y) !== 1);
const parityOk = (p, i, v) => !p.parity || p.parity[i] === '.' || (p.parity[i] === 'E') === (v % 2 === 0);

// Whether digit v in cell i breaks a rule of `units` or of the variant's
// cell and pair rules, on `board` (values, 0 empty).
function breaks(p, units, board, i, v, { cellRules = true } = {}) {
  if (units.some((u) => u.includes(i) && u.some((j) => j !== i && board[j] === v))) return true;
  if (!cellRules) return false;
  if (!parityOk(p, i, v)) return true;
  return pairRules(p).some(([a, b, c]) => (a === i && board[b] && !kept(v, board[b], c)) || (b === i && board[a] && !kept(v, board[a], c)));
}

// A complete solution keeps the givens and every rule of the variant.
function assertSolves(p, solution) {
  const sol = [...solution].map(Number);
  assert.equal(sol.length, N * N);
  [...p.puzzle].forEach((ch, i) => ch !== '.' && assert.equal(sol[i], +ch, `given at ${i}`));
  for (const u of unitsOf(p)) assert.equal(new Set(u.map((i) => sol[i])).size, u.length, `unit ${u}`);
  sol.forEach((v, i) => assert.ok(v >= 1 && v <= N && parityOk(p, i, v), `cell ${i}`));
  for (const [a, b, c] of pairRules(p)) assert.ok(kept(sol[a], sol[b], c), `pair ${a}-${b}`);
}

// What the board draws, read from the page.
const drawn = (page) =>
  sudokuGrid(page).evaluate((g) => {
    const cells = [...g.querySelectorAll('[role=gridcell]')];
    const having = (cls) => cells.flatMap((c, i) => (c.classList.contains(cls) ? [i] : []));
    return {
      br: having('br'),
      bb: having('bb'),
      diag: having('diag'),
      win: having('win'),
      even: having('even'),
      odd: having('odd'),
      diagLines: g.querySelectorAll('.deco.diag-line').length,
      // a consecutive mark's centre, doubled: the sum of its two cells' centres
      pairs: [...g.querySelectorAll('.deco.pair-mark')].map((m) => `${Math.round(2 * m.getAttribute('cx'))},${Math.round(2 * m.getAttribute('cy'))}`).sort(),
    };
  });

// What the board should draw for `p`.
function expectedDrawing(p) {
  const names = [].concat(p.variant);
  const region = p.regions ? p.regions.flat() : range(N * N).map((i) => 3 * Math.floor(i / 27) + Math.floor((i % N) / 3));
  const all = range(N * N);
  const units = unitsOf(p);
  const extra = (k) => [...new Set(units.slice(27, 27 + k).flat())].sort((a, b) => a - b);
  return {
    br: all.filter((i) => i % N < N - 1 && region[i] !== region[i + 1]),
    bb: all.filter((i) => i < N * (N - 1) && region[i] !== region[i + N]),
    diag: names.includes('x') ? extra(2) : [],
    win: names.includes('windoku') ? extra(4) : [],
    even: all.filter((i) => p.parity && p.parity[i] === 'E'),
    odd: all.filter((i) => p.parity && p.parity[i] === 'O'),
    diagLines: names.includes('x') ? 2 : 0,
    pairs: (p.pairs || []).map(([[r1, c1], [r2, c2]]) => `${c1 + c2 + 1},${r1 + r2 + 1}`).sort(),
  };
}

// === the page ================================================================

// The request the page's New game makes (easy, rotational symmetry, 9x9).
function generateBody(variant) {
  const body = { size: N, difficulty: 'easy', symmetry: 'rotational180', count: 1, variant, seed: SEED };
  if (variant !== 'jigsaw') body.box = { rows: 3, cols: 3 };
  return body;
}

async function post(path, body) {
  const res = await fetch(`${srv.base}/v1/sudoku/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return res.json();
}

// The puzzle the page will make, and its solution: from the API, checked.
async function puzzleAndSolution(variant) {
  const p = (await post('generate', generateBody(variant))).puzzles[0];
  const { grid, solution, ...fields } = p;
  const fieldsOnly = Object.fromEntries(Object.entries(fields).filter(([k]) => ['variant', 'regions', 'parity', 'pairs', 'box'].includes(k)));
  const res = await post('solve', { grid: p.puzzle, ...fieldsOnly, max_solutions: 2 });
  assert.equal(res.status, 'solved');
  assert.equal(res.unique, true);
  assert.equal(res.solution, solution, 'the solver agrees with the generator');
  assertSolves(p, res.solution);
  assert.ok(grid);
  return { p, solution: res.solution };
}

// New game on the page: the variant, the seed, and the wait for it.
async function newGame(page, variant) {
  await page.getByLabel('Variant').filter({ visible: true }).selectOption(variant);
  await page.getByText('More options', { exact: true }).click();
  await page.getByLabel('Seed').fill(String(SEED));
  await button(page, 'New game').click();
  await page.locator('.status', { hasText: /^A new easy .*puzzle\. Good luck!$/ }).waitFor();
}

// A digit for an empty cell that differs from the solution and breaks the
// variant's rule on the board, but no row, column or 3x3 box.
function variantOnlyMistake(p, solution, board) {
  const units = unitsOf(p);
  const classic = classicUnits();
  for (const i of range(N * N)) {
    if (board[i]) continue;
    for (let v = 1; v <= N; v++) {
      if (v === +solution[i] || breaks(p, classic, board, i, v, { cellRules: false })) continue;
      if (breaks(p, units, board, i, v)) return { i, v };
    }
  }
  throw new Error(`no digit breaks only the ${p.variant} rule`);
}

const boardOf = async (page) => (await gridText(page, sudokuGrid(page))).map((x) => (x ? SYM.indexOf(x) + 1 : 0));

const VARIANTS = ['jigsaw', 'x', 'windoku', 'disjoint', 'even-odd', 'consecutive', 'non-consecutive'];

for (const variant of VARIANTS) {
  webTest(`${variant}: generated by seed, drawn, played by keyboard to "completed", restored, shared`, async () => {
    const { p, solution } = await puzzleAndSolution(variant);
    const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
    const grid = sudokuGrid(page);
    await newGame(page, variant);
    assert.equal((await gridText(page, grid)).map((x) => x || '.').join(''), p.puzzle, 'the seed gives the same puzzle');
    const want = expectedDrawing(p);
    assert.deepEqual(await drawn(page), want);
    assert.match(await page.locator('.variant-rules').innerText(), /^[\w -]+: .+\.$/);
    if (variant === 'jigsaw') assert.ok(want.br.length > 0 && want.br.join() !== expectedDrawing({ ...p, regions: null }).br.join(), 'the regions are not the boxes');

    // a digit that only the variant's rule forbids: a mistake
    const board = await boardOf(page);
    const { i, v } = variantOnlyMistake(p, solution, board);
    await cellAt(grid, i).click();
    // the highlighted peers are the cells sharing one of the variant's units
    const peers = [...new Set(unitsOf(p).filter((u) => u.includes(i)).flat())].filter((j) => j !== i).sort((a, b) => a - b);
    const shownPeers = await grid.locator('[role=gridcell]').evaluateAll((cs) => cs.flatMap((c, k) => (c.classList.contains('peer') ? [k] : [])));
    assert.deepEqual(shownPeers, peers);
    await page.keyboard.press(String(v));
    await page.locator('.gamebar .mistakes', { hasText: 'Mistakes: 1' }).waitFor();
    assert.ok((await cellAt(grid, i).getAttribute('class')).includes('wrong'));
    await page.keyboard.press(solution[i]);

    // a reload keeps the game and its variant
    await page.reload();
    await page.waitForSelector('main section.page h1');
    await page.locator('.status', { hasText: 'Welcome back' }).waitFor();
    assert.deepEqual(await drawn(page), want);
    assert.equal(await page.getByLabel('Variant').filter({ visible: true }).inputValue(), variant, 'the New game card shows the variant played');
    assert.equal((await boardOf(page))[i], +solution[i]);
    assert.equal(await page.locator('.gamebar .mistakes').innerText(), 'Mistakes: 1');

    // a hint from the server, for this variant
    await button(page, 'Hint').click();
    await page.locator('.hint-out:not([hidden]) .hint-text').waitFor();
    assert.match(await page.locator('.hint-out .hint-text').innerText(), /\w+: .+/);
    await button(page, 'Close').click();

    await cellAt(grid, 0).click(); // then the keyboard alone
    await typeAll(page, grid, solution, N);
    const done = page.locator('.done-banner');
    await done.waitFor();
    assert.match(await done.innerText(), /Completed!\s+Solved in \d+:\d\d with 1 mistake\./);
    assert.equal((await gridText(page, grid)).join(''), solution);
    if (variant === 'jigsaw' || variant === 'consecutive') await shoot(page, `variant-${variant}`, { audit: true });

    // the print sheet keeps the variant: its rules, and the windows' shade
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.locator('.variant-rules').isVisible(), 'the rules are printed');
    if (want.win.length) {
      const bg = await cellAt(grid, want.win[0]).evaluate((c) => getComputedStyle(c).backgroundColor);
      assert.notEqual(bg, 'rgb(255, 255, 255)', 'a window cell is shaded on paper');
    }
    await page.emulateMedia({ media: 'screen' });

    // the share link carries the variant to a fresh page
    await button(page, 'Share').click();
    const link = await page.locator('.share-url').inputValue();
    page.assertNoErrors();
    const other = await openPage(browser.ctx, link);
    await other.locator('.status', { hasText: 'The puzzle from the link' }).waitFor();
    assert.equal((await gridText(other, sudokuGrid(other))).map((x) => x || '.').join(''), p.puzzle);
    assert.deepEqual(await drawn(other), want);
    other.assertNoErrors();
  });
}

webTest('engineer mode: solve, grade and check with the variant of the puzzle', async () => {
  for (const variant of ['x', 'jigsaw', 'even-odd', 'consecutive']) {
    const { p, solution } = await puzzleAndSolution(variant);
    const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
    const grid = sudokuGrid(page);
    await newGame(page, variant);
    const { i, v } = variantOnlyMistake(p, solution, await boardOf(page));
    await page.getByRole('radio', { name: 'Engineer' }).check();
    await button(page, 'Solve').click();
    await page.getByText('Solved: the solution is unique.').waitFor();
    assert.match(await page.locator('table.stats').first().innerText(), /nodes/);
    // the solver's answer shows over the empty cells
    assert.equal((await gridText(page, grid)).join(''), solution);
    await button(page, 'Grade').click();
    await page.getByText(/^Graded: /).waitFor();
    assert.match(await page.locator('table.techniques').innerText(), /single/);
    // the check finds what only the variant's rule forbids
    await cellAt(grid, i).click();
    await page.keyboard.press(String(v));
    await button(page, 'Check').click();
    const status = page.locator('.status.error', { hasText: /broken \(marked red\)/ });
    await status.waitFor();
    assert.ok((await cellAt(grid, i).getAttribute('class')).includes('conflict'), 'validate named the cell');
    if (variant === 'x') await shoot(page, 'variant-x-engineer', { audit: true });
    page.assertNoErrors();
  }
});
