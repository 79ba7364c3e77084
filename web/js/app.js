// app.js -- the shell: one page per puzzle, chosen by the URL's hash
// (#/sudoku, #/watch, #/killer, #/queens, #/cover, #/batch).  A page's
// module is loaded the first time it is shown (so the first load carries
// only the Sudoku page) and kept, with its state, while the user visits the
// others.  The connection banner listens for api.js's connection events.

const PAGES = {
  sudoku: ['Sudoku', () => import('./sudoku.js')],
  watch: ['Watch a search', () => import('./watch.js')],
  killer: ['Killer Sudoku', () => import('./killer.js')],
  queens: ['N-Queens', () => import('./queens.js')],
  cover: ['Exact cover', () => import('./cover.js')],
  batch: ['Batch', () => import('./batch.js')],
};

const main = document.getElementById('main');
const mounted = new Map();
let current = null;

function pageFromHash() {
  const m = /^#\/?([a-z]+)/.exec(location.hash);
  return m && PAGES[m[1]] ? m[1] : 'sudoku';
}

async function show(name, focus) {
  const [title, load] = PAGES[name];
  for (const a of document.querySelectorAll('nav a[data-page]')) {
    if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `${title} · puzzled`;
  let section = mounted.get(name);
  if (!section) {
    section = document.createElement('section');
    section.className = 'page';
    section.dataset.page = name;
    main.append(section);
    mounted.set(name, section);
    try {
      const mod = await load();
      mod.mount(section);
    } catch (e) {
      section.textContent = `This page could not be loaded: ${e.message}`;
      section.classList.add('status', 'error');
    }
  }
  for (const [k, s] of mounted) s.hidden = k !== name;
  current = name;
  main.dataset.page = name;
  if (focus) {
    const h1 = section.querySelector('h1');
    if (h1) {
      h1.tabIndex = -1;
      h1.focus();
    }
  }
}

window.addEventListener('hashchange', () => {
  const name = pageFromHash();
  if (name !== current) show(name, true);
});

const banner = document.getElementById('conn');
window.addEventListener('puzzled-connection', (e) => {
  if (e.detail.ok) {
    banner.textContent = '';
    banner.className = '';
  } else {
    banner.textContent = 'The connection to the server was lost.';
    banner.className = 'status error';
  }
});

show(pageFromHash(), false);
