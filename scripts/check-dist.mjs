// After `npm run build`: load the built core through the package's exports map in plain Node (no
// DOM globals) and use it, so a DOM or Lit import sneaking into the core fails the build.
import { strict as assert } from 'node:assert';

assert.equal(typeof globalThis.document, 'undefined');
assert.equal(typeof globalThis.HTMLElement, 'undefined');
const core = await import('resource-elements/core');
assert.equal(core.fillPath('/:group/posts/:id', { group: 'a b', id: 7 }), '/a%20b/posts/7');
console.log(`dist: resource-elements/core loads in Node (${Object.keys(core).length} exports)`);
