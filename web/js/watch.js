// watch.js -- "Watch a search": the solver's trace played step by step on
// the board (the propagation viewer and the solution viewer of the original
// assignment), with play, pause, step, seek and speed.
//
// The trace (POST /v1/sudoku/solve with trace: true) is a list of steps:
//   guess(c,v)      the search tries v in c
//   assign(c,v)     inference decides c = v
//   eliminate(c,v)  inference removes candidate v from c
//   backtrack(c,v)  the guess (c,v) failed or is done: undo every step back
//                   to and including the latest guess(c,v)
// Replay keeps, for each applied step, the cells it changed and what they
// held before, so stepping back is exact and a backtrack replays the undo
// of its range; seeking is stepping.  Candidates shown are the step's
// candidate masks (eliminations) intersected with what the placed values
// still allow (backtracking and mrv eliminate nothing explicitly).

import * as api from './api.js';
import {
  h, field, select, button, card, statusLine, setStatus, Task, showProblem, setFieldError, fmt, nextId, icon,
} from './ui.js';
import { Grid } from './grid.js';
import { SIZES, boxFor, sizeLabel, toGridString, fromGrid, symbolOf, EXAMPLES } from './formats.js';
import { LEVELS } from './sudoku-api.js';

const KIND = { none: 0, given: 1, assign: 2, guess: 3 };

export class Replay {
  constructor(n, rows, cols, values, trace) {
    this.n = n;
    this.rows = rows;
    this.cols = cols;
    this.trace = trace;
    const nn = n * n;
    this.val = Int8Array.from(values);
    this.kind = new Uint8Array(nn);
    this.mask = new Int32Array(nn);
    this.peers = [];
    for (let i = 0; i < nn; i++) {
      this.peers.push(this.peersOf(i));
      if (values[i]) this.kind[i] = KIND.given;
    }
    const full = n >= 31 ? -1 : (1 << n) - 1;
    for (let i = 0; i < nn; i++) this.mask[i] = values[i] ? 0 : full & this.free(i);
    this.pos = 0;
    this.logs = [];
    this.guesses = [];
  }

  peersOf(i) {
    const { n, rows, cols } = this;
    const r = Math.floor(i / n);
    const c = i % n;
    const set = new Set();
    for (let k = 0; k < n; k++) {
      set.add(r * n + k);
      set.add(k * n + c);
    }
    const br = r - (r % rows);
    const bc = c - (c % cols);
    for (let a = 0; a < rows; a++) for (let b = 0; b < cols; b++) set.add((br + a) * n + bc + b);
    set.delete(i);
    return Int32Array.from(set);
  }

  // Candidate bits the placed peers leave to cell i.
  free(i) {
    let used = 0;
    for (const p of this.peers[i]) if (this.val[p]) used |= 1 << (this.val[p] - 1);
    return ~used;
  }

  shown(i) {
    return this.val[i] ? 0 : this.mask[i] & this.free(i);
  }

  cellOf(s) {
    return s.row * this.n + s.col;
  }

  // Changes cell i, remembering its old state in `log` (first touch only).
  put(log, i, v, m, k) {
    if (!log.seen.has(i)) {
      log.seen.add(i);
      log.cells.push(i, this.val[i], this.mask[i], this.kind[i]);
    }
    this.val[i] = v;
    this.mask[i] = m;
    this.kind[i] = k;
  }

  forward() {
    if (this.pos >= this.trace.length) return false;
    const s = this.trace[this.pos];
    const i = this.cellOf(s);
    const bit = 1 << (s.value - 1);
    const log = { cells: [], seen: new Set(), popped: null };
    switch (s.step) {
      case 'guess':
        this.put(log, i, s.value, this.mask[i], KIND.guess);
        this.guesses.push(this.pos);
        break;
      case 'assign':
        this.put(log, i, s.value, this.mask[i], KIND.assign);
        break;
      case 'eliminate':
        this.put(log, i, this.val[i], this.mask[i] & ~bit, this.kind[i]);
        break;
      case 'backtrack': {
        let g = this.guesses.length - 1;
        while (g >= 0) {
          const t = this.trace[this.guesses[g]];
          if (t.row === s.row && t.col === s.col && t.value === s.value) break;
          g--;
        }
        if (g < 0) break; // a log step (best-first): nothing to undo
        const from = this.guesses[g];
        log.popped = this.guesses.splice(g);
        // undo steps pos-1 .. from, newest first
        for (let j = this.pos - 1; j >= from; j--) {
          const cells = this.logs[j].cells;
          for (let k = cells.length - 4; k >= 0; k -= 4) {
            this.put(log, cells[k], cells[k + 1], cells[k + 2], cells[k + 3]);
          }
        }
        break;
      }
      default:
        break;
    }
    this.logs.push(log);
    this.pos++;
    return true;
  }

  back() {
    if (this.pos === 0) return false;
    this.pos--;
    const log = this.logs.pop();
    const cells = log.cells;
    for (let k = cells.length - 4; k >= 0; k -= 4) {
      this.val[cells[k]] = cells[k + 1];
      this.mask[cells[k]] = cells[k + 2];
      this.kind[cells[k]] = cells[k + 3];
    }
    const s = this.trace[this.pos];
    if (s.step === 'guess') this.guesses.pop();
    if (log.popped) this.guesses.push(...log.popped);
    return true;
  }

  seek(p) {
    p = Math.max(0, Math.min(this.trace.length, p));
    while (this.pos < p) this.forward();
    while (this.pos > p) this.back();
  }
}

const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 250, 1000];

export function mount(root) {
  let size = boxFor(9);
  let replay = null;
  let timer = null;
  let puzzleValues = null;
  const rendered = [];

  const grid = new Grid({
    label: 'Puzzle to watch',
    onInput: (i, v) => {
      if (replay) stopReplay();
      grid.set(i, v, v > 0);
    },
  });

  const sizeSel = select(SIZES.map((s) => [String(s.n), sizeLabel(s)]), '9');
  sizeSel.addEventListener('change', () => {
    stopReplay();
    size = boxFor(+sizeSel.value);
    grid.resize(size.n, size.rows, size.cols);
  });
  const exampleSel = select(EXAMPLES, '');
  exampleSel.addEventListener('change', () => {
    if (!exampleSel.value) return;
    loadString(exampleSel.value);
    exampleSel.value = '';
  });
  const methodSel = select(
    [
      ['propagation', 'propagation (singles, eliminations)'],
      ['mrv', 'mrv (fewest candidates first)'],
      ['backtracking', 'backtracking (plain)'],
      ['best-first', 'best-first (a log, not a replay)'],
    ],
    'propagation',
  );
  const levelSel = select(LEVELS, 'hidden-singles');
  const levelField = field('Propagation', levelSel, { api: 'propagation' });
  methodSel.addEventListener('change', () => {
    levelField.hidden = !['propagation', 'best-first'].includes(methodSel.value);
  });
  const traceBtn = button('Trace the search', () => load(), 'primary');
  const editBtn = button('Edit the puzzle', () => stopReplay());
  const status = statusLine();

  // player
  const startBtn = button(icon('start'), () => seek(0));
  const backBtn = button([icon('back'), 'Back'], () => step(-1));
  const playBtn = button([icon('play'), 'Play'], () => (timer ? pause() : play()), 'primary');
  const fwdBtn = button(['Step', icon('forward')], () => step(1));
  const endBtn = button(icon('end'), () => seek(replay ? replay.trace.length : 0));
  startBtn.setAttribute('aria-label', 'Go to the start');
  endBtn.setAttribute('aria-label', 'Go to the end');
  backBtn.setAttribute('aria-label', 'Step back');
  fwdBtn.setAttribute('aria-label', 'Step forward');
  const speedSel = select(SPEEDS.map((s) => [String(s), `${s} steps/s`]), '10');
  speedSel.addEventListener('change', () => {
    if (timer) {
      pause();
      play();
    }
  });
  const scrub = h('input', { type: 'range', min: 0, max: 0, value: 0, step: 1 });
  scrub.addEventListener('input', () => seek(+scrub.value));
  const now = h('p', { class: 'now', 'aria-live': 'polite' });
  const counts = h('p', { class: 'muted small' });
  const log = h('ol', { class: 'steplog', 'aria-label': 'Steps around the current one' });
  const playerButtons = [startBtn, backBtn, playBtn, fwdBtn, endBtn, speedSel, scrub];

  const boardError = h('p', { class: 'field-error', hidden: true, id: nextId('e') });
  const boardField = h('div', { class: 'field board-wrap', dataset: { api: 'grid' } }, grid.el, boardError);
  boardField.control = grid.el;
  boardField.error = boardError;
  grid.el.setAttribute('aria-describedby', boardError.id);

  const player = card(
    'Player',
    h('div', { class: 'player', role: 'group', 'aria-label': 'Playback' }, startBtn, backBtn, playBtn, fwdBtn, endBtn),
    h('div', { class: 'row' }, field('Speed', speedSel), field('Position', scrub, { hint: 'drag, or use the arrow keys', grow: true })),
    now,
    counts,
    log,
  );
  const task = new Task({
    status,
    buttons: [traceBtn],
    onError: (e) => {
      if (e.kind !== 'problem') return false;
      showProblem(root, e.problem, status, (err) => {
        if (err.field === 'grid' || /^grid\[/.test(err.field || '')) {
          setFieldError(boardField, `${err.field}: ${err.detail}`);
          return true;
        }
        return false;
      });
      return true;
    },
  });

  root.append(
    h('h1', null, 'Watch a search'),
    h(
      'p',
      { class: 'lead' },
      'Ask the server for the trace of its search and play it back: placements, eliminations, guesses and backtracks, with the candidates as pencil marks.',
    ),
    h(
      'div',
      { class: 'layout' },
      h(
        'div',
        { class: 'stack' },
        h(
          'section',
          { class: 'card', 'aria-label': 'Board' },
          h('div', { class: 'row' }, field('Size', sizeSel), field('Examples', exampleSel)),
          h('div', { class: 'row' }),
          boardField,
          h(
            'p',
            { class: 'legend', 'aria-hidden': 'true' },
            h('span', { class: 'lg-given' }, 'given'),
            h('span', { class: 'lg-assign' }, 'inferred'),
            h('span', { class: 'lg-guess' }, 'guessed'),
            h('span', { class: 'lg-elim' }, 'eliminated'),
          ),
        ),
      ),
      h(
        'div',
        { class: 'stack' },
        card(
          'Search',
          h('div', { class: 'row' }, field('Method', methodSel, { api: 'method' }), levelField),
          h('div', { class: 'row' }, traceBtn, editBtn),
          status,
        ),
        player,
      ),
    ),
  );
  grid.resize(size.n, size.rows, size.cols);
  loadString(EXAMPLES[3][0]);
  setPlayer(false);

  function loadString(g) {
    stopReplay();
    const n = Math.round(Math.sqrt(g.length));
    size = boxFor(n);
    sizeSel.value = String(n);
    grid.resize(size.n, size.rows, size.cols);
    grid.load(fromGrid(g, n));
  }

  function setPlayer(on) {
    for (const b of playerButtons) b.disabled = !on;
    editBtn.disabled = !on;
    if (!on) {
      now.textContent = 'Trace a search to play it here.';
      counts.textContent = '';
      log.replaceChildren();
    }
  }

  function stopReplay() {
    pause();
    if (replay && puzzleValues) {
      grid.load(puzzleValues);
    }
    replay = null;
    setPlayer(false);
    grid.editable = true;
    setStatus(status, '', '');
  }

  async function load() {
    setFieldError(boardField, '');
    pause();
    const values = replay && puzzleValues ? puzzleValues : grid.values.slice();
    const body = {
      grid: toGridString(values),
      box: { rows: size.rows, cols: size.cols },
      method: methodSel.value,
      trace: true,
    };
    if (!levelField.hidden) body.propagation = levelSel.value;
    const res = await task.run('Searching and recording…', (signal, hooks) =>
      api.post('v1/sudoku/solve', body, { signal, ...hooks, job: true }),
    );
    if (!res) return;
    puzzleValues = values;
    grid.load(values);
    grid.editable = false;
    replay = new Replay(size.n, size.rows, size.cols, values, res.trace || []);
    rendered.length = 0;
    scrub.max = replay.trace.length;
    setPlayer(true);
    const t = replay.trace;
    const tally = (k) => t.filter((s) => s.step === k).length;
    counts.textContent = `${fmt(t.length)} steps: ${fmt(tally('guess'))} guesses, ${fmt(tally('backtrack'))} backtracks, ${fmt(tally('assign'))} placements by inference, ${fmt(tally('eliminate'))} eliminations${res.trace_truncated ? ' (the trace stops at the server’s limit of 10,000 steps)' : ''}.`;
    const verdict = { solved: 'solved', multiple: 'solved (not unique)', unsolvable: 'no solution', timeout: 'stopped at the deadline' };
    setStatus(
      status,
      res.status === 'solved' || res.status === 'multiple' ? 'ok' : 'warn',
      `Recorded: ${verdict[res.status] || res.status}, ${fmt(res.stats.nodes)} nodes in ${fmt(res.stats.elapsed_ms)} ms. Press Play or step.`,
    );
    if (methodSel.value === 'best-first') {
      setStatus(status, 'warn', 'best-first jumps between queued grids, which its trace does not record: the replay is a log of its work, not a board sequence.');
    }
    draw();
    playBtn.focus();
  }

  function step(d) {
    if (!replay) return;
    pause();
    if (d > 0) replay.forward();
    else replay.back();
    draw();
  }

  function seek(p) {
    if (!replay) return;
    replay.seek(p);
    draw();
  }

  function play() {
    if (!replay) return;
    if (replay.pos >= replay.trace.length) replay.seek(0);
    const sps = +speedSel.value;
    const perTick = Math.max(1, Math.round(sps / 50));
    const every = Math.max(20, 1000 / sps);
    playBtn.replaceChildren(icon('pause'), 'Pause');
    timer = setInterval(() => {
      for (let k = 0; k < perTick; k++) {
        if (!replay.forward()) {
          pause();
          break;
        }
      }
      draw();
    }, every);
  }

  function pause() {
    if (timer) clearInterval(timer);
    timer = null;
    playBtn.replaceChildren(icon('play'), 'Play');
  }

  // Renders the cells whose display changed, the current step and the log.
  function draw() {
    const r = replay;
    const nn = size.n * size.n;
    const cur = r.pos > 0 ? r.trace[r.pos - 1] : null;
    const curCell = cur ? r.cellOf(cur) : -1;
    for (let i = 0; i < nn; i++) {
      const kind = r.kind[i];
      const shown = r.shown(i);
      const elim = cur && cur.step === 'eliminate' && i === curCell ? cur.value : 0;
      const mark = i === curCell ? cur.step : '';
      const sig = `${r.val[i]}|${shown}|${kind}|${mark}|${elim}`;
      if (rendered[i] === sig) continue;
      rendered[i] = sig;
      grid.values[i] = r.val[i];
      grid.given[i] = kind === KIND.given;
      grid.pencil[i] = shown;
      const m = grid.marks[i];
      m.clear();
      if (kind === KIND.assign) m.add('solved');
      if (kind === KIND.guess) m.add('guessed');
      if (mark) m.add('step');
      grid.candMarks.delete(i);
      if (elim) grid.candMarks.set(i, new Map([[elim, 'x']]));
      grid.render(i);
    }
    scrub.value = r.pos;
    scrub.setAttribute('aria-valuetext', `step ${r.pos} of ${r.trace.length}`);
    now.textContent = cur
      ? `Step ${fmt(r.pos)} of ${fmt(r.trace.length)}: ${describe(cur)}`
      : `Start: the givens placed, ${fmt(r.trace.length)} steps to go.`;
    const from = Math.max(0, r.pos - 6);
    const to = Math.min(r.trace.length, from + 12);
    const items = [];
    for (let k = from; k < to; k++) {
      const s = r.trace[k];
      items.push(
        h(
          'li',
          { class: k === r.pos - 1 ? 'cur' : '', 'aria-current': k === r.pos - 1 ? 'step' : null },
          h('span', { class: 'no' }, k + 1),
          h('span', { class: `k-${s.step}` }, s.step),
          h('span', null, `r${s.row + 1}c${s.col + 1} ${symbolOf(s.value)}`),
        ),
      );
    }
    log.replaceChildren(...items);
  }

  function describe(s) {
    const at = `row ${s.row + 1}, column ${s.col + 1}`;
    const v = symbolOf(s.value);
    switch (s.step) {
      case 'guess':
        return `guess ${v} at ${at}`;
      case 'assign':
        return `${v} is forced at ${at}`;
      case 'eliminate':
        return `${v} is no longer possible at ${at}`;
      case 'backtrack':
        return `${v} at ${at} failed or is done: undo back to that guess`;
      default:
        return s.step;
    }
  }
}
