// pages.js -- the list of pages, in one place: the navigation is built from
// it (app.js), and the browser tests visit every page from it.  A page is
// a module with mount(section) that may return {open(params), shown(on),
// reconnected()}; it is loaded the first time it is shown.

export const PAGES = [
  { name: 'sudoku', nav: 'Sudoku', title: 'Sudoku', play: true, load: () => import('./sudoku.js') },
  { name: 'killer', nav: 'Killer', title: 'Killer Sudoku', play: true, load: () => import('./killer.js') },
  { name: 'watch', nav: 'Watch a search', title: 'Watch a search', load: () => import('./watch.js') },
  { name: 'queens', nav: 'N-Queens', title: 'N-Queens', load: () => import('./queens.js') },
  { name: 'cover', nav: 'Exact cover', title: 'Exact cover', load: () => import('./cover.js') },
  { name: 'batch', nav: 'Batch', title: 'Batch', load: () => import('./batch.js') },
];

export const DEFAULT_PAGE = 'sudoku';
