// api.js -- every call to puzzled goes through here.
//
// URLs are relative ("v1/sudoku/solve"), so the page works wherever it is
// served from: by puzzled itself at "/", or by a proxy under a prefix.
//
// What a caller gets: the parsed answer, or an ApiError whose `kind` says
// what went wrong, so pages can say it in words:
//   problem    the server refused the request: `problem` is its RFC 9457
//              body, `problem.errors[]` names fields (ui.showProblem()
//              puts each message next to its field);
//   network    the connection failed or dropped (the server is down, or a
//              proxy cut it);
//   cancelled  the user pressed Cancel (the request was aborted, or its job
//              was deleted on the server and ended as "cancelled").
// A 503 (queue full, shutting down) is not an error at first: the request
// waits for Retry-After, tells the page through onWait(seconds), and tries
// again, until the user cancels or MAX_RETRIES is reached.
//
// Long work runs as a job (issue 23): with {job: true} the request carries
// `Prefer: respond-async`; a 202 answer is followed through its events
// stream (progress, then done), or by polling when the stream breaks, and
// Cancel sends DELETE.  A server that answers at once (200) is fine too: the
// caller cannot tell, except that no progress arrives.

const MAX_RETRIES = 30;
const POLL_MS = 500;

export class ApiError extends Error {
  constructor(kind, message, extra = {}) {
    super(message);
    this.kind = kind;
    this.status = extra.status || 0;
    this.problem = extra.problem || null;
  }
}

const NETWORK_MESSAGE =
  'Lost the connection to the puzzled server. Check that it is running, then try again.';

// Tells the page whether the server is reachable (app.js shows a banner).
// The page starts connected: its first answer is no reconnection.
function connection(ok) {
  if (connection.last === ok) return;
  connection.last = ok;
  window.dispatchEvent(new CustomEvent('puzzled-connection', { detail: { ok } }));
  if (!ok) watchConnection();
}
connection.last = true;

function networkError() {
  connection(false);
  return new ApiError('network', NETWORK_MESSAGE);
}

// A page's module could not be loaded: the server is not answering.
export const connectionLost = () => connection(false);

// Once the connection is lost (or a page's module failed to load), asks
// healthz every PROBE_MS until the server answers, then says so: the
// banner goes, and a page that could not load loads.
const PROBE_MS = 2000;
let probing = null;
export function watchConnection() {
  if (probing) return;
  probing = setInterval(async () => {
    try {
      const res = await fetch('healthz', { cache: 'no-store' });
      if (!res.ok) return;
    } catch {
      return;
    }
    clearInterval(probing);
    probing = null;
    connection.last = false; // the import failure may not have said so
    connection(true);
  }, PROBE_MS);
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(cancelled());
    const t = setTimeout(() => {
      if (signal) signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(t);
      reject(cancelled());
    }
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
  });
}

function cancelled() {
  return new ApiError('cancelled', 'Cancelled.');
}

async function readBody(res) {
  const type = res.headers.get('Content-Type') || '';
  const text = await res.text();
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function problemError(status, body) {
  if (body && typeof body === 'object' && body.title) {
    return new ApiError('problem', body.detail || body.title, { status, problem: body });
  }
  const text = typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${status}`;
  return new ApiError('problem', text, {
    status,
    problem: { status, title: text, detail: text, errors: [] },
  });
}

// One HTTP exchange, with the 503 wait-and-retry loop; returns the Response.
async function send(method, url, opts) {
  const headers = {};
  let body;
  if (opts.body !== undefined) {
    if (typeof opts.body === 'string') {
      body = opts.body;
      headers['Content-Type'] = opts.contentType || 'text/plain';
    } else {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
  }
  if (opts.accept) headers.Accept = opts.accept;
  if (opts.job) headers.Prefer = 'respond-async';
  for (let attempt = 0; ; attempt++) {
    let res;
    try {
      // A request that asks for a job is never aborted in flight: the server
      // may have created the job already, and only its answer (202 +
      // Location) tells us which one to DELETE (followJob does, at once, when
      // the user cancelled meanwhile).  Other requests abort: the server
      // sees the connection close and stops the search.
      res = await fetch(url, { method, headers, body, signal: opts.job ? undefined : opts.signal, cache: 'no-store' });
    } catch (e) {
      if (opts.signal && opts.signal.aborted) throw cancelled();
      throw networkError();
    }
    connection(true);
    if (res.status !== 503 || attempt >= MAX_RETRIES) return res;
    const wait = Math.max(1, Math.min(60, parseInt(res.headers.get('Retry-After'), 10) || 1));
    const problem = await readBody(res).catch(() => null);
    if (opts.onWait) opts.onWait(wait, problem);
    await sleep(wait * 1000, opts.signal);
    if (opts.onWait) opts.onWait(0, null);
  }
}

// Calls the API.  opts: body (object = JSON, string = text with
// contentType), accept, signal (AbortSignal: Cancel), onWait(seconds,
// problem), job (run as an async job when the server supports it),
// onProgress(progress) for jobs, onJob(job) when a job was created.
// Resolves to the answer body (parsed JSON, or text).
export async function call(method, path, opts = {}) {
  const res = await send(method, path, opts);
  if (res.status === 202 && opts.job) {
    const job = await readBody(res);
    const location = res.headers.get('Location') || (job && job.links && job.links.self);
    if (!location) throw problemError(500, 'a job without a Location');
    return followJob(location, job, opts);
  }
  if (opts.job && opts.signal && opts.signal.aborted) throw cancelled();
  // A body cut short by our own abort (a newer run replaced this one) is a
  // cancel, not a lost server.  Counted as lost, the next answer said the
  // server was back, the page's reconnected() started a new run, and that
  // aborted the one in flight: the N-Queens page looped on its analysis.
  const body = await readBody(res).catch(() => {
    throw opts.signal && opts.signal.aborted ? cancelled() : networkError();
  });
  if (!res.ok) throw problemError(res.status, body);
  return body;
}

// The JSDoc types below come from openapi.yaml (tests/contract/api-types.d.ts;
// `make test` type-checks every call of the pages against them).
/**
 * @template {import('puzzled-openapi').GetUrl} U
 * @param {U} path
 * @param {import('puzzled-openapi').CallOptions<import('puzzled-openapi').PathOf<U>, 'get'>} [opts]
 * @returns {Promise<any>}
 */
export const get = (path, opts) => call('GET', path, opts);
/**
 * @template {import('puzzled-openapi').ApiPath<'post'>} P
 * @param {P} path
 * @param {import('puzzled-openapi').PostBody<P>} body
 * @param {import('puzzled-openapi').CallOptions<P, 'post'>} [opts]
 * @returns {Promise<any>}
 */
export const post = (path, body, opts = {}) => call('POST', path, { ...opts, body });

// The answer of an ended job, or the error it ended with.
function jobOutcome(job) {
  switch (job.status) {
    case 'done':
    case 'timeout':
      if (job.result_status && job.result_status >= 400) {
        throw problemError(job.result_status, job.result);
      }
      if (job.result !== undefined) return job.result;
      throw new ApiError('problem', `The job ended (${job.status}) without an answer.`);
    case 'cancelled':
      throw cancelled();
    default:
      throw problemError(job.result_status || 500, job.result || job.error || `job ${job.status}`);
  }
}

const ENDED = new Set(['done', 'failed', 'cancelled', 'timeout']);

// Follows a job to its end: live events while they flow, polling otherwise.
async function followJob(location, first, opts) {
  const signal = opts.signal;
  let cancelSent = false;
  const sendCancel = () => {
    if (cancelSent) return;
    cancelSent = true;
    fetch(location, { method: 'DELETE' }).catch(() => {});
  };
  if (opts.onJob) opts.onJob({ ...first, location });
  if (signal) {
    if (signal.aborted) sendCancel();
    signal.addEventListener('abort', sendCancel, { once: true });
  }
  const events = (first && first.links && first.links.events) || `${location}/events`;
  let job = await viaEvents(events, opts.onProgress).catch(() => null);
  while (!job || !ENDED.has(job.status)) {
    let res;
    try {
      res = await fetch(location, { cache: 'no-store' });
    } catch {
      throw networkError();
    }
    const body = await readBody(res);
    if (!res.ok) throw problemError(res.status, body);
    job = body;
    if (ENDED.has(job.status)) break;
    if (job.progress && opts.onProgress) opts.onProgress(job.progress);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  if (signal) signal.removeEventListener('abort', sendCancel);
  return jobOutcome(job);
}

// Resolves with the final job body from the `done` event, or rejects when
// the stream breaks first (the caller then polls).
function viaEvents(url, onProgress) {
  return new Promise((resolve, reject) => {
    if (typeof EventSource === 'undefined') return reject(new Error('no EventSource'));
    const es = new EventSource(url);
    es.addEventListener('progress', (e) => {
      try {
        const data = JSON.parse(e.data); /* the job as it is now */
        if (onProgress) onProgress(data.progress || data);
      } catch {
        /* a malformed event is ignored; the next one or the poll corrects it */
      }
    });
    es.addEventListener('done', (e) => {
      es.close();
      try {
        resolve(JSON.parse(e.data));
      } catch (err) {
        reject(err);
      }
    });
    es.onerror = () => {
      es.close(); // no automatic reconnect: polling takes over
      reject(new Error('event stream broken'));
    };
  });
}

// Streams a text answer line by line (the batch endpoint).  onLine(line) is
// called for each complete line; resolves when the answer ends.
/**
 * @template {import('puzzled-openapi').ApiPath<'post'> | `${import('puzzled-openapi').ApiPath<'post'>}?${string}`} U
 * @param {U} path
 * @param {import('puzzled-openapi').CallOptions<import('puzzled-openapi').PathOf<U>, 'post'> & {body: import('puzzled-openapi').PostBody<import('puzzled-openapi').PathOf<U>>}} opts
 * @param {(line: string) => void} onLine
 */
export async function streamLines(path, opts, onLine) {
  const res = await send('POST', path, opts);
  if (!res.ok) throw problemError(res.status, await readBody(res));
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = rest.indexOf('\n')) >= 0) {
        onLine(rest.slice(0, nl));
        rest = rest.slice(nl + 1);
      }
    }
  } catch {
    if (opts.signal && opts.signal.aborted) throw cancelled();
    throw networkError();
  }
  if (rest) onLine(rest);
}
