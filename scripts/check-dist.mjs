// After `npm run build`: load the built core through the package's exports map in plain Node (no
// DOM globals) and use it, so a DOM or Lit import sneaking into the core fails the build.
import { strict as assert } from 'node:assert';

assert.equal(typeof globalThis.document, 'undefined');
assert.equal(typeof globalThis.HTMLElement, 'undefined');
const core = await import('resource-elements/core');
assert.equal(core.fillPath('/:group/posts/:id', { group: 'a b', id: 7 }), '/a%20b/posts/7');
console.log(`dist: resource-elements/core loads in Node (${Object.keys(core).length} exports)`);

// custom-elements.json, named in package.json's customElements field, describes <resource-provider>.
const { readFileSync } = await import('node:fs');
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
const definitions = manifest.modules.flatMap((module) =>
  (module.exports ?? [])
    .filter((entry) => entry.kind === 'custom-element-definition')
    .map((entry) => entry.name),
);
assert.ok(
  definitions.includes('resource-provider'),
  'custom-elements.json defines <resource-provider>',
);
console.log(`custom-elements.json: ${definitions.join(', ')}`);

// The server entry loads in plain Node from dist (with @lit-labs/ssr, its optional peer) and
// escapes what it writes into the page. Last: importing it installs Lit's DOM shim.
const ssr = await import('resource-elements/ssr');
const { Controller, RestEndpoint } = await import('resource-elements');
const controller = new Controller();
controller.setResponse(new RestEndpoint({ path: '/x' }), '</script><!--');
assert.doesNotMatch(ssr.serializeState(controller), /</);
console.log(`dist: resource-elements/ssr loads in Node (${Object.keys(ssr).length} exports)`);
