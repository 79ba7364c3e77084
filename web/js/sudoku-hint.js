// sudoku-hint.js -- the next logical step, from the server's hint endpoint:
// the technique and its explanation under the board, the cells and
// candidates it uses highlighted, and Apply, which makes its placements and
// eliminations one undoable step of the game.  Play mode's Hint button and
// the engineer's Puzzle card share it; the Killer page passes its own
// endpoint (fetchHint), whose steps have the same form.

import * as sudokuApi from './sudoku-api.js';
import { h, button, setStatus, Task, plural } from './ui.js';
import { cellName } from './formats.js';

export class HintBox {
  constructor(play, status, onProblem, fetchHint = (g, opts) => sudokuApi.hint(g.values, g.givensList, g.pencil, g, opts)) {
    this.play = play;
    this.fetchHint = fetchHint;
    this.status = status;
    this.step = null;
    this.applyBtn = button('Apply the hint', () => this.apply(), 'primary');
    this.closeBtn = button('Close', () => this.clear());
    this.text = h('div', { class: 'hint-text-box' });
    this.el = h('div', { class: 'hint-out', 'aria-live': 'polite', hidden: true }, this.text, h('div', { class: 'row' }, this.applyBtn, this.closeBtn));
    this.task = new Task({ status, onError: onProblem });
  }

  clear() {
    const had = this.step || !this.el.hidden;
    this.step = null;
    this.el.hidden = true;
    this.text.replaceChildren();
    this.play.grid.clearMarks('hint', 'cand');
    if (had) this.play.drawAll(); // the step's candidates were the view's, not the game's
  }

  async request(buttons = []) {
    const g = this.play.game;
    this.clear();
    for (const b of buttons) b.disabled = true;
    const res = await this.task
      .run('Looking for the next step…', (signal, hooks) => this.fetchHint(g, { signal, ...hooks }))
      .finally(() => buttons.forEach((b) => (b.disabled = false)));
    if (!res || g !== this.play.game) return;
    const grid = this.play.grid;
    const w = this.play.geometry.width; // the frame's, on an overlapping layout
    const idx = ([r, c]) => r * w + c;
    if (res.status === 'solved') {
      setStatus(this.status, 'ok', 'The grid is complete and correct. Well done!');
      return;
    }
    if (res.status === 'wrong') {
      const cells = (res.wrong || []).map((x) => idx(x.cell));
      for (const i of cells) grid.mark(i, 'wrong');
      setStatus(this.status, 'error', `${plural(cells.length, 'entry', 'entries')} contradict${cells.length === 1 ? 's' : ''} the solution: ${cells.map((i) => cellName(i, w)).join(', ')} (marked).`);
      return;
    }
    if (res.status !== 'hint' || !res.step) {
      setStatus(this.status, 'warn', 'No hint came back in time; try again.');
      return;
    }
    const step = res.step;
    // The step's candidates show as pencil marks in the cells it talks about.
    const touched = new Set([
      ...(step.cells || []).map(idx),
      ...(step.candidates || []).map((x) => idx(x.cell)),
      ...(step.eliminations || []).map((x) => idx(x.cell)),
      ...(step.placements || []).map((x) => idx(x.cell)),
    ]);
    for (const i of touched) {
      if (!g.values[i] && !grid.pencil[i]) grid.pencil[i] = this.play.geometry.candidates(g.values, i);
      grid.marks[i].add('hint');
    }
    for (const x of step.candidates || []) grid.candMarks.set(idx(x.cell), new Map([...(grid.candMarks.get(idx(x.cell)) || []), [x.value, 'hl']]));
    for (const x of step.eliminations || []) for (const v of x.values) grid.markCand(idx(x.cell), v, 'x');
    for (const x of step.placements || []) grid.markCand(idx(x.cell), x.value, 'hl');
    grid.renderAll();
    this.step = step;
    this.applyBtn.hidden = !(step.placements && step.placements.length) && !(step.eliminations && step.eliminations.length);
    this.text.replaceChildren(h('p', { class: 'hint-text' }, h('strong', null, `${step.technique || 'Hint'}: `), step.explanation || ''));
    this.el.hidden = false;
    setStatus(this.status, 'ok', step.trial ? 'Hint: a trial step (no simpler technique applies).' : 'Hint found (highlighted).');
  }

  apply() {
    const step = this.step;
    const g = this.play.game;
    if (!step || !g) return;
    const edits = [];
    const w = this.play.geometry.width;
    for (const x of step.placements || []) edits.push({ i: x.cell[0] * w + x.cell[1], v: x.value, pencil: 0 });
    for (const x of step.eliminations || []) {
      const i = x.cell[0] * w + x.cell[1];
      let mask = g.pencil[i] || this.play.geometry.candidates(g.values, i);
      for (const v of x.values) mask &= ~(1 << (v - 1));
      edits.push({ i, pencil: mask });
    }
    this.clear();
    this.play.apply(edits);
    setStatus(this.status, 'ok', 'Hint applied (Undo takes it back).');
  }
}
