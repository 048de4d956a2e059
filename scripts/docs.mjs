// `npm run docs`: the API reference in docs/api/, built by TypeDoc from the JSDoc of every public
// entry (typedoc.json), with the guide's pages (docs/guide/) and two pages made here: the front
// page (what the package is, a link to the guide, each entry by its import path, from package.json
// `exports`) and "Elements", from custom-elements.json: the attributes, properties, events, slots,
// parts and CSS states of each custom element. TypeDoc fails the build on a public symbol without
// documentation (validation.notDocumented, warnings as errors). Then the built reference is
// checked: each module is named by its import path (`resource-elements/core`, never "index"),
// every entry of package.json `exports` is one, and each symbol is listed once (the main entry
// re-exports the core: the core documents those, and no module lists a reference to them).
//
//   node scripts/docs.mjs            analyze the elements, then build docs/api/
//   node scripts/docs.mjs --check    the same, into a temporary folder (what `npm test` runs)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const check = process.argv.includes('--check');

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** A markdown table cell: one line, pipes escaped. */
const cell = (text) =>
  String(text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|');

function table(title, heads, rows) {
  if (rows.length === 0) return '';
  const lines = [
    `#### ${title}`,
    '',
    `| ${heads.join(' | ')} |`,
    `|${heads.map(() => '---').join('|')}|`,
  ];
  for (const row of rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}

const code = (text) => (text ? `\`${text}\`` : '');

/** The Elements page: every custom element of custom-elements.json. */
export function elementsPage(manifest) {
  const out = [
    '# Elements',
    '',
    'The custom elements of `resource-elements`, as `custom-elements.json` describes them.',
    '',
  ];
  for (const module of manifest.modules ?? []) {
    for (const element of module.declarations ?? []) {
      if (!element.customElement || !element.tagName) continue;
      out.push(`## \`<${element.tagName}>\``, '');
      out.push(`Class \`${element.name}\`, from \`${module.path}\`.`, '');
      if (element.description) out.push(element.description, '');
      const fields = (element.members ?? []).filter(
        (member) => member.kind === 'field' && !member.static,
      );
      out.push(
        table(
          'Attributes',
          ['attribute', 'property', 'type', 'default', 'description'],
          (element.attributes ?? []).map((a) => [
            code(a.name),
            code(a.fieldName),
            code(a.type?.text),
            code(a.default),
            a.description,
          ]),
        ),
        table(
          'Properties',
          ['property', 'type', 'description'],
          fields.map((f) => [code(f.name), code(f.type?.text), f.description]),
        ),
        table(
          'Events',
          ['event', 'type', 'description'],
          (element.events ?? []).map((e) => [code(e.name), code(e.type?.text), e.description]),
        ),
        table(
          'Slots',
          ['slot', 'description'],
          (element.slots ?? []).map((s) => [s.name ? code(s.name) : '(default)', s.description]),
        ),
        table(
          'CSS parts',
          ['part', 'description'],
          (element.cssParts ?? []).map((p) => [code(p.name), p.description]),
        ),
        table(
          'CSS states',
          ['state', 'description'],
          (element.cssStates ?? []).map((s) => [code(`:state(${s.name})`), s.description]),
        ),
      );
    }
  }
  return `---\ntitle: Elements\n---\n\n${out.filter((line) => line !== '').join('\n\n')}\n`;
}

/** The first sentence of an entry's file comment, without its leading "`name`: ". */
function summaryOf(source) {
  const comment = /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(source, 'utf8'))?.[1] ?? '';
  const text = comment
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .filter((line) => !line.startsWith('@'))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = /^.*?\.(?=\s|$)/.exec(text)?.[0] ?? text;
  // Plain text for a table cell: a link's text (a cell escapes the link's `|`).
  return sentence
    .replace(/^`[^`]+`:\s*/, '')
    .replace(/\{@link\s+[^}|]*\|\s*([^}]*)\}/g, '$1')
    .replace(/\{@link\s+"?([^"}]*)"?\}/g, '$1');
}

/** The import paths package.json `exports` offers, each with its source file. */
export function entriesOf(pkg) {
  return Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object' && target['resource-elements-source'])
    .map(([subpath, target]) => ({
      name: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
      source: target['resource-elements-source'],
    }));
}

/** The reference's front page. */
export function homePage(pkg) {
  const rows = entriesOf(pkg).map(
    ({ name, source }) => `| {@link "${name}" | ${name}} | ${cell(summaryOf(source))} |`,
  );
  // No heading of its own: TypeDoc titles the page with the project's name.
  return [
    pkg.description,
    '',
    'New here? Start with the [guide](../docs/guide/README.md): one page per topic, each with an',
    'example to run. This reference documents every export, from the JSDoc in the sources; the',
    '[Elements](elements.md) page lists the attributes, events, slots, parts and states of each',
    'custom element.',
    '',
    '## Entries',
    '',
    'Each module is named by its import path. A symbol is documented once, in the entry that',
    'defines it: `resource-elements` re-exports all of `resource-elements/core`, whose page has',
    'those.',
    '',
    '| import | what it holds |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/**
 * What is wrong with the modules of TypeDoc's JSON model `project` for `pkg`: a module not named
 * by an import path (such as "index"), an entry of `exports` without its module, a symbol that
 * more than one module lists (a re-export shown again, or as a reference, is found twice by the
 * search).
 */
export function referenceProblems(project, pkg) {
  const problems = [];
  const modules = (project.children ?? []).filter((child) => child.kind === 2);
  const names = modules.map((module) => module.name);
  for (const name of names) {
    if (name !== pkg.name && !name.startsWith(`${pkg.name}/`))
      problems.push(`module "${name}" is not named by its import path (${pkg.name}/…)`);
    if (/(^|\/)index$/.test(name)) problems.push(`module "${name}" is named after a file`);
  }
  for (const { name } of entriesOf(pkg)) {
    if (!names.includes(name)) problems.push(`no module "${name}" (package.json exports it)`);
  }
  // A name twice in one module is a value and a type of that name (`MutationStatus`): one symbol.
  const listedIn = new Map();
  for (const module of modules) {
    for (const child of module.children ?? []) {
      listedIn.set(child.name, new Set([...(listedIn.get(child.name) ?? []), module.name]));
    }
  }
  for (const [symbol, where] of listedIn) {
    if (where.size > 1) problems.push(`${symbol} is listed in ${[...where].join(' and ')}`);
  }
  return problems;
}

run('npx', ['custom-elements-manifest', 'analyze']);
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
mkdirSync('.docs-build', { recursive: true });
writeFileSync('.docs-build/elements.md', elementsPage(manifest));
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
writeFileSync('.docs-build/home.md', homePage(pkg));
const out = check ? mkdtempSync(join(tmpdir(), 'resource-elements-docs-')) : 'docs/api';
const model = join(mkdtempSync(join(tmpdir(), 'resource-elements-docs-model-')), 'api.json');
try {
  run('npx', ['typedoc', '--out', out, '--json', model, '--logLevel', 'Warn']);
  const problems = referenceProblems(JSON.parse(readFileSync(model, 'utf8')), pkg);
  if (problems.length > 0) {
    console.error(`docs: the API reference's modules:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      check
        ? 'docs: the API reference builds, every public symbol documented, each listed once, modules named by import path'
        : `docs: ${out}/index.html`,
    );
  }
} finally {
  if (check) rmSync(out, { recursive: true, force: true });
  rmSync(dirname(model), { recursive: true, force: true });
}
