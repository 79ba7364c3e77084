// sudoku-panels.js -- the Sudoku page's engineer panels, around the same
// board and game as play mode, one function each: boardTools (size, typing
// givens or answers, examples, clearing), puzzlePanel (generate with a
// symmetry, grade, hint, check through the API), solvePanel (any method,
// its statistics, every solution found), comparePanel (every method on the
// board), importPanel (import and export).  Each returns its element and a
// reset(game) that engineerPanels() calls when the puzzle changes (the
// game's 'puzzle' event), so no panel shows results of another puzzle.
// Each panel shows the API's own words.
//
// page: {play, hint, boardField, problem(e, scope, status, gridField),
// playerText(detail), start(options, why), startGenerated(p, n, rows,
// cols), startPuzzle(json, validateAnswer), newEmpty(n, rows, cols, layout)}

import * as sudokuApi from './sudoku-api.js';
import {
  h, field, select, number, button, card, statusLine, setStatus, statsTable, clearErrors, setFieldError,
  segmented, Task, fmt, download, showProgress, plural,
} from './ui.js';
import { SIZES, boxFor, sizeLabel, EXAMPLES, toGridString, fromGrid, readPuzzleText, puzzleTextKind, fromCsv, symbolOf } from './formats.js';
import { LIMITS, range } from './limits.js';
import { VARIANTS, variantLabel, isLayout, layoutOf } from './variants.js';
import { describe as describeConstraint } from './constraints.js';

export function engineerPanels(page) {
  const tools = boardTools(page);
  const panels = [puzzlePanel(page), solvePanel(page), comparePanel(page), importPanel(page)];
  page.play.on('puzzle', (g) => {
    tools.reset(g);
    for (const p of panels) p.reset(g);
  });
  return { tools: tools.el, cards: panels.map((p) => p.el), importText: panels[3].importText, sync: tools.reset };
}

// Size, "Typing enters", examples, Clear answers, Clear all.
function boardTools(page) {
  const { play } = page;
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
  // (an overlapping layout keeps its frame, to type a puzzle into it)
  const clearAll = button('Clear all', () => page.newEmpty(play.game.n, play.game.rows, play.game.cols, layoutOf(play.game.variant)));
  const el = h(
    'div',
    { class: 'eng-only board-tools' },
    h('div', { class: 'row' }, field('Size', sizeSel), typing, field('Examples', exampleSel)),
    h('div', { class: 'row' }, clearEntries, clearAll),
  );
  // the controls follow the game (a size the list does not have is added)
  function reset(g) {
    if (![...sizeSel.options].some((o) => o.value === String(g.n))) {
      sizeSel.append(h('option', { value: String(g.n) }, sizeLabel({ n: g.n, rows: g.rows, cols: g.cols })));
    }
    sizeSel.value = String(g.n);
    typing.set(g.editing ? 'givens' : 'answers');
  }
  return { el, reset };
}

// Puzzle: New puzzle (variant, difficulty, symmetry), Grade, Hint, Check.
// New puzzle makes the chosen variant at the board's size (an overlapping
// layout: 9x9 grids), with what the generator drew for it (regions,
// parity, marks); the choice follows the puzzle on the board.
function puzzlePanel(page) {
  const { play } = page;
  const variantSel = select(VARIANTS, 'classic');
  const diffSel = select(sudokuApi.DIFFICULTIES, 'medium');
  const symSel = select(sudokuApi.SYMMETRIES, 'rotational180');
  const newBtn = button('New puzzle', () => generate(), 'primary');
  const gradeBtn = button('Grade', () => grade());
  const hintBtn = button('Hint', () => page.hint.request([hintBtn]));
  const checkBtn = button('Check', () => check());
  const status = statusLine();
  const out = h('div', { class: 'puzzle-out' });
  const el = card(
    'Puzzle',
    h(
      'div',
      { class: 'row' },
      field('Variant', variantSel, { api: 'variant' }),
      field('Difficulty', diffSel, { api: 'difficulty rating' }),
      field('Symmetry', symSel, { api: 'symmetry' }),
      newBtn,
    ),
    h('div', { class: 'row' }, gradeBtn, hintBtn, checkBtn),
    status,
    out,
  );
  const task = new Task({ status, buttons: [newBtn, gradeBtn, checkBtn], onError: (e) => page.problem(e, el, status) });

  const levelLine = (level, rating) =>
    h('p', null, 'Difficulty: ', h('span', { class: `badge lv-${level}` }, level), rating !== undefined ? ` rating ${fmt(rating)}` : '');

  async function generate() {
    const g = play.game;
    const variant = variantSel.value;
    const s = isLayout(variant) ? boxFor(9) : { n: g.n, rows: g.rows, cols: g.cols };
    out.replaceChildren();
    const res = await task.run('Generating a puzzle…', (signal, hooks) =>
      sudokuApi.generate({ ...s, difficulty: diffSel.value, symmetry: symSel.value, variant }, { signal, ...hooks }),
    );
    if (!res) return;
    const p = res.puzzles && res.puzzles[0];
    if (!p) {
      setStatus(status, 'warn', `No puzzle came back (status ${res.status}).`);
      return;
    }
    page.startGenerated(p, s.n, s.rows, s.cols);
    out.replaceChildren(levelLine(p.level, p.rating));
    const took = res.stats ? ` in ${fmt(res.stats.elapsed_ms)} ms` : '';
    const what = play.game.variant ? ` ${variantLabel(play.game.variant)}` : '';
    setStatus(
      status,
      res.status === 'timeout' ? 'warn' : 'ok',
      res.status === 'timeout'
        ? `The level was not reached in time; here is the closest puzzle found${took}.`
        : `New ${p.level}${what} puzzle${took} (seed ${p.seed}).`,
    );
    play.grid.focus();
  }

  async function grade() {
    const g = play.game;
    out.replaceChildren();
    const res = await task.run('Grading…', (signal, hooks) => sudokuApi.grade(g.givensList, g, { signal, ...hooks }));
    if (!res || g !== play.game) return;
    const tech = Object.entries(res.techniques || {}).sort((a, b) => b[1] - a[1]);
    out.replaceChildren(
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
    setStatus(status, 'ok', `Graded: ${res.level}.`);
  }

  // The API's validation, and the known solution: conflicts and wrong answers marked.
  async function check() {
    const g = play.game;
    const res = await task.run('Checking…', (signal, hooks) => sudokuApi.validate(g.values, g, { signal, ...hooks }));
    if (!res || g !== play.game) return;
    const w = play.geometry.width; // the frame's, on an overlapping layout
    for (const cf of res.conflicts) for (const [r, c] of cf.cells) play.grid.mark(r * w + c, 'conflict');
    const wrong = g.wrongCells();
    for (const i of wrong) play.grid.mark(i, 'wrong');
    const empty = g.values.filter((v) => !v).length;
    const rules = g.variant ? 'every rule of the variant is kept' : 'every row, column and box holds each symbol once';
    if (res.complete && !wrong.length) setStatus(status, 'ok', `Complete and correct: ${rules}.`);
    else if (!res.valid) {
      const first = res.conflicts[0];
      // a variant's cell and pair rules are named as rules, not units
      // and a constraint (constraints[k]) in its own words
      const k = /^constraints\[(\d+)\]$/.exec(first.unit);
      const cons = k && g.variant && g.variant.constraints && g.variant.constraints[+k[1]];
      const eg = cons ? describeConstraint(cons, g.n) : /rule|parity/.test(first.unit) ? first.unit : `${symbolOf(first.value)} twice in ${first.unit}`;
      setStatus(status, 'error', `${plural(res.conflicts_total, 'rule')} broken (marked red), e.g. ${eg}.`);
    } else if (wrong.length) setStatus(status, 'error', `${plural(wrong.length, 'answer')} ${wrong.length === 1 ? 'differs' : 'differ'} from the solution (marked).`);
    else setStatus(status, 'ok', `No rule is broken so far; ${plural(empty, 'cell')} to go.`);
  }

  function reset(g) {
    out.replaceChildren();
    setStatus(status, '', '');
    variantSel.value = g.variant && g.variant.names.length === 1 ? g.variant.names[0] : 'classic';
  }
  return { el, reset };
}

// Solve: method, propagation level, max_solutions; the statistics, and
// Previous / Next through the solutions, drawn over the board's empty cells.
function solvePanel(page) {
  const { play } = page;
  const methodSel = select(sudokuApi.METHODS, 'auto');
  const levelSel = select(sudokuApi.LEVELS, 'hidden-singles');
  const levelField = field('Propagation', levelSel, { api: 'propagation' });
  const maxSol = number(2, 1, LIMITS.sudoku.maxSolutions);
  const solveBtn = button('Solve', () => solve(), 'primary');
  const cancelBtn = button('Cancel', null, 'danger');
  const status = statusLine();
  const out = h('div');
  const progress = h('div', { class: 'progress-line', 'aria-live': 'off' });
  const syncLevel = () => (levelField.hidden = !['propagation', 'best-first'].includes(methodSel.value));
  methodSel.addEventListener('change', syncLevel);
  syncLevel();
  const el = card(
    'Solve',
    h(
      'div',
      { class: 'row' },
      field('Method', methodSel, { api: 'method' }),
      levelField,
      field('Max solutions', maxSol, { api: 'max_solutions', hint: `${range(1, LIMITS.sudoku.maxSolutions)}; 2 proves uniqueness` }),
    ),
    h('div', { class: 'row' }, solveBtn, cancelBtn),
    status,
    progress,
    out,
  );
  const task = new Task({ status, buttons: [solveBtn], cancel: cancelBtn, onError: (e) => page.problem(e, el, status) });
  let solutions = [];
  let at = 0;
  play.on('entries', () => (solutions = []));

  async function solve() {
    const g = play.game;
    page.hint.clear();
    progress.replaceChildren();
    out.replaceChildren();
    const body = { method: methodSel.value, max_solutions: +maxSol.value };
    if (!levelField.hidden) body.propagation = levelSel.value;
    const res = await task.run('Solving…', (signal, hooks) =>
      sudokuApi.solve(g.values, g, body, { signal, ...hooks, onProgress: (p) => showProgress(progress, p) }),
    );
    progress.replaceChildren();
    if (!res || g !== play.game) return;
    solutions = res.solutions || (res.solution ? [res.solution] : []);
    at = 0;
    const words = {
      solved: res.unique ? 'Solved: the solution is unique.' : 'Solved.',
      multiple: `Solved, but the puzzle is not unique: ${res.solutions_found} solutions found.`,
      unsolvable: 'No solution: these givens allow none.',
      timeout: 'Stopped at the deadline before the search ended.',
      cancelled: 'Cancelled.',
    };
    setStatus(status, res.status === 'solved' ? 'ok' : res.status === 'multiple' ? 'warn' : 'error', words[res.status] || res.status);
    if (solutions.length) show();
    out.append(statsTable('Statistics', { status: res.status, solutions_found: res.solutions_found, unique: res.unique, ...res.stats }));
    if (solutions.length > 1) {
      const pos = h('span', { class: 'muted' }, `solution 1 of ${solutions.length}`);
      const step = (d) => {
        at = (at + solutions.length + d) % solutions.length;
        show();
        pos.textContent = `solution ${at + 1} of ${solutions.length}`;
      };
      out.prepend(h('div', { class: 'row' }, button('◀ Previous', () => step(-1)), button('Next ▶', () => step(1)), pos));
    }
  }

  // The solver's answer over the empty cells (the game keeps its entries).
  function show() {
    if (solutions[at] !== undefined) play.showOverlay(fromGrid(solutions[at], play.game.n));
  }

  function reset() {
    task.cancel();
    solutions = [];
    for (const x of [out, progress]) x.replaceChildren();
    setStatus(status, '', '');
    clearErrors(el);
  }
  return { el, reset };
}

// Compare methods: every method on the board, one after another.
function comparePanel(page) {
  const { play } = page;
  const btn = button('Compare methods', () => compare());
  const cancel = button('Cancel', null, 'danger');
  const status = statusLine();
  const out = h('div', { class: 'table-wrap' });
  const el = card(
    'Compare methods',
    h('p', { class: 'muted small' }, 'Runs every method on the puzzle on the board, one after another, and shows their work side by side.'),
    h('div', { class: 'row' }, btn, cancel),
    status,
    out,
  );
  const task = new Task({ status, buttons: [btn], cancel, onError: (e) => page.problem(e, el, status) });

  async function compare() {
    const g = play.game;
    out.replaceChildren();
    const methods = sudokuApi.METHODS.map(([m]) => m).filter(
      (m) =>
        m !== 'auto' &&
        (m !== 'fast' || (g.n === 9 && g.rows === 3 && !g.variant)) &&
        // consecutive marks are no exact-cover constraint (docs/variants.md)
        !(['dlx', 'algorithm-x'].includes(m) && g.variant && g.variant.pairs) &&
        // constraints are read by the propagation engine only (docs/constraints.md)
        !(g.variant && g.variant.constraints && !['propagation', 'best-first'].includes(m)),
    );
    const rows = [];
    const values = g.values.slice();
    const done = await task.run('Comparing…', async (signal, hooks) => {
      for (const m of methods) {
        setStatus(status, 'busy', `Running ${m} (${rows.length + 1} of ${methods.length})…`);
        const res = await sudokuApi.solve(values, g, { method: m, max_solutions: 1, timeout_ms: 10000 }, { signal, ...hooks });
        rows.push({ method: m, ...res.stats, status: res.status });
        render(rows);
      }
      return true;
    });
    if (done && g === play.game) setStatus(status, 'ok', `Ran ${rows.length} methods on the same puzzle, 10 s each at most.`);
  }

  function render(rows) {
    const maxT = Math.max(...rows.map((r) => r.elapsed_ms || 0), 0.001);
    const best = rows.reduce((b, r) => (r.status === 'solved' && (!b || r.elapsed_ms < b.elapsed_ms) ? r : b), null);
    const head = ['method', 'status', 'nodes', 'backtracks', 'time (ms)'];
    out.replaceChildren(
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

  function reset() {
    task.cancel();
    out.replaceChildren();
    setStatus(status, '', '');
  }
  return { el, reset };
}

// Import and export: text (a line, a ruled grid) or CSV, pasted or from a
// file, read by the server (POST /v1/sudoku/validate says its size and box);
// a box for sizes without one; the givens out as text.
function importPanel(page) {
  const { play } = page;
  const { maxStringN, maxN } = LIMITS.sudoku;
  const area = h('textarea', {
    class: 'mono',
    rows: 4,
    spellcheck: false,
    placeholder: 'A line of 81 characters (. or 0 for empty), a grid with rows on lines, CSV, ISS’s text or URL, or JSON',
  });
  const areaField = field('Paste a puzzle', area, {
    api: 'grid',
    hint: `Text up to ${maxStringN}×${maxStringN} (1–9, then A–Z), CSV up to ${maxN}×${maxN}; ISS’s constraint text or URL (.Thermo~R1C1~R1C2…); or the API’s JSON ({"grid": …, "constraints": […]}).`,
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
    area.value = await f.text();
    importText(area.value, areaField);
    fileInput.value = '';
  });
  const loadBtn = button('Load', () => importText(area.value, areaField));
  const givensText = () => toGridString(play.game.givensList);
  const exportBtn = button('Copy out', () => {
    area.value = givensText();
    area.select();
  });
  const saveBtn = button('Download', () => download('puzzle.txt', `${givensText()}\n`));
  const status = statusLine();
  const el = card(
    'Import and export',
    areaField,
    boxField,
    h('div', { class: 'row' }, loadBtn, field('…or open a file', fileInput)),
    h('div', { class: 'row' }, exportBtn, saveBtn),
    status,
  );
  const task = new Task({ status, buttons: [loadBtn], onError: (e) => page.problem(e, el, status, areaField) });

  // `where`: the field the text came from (this card's, or the board's for a paste).
  async function importText(text, where) {
    clearErrors(el);
    setFieldError(page.boardField, '');
    const kind = puzzleTextKind(text);
    if (kind) return importPuzzle(kind, text.trim(), where);
    const read = readPuzzleText(text);
    if (read.error) {
      setFieldError(where, read.error);
      return;
    }
    const bx = boxRows.value && boxCols.value ? { rows: +boxRows.value, cols: +boxCols.value } : null;
    const res = await task
      .run('Reading the puzzle…', (signal, hooks) =>
        read.csv ? sudokuApi.validateCsv(read.csv, { signal, ...hooks }) : sudokuApi.validateText(read.grid, bx, { signal, ...hooks }),
      )
      .catch(() => undefined);
    if (!res) {
      // the task said it on this card; a paste on the board says it there too, in a player's words
      if (where === page.boardField) {
        const msg = el.querySelector('.has-error .field-error');
        setFieldError(page.boardField, msg ? page.playerText(msg.textContent) : status.textContent);
      }
      return;
    }
    const n = res.n;
    page.start({ n, rows: res.box.rows, cols: res.box.cols, givens: read.csv ? fromCsv(read.csv, n) : fromGrid(read.grid, n) }, '');
    for (const cf of res.conflicts || []) for (const [r, c] of cf.cells) play.grid.mark(r * n + c, 'conflict');
    const msg = res.valid
      ? `Loaded a ${n}×${n} puzzle.`
      : `Loaded a ${n}×${n} puzzle, but it breaks ${plural(res.conflicts_total, 'rule')} (marked).`;
    setStatus(status, res.valid ? 'ok' : 'warn', msg);
    setStatus(play.status, res.valid ? '' : 'warn', res.valid ? '' : msg);
  }

  // ISS's text or URL (the server reads it and answers the JSON it became)
  // or the API's JSON (checked by the server as it stands): a puzzle with
  // its variant fields and constraints, drawn on the board.
  async function importPuzzle(kind, text, where) {
    let puzzle = null;
    if (kind === 'json') {
      try {
        puzzle = JSON.parse(text);
      } catch (e) {
        setFieldError(where, `This is not JSON the page can read: ${e.message}.`);
        return;
      }
      if (!puzzle || typeof puzzle !== 'object' || Array.isArray(puzzle) || puzzle.grid === undefined) {
        setFieldError(where, 'A puzzle in JSON is an object with a grid (and box, constraints, ... as the API reads them).');
        return;
      }
    }
    const what = kind === 'iss' ? 'ISS’s puzzle' : 'the puzzle';
    const res = await task
      .run(`Reading ${what}…`, (signal, hooks) =>
        kind === 'iss' ? sudokuApi.validateIss(text, { signal, ...hooks }) : sudokuApi.validatePuzzle(puzzle, { signal, ...hooks }),
      )
      .catch(() => undefined);
    if (!res) {
      if (where === page.boardField) setFieldError(page.boardField, status.textContent);
      return;
    }
    if (kind === 'iss') puzzle = res.puzzle;
    const started = page.startPuzzle(puzzle, res);
    if (started.error) {
      setFieldError(where, started.error);
      return;
    }
    const n = play.game.n;
    for (const cf of res.conflicts || []) for (const [r, c] of cf.cells) play.grid.mark(r * n + c, 'conflict');
    const count = (puzzle.constraints || []).length;
    const msg = `Loaded a ${n}×${n} puzzle${count ? ` with ${plural(count, 'constraint')}` : ''}${res.valid ? '' : `, but it breaks ${plural(res.conflicts_total, 'rule')} (marked)`}.`;
    setStatus(status, res.valid ? 'ok' : 'warn', msg);
    setStatus(play.status, res.valid ? 'ok' : 'warn', msg);
  }

  function reset() {
    setStatus(status, '', '');
    clearErrors(el);
  }
  return { el, reset, importText };
}
