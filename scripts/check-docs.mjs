// `npm test`'s docs step: every TypeScript, JavaScript, HTML and JSON block of README.md,
// CONTRIBUTING.md, CHANGELOG.md and docs/**/*.md must compile with its own imports, as a reader
// would paste it.
// `resource-elements` and its subpaths resolve to src/ (the "resource-elements-source" condition).
// Blocks are written to .test-results/docs-blocks/<page>/ (the guide's pages share one folder, so
// `./resources.js` in one page is the `// resources.ts` block of another), then checked with tsc:
// a folder with a `// tsconfig.json` block (the README's first app) with that config, the others
// with the settings of this repository's tsconfig.json. Errors are reported at the Markdown line.
// Also: no page cites a document that is not in the repository, and every relative link resolves.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { blocksOf, folderOf, markdownFiles, moduleScripts } from './docs-blocks.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
const out = join(root, '.test-results', 'docs-blocks');
const problems = [];

/** Generated file (absolute) → where its line 1 is in the Markdown: { file, line }. */
const origins = new Map();
/** Folder name → the files written into it. */
const folders = new Map();

function write(folder, name, code, origin) {
  const path = join(out, folder, name);
  if (origins.has(path)) {
    const first = origins.get(path);
    problems.push(
      `${origin.file}:${origin.line}: a block named ${name} already exists (${first.file}:${first.line})`,
    );
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, code.endsWith('\n') ? code : `${code}\n`);
  origins.set(path, origin);
  if (!folders.has(folder)) folders.set(folder, []);
  folders.get(folder).push(name);
}

/** Parses JSON with `//` line comments and trailing commas (a tsconfig.json), or throws. */
function parseJsonc(text) {
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1'));
}

rmSync(out, { recursive: true, force: true });
const files = markdownFiles();
let checked = 0;
let skipped = 0;
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  for (const cited of ['DESIGN.md', 'REFERENCE.md', 'TOOLING.md']) {
    if (text.includes(cited))
      problems.push(`${file}: cites ${cited}, which is not in the repository`);
  }
  for (const [, target] of text.matchAll(/\]\((?!https?:|mailto:|#)([^)#\s]+)[^)]*\)/g)) {
    if (!existsSync(resolve(root, dirname(file), target))) {
      problems.push(`${file}: links to ${target}, which does not exist`);
    }
  }
  const folder = folderOf(file);
  const page = relative('docs/guide', file).startsWith('..')
    ? ''
    : `${file.replace(/^.*\//, '').replace(/\.md$/, '')}-`;
  for (const block of blocksOf(file)) {
    if (!block.kind) continue;
    if (block.skip !== undefined) {
      if (block.skip === '') problems.push(`${file}:${block.line}: no-check needs a reason`);
      skipped++;
      continue;
    }
    checked++;
    const origin = { file, line: block.line };
    if (block.kind === 'json') {
      try {
        parseJsonc(block.code);
      } catch (error) {
        problems.push(`${file}:${block.line}: not JSON: ${error.message}`);
      }
      if (block.name) write(folder, block.name, block.code, origin);
    } else if (block.kind === 'html') {
      moduleScripts(block.code).forEach((script, index) => {
        const name = `${page}L${block.line}-script${index + 1}.ts`;
        write(folder, name, script.code, { file, line: block.line + script.line });
      });
    } else {
      write(folder, block.name ?? `${page}L${block.line}.${block.kind}`, block.code, origin);
    }
  }
}

/** The settings of this repository's tsconfig.json that matter to a reader's code. */
const defaults = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  types: ['node'],
  strict: true,
  experimentalDecorators: true,
  useDefineForClassFields: false,
  skipLibCheck: true,
  allowJs: true,
  checkJs: true,
  // A side-effect import of a path that does not exist (`import 'resource-elements/x'`) fails too.
  noUncheckedSideEffectImports: true,
};

function tsc(config) {
  const result = spawnSync('npx', ['tsc', '-p', config, '--pretty', 'false'], {
    cwd: root,
    encoding: 'utf8',
  });
  const lines = `${result.stdout}${result.stderr}`.split('\n').filter(Boolean);
  for (const line of lines) {
    const match = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line);
    const origin = match && origins.get(resolve(root, match[1]));
    if (origin) {
      problems.push(`${origin.file}:${origin.line + Number(match[2]) - 1}: ${match[4]}`);
    } else problems.push(line);
  }
  if (result.status !== 0 && lines.length === 0) problems.push(`tsc -p ${config} failed`);
}

const shared = [];
for (const [folder, names] of folders) {
  const sources = names.filter((name) => /\.(m?ts|m?js)$/.test(name));
  if (sources.length === 0) continue;
  if (names.includes('tsconfig.json')) {
    // The page's own tsconfig.json, as printed, with the package resolved to src/.
    const config = join(out, folder, 'tsconfig.check.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: {
          customConditions: ['resource-elements-source'],
          noEmit: true,
          allowJs: true,
          checkJs: true,
          noUncheckedSideEffectImports: true,
        },
        files: sources,
      }),
    );
    tsc(config);
  } else shared.push(...sources.map((name) => `${folder}/${name}`));
}
if (shared.length > 0) {
  const config = join(out, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        ...defaults,
        customConditions: ['resource-elements-source'],
        noEmit: true,
      },
      files: shared,
    }),
  );
  tsc(config);
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\ndocs: ${problems.length} problem(s) in the Markdown code blocks or links.`);
  process.exit(1);
}
console.log(
  `docs: ${checked} code blocks checked in ${files.length} Markdown files (${skipped} marked no-check).`,
);
