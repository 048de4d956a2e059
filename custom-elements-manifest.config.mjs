// custom-elements.json describes the package as it is shipped: module paths are the dist/*.js
// files package.json `exports` lead to (src/ is not in the tarball), and only the public API is
// listed (no `#private` or `_internal` members, no attributes for internal reactive state).
// The consumer test checks every path in it is in the packed tarball.

import { posix } from 'node:path';

/**
 * Where a module reference points in the package: `src/lit/a.ts` and `/src/lit/a.js` become
 * `dist/lit/a.js`; a relative re-export (`./a.js` in `dist/lit/index.js`) is resolved from `from`.
 */
export function shippedPath(path, from) {
  if (typeof path !== 'string') return path;
  if (from && path.startsWith('.')) return posix.join(posix.dirname(from), path);
  const match = /^\/?src\/(.*)\.(?:ts|js)$/.exec(path);
  return match ? `dist/${match[1]}.js` : path;
}

const isInternal = (name) => typeof name === 'string' && /^[#_]/.test(name);

function publicOnly(declaration) {
  if (Array.isArray(declaration.members)) {
    declaration.members = declaration.members.filter(
      (member) =>
        !isInternal(member.name) && member.privacy !== 'private' && member.privacy !== 'protected',
    );
  }
  if (Array.isArray(declaration.attributes)) {
    declaration.attributes = declaration.attributes.filter(
      (attribute) => !isInternal(attribute.name) && !isInternal(attribute.fieldName),
    );
  }
}

/** Rewrites every `module` reference below `node` (exports, superclasses, types) to dist. */
function shipReferences(node, from) {
  if (Array.isArray(node)) {
    for (const item of node) shipReferences(item, from);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'module' && typeof value === 'string') node.module = shippedPath(value, from);
      else shipReferences(value, from);
    }
  }
}

/** Rewrites paths to dist and drops non-public members. */
export function forShipping(manifest) {
  for (const module of manifest.modules ?? []) {
    module.path = shippedPath(module.path);
    for (const declaration of module.declarations ?? []) publicOnly(declaration);
    shipReferences(module.declarations, module.path);
    shipReferences(module.exports, module.path);
  }
  return manifest;
}

export default {
  globs: ['src/lit/**/*.ts', 'src/boundary/**/*.ts', 'src/devtools/**/*.ts', 'src/html/**/*.ts'],
  // src/lit/index.ts only re-exports: the build folds it into dist/index.js, so it has no file.
  exclude: ['src/**/*.test*.ts', 'src/lit/test-utils/**', 'src/lit/index.ts'],
  litelement: true,
  plugins: [
    {
      name: 'resource-elements-shipped-paths',
      packageLinkPhase({ customElementsManifest }) {
        forShipping(customElementsManifest);
      },
    },
  ],
};
