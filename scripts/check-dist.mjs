// After `npm run build`: load the built core through the package's exports map in plain Node (no
// DOM globals) and use it, so a DOM or Lit import sneaking into the core fails the build.
import { strict as assert } from 'node:assert';

assert.equal(typeof globalThis.document, 'undefined');
assert.equal(typeof globalThis.HTMLElement, 'undefined');
const core = await import('resource-elements/core');
assert.equal(core.fillPath('/:group/posts/:id', { group: 'a b', id: 7 }), '/a%20b/posts/7');
console.log(`dist: resource-elements/core loads in Node (${Object.keys(core).length} exports)`);

// custom-elements.json, named in package.json's customElements field, describes the shipped
// elements: every module it names is a built dist/ file, only public members, the default slots.
const { existsSync, readFileSync } = await import('node:fs');
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
const definitions = manifest.modules.flatMap((module) =>
  (module.exports ?? [])
    .filter((entry) => entry.kind === 'custom-element-definition')
    .map((entry) => entry.name),
);
for (const tag of [
  'resource-provider',
  'resource-boundary',
  'resource-devtools',
  'resource-read',
]) {
  assert.ok(definitions.includes(tag), `custom-elements.json defines <${tag}>`);
}
const named = manifest.modules.flatMap((module) => [
  module.path,
  ...(module.exports ?? []).map((entry) => entry.declaration?.module).filter(Boolean),
]);
for (const path of named) {
  assert.match(path, /^dist\/.*\.js$/, `custom-elements.json names ${path}, which is not shipped`);
  assert.ok(existsSync(path), `custom-elements.json names ${path}, which the build did not make`);
}
const elements = manifest.modules.flatMap((module) =>
  (module.declarations ?? []).filter((declaration) => declaration.customElement),
);
for (const element of elements) {
  const internal = [...(element.members ?? []), ...(element.attributes ?? [])]
    .map((entry) => entry.name)
    .filter((name) => /^[#_]/.test(name));
  assert.deepEqual(internal, [], `custom-elements.json lists internals of <${element.tagName}>`);
}
for (const tag of ['resource-provider', 'resource-boundary']) {
  const element = elements.find((declaration) => declaration.tagName === tag);
  assert.ok(
    element?.slots?.some((slot) => slot.name === ''),
    `custom-elements.json gives <${tag}> its default slot`,
  );
}
console.log(`custom-elements.json: ${definitions.join(', ')}`);

// Each module's development flag became the inline NODE_ENV test (scripts/dev-flag.mjs): no
// `DEV` is left in what ships, where consumers' bundlers could not fold it away.
const { readdirSync } = await import('node:fs');
const modules = readdirSync('dist', { recursive: true }).filter((file) => file.endsWith('.js'));
for (const file of modules) {
  assert.doesNotMatch(
    readFileSync(`dist/${file}`, 'utf8'),
    /(?<![\w$.])DEV(?![\w$])/,
    `dist/${file} still has the development flag: is the dev-flag transform in rollup.config.mjs?`,
  );
}
console.log(`dist: ${modules.length} modules, no development flag left in any`);

// The build type-checks with Node's types (for the inline `process.env.NODE_ENV` tests); no
// declaration may come to need them, or a browser-only consumer's `tsc` fails.
const declarations = readdirSync('dist', { recursive: true }).filter((file) =>
  file.endsWith('.d.ts'),
);
for (const file of declarations) {
  assert.doesNotMatch(
    readFileSync(`dist/${file}`, 'utf8'),
    /reference types="node"|NodeJS\./,
    `dist/${file} needs Node's types`,
  );
}
console.log(`dist: ${declarations.length} declaration files, none needs Node's types`);

// The server entry loads in plain Node from dist (with @lit-labs/ssr, its optional peer) and
// escapes what it writes into the page. Last: importing it installs Lit's DOM shim.
const ssr = await import('resource-elements/ssr');
const { Controller, RestEndpoint } = await import('resource-elements');
const controller = new Controller();
controller.setResponse(new RestEndpoint({ path: '/x' }), '</script><!--');
assert.doesNotMatch(ssr.serializeState(controller), /</);
console.log(`dist: resource-elements/ssr loads in Node (${Object.keys(ssr).length} exports)`);
