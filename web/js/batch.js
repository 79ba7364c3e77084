// batch.js -- many 9x9 puzzles at once: choose a file (one puzzle a line,
// 81 characters, '.' or '0' empty, '#' comments), watch the answers stream
// in (the server answers line by line while the batch runs), and download
// them.

import * as api from './api.js';
import {
  h, field, select, number, button, card, statusLine, setStatus, showProblem, Task, download, fmt,
} from './ui.js';

// A few puzzles to try without a file.
const SAMPLE = [
  '# a sample batch: two classics, a hard one, an empty grid (many solutions) and a broken line',
  '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79',
  '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
  '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..',
  '.................................................................................',
  '11...............................................................................',
  '12345',
].join('\n');

const STATUSES = ['solved', 'multiple', 'unsolvable', 'invalid', 'timeout', 'cancelled', 'error'];

export function mount(root) {
  const fileInput = h('input', { type: 'file', accept: '.txt,.sdk,text/plain' });
  const text = h('textarea', { class: 'mono', rows: 8, spellcheck: false, placeholder: 'One 9×9 puzzle a line (81 characters)' });
  const textField = field('Puzzles', text, { api: 'body' });
  fileInput.addEventListener('change', async () => {
    const f = fileInput.files[0];
    if (!f) return;
    chosen = f;
    const head = await f.slice(0, 64 * 1024).text();
    text.value = f.size > 64 * 1024 ? '' : head;
    text.placeholder = f.size > 64 * 1024 ? `${f.name}: ${fmt(f.size)} bytes (too large to show; it is sent as it is)` : text.placeholder;
    setStatus(status, '', `${f.name}: ${fmt(countLines(head))}${f.size > 64 * 1024 ? '+' : ''} puzzles.`);
  });
  text.addEventListener('input', () => (chosen = null));
  let chosen = null;
  const sampleBtn = button('Use a sample', () => {
    text.value = SAMPLE;
    chosen = null;
  });
  const maxSol = select([['1', '1 (first solution)'], ['2', '2 (prove uniqueness)']], '2');
  const threads = number(2, 1, 256);
  const runBtn = button('Run', () => run(), 'primary');
  const cancelBtn = button('Cancel', null, 'danger');
  const dlTxt = button('Download .txt', () => download('results.txt', results.map(plainLine).join('\n') + '\n'));
  const dlJson = button('Download .ndjson', () => download('results.ndjson', results.map((r) => JSON.stringify(r)).join('\n') + '\n', 'application/x-ndjson'));
  dlTxt.disabled = dlJson.disabled = true;
  const status = statusLine();
  const bar = h('progress', { max: 1, value: 0, 'aria-label': 'Puzzles answered' });
  const barLine = h('div', { class: 'progress-line' });
  const counts = h('div', { class: 'counts', 'aria-live': 'off' });
  const preview = h('div', { class: 'table-wrap' }, h('p', { class: 'muted' }, 'Run a batch to see its answers here, as they come.'));
  const form = card(
    'Puzzles',
    h('div', { class: 'row' }, field('Open a file', fileInput), sampleBtn),
    textField,
    h(
      'div',
      { class: 'row' },
      field('Max solutions', maxSol, { api: 'max_solutions' }),
      field('Workers', threads, { api: 'threads' }),
    ),
    h('div', { class: 'row' }, runBtn, cancelBtn),
    status,
  );
  const task = new Task({
    status,
    buttons: [runBtn],
    cancel: cancelBtn,
    onError: (e) => e.kind === 'problem' && (showProblem(form, e.problem, status), true),
  });
  bar.hidden = true;

  root.append(
    h('h1', null, 'Batch'),
    h(
      'p',
      { class: 'lead' },
      'Solve a whole file of 9×9 puzzles. The server answers line by line while it works, so the progress below is real; the results download as text (one line per puzzle) or JSON lines.',
    ),
    h(
      'div',
      { class: 'layout wide-side' },
      h('div', { class: 'stack' }, form),
      h('div', { class: 'stack' }, card('Results', bar, barLine, counts, h('div', { class: 'row' }, dlTxt, dlJson), preview)),
    ),
  );

  let results = [];

  function countLines(s) {
    return s.split(/\r?\n/).filter((l) => l.trim() && !l.trim().startsWith('#')).length;
  }

  // The server's own text format: the solution, or the status (and why).
  function plainLine(r) {
    if (r.status === 'solved') return r.solution;
    if (r.status === 'invalid') return `invalid: ${r.error}`;
    return r.status;
  }

  async function run() {
    results = [];
    dlTxt.disabled = dlJson.disabled = true;
    const body = chosen ? await chosen.text() : text.value;
    const total = countLines(body);
    if (!total) {
      setStatus(status, 'error', 'No puzzles: choose a file or paste some lines.');
      return;
    }
    const tally = Object.fromEntries(STATUSES.map((s) => [s, 0]));
    bar.hidden = false;
    bar.value = 0;
    const show = () => {
      bar.value = results.length / total;
      barLine.textContent = `${fmt(results.length)} of ${fmt(total)} answered`;
      counts.replaceChildren(...STATUSES.filter((s) => tally[s]).map((s) => h('span', null, s, h('b', null, fmt(tally[s])))));
    };
    show();
    let pending = 0;
    const ok = await task.run(`Solving ${fmt(total)} puzzles…`, (signal, hooks) =>
      api
        .streamLines(
          `v1/sudoku/batch?max_solutions=${maxSol.value}&threads=${threads.value}`,
          { body, contentType: 'text/plain', accept: 'application/x-ndjson', signal, ...hooks },
          (line) => {
            if (!line.trim()) return;
            const r = JSON.parse(line);
            results.push(r);
            tally[r.status] = (tally[r.status] || 0) + 1;
            if (!pending) {
              pending = requestAnimationFrame(() => {
                pending = 0;
                show();
              });
            }
          },
        )
        .then(() => true),
    );
    cancelAnimationFrame(pending);
    show();
    renderPreview();
    dlTxt.disabled = dlJson.disabled = !results.length;
    if (ok) setStatus(status, 'ok', `Done: ${fmt(results.length)} puzzles answered.`);
  }

  function renderPreview() {
    const shown = results.slice(0, 50);
    preview.replaceChildren(
      h(
        'table',
        { class: 'preview' },
        h('caption', null, results.length > 50 ? `The first 50 of ${fmt(results.length)} answers` : 'Answers'),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'line'), h('th', { scope: 'col' }, 'status'), h('th', { scope: 'col' }, 'answer'))),
        h(
          'tbody',
          null,
          shown.map((r) =>
            h(
              'tr',
              null,
              h('td', null, r.line),
              h('td', null, r.status),
              r.solution ? h('td', { class: 'grid-text' }, r.solution) : h('td', { class: 'msg' }, r.error || ''),
            ),
          ),
        ),
      ),
    );
  }
}
