// queens.js -- the N-Queens page: a board to place queens on (each row's
// candidates, dead rows and the number of completions come from the server
// after every move), the first solution, counting every solution as a job
// with live progress and Cancel, min-conflicts for large n with a plot of
// its trace, and a pager through all solutions of small n.

import * as api from './api.js';
import {
  h, field, select, number, button, card, statusLine, setStatus, statsTable, showProblem, setFieldError, clearErrors,
  Task, checkbox, fmt, showProgress, plural,
} from './ui.js';
import { LIMITS, range } from './limits.js';

const Q = LIMITS.queens;
const DRAW_MAX = Q.boardMaxN; // boards up to this n are drawn
const AUTO_COUNT_MAX = 14; // completions counted after every move up to this n

// A board of n x n squares.  queens[row] = column or -1.
export class Board {
  constructor({ label, interactive = false, onToggle } = {}) {
    this.interactive = interactive;
    this.onToggle = onToggle || (() => {});
    this.el = h('div', { class: `qboard${interactive ? ' interactive' : ''}`, role: 'grid', 'aria-label': label || 'Board' });
    this.focusIndex = 0;
    if (interactive) {
      this.el.addEventListener('click', (e) => {
        const sq = e.target.closest('.sq');
        if (!sq) return;
        this.moveTo(+sq.dataset.i);
        this.onToggle(Math.floor(+sq.dataset.i / this.n), +sq.dataset.i % this.n);
      });
      this.el.addEventListener('keydown', (e) => this.key(e));
      this.el.addEventListener('focusin', (e) => {
        const sq = e.target.closest('.sq');
        if (!sq || +sq.dataset.i === this.focusIndex) return;
        const old = this.squares && this.squares[this.focusIndex];
        if (old) old.tabIndex = -1;
        this.focusIndex = +sq.dataset.i;
        sq.tabIndex = 0;
      });
    }
  }

  draw(n, queens, info = {}) {
    this.n = n;
    this.el.style.setProperty('--n', n);
    const cand = info.candidates || null; // row -> Set of columns
    const clash = info.clashes || new Set(); // "r,c"
    const dead = info.dead || new Set(); // rows
    const squares = [];
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        let cls = (r + c) % 2 ? 'sq dk' : 'sq';
        let what = '';
        if (queens[r] === c) {
          cls += ' q';
          what = 'queen';
          if (clash.has(`${r},${c}`)) {
            cls += ' clash';
            what += ', attacked';
          }
        } else if (cand && cand.has(r) && cand.get(r).has(c)) {
          cls += ' cand';
          what = 'safe';
        } else if (dead.has(r)) cls += ' deadrow';
        const attrs = { class: cls, dataset: { i } };
        if (this.interactive) {
          attrs.role = 'gridcell';
          attrs.tabindex = i === this.focusIndex ? 0 : -1;
          attrs['aria-label'] = `row ${r + 1}, column ${c + 1}${what ? `: ${what}` : ''}`;
        }
        squares.push(h('div', attrs));
      }
    }
    if (this.interactive) {
      // rows for the grid role
      const rows = [];
      for (let r = 0; r < n; r++) rows.push(h('div', { role: 'row', class: 'qrow' }, squares.slice(r * n, r * n + n)));
      this.el.replaceChildren(...rows);
    } else {
      this.el.replaceChildren(...squares);
      this.el.setAttribute('role', 'img');
      this.el.setAttribute('aria-label', `${n}×${n} board, queens in columns ${queens.map((c) => c + 1).join(', ')}`);
    }
    this.squares = squares;
  }

  moveTo(i) {
    if (!this.squares || !this.squares[i]) return;
    const old = this.squares[this.focusIndex];
    if (old) old.tabIndex = -1;
    this.focusIndex = i;
    this.squares[i].tabIndex = 0;
    this.squares[i].focus();
  }

  key(e) {
    const n = this.n;
    const i = this.focusIndex;
    const r = Math.floor(i / n);
    const c = i % n;
    const moves = {
      ArrowLeft: r * n + ((c + n - 1) % n),
      ArrowRight: r * n + ((c + 1) % n),
      ArrowUp: ((r + n - 1) % n) * n + c,
      ArrowDown: ((r + 1) % n) * n + c,
      Home: r * n,
      End: r * n + n - 1,
    };
    if (e.key in moves) {
      e.preventDefault();
      this.moveTo(moves[e.key]);
    } else if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      this.onToggle(r, c);
      this.moveTo(i);
    }
  }
}

// Conflicts against moves, as an SVG line (at most ~600 points: each
// bucket keeps its lowest and highest value, so spikes stay visible).
export function plotTrace(trace, restarts = []) {
  const W = 480;
  const H = 220;
  const L = 44;
  const B = 28;
  const T = 10;
  const R = 12;
  const maxY = Math.max(1, ...trace);
  const len = Math.max(1, trace.length - 1);
  const x = (k) => L + ((W - L - R) * k) / len;
  const y = (v) => T + (H - T - B) * (1 - v / maxY);
  const pts = [];
  const bucket = Math.max(1, Math.ceil(trace.length / 600));
  for (let k = 0; k < trace.length; k += bucket) {
    let lo = Infinity;
    let hi = -Infinity;
    let loK = k;
    let hiK = k;
    for (let j = k; j < Math.min(trace.length, k + bucket); j++) {
      if (trace[j] < lo) [lo, loK] = [trace[j], j];
      if (trace[j] > hi) [hi, hiK] = [trace[j], j];
    }
    for (const [kk, v] of loK < hiK ? [[loK, lo], [hiK, hi]] : [[hiK, hi], [loK, lo]]) pts.push(`${x(kk).toFixed(1)},${y(v).toFixed(1)}`);
  }
  const svg = h('svg:svg', {
    class: 'plot',
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': `Conflicts after each move: ${trace[0]} at the start, ${trace[trace.length - 1]} after ${trace.length - 1} moves, at most ${maxY}.`,
  });
  const line = (x1, y1, x2, y2, cls) => h('svg:line', { x1, y1, x2, y2, class: cls });
  const text = (tx, ty, s, anchor = 'middle') => {
    const t = h('svg:text', { x: tx, y: ty, 'text-anchor': anchor });
    t.textContent = s;
    return t;
  };
  for (const frac of [0.25, 0.5, 0.75, 1]) svg.append(line(L, y(maxY * frac), W - R, y(maxY * frac), 'gridline'));
  svg.append(line(L, T, L, H - B, 'axis'), line(L, H - B, W - R, H - B, 'axis'));
  for (const k of restarts) svg.append(line(x(k), T, x(k), H - B, 'restart'));
  svg.append(h('svg:polyline', { points: pts.join(' '), class: 'line' }));
  svg.append(
    text(L - 6, y(0) + 4, '0', 'end'),
    text(L - 6, y(maxY) + 4, fmt(maxY), 'end'),
    text(L, H - 8, '0', 'start'),
    text(W - R, H - 8, `${fmt(trace.length - 1)} moves`, 'end'),
    text((L + W - R) / 2, H - 8, 'moves →'),
  );
  const yl = text(12, (T + H - B) / 2, 'conflicts');
  yl.setAttribute('transform', `rotate(-90 12 ${(T + H - B) / 2})`);
  svg.append(yl);
  return svg;
}

export function mount(root) {
  // ==== the board ====
  let n = 8;
  let queens = new Array(n).fill(-1);
  let analyzeSeq = 0; // answers to an older board are dropped
  const board = new Board({ label: 'Chess board: place queens', interactive: true, onToggle: (r, c) => toggle(r, c) });
  const nInput = number(8, 1, DRAW_MAX);
  const nField = field('n (board size)', nInput, { api: 'n', hint: `${range(1, DRAW_MAX)} on this board` });
  nInput.addEventListener('change', () => {
    const v = parseInt(nInput.value, 10);
    if (!Number.isInteger(v) || v < 1 || v > DRAW_MAX) {
      setStatus(boardStatus, 'error', `Choose n from 1 to ${DRAW_MAX} for the board (larger boards: min-conflicts below).`);
      return;
    }
    n = v;
    queens = new Array(n).fill(-1);
    analyze();
  });
  const clearBtn = button('Empty board', () => {
    queens = new Array(n).fill(-1);
    analyze();
  });
  const firstBtn = button('First solution', () => first(), 'primary');
  const completeBtn = button('Complete from here', () => complete());
  const countHereBtn = button('Count completions', () => countCompletions());
  const boardCancel = button('Cancel', null, 'danger');
  const boardStatus = statusLine();
  const analysis = h('dl', { class: 'summary-list' });
  const boardTask = new Task({
    status: boardStatus,
    buttons: [firstBtn, completeBtn, countHereBtn],
    cancel: boardCancel,
    onError: (e) => e.kind === 'problem' && (showProblem(boardCard, e.problem, boardStatus), true),
  });
  const quietCount = new Task({ status: boardStatus, silentCancel: true });
  const analyzeTask = new Task({ status: boardStatus, silentCancel: true, onError: (e) => e.kind === 'problem' && (showProblem(boardCard, e.problem, boardStatus), true) });
  const boardCard = h(
    'section',
    { class: 'card', 'aria-label': 'Board' },
    h('div', { class: 'row' }, nField, clearBtn),
    h('div', { class: 'row' }, firstBtn, completeBtn, countHereBtn, boardCancel),
    h('div', { class: 'board-wrap' }, board.el),
    boardStatus,
    analysis,
  );

  // ==== count all ====
  const cN = number(12, 1, Q.countMaxN);
  const cSym = checkbox('use the board’s symmetry', true);
  const cMethod = select(
    [
      ['auto', 'bitboard'],
      ['dlx', 'dlx (exact cover, slow past 12)'],
      ['algorithm-x', 'algorithm-x (exact cover)'],
    ],
    'auto',
  );
  const countBtn = button('Count', () => countAll(), 'primary');
  const countCancel = button('Cancel', null, 'danger');
  const countStatus = statusLine();
  const countProgress = h('div', { class: 'progress-line', role: 'group', 'aria-label': 'Progress' });
  const countOut = h('div');
  const countTask = new Task({
    status: countStatus,
    buttons: [countBtn],
    cancel: countCancel,
    onError: (e) => e.kind === 'problem' && (showProblem(countCard, e.problem, countStatus), true),
  });
  const countCard = card(
    'Count all solutions',
    h('div', { class: 'row' }, field('n', cN, { api: 'n', hint: range(1, Q.countMaxN) }), field('Method', cMethod, { api: 'method' })),
    h('div', { class: 'row' }, cSym),
    h('div', { class: 'row' }, countBtn, countCancel),
    countStatus,
    countProgress,
    countOut,
  );

  // ==== min-conflicts ====
  const mN = number(1000, Q.minConflictsMinN, Q.maxN);
  const mSeed = number(1, 0, 4294967295);
  const mTrace = checkbox(`plot the conflicts (n ≤ ${fmt(Q.traceMaxN)})`, true);
  const mBtn = button('Solve', () => minConflicts(), 'primary');
  const mCancel = button('Cancel', null, 'danger');
  const mStatus = statusLine();
  const mOut = h('div', { class: 'stack' });
  const mTask = new Task({
    status: mStatus,
    buttons: [mBtn],
    cancel: mCancel,
    onError: (e) => e.kind === 'problem' && (showProblem(mCard, e.problem, mStatus), true),
  });
  let mNField;
  const mCard = card(
    'Min-conflicts for large n',
    h('div', { class: 'row' }, (mNField = field('n', mN, { api: 'n', hint: range(Q.minConflictsMinN, Q.maxN) })), field('Seed', mSeed, { api: 'seed' })),
    h('div', { class: 'row' }, mTrace),
    h('div', { class: 'row' }, mBtn, mCancel),
    mStatus,
    mOut,
  );

  // ==== all solutions ====
  const PAGE = 12;
  const sN = number(8, 1, Q.solutionsMaxN);
  let sOffset = 0;
  const sPrev = button('◀ Previous', () => page(Math.max(0, sOffset - PAGE)));
  const sNext = button('Next ▶', () => page(sOffset + PAGE));
  const sShow = button('Show', () => page(0), 'primary');
  const sStatus = statusLine();
  const sOut = h('div', { class: 'qthumbs' });
  const sTask = new Task({
    status: sStatus,
    buttons: [sShow, sPrev, sNext],
    onError: (e) => e.kind === 'problem' && (showProblem(sCard, e.problem, sStatus), true),
  });
  const sCard = card(
    'Every solution, a page at a time',
    h(
      'div',
      { class: 'row' },
      field('n', sN, { api: 'n', hint: `${range(1, Q.solutionsMaxN)}; the total is known up to ${Q.solutionsTotalMaxN}` }),
      sShow,
    ),
    h('div', { class: 'row' }, sPrev, sNext),
    sStatus,
    sOut,
  );

  root.append(
    h('h1', null, 'N-Queens'),
    h(
      'p',
      { class: 'lead' },
      'Place n queens so that none attacks another. Click squares (or use the arrow keys and Space) to place queens: the green dots are the safe squares left in each row.',
    ),
    h('div', { class: 'layout' }, h('div', { class: 'stack' }, boardCard), h('div', { class: 'stack' }, countCard, mCard, sCard)),
  );

  // ==== behaviour ====

  const placed = () => queens.flatMap((c, r) => (c >= 0 ? [[r, c]] : []));

  function toggle(r, c) {
    queens[r] = queens[r] === c ? -1 : c;
    analyze();
  }

  async function analyze() {
    const seq = ++analyzeSeq;
    quietCount.cancel();
    board.draw(n, queens);
    analysis.replaceChildren();
    const res = await analyzeTask.run(null, (signal, hooks) =>
      api.post('v1/nqueens/analyze', { n, placed: placed() }, { signal, ...hooks }),
    );
    if (!res || seq !== analyzeSeq) return;
    const cands = new Map();
    const dead = new Set();
    for (const row of res.rows) {
      if (row.queen === undefined) {
        cands.set(row.row, new Set(row.candidates));
        if (!row.candidates.length) dead.add(row.row);
      }
    }
    const clashes = new Set();
    for (const cf of res.conflicts) {
      clashes.add(`${cf.a[0]},${cf.a[1]}`);
      clashes.add(`${cf.b[0]},${cf.b[1]}`);
    }
    board.draw(n, queens, { candidates: cands, clashes, dead });
    const items = [
      ['queens placed', `${res.placed} of ${n}`],
      ['attacking pairs', fmt(res.conflicts_total)],
      ['dead rows', dead.size ? [...dead].map((r) => r + 1).join(', ') : 'none'],
      ['next row to fill', res.next_row === null || res.next_row === undefined ? '—' : res.next_row + 1],
    ];
    analysis.replaceChildren(...items.flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
    let verdict;
    if (res.conflicts_total === 1) verdict = ['error', 'Two queens attack each other (red).'];
    else if (res.conflicts_total) verdict = ['error', `${res.conflicts_total} pairs of queens attack each other (red).`];
    else if (res.placed === n) verdict = ['ok', `Solved: ${n} queens, none attacked.`];
    else if (dead.size) verdict = ['error', `Dead end: row ${[...dead][0] + 1} has no safe square left.`];
    else verdict = ['', `${n - res.placed} queen${n - res.placed === 1 ? '' : 's'} to go.`];
    setStatus(boardStatus, ...verdict);
    if (!res.conflicts_total && !dead.size && res.placed < n && n <= AUTO_COUNT_MAX) countCompletions(true);
  }

  async function countCompletions(quiet) {
    if (n > 27) {
      setStatus(boardStatus, 'warn', 'Completions can be counted up to n = 27.');
      return;
    }
    const seq = analyzeSeq;
    const res = await (quiet ? quietCount : boardTask).run(quiet ? null : 'Counting completions…', (signal, hooks) =>
      api.post('v1/nqueens/count', { n, placed: placed() }, { signal, ...hooks, job: true }),
    );
    if (!res || seq !== analyzeSeq) return;
    const dd = h('dd', { class: 'completions' }, res.status === 'complete' ? fmt(res.count) : res.status);
    analysis.append(h('dt', null, 'completions'), dd);
    if (!quiet) setStatus(boardStatus, 'ok', `${fmt(res.count)} way${res.count === 1 ? '' : 's'} to complete this board.`);
  }

  async function first() {
    const res = await boardTask.run('Searching…', (signal, hooks) =>
      api.get(`v1/nqueens/solve?n=${n}`, { signal, ...hooks, job: true }),
    );
    if (!res) return;
    if (res.status !== 'solved') {
      queens = new Array(n).fill(-1);
      analyze();
      setStatus(boardStatus, 'warn', res.status === 'unsolvable' ? `There is no solution for n = ${n}.` : res.status);
      return;
    }
    queens = res.queens.slice();
    await analyze();
    setStatus(boardStatus, 'ok', `The first solution ${howFound(res.stats || {})}.`);
  }

  // "by backtracking (1,234 nodes, 0.5 ms)": the method and the work its
  // statistics report (min-conflicts counts moves, not nodes).
  function howFound(st) {
    const work = [];
    if (st.nodes !== undefined) work.push(plural(st.nodes, 'node'));
    if (st.steps !== undefined) work.push(plural(st.steps, 'move'));
    if (st.elapsed_ms !== undefined) work.push(`${fmt(st.elapsed_ms)} ms`);
    const method = st.method === 'minconflicts' ? 'min-conflicts' : st.method || 'backtracking';
    return `found by ${method}${work.length ? ` (${work.join(', ')})` : ''}`;
  }

  async function complete() {
    const res = await boardTask.run('Completing…', (signal, hooks) =>
      api.post('v1/nqueens/solve', { n, placed: placed(), method: 'auto' }, { signal, ...hooks, job: true }),
    );
    if (!res) return;
    if (res.status !== 'solved') {
      setStatus(boardStatus, 'warn', res.status === 'unsolvable' ? 'No solution extends these queens.' : `Stopped: ${res.status}.`);
      return;
    }
    queens = res.queens.slice();
    await analyze();
    setStatus(boardStatus, 'ok', `Completed with ${res.stats.method}.`);
  }

  async function countAll() {
    countOut.replaceChildren();
    countProgress.replaceChildren();
    const q = new URLSearchParams({ n: cN.value, symmetry: String(cSym.box.checked) });
    if (cMethod.value !== 'auto') q.set('method', cMethod.value);
    const res = await countTask.run(`Counting the solutions for n = ${cN.value}…`, (signal, hooks) =>
      api.get(`v1/nqueens/count?${q}`, {
        signal,
        ...hooks,
        job: true,
        onProgress: (p) => showProgress(countProgress, p),
      }),
    );
    countProgress.replaceChildren();
    if (!res) return;
    if (res.status === 'complete') {
      countOut.append(
        h('p', null, h('span', { class: 'big-number', 'data-testid': 'count' }, fmt(res.count)), ` solutions for n = ${res.n}`),
      );
      setStatus(countStatus, 'ok', 'Counted.');
    } else setStatus(countStatus, 'warn', `Stopped (${res.status}) before the count was complete.`);
    countOut.append(statsTable('Statistics', res.stats));
  }

  async function minConflicts() {
    mOut.replaceChildren();
    clearErrors(mCard);
    const size = parseInt(mN.value, 10);
    if (!Number.isInteger(size) || size < Q.minConflictsMinN || size > Q.maxN) {
      // the page's own check, in the same words as the field's hint
      setFieldError(mNField, `n must be from ${range(Q.minConflictsMinN, Q.maxN)} for min-conflicts.`);
      return;
    }
    const body = { n: size, method: 'minconflicts', seed: +mSeed.value };
    if (mTrace.box.checked && size <= 10000) body.trace = true;
    if (size > DRAW_MAX) body.output = 'summary';
    const res = await mTask.run(`Repairing a board of ${fmt(size)} queens…`, (signal, hooks) =>
      api.post('v1/nqueens/solve', body, { signal, ...hooks, job: true }),
    );
    if (!res) return;
    const st = res.stats || {};
    setStatus(
      mStatus,
      res.status === 'solved' ? 'ok' : 'warn',
      res.status === 'solved'
        ? `Solved ${fmt(res.n)} queens in ${fmt(st.steps)} moves (${fmt(st.elapsed_ms)} ms)${res.verified ? ', verified by the server' : ''}.`
        : `Stopped: ${res.status}.`,
    );
    if (res.trace && res.trace.length) {
      mOut.append(h('figure', { class: 'plotfig' }, plotTrace(res.trace, res.trace_restarts || []), h('figcaption', { class: 'muted small' }, 'Attacking pairs after each move; dashed lines mark restarts.')));
    }
    if (res.queens && res.n <= DRAW_MAX) {
      const b = new Board({});
      b.draw(res.n, res.queens);
      mOut.append(h('div', { class: 'board-wrap' }, b.el));
    } else if (res.status === 'solved') {
      mOut.append(h('p', { class: 'muted small' }, `A board of ${fmt(res.n)} queens is not drawn (boards up to ${DRAW_MAX} are).`));
    }
    mOut.append(statsTable('Statistics', { n: res.n, status: res.status, verified: res.verified, ...st }));
  }

  async function page(offset) {
    const size = parseInt(sN.value, 10);
    const res = await sTask.run('Loading solutions…', (signal, hooks) =>
      api.get(`v1/nqueens/solutions?n=${size}&offset=${offset}&limit=${PAGE}`, { signal, ...hooks }),
    );
    if (!res) return;
    sOffset = offset;
    sOut.replaceChildren(
      ...res.solutions.map((sol, k) => {
        const b = new Board({});
        b.draw(size, sol);
        const btn = h('button', { type: 'button', class: 'qthumb', 'aria-pressed': 'false' }, b.el, `#${offset + k + 1}`);
        btn.setAttribute('aria-label', `Solution ${offset + k + 1}: show it on the board`);
        btn.addEventListener('click', () => {
          for (const x of sOut.querySelectorAll('.qthumb')) x.setAttribute('aria-pressed', 'false');
          btn.setAttribute('aria-pressed', 'true');
          n = size;
          nInput.value = String(size);
          queens = sol.slice();
          analyze();
        });
        return btn;
      }),
    );
    const total = res.total !== undefined ? ` of ${fmt(res.total)}` : '';
    const stopped = res.status === 'timeout' ? ' The search stopped at the deadline: the next page may hold more.' : '';
    setStatus(
      sStatus,
      stopped ? 'warn' : '',
      res.returned
        ? `Solutions ${offset + 1}–${offset + res.returned}${total}.${stopped}`
        : stopped
          ? `No solution found before the deadline for n = ${size}.`
          : `No solutions${offset ? ' past this point' : ` for n = ${size}`}.`,
    );
    sPrev.disabled = offset === 0;
    sNext.disabled = res.next_offset === undefined;
  }

  analyze();
  sPrev.disabled = sNext.disabled = true;
  // the board's analysis may have failed while the server was away
  return { reconnected: () => analyze() };
}
