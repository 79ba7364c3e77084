// play-page.js -- what the Sudoku and Killer pages build the same way
// around their Play: the heading with the Play / Engineer switch (the mode
// is the player's, kept in storage, shared by both pages), the board card,
// the "This game" card (restart, check, share, print, settings, keyboard
// shortcuts), and the share link.

import { h, button, card, segmented, field, checkbox, setStatus } from './ui.js';
import * as store from './store.js';
import { fromGrid, playerField } from './formats.js';

// The page's heading and lead, and the mode switch.  The section gets
// data-mode, which the stylesheet reads (.play-only, .eng-only); onMode(m)
// hears every change, this page's or the other's.
export function pageHead(section, title, leads, onMode) {
  const sw = segmented(
    'View',
    [
      ['play', 'Play'],
      ['engineer', 'Engineer'],
    ],
    store.mode(),
    (m) => store.setMode(m),
  );
  sw.classList.add('mode-switch');
  const apply = (m) => {
    section.dataset.mode = m;
    sw.set(m);
    onMode(m);
  };
  window.addEventListener('puzzled-mode', (e) => apply(e.detail));
  section.dataset.mode = store.mode();
  return {
    el: h(
      'div',
      { class: 'page-head' },
      h('div', null, h('h1', null, title), h('p', { class: 'lead play-only' }, leads.play), h('p', { class: 'lead eng-only' }, leads.engineer)),
      sw,
    ),
    apply,
  };
}

// The board card: the game bar, the board with its error slot, the
// banners, the pencil marks line, the number pad and the status line;
// `tools` (the engineer's) go first.
export function boardCard(play, boardField, tools, legend) {
  return h(
    'section',
    { class: 'card board-card', 'aria-label': 'Board' },
    tools,
    h('div', { class: 'play-only' }, play.bar),
    play.editBanner,
    boardField,
    play.doneEl,
    play.marksLine,
    play.numpad.el,
    legend,
    play.status,
  );
}

// A field wrapper for the board, so that problems naming "grid" or
// "cages" land under it.
export function boardFieldOf(play, api) {
  const error = h('p', { class: 'field-error', hidden: true, id: `${play.kind}-board-error` });
  const wrap = h('div', { class: 'field board-wrap', dataset: { api } }, play.boardBox, error);
  wrap.control = play.grid.el;
  wrap.error = error;
  play.grid.el.setAttribute('aria-describedby', error.id);
  return wrap;
}

// The share link: `route` (#/sudoku) and query(withEntries) -> its query.
export function shareBox(route, query) {
  const out = h('input', { type: 'text', readOnly: true, class: 'share-url', spellcheck: false });
  const entries = checkbox('Include my entries', false);
  const status = h('p', { class: 'status', role: 'status' });
  const copy = button('Copy link', async () => {
    out.select();
    try {
      await navigator.clipboard.writeText(out.value);
      setStatus(status, 'ok', 'Copied.');
    } catch {
      setStatus(status, '', 'Selected: copy it with Ctrl+C.');
    }
  });
  const refresh = () => {
    const base = `${location.origin}${location.pathname}`;
    out.value = `${base}${route}?${query(entries.box.checked)}`;
    setStatus(status, '', '');
  };
  entries.box.addEventListener('change', refresh);
  const box = h(
    'div',
    { class: 'share-box', hidden: true },
    field('Link to this puzzle', out, { hint: 'The puzzle travels in the link itself; nothing is stored on the server.' }),
    h('div', { class: 'row' }, entries, copy),
    status,
  );
  const toggle = button('Share', () => {
    box.hidden = !box.hidden;
    toggle.setAttribute('aria-expanded', String(!box.hidden));
    if (!box.hidden) {
      refresh();
      out.focus();
      out.select();
    }
  });
  toggle.setAttribute('aria-expanded', 'false');
  return { toggle, box, refresh };
}

// "This game": restart, check, share, print, then the settings and keys.
export function gameCard(play, share, extra = []) {
  const print = button('Print', () => window.print());
  return card(
    'This game',
    h('div', { class: 'row' }, play.restartBtn, play.checkBtn, share.toggle, print, extra),
    share.box,
    play.settingsEl,
    play.keysEl,
  );
}

// What app.js calls on a play page: open(params) starts the game a share
// link holds (read(params) gives {error} or the game and its entries,
// start(game) loads it), shown(on) when its tab comes and goes.
export function pageHooks(play, { key, noun, read, start }) {
  return {
    open(params) {
      if (!params.get(key)) return;
      const s = read(params);
      if (s.error) {
        setStatus(play.status, 'error', `This link does not hold a ${noun} the page can read: ${s.error}.`);
        return;
      }
      start(s);
      if (s.entries) play.fillEntries(s.entries);
    },
    shown: (on) => play.setShown(on),
  };
}

// The solution of a puzzle that came without one (an example, your own, an
// import, a link), from ask() (a solve with max_solutions 2), for a player:
// {solution}, or {note} saying why entries are checked by the rules only.
export async function solutionFor(ask, n, noun) {
  try {
    const res = await ask();
    if (res.status === 'solved' && res.solution) return { solution: fromGrid(res.solution, n) };
    if (res.status === 'multiple') return { note: `This ${noun} has more than one solution: entries are checked against the rules only.` };
    if (res.status === 'unsolvable') return { note: `This ${noun} has no solution.` };
  } catch (e) {
    if (e && e.kind === 'problem') {
      const where = [...new Set((e.problem.errors || []).map((x) => playerField(x.field)).filter(Boolean))];
      return { note: `This ${noun} breaks the rules${where.length ? ` at ${where.join(', ')}` : ''}.` };
    }
  }
  return null;
}
