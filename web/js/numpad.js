// numpad.js -- the number pad: one button per symbol of the grid (with how
// many are still to place), then erase, pencil (a toggle), undo and redo.
// It is the input on phones, and a second one everywhere: a tap or click
// acts on the selected cell without taking the focus from the board, so
// the keyboard keeps working after a click.

import { h, icon } from './ui.js';
import { symbolOf } from './formats.js';

export class Numpad {
  // actions: {digit(v), erase(), pencil(), undo(), redo()}; extra: buttons
  // appended to the tools row (a page's Hint).
  constructor(actions, extra = []) {
    this.actions = actions;
    this.digits = h('div', { class: 'numpad-digits', role: 'group', 'aria-label': 'Digits' });
    const tool = (name, text, fn, label) => {
      const b = h('button', { type: 'button', class: `tool tool-${name}`, 'aria-label': label || text }, icon(name), h('span', null, text));
      b.addEventListener('click', fn);
      return b;
    };
    this.undoBtn = tool('undo', 'Undo', () => actions.undo());
    this.redoBtn = tool('redo', 'Redo', () => actions.redo());
    this.eraseBtn = tool('erase', 'Erase', () => actions.erase());
    this.pencilBtn = tool('pencil', 'Pencil', () => actions.pencil());
    this.pencilBtn.setAttribute('aria-pressed', 'false');
    this.tools = h('div', { class: 'numpad-tools', role: 'group', 'aria-label': 'Tools' }, this.undoBtn, this.redoBtn, this.eraseBtn, this.pencilBtn, extra);
    this.el = h('div', { class: 'numpad' }, this.digits, this.tools);
    // A mouse click must not move the focus off the board.
    this.el.addEventListener('mousedown', (e) => {
      if (e.target.closest('button')) e.preventDefault();
    });
    this.n = 0;
  }

  // n symbols, each to be placed `per` times (n on one grid; a Samurai's
  // 369 cells hold each digit 41 times).
  setSize(n, per = n) {
    this.per = per;
    if (n === this.n) return;
    this.n = n;
    this.buttons = [];
    for (let v = 1; v <= n; v++) {
      // how many are left shows as ::after (attr(data-left)); the name is the symbol alone
      const b = h('button', { type: 'button', class: 'digit', 'aria-label': symbolOf(v) }, symbolOf(v));
      b.addEventListener('click', () => this.actions.digit(v));
      this.buttons.push(b);
    }
    this.digits.dataset.n = n;
    this.digits.style.setProperty('--cols', n <= 9 ? n : Math.ceil(n / Math.ceil(n / 9)));
    this.digits.replaceChildren(...this.buttons);
  }

  // counts[v]: how many v are on the board; pencil: pencil mode on.
  update({ counts, pencil, canUndo, canRedo, disabled }) {
    for (let v = 1; v <= this.n; v++) {
      const b = this.buttons[v - 1];
      const left = Math.max(0, this.per - (counts ? counts[v] : 0));
      b.dataset.left = left ? String(left) : '';
      b.classList.toggle('done', left === 0);
      b.title = left ? `${left} left to place` : 'all placed';
      b.disabled = !!disabled;
    }
    this.pencilBtn.setAttribute('aria-pressed', String(!!pencil));
    this.digits.classList.toggle('pencil', !!pencil);
    this.undoBtn.disabled = !!disabled || !canUndo;
    this.redoBtn.disabled = !!disabled || !canRedo;
    this.eraseBtn.disabled = !!disabled;
    this.pencilBtn.disabled = !!disabled;
  }
}
