// sudoku.js -- the Sudoku page: enter or import a puzzle of any size from
// 4x4 to 25x25, play it, and ask the server to generate, grade, hint,
// check (validate), solve, and compare its methods.
//
// Cells hold givens (the puzzle) and entries (the player's answers); the
// "Typing enters" switch says which a keystroke writes.  Solve and Check
// send what the board shows; Grade sends the givens; Hint sends both, and
// the player's pencil marks when there are any.

import * as api from './api.js';
import {
  h, field, select, number, button, card, statusLine, setStatus, statsTable, showProblem,
  clearErrors, setFieldError, Task, fmt, download, nextId,
} from './ui.js';
import { Grid } from './grid.js';
import {
  SIZES, boxFor, sizeLabel, toGridString, fromGrid, readPuzzleText, fromCsv, symbolOf,
} from './formats.js';

export const METHODS = [
  ['auto', 'auto (fastest for the grid)'],
  ['propagation', 'propagation'],
  ['mrv', 'mrv (fewest candidates first)'],
  ['backtracking', 'backtracking'],
  ['best-first', 'best-first'],
  ['dlx', 'dlx (dancing links)'],
  ['algorithm-x', 'algorithm-x'],
  ['fast', 'fast (9×9 only)'],
];
export const LEVELS = ['peers', 'hidden-singles', 'naked-pairs', 'subsets'];

export const EXAMPLES = [
  ['', 'Load an example…'],
  ['1..4...3....32..', '4×4'],
  ['.2.4...5..232......6.2.1.1...56.....', '6×6'],
  ['53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79', '9×9 classic'],
  ['8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..', '9×9 very hard'],
  ['..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9', '9×9 hard for brute force'],
];

// Candidates of cell i from its row, column and box (what a player's pencil
// would hold).
export function candidatesOf(values, n, rows, cols, i) {
  const r = Math.floor(i / n);
  const c = i % n;
  let used = 0;
  for (let k = 0; k < n; k++) {
    used |= 1 << values[r * n + k];
    used |= 1 << values[k * n + c];
  }
  const br = r - (r % rows);
  const bc = c - (c % cols);
  for (let a = 0; a < rows; a++) for (let b = 0; b < cols; b++) used |= 1 << values[(br + a) * n + bc + b];
  let mask = 0;
  for (let v = 1; v <= n; v++) if (!(used & (1 << v))) mask |= 1 << (v - 1);
  return mask;
}

export function mount(root) {
  let size = boxFor(9);
  let typing = 'givens';
  let solutions = [];
  let solIndex = 0;
  let known = null; // {solution, level, rating} from New puzzle

  const grid = new Grid({
    label: 'Sudoku grid',
    onInput: (i, v, pencil) => write(i, v, pencil),
    onPaste: (text) => importText(text, boardField),
  });

  // ---- board card ----
  const sizeSel = select(
    SIZES.map((s) => [String(s.n), sizeLabel(s)]),
    '9',
  );
  sizeSel.addEventListener('change', () => {
    size = boxFor(+sizeSel.value);
    grid.resize(size.n, size.rows, size.cols);
    setTyping('givens');
    reset();
  });
  const typingName = nextId('typing');
  const typingGivens = h('input', { type: 'radio', name: typingName, value: 'givens', checked: true });
  const typingAnswers = h('input', { type: 'radio', name: typingName, value: 'answers' });
  const typingSet = h(
    'fieldset',
    { class: 'field' },
    h('legend', null, 'Typing enters'),
    h(
      'div',
      { class: 'seg' },
      h('label', null, typingGivens, 'givens'),
      h('label', null, typingAnswers, 'my answers'),
    ),
  );
  for (const r of [typingGivens, typingAnswers]) r.addEventListener('change', () => (typing = r.value));
  function setTyping(v) {
    typing = v;
    typingGivens.checked = v === 'givens';
    typingAnswers.checked = v === 'answers';
  }
  const pencilBtn = button('✎ Pencil', () => {
    grid.pencilMode = !grid.pencilMode;
    pencilBtn.setAttribute('aria-pressed', String(grid.pencilMode));
  });
  pencilBtn.setAttribute('aria-pressed', 'false');
  pencilBtn.title = 'Typing toggles pencil marks (candidates) in empty cells';
  const exampleSel = select(EXAMPLES, '');
  exampleSel.addEventListener('change', () => {
    const g = exampleSel.value;
    if (!g) return;
    loadString(g);
    setTyping('answers');
    exampleSel.value = '';
    setStatus(boardStatus, '', 'Example loaded. Type your answers, or ask for a hint.');
  });
  const clearEntries = button('Clear answers', () => {
    for (let i = 0; i < grid.values.length; i++) if (!grid.given[i]) grid.values[i] = 0;
    grid.pencil.fill(0);
    reset();
    grid.renderAll();
  });
  const clearAll = button('Clear all', () => {
    grid.load(new Array(size.n * size.n).fill(0));
    known = null;
    setTyping('givens');
    reset();
  });

  const boardError = h('p', { class: 'field-error', id: nextId('e'), hidden: true });
  const boardField = h(
    'div',
    { class: 'field board-wrap', dataset: { api: 'grid' } },
    grid.el,
    boardError,
  );
  boardField.control = grid.el;
  boardField.error = boardError;
  grid.el.setAttribute('aria-describedby', `${boardError.id}`);
  const boardStatus = statusLine();
  const legend = h(
    'p',
    { class: 'legend', 'aria-hidden': 'true' },
    h('span', { class: 'lg-given' }, 'given'),
    h('span', { class: 'lg-entry' }, 'your answer'),
    h('span', { class: 'lg-assign' }, 'from the solver'),
  );

  const boardCard = h(
    'section',
    { class: 'card', 'aria-label': 'Board' },
    h(
      'div',
      { class: 'row' },
      field('Size', sizeSel),
      typingSet,
      field('Examples', exampleSel),
    ),
    h('div', { class: 'row' }, pencilBtn, clearEntries, clearAll),
    h('div', { class: 'row' }),
    boardField,
    legend,
    boardStatus,
  );

  // ---- puzzle card: new, grade, hint, check ----
  const diffSel = select(['easy', 'medium', 'hard', 'expert', 'extreme'], 'medium');
  const symSel = select(
    [
      ['none', 'none'],
      ['rotational180', 'rotational 180°'],
      ['rotational90', 'rotational 90°'],
      ['mirror', 'mirror'],
      ['diagonal', 'diagonal'],
    ],
    'rotational180',
  );
  const newBtn = button('New puzzle', () => generate(), 'primary');
  const gradeBtn = button('Grade', () => grade());
  const hintBtn = button('Hint', () => hint());
  const checkBtn = button('Check', () => check());
  const applyBtn = button('Apply the hint', () => applyHint());
  applyBtn.hidden = true;
  const puzzleStatus = statusLine();
  const puzzleOut = h('div', { class: 'puzzle-out' });
  const hintOut = h('div', { class: 'hint-out', 'aria-live': 'polite' });
  const puzzleCard = card(
    'Play',
    h(
      'div',
      { class: 'row' },
      field('Difficulty', diffSel, { api: 'difficulty rating' }),
      field('Symmetry', symSel, { api: 'symmetry' }),
      newBtn,
    ),
    h('div', { class: 'row' }, gradeBtn, hintBtn, checkBtn, applyBtn),
    puzzleStatus,
    hintOut,
    puzzleOut,
  );
  const puzzleTask = new Task({
    status: puzzleStatus,
    buttons: [newBtn, gradeBtn, hintBtn, checkBtn],
    onError: (e) => problem(e, root, puzzleStatus),
  });

  // ---- solve card ----
  const methodSel = select(METHODS, 'auto');
  const levelSel = select(LEVELS, 'hidden-singles');
  const levelField = field('Propagation', levelSel, { api: 'propagation' });
  const maxSol = number(2, 1, 10000);
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
      field('Max solutions', maxSol, { api: 'max_solutions', hint: '2 proves uniqueness' }),
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
    onError: (e) => problem(e, root, solveStatus),
  });

  // ---- compare card ----
  const compareBtn = button('Compare methods', () => compare());
  const compareCancel = button('Cancel', null, 'danger');
  const compareStatus = statusLine();
  const compareOut = h('div', { class: 'table-wrap' });
  const compareCard = card(
    'Compare methods',
    h(
      'p',
      { class: 'muted small' },
      'Runs every method on the puzzle on the board, one after another, and shows their work side by side.',
    ),
    h('div', { class: 'row' }, compareBtn, compareCancel),
    compareStatus,
    compareOut,
  );
  const compareTask = new Task({
    status: compareStatus,
    buttons: [compareBtn],
    cancel: compareCancel,
    onError: (e) => problem(e, root, compareStatus),
  });

  // ---- import card ----
  const importText_ = h('textarea', {
    class: 'mono',
    rows: 4,
    spellcheck: false,
    placeholder: 'A line of 81 characters (. or 0 for empty), a grid with rows on lines, or CSV',
  });
  const importField = field('Paste a puzzle', importText_, { api: 'grid' });
  const fileInput = h('input', { type: 'file', accept: '.txt,.csv,.sdk,text/plain,text/csv' });
  fileInput.addEventListener('change', async () => {
    const f = fileInput.files[0];
    if (!f) return;
    importText_.value = await f.text();
    importText(importText_.value, importField);
    fileInput.value = '';
  });
  const loadBtn = button('Load', () => importText(importText_.value, importField));
  const exportBtn = button('Copy out', () => {
    importText_.value = toGridString(grid.values.map((v, i) => (grid.given[i] ? v : 0)));
    importText_.select();
  });
  const saveBtn = button('Download', () =>
    download('puzzle.txt', toGridString(grid.values.map((v, i) => (grid.given[i] ? v : 0))) + '\n'),
  );
  const importStatus = statusLine();
  const importCard = card(
    'Import and export',
    importField,
    h('div', { class: 'row' }, loadBtn, field('…or open a file', fileInput), exportBtn, saveBtn),
    importStatus,
  );
  const importTask = new Task({
    status: importStatus,
    buttons: [loadBtn],
    onError: (e) => problem(e, importCard, importStatus, importField),
  });

  root.append(
    h('h1', null, 'Sudoku'),
    h(
      'p',
      { class: 'lead' },
      'Type a puzzle (arrows move, digits and letters write, Backspace clears) or paste one, then play it or let the server solve it. Any size from 4×4 to 25×25.',
    ),
    h(
      'div',
      { class: 'layout' },
      h('div', { class: 'stack' }, boardCard),
      h('div', { class: 'stack' }, puzzleCard, solveCard, compareCard, importCard),
    ),
  );
  grid.resize(size.n, size.rows, size.cols);

  // ==== behaviour ====

  function reset() {
    solutions = [];
    grid.clearMarks('conflict', 'wrong', 'hint', 'err', 'cand', 'solved');
    setFieldError(boardField, '');
    hintOut.replaceChildren();
    applyBtn.hidden = true;
    pendingHint = null;
  }

  function write(i, v, pencil) {
    if (pencil) {
      if (!grid.values[i] && v) grid.togglePencil(i, v);
      return;
    }
    if (typing === 'answers' && grid.given[i]) {
      setStatus(boardStatus, 'warn', 'That cell is a given. Switch “Typing enters” to givens to change the puzzle.');
      return;
    }
    grid.marks[i].clear();
    grid.set(i, v, typing === 'givens' && v > 0);
    if (pendingHint) {
      grid.clearMarks('hint', 'cand');
      hintOut.replaceChildren();
      applyBtn.hidden = true;
      pendingHint = null;
    }
    setFieldError(boardField, '');
    setStatus(boardStatus, '', '');
  }

  function loadString(g) {
    const n = Math.round(Math.sqrt(g.length));
    if (n !== size.n) {
      size = boxFor(n);
      sizeSel.value = String(n);
      grid.resize(size.n, size.rows, size.cols);
    }
    grid.load(fromGrid(g, n));
    known = null;
    reset();
  }

  const box = () => ({ rows: size.rows, cols: size.cols });
  const board = () => toGridString(grid.values);
  const givens = () => toGridString(grid.values.map((v, i) => (grid.given[i] ? v : 0)));

  // Puts a problem's errors next to their fields; grid[r][c] marks a cell.
  // `scope` holds the fields the request came from (the whole page but for
  // an import, whose "grid" is the text field).
  function problem(e, scope, status, gridField = boardField) {
    if (e.kind !== 'problem') return false;
    const cellMsgs = [];
    grid.clearMarks('err');
    showProblem(scope, e.problem, status, (err) => {
      const m = /^grid\[(\d+)\]\[(\d+)\]$/.exec(err.field || '');
      if (!m) {
        if (err.field === 'grid' && gridField) {
          setFieldError(gridField, err.detail);
          return true;
        }
        return false;
      }
      grid.mark(+m[1] * size.n + +m[2], 'err');
      cellMsgs.push(`${err.field}: ${err.detail}`);
      return true;
    });
    if (cellMsgs.length) setFieldError(boardField, [...new Set(cellMsgs)].join('; '));
    return true;
  }

  async function importText(text, where) {
    clearErrors(importCard);
    setFieldError(boardField, '');
    const read = readPuzzleText(text);
    if (read.error) {
      setFieldError(where, read.error);
      return;
    }
    const res = await importTask.run('Reading the puzzle…', (signal, hooks) =>
      read.csv
        ? api.post('v1/sudoku/validate', read.csv, { contentType: 'text/csv', signal, ...hooks })
        : api.post('v1/sudoku/validate', { grid: read.grid }, { signal, ...hooks }),
    ).catch(() => undefined);
    if (!res) {
      // importTask reported it on the import card; a paste on the board shows it there too
      if (where === boardField && importField.classList.contains('has-error')) {
        setFieldError(boardField, importField.error.textContent);
      }
      return;
    }
    size = { n: res.n, rows: res.box.rows, cols: res.box.cols };
    sizeSel.value = String(res.n);
    grid.resize(size.n, size.rows, size.cols);
    grid.load(read.csv ? fromCsv(read.csv, res.n) : fromGrid(read.grid, res.n));
    known = null;
    reset();
    setTyping('answers');
    for (const cf of res.conflicts || []) for (const [r, c] of cf.cells) grid.mark(r * size.n + c, 'conflict');
    const msg = res.valid
      ? `Loaded a ${res.n}×${res.n} puzzle.`
      : `Loaded a ${res.n}×${res.n} puzzle, but it breaks ${res.conflicts_total} rule${res.conflicts_total > 1 ? 's' : ''} (marked).`;
    setStatus(importStatus, res.valid ? 'ok' : 'warn', msg);
    setStatus(boardStatus, res.valid ? '' : 'warn', res.valid ? '' : msg);
  }

  async function check() {
    reset();
    const res = await puzzleTask.run('Checking…', (signal, hooks) =>
      api.post('v1/sudoku/validate', { grid: board(), box: box() }, { signal, ...hooks }),
    );
    if (!res) return;
    for (const cf of res.conflicts) for (const [r, c] of cf.cells) grid.mark(r * size.n + c, 'conflict');
    let wrong = 0;
    if (known && known.solution) {
      const sol = fromGrid(known.solution, size.n);
      grid.values.forEach((v, i) => {
        if (v && !grid.given[i] && v !== sol[i]) {
          grid.mark(i, 'wrong');
          wrong++;
        }
      });
    }
    const empty = grid.values.filter((v) => !v).length;
    if (res.complete && !wrong) setStatus(puzzleStatus, 'ok', 'Complete and correct: every row, column and box holds each symbol once.');
    else if (!res.valid) {
      const first = res.conflicts[0];
      setStatus(
        puzzleStatus,
        'error',
        `${res.conflicts_total} rule${res.conflicts_total > 1 ? 's' : ''} broken (marked red), e.g. ${symbolOf(first.value)} twice in ${first.unit}.`,
      );
    } else if (wrong) setStatus(puzzleStatus, 'error', `${wrong} answer${wrong > 1 ? 's' : ''} differ from the solution (marked).`);
    else setStatus(puzzleStatus, 'ok', `No rule is broken so far; ${empty} cell${empty === 1 ? '' : 's'} to go.`);
  }

  async function solve() {
    reset();
    progressOut.replaceChildren();
    solveOut.replaceChildren();
    const body = {
      grid: board(),
      box: box(),
      method: methodSel.value,
      max_solutions: +maxSol.value,
    };
    if (!levelField.hidden) body.propagation = levelSel.value;
    const res = await solveTask.run('Solving…', (signal, hooks) =>
      api.post('v1/sudoku/solve', body, {
        signal,
        ...hooks,
        job: true,
        onProgress: (p) => showProgress(progressOut, p),
      }),
    );
    progressOut.replaceChildren();
    if (!res) return;
    solutions = res.solutions || (res.solution ? [res.solution] : []);
    solIndex = 0;
    const words = {
      solved: res.unique ? 'Solved: the solution is unique.' : 'Solved.',
      multiple: `Solved, but the puzzle is not unique: ${res.solutions_found} solutions found.`,
      unsolvable: 'No solution: these givens allow none.',
      timeout: 'Stopped at the deadline before the search ended.',
      cancelled: 'Cancelled.',
    };
    setStatus(
      solveStatus,
      res.status === 'solved' ? 'ok' : res.status === 'multiple' ? 'warn' : 'error',
      words[res.status] || res.status,
    );
    if (solutions.length) showSolution();
    solveOut.append(statsTable('Statistics', { status: res.status, solutions_found: res.solutions_found, unique: res.unique, ...res.stats }));
    if (solutions.length > 1) {
      const pos = h('span', { class: 'muted' });
      const prev = button('◀ Previous', () => {
        solIndex = (solIndex + solutions.length - 1) % solutions.length;
        showSolution();
        pos.textContent = `solution ${solIndex + 1} of ${solutions.length}`;
      });
      const next = button('Next ▶', () => {
        solIndex = (solIndex + 1) % solutions.length;
        showSolution();
        pos.textContent = `solution ${solIndex + 1} of ${solutions.length}`;
      });
      pos.textContent = `solution 1 of ${solutions.length}`;
      solveOut.prepend(h('div', { class: 'row' }, prev, next, pos));
    }
  }

  function showSolution() {
    const sol = fromGrid(solutions[solIndex], size.n);
    for (let i = 0; i < sol.length; i++) {
      if (grid.given[i]) continue;
      grid.values[i] = sol[i];
      grid.pencil[i] = 0;
      grid.marks[i].add('solved');
    }
    grid.renderAll();
  }

  async function compare() {
    compareOut.replaceChildren();
    const methods = METHODS.map(([m]) => m).filter((m) => m !== 'auto' && (m !== 'fast' || (size.n === 9 && size.rows === 3)));
    const rows = [];
    const g = board();
    const done = await compareTask.run('Comparing…', async (signal, hooks) => {
      for (const m of methods) {
        setStatus(compareStatus, 'busy', `Running ${m} (${rows.length + 1} of ${methods.length})…`);
        const res = await api.post(
          'v1/sudoku/solve',
          { grid: g, box: box(), method: m, max_solutions: 1, timeout_ms: 10000 },
          { signal, ...hooks, job: true },
        );
        rows.push({ method: m, ...res.stats, status: res.status });
        renderCompare(rows);
      }
      return true;
    });
    if (done) setStatus(compareStatus, 'ok', `Ran ${rows.length} methods on the same puzzle, 10 s each at most.`);
  }

  function renderCompare(rows) {
    const maxT = Math.max(...rows.map((r) => r.elapsed_ms || 0), 0.001);
    const best = rows.reduce((b, r) => (r.status === 'solved' && (!b || r.elapsed_ms < b.elapsed_ms) ? r : b), null);
    const table = h(
      'table',
      { class: 'compare' },
      h('caption', null, 'Work per method (one solution each)'),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['method', 'status', 'nodes', 'backtracks', 'propagations', 'time (ms)'].map((t, k) =>
            h('th', { scope: 'col', class: k > 1 ? 'num' : '' }, t),
          ),
        ),
      ),
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
            h('td', { class: 'num' }, fmt(r.propagations)),
            h('td', { class: 'num' }, fmt(r.elapsed_ms), bar),
          );
        }),
      ),
    );
    compareOut.replaceChildren(table);
  }

  // ---- generate / grade / hint (issue 24's endpoints) ----

  async function generate() {
    reset();
    puzzleOut.replaceChildren();
    const res = await puzzleTask.run('Generating a puzzle…', (signal, hooks) =>
      api.post(
        'v1/sudoku/generate',
        { size: size.n, box: box(), difficulty: diffSel.value, symmetry: symSel.value, count: 1 },
        { signal, ...hooks },
      ),
    );
    if (!res) return;
    const p = res.puzzles && res.puzzles[0];
    if (!p) {
      setStatus(puzzleStatus, 'warn', `No puzzle came back (status ${res.status}).`);
      return;
    }
    const g = typeof p.puzzle === 'string' ? p.puzzle : p.grid;
    const values = fromGrid(g, size.n);
    grid.load(values);
    known = { solution: p.solution, level: p.level, rating: p.rating };
    setTyping('answers');
    puzzleOut.replaceChildren(levelLine(p.level, p.rating));
    const stats = res.stats ? ` in ${fmt(res.stats.elapsed_ms)} ms` : '';
    setStatus(
      puzzleStatus,
      res.status === 'timeout' ? 'warn' : 'ok',
      res.status === 'timeout'
        ? `The level was not reached in time; here is the closest puzzle found${stats}.`
        : `New ${p.level} puzzle${stats} (seed ${p.seed}).`,
    );
    grid.focus();
  }

  function levelLine(level, rating) {
    return h(
      'p',
      null,
      'Difficulty: ',
      h('span', { class: `badge lv-${level}` }, level),
      rating !== undefined ? ` rating ${fmt(rating)}` : '',
    );
  }

  async function grade() {
    reset();
    puzzleOut.replaceChildren();
    const res = await puzzleTask.run('Grading…', (signal, hooks) =>
      api.post('v1/sudoku/grade', { grid: givens(), box: box() }, { signal, ...hooks }),
    );
    if (!res) return;
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
    setStatus(puzzleStatus, 'ok', `Graded: ${res.level}.`);
  }

  let pendingHint = null;

  async function hint() {
    reset();
    const body = { grid: board(), givens: givens(), box: box() };
    const pencil = [];
    grid.pencil.forEach((m, i) => {
      if (!m || grid.values[i]) return;
      const values = [];
      for (let v = 1; v <= size.n; v++) if (m & (1 << (v - 1))) values.push(v);
      pencil.push({ cell: [Math.floor(i / size.n), i % size.n], values });
    });
    if (pencil.length) body.pencil = pencil;
    const res = await puzzleTask.run('Looking for the next step…', (signal, hooks) =>
      api.post('v1/sudoku/hint', body, { signal, ...hooks }),
    );
    if (!res) return;
    const idx = ([r, c]) => r * size.n + c;
    if (res.status === 'solved') {
      setStatus(puzzleStatus, 'ok', 'The grid is complete and correct. Well done!');
      return;
    }
    if (res.status === 'wrong') {
      for (const w of res.wrong || []) grid.mark(idx(w.cell), 'wrong');
      hintOut.replaceChildren(h('p', { class: 'status error' }, res.explanation || 'An answer is wrong (marked).'));
      setStatus(puzzleStatus, 'error', `${(res.wrong || []).length} answer(s) contradict the solution.`);
      return;
    }
    const step = res.step || {};
    // Show candidates in the cells the step talks about, so that its
    // candidates and eliminations can be highlighted.
    const touched = new Set([
      ...(step.cells || []).map(idx),
      ...(step.candidates || []).map((x) => idx(x.cell)),
      ...(step.eliminations || []).map((x) => idx(x.cell)),
    ]);
    for (const i of touched) {
      if (!grid.values[i] && !grid.pencil[i]) {
        grid.pencil[i] = candidatesOf(grid.values, size.n, size.rows, size.cols, i);
      }
      grid.marks[i].add('hint');
    }
    for (const x of step.candidates || []) grid.markCand(idx(x.cell), x.value, 'hl');
    for (const x of step.eliminations || []) for (const v of x.values) grid.markCand(idx(x.cell), v, 'x');
    for (const x of step.placements || []) {
      grid.marks[idx(x.cell)].add('hint');
      grid.markCand(idx(x.cell), x.value, 'hl');
    }
    grid.renderAll();
    pendingHint = step;
    applyBtn.hidden = !(step.placements && step.placements.length) && !(step.eliminations && step.eliminations.length);
    hintOut.replaceChildren(
      h('p', { class: 'hint-text' }, h('strong', null, `${step.technique || 'Hint'}: `), step.explanation || ''),
    );
    setStatus(puzzleStatus, 'ok', step.trial ? 'Hint (a trial step: no simpler technique applies).' : 'Hint found (highlighted).');
  }

  function applyHint() {
    const step = pendingHint;
    if (!step) return;
    for (const x of step.placements || []) {
      const i = x.cell[0] * size.n + x.cell[1];
      grid.set(i, x.value, false);
    }
    for (const x of step.eliminations || []) {
      const i = x.cell[0] * size.n + x.cell[1];
      if (!grid.pencil[i]) grid.pencil[i] = candidatesOf(grid.values, size.n, size.rows, size.cols, i);
      for (const v of x.values) grid.pencil[i] &= ~(1 << (v - 1));
    }
    pendingHint = null;
    applyBtn.hidden = true;
    grid.clearMarks('hint', 'cand');
    grid.renderAll();
    hintOut.replaceChildren();
  }
}

// Live progress of a job (issue 23's progress object) as a bar and figures.
export function showProgress(out, p) {
  const parts = [];
  if (typeof p.fraction === 'number') {
    const bar = h('progress', { max: 1, value: p.fraction });
    bar.setAttribute('aria-label', 'Progress');
    out.replaceChildren(bar);
    parts.push(`${(100 * p.fraction).toFixed(1)} %`);
  } else out.replaceChildren();
  if (p.done !== undefined && p.total !== undefined) parts.push(`${fmt(p.done)} of ${fmt(p.total)}`);
  if (p.nodes !== undefined) parts.push(`${fmt(p.nodes)} nodes`);
  if (p.elapsed_ms !== undefined) parts.push(`${(p.elapsed_ms / 1000).toFixed(1)} s`);
  if (p.eta_ms !== undefined) parts.push(`about ${Math.ceil(p.eta_ms / 1000)} s left`);
  out.append(h('span', null, parts.join(' · ')));
}
