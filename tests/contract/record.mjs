// record.mjs -- the node side of the exchange record (the C side is
// record.c, whose header describes the line format): node's own requests
// (fetch, or exchange() below for what fetch refuses to send) and the API
// answers a browser page receives (recordPage) are appended to
// $PUZZLED_CONTRACT_DIR/<source>-<pid>.jsonl when that is set.  Nothing is
// recorded otherwise.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export const contractDir = () => process.env.PUZZLED_CONTRACT_DIR || '';

const MAX_BODY = Number(process.env.PUZZLED_CONTRACT_MAX_BODY || 8 << 20);

// Appends one exchange.  rec: {source, test, method, url, req_headers
// (object), req_body (string|Buffer|null), status, resp_headers (object),
// body (string|Buffer|null), incomplete}.
export function record(rec) {
  const dir = contractDir();
  if (!dir || !rec.status) return;
  const line = { source: rec.source, test: rec.test || undefined, method: rec.method, url: rec.url };
  line.req_headers = rec.req_headers || {};
  put(line, 'req_body', rec.req_body);
  line.status = rec.status;
  line.resp_headers = rec.resp_headers || {};
  put(line, 'body', rec.body);
  if (rec.incomplete) line.incomplete = true;
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, `${rec.source}-${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
}

function put(line, key, v) {
  if (v === null || v === undefined) return;
  const buf = Buffer.isBuffer(v) ? v : Buffer.from(String(v));
  if (buf.length > MAX_BODY) line[`${key}_truncated`] = buf.length;
  else if (isUtf8(buf)) line[key] = buf.toString('utf8');
  else line[`${key}_b64`] = buf.toString('base64');
}

const isUtf8 = (buf) => Buffer.from(buf.toString('utf8'), 'utf8').equals(buf);

const headersOf = (h) => {
  const o = {};
  if (!h) return o;
  if (typeof h.forEach === 'function' && !Array.isArray(h)) h.forEach((v, k) => (o[k.toLowerCase()] = v));
  else for (const [k, v] of Object.entries(h)) o[k.toLowerCase()] = String(v);
  return o;
};

// fetch() that records every exchange (the body is read from a clone, so
// the caller's stream is untouched; an event stream is recorded once it
// ends).  Returns `fetch` itself when recording is off.
export function recordingFetch(inner, source, testName = () => undefined) {
  if (!contractDir()) return inner;
  return async function fetchRecorded(input, init = {}) {
    const req = new Request(input, init);
    const reqBody = init.body === undefined || init.body === null ? null : String(init.body);
    const res = await inner(input, init);
    const copy = res.clone();
    const test = testName();
    copy
      .arrayBuffer()
      .then(
        (b) => ({ body: Buffer.from(b), incomplete: false }),
        () => ({ body: null, incomplete: true }),
      )
      .then(({ body, incomplete }) =>
        record({
          source,
          test,
          method: req.method,
          url: req.url,
          req_headers: headersOf(req.headers),
          req_body: reqBody,
          status: res.status,
          resp_headers: headersOf(res.headers),
          body,
          incomplete,
        }),
      );
    return res;
  };
}

// One raw HTTP exchange (what fetch will not send: a GET with a body, a
// Content-Length that lies, a Transfer-Encoding of its own, no Host header
// with setHost: false), recorded.  Resolves to {status, headers, body}.
export function exchange(base, method, urlPath, { headers = {}, body = null, source = 'node', test, setHost = true } = {}) {
  const url = new URL(urlPath, base);
  // node frames a GET's body only when told its length (unless the caller frames it)
  const framed = Object.keys(headers).some((k) => ['content-length', 'transfer-encoding'].includes(k.toLowerCase()));
  if (body !== null && !framed) headers = { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false, setHost }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const buf = Buffer.concat(chunks);
        const out = { status: res.statusCode, headers: headersOf(res.headers), body: buf.toString('utf8') };
        record({
          source,
          test,
          method,
          url: url.href,
          req_headers: headersOf(headers),
          req_body: body,
          status: res.statusCode,
          resp_headers: out.headers,
          body: buf,
        });
        resolve(out);
      });
    });
    req.on('error', reject);
    if (body !== null) req.end(body);
    else req.end();
  });
}
