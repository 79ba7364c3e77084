// killer.js -- the Killer Sudoku page: one board, one game, two views.
//   Play      the cages and their sums, no givens: the same number pad,
//             pencil marks, undo, timer, mistakes and share link as Sudoku
//             (play.js); New game makes one on the server; Reveal shows the
//             selected cell's value.
//   Engineer  drawing cages, solving by either method, generating with
//             every option, import and export (killer-panels.js).
// Calls to the server: killer-api.js.

import * as killerApi from './killer-api.js';
import { h, field, select, button, card, setStatus, showProblem, setFieldError, Task, icon } from './ui.js';
import { Grid } from './grid.js';
import { Play } from './play.js';
import { engineerPanels, KSIZES } from './killer-panels.js';
import { pageHead, boardCard, boardFieldOf, shareBox, gameCard, pageHooks, solutionFor } from './play-page.js';
import { boxFor, fromGrid, killerShare, readKillerShare, cellName, playerField, playerDetail } from './formats.js';
import { LIMITS } from './limits.js';
import { HintBox } from './sudoku-hint.js';

// The first game: a 9x9 from POST /v1/killer/generate (seed 2024; medium, 2.38, by
// /v1/killer/grade), cages as [sum, cell, cell...] with cells r*9+c, and its solution.
const FIRST = {
  cages: [[10,63,72],[19,36,45,54],[14,0,1,9],[8,64,73,74],[14,56,65],[17,46,55],[16,37,38,47],[9,18,27],[5,2,3],[14,4,5],[15,10,11],[17,6,7,8],[14,79,80],[7,77,78],[7,17,26],[6,19,20,28],[9,29,30],[14,39,48,57],[15,66,75],[17,67,68,76],[9,49,58,59],[10,50,51,60],[11,69,70,71],[9,31,40],[14,41,42],[12,32,33],[9,12,21],[16,13,22],[5,14,23],[12,15,24],[9,16,25],[10,61,62],[14,44,52,53],[18,34,35,43]], // prettier-ignore
  solution: '274186935569473821831592476123647598947258613685931247496315782358729164712864359',
};

export function mount(root) {
  const grid = new Grid({ label: 'Killer grid', onSelect: (i) => panels.toggle(i) });
  const revealBtn = h('button', { type: 'button', class: 'tool tool-hint', 'aria-label': 'Reveal the cell' }, icon('hint'), h('span', null, 'Reveal'));
  revealBtn.addEventListener('click', () => reveal());
  const hintBtn = h('button', { type: 'button', class: 'tool tool-hint play-only', 'aria-label': 'Hint' }, icon('hint'), h('span', null, 'Hint'));
  hintBtn.addEventListener('click', () => hint.request([hintBtn]));
  const play = new Play({
    kind: 'killer',
    grid,
    storeKey: 'game.killer',
    solve: findSolution,
    extraTools: [hintBtn, revealBtn],
    notReady: (g) => (g.cages.length ? '' : 'Draw some cages first (Engineer view).'),
    newGameButton: () => button('New game', () => newGame(), 'primary'),
  });
  play.editBanner.firstChild.textContent = 'This killer is being drawn (Engineer view). Play it once its cages are in.';
  const boardField = boardFieldOf(play, 'grid cages');
  const hint = new HintBox(play, play.status, (e) => problem(e, play.status), (g, opts) => killerApi.hint(g.values, g.pencil, g, opts));
  const page = { play, boardField, problem, startKiller, startGenerated, setCages, newEmpty };
  const panels = engineerPanels(page);

  // ==== play mode: new games ====
  const sizeSel = select(LIMITS.killer.generateSizes.map((n) => [String(n), `${n}×${n}`]), '9');
  const diffSel = select(killerApi.DIFFICULTIES, 'easy');
  sizeSel.addEventListener('change', () => killerApi.limitDifficulties(diffSel, +sizeSel.value));
  const newBtn = button('New game', () => newGame(), 'primary');
  const newCancel = button('Cancel', null, 'danger');
  const newTask = new Task({ status: play.status, buttons: [newBtn], cancel: newCancel, onError: (e) => problem(e, play.status) });
  const newCard = card('New game', h('div', { class: 'row' }, field('Size', sizeSel), field('Difficulty', diffSel)), h('div', { class: 'row' }, newBtn, newCancel));
  newCard.classList.add('play-only');
  const share = shareBox('#/killer', (withEntries) => {
    const g = play.game;
    return killerShare({ n: g.n, cages: g.cages, diagonals: g.diagonals, entries: withEntries ? g.values : null });
  });
  const thisGame = gameCard(play, share);
  thisGame.classList.add('play-only');
  play.numpad.el.classList.add('play-only');

  const head = pageHead(
    root,
    'Killer Sudoku',
    {
      play: 'The digits in each dashed cage add up to its sum and never repeat; rows, columns and boxes hold every digit once.',
      engineer: 'Draw cages: select cells (click, or arrows and Space), type the sum, press Enter. Then solve, generate, import or export.',
    },
    (m) => syncMode(m),
  );
  root.append(
    head.el,
    h(
      'div',
      { class: 'layout' },
      h('div', { class: 'stack' }, boardCard(play, boardField, panels.tools, panels.drawRow)),
      h('div', { class: 'stack' }, h('div', { class: 'stack play-only' }, newCard, thisGame, hint.el), h('div', { class: 'stack eng-only' }, ...panels.cards)),
    ),
  );
  play.area.append(...root.childNodes);
  root.append(play.area);
  play.on('puzzle', () => {
    setFieldError(boardField, '');
    newTask.cancel();
    hint.clear();
  });
  play.on('entries', () => hint.clear());

  if (!play.restore()) {
    const cages = FIRST.cages.map(([sum, ...cells]) => ({ sum, cells: cells.map((i) => [Math.floor(i / 9), i % 9]) }));
    startKiller({ size: 9, cages, solution: fromGrid(FIRST.solution, 9), level: 'medium' }, '');
  }
  syncMode(root.dataset.mode);

  // ==== behaviour ====

  function syncMode(m) {
    const eng = m === 'engineer';
    grid.selectable = eng;
    grid.editable = !eng;
    grid.el.setAttribute('aria-label', eng ? 'Killer grid: select cells for a cage' : 'Killer grid');
    play.setMode(m);
    if (!eng && play.game && play.game.editing && play.game.cages.length) {
      play.finishEditing();
    }
  }

  // {size, cages, diagonals, solution, level}: a killer to play.
  function startKiller(k, why) {
    const s = KSIZES.find((x) => x.n === k.size) || boxFor(k.size);
    play.load(
      {
        n: s.n,
        rows: s.rows,
        cols: s.cols,
        givens: [],
        cages: k.cages.map((c) => ({ sum: c.sum, cells: c.cells.map(([r, col]) => [r, col]) })),
        diagonals: !!k.diagonals,
        solution: k.solution || null,
        level: k.level || null,
      },
      { why },
    );
  }

  function startGenerated(p, n, diagonals) {
    startKiller({ size: p.size || n, cages: p.cages, diagonals, solution: p.solution ? fromGrid(p.solution, p.size || n) : null, level: p.level }, '');
  }

  // New cages for the puzzle on the board (drawing): the puzzle changes.
  function setCages(cages, diagonals) {
    const g = play.game;
    g.cages = cages;
    g.diagonals = !!diagonals;
    g.solution = null;
    g.level = null;
    g.editing = true; // no timer, no solution looked up, until it is played
    g.pause();
    play.load(g, { keepStatus: true });
  }

  function newEmpty(n) {
    const s = KSIZES.find((x) => x.n === n) || boxFor(n);
    play.load({ n: s.n, rows: s.rows, cols: s.cols, givens: [], cages: [] }, { why: '' });
    play.setEditing(true);
  }

  async function newGame() {
    const n = +sizeSel.value;
    const res = await newTask.run(`Making a ${diffSel.value} ${n}×${n} killer…`, (signal, hooks) =>
      killerApi.generate({ n, difficulty: diffSel.value }, { signal, ...hooks }),
    );
    const p = res && res.puzzles && res.puzzles[0];
    if (!p) {
      if (res) setStatus(play.status, 'warn', 'No killer came in time; try again, or an easier level.');
      return;
    }
    startGenerated(p, n, false);
    setStatus(play.status, '', `A new ${p.level || ''} killer. Good luck!`);
    grid.focus(grid.focusIndex);
  }

  function reveal() {
    const g = play.game;
    const i = grid.focusIndex;
    if (!g || g.completed) return;
    if (!g.solution) {
      setStatus(play.status, 'warn', 'The solution is not known yet.');
      return;
    }
    if (g.values[i] === g.solution[i]) {
      setStatus(play.status, '', `${cellName(i, g.n)} is already right.`);
      return;
    }
    play.apply([{ i, v: g.solution[i], pencil: 0 }]);
    setStatus(play.status, '', `${cellName(i, g.n)} revealed (Undo takes it back).`);
  }

  function findSolution(g) {
    if (!g.cages.length) return null;
    return solutionFor(() => killerApi.solve(g, { max_solutions: 2, timeout_ms: 10000 }, { job: false }), g.n, 'killer');
  }

  // Cage errors go next to the cage list (the API's words) and on the
  // board (a player's: cage 4, r2c3); the rest next to their fields.
  function problem(e, status) {
    if (e.kind !== 'problem') return false;
    grid.clearMarks('cage-err', 'err');
    const msgs = [];
    showProblem(root, e.problem, status, (err) => panels.cageProblem(err, msgs));
    if (msgs.length) {
      setFieldError(panels.cagesField, msgs.join('; '));
      const words = (e.problem.errors || []).map((x) => `${playerField(x.field)}: ${playerDetail(x.detail)}`);
      setFieldError(boardField, [...new Set(words)].join('; '));
    }
    return true;
  }

  // #/killer?n=..&k=..: the killer of a share link
  return pageHooks(play, {
    key: 'k',
    noun: 'killer',
    read: readKillerShare,
    start: (k) => startKiller({ size: k.n, cages: k.cages, diagonals: k.diagonals }, 'The killer from the link. Have fun!'),
  });
}
