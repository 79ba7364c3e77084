// cover.js -- the exact-cover page: an editor for items and options
// (Knuth's form: every primary item covered exactly once, secondary items
// at most once), and the pentomino 6x10 example, whose solutions are drawn
// as a coloured tiling.  Any problem whose items include cells named
// r<row>c<col> is drawn that way: each chosen option is one piece.

import * as api from './api.js';
import {
  h, field, select, number, button, card, statusLine, setStatus, statsTable, showProblem, setFieldError, clearErrors, Task, fmt,
} from './ui.js';
import { LIMITS, range } from './limits.js';

const KNUTH = {
  items: 'A B C D E F G',
  secondary: '',
  options: 'C E F\nA D G\nB C F\nA D\nB G\nD E G',
};

// The twelve pentominoes, as cells of one orientation.
const PENTOMINOES = {
  F: [[0, 1], [0, 2], [1, 0], [1, 1], [2, 1]],
  I: [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]],
  L: [[0, 0], [1, 0], [2, 0], [3, 0], [3, 1]],
  N: [[0, 1], [1, 1], [2, 0], [2, 1], [3, 0]],
  P: [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]],
  T: [[0, 0], [0, 1], [0, 2], [1, 1], [2, 1]],
  U: [[0, 0], [0, 2], [1, 0], [1, 1], [1, 2]],
  V: [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]],
  W: [[0, 0], [1, 0], [1, 1], [2, 1], [2, 2]],
  X: [[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]],
  Y: [[0, 1], [1, 0], [1, 1], [2, 1], [3, 1]],
  Z: [[0, 0], [0, 1], [1, 1], [2, 1], [2, 2]],
};

// Every placement of every piece on a rows x cols board: items are the 12
// piece names and the cells r<r>c<c>; each option is a piece and its cells.
export function pentominoProblem(rows = 6, cols = 10) {
  const options = [];
  for (const [name, cells] of Object.entries(PENTOMINOES)) {
    const seen = new Set();
    let shape = cells;
    for (let flip = 0; flip < 2; flip++) {
      for (let rot = 0; rot < 4; rot++) {
        shape = shape.map(([r, c]) => [c, -r]); // rotate 90°
        const minR = Math.min(...shape.map((x) => x[0]));
        const minC = Math.min(...shape.map((x) => x[1]));
        const norm = shape.map(([r, c]) => [r - minR, c - minC]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        const key = JSON.stringify(norm);
        if (seen.has(key)) continue;
        seen.add(key);
        const hgt = Math.max(...norm.map((x) => x[0])) + 1;
        const wid = Math.max(...norm.map((x) => x[1])) + 1;
        for (let r = 0; r + hgt <= rows; r++) {
          for (let c = 0; c + wid <= cols; c++) options.push([name, ...norm.map(([a, b]) => `r${r + a}c${c + b}`)]);
        }
      }
      shape = shape.map(([r, c]) => [r, -c]); // mirror
    }
  }
  const items = Object.keys(PENTOMINOES);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) items.push(`r${r}c${c}`);
  return { items, options };
}

const words = (s) => s.split(/[\s,]+/).filter(Boolean);

// Draws a solution as a tiling when its items name cells r<r>c<c>.
export function tiling(options, chosen) {
  const cellRe = /^r(\d+)c(\d+)$/;
  const owner = new Map();
  let rows = 0;
  let cols = 0;
  const names = [];
  chosen.forEach((k, piece) => {
    const opt = options[k];
    const name = opt.find((x) => !cellRe.test(x)) || String(piece + 1);
    names.push(name);
    for (const it of opt) {
      const m = cellRe.exec(it);
      if (!m) continue;
      owner.set(`${m[1]},${m[2]}`, piece);
      rows = Math.max(rows, +m[1] + 1);
      cols = Math.max(cols, +m[2] + 1);
    }
  });
  if (!owner.size) return null;
  const el = h('div', { class: 'tiling', role: 'img', 'aria-label': `Tiling of a ${rows}×${cols} board by ${chosen.length} pieces` });
  el.style.setProperty('--cols', cols);
  const at = (r, c) => (owner.has(`${r},${c}`) ? owner.get(`${r},${c}`) : -1);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const p = at(r, c);
      let cls = `tile p${p >= 0 ? p % 12 : 'x'}`;
      if (at(r - 1, c) !== p) cls += ' eT';
      if (at(r, c + 1) !== p) cls += ' eR';
      if (at(r + 1, c) !== p) cls += ' eB';
      if (at(r, c - 1) !== p) cls += ' eL';
      el.append(h('div', { class: cls }, p >= 0 ? names[p] : ''));
    }
  }
  return el;
}

export function mount(root) {
  const itemsIn = h('input', { type: 'text', value: KNUTH.items, spellcheck: false });
  const secIn = h('input', { type: 'text', value: KNUTH.secondary, spellcheck: false, placeholder: 'optional' });
  const optsIn = h('textarea', { class: 'mono', rows: 8, spellcheck: false, value: KNUTH.options });
  const itemsField = field('Items (covered exactly once)', itemsIn, { api: 'items', grow: true });
  const secField = field('Secondary items (at most once)', secIn, { api: 'secondary', grow: true });
  const optsField = field('Options, one per line', optsIn, { api: 'options', hint: 'Each line lists the items one option covers.' });
  const exampleSel = select(
    [
      ['', 'Load an example…'],
      ['knuth', 'Knuth’s 7-item example'],
      ['pento', 'Pentominoes on a 6×10 board'],
    ],
    '',
  );
  exampleSel.addEventListener('change', () => {
    if (exampleSel.value === 'knuth') {
      itemsIn.value = KNUTH.items;
      secIn.value = KNUTH.secondary;
      optsIn.value = KNUTH.options;
    } else if (exampleSel.value === 'pento') {
      const p = pentominoProblem();
      itemsIn.value = p.items.join(' ');
      secIn.value = '';
      optsIn.value = p.options.map((o) => o.join(' ')).join('\n');
      setStatus(status, '', `${fmt(p.options.length)} options: every placement of the 12 pieces. Press Solve.`);
    }
    exampleSel.value = '';
    out.replaceChildren();
  });
  const methodSel = select(['dlx', 'algorithm-x'], 'dlx');
  const maxSol = number(1, 1, LIMITS.cover.maxSolutions);
  const threads = number(1, 1, 256);
  const solveBtn = button('Solve', () => solve(), 'primary');
  const cancelBtn = button('Cancel', null, 'danger');
  const status = statusLine();
  const out = h('div', { class: 'stack' });
  const editor = card(
    'Problem',
    h('div', { class: 'row' }, field('Examples', exampleSel)),
    h('div', { class: 'row' }, itemsField, secField),
    optsField,
    h(
      'div',
      { class: 'row' },
      field('Method', methodSel, { api: 'method' }),
      field('Max solutions', maxSol, { api: 'max_solutions', hint: range(1, LIMITS.cover.maxSolutions) }),
      field('Threads', threads, { api: 'threads' }),
    ),
    h('div', { class: 'row' }, solveBtn, cancelBtn),
    status,
  );
  const task = new Task({
    status,
    buttons: [solveBtn],
    cancel: cancelBtn,
    onError: (e) => {
      if (e.kind !== 'problem') return false;
      const lines = [];
      showProblem(editor, e.problem, status, (err) => {
        const m = /^options\[(\d+)\]/.exec(err.field || '');
        if (!m) return false;
        lines.push(`line ${+m[1] + 1}: ${err.detail}`);
        return true;
      });
      if (lines.length) setFieldError(optsField, lines.join('; '));
      return true;
    },
  });

  root.append(
    h('h1', null, 'Exact cover'),
    h(
      'p',
      { class: 'lead' },
      'Choose options so that every item is covered exactly once (secondary items at most once). Sudoku, N-Queens and tiling puzzles are all exact-cover problems; the server solves them with dancing links or plain Algorithm X.',
    ),
    h('div', { class: 'layout wide-side' }, h('div', { class: 'stack' }, editor), h('div', { class: 'stack' }, card('Solutions', out))),
  );
  out.append(h('p', { class: 'muted' }, 'Solve to see the chosen options here.'));

  let options = [];
  async function solve() {
    options = optsIn.value
      .split(/\r?\n/)
      .map(words)
      .filter((o) => o.length);
    const body = {
      items: words(itemsIn.value),
      options,
      method: methodSel.value,
      max_solutions: +maxSol.value,
      threads: +threads.value,
    };
    const sec = words(secIn.value);
    if (sec.length) body.secondary = sec;
    out.replaceChildren();
    clearErrors(editor); // an earlier error must not outlive a good solve
    const res = await task.run('Solving…', (signal, hooks) =>
      api.post('v1/exact-cover/solve', body, { signal, ...hooks, job: true }),
    );
    if (!res) return;
    const verdict = {
      solved: 'Solved.',
      multiple: `${fmt(res.solutions_found)} solutions found${res.complete ? ' (all of them)' : ''}.`,
      unsolvable: 'No way to cover every item exactly once.',
      timeout: 'Stopped at the deadline.',
    };
    setStatus(status, res.status === 'solved' || res.status === 'multiple' ? 'ok' : 'warn', verdict[res.status] || res.status);
    const sols = res.solutions || [];
    if (sols.length) {
      const pick = select(sols.map((_, k) => [String(k), `solution ${k + 1}`]), '0');
      const view = h('div', { class: 'stack' });
      const showSol = () => {
        const sol = sols[+pick.value];
        const tile = tiling(options, sol);
        view.replaceChildren(
          ...(tile ? [h('div', { class: 'board-wrap' }, tile)] : []),
          h(
            'ol',
            { class: 'sol-list', 'aria-label': 'Chosen options' },
            sol.map((k) => h('li', null, `option ${k + 1}: ${options[k].join(' ')}`)),
          ),
        );
      };
      pick.addEventListener('change', showSol);
      if (sols.length > 1) out.append(field('Show', pick));
      out.append(view);
      showSol();
    }
    out.append(statsTable('Statistics', { status: res.status, solutions_found: res.solutions_found, complete: res.complete, ...res.stats }));
  }
}
