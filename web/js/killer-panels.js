// killer-panels.js -- the Killer page's engineer panels, around the same
// board and game as play mode, one function each: cageEditor (size,
// Killer-X, drawing cages: select cells with a click or Space, type the
// sum, Enter; the cage list), solvePanel (either method, its statistics),
// generatePanel (every option), importPanel (JSON or the course's text
// format).  Each returns its element and a reset(game) that
// engineerPanels() calls when the puzzle changes, so no panel shows
// results of another puzzle.  Errors name their cages next to the list in
// the API's words.
//
// page: {play, boardField, problem(e, status), startKiller(k, why),
// startGenerated(p, n, diagonals), setCages(cages, diagonals), newEmpty(n)}

import * as killerApi from './killer-api.js';
import {
  h, field, select, number, button, card, statusLine, setStatus, statsTable, setFieldError, clearErrors,
  Task, checkbox, download, nextId, showProgress, plural,
} from './ui.js';
import { boxFor, sizeLabel, fromGrid, parseKiller, formatKillerText } from './formats.js';
import { LIMITS, range } from './limits.js';

export const KSIZES = [4, 6, 8, 9, 12, 16].map(boxFor);

// A 4x4 with one solution: 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1.
export const EXAMPLE4 = {
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

export function engineerPanels(page) {
  const editor = cageEditor(page);
  const panels = [solvePanel(page), editor.listCard, generatePanel(page, editor), importPanel(page)];
  page.play.on('puzzle', (g) => {
    editor.reset(g);
    for (const p of panels) if (p.reset) p.reset(g);
  });
  return {
    tools: editor.tools,
    drawRow: editor.drawRow,
    cards: panels.map((p) => p.el),
    toggle: editor.toggle,
    cagesField: editor.cagesField,
    cageProblem: editor.cageProblem,
  };
}

// Size, the 4x4 example, Killer-X; selecting cells and adding, picking and
// deleting cages; the cage list with its sums.
function cageEditor(page) {
  const { play } = page;
  const game = () => play.game;
  const selected = new Set();
  let picked = -1; // a cage chosen for deletion

  const sizeSel = select(KSIZES.map((s) => [String(s.n), sizeLabel(s)]), '9');
  sizeSel.addEventListener('change', () => page.newEmpty(+sizeSel.value));
  const diag = checkbox('Killer-X (both diagonals hold every value once)', false);
  diag.box.addEventListener('change', () => page.setCages(game().cages, diag.box.checked));
  const exampleBtn = button('4×4 example', () => {
    page.startKiller(EXAMPLE4, '');
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
    redraw();
  });
  const delBtn = button('Delete cage', () => deleteCage(picked));
  delBtn.disabled = true;
  const clearBtn = button('Clear cages', () => page.setCages([], diag.box.checked));
  const drawStatus = statusLine();
  const tools = h(
    'div',
    { class: 'eng-only board-tools' },
    h('div', { class: 'row' }, field('Size', sizeSel), exampleBtn),
    h('div', { class: 'row' }, diag),
  );
  const drawRow = h('div', { class: 'eng-only draw-tools' }, h('div', { class: 'row' }, sumField, addBtn, unselectBtn, delBtn, clearBtn), drawStatus);

  const cageList = h('ol', { class: 'cage-list', 'aria-label': 'Cages' });
  const cagesError = h('p', { class: 'field-error', hidden: true, id: nextId('e') });
  const cagesHint = h('p', { class: 'field-hint' });
  const cagesField = h('div', { class: 'field', dataset: { api: 'cages' } }, cageList, cagesHint, cagesError);
  cagesField.error = cagesError;
  cagesField.control = cageList;

  function reset(g) {
    if (![...sizeSel.options].some((o) => o.value === String(g.n))) sizeSel.append(h('option', { value: String(g.n) }, sizeLabel(boxFor(g.n))));
    sizeSel.value = String(g.n);
    diag.box.checked = g.diagonals;
    selected.clear();
    picked = -1;
    redraw();
  }

  function redraw() {
    const g = game();
    const grid = play.grid;
    grid.clearMarks('selected', 'cage-hl', 'cage-err', 'err');
    for (const i of selected) grid.mark(i, 'selected');
    if (picked >= 0 && g.cages[picked]) for (const [r, c] of g.cages[picked].cells) grid.mark(r * g.n + c, 'cage-hl');
    delBtn.disabled = picked < 0;
    const n = g.n;
    const total = g.cages.reduce((t, c) => t + c.sum, 0);
    const covered = g.cages.reduce((t, c) => t + c.cells.length, 0);
    cageList.replaceChildren(
      ...g.cages.map((c, k) => {
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
    setFieldError(cagesField, '');
    const full = (n * n * (n + 1)) / 2;
    cagesHint.textContent = `${plural(g.cages.length, 'cage')} cover ${covered} of ${n * n} cells; their sums add up to ${total}${covered === n * n ? ` (a full grid needs ${full})` : ''}.`;
  }

  // Space, Enter or a click on a cell, in the engineer view.
  function toggle(i) {
    const g = game();
    const k = g.geometry.cageOf[i];
    if (k >= 0 && selected.size === 0) {
      picked = picked === k ? -1 : k;
      redraw();
      setStatus(drawStatus, '', picked >= 0 ? `Cage ${k + 1} (sum ${g.cages[k].sum}) picked: Delete cage removes it.` : '');
      return;
    }
    if (k >= 0) {
      setStatus(drawStatus, 'warn', 'That cell is already in a cage.');
      return;
    }
    picked = -1;
    if (selected.has(i)) selected.delete(i);
    else selected.add(i);
    redraw();
    setStatus(drawStatus, '', `${plural(selected.size, 'cell')} selected.`);
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
    const n = game().n;
    const cells = [...selected].sort((a, b) => a - b).map((i) => [Math.floor(i / n), i % n]);
    selected.clear();
    sumInput.value = '';
    page.setCages([...game().cages, { sum, cells }], diag.box.checked);
    setStatus(drawStatus, 'ok', `Cage ${game().cages.length} added (sum ${sum}, ${plural(cells.length, 'cell')}).`);
    play.grid.focus();
  }

  function deleteCage(k) {
    const cages = game().cages;
    if (k < 0 || !cages[k]) return;
    page.setCages(cages.filter((_, j) => j !== k), diag.box.checked);
    setStatus(drawStatus, '', `Cage ${k + 1} deleted.`);
  }

  // Field errors: cages[k].sum and cages[k] mark the cage, cages[k].cells[j]
  // the cell, both also listed next to the cage list (numbered from 1).
  function cageProblem(err, msgs) {
    const g = game();
    const f = err.field || '';
    let m = /^cages\[(\d+)\]\.cells\[(\d+)\]$/.exec(f);
    if (m && g.cages[+m[1]] && g.cages[+m[1]].cells[+m[2]]) {
      const [r, c] = g.cages[+m[1]].cells[+m[2]];
      if (r < g.n && c < g.n) play.grid.mark(r * g.n + c, 'err');
      msgs.push(`cage ${+m[1] + 1}: ${err.detail}`);
      return true;
    }
    m = /^cages\[(\d+)\]/.exec(f);
    if (m && g.cages[+m[1]]) {
      for (const [r, c] of g.cages[+m[1]].cells) play.grid.mark(r * g.n + c, 'cage-err');
      msgs.push(`cage ${+m[1] + 1}: ${err.detail}`);
      return true;
    }
    if (f === 'cages') {
      msgs.push(err.detail);
      return true;
    }
    return false;
  }

  return {
    tools,
    drawRow,
    listCard: { el: card('Cages', cagesField) },
    reset,
    toggle,
    cagesField,
    cageProblem,
    diagonals: () => diag.box.checked,
  };
}

// Solve: method and max_solutions; the solution drawn over the board.
function solvePanel(page) {
  const { play } = page;
  const methodSel = select(killerApi.METHODS, 'auto');
  const maxSol = number(2, 1, LIMITS.killer.maxSolutions);
  const solveBtn = button('Solve', () => solve(), 'primary');
  const cancelBtn = button('Cancel', null, 'danger');
  const clearSol = button('Clear solution', () => play.showOverlay(null));
  const status = statusLine();
  const progress = h('div', { class: 'progress-line' });
  const out = h('div');
  const task = new Task({ status, buttons: [solveBtn], cancel: cancelBtn, onError: (e) => page.problem(e, status) });
  const el = card(
    'Solve',
    h(
      'div',
      { class: 'row' },
      field('Method', methodSel, { api: 'method', hint: 'auto: backtracking on 4×4, else advanced' }),
      field('Max solutions', maxSol, { api: 'max_solutions', hint: `${range(1, LIMITS.killer.maxSolutions)}; 2 proves uniqueness` }),
    ),
    h('div', { class: 'row' }, solveBtn, cancelBtn, clearSol),
    status,
    progress,
    out,
  );

  async function solve() {
    const g = play.game;
    out.replaceChildren();
    clearErrors(el);
    const res = await task.run('Solving…', (signal, hooks) =>
      killerApi.solve(g, { method: methodSel.value, max_solutions: +maxSol.value }, { signal, ...hooks, onProgress: (p) => showProgress(progress, p) }),
    );
    progress.replaceChildren();
    if (!res || g !== play.game) return;
    if (res.solution) play.showOverlay(fromGrid(res.solution, g.n));
    const words = {
      solved: res.unique ? 'Solved: the solution is unique.' : 'Solved.',
      multiple: `Solved, but not unique: ${res.solutions_found} solutions found.`,
      unsolvable: 'No solution: these cages allow none.',
      timeout: 'Stopped at the deadline before the search ended.',
    };
    setStatus(status, res.status === 'solved' ? 'ok' : 'warn', words[res.status] || res.status);
    out.append(statsTable('Statistics', { status: res.status, solutions_found: res.solutions_found, unique: res.unique, ...res.stats }));
  }

  function reset() {
    task.cancel();
    for (const x of [out, progress]) x.replaceChildren();
    setStatus(status, '', '');
    clearErrors(el);
  }
  return { el, reset };
}

// Generate: size, cage sizes, difficulty (and Killer-X from the editor).
function generatePanel(page, editor) {
  const size = select(LIMITS.killer.generateSizes.map((n) => [String(n), `${n}×${n}`]), '6');
  const cageMin = number(2, 1, 9);
  const cageMax = number(3, 1, 9);
  const diff = select(killerApi.DIFFICULTIES, 'medium');
  // the cage fields follow the server's sizes for the size and level
  // (the player may change them after)
  const cagesFollow = () => {
    const [lo, hi] = killerApi.cagesFor(+size.value, diff.value);
    cageMin.value = String(lo);
    cageMax.value = String(hi);
  };
  size.addEventListener('change', () => {
    killerApi.limitDifficulties(diff, +size.value);
    cagesFollow();
  });
  diff.addEventListener('change', cagesFollow);
  const btn = button('Generate', () => generate());
  const status = statusLine();
  const task = new Task({ status, buttons: [btn], onError: (e) => page.problem(e, status) });
  const el = card(
    'Generate',
    h(
      'div',
      { class: 'row' },
      field('Size', size, { api: 'size' }),
      field('Smallest cage', cageMin, { api: 'cage_size' }),
      field('Largest cage', cageMax),
      field('Difficulty', diff, { api: 'difficulty' }),
    ),
    h('div', { class: 'row' }, btn),
    status,
  );

  async function generate() {
    const body = { n: +size.value, cageMin: +cageMin.value, cageMax: +cageMax.value, difficulty: diff.value, diagonals: editor.diagonals() };
    const res = await task.run('Generating…', (signal, hooks) => killerApi.generate(body, { signal, ...hooks }));
    const p = res && res.puzzles && res.puzzles[0];
    if (!p) {
      if (res) setStatus(status, 'warn', `No puzzle came back (status ${res.status}).`);
      return;
    }
    page.startGenerated(p, body.n, body.diagonals);
    setStatus(status, 'ok', `New ${p.level || ''} killer (seed ${p.seed}); press Solve to check it.`);
  }

  return { el, reset: () => setStatus(status, '', '') };
}

// Import and export: JSON or the course's text format, pasted or from a file.
function importPanel(page) {
  const { play } = page;
  const area = h('textarea', {
    class: 'mono',
    rows: 5,
    spellcheck: false,
    placeholder: '{"size": 4, "cages": [{"sum": 3, "cells": [[0,0],[0,1]]}, …]}\nor the text format: size, symbols, cage count, then "sum r,c r,c …" per line',
  });
  const areaField = field('Paste a killer (JSON or text)', area, {
    api: 'import',
    hint: `${LIMITS.killer.minN}×${LIMITS.killer.minN} to ${LIMITS.killer.maxN}×${LIMITS.killer.maxN}; cells are row,column from 0 in both formats.`,
  });
  const fileInput = h('input', { type: 'file', accept: '.json,.txt,application/json,text/plain' });
  fileInput.addEventListener('change', async () => {
    const f = fileInput.files[0];
    if (!f) return;
    area.value = await f.text();
    importNow();
    fileInput.value = '';
  });
  const loadBtn = button('Load', () => importNow());
  const asJson = button('As JSON', () => (area.value = JSON.stringify(killerApi.killerBody(play.game), null, 0)));
  const asText = button('As text', () => (area.value = formatKillerText(play.game.n, play.game.cages)));
  const dl = button('Download', () => download('killer.json', `${JSON.stringify(killerApi.killerBody(play.game))}\n`, 'application/json'));
  const status = statusLine();
  const el = card('Import and export', areaField, h('div', { class: 'row' }, loadBtn, field('…or open a file', fileInput)), h('div', { class: 'row' }, asJson, asText, dl), status);

  function importNow() {
    setFieldError(areaField, '');
    const k = parseKiller(area.value);
    if (k.error) {
      setFieldError(areaField, k.error);
      return;
    }
    page.startKiller(k, '');
    setStatus(status, 'ok', `Loaded a ${k.size}×${k.size} killer with ${k.cages.length} cages.`);
  }

  return { el, reset: () => setStatus(status, '', '') };
}
