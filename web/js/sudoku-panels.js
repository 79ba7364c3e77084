// sudoku-panels.js -- the Sudoku page's engineer panels, around the same
// board and game as play mode: the board's editing tools (size, typing
// givens or answers, examples, clearing), Puzzle (generate with a
// symmetry, grade, hint, check through the API), Solve (any method, its
// statistics, every solution found), Compare (every method on the board),
// and Import / export.  Each panel shows the API's own words; each forgets
// its results when the puzzle changes (the game's 'puzzle' event).

import * as sudokuApi from './sudoku-api.js';
import {
  h, field, select, number, button, card, statusLine, setStatus, statsTable, clearErrors, setFieldError,
  segmented, Task, fmt, download, showProgress,
} from './ui.js';
import { SIZES, boxFor, sizeLabel, EXAMPLES, toGridString, fromGrid, readPuzzleText, fromCsv, symbolOf } from './formats.js';
import { LIMITS, range } from './limits.js';

// page: {play, hint, boardField, problem(e, scope, status, gridField),
// start(options, why), newEmpty(n, rows, cols), sizeSel (the page's)}
export function engineerPanels(page) {
  const { play } = page;
  const game = () => play.game;

  // ==== the board's tools ====
  const sizeSel = select(SIZES.map((s) => [String(s.n), sizeLabel(s)]), '9');
  sizeSel.addEventListener('change', () => {
    const s = boxFor(+sizeSel.value);
    page.newEmpty(s.n, s.rows, s.cols);
  });
  const typing = segmented(
    'Typing enters',
    [
      ['givens', 'givens'],
      ['answers', 'my answers'],
    ],
    'answers',
    (v) => play.setEditing(v === 'givens'),
  );
  const exampleSel = select(EXAMPLES, '');
  exampleSel.addEventListener('change', () => {
    const g = exampleSel.value;
    if (!g) return;
    exampleSel.value = '';
    const n = Math.round(Math.sqrt(g.length));
    const { rows, cols } = boxFor(n);
    page.start({ n, rows, cols, givens: fromGrid(g, n) }, 'Example loaded. Type your answers, or ask for a hint.');
  });
  const clearEntries = button('Clear answers', () => play.restart());
  const clearAll = button('Clear all', () => page.newEmpty(game().n, game().rows, game().cols));
  const tools = h(
    'div',
    { class: 'eng-only board-tools' },
    h('div', { class: 'row' }, field('Size', sizeSel), typing, field('Examples', exampleSel)),
    h('div', { class: 'row' }, clearEntries, clearAll),
  );

  // ==== Puzzle: generate, grade, hint, check ====
  const diffSel = select(sudokuApi.DIFFICULTIES, 'medium');
  const symSel = select(sudokuApi.SYMMETRIES, 'rotational180');
  const newBtn = button('New puzzle', () => generate(), 'primary');
  const gradeBtn = button('Grade', () => grade());
  const hintBtn = button('Hint', () => page.hint.request([hintBtn]));
  const checkBtn = button('Check', () => check());
  const puzzleStatus = statusLine();
  const puzzleOut = h('div', { class: 'puzzle-out' });
  const puzzleCard = card(
    'Puzzle',
    h(
      'div',
      { class: 'row' },
      field('Difficulty', diffSel, { api: 'difficulty rating' }),
      field('Symmetry', symSel, { api: 'symmetry' }),
      newBtn,
    ),
    h('div', { class: 'row' }, gradeBtn, hintBtn, checkBtn),
    puzzleStatus,
    puzzleOut,
  );
  const puzzleTask = new Task({
    status: puzzleStatus,
    buttons: [newBtn, gradeBtn, checkBtn],
    onError: (e) => page.problem(e, puzzleCard, puzzleStatus),
  });

  // ==== Solve ====
  const methodSel = select(sudokuApi.METHODS, 'auto');
  const levelSel = select(sudokuApi.LEVELS, 'hidden-singles');
  const levelField = field('Propagation', levelSel, { api: 'propagation' });
  const maxSol = number(2, 1, LIMITS.sudoku.maxSolutions);
  const solveBtn = button('Solve', () => solve(), 'primary');
  const cancelBtn = button('Cancel', null, 'danger');
  const solveStatus = statusLine();
  const solveOut = h('div');
  const progressOut = h('div', { class: 'progress-line', 'aria-live': 'off' });
  methodSel.addEventListener('change', syncLevel);
  function syncLevel() {
    levelField.hidden = !['propagation', 'best-first'].includes(methodSel.value);
  }
  syncLevel();
  const solveCard = card(
    'Solve',
    h(
      'div',
      { class: 'row' },
      field('Method', methodSel, { api: 'method' }),
      levelField,
      field('Max solutions', maxSol, { api: 'max_solutions', hint: `${range(1, LIMITS.sudoku.maxSolutions)}; 2 proves uniqueness` }),
    ),
    h('div', { class: 'row' }, solveBtn, cancelBtn),
    solveStatus,
    progressOut,
    solveOut,
  );
  const solveTask = new Task({
    status: solveStatus,
    buttons: [solveBtn],
    cancel: cancelBtn,
    onError: (e) => page.problem(e, solveCard, solveStatus),
  });

  // ==== Compare ====
  const compareBtn = button('Compare methods', () => compare());
  const compareCancel = button('Cancel', null, 'danger');
  const compareStatus = statusLine();
  const compareOut = h('div', { class: 'table-wrap' });
  const compareCard = card(
    'Compare methods',
    h('p', { class: 'muted small' }, 'Runs every method on the puzzle on the board, one after another, and shows their work side by side.'),
    h('div', { class: 'row' }, compareBtn, compareCancel),
    compareStatus,
    compareOut,
  );
  const compareTask = new Task({
    status: compareStatus,
    buttons: [compareBtn],
    cancel: compareCancel,
    onError: (e) => page.problem(e, compareCard, compareStatus),
  });

  // ==== Import and export ====
  const { maxStringN, maxN } = LIMITS.sudoku;
  const importArea = h('textarea', {
    class: 'mono',
    rows: 4,
    spellcheck: false,
    placeholder: 'A line of 81 characters (. or 0 for empty), a grid with rows on lines, or CSV',
  });
  const importField = field('Paste a puzzle', importArea, {
    api: 'grid',
    hint: `Text up to ${maxStringN}×${maxStringN} (1–9, then A–Z), CSV up to ${maxN}×${maxN}.`,
  });
  const boxRows = number('', 1, maxN);
  const boxCols = number('', 1, maxN);
  boxRows.placeholder = 'auto';
  boxCols.placeholder = 'auto';
  const boxField = h(
    'fieldset',
    { class: 'field box-field', dataset: { api: 'box' } },
    h('legend', null, 'Box (rows × columns)'),
    h('div', { class: 'row tight' }, field('Box rows', boxRows), h('span', { 'aria-hidden': 'true' }, '×'), field('Box columns', boxCols)),
    h('p', { class: 'field-hint' }, 'Leave empty for the usual box; a size without one (7×7) needs it, e.g. 1 × 7.'),
  );
  boxField.error = h('p', { class: 'field-error', hidden: true });
  boxField.append(boxField.error);
  boxField.control = boxRows;
  const fileInput = h('input', { type: 'file', accept: '.txt,.csv,.sdk,text/plain,text/csv' });
  fileInput.addEventListener('change', async () => {
    const f = fileInput.files[0];
    if (!f) return;
    importArea.value = await f.text();
    importText(importArea.value, importField);
    fileInput.value = '';
  });
  const loadBtn = button('Load', () => importText(importArea.value, importField));
  const givensText = () => toGridString(game().givensList);
  const exportBtn = button('Copy out', () => {
    importArea.value = givensText();
    importArea.select();
  });
  const saveBtn = button('Download', () => download('puzzle.txt', `${givensText()}\n`));
  const importStatus = statusLine();
  const importCard = card(
    'Import and export',
    importField,
    boxField,
    h('div', { class: 'row' }, loadBtn, field('…or open a file', fileInput)),
    h('div', { class: 'row' }, exportBtn, saveBtn),
    importStatus,
  );
  const importTask = new Task({
    status: importStatus,
    buttons: [loadBtn],
    onError: (e) => page.problem(e, importCard, importStatus, importField),
  });

  // A new puzzle, from anywhere: every panel forgets the old one's results.
  play.on('puzzle', (g) => {
    for (const out of [solveOut, compareOut, progressOut, puzzleOut]) out.replaceChildren();
    for (const s of [solveStatus, compareStatus, puzzleStatus, importStatus]) setStatus(s, '', '');
    for (const t of [solveTask, compareTask]) t.cancel();
    clearErrors(solveCard);
    clearErrors(importCard);
    sync(g);
  });
  play.on('entries', () => {
    solutions = [];
  });

  function sync(g) {
    if (![...sizeSel.options].some((o) => o.value === String(g.n))) {
      sizeSel.append(h('option', { value: String(g.n) }, sizeLabel({ n: g.n, rows: g.rows, cols: g.cols })));
    }
    sizeSel.value = String(g.n);
    typing.set(g.editing ? 'givens' : 'answers');
  }

  // ==== behaviour ====

  async function importText(text, where) {
    clearErrors(importCard);
    setFieldError(page.boardField, '');
    const read = readPuzzleText(text);
    if (read.error) {
      setFieldError(where, read.error);
      return;
    }
    const bx = boxRows.value && boxCols.value ? { rows: +boxRows.value, cols: +boxCols.value } : null;
    const res = await importTask
      .run('Reading the puzzle…', (signal, hooks) =>
        read.csv ? sudokuApi.validateCsv(read.csv, { signal, ...hooks }) : sudokuApi.validateText(read.grid, bx, { signal, ...hooks }),
      )
      .catch(() => undefined);
    if (!res) {
      // importTask reported it on the import card; a paste on the board says it there too
      if (where === page.boardField) {
        const msg = importCard.querySelector('.has-error .field-error');
        setFieldError(page.boardField, msg ? page.playerText(msg.textContent) : importStatus.textContent);
      }
      return;
    }
    const n = res.n;
    const values = read.csv ? fromCsv(read.csv, n) : fromGrid(read.grid, n);
    page.start({ n, rows: res.box.rows, cols: res.box.cols, givens: values }, '');
    for (const cf of res.conflicts || []) for (const [r, c] of cf.cells) play.grid.mark(r * n + c, 'conflict');
    const msg = res.valid
      ? `Loaded a ${n}×${n} puzzle.`
      : `Loaded a ${n}×${n} puzzle, but it breaks ${res.conflicts_total} rule${res.conflicts_total > 1 ? 's' : ''} (marked).`;
    setStatus(importStatus, res.valid ? 'ok' : 'warn', msg);
    setStatus(play.status, res.valid ? '' : 'warn', res.valid ? '' : msg);
  }

  async function check() {
    const g = game();
    const res = await puzzleTask.run('Checking…', (signal, hooks) => sudokuApi.validate(g.values, g.n, g.rows, g.cols, { signal, ...hooks }));
    if (!res || g !== game()) return;
    for (const cf of res.conflicts) for (const [r, c] of cf.cells) play.grid.mark(r * g.n + c, 'conflict');
    const wrong = g.wrongCells();
    for (const i of wrong) play.grid.mark(i, 'wrong');
    const empty = g.values.filter((v) => !v).length;
    if (res.complete && !wrong.length) setStatus(puzzleStatus, 'ok', 'Complete and correct: every row, column and box holds each symbol once.');
    else if (!res.valid) {
      const first = res.conflicts[0];
      setStatus(
        puzzleStatus,
        'error',
        `${res.conflicts_total} rule${res.conflicts_total > 1 ? 's' : ''} broken (marked red), e.g. ${symbolOf(first.value)} twice in ${first.unit}.`,
      );
    } else if (wrong.length) setStatus(puzzleStatus, 'error', `${wrong.length} answer${wrong.length > 1 ? 's' : ''} differ from the solution (marked).`);
    else setStatus(puzzleStatus, 'ok', `No rule is broken so far; ${empty} cell${empty === 1 ? '' : 's'} to go.`);
  }

  let solutions = [];
  let solIndex = 0;

  async function solve() {
    const g = game();
    page.hint.clear();
    progressOut.replaceChildren();
    solveOut.replaceChildren();
    const body = { method: methodSel.value, max_solutions: +maxSol.value };
    if (!levelField.hidden) body.propagation = levelSel.value;
    const res = await solveTask.run('Solving…', (signal, hooks) =>
      sudokuApi.solve(g.values, g.n, g.rows, g.cols, body, { signal, ...hooks, onProgress: (p) => showProgress(progressOut, p) }),
    );
    progressOut.replaceChildren();
    if (!res || g !== game()) return;
    solutions = res.solutions || (res.solution ? [res.solution] : []);
    solIndex = 0;
    const words = {
      solved: res.unique ? 'Solved: the solution is unique.' : 'Solved.',
      multiple: `Solved, but the puzzle is not unique: ${res.solutions_found} solutions found.`,
      unsolvable: 'No solution: these givens allow none.',
      timeout: 'Stopped at the deadline before the search ended.',
      cancelled: 'Cancelled.',
    };
    setStatus(solveStatus, res.status === 'solved' ? 'ok' : res.status === 'multiple' ? 'warn' : 'error', words[res.status] || res.status);
    if (solutions.length) showSolution();
    solveOut.append(statsTable('Statistics', { status: res.status, solutions_found: res.solutions_found, unique: res.unique, ...res.stats }));
    if (solutions.length > 1) {
      const pos = h('span', { class: 'muted' });
      const step = (d) => {
        solIndex = (solIndex + solutions.length + d) % solutions.length;
        showSolution();
        pos.textContent = `solution ${solIndex + 1} of ${solutions.length}`;
      };
      pos.textContent = `solution 1 of ${solutions.length}`;
      solveOut.prepend(h('div', { class: 'row' }, button('◀ Previous', () => step(-1)), button('Next ▶', () => step(1)), pos));
    }
  }

  // The solver's answer over the empty cells (the game keeps its entries).
  function showSolution() {
    if (solutions[solIndex] !== undefined) play.showOverlay(fromGrid(solutions[solIndex], game().n));
  }

  async function compare() {
    const g = game();
    compareOut.replaceChildren();
    const methods = sudokuApi.METHODS.map(([m]) => m).filter((m) => m !== 'auto' && (m !== 'fast' || (g.n === 9 && g.rows === 3)));
    const rows = [];
    const values = g.values.slice();
    const done = await compareTask.run('Comparing…', async (signal, hooks) => {
      for (const m of methods) {
        setStatus(compareStatus, 'busy', `Running ${m} (${rows.length + 1} of ${methods.length})…`);
        const res = await sudokuApi.solve(values, g.n, g.rows, g.cols, { method: m, max_solutions: 1, timeout_ms: 10000 }, { signal, ...hooks });
        rows.push({ method: m, ...res.stats, status: res.status });
        renderCompare(rows);
      }
      return true;
    });
    if (done && g === game()) setStatus(compareStatus, 'ok', `Ran ${rows.length} methods on the same puzzle, 10 s each at most.`);
  }

  function renderCompare(rows) {
    const maxT = Math.max(...rows.map((r) => r.elapsed_ms || 0), 0.001);
    const best = rows.reduce((b, r) => (r.status === 'solved' && (!b || r.elapsed_ms < b.elapsed_ms) ? r : b), null);
    const head = ['method', 'status', 'nodes', 'backtracks', 'time (ms)'];
    compareOut.replaceChildren(
      h(
        'table',
        { class: 'compare' },
        h('caption', null, 'Work per method (one solution each)'),
        h('thead', null, h('tr', null, head.map((t, k) => h('th', { scope: 'col', class: k > 1 ? 'num' : '' }, t)))),
        h(
          'tbody',
          null,
          rows.map((r) => {
            const bar = h('span', { class: 'bar' });
            bar.style.width = `${Math.max(1, (100 * (r.elapsed_ms || 0)) / maxT)}%`;
            return h(
              'tr',
              { class: r === best ? 'best' : '' },
              h('th', { scope: 'row' }, r.method),
              h('td', null, r.status),
              h('td', { class: 'num' }, fmt(r.nodes)),
              h('td', { class: 'num' }, fmt(r.backtracks)),
              h('td', { class: 'num' }, fmt(r.elapsed_ms), bar),
            );
          }),
        ),
      ),
    );
  }

  async function generate() {
    const g = game();
    puzzleOut.replaceChildren();
    const res = await puzzleTask.run('Generating a puzzle…', (signal, hooks) =>
      sudokuApi.generate({ n: g.n, rows: g.rows, cols: g.cols, difficulty: diffSel.value, symmetry: symSel.value }, { signal, ...hooks }),
    );
    if (!res) return;
    const p = res.puzzles && res.puzzles[0];
    if (!p) {
      setStatus(puzzleStatus, 'warn', `No puzzle came back (status ${res.status}).`);
      return;
    }
    page.startGenerated(p, g.n, g.rows, g.cols);
    puzzleOut.replaceChildren(levelLine(p.level, p.rating));
    const stats = res.stats ? ` in ${fmt(res.stats.elapsed_ms)} ms` : '';
    setStatus(
      puzzleStatus,
      res.status === 'timeout' ? 'warn' : 'ok',
      res.status === 'timeout'
        ? `The level was not reached in time; here is the closest puzzle found${stats}.`
        : `New ${p.level} puzzle${stats} (seed ${p.seed}).`,
    );
    play.grid.focus();
  }

  function levelLine(level, rating) {
    return h('p', null, 'Difficulty: ', h('span', { class: `badge lv-${level}` }, level), rating !== undefined ? ` rating ${fmt(rating)}` : '');
  }

  async function grade() {
    const g = game();
    puzzleOut.replaceChildren();
    const res = await puzzleTask.run('Grading…', (signal, hooks) => sudokuApi.grade(g.givensList, g.n, g.rows, g.cols, { signal, ...hooks }));
    if (!res || g !== game()) return;
    const tech = Object.entries(res.techniques || {}).sort((a, b) => b[1] - a[1]);
    puzzleOut.replaceChildren(
      levelLine(res.level, res.rating),
      h(
        'p',
        { class: 'muted small' },
        `Hardest technique: ${res.hardest || '—'}; ${fmt(res.steps_count)} steps; `,
        res.solved_by_logic ? 'logic alone finishes it.' : 'logic alone does not finish it.',
      ),
      h(
        'table',
        { class: 'techniques' },
        h('caption', null, 'Techniques used'),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'technique'), h('th', { scope: 'col', class: 'num' }, 'times'))),
        h('tbody', null, tech.map(([k, v]) => h('tr', null, h('td', null, k), h('td', { class: 'num' }, fmt(v))))),
      ),
    );
    if (!g.level) g.level = res.level;
    setStatus(puzzleStatus, 'ok', `Graded: ${res.level}.`);
  }

  return { tools, cards: [puzzleCard, solveCard, compareCard, importCard], importText, importField, sync };
}
