// constraints.test.mjs -- Sudoku constraints on the page (issue 36): for
// each family (lines: thermo, whisper, renban, sum lines, lockout,
// palindrome, between, zipper, equal sums with diagonals; circles: arrow,
// double and pill arrows; dots: kropki, XV, greater-than; outside clues:
// little killer, skyscraper, x-sum, sandwich; cages: killer cages with
// modular lines; globals: anti-king, anti-knight, anti-consecutive, all
// kropki dots given) puzzles of ISS's
// (fixtures/constraints.mjs) pasted as ISS's text in the engineer's Import
// card; what the board draws checked against the puzzle (how many of
// each type, where the dots, bulbs, circles and outside clues stand, the
// outside clues in the ring around the grid), then solved through the
// page and the grid it shows checked against the givens, the classic
// rules and every constraint by the test's own rules
// (fixtures/constraint-rules.mjs).  Then ISS's URL pasted onto the board
// in play mode and played by keyboard to "completed" (a wrong digit is a
// mistake; reload and share link keep the constraints), and a puzzle in
// our JSON.  No test waits on a clock: each waits for what the page says.

import { before, after } from 'node:test';
import { assert, webTest, startServer, startBrowser, openPage, gridText, typeAll, shoot, assertSudoku } from './harness.mjs';
import { FAMILY_PUZZLES, OUTSIDE_AT, JSON_PUZZLE, ISS_GRID_LAYOUT } from './fixtures/constraints.mjs';
import { brokenConstraints } from './fixtures/constraint-rules.mjs';

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-constraints');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const sudokuGrid = (page) => page.getByRole('grid', { name: 'Sudoku grid' });
const button = (page, name) => page.getByRole('button', { name, exact: true }).filter({ visible: true });
const SYM = '123456789';
const valuesOf = (cells) => cells.map((x) => (x ? SYM.indexOf(x) + 1 : 0));

// The server's reading of ISS's text (the test's own call): the puzzle as
// our JSON, which the drawing and the solution are checked against.
async function issPuzzle(text) {
  const res = await fetch(`${srv.base}/v1/sudoku/validate`, { method: 'POST', headers: { 'content-type': 'text/x-iss' }, body: text });
  assert.equal(res.status, 200, await res.clone().text());
  const a = await res.json();
  assert.equal(typeof a.puzzle, 'object', 'validate answers the JSON the text became');
  return a.puzzle;
}

// The rules over the whole grid, and the label each gets under the board.
const GLOBAL_LABELS = {
  'anti-king': 'Anti-king',
  'anti-knight': 'Anti-knight',
  'anti-consecutive': 'Anti-consecutive',
  'strict-kropki': 'All kropki dots given',
  'strict-xv': 'All XV given',
  'disjoint-sets': 'Disjoint sets',
};

const countBy = (xs) => xs.reduce((m, x) => ((m[x] = (m[x] || 0) + 1), m), {});

// What the overlay draws, read from the page: per constraint group its
// type, title, circles, texts and polylines (points in grid units).
const drawing = (page) =>
  sudokuGrid(page).evaluate((g) =>
    [...g.querySelectorAll('svg.overlay g.cons')].map((el) => ({
      type: el.dataset.type,
      family: el.dataset.family,
      title: el.querySelector('title')?.textContent || '',
      circles: [...el.querySelectorAll('circle')].map((c) => [+c.getAttribute('cx'), +c.getAttribute('cy'), c.getAttribute('class')]),
      texts: [...el.querySelectorAll('text')].map((t) => [+t.getAttribute('x'), +t.getAttribute('y'), t.textContent]),
      lines: [...el.querySelectorAll('polyline, polygon')].map((p) => p.getAttribute('points')),
    })),
  );

const near = (a, b) => Math.abs(a - b) < 1e-6;
const centre = ([r, c]) => [c + 0.5, r + 0.5];

// The drawing agrees with the puzzle: one group per constraint, in order,
// of its type, with a title; dots on the edge between their two cells,
// bulbs and circles on their cells, lines through their cells' centres,
// a cage's sum in its first cell.
function assertDrawing(groups, p, n) {
  assert.deepEqual(
    groups.map((g) => g.type),
    p.constraints.map((c) => c.type),
  );
  groups.forEach((g, k) => {
    const c = p.constraints[k];
    const where = `constraints[${k}] (${c.type})`;
    assert.ok(g.title.length > 5, `${where} has a title`);
    if (['kropki-white', 'kropki-black'].includes(c.type)) {
      const [[x1, y1], [x2, y2]] = c.cells.map(centre);
      assert.equal(g.circles.length, 1, where);
      assert.ok(near(g.circles[0][0], (x1 + x2) / 2) && near(g.circles[0][1], (y1 + y2) / 2), `${where}: the dot is on the edge`);
    }
    if (['x', 'v'].includes(c.type)) {
      const [[x1, y1], [x2, y2]] = c.cells.map(centre);
      assert.equal(g.texts[0][2], c.type.toUpperCase(), where);
      assert.ok(near(g.texts[0][0], (x1 + x2) / 2) && Math.abs(g.texts[0][1] - (y1 + y2) / 2) < 0.2, `${where}: the letter is on the edge`);
    }
    if (c.type === 'thermo') {
      const [x, y] = centre(c.cells[0]);
      assert.ok(g.circles.some(([cx, cy, cls]) => cls.includes('bulb') && near(cx, x) && near(cy, y)), `${where}: the bulb is on the first cell`);
    }
    if (c.type === 'arrow') {
      const [x, y] = centre(c.circle);
      assert.ok(g.circles.some(([cx, cy]) => near(cx, x) && near(cy, y)), `${where}: the circle is on its cell`);
      assert.equal(g.lines.length, 2, `${where}: a shaft and a head`);
    }
    if (['thermo', 'whisper', 'renban', 'modular', 'palindrome'].includes(c.type)) {
      const pts = g.lines[0].split(' ').map((s) => s.split(',').map(Number));
      assert.deepEqual(pts, c.cells.map(centre), `${where}: the line runs through its cells`);
    }
    if (c.type === 'cage') {
      const first = c.cells.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
      assert.equal(g.texts.length, 1, where);
      assert.equal(g.texts[0][2], String(c.sum));
      assert.ok(g.texts[0][0] > first[1] && g.texts[0][0] < first[1] + 0.5 && g.texts[0][1] > first[0] && g.texts[0][1] < first[0] + 0.5, `${where}: the sum is in the first cell's corner`);
      assert.ok(g.lines.length >= 4, `${where}: an outline`);
    }
    if (g.family === 'outside') {
      const [x, y] = g.texts[0];
      assert.ok(x < 0 || y < 0 || x > n || y > n, `${where}: the clue is outside the grid (${x}, ${y})`);
      assert.equal(g.texts[0][2], String(c.type === 'skyscraper' ? c.visible : c.sum));
    }
    if (g.family === 'global') assert.equal(g.circles.length + g.texts.length + g.lines.length, 0, `${where}: a global rule draws nothing`);
  });
}

// The outside clues stand in the ring on screen too: each clue's box lies
// outside the cells' box, and inside the page's width.
async function assertRing(page) {
  const grid = sudokuGrid(page);
  assert.ok(await grid.evaluate((g) => g.classList.contains('ring')), 'the grid has the ring');
  const cells = await grid.evaluate((g) => {
    const rs = [...g.querySelectorAll('[role=gridcell]')].map((c) => c.getBoundingClientRect());
    return { left: Math.min(...rs.map((r) => r.left)), top: Math.min(...rs.map((r) => r.top)), right: Math.max(...rs.map((r) => r.right)), bottom: Math.max(...rs.map((r) => r.bottom)) };
  });
  const clues = await grid.evaluate((g) => [...g.querySelectorAll('g.fam-outside text')].map((t) => t.getBoundingClientRect().toJSON()));
  assert.ok(clues.length > 0);
  for (const b of clues) {
    const outside = b.right <= cells.left + 1 || b.left >= cells.right - 1 || b.bottom <= cells.top + 1 || b.top >= cells.bottom - 1;
    assert.ok(outside, `a clue at ${JSON.stringify(b)} overlaps the cells ${JSON.stringify(cells)}`);
    assert.ok(b.left >= 0, 'the clue is on the page');
  }
}

// Pastes ISS's text into the engineer's Import card and waits for it.
async function importText(page, text, count) {
  await page.getByLabel('Paste a puzzle').fill(text);
  await button(page, 'Load').click();
  await page.locator('.status', { hasText: `with ${count} constraint${count === 1 ? '' : 's'}` }).first().waitFor();
}

// Solves on the page; the grid it shows keeps the givens, the classic
// rules and every constraint.
async function solveAndCheck(page, p, n, rows, cols) {
  await button(page, 'Solve').click();
  await page.getByText('Solved: the solution is unique.').waitFor();
  const shown = await gridText(page, sudokuGrid(page));
  assertSudoku(shown, n, rows, cols, typeof p.grid === 'string' ? p.grid : null);
  assert.deepEqual(brokenConstraints(p.constraints, valuesOf(shown), n), [], 'the shown solution keeps every constraint');
  return shown;
}

// The page's own check of the constraints (constraints.js's brokenCells,
// which the board's conflicts and "completed" use) agrees with the test's
// rules: nothing broken in the solution; something broken in every grid
// made from it by swapping two neighbours in a row that the test's rules
// find broken (a swap keeps the rows, columns and boxes but the
// constraints rarely).
async function assertPageChecks(page, p, solution, n) {
  const grids = [];
  for (let i = 0; i < n * n && grids.length < 12; i++) {
    if (i % n === n - 1 || /[1-9]/.test(p.grid[i]) || /[1-9]/.test(p.grid[i + 1])) continue;
    const g = solution.slice();
    [g[i], g[i + 1]] = [g[i + 1], g[i]];
    if (brokenConstraints(p.constraints, g, n).length) grids.push(g);
  }
  assert.ok(grids.length > 0, 'some swap breaks a constraint');
  const found = await page.evaluate(
    async ({ list, grids: gs, sol, n: size }) => {
      const { brokenCells } = await import('/js/constraints.js');
      return { solution: [...brokenCells(list, sol, size, 3, 3)], swaps: gs.map((g) => brokenCells(list, g, size, 3, 3).size) };
    },
    { list: p.constraints, grids, sol: solution, n },
  );
  assert.deepEqual(found.solution, [], 'the page finds nothing broken in the solution');
  found.swaps.forEach((k, j) => assert.ok(k > 0, `the page finds swap ${j} broken`));
}

for (const fx of FAMILY_PUZZLES) {
  webTest(`${fx.family}: ${fx.name} from ISS's text, drawn and solved`, async () => {
    const p = await issPuzzle(fx.iss);
    assert.deepEqual(countBy(p.constraints.map((c) => c.type)), fx.counts, 'the server read what the text holds');
    const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { mode: 'engineer' });
    await importText(page, fx.iss, p.constraints.length);
    assert.equal((await gridText(page, sudokuGrid(page))).map((x) => x || '.').join(''), p.grid, 'the givens');
    const groups = await drawing(page);
    assert.deepEqual(countBy(groups.map((g) => g.type)), fx.counts, 'one drawing per constraint');
    assertDrawing(groups, p, 9);
    for (const [x, y, clue] of OUTSIDE_AT[fx.name] || []) {
      assert.ok(
        groups.some((g) => g.texts.some(([tx, ty, t]) => near(tx, x) && Math.abs(ty - y) < 0.2 && t === clue)),
        `${fx.name}: clue ${clue} at (${x}, ${y})`,
      );
    }
    if (fx.family === 'outside') await assertRing(page);
    else assert.equal(await sudokuGrid(page).evaluate((g) => g.classList.contains('ring')), false, 'no ring without outside clues');
    // every constraint in words under the board; the global ones as labels
    assert.equal(await page.locator('.cons-legend li').count(), p.constraints.length);
    const globals = p.constraints.filter((c) => Object.hasOwn(GLOBAL_LABELS, c.type));
    assert.deepEqual(await page.locator('.cons-globals li').allInnerTexts(), globals.map((c) => GLOBAL_LABELS[c.type]));
    assert.match(await page.locator('.variant-rules').innerText(), /: .+\.$/);
    const solved = valuesOf(await solveAndCheck(page, p, 9, 3, 3));
    await assertPageChecks(page, p, solved, 9);
    if (fx.name === 'Arrow') {
      // Compare runs the methods that read constraints, and no other
      await button(page, 'Compare methods').click();
      await page.getByText(/^Ran 2 methods on the same puzzle/).waitFor();
      assert.deepEqual(await page.locator('table.compare tbody th').allInnerTexts(), ['propagation', 'best-first']);
      assert.deepEqual(await page.locator('table.compare tbody td:nth-of-type(1)').allInnerTexts(), ['solved', 'solved']);
    }
    if (fx.name === 'Skyscraper' || fx.name === 'XV Kropki Sudoku' || fx.name === 'I just like colours') {
      await shoot(page, `constraints-${fx.family}`, { audit: true });
    }
    page.assertNoErrors();
  });
}

webTest('lines: ISS\'s URL pasted on the board in play mode, played to "completed", reloaded and shared', async () => {
  const fx = FAMILY_PUZZLES.find((f) => f.name === 'Thermo');
  const url = `https://sigh.github.io/Interactive-Sudoku-Solver/?q=${encodeURIComponent(fx.iss)}`;
  const p = await issPuzzle(url);
  const solved = await (
    await fetch(`${srv.base}/v1/sudoku/solve?max_solutions=2`, { method: 'POST', headers: { 'content-type': 'text/x-iss' }, body: url })
  ).json();
  assert.equal(solved.status, 'solved');
  const solution = solved.solution;
  assertSudoku([...solution], 9, 3, 3, p.grid);
  assert.deepEqual(brokenConstraints(p.constraints, valuesOf([...solution]), 9), []);

  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`);
  const grid = sudokuGrid(page);
  await grid.locator('[role=gridcell]').first().click();
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  }, url);
  await page.locator('.status', { hasText: 'with 4 constraints' }).first().waitFor();
  assert.equal((await gridText(page, grid)).map((x) => x || '.').join(''), p.grid);
  assertDrawing(await drawing(page), p, 9);
  // a cell says which constraint it lies on
  const bulb = p.constraints[0].cells[0];
  assert.match(await grid.locator('[role=gridcell]').nth(bulb[0] * 9 + bulb[1]).getAttribute('aria-label'), /thermometer 1/);
  assert.equal(await grid.locator('[role=gridcell]').nth(bulb[0] * 9 + bulb[1]).getAttribute('title'), 'thermometer 1', 'its tooltip');

  // a digit the thermometer forbids (not the solution's) is a mistake
  const cells = p.constraints[0].cells;
  const last = cells[cells.length - 1];
  const lastI = last[0] * 9 + last[1];
  const wrong = [...'123456789'].find((d) => d !== solution[lastI] && +d < +solution[cells[0][0] * 9 + cells[0][1]]) || (solution[lastI] === '1' ? '2' : '1');
  await grid.locator('[role=gridcell]').nth(lastI).click();
  await page.keyboard.press(wrong);
  await page.locator('.gamebar .mistakes', { hasText: 'Mistakes: 1' }).waitFor();
  await page.keyboard.press(solution[lastI]);

  await page.reload();
  await page.waitForSelector('main section.page h1');
  await page.locator('.status', { hasText: 'Welcome back' }).waitFor();
  assert.equal((await drawing(page)).length, 4, 'a reload keeps the constraints');

  await grid.locator('[role=gridcell]').first().click();
  await typeAll(page, grid, solution, 9);
  const done = page.locator('.done-banner');
  await done.waitFor();
  assert.match(await done.innerText(), /Completed!/);

  await button(page, 'Share').click();
  const link = await page.locator('.share-url').inputValue();
  page.assertNoErrors();
  const other = await openPage(browser.ctx, link);
  await other.locator('.status', { hasText: 'The puzzle from the link' }).waitFor();
  assert.equal((await gridText(other, sudokuGrid(other))).map((x) => x || '.').join(''), p.grid);
  assertDrawing(await drawing(other), p, 9);
  other.assertNoErrors();
});

webTest('our JSON with constraints: imported, drawn in every family, solved', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { mode: 'engineer' });
  await importText(page, JSON.stringify(JSON_PUZZLE), JSON_PUZZLE.constraints.length);
  const groups = await drawing(page);
  assertDrawing(groups, JSON_PUZZLE, 6);
  assert.deepEqual(
    groups.map((g) => g.family),
    ['line', 'dot', 'dot', 'outside', 'cage'],
  );
  await assertRing(page);
  // a thermometer broken by two answers: Check names it in words
  const grid = sudokuGrid(page);
  await grid.locator('[role=gridcell]').nth(3).click(); // r1c4, the bulb
  await page.keyboard.press('6');
  await grid.locator('[role=gridcell]').nth(10).click(); // r2c5, next on the line
  await page.keyboard.press('2');
  await button(page, 'Check').click();
  await page.locator('.status.error', { hasText: /rule broken \(marked red\), e\.g\. Thermometer: bulb at r1c4/ }).waitFor();
  for (const i of [3, 10]) assert.ok((await grid.locator('[role=gridcell]').nth(i).getAttribute('class')).includes('conflict'));
  for (const i of [3, 10]) {
    await grid.locator('[role=gridcell]').nth(i).click();
    await page.keyboard.press('Backspace');
  }
  await solveAndCheck(page, JSON_PUZZLE, 6, 2, 3);
  page.assertNoErrors();
});

webTest('ISS\'s grid-and-layout form: a 16x16 jigsaw read, drawn and solved', async () => {
  const p = await issPuzzle(ISS_GRID_LAYOUT);
  assert.equal(p.variant, 'jigsaw');
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { mode: 'engineer' });
  await page.getByLabel('Paste a puzzle').fill(ISS_GRID_LAYOUT);
  await button(page, 'Load').click();
  await page.locator('.status', { hasText: 'Loaded a 16×16 puzzle.' }).first().waitFor();
  const n = 16;
  const S = '123456789ABCDEFG';
  const shown = await gridText(page, sudokuGrid(page));
  assert.equal(shown.map((x) => x || '.').join(''), p.grid);
  // the regions' thick borders are the layout's
  const region = p.regions.flat();
  const br = await sudokuGrid(page).evaluate((g) => [...g.querySelectorAll('[role=gridcell]')].flatMap((c, i) => (c.classList.contains('br') ? [i] : [])));
  assert.deepEqual(br, [...Array(n * n).keys()].filter((i) => i % n < n - 1 && region[i] !== region[i + 1]));
  await button(page, 'Solve').click();
  await page.getByText(/^Solved/).waitFor();
  const sol = (await gridText(page, sudokuGrid(page))).map((x) => S.indexOf(x) + 1);
  const units = [];
  for (let k = 0; k < n; k++) units.push([...Array(n).keys()].map((c) => k * n + c), [...Array(n).keys()].map((r) => r * n + k));
  for (const id of new Set(region)) units.push([...Array(n * n).keys()].filter((i) => region[i] === id));
  for (const u of units) assert.equal(new Set(u.map((i) => sol[i])).size, n, `unit ${u}`);
  [...p.grid].forEach((ch, i) => ch !== '.' && assert.equal(sol[i], S.indexOf(ch) + 1, `given ${i}`));
  page.assertNoErrors();
});

webTest('a bad paste: ISS\'s text the server does not read, and JSON that is not a puzzle', async () => {
  const page = await openPage(browser.ctx, `${srv.base}/#/sudoku`, { mode: 'engineer', allow: ['status of 400'] });
  await page.getByLabel('Paste a puzzle').fill('.Quad~R1C1~1~2');
  await button(page, 'Load').click();
  await page.getByText(/item 1 at character 2.*'Quad' is an ISS type this server does not read/).first().waitFor();
  await page.getByLabel('Paste a puzzle').fill('{"grid": 5');
  await button(page, 'Load').click();
  await page.getByText(/not JSON the page can read/).first().waitFor();
  assert.equal((await drawing(page)).length, 0);
  page.assertNoErrors();
});
