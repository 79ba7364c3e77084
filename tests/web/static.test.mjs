// static.test.mjs -- how puzzled serves web/: types, caching, gzip, the
// security and permissions policies, no inline script or style anywhere,
// and the first load's size.  (a11y.test.mjs looks at every page.)

import { before, after } from 'node:test';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { assert, webTest, startServer, startBrowser, openPage } from './harness.mjs';

const WEB = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
const FIRST_LOAD_BUDGET = 100 * 1024;

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-static');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

webTest('files come with their type, an ETag, no-cache and the policy', async () => {
  const cases = [
    ['/', 'text/html; charset=utf-8', 'index.html'],
    ['/index.html', 'text/html; charset=utf-8', 'index.html'],
    ['/css/app.css', 'text/css; charset=utf-8', 'css/app.css'],
    ['/js/app.js', 'text/javascript; charset=utf-8', 'js/app.js'],
    ['/favicon.svg', 'image/svg+xml', 'favicon.svg'],
  ];
  for (const [url, type, file] of cases) {
    const r = await fetch(srv.base + url);
    assert.equal(r.status, 200, url);
    assert.equal(r.headers.get('content-type'), type, url);
    assert.equal(r.headers.get('cache-control'), 'no-cache', url);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff', url);
    const csp = r.headers.get('content-security-policy');
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    // the bytes are the file's (the binary embeds web/ at build time)
    assert.deepEqual(Buffer.from(await r.arrayBuffer()), fs.readFileSync(path.join(WEB, file)), url);
    const etag = r.headers.get('etag');
    assert.match(etag, /^"[0-9a-f]{16}"$/);
    const again = await fetch(srv.base + url, { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304, `${url} revalidates`);
    assert.equal((await again.arrayBuffer()).byteLength, 0);
    const weak = await fetch(srv.base + url, { headers: { 'If-None-Match': `"other", W/${etag}` } });
    assert.equal(weak.status, 304, 'weak comparison, in a list');
    const stale = await fetch(srv.base + url, { headers: { 'If-None-Match': '"0000000000000000"' } });
    assert.equal(stale.status, 200);
  }
  const plain = await fetch(`${srv.base}/`, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get('content-encoding'), null);
  assert.equal(Number(plain.headers.get('content-length')), fs.statSync(path.join(WEB, 'index.html')).size);
  // gzip when the client takes it (the bytes compressed at build time), with Vary
  const gz = await fetch(`${srv.base}/`, { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } });
  assert.equal(gz.headers.get('content-encoding'), 'gzip');
  assert.equal(gz.headers.get('vary'), 'Accept-Encoding');
  assert.ok(Number(gz.headers.get('content-length')) < fs.statSync(path.join(WEB, 'index.html')).size / 1.5);
  assert.match(gz.headers.get('permissions-policy'), /camera=\(\)/);
  // paths that leave web/ or name hidden files, sent as they are (fetch
  // would resolve the dots itself)
  for (const bad of ['/nope.js', '/.hidden', '/js/../index.html', '/js//app.js', '/%2e%2e/Makefile', '/js/%2e%2e/index.html', '/../Makefile']) {
    const answer = await rawGet(srv.base, bad);
    assert.match(answer, /^HTTP\/1\.1 404 /, bad);
    assert.match(answer, /content-type: application\/problem\+json/i, bad);
  }
  const post = await fetch(`${srv.base}/index.html`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  // the API's namespace is not the front end's
  assert.equal((await fetch(`${srv.base}/v1/nope`)).status, 404);
});

// One GET over a plain socket; resolves to the answer's status line and headers.
function rawGet(base, target) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const s = net.connect(+port, hostname, () => s.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let got = '';
    s.on('data', (d) => (got += d));
    s.on('end', () => resolve(got.split('\r\n\r\n')[0]));
    s.on('error', reject);
  });
}

webTest('no inline script or style, anywhere in web/', async () => {
  const files = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(WEB);
  for (const f of files.filter((x) => x.endsWith('.html'))) {
    const html = fs.readFileSync(f, 'utf8');
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, `${f}: inline <script>`);
    assert.doesNotMatch(html, /<style/i, `${f}: <style>`);
    assert.doesNotMatch(html, /\sstyle=/i, `${f}: style attribute`);
    assert.doesNotMatch(html, /\son[a-z]+=/i, `${f}: inline event handler`);
    assert.doesNotMatch(html, /(src|href)="\//, `${f}: absolute URL (the page must work under a prefix)`);
  }
  for (const f of files.filter((x) => x.endsWith('.js'))) {
    const js = fs.readFileSync(f, 'utf8');
    assert.doesNotMatch(js, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/, `${f}: builds HTML from strings or evaluates code`);
    assert.doesNotMatch(js, /setAttribute\(\s*'style'/, `${f}: style attribute`);
    assert.doesNotMatch(js, /fetch\(\s*['`]\/|EventSource\(\s*['`]\//, `${f}: an absolute API URL`);
  }
});

webTest('the first load stays under 100 KB compressed', async () => {
  // What the browser fetches to show the first page (gzip, as Chromium asks
  // for it), measured in the browser: bytes on the wire, headers included.
  const page = await openPage(browser.ctx, `${srv.base}/`);
  await page.waitForLoadState('networkidle');
  const { doc, files } = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname, e.transferSize, e.decodedBodySize]);
    return { doc: [nav.transferSize, nav.decodedBodySize], files: res };
  });
  const web = files.filter(([p]) => !p.startsWith('/v1/') && p !== '/healthz');
  const wire = doc[0] + web.reduce((t, [, n]) => t + n, 0);
  const plain = doc[1] + web.reduce((t, [, , n]) => t + n, 0);
  console.log(
    `first load: ${wire} bytes on the wire (${plain} uncompressed) in ${web.length + 1} files: ` +
      `index.html ${doc[0]}, ${web.map(([p, n]) => `${p} ${n}`).join(', ')}`,
  );
  assert.ok(wire < FIRST_LOAD_BUDGET, `first load ${wire} bytes compressed`);
  assert.ok(wire < plain / 2.5, 'the files came compressed');
  // the other pages are loaded only when visited
  assert.ok(!web.some(([p]) => /queens|killer|cover|batch|watch/.test(p)), 'only the Sudoku page on first load');
  page.assertNoErrors();
});
