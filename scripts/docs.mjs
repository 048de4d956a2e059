// `npm run docs`: the API reference in docs/api/, built by TypeDoc from the JSDoc of every public
// entry (typedoc.json), with one more page, "Elements", made here from custom-elements.json: the
// attributes, properties, events, slots, parts and CSS states of each custom element. TypeDoc fails
// the build on a public symbol without documentation (validation.notDocumented, warnings as errors).
//
//   node scripts/docs.mjs            analyze the elements, then build docs/api/
//   node scripts/docs.mjs --check    the same, into a temporary folder (what `npm test` runs)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

run('npx', ['custom-elements-manifest', 'analyze']);
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
mkdirSync('.docs-build', { recursive: true });
writeFileSync('.docs-build/elements.md', elementsPage(manifest));
const out = check ? mkdtempSync(join(tmpdir(), 'resource-elements-docs-')) : 'docs/api';
try {
  run('npx', ['typedoc', '--out', out, '--logLevel', 'Warn']);
  console.log(
    check
      ? 'docs: the API reference builds, every public symbol documented'
      : `docs: ${out}/index.html`,
  );
} finally {
  if (check) rmSync(out, { recursive: true, force: true });
}
