// grid.js -- the board view, shared by the Sudoku, Killer and Watch pages.
// It draws and reads; what a keystroke or a tap means is the page's
// business (callbacks).
//
// Shape: a Geometry (geometry.js): thick lines where regions meet (boxes,
// or any jigsaw), Killer cages as dashed outlines inside their cells with
// the sum in the first cell, and decorations drawn on an SVG layer over the
// cells in grid units (viewBox 0 0 width height): lines through cell
// centres, dots, labels.  A variant adds regions, units or decorations; the
// cells and their input stay as they are.  Sudoku constraints
// (constraints.js) are drawn on the same layer under the decorations, one
// titled group each; outside clues widen the layer into a ring one cell
// wide around the grid (class ring).  An overlapping layout's frame
// (a Samurai: 21 x 21) is one board: its holes are empty placeholders
// (class hole, hidden from assistive technology, never focused, clicked or
// moved to), and each grid's outline is drawn by the live cells beside them
// (classes bt, bl, br, bb; the board itself has no border then: class
// frame).
//
// Per cell i = r*width + c: values[i] (0 empty, else 1..n), given[i], pencil[i]
// (candidate bits, bit v-1), marks[i] (classes: conflict, wrong, hint,
// step, solved, guessed, selected, err, cage-hl, cage-err), and
// per-candidate marks (hint candidates, eliminations).  With `highlight`,
// the selected cell (sel), its row, column and region (peer) and the cells
// holding its value (same) are shaded.  Pencil marks are drawn in the cell
// while they are readable (8 px and up); on smaller cells the grid says
// data-marks="dots" and shows a dot, and the page lists the marks.
//
// Keyboard (one tab stop, roving focus, role=grid):
//   arrows (wrapping), Home/End, PageUp/PageDown   move (over holes)
//   the grid's symbols (1-9, then A-Z)              write
//   Backspace, Delete, 0, '.'                       clear
//   Space, Enter on a selectable grid               select / unselect
// onKey(e, i) sees every key first and may claim it (returns true).

import { h, nextId } from './ui.js';
import { symbolOf, valueOf } from './formats.js';
import { Geometry } from './geometry.js';

const SVG = 'http://www.w3.org/2000/svg';
const MARK_MIN_PX = 8; // smallest pencil mark drawn inside a cell

export class Grid {
  constructor({ label, editable = true, selectable = false, highlight = false, onInput, onSelect, onPaste, onKey, onMove } = {}) {
    this.label = label || 'Sudoku grid';
    this.editable = editable;
    this.selectable = selectable;
    this.showSelection = highlight; // the selected cell drawn (sel), focus or not
    this.highlighting = highlight; // its row, column, region (peer) and digit (same) too
    this.onInput = onInput || (() => {});
    this.onSelect = onSelect || (() => {});
    this.onPaste = onPaste || null;
    this.onKey = onKey || (() => false);
    this.onMove = onMove || (() => {});
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
    // a hole is no cell: a click there leaves the focus where it was
    this.el.addEventListener('mousedown', (e) => {
      if (e.target.classList.contains('hole')) e.preventDefault();
    });
    this.el.addEventListener('paste', (e) => {
      if (!this.onPaste) return;
      e.preventDefault();
      this.onPaste(e.clipboardData.getData('text'));
    });
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver(() => this.fitMarks()).observe(this.el);
    }
    this.focusIndex = 0;
    this.decorations = [];
    this.setGeometry(new Geometry({ n: 9, rows: 3, cols: 3 }));
  }

  resize(n, rows, cols) {
    this.setGeometry(new Geometry({ n, rows, cols }));
  }

  // A new shape: every cell is rebuilt, empty.
  setGeometry(geo) {
    this.geo = geo;
    const n = geo.n;
    const { width: w, height: ht } = geo;
    this.n = n;
    this.w = w;
    this.h = ht;
    this.boxRows = geo.boxRows;
    this.boxCols = geo.boxCols;
    const nn = geo.size;
    this.values = new Array(nn).fill(0);
    this.given = new Array(nn).fill(false);
    this.pencil = new Array(nn).fill(0);
    this.marks = Array.from({ length: nn }, () => new Set());
    this.candMarks = new Map(); // i -> Map(value -> class)
    this.cages = geo.cages;
    this.diagonals = false;
    this.decorations = [];
    this.decoEls = [];
    this.consEls = [];
    this.notes = null;
    this.el.classList.remove('ring');
    this.focusIndex = Math.min(this.focusIndex, nn - 1);
    if (!geo.isLive(this.focusIndex)) this.focusIndex = geo.firstLive();
    // --n: the columns across (cell and font sizes), --rows: the rows
    this.el.style.setProperty('--n', w);
    this.el.style.setProperty('--rows', ht);
    this.el.style.setProperty('--pc', Math.ceil(Math.sqrt(n)));
    this.el.dataset.n = n;
    this.el.classList.toggle('frame', !!geo.live);
    if (geo.live) this.el.dataset.frame = `${ht}x${w}`;
    else delete this.el.dataset.frame;
    this.el.dataset.cols = w;
    this.el.setAttribute('aria-rowcount', ht);
    this.el.setAttribute('aria-colcount', w);
    this.cells = [];
    const rowsEls = [];
    for (let r = 0; r < ht; r++) {
      const row = h('div', { role: 'row', class: 'srow' });
      for (let c = 0; c < w; c++) {
        const i = r * w + c;
        if (!geo.isLive(i)) {
          const hole = h('div', { class: 'hole', 'aria-hidden': 'true' });
          this.cells.push(hole);
          row.append(hole);
          continue;
        }
        const cell = h('div', {
          role: 'gridcell',
          class: this.baseClass(i),
          tabindex: i === this.focusIndex ? 0 : -1,
          dataset: { i },
          'aria-colindex': c + 1,
        });
        this.cells.push(cell);
        row.append(cell);
      }
      rowsEls.push(row);
    }
    this.overlay = document.createElementNS(SVG, 'svg');
    this.overlay.setAttribute('class', 'overlay');
    this.overlay.setAttribute('viewBox', `0 0 ${w} ${ht}`);
    this.overlay.setAttribute('preserveAspectRatio', 'none');
    this.overlay.setAttribute('aria-hidden', 'true');
    this.el.replaceChildren(...rowsEls, this.overlay);
    this.fitMarks();
    this.renderAll();
  }

  baseClass(i) {
    let cls = 'cell';
    const geo = this.geo;
    if (geo.live) {
      if (geo.outline(i, 'up')) cls += ' bt';
      if (geo.outline(i, 'left')) cls += ' bl';
    }
    if (geo.regionEdge(i, 'right') || (geo.live && geo.outline(i, 'right'))) cls += ' br';
    if (geo.regionEdge(i, 'down') || (geo.live && geo.outline(i, 'down'))) cls += ' bb';
    if (this.geo.shaded(i)) cls += ' alt';
    if (this.geo.tags) cls += this.geo.tags[i];
    return cls;
  }

  // Inline pencil marks while each is at least MARK_MIN_PX tall, else dots.
  fitMarks() {
    const w = this.el.clientWidth;
    if (!w || !this.n) return;
    const per = Math.ceil(Math.sqrt(this.n));
    const mode = (0.9 * w) / this.w / per >= MARK_MIN_PX ? 'inline' : 'dots';
    if (this.el.dataset.marks !== mode) this.el.dataset.marks = mode;
  }

  get marksInline() {
    return this.el.dataset.marks !== 'dots';
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

  // (Killer: one n x n grid)
  setCages(cages, diagonals) {
    this.geo.setCages(cages);
    this.cages = this.geo.cages;
    this.cageOf = this.geo.cageOf;
    this.diagonals = !!diagonals;
    const n = this.n;
    this.setDecorations(
      this.diagonals
        ? [
            { type: 'line', cells: [0, n * n - 1], cls: 'diag-line' },
            { type: 'line', cells: [n - 1, n * (n - 1)], cls: 'diag-line' },
          ]
        : [],
    );
    this.renderAll();
  }

  // Decorations over the cells: {type: 'line', cells: [i, j, ...]} through
  // the cells' centres, {type: 'dot', cell}, {type: 'label', cell, text}
  // (top-right corner), {type: 'pair', cells: [i, j]} (a mark on the edge
// between two neighbours: a consecutive pair); each may have a class (cls).
  setDecorations(list) {
    this.decorations = list;
    const w = this.w;
    const at = (i) => [(i % w) + 0.5, Math.floor(i / w) + 0.5];
    const els = list.map((d) => {
      let el;
      if (d.type === 'line') {
        el = document.createElementNS(SVG, 'polyline');
        el.setAttribute('points', d.cells.map((i) => at(i).join(',')).join(' '));
      } else if (d.type === 'pair') {
        el = document.createElementNS(SVG, 'circle');
        const [a, b] = d.cells.map(at);
        el.setAttribute('cx', (a[0] + b[0]) / 2);
        el.setAttribute('cy', (a[1] + b[1]) / 2);
        el.setAttribute('r', 0.13);
      } else if (d.type === 'dot') {
        el = document.createElementNS(SVG, 'circle');
        const [x, y] = at(d.cell);
        el.setAttribute('cx', x);
        el.setAttribute('cy', y);
        el.setAttribute('r', d.r || 0.35);
      } else {
        el = document.createElementNS(SVG, 'text');
        const [x, y] = at(d.cell);
        el.setAttribute('x', x + 0.45);
        el.setAttribute('y', y - 0.3);
        el.setAttribute('text-anchor', 'end');
        el.textContent = d.text;
      }
      el.setAttribute('class', `deco ${d.cls || ''}`);
      return el;
    });
    this.decoEls = els;
    this.overlay.replaceChildren(...this.consEls, ...els);
  }

  // Sudoku constraints (constraints.js's shapesOf groups): one <g> per
  // constraint (class cons, data-type, data-family, data-k) with its
  // <title>, under the decorations.  `ring`: the outside clues' ring of
  // one cell around the grid (class ring; the overlay's viewBox grows to
  // -1..n+1).  notes[i]: the constraints covering cell i, added to its
  // spoken description.
  setConstraints(groups, ring = false, notes = null) {
    const w = this.w;
    const ht = this.h;
    this.el.classList.toggle('ring', ring);
    this.overlay.setAttribute('viewBox', ring ? `-1 -1 ${w + 2} ${ht + 2}` : `0 0 ${w} ${ht}`);
    const make = (tag, attrs) => {
      const el = document.createElementNS(SVG, tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      return el;
    };
    const fmt = (v) => String(Math.round(v * 1000) / 1000);
    const shape = (s) => {
      const cls = `cs ${s.cls || ''}`;
      if (s.kind === 'line') return make(s.closed ? 'polygon' : 'polyline', { points: s.pts.map((p) => p.map(fmt).join(',')).join(' '), class: cls });
      if (s.kind === 'circle') return make('circle', { cx: fmt(s.x), cy: fmt(s.y), r: s.r, class: cls });
      if (s.kind === 'diamond') {
        const pts = [[s.x, s.y - s.r], [s.x + s.r, s.y], [s.x, s.y + s.r], [s.x - s.r, s.y]];
        return make('polygon', { points: pts.map((p) => p.map(fmt).join(',')).join(' '), class: cls });
      }
      if (s.kind === 'rect') return make('rect', { x: s.x, y: s.y, width: s.w, height: s.h, class: cls });
      const t = make('text', { x: fmt(s.x), y: fmt(s.y), 'text-anchor': s.anchor || 'middle', class: cls });
      t.textContent = s.text;
      return t;
    };
    this.consEls = groups.map((g) => {
      const el = make('g', { class: `cons fam-${g.family} t-${g.type}`, 'data-type': g.type, 'data-family': g.family, 'data-k': g.k });
      const title = make('title', {});
      title.textContent = g.title;
      el.append(title, ...g.shapes.map(shape));
      return el;
    });
    this.notes = notes;
    this.overlay.replaceChildren(...this.consEls, ...this.decoEls);
    this.renderAll();
  }

  // Marks the selected cell, and shades its peers and the cells holding its
  // value (when highlighting).
  highlight() {
    if (!this.showSelection) return;
    const sel = this.focusIndex;
    const peers = this.highlighting ? new Set(this.geo.peers[sel]) : new Set();
    const v = this.highlighting ? this.values[sel] : 0;
    for (let i = 0; i < this.cells.length; i++) {
      if (!this.geo.isLive(i)) continue;
      const cl = this.cells[i].classList;
      cl.toggle('sel', i === sel);
      cl.toggle('peer', peers.has(i));
      cl.toggle('same', !!v && i !== sel && this.values[i] === v);
    }
  }

  // === rendering =============================================================

  renderAll() {
    for (let i = 0; i < this.cells.length; i++) this.render(i);
    this.highlight();
  }

  render(i) {
    if (!this.geo.isLive(i)) return;
    const cell = this.cells[i];
    const n = this.n;
    const r = Math.floor(i / this.w);
    const c = i % this.w;
    const v = this.values[i];
    const parts = [];
    let cls = this.baseClass(i);
    if (v) {
      cls += this.given[i] ? ' given' : ' entry';
      parts.push(h('span', { class: 'v' }, symbolOf(v)));
    } else if (this.pencil[i] || this.candMarks.has(i)) {
      const cm = this.candMarks.get(i);
      const box = h('span', { class: 'cands', 'aria-hidden': 'true' });
      for (let d = 1; d <= n; d++) {
        const on = this.pencil[i] & (1 << (d - 1));
        const mk = cm && cm.get(d);
        box.append(h('span', { class: mk ? `cd ${mk}` : 'cd' }, on || mk ? symbolOf(d) : ''));
      }
      parts.push(box);
      if (this.pencil[i]) cls += ' has-marks';
    }
    if (this.cages.length) {
      const k = this.geo.cageOf[i];
      if (k >= 0) {
        const same = (rr, cc) => rr >= 0 && cc >= 0 && rr < this.h && cc < this.w && this.geo.cageOf[rr * this.w + cc] === k;
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
    if (this.showSelection) {
      // keep the highlight classes render() does not own
      for (const k of ['sel', 'peer', 'same']) if (cell.classList.contains(k)) cls += ` ${k}`;
    }
    cell.className = cls;
    cell.setAttribute('aria-label', this.describe(i));
    // the drawing lets clicks through, so its titles never show: the cell
    // names the constraints it lies on as its tooltip
    if (this.notes && this.notes[i] && this.notes[i].length) cell.title = this.notes[i].join(', ');
    else cell.removeAttribute('title');
    cell.setAttribute('aria-selected', this.marks[i].has('selected') || (this.showSelection && i === this.focusIndex) ? 'true' : 'false');
    cell.replaceChildren(...parts);
  }

  firstCell(cage) {
    let best = -1;
    for (const [r, c] of cage.cells) {
      const i = r * this.w + c;
      if (best < 0 || i < best) best = i;
    }
    return best;
  }

  describe(i) {
    const n = this.n;
    const r = Math.floor(i / this.w);
    const c = i % this.w;
    const v = this.values[i];
    let s = `row ${r + 1}, column ${c + 1}: `;
    if (v) s += `${symbolOf(v)}${this.given[i] ? ', given' : ''}`;
    else if (this.pencil[i]) {
      const cands = [];
      for (let d = 1; d <= n; d++) if (this.pencil[i] & (1 << (d - 1))) cands.push(symbolOf(d));
      s += `empty, pencil marks ${cands.join(' ')}`;
    } else s += 'empty';
    if (this.geo.parity && this.geo.parity[i] !== '.') s += this.geo.parity[i] === 'E' ? ', even' : ', odd';
    if (this.notes && this.notes[i] && this.notes[i].length) s += `, on ${this.notes[i].join(', ')}`;
    if (this.cages.length && this.geo.cageOf[i] >= 0) {
      const k = this.geo.cageOf[i];
      s += `, cage ${k + 1}, sum ${this.cages[k].sum}`;
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

  // Selects cell i; the focus follows when the grid has it (or `focus`).
  moveTo(i, focus = true) {
    if (i < 0 || i >= this.cells.length || !this.geo.isLive(i)) return;
    this.cells[this.focusIndex].tabIndex = -1;
    this.focusIndex = i;
    this.cells[i].tabIndex = 0;
    if (focus) this.cells[i].focus();
    this.highlight();
    this.onMove(i);
  }

  hasFocus() {
    return this.el.contains(document.activeElement);
  }

  // Keeps the roving tab stop on the cell that has the focus, however it
  // got there (click, script, assistive technology).
  track(e) {
    const cell = e.target.closest('.cell');
    if (!cell || +cell.dataset.i === this.focusIndex) return;
    this.cells[this.focusIndex].tabIndex = -1;
    this.focusIndex = +cell.dataset.i;
    cell.tabIndex = 0;
    this.highlight();
    this.onMove(this.focusIndex);
  }

  click(e) {
    const cell = e.target.closest('.cell');
    if (!cell) return;
    const i = +cell.dataset.i;
    this.moveTo(i);
    if (this.selectable) this.onSelect(i, e);
  }

  // The cell an arrow key, Home/End or PageUp/PageDown moves to, or -1:
  // the next live cell that way, wrapping within the row or column (every
  // row and column of a frame has live cells).
  target(key) {
    const { w, h: ht } = this;
    const i = this.focusIndex;
    const r = Math.floor(i / w);
    const c = i % w;
    // from (r0, c0) on, steps of (dr, dc) until a live cell
    const walk = (r0, c0, dr, dc) => {
      let [rr, cc] = [r0, c0];
      while (!this.geo.isLive(rr * w + cc)) [rr, cc] = [(rr + dr + ht) % ht, (cc + dc + w) % w];
      return rr * w + cc;
    };
    switch (key) {
      case 'ArrowLeft':
        return walk(r, (c + w - 1) % w, 0, -1);
      case 'ArrowRight':
        return walk(r, (c + 1) % w, 0, 1);
      case 'ArrowUp':
        return walk((r + ht - 1) % ht, c, -1, 0);
      case 'ArrowDown':
        return walk((r + 1) % ht, c, 1, 0);
      case 'Home':
        return walk(r, 0, 0, 1);
      case 'End':
        return walk(r, w - 1, 0, -1);
      case 'PageUp':
        return walk(0, c, 1, 0);
      case 'PageDown':
        return walk(ht - 1, c, -1, 0);
      default:
        return -1;
    }
  }

  // Handles a key for the grid; `focus` says whether the focus should move
  // with the selection (false when the key came from the number pad).
  key(e, focus = true) {
    const i = this.focusIndex;
    if (this.onKey(e, i)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const to = this.target(e.key);
    if (to >= 0) {
      e.preventDefault();
      this.moveTo(to, focus);
      return;
    }
    if (this.selectable && (e.key === ' ' || e.key === 'Enter')) {
      e.preventDefault();
      this.onSelect(i, e);
      return;
    }
    if (!this.editable) return;
    if (['Backspace', 'Delete', '0', '.'].includes(e.key) || (e.key === ' ' && !this.selectable)) {
      e.preventDefault();
      this.onInput(i, 0, false);
      return;
    }
    if (e.key.length === 1) {
      const v = valueOf(e.key, this.n);
      if (v) {
        e.preventDefault();
        this.onInput(i, v, this.pencilMode);
      }
    }
  }
}
