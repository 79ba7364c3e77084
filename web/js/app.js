// app.js -- the shell: the navigation (built from pages.js, the one list of
// pages), one page per puzzle chosen by the URL's hash (#/sudoku,
// #/killer, ...; #/sudoku?p=... opens a shared puzzle), and the connection
// banner.  A page's module is loaded the first time it is shown (so the
// first load carries only the page asked for) and kept, with its state,
// while the user visits the others.  A page that could not be loaded (the
// server was down) is not kept: it says so with a Retry button, and loads
// by itself once api.js sees the server again.

import { PAGES, DEFAULT_PAGE } from './pages.js';
import { connectionLost } from './api.js';

const byName = new Map(PAGES.map((p) => [p.name, p]));
const main = document.getElementById('main');
const mounted = new Map(); // name -> {section, page}
let current = null;

// The navigation, from the list.
const list = document.querySelector('nav ul');
list.replaceChildren(
  ...PAGES.map((p) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#/${p.name}`;
    a.dataset.page = p.name;
    a.textContent = p.nav;
    li.append(a);
    return li;
  }),
);

function route() {
  const m = /^#\/?([a-z]+)(?:\?(.*))?$/.exec(location.hash);
  const name = m && byName.has(m[1]) ? m[1] : DEFAULT_PAGE;
  return { name, params: new URLSearchParams(m && m[2] ? m[2] : '') };
}

async function show(name, params, focus) {
  const entry = byName.get(name);
  for (const a of document.querySelectorAll('nav a[data-page]')) {
    if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `${entry.title} · puzzled`;
  current = name;
  main.dataset.page = name;
  let m = mounted.get(name);
  if (!m || m.failed) {
    const section = m ? m.section : document.createElement('section');
    section.className = 'page';
    section.dataset.page = name;
    section.replaceChildren();
    if (!m) main.append(section);
    m = { section, page: null, failed: false };
    mounted.set(name, m);
    try {
      const mod = await entry.load();
      m.page = mod.mount(section) || {};
    } catch (e) {
      m.failed = true;
      failed(section, entry, e);
      connectionLost(); // the banner, and the probe that brings the page back
    }
  }
  if (current !== name) return; // the user moved on while it loaded
  for (const [k, x] of mounted) {
    x.section.hidden = k !== name;
    if (x.page && x.page.shown) x.page.shown(k === name);
  }
  if ([...params.keys()].length && m.page && m.page.open) {
    m.page.open(params);
    history.replaceState(null, '', `#/${name}`); // a reload keeps the game, not the link
  }
  if (focus) {
    const h1 = m.section.querySelector('h1');
    if (h1) {
      h1.tabIndex = -1;
      h1.focus();
    }
  }
}

function failed(section, entry, e) {
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.textContent = 'Try again';
  retry.addEventListener('click', () => show(entry.name, new URLSearchParams(), true));
  const h1 = document.createElement('h1');
  h1.textContent = entry.title;
  const p = document.createElement('p');
  p.className = 'status error';
  p.textContent = `This page could not be loaded (${e.message}). It loads by itself when the server answers again.`;
  section.replaceChildren(h1, p, retry);
}

window.addEventListener('hashchange', () => {
  const { name, params } = route();
  if (name !== current || [...params.keys()].length) show(name, params, name !== current);
});

const banner = document.getElementById('conn');
window.addEventListener('puzzled-connection', (e) => {
  if (e.detail.ok) {
    banner.textContent = '';
    banner.className = '';
    const m = mounted.get(current);
    if (m && m.failed) show(current, new URLSearchParams(), false);
    for (const x of mounted.values()) if (x.page && x.page.reconnected) x.page.reconnected();
  } else {
    banner.textContent = 'The connection to the server was lost. The page tries again by itself.';
    banner.className = 'status error';
  }
});

const first = route();
show(first.name, first.params, false);
