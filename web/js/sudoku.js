// sudoku.js -- the Sudoku page: one board, one game, two views.
//   Play      a game as good Sudoku apps have it (play.js): number pad,
//             pencil marks, undo, timer, mistakes, hints, new games by size
//             and difficulty, your own puzzle, a share link, print.
//   Engineer  the same board with the lab around it (sudoku-panels.js):
//             givens or answers typing, examples, generate with symmetry,
//             grade, check, any solving method with its statistics,
//             compare, import and export.
// The game survives a reload (storage) and travels in a link
// (#/sudoku?p=...).  Calls to the server: sudoku-api.js.

import * as sudokuApi from './sudoku-api.js';
import { h, field, select, button, card, setStatus, showProblem, setFieldError, Task, icon } from './ui.js';
import { Grid } from './grid.js';
import { Play } from './play.js';
import { HintBox } from './sudoku-hint.js';
import { engineerPanels } from './sudoku-panels.js';
import { pageHead, boardCard, boardFieldOf, shareBox, gameCard, pageHooks, solutionFor } from './play-page.js';
import {
  SIZES, boxFor, sizeLabel, EXAMPLES, fromGrid, sudokuShare, readSudokuShare, playerField, playerDetail,
} from './formats.js';
import { LIMITS } from './limits.js';
import { VARIANTS, variantOf, variantLabel, rulesText, shareOf, readShare, shareFrame, isLayout, layoutOf } from './variants.js';
import { describe as describeConstraint, familyOf, typeLabel } from './constraints.js';

const FIRST = EXAMPLES.find(([, name]) => name === '9×9 classic')[0];

export function mount(root) {
  const grid = new Grid({ label: 'Sudoku grid', onPaste: (text) => panels.importText(text, boardField) });
  // (the engineer's Puzzle card has its own Hint)
  const hintBtn = h('button', { type: 'button', class: 'tool tool-hint play-only', 'aria-label': 'Hint' }, icon('hint'), h('span', null, 'Hint'));
  hintBtn.addEventListener('click', () => hint.request([hintBtn]));
  const play = new Play({
    kind: 'sudoku',
    grid,
    storeKey: 'game.sudoku',
    solve: findSolution,
    extraTools: [hintBtn],
    newGameButton: () => button('New game', () => newGame(), 'primary'),
  });
  const boardField = boardFieldOf(play, 'grid');
  const hint = new HintBox(play, play.status, (e) => problem(e, root, play.status));
  const page = {
    play,
    hint,
    boardField,
    problem,
    playerText: playerDetail,
    start,
    startGenerated,
    startPuzzle,
    newEmpty,
  };
  const panels = engineerPanels(page);

  // ==== play mode: new games ====
  const genSizes = SIZES.filter((s) => s.n >= LIMITS.sudoku.generateMinN && s.n <= LIMITS.sudoku.generateMaxN);
  const sizeSel = select(genSizes.map((s) => [String(s.n), sizeLabel(s)]), '9');
  const diffSel = select(sudokuApi.DIFFICULTIES, 'easy');
  const variantSel = select(VARIANTS, 'classic');
  // a seed makes the same puzzle again (the engineer's Generate shows each puzzle's)
  const seedIn = h('input', { type: 'text', inputmode: 'numeric', pattern: '[0-9]*', class: 'seed', autocomplete: 'off', spellcheck: false });
  const newBtn = button('New game', () => newGame(), 'primary');
  const newCancel = button('Cancel', null, 'danger');
  // (an overlapping layout's frame stays: its givens are typed into it)
  const ownBtn = button('Enter your own', () => {
    const g = play.game;
    newEmpty(g.n, g.rows, g.cols, layoutOf(g.variant));
    grid.focus(play.geometry.firstLive());
  });
  const newTask = new Task({
    status: play.status,
    buttons: [newBtn],
    cancel: newCancel,
    onError: (e) => problem(e, root, play.status),
  });
  // an overlapping layout is made of 9x9 grids: no size to choose
  const syncSize = () => (sizeSel.disabled = isLayout(variantSel.value));
  variantSel.addEventListener('change', syncSize);
  const newCard = card(
    'New game',
    h('div', { class: 'row' }, field('Variant', variantSel), field('Size', sizeSel, { hint: 'Overlapping grids are 9×9.' }), field('Difficulty', diffSel)),
    h('details', { class: 'more' }, h('summary', null, 'More options'), field('Seed', seedIn, { hint: 'Optional: the same seed makes the same puzzle.' })),
    h('div', { class: 'row' }, newBtn, newCancel, ownBtn),
  );
  newCard.classList.add('play-only');
  const share = shareBox('#/sudoku', (withEntries) => {
    const g = play.game;
    const q = new URLSearchParams(
      sudokuShare({ n: g.n, rows: g.rows, cols: g.cols, givens: g.givensList, entries: withEntries ? g.values.map((v, i) => (g.given[i] ? 0 : v)) : null }),
    );
    for (const [k, v] of Object.entries(shareOf(g.variant))) q.set(k, v);
    return q.toString();
  });
  const thisGame = gameCard(play, share);
  thisGame.classList.add('play-only');

  // a variant's own rules, under the board; a constraint puzzle's global
  // rules as labels, and every constraint in words (the drawing's text)
  const rulesEl = h('p', { class: 'variant-rules', hidden: true });
  const globalsEl = h('ul', { class: 'cons-globals', 'aria-label': 'Rules over the whole grid', hidden: true });
  const consList = h('ul');
  const consSummary = h('summary');
  const consEl = h('details', { class: 'cons-legend', hidden: true }, consSummary, consList);
  const legend = h(
    'p',
    { class: 'legend eng-only', 'aria-hidden': 'true' },
    h('span', { class: 'lg-given' }, 'given'),
    h('span', { class: 'lg-entry' }, 'your answer'),
    h('span', { class: 'lg-assign' }, 'from the solver'),
  );
  const head = pageHead(
    root,
    'Sudoku',
    {
      play: 'Pick a cell, then a digit: on the number pad, or by keyboard. Pencil marks, undo and hints are there when you need them.',
      engineer: `Type or paste a puzzle from 4×4 to ${LIMITS.sudoku.maxStringN}×${LIMITS.sudoku.maxStringN} (CSV up to ${LIMITS.sudoku.maxN}×${LIMITS.sudoku.maxN}), then let the server solve, grade or explain it.`,
    },
    (m) => syncMode(m),
  );
  root.append(
    head.el,
    h(
      'div',
      { class: 'layout' },
      h('div', { class: 'stack' }, boardCard(play, boardField, panels.tools, [globalsEl, rulesEl, consEl, legend])),
      h('div', { class: 'stack' }, h('div', { class: 'stack play-only' }, newCard, thisGame, hint.el), h('div', { class: 'stack eng-only' }, ...panels.cards)),
    ),
  );
  play.area.append(...root.childNodes);
  root.append(play.area);

  play.on('puzzle', (g) => {
    rulesEl.textContent = rulesText(g.variant, g.n);
    rulesEl.hidden = !g.variant;
    showConstraints((g.variant && g.variant.constraints) || [], g.n);
    // the New game card offers the variant being played
    if (g.variant && g.variant.names.length === 1) variantSel.value = g.variant.names[0];
    syncSize();
    setFieldError(boardField, '');
    hint.clear();
    newTask.cancel();
  });
  play.on('entries', () => hint.clear());

  if (!play.restore()) start({ ...boxFor(9), givens: fromGrid(FIRST, 9) }, '');
  syncMode(root.dataset.mode);

  // ==== behaviour ====

  function syncMode(m) {
    play.setMode(m);
    if (m === 'engineer') {
      hint.el.remove();
      panels.cards[0].append(hint.el);
    } else newCard.after(hint.el, thisGame);
  }

  // The constraints under the board: the global ones as labels, all of
  // them in words (a list the drawing's titles repeat).
  function showConstraints(list, n) {
    const globals = list.filter((c) => familyOf(c.type) === 'global');
    globalsEl.replaceChildren(...globals.map((c) => h('li', { title: describeConstraint(c, n) }, typeLabel(c.type))));
    globalsEl.hidden = !globals.length;
    consList.replaceChildren(...list.map((c) => h('li', { dataset: { type: c.type } }, describeConstraint(c, n))));
    consSummary.textContent = `Constraints (${list.length})`;
    consEl.hidden = !list.length;
  }

  // A puzzle as the API's JSON (an import, or ISS's text the server read):
  // its grid, box or regions, variant fields and constraints.  `res` is
  // validate's answer for it (n, box).  Returns {} or {error}.
  function startPuzzle(p, res = {}) {
    const n = res.n || (typeof p.grid === 'string' ? Math.round(Math.sqrt(p.grid.length)) : Array.isArray(p.grid) ? p.grid.length : 0);
    if (!n) return { error: 'The puzzle has no grid the page can read.' };
    const bx = p.box || res.box || boxFor(n);
    const variant = variantOf(p, n);
    const wanted = ['variant', 'constraints', 'extra_units', 'regions', 'parity', 'pairs'].some((k) => p[k] !== undefined && !(k === 'variant' && p[k] === 'classic'));
    if (wanted && !variant) return { error: 'The server reads this puzzle, but the page cannot draw or play all of its rules.' };
    start({ n, rows: bx.rows || boxFor(n).rows, cols: bx.cols || boxFor(n).cols, givens: fromGrid(p.grid, n), variant }, '');
    return {};
  }

  // A game from givens (and maybe its solution and level).
  function start(opts, why) {
    const s = boxFor(opts.n);
    play.load({ rows: s.rows, cols: s.cols, ...opts }, { why });
    panels.sync(play.game);
  }

  // A generated puzzle; a variant's fields come with it (variants.js).
  function startGenerated(p, n, rows, cols) {
    const givens = fromGrid(typeof p.puzzle === 'string' ? p.puzzle : p.grid, n);
    const variant = variantOf(p, n);
    start({ n, rows, cols, givens, variant, solution: p.solution ? fromGrid(p.solution, n) : null, level: p.level }, '');
  }

  // An empty board of that shape (an overlapping layout's frame when
  // `layout` names one), typing givens.
  function newEmpty(n, rows, cols, layout = null) {
    const variant = layout ? { names: [layout], regions: null, parity: null, pairs: null } : null;
    play.load({ n, rows, cols, givens: [], variant }, { why: '' });
    play.setEditing(true);
    panels.sync(play.game);
  }

  async function newGame() {
    const variant = variantSel.value;
    const s = boxFor(isLayout(variant) ? 9 : +sizeSel.value);
    const seed = seedIn.value.trim();
    if (seed && !/^\d{1,15}$/.test(seed)) {
      setStatus(play.status, 'error', 'A seed is a whole number (digits only).');
      return;
    }
    const what = variant === 'classic' ? '' : ` ${variantLabel({ names: [variant] })}`;
    const size = isLayout(variant) ? '' : ` ${s.n}×${s.n}`;
    const a = /^[aeiou]/.test(diffSel.value) ? 'an' : 'a';
    const res = await newTask.run(`Making ${a} ${diffSel.value}${size}${what} puzzle…`, (signal, hooks) =>
      sudokuApi.generate({ ...s, difficulty: diffSel.value, symmetry: 'rotational180', variant, seed }, { signal, ...hooks }),
    );
    const p = res && res.puzzles && res.puzzles[0];
    if (!p) {
      if (res) setStatus(play.status, 'warn', 'No puzzle came in time; try again, or an easier level.');
      return;
    }
    startGenerated(p, s.n, s.rows, s.cols);
    const kind = play.game.variant ? ` ${variantLabel(play.game.variant)}` : '';
    setStatus(play.status, '', `A new ${p.level}${kind} puzzle. Good luck!`);
    grid.focus();
  }

  function findSolution(g) {
    const ask = () => sudokuApi.solve(g.givensList, g, { max_solutions: 2, timeout_ms: 10000 }, { job: false });
    return solutionFor(ask, g.n, 'puzzle');
  }

  // Puts a problem's errors next to their fields: grid[r][c] marks a cell
  // and is said under the board in a player's words (r1c5, row 1); the
  // panel's own status keeps the API's words.  `scope` holds the fields
  // the request came from; `gridField` is where "grid" errors go.
  function problem(e, scope, status, gridField = boardField) {
    if (e.kind !== 'problem') return false;
    const cellMsgs = [];
    grid.clearMarks('err');
    showProblem(scope, e.problem, status, (err) => {
      const m = /^grid\[(\d+)\]\[(\d+)\]$/.exec(err.field || '');
      if (!m) {
        if (err.field === 'grid' && gridField) {
          setFieldError(gridField, gridField === boardField ? playerDetail(err.detail) : err.detail);
          return true;
        }
        return false;
      }
      grid.mark(+m[1] * play.geometry.width + +m[2], 'err');
      cellMsgs.push(`${playerField(err.field)}: ${playerDetail(err.detail)}`);
      return true;
    });
    if (cellMsgs.length) {
      setFieldError(boardField, [...new Set(cellMsgs)].join('; '));
      if (status !== play.status) setStatus(status, 'error', e.problem.detail || e.message);
    }
    return true;
  }

  // #/sudoku?p=...: the puzzle of a share link
  return pageHooks(play, {
    key: 'p',
    noun: 'puzzle',
    read: (params) => {
      const s = readSudokuShare(params, shareFrame(params));
      const variant = s.error ? null : readShare(params, s.n);
      return variant && variant.error ? variant : { ...s, variant };
    },
    start: (s) => start({ n: s.n, rows: s.rows, cols: s.cols, givens: s.givens, variant: s.variant }, 'The puzzle from the link. Have fun!'),
  });
}
