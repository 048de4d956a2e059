// The TypeScript matrix: test/types-consumer (the guide's examples as a consumer writes them) is
// type-checked against the built package (dist/*.d.ts through package.json `exports`, as an
// installed package resolves) by the oldest TypeScript we support, ours, 6 and the newest (7), under
// moduleResolution `bundler` and `node16`, with `experimentalDecorators` and with standard
// decorators (`accessor`). Run `npm run build` first. Counts go to .test-results/types.json.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modules = join(root, 'node_modules');

/** The TypeScript versions checked: package.json pins them (the minimum under an npm alias). */
export const compilers = [
  { label: 'minimum', dir: 'typescript-minimum' },
  { label: 'ours', dir: 'typescript' },
  { label: '6', dir: 'typescript-6' },
  // The newest the registry serves (7.x, the native compiler: its tsc runs from node as well).
  { label: 'latest', dir: 'typescript-7' },
];

export const resolutions = {
  bundler: { module: 'ESNext', moduleResolution: 'bundler' },
  node16: { module: 'node16', moduleResolution: 'node16' },
};

export const decorators = {
  experimental: {
    file: 'experimental.ts',
    options: { experimentalDecorators: true, useDefineForClassFields: false },
    // The guide's examples use experimentalDecorators, as most Lit apps today do.
    extra: ['readme-examples.ts'],
  },
  standard: { file: 'standard.ts', options: {} },
};

if (!existsSync(join(root, 'dist/index.d.ts'))) {
  console.error('dist/index.d.ts is missing: run `npm run build` first.');
  process.exit(1);
}

// A consumer's folder: its own sources, and node_modules holding the package and its peers.
const work = mkdtempSync(join(tmpdir(), 'resource-elements-types-'));
cpSync(join(root, 'test/types-consumer'), work, { recursive: true });
// The guide's whole example module (test/e2e/readme-examples.ts), importing the package by name
// as docs/guide does instead of the sources the browser test uses.
const readme = readFileSync(join(root, 'test/e2e/readme-examples.ts'), 'utf8').replace(
  /(['"])\.\.\/\.\.\/src\/(?:([\w-]+)\/)?index\.js\1/g,
  (_, quote, entry) => `${quote}resource-elements${entry ? `/${entry}` : ''}${quote}`,
);
if (readme.includes('../../src/')) {
  console.error('test/e2e/readme-examples.ts imports a source path the matrix cannot map.');
  process.exit(1);
}
writeFileSync(join(work, 'readme-examples.ts'), readme);
writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
mkdirSync(join(work, 'node_modules/@lit'), { recursive: true });
symlinkSync(root, join(work, 'node_modules/resource-elements'), 'dir');
symlinkSync(join(modules, 'lit'), join(work, 'node_modules/lit'), 'dir');
symlinkSync(join(modules, '@lit/context'), join(work, 'node_modules/@lit/context'), 'dir');
// The optional peers of resource-elements/signals, which the guide's signals example uses.
mkdirSync(join(work, 'node_modules/@lit-labs'), { recursive: true });
symlinkSync(
  join(modules, '@lit-labs/signals'),
  join(work, 'node_modules/@lit-labs/signals'),
  'dir',
);
symlinkSync(join(modules, 'signal-polyfill'), join(work, 'node_modules/signal-polyfill'), 'dir');

function tsc(compiler, project) {
  const bin = join(modules, compiler.dir, 'bin/tsc');
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, '-p', project], { cwd: work });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => done({ status, output }));
  });
}

const cells = [];
for (const compiler of compilers) {
  const version = JSON.parse(
    readFileSync(join(modules, compiler.dir, 'package.json'), 'utf8'),
  ).version;
  for (const [resolution, resolutionOptions] of Object.entries(resolutions)) {
    for (const [style, decorator] of Object.entries(decorators)) {
      const project = `tsconfig.${resolution}.${style}.json`;
      writeFileSync(
        join(work, project),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2022', 'DOM', 'DOM.Iterable'],
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: [],
            ...resolutionOptions,
            ...decorator.options,
          },
          files: ['resources.ts', decorator.file, ...(decorator.extra ?? [])],
        }),
      );
      cells.push({ compiler, version, resolution, style, project });
    }
  }
}

// Two at a time: the machine's cores are shared.
const queue = [...cells];
async function worker() {
  for (let cell = queue.shift(); cell; cell = queue.shift()) {
    Object.assign(cell, await tsc(cell.compiler, cell.project));
  }
}
await Promise.all([worker(), worker()]);

let failed = 0;
for (const cell of cells) {
  const ok = cell.status === 0;
  if (!ok) failed += 1;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} TypeScript ${cell.version.padEnd(6)} (${cell.compiler.label}) ` +
      `moduleResolution ${cell.resolution.padEnd(7)} ${cell.style} decorators`,
  );
  if (!ok) console.log(cell.output.replaceAll(work, '<fixture>').trimEnd());
}
const passed = cells.length - failed;
mkdirSync(join(root, '.test-results'), { recursive: true });
writeFileSync(
  join(root, '.test-results/types.json'),
  JSON.stringify({ passed, failed, skipped: 0 }),
);
console.log(`types: ${passed} passed, ${failed} failed`);
rmSync(work, { recursive: true, force: true });
process.exit(failed === 0 ? 0 : 1);
