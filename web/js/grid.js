// grid.js -- the Sudoku board, shared by the Sudoku, Watch and Killer pages.
//
// State per cell i = r*n + c: values[i] (0 empty, else 1..n), given[i]
// (part of the puzzle, not the player's entry), pencil[i] (candidate bits,
// bit v-1), marks[i] (classes: conflict, wrong, hint, focus-step, solved,
// selected), and per-candidate marks (hint candidates, eliminations).
// Cages (Killer) are drawn as dashed outlines inside their cells with the
// sum in the corner of the first cell.
//
// Keyboard (one tab stop, roving focus, role=grid):
//   arrows, Home/End, PageUp/PageDown   move
//   1-9, A-Z (the grid's symbols)        write (or toggle a pencil mark)
//   Backspace, Delete, 0, '.', Space     clear (Space selects on Killer)
//   Enter, Space on a selectable grid    select / unselect the cell
// The page decides what a write means through onInput(i, value).

import { h, nextId } from './ui.js';
import { symbolOf, valueOf } from './formats.js';

export class Grid {
  constructor({ label, editable = true, selectable = false, onInput, onSelect, onPaste } = {}) {
    this.label = label || 'Sudoku grid';
    this.editable = editable;
    this.selectable = selectable;
    this.onInput = onInput || (() => {});
    this.onSelect = onSelect || (() => {});
    this.onPaste = onPaste || null;
    this.pencilMode = false;
    this.el = h('div', {
      class: 'sgrid',
      role: 'grid',
      'aria-label': this.label,
      id: nextId('grid'),
    });
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.el.addEventListener('focusin', (e) => this.track(e));
    this.el.addEventListener('click', (e) => this.click(e));
    this.el.addEventListener('paste', (e) => {
      if (!this.onPaste) return;
      e.preventDefault();
      this.onPaste(e.clipboardData.getData('text'));
    });
    this.focusIndex = 0;
    this.cages = [];
    this.diagonals = false;
    this.resize(9, 3, 3);
  }

  resize(n, rows, cols) {
    this.n = n;
    this.boxRows = rows;
    this.boxCols = cols;
    const nn = n * n;
    this.values = new Array(nn).fill(0);
    this.given = new Array(nn).fill(false);
    this.pencil = new Array(nn).fill(0);
    this.marks = Array.from({ length: nn }, () => new Set());
    this.candMarks = new Map(); // i -> Map(value -> class)
    this.cages = [];
    this.focusIndex = Math.min(this.focusIndex, nn - 1);
    this.el.style.setProperty('--n', n);
    this.el.dataset.n = n;
    this.el.setAttribute('aria-rowcount', n);
    this.el.setAttribute('aria-colcount', n);
    this.cells = [];
    const rowsEls = [];
    for (let r = 0; r < n; r++) {
      const row = h('div', { role: 'row', class: 'srow' });
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        let cls = 'cell';
        if ((c + 1) % cols === 0 && c < n - 1) cls += ' br';
        if ((r + 1) % rows === 0 && r < n - 1) cls += ' bb';
        if ((Math.floor(r / rows) + Math.floor(c / cols)) % 2) cls += ' alt';
        const cell = h('div', {
          role: 'gridcell',
          class: cls,
          tabindex: i === this.focusIndex ? 0 : -1,
          dataset: { i },
          'aria-colindex': c + 1,
        });
        this.cells.push(cell);
        row.append(cell);
      }
      rowsEls.push(row);
    }
    this.el.replaceChildren(...rowsEls);
    this.renderAll();
  }

  // === state =================================================================

  load(values, givenMask) {
    for (let i = 0; i < this.values.length; i++) {
      this.values[i] = values[i] || 0;
      this.given[i] = givenMask ? !!givenMask[i] : !!values[i];
      this.pencil[i] = 0;
      this.marks[i].clear();
    }
    this.candMarks.clear();
    this.renderAll();
  }

  set(i, v, given) {
    this.values[i] = v;
    if (given !== undefined) this.given[i] = given;
    if (v) this.pencil[i] = 0;
    this.render(i);
  }

  togglePencil(i, v) {
    this.pencil[i] ^= 1 << (v - 1);
    this.render(i);
  }

  clearMarks(...names) {
    for (let i = 0; i < this.marks.length; i++) {
      let changed = false;
      for (const m of names) changed = this.marks[i].delete(m) || changed;
      if (changed) this.render(i);
    }
    if (names.includes('cand')) {
      const touched = [...this.candMarks.keys()];
      this.candMarks.clear();
      for (const i of touched) this.render(i);
    }
  }

  mark(i, name, on = true) {
    if (on) this.marks[i].add(name);
    else this.marks[i].delete(name);
    this.render(i);
  }

  markCand(i, v, cls) {
    if (!this.candMarks.has(i)) this.candMarks.set(i, new Map());
    this.candMarks.get(i).set(v, cls);
    this.render(i);
  }

  setCages(cages, diagonals) {
    this.cages = cages;
    this.diagonals = !!diagonals;
    this.cageOf = new Array(this.n * this.n).fill(-1);
    cages.forEach((cage, k) => {
      for (const [r, c] of cage.cells) {
        if (r >= 0 && c >= 0 && r < this.n && c < this.n) this.cageOf[r * this.n + c] = k;
      }
    });
    this.renderAll();
  }

  // === rendering =============================================================

  renderAll() {
    for (let i = 0; i < this.cells.length; i++) this.render(i);
  }

  render(i) {
    const cell = this.cells[i];
    const n = this.n;
    const r = Math.floor(i / n);
    const c = i % n;
    const v = this.values[i];
    const parts = [];
    let cls = cell.className
      .split(' ')
      .filter((x) => ['cell', 'br', 'bb', 'alt'].includes(x))
      .join(' ');
    if (v) {
      cls += this.given[i] ? ' given' : ' entry';
      parts.push(h('span', { class: 'v' }, symbolOf(v)));
    } else if (this.pencil[i]) {
      const cm = this.candMarks.get(i);
      const box = h('span', { class: 'cands', 'aria-hidden': 'true' });
      for (let d = 1; d <= n; d++) {
        const on = this.pencil[i] & (1 << (d - 1));
        const mk = cm && cm.get(d);
        box.append(h('span', { class: mk ? `cd ${mk}` : 'cd' }, on || mk ? symbolOf(d) : ''));
      }
      parts.push(box);
    }
    if (this.cages.length) {
      const k = this.cageOf[i];
      if (k >= 0) {
        const same = (rr, cc) =>
          rr >= 0 && cc >= 0 && rr < n && cc < n && this.cageOf[rr * n + cc] === k;
        let ccls = 'cage';
        if (!same(r - 1, c)) ccls += ' ct';
        if (!same(r, c + 1)) ccls += ' cr';
        if (!same(r + 1, c)) ccls += ' cb';
        if (!same(r, c - 1)) ccls += ' cl';
        parts.push(h('span', { class: ccls, 'aria-hidden': 'true' }));
        const first = this.firstCell(this.cages[k]);
        if (first === i) parts.push(h('span', { class: 'csum', 'aria-hidden': 'true' }, this.cages[k].sum));
      }
    }
    if (this.diagonals && (r === c || r + c === n - 1)) cls += ' diag';
    for (const m of this.marks[i]) cls += ` ${m}`;
    cell.className = cls;
    cell.setAttribute('aria-label', this.describe(i));
    cell.setAttribute('aria-selected', this.marks[i].has('selected') ? 'true' : 'false');
    cell.replaceChildren(...parts);
  }

  firstCell(cage) {
    let best = -1;
    for (const [r, c] of cage.cells) {
      const i = r * this.n + c;
      if (best < 0 || i < best) best = i;
    }
    return best;
  }

  describe(i) {
    const n = this.n;
    const r = Math.floor(i / n);
    const c = i % n;
    const v = this.values[i];
    let s = `row ${r + 1}, column ${c + 1}: `;
    if (v) s += `${symbolOf(v)}${this.given[i] ? ', given' : ''}`;
    else if (this.pencil[i]) {
      const cands = [];
      for (let d = 1; d <= n; d++) if (this.pencil[i] & (1 << (d - 1))) cands.push(symbolOf(d));
      s += `empty, candidates ${cands.join(' ')}`;
    } else s += 'empty';
    if (this.cages.length && this.cageOf[i] >= 0) {
      const k = this.cageOf[i];
      s += `, cage ${k + 1} (sum ${this.cages[k].sum})`;
    }
    const m = this.marks[i];
    if (m.has('conflict')) s += ', breaks a rule';
    if (m.has('wrong')) s += ', wrong';
    if (m.has('hint')) s += ', part of the hint';
    if (m.has('selected')) s += ', selected';
    return s;
  }

  // === input =================================================================

  focus(i = this.focusIndex) {
    this.moveTo(i);
  }

  moveTo(i) {
    if (i < 0 || i >= this.cells.length) return;
    this.cells[this.focusIndex].tabIndex = -1;
    this.focusIndex = i;
    this.cells[i].tabIndex = 0;
    this.cells[i].focus();
  }

  // Keeps the roving tab stop on the cell that has the focus, however it
  // got there (click, script, assistive technology).
  track(e) {
    const cell = e.target.closest('.cell');
    if (!cell || +cell.dataset.i === this.focusIndex) return;
    this.cells[this.focusIndex].tabIndex = -1;
    this.focusIndex = +cell.dataset.i;
    cell.tabIndex = 0;
  }

  click(e) {
    const cell = e.target.closest('.cell');
    if (!cell) return;
    const i = +cell.dataset.i;
    this.moveTo(i);
    if (this.selectable) this.onSelect(i, e);
  }

  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const n = this.n;
    const i = this.focusIndex;
    const r = Math.floor(i / n);
    const c = i % n;
    let to = -1;
    switch (e.key) {
      case 'ArrowLeft':
        to = r * n + ((c + n - 1) % n);
        break;
      case 'ArrowRight':
        to = r * n + ((c + 1) % n);
        break;
      case 'ArrowUp':
        to = ((r + n - 1) % n) * n + c;
        break;
      case 'ArrowDown':
        to = ((r + 1) % n) * n + c;
        break;
      case 'Home':
        to = r * n;
        break;
      case 'End':
        to = r * n + n - 1;
        break;
      case 'PageUp':
        to = c;
        break;
      case 'PageDown':
        to = (n - 1) * n + c;
        break;
      default:
        break;
    }
    if (to >= 0) {
      e.preventDefault();
      this.moveTo(to);
      return;
    }
    if (this.selectable && (e.key === ' ' || e.key === 'Enter')) {
      e.preventDefault();
      this.onSelect(i, e);
      return;
    }
    if (!this.editable) return;
    if (['Backspace', 'Delete', '0', '.', ' '].includes(e.key)) {
      e.preventDefault();
      this.onInput(i, 0, false);
      return;
    }
    if (e.key.length === 1) {
      const v = valueOf(e.key, n);
      if (v) {
        e.preventDefault();
        this.onInput(i, v, this.pencilMode);
      }
    }
  }
}
