// examples.test.mjs -- every `example` (and every `examples.*.value`) in
// openapi.yaml is valid for what it illustrates: a schema's example against
// that schema, a parameter's against the parameter's schema, a media type's
// against the media type's schema, judged by media type as answers are
// (oas.mjs: NDJSON line by line, an event stream event by event, CSV by
// rows).  An example that no longer fits fails here, named by its JSON
// pointer in the document.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Contract, deref } from './oas.mjs';
import { ROOT } from './server.mjs';

const contract = new Contract(path.join(ROOT, 'openapi.yaml'));
const esc = (s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');

// Every object of the document with its JSON pointer and the key it sits
// under in its parent.
function* walk(node, ptr = '', parentKey = null, grandKey = null) {
  if (!node || typeof node !== 'object') return;
  yield { node, ptr, parentKey, grandKey };
  for (const [k, v] of Object.entries(node)) yield* walk(v, `${ptr}/${esc(k)}`, k, parentKey);
}

function collect() {
  const found = [];
  for (const { node, ptr, parentKey, grandKey } of walk(contract.doc)) {
    if (Array.isArray(node)) continue;
    const values = [];
    if (Object.prototype.hasOwnProperty.call(node, 'example')) values.push({ at: `${ptr}/example`, value: node.example });
    if (node.examples && typeof node.examples === 'object' && !Array.isArray(node.examples) && grandKey === 'content') {
      for (const [name, ex] of Object.entries(node.examples)) values.push({ at: `${ptr}/examples/${esc(name)}`, value: deref(contract.doc, ex).value });
    }
    if (!values.length) continue;
    let kind;
    if (grandKey === 'content') kind = { media: parentKey }; // a media type object
    else if (typeof node.in === 'string' && typeof node.name === 'string') kind = { param: true };
    else kind = { schema: true };
    for (const v of values) found.push({ ...v, ptr, kind, node });
  }
  return found;
}

const examples = collect();

test('the document has examples to check', () => {
  assert.ok(examples.length >= 10, `only ${examples.length} examples found`);
  console.log(`examples: ${examples.length} in openapi.yaml`);
});

for (const ex of examples) {
  test(`example ${ex.at}`, () => {
    let problems = [];
    if (ex.kind.media) {
      const schemaPtr = ex.node.schema ? `${ex.ptr}/schema` : null;
      const body = typeof ex.value === 'string' ? ex.value : JSON.stringify(ex.value);
      problems = contract.checkBody(ex.kind.media, ex.node, schemaPtr, ex.kind.media, body);
    } else {
      const schemaPtr = ex.kind.param ? `${ex.ptr}/schema` : ex.ptr;
      const fn = contract.validator(schemaPtr);
      if (!fn(ex.value)) problems = fn.errors.map((e) => ({ path: e.instancePath || '(example)', message: e.message }));
    }
    assert.deepEqual(
      problems.map((p) => `${p.path}: ${p.message}`),
      [],
      `${ex.at} does not fit its schema`,
    );
  });
}
