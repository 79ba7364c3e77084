// play.js -- playing a puzzle: the controller between one Game (game.js),
// the board (grid.js), the number pad, the timer and mistakes bar, the
// settings, and storage.  The Sudoku and Killer pages each make one and
// give it what differs (the constructor's opts): how to find the solution
// of a puzzle that came without one, the pad's extra tool (Hint, Reveal),
// when a puzzle being entered can be played; they place its parts (bar,
// board, pad, banners, status, settings, shortcuts) in their own layout.
//
// Input: a key on the board, or anywhere in the play area but a form
// field, goes to handleKey(): the grid's moves and symbols, plus
//   Shift+symbol      toggle a pencil mark
//   Space, or N       pencil mode on/off (N when it is not a symbol)
//   Ctrl+Z            undo;  Ctrl+Y, Ctrl+Shift+Z  redo
// A tap or click selects a cell; the number pad writes into the selected
// cell.  Every change goes through the Game (one history step each) and
// then draw(cells) repaints those cells, the highlights, the pad and the
// bar, checks for completion, and saves the game.
//
// Events (on(name, fn)): 'puzzle' when the puzzle itself changes (new,
// loaded, cleared, a given edited: every panel showing results of another
// puzzle resets), 'entries' when the player's entries do, 'completed'.

import { h, button, statusLine, setStatus, plural } from './ui.js';
import { Game, formatTime } from './game.js';
import { Geometry } from './geometry.js';
import { geometryOf } from './variants.js';
import { Numpad } from './numpad.js';
import { valueOf, symbolOf, cellName } from './formats.js';
import * as store from './store.js';

const TICK_MS = 250;
const SAVE_EVERY_MS = 5000;

export class Play {
  // opts: {kind, grid, storeKey, solve: async (game) => {solution} | {note}
  // | null (the solution of a puzzle that came without one), extraTools:
  // [buttons for the pad], newGameButton: () => a button for the
  // completion banner, notReady: (game) => why it cannot be played yet}
  constructor(opts) {
    this.opts = opts;
    this.kind = opts.kind;
    this.grid = opts.grid;
    this.listeners = {};
    this.settings = store.settings();
    this.overlay = null; // values shown over empty cells (a solver's answer)
    this.pauseReason = null; // 'user' or 'hidden'
    this.lastSave = 0;
    this.buildUi();
    window.addEventListener('puzzled-settings', (e) => {
      this.settings = e.detail;
      this.syncSettings();
      this.drawAll();
    });
    document.addEventListener('visibilitychange', () => {
      if (document.hidden) this.autoPause();
      else this.autoResume();
    });
    window.addEventListener('pagehide', () => this.save(true));
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.syncSettings();
  }

  on(name, fn) {
    (this.listeners[name] ||= []).push(fn);
  }

  emit(name, detail) {
    for (const fn of this.listeners[name] || []) fn(detail);
  }

  // === the parts a page places ==============================================

  buildUi() {
    const o = this.opts;
    this.levelEl = h('span', { class: 'badge', hidden: true });
    this.timeEl = h('span', { class: 'time', 'aria-live': 'off' }, '0:00');
    this.pauseBtn = button('', () => this.togglePause(), 'timer');
    // its name is what it shows ("1:05 Pause the timer"): no aria-label to fall behind the clock
    this.pauseBtn.append(this.timeEl, h('span', { class: 'pause-label' }, 'Pause'), h('span', { class: 'sr-only' }, ' the timer'));
    this.mistakesEl = h('span', { class: 'mistakes' });
    this.bar = h('div', { class: 'gamebar', role: 'group', 'aria-label': 'Game' }, this.levelEl, this.mistakesEl, this.pauseBtn);

    this.numpad = new Numpad(
      {
        digit: (v) => this.input(this.grid.focusIndex, v, this.pencil),
        erase: () => this.input(this.grid.focusIndex, 0, false),
        pencil: () => this.setPencil(!this.pencil),
        undo: () => this.undo(),
        redo: () => this.redo(),
      },
      o.extraTools || [],
    );
    this.marksLine = h('p', { class: 'marks-line', 'aria-live': 'polite' });

    this.status = statusLine();
    this.resumeBtn = button('Resume', () => this.resume(), 'primary');
    this.cover = h('div', { class: 'board-cover', hidden: true }, h('p', null, 'Paused'), this.resumeBtn);
    this.doneEl = h('div', { class: 'done-banner', role: 'status', hidden: true });

    this.startBtn = button('Start playing', () => this.finishEditing(), 'primary');
    this.editBanner = h(
      'div',
      { class: 'edit-banner', hidden: true },
      h('p', null, 'Type the givens (or paste a puzzle), then start.'),
      this.startBtn,
    );

    // the board's wrapper: the grid, its cover when paused, the banners
    this.boardBox = h('div', { class: 'board-box' }, this.grid.el, this.cover);

    // the play area takes keys aimed at the board from anywhere inside it
    this.area = h('div', { class: 'play-area' });
    this.area.addEventListener('keydown', (e) => {
      if (e.defaultPrevented || this.grid.el.contains(e.target)) return;
      const t = e.target;
      if (t.closest && t.closest('input, select, textarea, [contenteditable]')) return;
      if ((e.key === ' ' || e.key === 'Enter') && t.closest && t.closest('button, summary, a')) return;
      this.grid.key(e, false);
    });
    this.grid.onKey = (e, i) => this.handleKey(e, i);
    this.grid.onInput = (i, v, pencil) => this.input(i, v, pencil);
    this.grid.onMove = () => this.showMarksLine();
    this.grid.showSelection = true;

    this.restartBtn = button('Restart', () => this.restart());
    this.checkBtn = button('Check', () => this.check());
    this.settingsEl = this.settingsPanel();
    this.keysEl = this.keysPanel();
  }

  settingsPanel() {
    const boxes = {};
    const list = Object.entries(store.SETTINGS).map(([k, [text]]) => {
      const box = h('input', { type: 'checkbox', checked: this.settings[k], id: `set-${this.kind}-${k}` });
      box.addEventListener('change', () => {
        this.settings = { ...this.settings, [k]: box.checked };
        store.saveSettings(this.settings);
      });
      boxes[k] = box;
      return h('label', { class: 'check', for: box.id }, box, ' ', text);
    });
    this.settingBoxes = boxes;
    return h('details', { class: 'settings' }, h('summary', null, 'Settings'), h('div', { class: 'stack-tight' }, list));
  }

  keysPanel() {
    const rows = [
      ['Arrows', 'move (Home, End, Page Up, Page Down: to the edges)'],
      ['1–9, A–Z', 'write the digit (letters on grids past 9×9)'],
      ['Shift + digit', 'pencil mark on or off'],
      ['Space or N', 'pencil mode on or off'],
      ['Backspace, Delete, 0', 'erase'],
      ['Ctrl+Z', 'undo'],
      ['Ctrl+Y, Ctrl+Shift+Z', 'redo'],
    ];
    return h(
      'details',
      { class: 'keys' },
      h('summary', null, 'Keyboard shortcuts'),
      h('dl', { class: 'keys-list' }, rows.flatMap(([k, what]) => [h('dt', null, h('kbd', null, k)), h('dd', null, what)])),
    );
  }

  syncSettings() {
    for (const [k, box] of Object.entries(this.settingBoxes)) box.checked = this.settings[k];
    this.grid.highlighting = this.settings.highlight;
    this.grid.highlight();
    this.bar.classList.toggle('no-timer', !this.settings.showTimer);
  }

  // === games ================================================================

  // Starts `game` (a Game, or its options) on the board; `why` says where
  // it came from, for the status line.
  load(game, { why = '', keepStatus = false } = {}) {
    const g = game instanceof Game ? game : new Game({ kind: this.kind, ...game });
    this.game = g;
    // a Sudoku variant's regions, units and rules (variants.js)
    const v = g.variant ? geometryOf(g.variant, g.n, g.rows, g.cols) : { geometry: {}, decorations: [] };
    this.geometry = new Geometry({
      n: g.n,
      rows: g.rows,
      cols: g.cols,
      regions: g.regions,
      cages: g.cages,
      ...v.geometry,
      extraUnits: [...(g.diagonals ? Geometry.diagonals(g.n) : []), ...(v.geometry.extraUnits || [])],
    });
    g.geometry = this.geometry;
    this.overlay = null;
    this.pencil = false;
    this.grid.setGeometry(this.geometry);
    if (g.cages.length || g.diagonals) this.grid.setCages(g.cages, g.diagonals);
    if (v.decorations.length) this.grid.setDecorations(v.decorations);
    if (v.constraints) this.grid.setConstraints(v.constraints.groups, v.constraints.ring, v.constraints.notes);
    this.numpad.setSize(g.n, this.geometry.liveCount / g.n);
    this.pauseReason = null;
    if (!g.editing && !g.completed && this.visible !== false) g.start();
    this.drawAll();
    if (!keepStatus) setStatus(this.status, '', why);
    this.emit('puzzle', g);
    this.save(true);
    if (!g.solution && !g.editing && !g.completed) this.findSolution();
    return g;
  }

  // Asks the page for the solution of a puzzle that came without one.
  async findSolution() {
    const g = this.game;
    if (!this.opts.solve) return;
    const res = await this.opts.solve(g);
    if (g !== this.game || !res) return;
    if (res.solution) {
      g.solution = res.solution;
      this.drawAll();
      this.save(true);
    } else if (res.note) setStatus(this.status, 'warn', res.note);
  }

  restart() {
    if (!this.game) return;
    this.game.restart();
    this.overlay = null;
    this.pauseReason = null;
    this.game.start();
    this.drawAll();
    setStatus(this.status, '', 'Started again from the givens.');
    this.emit('entries', this.game);
    this.save(true);
  }

  // Entering a puzzle: typing writes givens until finishEditing().
  setEditing(on) {
    const g = this.game;
    if (!g || g.editing === on) return;
    g.editing = on;
    if (on) g.pause();
    else if (!g.completed) g.start();
    this.drawAll();
    this.save(true);
    if (!on && !g.solution && !this.notReady(g)) this.findSolution();
  }

  // Why `g` cannot be played yet (opts.notReady: a page's own rule), or ''.
  notReady(g) {
    if (this.opts.notReady) return this.opts.notReady(g);
    return g.givensList.some(Boolean) ? '' : 'Type some givens first: the board is empty.';
  }

  finishEditing() {
    if (!this.game) return;
    const why = this.notReady(this.game);
    if (why) {
      setStatus(this.status, 'warn', why);
      return;
    }
    this.game.restart();
    this.setEditing(false);
    this.emit('puzzle', this.game);
    setStatus(this.status, '', 'Your puzzle is ready: have fun.');
  }

  // === input =================================================================

  handleKey(e, i) {
    if (!this.game || this.grid.selectable) return false;
    if ((e.ctrlKey || e.metaKey) && !e.altKey) {
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) this.undo();
      else if (k === 'y' || (k === 'z' && e.shiftKey)) this.redo();
      else return false;
      e.preventDefault();
      return true;
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return false;
    if (this.game.editing) return false;
    const n = this.game.n;
    if (e.key === ' ' || ((e.key === 'n' || e.key === 'N') && !valueOf('N', n))) {
      e.preventDefault();
      this.setPencil(!this.pencil);
      return true;
    }
    if (e.shiftKey) {
      // Shift+digit: e.key is the shifted character ('!' for 1), e.code the key
      const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code || '');
      const v = m ? Math.min(+m[1], n + 1) : e.key.length === 1 && /[a-z]/i.test(e.key) ? valueOf(e.key, n) : 0;
      if (v && v <= n) {
        e.preventDefault();
        this.input(i, v, true);
        return true;
      }
    }
    return false;
  }

  setPencil(on) {
    this.pencil = on;
    this.grid.pencilMode = on;
    this.drawPad();
  }

  // v = 0 erases; pencil toggles the mark v.
  input(i, v, pencil) {
    const g = this.game;
    if (!g || g.completed) return;
    if (this.pauseReason) this.resume();
    let changed;
    if (v === 0) changed = g.erase(i);
    else if (pencil && !g.editing) {
      if (g.values[i]) {
        setStatus(this.status, 'warn', 'Pencil marks go in empty cells.');
        return;
      }
      changed = g.togglePencil(i, v);
    } else {
      if (g.given[i] && !g.editing) {
        setStatus(this.status, 'warn', `${cellName(i, this.geometry.width)} is a given: it cannot change.`);
        return;
      }
      changed = g.place(i, v, { peers: this.geometry.peers, autoPencil: this.settings.autoPencil });
    }
    if (!changed.length) return;
    this.afterChange(changed, g.editing);
  }

  undo() {
    const changed = this.game ? this.game.undo() : [];
    if (changed.length) this.afterChange(changed, false, 'Undone.');
  }

  redo() {
    const changed = this.game ? this.game.redo() : [];
    if (changed.length) this.afterChange(changed, false, 'Redone.');
  }

  // Applies [{i, v, pencil}] from a hint as one step (undoable).
  apply(edits) {
    const changed = this.game.change(edits);
    if (changed.length) this.afterChange(changed, false);
    return changed;
  }

  afterChange(cells, puzzleChanged, say = '') {
    const g = this.game;
    const hadOverlay = !!this.overlay;
    this.overlay = null;
    if (puzzleChanged) {
      g.solution = null;
      g.level = null;
    }
    if (hadOverlay || puzzleChanged) this.drawAll();
    else this.draw(cells);
    setStatus(this.status, '', say);
    this.emit(puzzleChanged ? 'puzzle' : 'entries', g);
    if (g.completed) this.completed();
  }

  // === drawing ===============================================================

  drawAll() {
    if (!this.game) return;
    this.draw(this.game.values.map((_, i) => i));
  }

  draw(cells) {
    const g = this.game;
    const grid = this.grid;
    const conflicts = this.settings.instantCheck && !g.solution ? this.geometry.conflicts(g.values) : null;
    for (const i of cells) {
      const ov = this.overlay && !g.values[i] ? this.overlay[i] : 0;
      grid.values[i] = g.values[i] || ov;
      grid.given[i] = !!g.given[i];
      grid.pencil[i] = g.values[i] ? 0 : g.pencil[i];
      const m = grid.marks[i];
      m.delete('solved');
      if (ov) m.add('solved');
      const wrong = this.settings.instantCheck && !g.editing && g.isWrong(i);
      if (wrong) m.add('wrong');
      else m.delete('wrong');
      if (conflicts && conflicts.has(i) && !g.editing) m.add('conflict');
      else if (conflicts) m.delete('conflict');
      grid.render(i);
    }
    if (conflicts) {
      for (let i = 0; i < g.values.length; i++) {
        if (grid.marks[i].has('conflict') !== conflicts.has(i)) {
          grid.marks[i][conflicts.has(i) ? 'add' : 'delete']('conflict');
          grid.render(i);
        }
      }
    }
    grid.highlight();
    this.drawPad();
    this.drawBar();
    this.showMarksLine();
    this.editBanner.hidden = !g.editing;
    this.boardBox.classList.toggle('editing', g.editing);
    this.doneEl.hidden = !g.completed;
    this.save(true);
  }

  drawPad() {
    const g = this.game;
    if (!g) return;
    this.numpad.update({
      counts: g.counts(),
      pencil: this.pencil,
      canUndo: g.canUndo(),
      canRedo: g.canRedo(),
      disabled: !!g.completed || this.pauseReason === 'user',
    });
    for (const b of this.opts.extraTools || []) b.disabled = !!g.completed || this.pauseReason === 'user';
  }

  drawBar() {
    const g = this.game;
    if (g.level) {
      this.levelEl.textContent = g.level;
      this.levelEl.className = `badge lv-${g.level}`;
      this.levelEl.hidden = false;
    } else this.levelEl.hidden = true;
    const checking = this.settings.instantCheck && !!g.solution;
    this.mistakesEl.textContent = checking ? `Mistakes: ${g.mistakes}` : '';
    this.mistakesEl.hidden = !checking;
    this.timeEl.textContent = formatTime(g.elapsed());
    const paused = !!this.pauseReason || (!g.running && !g.completed && !g.editing);
    this.pauseBtn.setAttribute('aria-pressed', String(paused));
    this.pauseBtn.disabled = !!g.completed || g.editing;
    this.pauseBtn.querySelector('.pause-label').textContent = paused ? 'Resume' : 'Pause';
    this.bar.classList.toggle('no-timer', !this.settings.showTimer);
  }

  // The selected cell's pencil marks, in words, when the grid draws dots.
  showMarksLine() {
    const g = this.game;
    const i = this.grid.focusIndex;
    const p = g && !g.values[i] ? g.pencil[i] : 0;
    if (this.grid.marksInline || !p) {
      this.marksLine.textContent = '';
      return;
    }
    const marks = [];
    for (let v = 1; v <= g.n; v++) if (p & (1 << (v - 1))) marks.push(symbolOf(v));
    this.marksLine.textContent = `Pencil marks in ${cellName(i, this.geometry.width)}: ${marks.join(' ')}`;
  }

  // Values to show over the empty cells (a solver's answer); null clears.
  showOverlay(values) {
    this.overlay = values;
    this.drawAll();
  }

  // === checking ==============================================================

  // Marks the wrong entries (the solution known) or the broken rules, and
  // counts the wrong ones as mistakes if instant checking did not already.
  check() {
    const g = this.game;
    if (!g) return;
    if (g.solution) {
      const wrong = g.wrongCells();
      for (const i of wrong) this.grid.mark(i, 'wrong');
      const empty = g.values.filter((v) => !v).length;
      setStatus(
        this.status,
        wrong.length ? 'error' : 'ok',
        wrong.length
          ? `${plural(wrong.length, 'entry', 'entries')} ${wrong.length === 1 ? 'is' : 'are'} wrong (marked red).`
          : `No mistake so far; ${plural(empty, 'cell')} to go.`,
      );
      return;
    }
    const bad = this.geometry.conflicts(g.values);
    for (const i of bad) this.grid.mark(i, 'conflict');
    setStatus(this.status, bad.size ? 'error' : 'ok', bad.size ? `${plural(bad.size, 'cell')} break a rule (marked).` : 'No rule is broken so far.');
  }

  completed() {
    const g = this.game;
    const c = g.completed;
    this.doneEl.replaceChildren(
      h('p', { class: 'done-title' }, 'Completed!'),
      h('p', null, `Solved in ${formatTime(c.ms)}`, this.settings.instantCheck && g.solution ? ` with ${plural(c.mistakes, 'mistake')}.` : '.'),
      this.opts.newGameButton ? this.opts.newGameButton() : null,
    );
    this.doneEl.hidden = false;
    this.drawBar();
    this.drawPad();
    setStatus(this.status, '', ''); // the banner says it (role=status)
    this.emit('completed', g);
    this.save(true);
  }

  // === timer =================================================================

  tick() {
    const g = this.game;
    if (!g) return;
    if (g.running) {
      this.timeEl.textContent = formatTime(g.elapsed());
      this.save();
    }
  }

  togglePause() {
    if (this.pauseReason === 'user') this.resume();
    else this.pauseFor('user');
  }

  pauseFor(reason) {
    const g = this.game;
    if (!g || g.completed || g.editing) return;
    g.pause();
    this.pauseReason = reason;
    this.cover.hidden = reason !== 'user';
    this.boardBox.classList.toggle('paused', reason === 'user');
    this.drawBar();
    this.drawPad();
    this.save(true);
    if (reason === 'user') this.resumeBtn.focus();
  }

  resume() {
    const g = this.game;
    if (!g) return;
    const wasUser = this.pauseReason === 'user';
    this.pauseReason = null;
    this.cover.hidden = true;
    this.boardBox.classList.remove('paused');
    if (!g.completed && !g.editing) g.start();
    this.drawBar();
    this.drawPad();
    if (wasUser) this.grid.focus();
  }

  // The page or tab is hidden: stop the clock, and start it again on return
  // unless the player paused it.
  autoPause() {
    if (!this.pauseReason && this.game && this.game.running) this.pauseFor('hidden');
  }

  autoResume() {
    if (this.pauseReason === 'hidden' && this.visible !== false) this.resume();
  }

  // The clock runs while the page is shown in the app and in the play view.
  setShown(on) {
    this.shownInApp = on;
    this.syncVisible();
  }

  setMode(m) {
    this.mode = m;
    this.syncVisible();
  }

  syncVisible() {
    this.visible = this.shownInApp !== false && this.mode !== 'engineer';
    if (this.visible) this.autoResume();
    else this.autoPause();
  }

  // Entries that came with the puzzle (a share link): not steps of its history.
  fillEntries(entries) {
    const g = this.game;
    entries.forEach((v, i) => {
      if (v && !g.given[i]) g.values[i] = v;
    });
    this.drawAll();
  }

  // === storage ===============================================================

  save(now = false) {
    if (!this.game || !this.opts.storeKey) return;
    const t = Date.now();
    if (!now && t - this.lastSave < SAVE_EVERY_MS) return; // the clock's ticks
    this.lastSave = t;
    store.save(this.opts.storeKey, this.game.toJSON());
  }

  // The saved game, or null.
  restore() {
    const g = Game.fromJSON(store.load(this.opts.storeKey), Date.now);
    if (!g || g.kind !== this.kind) return null;
    this.load(g, { why: g.completed ? '' : 'Welcome back: your game is as you left it.' });
    if (g.completed) this.completed();
    return g;
  }
}
