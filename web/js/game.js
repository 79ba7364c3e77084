// game.js -- one game of Sudoku or Killer, with no DOM: the puzzle (givens,
// cages, the solution when known), the player's entries and pencil marks,
// the history that undo and redo walk, the mistakes, and the timer.  The
// play controller (play.js) turns input into calls here and draws what the
// calls changed; storage keeps toJSON() and brings it back with fromJSON().
//
// Every change goes through change(): it records, per cell touched, what the
// cell held before and after (value, pencil bits, given flag) as one step of
// the history, so undo restores exactly and redo replays exactly, whatever
// the step did (a digit with the peers' marks it pruned, a hint's
// placements and eliminations, a given typed while entering a puzzle).
// A new step clears the redo list.  Mistakes are counted when an entry that
// differs from the known solution is placed, and stay counted after undo.
// The timer counts wall-clock time while running; the clock is injected so
// tests can drive it.  A completed game is frozen: no input, no undo.
// A Sudoku variant's rules travel as `variant` (variants.js's description,
// null for a classic grid); the player turns them into its Geometry.  An
// overlapping layout's board is its frame (variants.js's frameOf: a
// Samurai's 21 x 21 cells); its holes stay 0 and are not asked to be
// filled (geometry.isLive).

import { checked as checkedVariant, frameOf } from './variants.js';

export const HISTORY_MAX = 5000;

export class Game {
  constructor({
    kind = 'sudoku', n, rows, cols, regions = null, givens, cages = [], diagonals = false,
    solution = null, level = null, clock = Date.now, variant = null,
  }) {
    this.kind = kind;
    this.n = n;
    this.rows = rows;
    this.cols = cols;
    this.regions = regions;
    this.cages = cages;
    this.diagonals = !!diagonals;
    this.variant = variant;
    this.solution = solution ? Array.from(solution) : null;
    this.level = level;
    this.clock = clock;
    const { height, width } = frameOf(variant, n);
    const nn = height * width;
    this.values = Array.from({ length: nn }, (_, i) => (givens && givens[i]) || 0);
    this.given = this.values.map((v) => (v ? 1 : 0));
    this.pencil = new Array(nn).fill(0);
    this.history = [];
    this.future = [];
    this.mistakes = 0;
    this.elapsedBefore = 0; // ms counted before runningSince
    this.runningSince = null;
    this.completed = null; // {ms, mistakes}
    this.editing = false; // typing writes givens (entering a puzzle)
    this.geometry = null; // set by the player: checks a puzzle without a known solution
  }

  get givensList() {
    return this.values.map((v, i) => (this.given[i] ? v : 0));
  }

  // === changes ===============================================================

  // Applies [{i, v, pencil, given}] (fields left out stay) as one step.
  // Returns the cells changed (none: no step recorded).
  change(edits, { countMistakes = true } = {}) {
    if (this.completed) return [];
    const step = [];
    for (const e of edits) {
      const i = e.i;
      const before = [this.values[i], this.pencil[i], this.given[i]];
      const after = [
        e.v === undefined ? before[0] : e.v,
        e.pencil === undefined ? before[1] : e.pencil,
        e.given === undefined ? before[2] : e.given ? 1 : 0,
      ];
      if (after[0] === before[0] && after[1] === before[1] && after[2] === before[2]) continue;
      step.push([i, ...before, ...after]);
      this.values[i] = after[0];
      this.pencil[i] = after[1];
      this.given[i] = after[2];
      if (countMistakes && this.isWrong(i) && after[0] !== before[0]) this.mistakes++;
    }
    if (!step.length) return [];
    this.history.push(step);
    if (this.history.length > HISTORY_MAX) this.history.shift();
    this.future = [];
    this.checkComplete();
    return step.map((s) => s[0]);
  }

  // Places v in cell i (the player's entry, or a given while editing); with
  // autoPencil, v leaves the pencil marks of i's peers (geometry.peers).
  place(i, v, { peers = null, autoPencil = true } = {}) {
    if (this.editing) return this.change([{ i, v, pencil: 0, given: v > 0 }], { countMistakes: false });
    if (this.given[i] || this.values[i] === v) return [];
    const edits = [{ i, v, pencil: 0 }];
    if (autoPencil && peers && v) {
      const bit = 1 << (v - 1);
      for (const p of peers[i]) {
        if (!this.values[p] && this.pencil[p] & bit) edits.push({ i: p, pencil: this.pencil[p] & ~bit });
      }
    }
    return this.change(edits);
  }

  // Empties cell i: its entry, else its pencil marks.
  erase(i) {
    if (this.editing) return this.change([{ i, v: 0, pencil: 0, given: false }], { countMistakes: false });
    if (this.given[i]) return [];
    if (this.values[i]) return this.change([{ i, v: 0 }]);
    return this.change([{ i, pencil: 0 }]);
  }

  togglePencil(i, v) {
    if (this.values[i] || this.given[i]) return [];
    return this.change([{ i, pencil: this.pencil[i] ^ (1 << (v - 1)) }]);
  }

  canUndo() {
    return !this.completed && this.history.length > 0;
  }

  canRedo() {
    return !this.completed && this.future.length > 0;
  }

  undo() {
    if (!this.canUndo()) return [];
    const step = this.history.pop();
    for (let k = step.length - 1; k >= 0; k--) {
      const [i, v, p, g] = step[k];
      this.values[i] = v;
      this.pencil[i] = p;
      this.given[i] = g;
    }
    this.future.push(step);
    return step.map((s) => s[0]);
  }

  redo() {
    if (!this.canRedo()) return [];
    const step = this.future.pop();
    for (const [i, , , , v, p, g] of step) {
      this.values[i] = v;
      this.pencil[i] = p;
      this.given[i] = g;
    }
    this.history.push(step);
    this.checkComplete();
    return step.map((s) => s[0]);
  }

  // Back to the givens: entries, marks, history, mistakes and time.
  restart() {
    for (let i = 0; i < this.values.length; i++) {
      if (!this.given[i]) this.values[i] = 0;
      this.pencil[i] = 0;
    }
    this.history = [];
    this.future = [];
    this.mistakes = 0;
    this.completed = null;
    this.elapsedBefore = 0;
    this.runningSince = null;
  }

  // === checking ==============================================================

  isWrong(i) {
    return !!(this.solution && this.values[i] && !this.given[i] && this.values[i] !== this.solution[i]);
  }

  wrongCells() {
    const out = [];
    for (let i = 0; i < this.values.length; i++) if (this.isWrong(i)) out.push(i);
    return out;
  }

  // How many times each value is placed (the number pad dims a full one).
  counts() {
    const c = new Array(this.n + 1).fill(0);
    for (const v of this.values) if (v) c[v]++;
    return c;
  }

  // Completed: every live cell filled and equal to the solution, or, when
  // the solution is not known, breaking no rule of `geometry`.
  checkComplete(geometry = this.geometry) {
    if (this.completed || this.editing) return false;
    if (!this.values.every((v, i) => v || (geometry && !geometry.isLive(i)))) return false;
    const ok = this.solution
      ? this.values.every((v, i) => v === this.solution[i])
      : geometry && geometry.solvedBy(this.values);
    if (!ok) return false;
    this.pause();
    this.completed = { ms: this.elapsed(), mistakes: this.mistakes };
    return true;
  }

  // === timer =================================================================

  get running() {
    return this.runningSince !== null;
  }

  elapsed() {
    return this.elapsedBefore + (this.runningSince === null ? 0 : Math.max(0, this.clock() - this.runningSince));
  }

  start() {
    if (this.runningSince === null && !this.completed) this.runningSince = this.clock();
  }

  pause() {
    if (this.runningSince === null) return;
    this.elapsedBefore = this.elapsed();
    this.runningSince = null;
  }

  // === storage ===============================================================

  toJSON() {
    return {
      v: 1,
      kind: this.kind,
      n: this.n,
      rows: this.rows,
      cols: this.cols,
      regions: this.regions,
      cages: this.cages,
      diagonals: this.diagonals,
      variant: this.variant,
      solution: this.solution,
      level: this.level,
      values: this.values,
      given: this.given,
      pencil: this.pencil,
      history: this.history,
      future: this.future,
      mistakes: this.mistakes,
      elapsed: this.elapsed(),
      running: this.running,
      completed: this.completed,
      editing: this.editing,
    };
  }

  // A game from toJSON(), or null when `o` is not one (an old or broken save).
  static fromJSON(o, clock = Date.now) {
    if (!o || o.v !== 1 || !Number.isInteger(o.n) || o.n < 1 || o.n > 64) return null;
    const variant = o.variant ? checkedVariant(o.variant, o.n) : null;
    if (o.variant && !variant) return null;
    const { height, width } = frameOf(variant, o.n);
    const nn = height * width;
    const okArray = (a) => Array.isArray(a) && a.length === nn && a.every((x) => Number.isInteger(x) && x >= 0);
    if (!okArray(o.values) || !okArray(o.given) || !okArray(o.pencil)) return null;
    if (o.values.some((x) => x > o.n)) return null;
    const g = new Game({
      kind: o.kind,
      n: o.n,
      rows: o.rows,
      cols: o.cols,
      regions: o.regions || null,
      givens: null,
      cages: Array.isArray(o.cages) ? o.cages : [],
      diagonals: o.diagonals,
      variant,
      solution: okArray(o.solution) ? o.solution : null,
      level: o.level || null,
      clock,
    });
    g.values = o.values.slice();
    g.given = o.given.slice();
    g.pencil = o.pencil.slice();
    const okStep = (s) => Array.isArray(s) && s.every((c) => Array.isArray(c) && c.length === 7 && c[0] >= 0 && c[0] < nn);
    g.history = Array.isArray(o.history) && o.history.every(okStep) ? o.history : [];
    g.future = Array.isArray(o.future) && o.future.every(okStep) ? o.future : [];
    g.mistakes = Number.isInteger(o.mistakes) ? o.mistakes : 0;
    g.elapsedBefore = Number.isFinite(o.elapsed) ? o.elapsed : 0;
    g.completed = o.completed && Number.isFinite(o.completed.ms) ? o.completed : null;
    g.editing = !!o.editing;
    if (o.running && !g.completed) g.start();
    return g;
  }
}

// m:ss, or h:mm:ss past an hour.
export function formatTime(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
