// ui.js -- small DOM helpers shared by the pages: an element builder (text
// always goes in as text, never as HTML), labelled form fields with a slot
// for their error, a segmented choice (radio buttons), problem+json errors
// placed next to the fields they name, a status line, statistics tables, a
// job's progress, and Task: one request at a time per panel, with busy
// buttons, Cancel, and the 503 wait message.

let uid = 0;
export const nextId = (prefix) => `${prefix}-${++uid}`;

// h('button', {class: 'x', onclick: f}, 'text', child, [more, children])
export function h(tag, attrs, ...children) {
  const el = tag.startsWith('svg:')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.setAttribute('class', v);
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k in el && !tag.startsWith('svg:') && k !== 'list' && k !== 'form') el[k] = v;
      else el.setAttribute(k, v === true ? '' : v);
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// A labelled control with an error slot.  `api` names the request field the
// server would blame (errors[].field), so showProblem() can find it.
export function field(label, control, { api, hint, grow } = {}) {
  control.id = control.id || nextId('f');
  const err = h('p', { class: 'field-error', id: nextId('e'), hidden: true });
  const hintEl = hint ? h('p', { class: 'field-hint', id: nextId('h') }, hint) : null;
  control.setAttribute(
    'aria-describedby',
    [hintEl && hintEl.id, err.id].filter(Boolean).join(' '),
  );
  const wrap = h(
    'div',
    { class: grow ? 'field grow' : 'field' },
    h('label', { for: control.id }, label),
    control,
    hintEl,
    err,
  );
  wrap.control = control;
  wrap.error = err;
  if (api) wrap.dataset.api = api;
  return wrap;
}

export function select(options, value) {
  const s = h('select');
  for (const o of options) {
    const [v, text] = Array.isArray(o) ? o : [o, o];
    s.append(h('option', { value: v }, text));
  }
  if (value !== undefined) s.value = value;
  return s;
}

export function number(value, min, max, step) {
  return h('input', { type: 'number', value, min, max, step: step || 1, inputMode: 'numeric' });
}

export function button(text, onclick, cls) {
  return h('button', { type: 'button', class: cls || '', onclick }, text);
}

// A row of radio buttons that looks like a segmented switch:
// segmented('Mode', [['play', 'Play'], ['engineer', 'Engineer']], 'play', fn)
// calls fn(value) on a change; .set(value) changes it without calling fn.
export function segmented(legend, options, value, onChange) {
  const name = nextId('seg');
  const inputs = options.map(([v]) => h('input', { type: 'radio', name, value: v, checked: v === value }));
  const set = h(
    'fieldset',
    { class: 'seg-field' },
    h('legend', null, legend),
    h(
      'div',
      { class: 'seg' },
      options.map(([, text], k) => h('label', null, inputs[k], h('span', null, text))),
    ),
  );
  for (const r of inputs) r.addEventListener('change', () => r.checked && onChange && onChange(r.value));
  set.set = (v) => inputs.forEach((r) => (r.checked = r.value === v));
  set.get = () => (inputs.find((r) => r.checked) || {}).value;
  return set;
}

export function checkbox(label, checked) {
  const box = h('input', { type: 'checkbox', checked, id: nextId('c') });
  const wrap = h('label', { class: 'check', for: box.id }, box, ' ', label);
  wrap.box = box; // (a label's own .control is read-only)
  return wrap;
}

// Marks one field wrapper (from field()) with a message, or clears it.
export function setFieldError(wrap, message) {
  if (!wrap || !wrap.error) return;
  wrap.error.textContent = message || '';
  wrap.error.hidden = !message;
  wrap.classList.toggle('has-error', !!message);
  if (wrap.control) {
    if (message) wrap.control.setAttribute('aria-invalid', 'true');
    else wrap.control.removeAttribute('aria-invalid');
  }
}

// Puts each of a problem's field errors next to its field.  `scope` holds
// the field wrappers (data-api = the request field, matched exactly or as
// the prefix before '[' or '.'); `custom(err)` may claim an error first
// (a grid cell, a cage) by returning true.  What no field claims goes to
// `fallback` (a status line).  Returns how many errors were placed.
export function showProblem(scope, problem, fallback, custom) {
  clearErrors(scope);
  const errors = (problem && problem.errors) || [];
  const wraps = [...scope.querySelectorAll('[data-api]')];
  const loose = [];
  let placed = 0;
  const byWrap = new Map();
  for (const e of errors) {
    if (custom && custom(e)) {
      placed++;
      continue;
    }
    const f = e.field || '';
    const base = f.split(/[[.]/)[0];
    const w =
      wraps.find((x) => x.dataset.api.split(' ').includes(f)) ||
      wraps.find((x) => x.dataset.api.split(' ').includes(base));
    if (w) {
      const list = byWrap.get(w) || [];
      list.push(f && f !== w.dataset.api ? `${f}: ${e.detail}` : e.detail);
      byWrap.set(w, list);
      placed++;
    } else loose.push(e);
  }
  for (const [w, list] of byWrap) setFieldError(w, list.join('; '));
  if (fallback) {
    const title = problem ? problem.title || 'The request was refused' : 'Error';
    const rest = loose.map((e) => (e.field ? `${e.field}: ${e.detail}` : e.detail));
    const text =
      errors.length === 0
        ? problem && problem.detail
          ? problem.detail
          : title
        : rest.length
          ? `${title}: ${rest.join('; ')}`
          : `${title}: see the marked fields.`;
    setStatus(fallback, 'error', text);
  }
  const first = scope.querySelector('[aria-invalid="true"]');
  if (first && document.activeElement && !scope.contains(document.activeElement)) first.focus();
  return placed;
}

export function clearErrors(scope) {
  for (const w of scope.querySelectorAll('.has-error')) setFieldError(w, '');
}

// A status line: role=status so screen readers hear it.
export function statusLine() {
  return h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
}

export function setStatus(el, kind, text) {
  el.className = `status ${kind || ''}`;
  el.textContent = text || '';
}

// Numbers as people read them.
export function fmt(v) {
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return v.toLocaleString('en-US');
    return v.toLocaleString('en-US', { maximumFractionDigits: v < 10 ? 3 : 1 });
  }
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (v === null || v === undefined) return '—';
  return String(v);
}

const LABELS = {
  elapsed_ms: 'time (ms)',
  max_depth: 'deepest level',
  subproblems: 'subproblems',
  completed_subproblems: 'subproblems done',
  derived_sums: 'derived sums (45 rule)',
  value_orders: 'value orders',
  initial_conflicts: 'conflicts at start',
};
export const label = (k) => LABELS[k] || k.replace(/_/g, ' ');

// A two-column table of an object's scalar fields.
export function statsTable(caption, obj) {
  const rows = Object.entries(obj || {}).filter(([, v]) => typeof v !== 'object' || v === null);
  return h(
    'table',
    { class: 'stats' },
    h('caption', null, caption),
    h(
      'tbody',
      null,
      rows.map(([k, v]) =>
        h('tr', null, h('th', { scope: 'row' }, label(k)), h('td', null, fmt(v))),
      ),
    ),
  );
}

// A panel's running request: disables `buttons`, shows Cancel, reports a
// 503 wait and a lost connection on `status`, and says "Cancelled." when
// the user cancels.  run(fn) calls fn(signal, hooks) and resolves to its
// result, or to undefined after reporting an error (unless onError claims
// it).
export class Task {
  constructor({ status, buttons = [], cancel, onError, silentCancel }) {
    this.status = status;
    this.silentCancel = !!silentCancel;
    this.buttons = buttons;
    this.cancelButton = cancel || null;
    this.onError = onError;
    this.ctrl = null;
    if (this.cancelButton) {
      this.cancelButton.hidden = true;
      this.cancelButton.addEventListener('click', () => this.cancel());
    }
  }

  get busy() {
    return this.ctrl !== null;
  }

  cancel() {
    if (this.ctrl) this.ctrl.abort();
  }

  async run(busyText, fn) {
    if (this.ctrl) this.ctrl.abort();
    const ctrl = new AbortController();
    this.ctrl = ctrl;
    for (const b of this.buttons) b.disabled = true;
    if (this.cancelButton) this.cancelButton.hidden = false;
    if (busyText) setStatus(this.status, 'busy', busyText);
    const hooks = {
      onWait: (s) =>
        s > 0
          ? setStatus(
              this.status,
              'wait',
              `The server is busy; waiting ${s} s (Retry-After) before trying again…`,
            )
          : setStatus(this.status, 'busy', busyText || 'Working…'),
    };
    try {
      return await fn(ctrl.signal, hooks);
    } catch (e) {
      if (!e || !e.kind) throw e;
      if (e.kind === 'cancelled') {
        // a run replaced by a newer one, or a quiet background run, says nothing
        if (this.ctrl === ctrl && !this.silentCancel) setStatus(this.status, 'warn', 'Cancelled.');
      }
      else if (!(this.onError && this.onError(e))) {
        setStatus(this.status, 'error', e.message);
      }
      return undefined;
    } finally {
      if (this.ctrl === ctrl) {
        this.ctrl = null;
        for (const b of this.buttons) b.disabled = false;
        if (this.cancelButton) this.cancelButton.hidden = true;
      }
    }
  }
}

// Offers `text` as a file download.
export function download(name, text, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Reads a chosen file as text.
export function readFile(file) {
  return file.text();
}

// A card: a titled section of a page.
export function card(title, ...children) {
  const id = nextId('t');
  return h(
    'section',
    { class: 'card', 'aria-labelledby': id },
    h('h2', { id }, title),
    ...children,
  );
}

// Small icons drawn as SVG paths (fonts do not all have ⏮ ⏸ ⏭).
const ICONS = {
  start: 'M6 5h2.5v14H6zM19 5v14L9.5 12z',
  back: 'M17 5v14L7 12z',
  play: 'M8 5v14l11-7z',
  pause: 'M7 5h4v14H7zM13 5h4v14h-4z',
  forward: 'M7 5v14l10-7z',
  end: 'M15.5 5H18v14h-2.5zM5 5v14l9.5-7z',
  undo: 'M12.5 8c-2.65 0-5.05 1-6.9 2.6L2 7v9h9l-3.62-3.62A7.95 7.95 0 0 1 12.5 10.5c3.54 0 6.55 2.31 7.6 5.5l2.37-.78C21.08 11.03 17.15 8 12.5 8z',
  redo: 'M18.4 10.6A10.45 10.45 0 0 0 11.5 8c-4.65 0-8.58 3.03-9.96 7.22L3.9 16a7.98 7.98 0 0 1 7.6-5.5c1.95 0 3.73.72 5.12 1.88L13 16h9V7z',
  erase: 'M16.24 3.56l4.95 4.94a2 2 0 0 1 0 2.83L12 20.53A5 5 0 0 1 8.46 22H3v-2h3.6l-2.8-2.8a2 2 0 0 1 0-2.83L13.4 3.56a2 2 0 0 1 2.84 0zM5.2 15.78L8.44 19h.02a3 3 0 0 0 2.12-.88L12 16.7 7.05 11.76z',
  hint: 'M9 21h6v-1.5H9zm3-19a7 7 0 0 0-4 12.74V17a1 1 0 0 0 1 1h6a1 1 0 0 0 1-1v-2.26A7 7 0 0 0 12 2z',
  pencil: 'M3 17.25V21h3.75L17.81 9.94l-3.75-3.75zM20.71 7.04a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75z',
};

export function icon(name) {
  const svg = h('svg:svg', { viewBox: '0 0 24 24', width: '18', height: '18', 'aria-hidden': 'true', focusable: 'false' });
  svg.append(h('svg:path', { d: ICONS[name], fill: 'currentColor' }));
  return svg;
}

// Live progress of a job (the jobs API's progress object) as a bar and figures.
export function showProgress(out, p) {
  const parts = [];
  if (typeof p.fraction === 'number') {
    const bar = h('progress', { max: 1, value: p.fraction });
    bar.setAttribute('aria-label', 'Progress');
    out.replaceChildren(bar);
    parts.push(`${(100 * p.fraction).toFixed(1)} %`);
  } else out.replaceChildren();
  if (p.done !== undefined && p.total !== undefined) parts.push(`${fmt(p.done)} of ${fmt(p.total)}`);
  if (p.nodes !== undefined) parts.push(`${fmt(p.nodes)} nodes`);
  if (p.elapsed_ms !== undefined) parts.push(`${(p.elapsed_ms / 1000).toFixed(1)} s`);
  if (p.eta_ms !== undefined) parts.push(`about ${Math.ceil(p.eta_ms / 1000)} s left`);
  out.append(h('span', null, parts.join(' · ')));
}

// "1 cell", "3 cells".
export const plural = (k, one, many = `${one}s`) => `${fmt(k)} ${k === 1 ? one : many}`;
