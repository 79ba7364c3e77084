// killer.js -- the Killer Sudoku page: draw cages (select cells, type the
// sum), import them as JSON or the course's text format, generate one, and
// solve by either method, Killer-X included.
//
// Selecting: click or Space/Enter on a cell toggles it; the sum field's
// Enter (or "Add cage") makes the selection a cage.  Clicking a caged cell
// with nothing selected picks its cage, which Delete removes.

import * as api from './api.js';
import {
  h, field, select, number, button, card, statusLine, setStatus, statsTable, showProblem,
  setFieldError, clearErrors, Task, checkbox, download, nextId,
} from './ui.js';
import { Grid } from './grid.js';
import { boxFor, sizeLabel, fromGrid, parseKiller, formatKillerText } from './formats.js';
import { showProgress } from './sudoku.js';

const KSIZES = [4, 6, 8, 9, 12, 16].map(boxFor);

// A 4x4 with one solution: 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1.
const EXAMPLE4 = {
  size: 4,
  cages: [
    { sum: 7, cells: [[0, 0], [0, 1], [1, 1]] },
    { sum: 7, cells: [[0, 2], [0, 3]] },
    { sum: 5, cells: [[1, 0], [2, 0]] },
    { sum: 3, cells: [[1, 2], [1, 3]] },
    { sum: 7, cells: [[2, 1], [2, 2], [3, 2]] },
    { sum: 4, cells: [[2, 3], [3, 3]] },
    { sum: 7, cells: [[3, 0], [3, 1]] },
  ],
};

export function mount(root) {
  let size = boxFor(9);
  let cages = [];
  const selected = new Set();
  let picked = -1; // a cage chosen for deletion

  const grid = new Grid({
    label: 'Killer grid: select cells for a cage',
    editable: false,
    selectable: true,
    onSelect: (i) => toggle(i),
  });

  const sizeSel = select(KSIZES.map((s) => [String(s.n), sizeLabel(s)]), '9');
  sizeSel.addEventListener('change', () => {
    size = boxFor(+sizeSel.value);
    cages = [];
    redraw(true);
  });
  const diag = checkbox('Killer-X (both diagonals hold every value once)', false);
  diag.box.addEventListener('change', () => redraw(false));
  const exampleBtn = button('4×4 example', () => {
    loadKiller(EXAMPLE4);
    setStatus(drawStatus, '', 'Example loaded: press Solve.');
  });

  const sumInput = number('', 1, 1000);
  sumInput.placeholder = 'sum';
  const sumField = field('Cage sum', sumInput, { api: 'sum', hint: 'then Enter' });
  sumInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      addCage();
    }
  });
  const addBtn = button('Add cage', () => addCage(), 'primary');
  const unselectBtn = button('Unselect', () => {
    selected.clear();
    redraw(false);
  });
  const delBtn = button('Delete cage', () => deleteCage(picked));
  delBtn.disabled = true;
  const clearBtn = button('Clear cages', () => {
    cages = [];
    redraw(true);
  });
  const drawStatus = statusLine();

  const cageList = h('ol', { class: 'cage-list', 'aria-label': 'Cages' });
  const cagesError = h('p', { class: 'field-error', hidden: true, id: nextId('e') });
  const cagesField = h('div', { class: 'field', dataset: { api: 'cages' } }, cageList, cagesError);
  cagesField.error = cagesError;
  cagesField.control = cageList;

  const boardError = h('p', { class: 'field-error', hidden: true, id: nextId('e') });
  const boardField = h('div', { class: 'field board-wrap', dataset: { api: 'grid' } }, grid.el, boardError);
  boardField.error = boardError;
  boardField.control = grid.el;
  grid.el.setAttribute('aria-describedby', boardError.id);

  // solve
  const methodSel = select(
    [
      ['auto', 'auto (backtracking on 4x4, else advanced)'],
      ['advanced', 'advanced (cage combinations, 45 rule)'],
      ['backtracking', 'backtracking'],
    ],
    'auto',
  );
  const maxSol = number(2, 1, 10000);
  const solveBtn = button('Solve', () => solve(), 'primary');
  const cancelBtn = button('Cancel', null, 'danger');
  const clearSol = button('Clear solution', () => {
    grid.load(new Array(size.n * size.n).fill(0));
    redraw(false);
  });
  const solveStatus = statusLine();
  const progressOut = h('div', { class: 'progress-line' });
  const solveOut = h('div');
  const solveTask = new Task({ status: solveStatus, buttons: [solveBtn], cancel: cancelBtn, onError: (e) => problem(e, solveStatus) });

  // generate
  const genSize = select([['4', '4×4'], ['6', '6×6'], ['9', '9×9']], '6');
  const cageMin = number(2, 1, 9);
  const cageMax = number(4, 1, 9);
  const genDiff = select(['easy', 'medium', 'hard', 'expert'], 'medium');
  const genBtn = button('Generate', () => generate());
  const genStatus = statusLine();
  const genTask = new Task({ status: genStatus, buttons: [genBtn], onError: (e) => problem(e, genStatus) });

  // import / export
  const importArea = h('textarea', {
    class: 'mono',
    rows: 5,
    spellcheck: false,
    placeholder: '{"size": 4, "cages": [{"sum": 3, "cells": [[0,0],[0,1]]}, …]}\nor the text format: size, symbols, cage count, then "sum r,c r,c …" per line',
  });
  const importField = field('Paste a killer (JSON or text)', importArea, { api: 'import' });
  const fileInput = h('input', { type: 'file', accept: '.json,.txt,application/json,text/plain' });
  fileInput.addEventListener('change', async () => {
    const f = fileInput.files[0];
    if (!f) return;
    importArea.value = await f.text();
    importNow();
    fileInput.value = '';
  });
  const loadBtn = button('Load', () => importNow());
  const asJson = button('As JSON', () => (importArea.value = JSON.stringify(request(), null, 0)));
  const asText = button('As text', () => (importArea.value = formatKillerText(size.n, cages)));
  const dl = button('Download', () => download('killer.json', JSON.stringify(request()) + '\n', 'application/json'));
  const importStatus = statusLine();

  root.append(
    h('h1', null, 'Killer Sudoku'),
    h(
      'p',
      { class: 'lead' },
      'Draw cages: select cells (click, or arrows and Space), type the sum, press Enter. The digits in a cage add up to its sum and never repeat.',
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
          h('div', { class: 'row' }, field('Size', sizeSel), exampleBtn),
          h('div', { class: 'row' }, diag),
          h('div', { class: 'row' }),
          boardField,
          h('div', { class: 'row' }, sumField, addBtn, unselectBtn, delBtn, clearBtn),
          drawStatus,
        ),
      ),
      h(
        'div',
        { class: 'stack' },
        card(
          'Solve',
          h(
            'div',
            { class: 'row' },
            field('Method', methodSel, { api: 'method' }),
            field('Max solutions', maxSol, { api: 'max_solutions', hint: '2 proves uniqueness' }),
          ),
          h('div', { class: 'row' }, solveBtn, cancelBtn, clearSol),
          solveStatus,
          progressOut,
          solveOut,
        ),
        card('Cages', cagesField),
        card(
          'Generate',
          h(
            'div',
            { class: 'row' },
            field('Size', genSize, { api: 'size' }),
            field('Smallest cage', cageMin, { api: 'cage_size' }),
            field('Largest cage', cageMax),
            field('Difficulty', genDiff, { api: 'difficulty' }),
          ),
          h('div', { class: 'row' }, genBtn),
          genStatus,
        ),
        card('Import and export', importField, h('div', { class: 'row' }, loadBtn, field('…or open a file', fileInput), asJson, asText, dl), importStatus),
      ),
    ),
  );
  redraw(true);

  // ==== behaviour ====

  function redraw(resize) {
    if (resize) {
      grid.resize(size.n, size.rows, size.cols);
      selected.clear();
      picked = -1;
    }
    grid.clearMarks('selected', 'cage-hl', 'cage-err', 'err');
    for (const i of selected) grid.marks[i].add('selected');
    if (picked >= 0 && cages[picked]) for (const [r, c] of cages[picked].cells) grid.marks[r * size.n + c].add('cage-hl');
    grid.setCages(cages, diag.box.checked);
    delBtn.disabled = picked < 0;
    const total = cages.reduce((s, c) => s + c.sum, 0);
    const covered = cages.reduce((s, c) => s + c.cells.length, 0);
    cageList.replaceChildren(
      ...cages.map((c, k) => {
        const del = button('Delete', () => deleteCage(k), 'mini');
        del.setAttribute('aria-label', `Delete cage ${k + 1}`);
        return h(
          'li',
          { dataset: { k } },
          h('span', { class: 'sum' }, `${k + 1}. ${c.sum}`),
          h('span', { class: 'cells' }, c.cells.map(([r, col]) => `r${r + 1}c${col + 1}`).join(' ')),
          del,
        );
      }),
    );
    const full = (size.n * size.n * (size.n + 1)) / 2;
    setFieldError(cagesField, '');
    cagesField.querySelector('.field-hint')?.remove();
    cagesField.append(
      h(
        'p',
        { class: 'field-hint' },
        `${cages.length} cages cover ${covered} of ${size.n * size.n} cells; their sums add up to ${total}${covered === size.n * size.n ? ` (a full grid needs ${full})` : ''}.`,
      ),
    );
  }

  function toggle(i) {
    const k = grid.cageOf ? grid.cageOf[i] : -1;
    if (k >= 0 && selected.size === 0) {
      picked = picked === k ? -1 : k;
      redraw(false);
      setStatus(drawStatus, '', picked >= 0 ? `Cage ${k + 1} (sum ${cages[k].sum}) picked: Delete cage removes it.` : '');
      return;
    }
    if (k >= 0) {
      setStatus(drawStatus, 'warn', 'That cell is already in a cage.');
      return;
    }
    picked = -1;
    if (selected.has(i)) selected.delete(i);
    else selected.add(i);
    redraw(false);
    setStatus(drawStatus, '', `${selected.size} cell${selected.size === 1 ? '' : 's'} selected.`);
  }

  function addCage() {
    setFieldError(sumField, '');
    const sum = parseInt(sumInput.value, 10);
    if (!selected.size) {
      setFieldError(sumField, 'Select the cage’s cells on the board first.');
      return;
    }
    if (!Number.isInteger(sum) || sum < 1) {
      setFieldError(sumField, 'Type the cage’s sum, a whole number.');
      sumInput.focus();
      return;
    }
    const cells = [...selected].sort((a, b) => a - b).map((i) => [Math.floor(i / size.n), i % size.n]);
    cages.push({ sum, cells });
    selected.clear();
    sumInput.value = '';
    redraw(false);
    setStatus(drawStatus, 'ok', `Cage ${cages.length} added (sum ${sum}, ${cells.length} cells).`);
    grid.focus();
  }

  function deleteCage(k) {
    if (k < 0 || !cages[k]) return;
    cages.splice(k, 1);
    picked = -1;
    redraw(false);
    setStatus(drawStatus, '', `Cage ${k + 1} deleted.`);
  }

  function request() {
    const body = { size: size.n, box: { rows: size.rows, cols: size.cols }, cages };
    if (diag.box.checked) body.diagonals = true;
    return body;
  }

  function loadKiller(k) {
    const s = KSIZES.find((x) => x.n === k.size) || boxFor(k.size);
    size = s;
    sizeSel.value = String(s.n);
    if (![...sizeSel.options].some((o) => o.value === String(s.n))) {
      sizeSel.append(h('option', { value: String(s.n) }, sizeLabel(s)));
      sizeSel.value = String(s.n);
    }
    cages = k.cages.map((c) => ({ sum: c.sum, cells: c.cells.map(([r, col]) => [r, col]) }));
    diag.box.checked = !!k.diagonals;
    solveOut.replaceChildren();
    redraw(true);
  }

  // Field errors: cages[k].sum and cages[k] mark the cage, cages[k].cells[j]
  // the cell, both also listed next to the cage list.
  function problem(e, status) {
    if (e.kind !== 'problem') return false;
    grid.clearMarks('cage-err', 'err');
    const msgs = [];
    showProblem(root, e.problem, status, (err) => {
      const f = err.field || '';
      let m = /^cages\[(\d+)\]\.cells\[(\d+)\]$/.exec(f);
      if (m && cages[+m[1]] && cages[+m[1]].cells[+m[2]]) {
        const [r, c] = cages[+m[1]].cells[+m[2]];
        if (r < size.n && c < size.n) grid.mark(r * size.n + c, 'err');
        msgs.push(`cage ${+m[1] + 1}: ${err.detail}`);
        return true;
      }
      m = /^cages\[(\d+)\]/.exec(f);
      if (m && cages[+m[1]]) {
        for (const [r, c] of cages[+m[1]].cells) grid.mark(r * size.n + c, 'cage-err');
        msgs.push(`cage ${+m[1] + 1}: ${err.detail}`);
        return true;
      }
      if (f === 'cages') {
        msgs.push(err.detail);
        return true;
      }
      return false;
    });
    if (msgs.length) setFieldError(cagesField, msgs.join('; '));
    return true;
  }

  async function solve() {
    solveOut.replaceChildren();
    clearErrors(root);
    const body = { ...request(), method: methodSel.value, max_solutions: +maxSol.value };
    const res = await solveTask.run('Solving…', (signal, hooks) =>
      api.post('v1/killer/solve', body, { signal, ...hooks, job: true, onProgress: (p) => showProgress(progressOut, p) }),
    );
    progressOut.replaceChildren();
    if (!res) return;
    if (res.solution) {
      const values = fromGrid(res.solution, size.n);
      grid.load(values, new Array(values.length).fill(false));
      for (let i = 0; i < values.length; i++) grid.marks[i].add('solved');
      redraw(false);
    }
    const words = {
      solved: res.unique ? 'Solved: the solution is unique.' : 'Solved.',
      multiple: `Solved, but not unique: ${res.solutions_found} solutions found.`,
      unsolvable: 'No solution: these cages allow none.',
      timeout: 'Stopped at the deadline before the search ended.',
    };
    setStatus(solveStatus, res.status === 'solved' ? 'ok' : 'warn', words[res.status] || res.status);
    solveOut.append(statsTable('Statistics', { status: res.status, solutions_found: res.solutions_found, unique: res.unique, ...res.stats }));
  }

  async function generate() {
    const body = {
      size: +genSize.value,
      cage_size: { min: +cageMin.value, max: +cageMax.value },
      difficulty: genDiff.value,
      count: 1,
    };
    if (diag.box.checked) body.diagonals = true;
    const res = await genTask.run('Generating…', (signal, hooks) => api.post('v1/killer/generate', body, { signal, ...hooks }));
    if (!res) return;
    const p = res.puzzles && res.puzzles[0];
    if (!p) {
      setStatus(genStatus, 'warn', `No puzzle came back (status ${res.status}).`);
      return;
    }
    loadKiller({ size: p.size || body.size, cages: p.cages, diagonals: body.diagonals });
    setStatus(genStatus, 'ok', `New ${p.level || ''} killer (seed ${p.seed}); press Solve to check it.`);
  }

  function importNow() {
    setFieldError(importField, '');
    const k = parseKiller(importArea.value);
    if (k.error) {
      setFieldError(importField, k.error);
      return;
    }
    loadKiller(k);
    setStatus(importStatus, 'ok', `Loaded a ${k.size}×${k.size} killer with ${k.cages.length} cages.`);
  }
}
