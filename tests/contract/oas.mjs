// oas.mjs -- openapi.yaml as a validator: which operation an exchange
// reached, and whether the answer (and, for accepted requests, the request)
// is one the document allows.
//
// Schemas are checked by Ajv (draft-07) with the OpenAPI 3.0 dialect: the
// `nullable` keyword (Ajv's own OpenAPI support), the `example` annotation,
// and the OpenAPI formats (int32, int64, float, double, byte, binary,
// password) beside ajv-formats' date-time and friends.  Strict mode is on, so
// a schema with a keyword nobody knows (say, a description that YAML turned
// into a key) fails to compile instead of silently allowing anything.
//
// Bodies are judged by media type:
//   application/json, */*+json    parsed, validated against the schema;
//   application/x-ndjson          every line parsed and validated against the
//                                 schema, which describes one line;
//   text/event-stream             the SSE grammar (event:, data:, id:, retry:,
//                                 comments, blank-line separators); `data` of
//                                 each event is JSON validated against the
//                                 media type's `x-event-data` schema when set
//                                 (`x-event-schemas`: one per event name);
//   text/csv                      rows of one field count, quotes balanced;
//   other text/*, image/svg+xml   UTF-8 text, validated as a string.
// Headers marked `required: true` must be present, and every documented
// header that is present must match its schema.
//
// Paths outside /v1/ that no operation names are files of the web front end,
// which the server answers through the `/` operation (server/http/router.c).

import fs from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export function loadSpec(file) {
  const text = fs.readFileSync(file, 'utf8');
  return YAML.parse(text);
}

// Follows a non-schema $ref ("#/components/responses/X") to its object.
export function deref(doc, obj) {
  let seen = 0;
  while (obj && typeof obj === 'object' && typeof obj.$ref === 'string') {
    if (++seen > 32) throw new Error(`$ref loop at ${obj.$ref}`);
    if (!obj.$ref.startsWith('#/')) throw new Error(`external $ref ${obj.$ref} is not supported`);
    obj = obj.$ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((o, k) => (o == null ? undefined : o[k]), doc);
    if (obj === undefined) throw new Error(`unresolved $ref`);
  }
  return obj;
}

export function newAjv() {
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: 'externalDocs' });
  ajv.addKeyword({ keyword: 'xml' });
  // The document itself is added as one schema ("oas") so that $refs such
  // as "#/components/schemas/Job" resolve inside it; its top-level fields
  // are annotations to Ajv.
  for (const k of ['openapi', 'info', 'servers', 'paths', 'components', 'tags', 'security'])
    ajv.addKeyword({ keyword: k });
  const isInt = (bits) => (n) => Number.isInteger(n) && Math.abs(n) <= 2 ** (bits - 1);
  ajv.addFormat('int32', { type: 'number', validate: isInt(32) });
  // JSON numbers past 2^53 lose precision in JavaScript but stay integers.
  ajv.addFormat('int64', { type: 'number', validate: (n) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
  ajv.addFormat('binary', () => true);
  ajv.addFormat('password', () => true);
  return ajv;
}

// Mismatch: {where, path, message}; `path` points into the body ("" = whole).
function ajvErrors(errors, prefix) {
  return (errors || []).map((e) => {
    let msg = e.message;
    if (e.keyword === 'additionalProperties') msg += `: '${e.params.additionalProperty}'`;
    if (e.keyword === 'enum') msg += `: ${JSON.stringify(e.params.allowedValues)}`;
    return { path: `${prefix}${e.instancePath}` || prefix || '(body)', message: msg };
  });
}

export class Contract {
  constructor(file) {
    this.file = file;
    this.doc = loadSpec(file);
    this.ajv = newAjv();
    this.ajv.addSchema(this.doc, 'oas');
    this.cache = new Map();
    this.ops = [];
    for (const [tmpl, item] of Object.entries(this.doc.paths || {})) {
      const re = new RegExp(
        `^${tmpl.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+')}$`,
      );
      for (const m of METHODS) {
        if (!item[m]) continue;
        this.ops.push({
          method: m.toUpperCase(),
          path: tmpl,
          re,
          op: item[m],
          pointer: `#/paths/${esc(tmpl)}/${m}`,
          params: [...(item.parameters || []), ...(item[m].parameters || [])].map((p) =>
            deref(this.doc, p),
          ),
          id: item[m].operationId || `${m.toUpperCase()} ${tmpl}`,
        });
      }
    }
  }

  // A compiled validator for the schema at this JSON pointer of the document.
  validator(pointer) {
    let v = this.cache.get(pointer);
    if (!v) {
      try {
        v = this.ajv.compile({ $ref: `oas#${pointer}` });
      } catch (e) {
        // a schema Ajv refuses (strict mode: an unknown keyword is usually a
        // description YAML turned into a key) fails every value it checks
        const errors = [{ instancePath: '', keyword: 'compile', params: {}, message: `the schema at ${pointer} does not compile: ${e.message}` }];
        v = Object.assign(() => false, { errors });
      }
      this.cache.set(pointer, v);
    }
    return v;
  }

  // The documented path template an URL path belongs to, and the
  // operations on it: {path, ops} (ops empty: no such path).
  route(urlPath) {
    let ops = this.ops.filter((o) => o.re.test(urlPath));
    if (!ops.length && !urlPath.startsWith('/v1/')) ops = this.ops.filter((o) => o.path === '/');
    return { path: ops.length ? ops[0].path : null, ops };
  }

  // The operation a request reached: {op, path, kind}; kind is 'operation',
  // 'method' (the path exists, not with this method), 'path' (no such
  // path) or 'preflight' (OPTIONS, answered for every path by CORS).
  match(method, urlPath) {
    const { path, ops } = this.route(urlPath);
    if (!path) return { kind: 'path', path: null, ops: [] };
    const want = method === 'HEAD' ? 'GET' : method;
    const op = ops.find((o) => o.method === want);
    if (op) return { kind: 'operation', op, path, ops };
    if (method === 'OPTIONS') return { kind: 'preflight', path, ops };
    return { kind: 'method', path, ops };
  }

  // The response object (dereferenced) an operation documents for a status,
  // with its JSON pointer, or null.
  response(o, status) {
    const r = o.op.responses || {};
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in r);
    if (!key) return null;
    const ref = r[key].$ref;
    const pointer = ref ? ref.slice(1) : `${o.pointer.slice(1)}/responses/${key}`;
    return { key, pointer, obj: deref(this.doc, r[key]) };
  }

  // Checks one normalised exchange (see validate.mjs) against the document:
  // {kind, label, op, list} where list holds the mismatches; kind as match().
  checkExchange(ex) {
    const m = this.match(ex.method, ex.urlPath);
    if (m.kind === 'preflight') return { kind: m.kind, label: `OPTIONS ${m.path}`, list: [] };
    if (m.kind === 'path') {
      const label = `${ex.method} ${ex.urlPath} (no such path) -> ${ex.status}`;
      const nf = this.doc.components && this.doc.components.responses && this.doc.components.responses.NotFound;
      if (ex.status !== 404 || !nf)
        return { ...m, label, list: [{ path: 'status', message: 'an undocumented path must answer 404 (components/responses/NotFound)' }] };
      return { ...m, label, list: this.checkAnswer({ pointer: '/components/responses/NotFound', obj: nf }, ex) };
    }
    if (m.kind === 'method') {
      // Another method on a documented path: a status some operation of the
      // path documents for it (405, or 413 before routing), checked against
      // that response.
      const label = `${ex.method} ${m.path} (method not documented) -> ${ex.status}`;
      const o = m.ops.find((x) => {
        const r = this.response(x, ex.status);
        return r && r.key === String(ex.status);
      });
      if (!o) return { ...m, label, list: [{ path: 'status', message: `no operation of ${m.path} documents ${ex.status}` }] };
      return { ...m, label, list: this.checkAnswer(this.response(o, ex.status), ex) };
    }
    const o = m.op;
    const label = `${o.id} (${o.method} ${o.path}) -> ${ex.status} ${ex.type || '(no type)'}`;
    const resp = this.response(o, ex.status);
    if (!resp) {
      const documented = Object.keys(o.op.responses || {}).join(', ');
      return { ...m, label, list: [{ path: 'status', message: `${ex.status} is not documented (documented: ${documented})` }] };
    }
    const list = this.checkAnswer(resp, ex);
    const result = o.path.startsWith('/v1/jobs/') && o.path.endsWith('/result'); // the job's own answer
    if (ex.status >= 400 && ex.type !== 'application/problem+json' && !result)
      list.push({ path: 'Content-Type', message: `an error answered ${ex.type || '(none)'}, not application/problem+json` });
    if (ex.status >= 200 && ex.status < 300) list.push(...this.checkRequest(o, ex));
    return { ...m, label, list };
  }

  // Checks one answer against a response object.  `ex` = {method, status,
  // type (media type, lower case, no parameters), headers (lower-case name
  // -> value), body (string or null when not recorded), incomplete}.
  // Returns a list of {path, message}.
  checkAnswer(resp, ex) {
    const out = [];
    const obj = resp.obj;
    for (const [name, h0] of Object.entries(obj.headers || {})) {
      const h = deref(this.doc, h0);
      const v = ex.headers[name.toLowerCase()];
      if (v === undefined) {
        if (h.required) out.push({ path: `header ${name}`, message: 'is required but absent' });
        continue;
      }
      if (h.schema) {
        const val = coerce(v, deref(this.doc, h.schema), this.doc);
        const fn = this.validator(`${resp.pointer}/headers/${esc(name)}/schema`);
        if (!fn(val)) out.push(...ajvErrors(fn.errors, `header ${name}`));
      }
    }
    const content = obj.content || {};
    const hasBody = ex.body !== null && ex.body !== undefined && ex.body.length > 0;
    if (ex.method === 'HEAD' || ex.status === 204 || ex.status === 304) {
      if (hasBody) out.push({ path: '(body)', message: `a ${ex.status} answer to ${ex.method} has a body` });
      return out;
    }
    if (!Object.keys(content).length) {
      if (hasBody) out.push({ path: '(body)', message: `a body (${ex.type || 'no type'}) where the document describes none` });
      return out;
    }
    const mt = pickMediaType(content, ex.type);
    if (!mt) {
      out.push({
        path: 'Content-Type',
        message: `${ex.type || '(none)'} is not one of ${Object.keys(content).join(', ')}`,
      });
      return out;
    }
    if (ex.body === null || ex.body === undefined || ex.incomplete) return out; // not recorded: type only
    const media = content[mt];
    const schemaPtr = media.schema ? `${resp.pointer}/content/${esc(mt)}/schema` : null;
    out.push(...this.checkBody(mt, media, schemaPtr, ex.type, ex.body));
    return out;
  }

  // Checks a body of media type `type` against a media type object.
  checkBody(mt, media, schemaPtr, type, body) {
    const out = [];
    const fn = schemaPtr ? this.validator(schemaPtr) : null;
    const kind = mediaKind(type || mt);
    if (kind === 'json') {
      let v;
      try {
        v = JSON.parse(body);
      } catch (e) {
        return [{ path: '(body)', message: `not JSON: ${e.message}` }];
      }
      if (fn && !fn(v)) out.push(...ajvErrors(fn.errors, ''));
    } else if (kind === 'ndjson') {
      const lines = body.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      else out.push({ path: `line ${lines.length}`, message: 'the last line has no newline' });
      lines.forEach((line, i) => {
        let v;
        try {
          v = JSON.parse(line);
        } catch (e) {
          out.push({ path: `line ${i + 1}`, message: `not JSON: ${e.message}` });
          return;
        }
        if (fn && !fn(v)) out.push(...ajvErrors(fn.errors, `line ${i + 1}`));
      });
    } else if (kind === 'sse') {
      out.push(...this.checkEvents(media, schemaPtr, body));
    } else if (kind === 'csv') {
      out.push(...checkCsv(body));
      if (fn && !fn(body)) out.push(...ajvErrors(fn.errors, ''));
    } else {
      if (fn && !fn(body)) out.push(...ajvErrors(fn.errors, ''));
    }
    return out;
  }

  checkEvents(media, schemaPtr, body) {
    const out = [];
    const dataPtr = media['x-event-data'] ? `${schemaPtr.replace(/\/schema$/, '')}/x-event-data` : null;
    const events = parseSse(body, out);
    events.forEach((ev, i) => {
      const where = `event ${i + 1} (${ev.event})`;
      const names = media['x-events'];
      if (names && !names.includes(ev.event)) out.push({ path: where, message: `is not one of ${names.join(', ')}` });
      const own = media['x-event-schemas'] && media['x-event-schemas'][ev.event];
      const ptr = own ? `${schemaPtr.replace(/\/schema$/, '')}/x-event-schemas/${ev.event}` : dataPtr;
      if (!ptr) return;
      let v;
      try {
        v = JSON.parse(ev.data);
      } catch (e) {
        out.push({ path: `${where}.data`, message: `not JSON: ${e.message}` });
        return;
      }
      const fn = this.validator(ptr);
      if (!fn(v)) out.push(...ajvErrors(fn.errors, `${where}.data`));
    });
    return out;
  }

  // Checks an accepted request: its query parameters and its body.
  checkRequest(o, ex) {
    const out = [];
    const q = ex.query;
    for (const p of o.params) {
      if (p.in === 'query') {
        const vals = q.getAll(p.name);
        if (!vals.length) {
          if (p.required) out.push({ path: `query ${p.name}`, message: 'is required but absent' });
          continue;
        }
        const schema = deref(this.doc, p.schema || {});
        const fn = this.ajv.compile(stripRefs(p.schema || {}));
        const v = coerce(vals[0], schema, this.doc);
        if (!fn(v)) out.push(...ajvErrors(fn.errors, `query ${p.name}`));
      } else if (p.in === 'header') {
        const v = ex.reqHeaders[p.name.toLowerCase()];
        if (v === undefined && p.required) out.push({ path: `header ${p.name}`, message: 'is required but absent' });
      }
    }
    for (const name of new Set(q.keys())) {
      if (!o.params.some((p) => p.in === 'query' && p.name === name))
        out.push({ path: `query ${name}`, message: 'is not a documented parameter' });
    }
    const rb = o.op.requestBody ? deref(this.doc, o.op.requestBody) : null;
    const hasBody = ex.reqBody !== null && ex.reqBody !== undefined && ex.reqBody.length > 0;
    if (!rb) {
      if (hasBody) out.push({ path: '(request body)', message: 'the document describes no request body' });
      return out;
    }
    if (!hasBody) {
      if (rb.required) out.push({ path: '(request body)', message: 'is required but absent' });
      return out;
    }
    const ptr = o.op.requestBody.$ref ? o.op.requestBody.$ref.slice(1) : `${o.pointer.slice(1)}/requestBody`;
    const type = ex.reqType || 'application/x-www-form-urlencoded';
    const mt = pickMediaType(rb.content || {}, type);
    if (!mt) {
      out.push({ path: 'request Content-Type', message: `${type} is not one of ${Object.keys(rb.content || {}).join(', ')}` });
      return out;
    }
    const media = rb.content[mt];
    const sp = media.schema ? `${ptr}/content/${esc(mt)}/schema` : null;
    out.push(...this.checkBody(mt, media, sp, type, ex.reqBody).map((m) => ({ ...m, path: `request ${m.path}` })));
    return out;
  }
}

// A schema with its top-level $ref resolved for standalone compilation.
function stripRefs(schema) {
  if (schema.$ref) return { $ref: `oas${schema.$ref}` };
  return schema;
}

// A header or query string as the value its schema describes.
export function coerce(v, schema, doc) {
  const s = deref(doc, schema) || {};
  const type = s.type;
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v) ? Number(v) : v;
  if (type === 'boolean') return v === 'true' ? true : v === 'false' ? false : v;
  return v;
}

export function mediaKind(type) {
  const t = (type || '').toLowerCase();
  if (t === 'application/json' || /^application\/[^;]*\+json$/.test(t)) return 'json';
  if (t === 'application/x-ndjson') return 'ndjson';
  if (t === 'text/event-stream') return 'sse';
  if (t === 'text/csv') return 'csv';
  return 'text';
}

// The documented media type an answer's type falls under: exact, then
// "type/*", then "*/*".
export function pickMediaType(content, type) {
  if (!type) return null;
  const t = type.toLowerCase();
  if (content[t]) return t;
  const major = `${t.split('/')[0]}/*`;
  if (content[major]) return major;
  if (content['*/*']) return '*/*';
  return null;
}

// RFC 4180-ish: every record has as many fields as the first; quotes balance.
export function checkCsv(body) {
  const out = [];
  const rows = [];
  let field = 0;
  let inQ = false;
  let row = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inQ) {
      if (c === '"' && body[i + 1] === '"') i++;
      else if (c === '"') inQ = false;
    } else if (c === '"') inQ = true;
    else if (c === ',') field++;
    else if (c === '\n') {
      rows.push(field + 1);
      field = 0;
      row++;
    } else if (c === '\r' && body[i + 1] !== '\n') out.push({ path: `row ${row + 1}`, message: 'a bare CR' });
  }
  if (inQ) out.push({ path: `row ${row + 1}`, message: 'an unterminated quoted field' });
  if (field > 0 || (body.length && body[body.length - 1] !== '\n')) rows.push(field + 1);
  if (!rows.length) out.push({ path: '(body)', message: 'no rows' });
  rows.forEach((n, i) => {
    if (n !== rows[0]) out.push({ path: `row ${i + 1}`, message: `${n} fields, the first row has ${rows[0]}` });
  });
  return out;
}

// Parses a text/event-stream body into [{event, data}] (comments skipped);
// grammar problems are pushed to `out`.
export function parseSse(body, out) {
  const events = [];
  let ev = { event: 'message', data: null };
  const lines = body.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, i) => {
    if (line === '') {
      if (ev.data !== null) events.push(ev);
      ev = { event: 'message', data: null };
      return;
    }
    if (line.startsWith(':')) return;
    const k = line.indexOf(':');
    const field = k < 0 ? line : line.slice(0, k);
    const value = k < 0 ? '' : line.slice(k + 1).replace(/^ /, '');
    if (field === 'event') ev.event = value;
    else if (field === 'data') ev.data = ev.data === null ? value : `${ev.data}\n${value}`;
    else if (field !== 'id' && field !== 'retry')
      out.push({ path: `line ${i + 1}`, message: `'${field}' is not an event-stream field` });
  });
  if (ev.data !== null) out.push({ path: '(end)', message: 'the last event is not ended by a blank line' });
  return events;
}

// Parses a raw header block (possibly several: 100 Continue, then the
// answer) into lower-case name -> value of the last block.
export function parseHeaders(raw) {
  const blocks = (raw || '').split(/\r?\n\r?\n/).filter((b) => b.trim());
  const last = blocks.length ? blocks[blocks.length - 1] : '';
  const h = {};
  for (const line of last.split(/\r?\n/).slice(1)) {
    const k = line.indexOf(':');
    if (k > 0) h[line.slice(0, k).trim().toLowerCase()] = line.slice(k + 1).trim();
  }
  return h;
}

export const mediaType = (ct) => (ct || '').split(';')[0].trim().toLowerCase();

const recText = (rec, key) => {
  if (typeof rec[key] === 'string') return rec[key];
  if (typeof rec[`${key}_b64`] === 'string') return Buffer.from(rec[`${key}_b64`], 'base64').toString('latin1');
  return null;
};

// Headers as lower-case name -> value, from a raw block, "Name: value"
// lines or an object.
export function headerObject(h) {
  if (!h) return {};
  if (typeof h === 'string') return parseHeaders(h);
  if (Array.isArray(h)) {
    const o = {};
    for (const line of h) {
      const k = line.indexOf(':');
      if (k > 0) o[line.slice(0, k).trim().toLowerCase()] = line.slice(k + 1).trim();
    }
    return o;
  }
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), String(v)]));
}

// A recorded line (record.h describes it) as the exchange checkExchange()
// takes; `where` names it in reports.
export function exchangeOf(rec, where, source) {
  const url = new URL(rec.url, 'http://x');
  const headers = headerObject(rec.resp_headers);
  const reqHeaders = headerObject(rec.req_headers);
  return {
    where,
    source: rec.source || source,
    test: rec.test || null,
    method: String(rec.method).toUpperCase(),
    urlPath: url.pathname,
    query: url.searchParams,
    reqHeaders,
    reqType: reqHeaders['content-type'] ? mediaType(reqHeaders['content-type']) : null,
    reqBody: recText(rec, 'req_body'),
    status: Number(rec.status),
    headers,
    type: headers['content-type'] ? mediaType(headers['content-type']) : null,
    body: recText(rec, 'body'),
    incomplete: !!rec.incomplete || rec.body_truncated !== undefined,
  };
}
