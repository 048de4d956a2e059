// The doc blocks' extraction (scripts/docs-blocks.mjs), and the rule that keeps the guide's
// runnable copy honest: every section of test/e2e/readme-examples.ts, which
// test/e2e/readme.browser.test.ts runs in the browsers, is a code block of the page it names.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { blocksOf, extractBlocks, firstApp, moduleScripts } from '../scripts/docs-blocks.mjs';

const root = new URL('..', import.meta.url);

/** Code lines without imports, `export`, blank lines and indentation. */
function normalize(code) {
  const lines = [];
  let inImport = false;
  for (const raw of code.split('\n')) {
    const line = raw.trim();
    if (inImport || /^import\b/.test(line)) {
      inImport = !/;\s*(\/\/.*)?$/.test(line);
      continue;
    }
    if (line === '' || /^\/\/ [\w.-]+\.(ts|js)\b/.test(line)) continue;
    lines.push(line.replace(/^export /, ''));
  }
  return lines;
}

/** A section may wrap its block in a function that returns what the test looks at. */
const wrapper = (line) =>
  /^(async )?function \w+\(.*\)(: [\w<>]+)? \{$/.test(line) ||
  line === '}' ||
  /^return\b/.test(line);

/** Whether `inner` is a contiguous run of `outer`. */
function within(outer, inner) {
  for (let start = 0; start + inner.length <= outer.length; start++) {
    if (inner.every((line, i) => outer[start + i] === line)) return true;
  }
  return false;
}

/**
 * Whether a section copies a block: the section is part of the block (the block also holds what
 * an earlier section has), or the block is the section but for its wrapper lines.
 */
function copies(section, block) {
  if (within(block, section)) return true;
  for (let start = 0; start + block.length <= section.length; start++) {
    if (block.every((line, i) => section[start + i] === line)) {
      const rest = [...section.slice(0, start), ...section.slice(start + block.length)];
      if (rest.every(wrapper)) return true;
    }
  }
  return false;
}

describe('docs blocks', () => {
  it('reads fences, names, languages and no-check markers', () => {
    const blocks = extractBlocks(
      [
        'Text',
        '```ts',
        '// main.ts',
        "import 'x';",
        '```',
        '<!-- no-check: a fragment -->',
        '',
        '```js',
        'partial(',
        '```',
        '```sh',
        'npm test',
        '```',
      ].join('\n'),
    );
    assert.deepEqual(
      blocks.map(({ lang, kind, name, skip, line }) => ({ lang, kind, name, skip, line })),
      [
        { lang: 'ts', kind: 'ts', name: 'main.ts', skip: undefined, line: 3 },
        { lang: 'js', kind: 'js', name: undefined, skip: 'a fragment', line: 9 },
        { lang: 'sh', kind: undefined, name: undefined, skip: undefined, line: 12 },
      ],
    );
  });

  it('finds the inline module scripts of an HTML block, not the ones with src', () => {
    const scripts = moduleScripts(
      '<script type="module">\n  run();\n</script>\n<script type="module" src="./a.js"></script>',
    );
    assert.deepEqual(scripts, [{ code: '\n  run();\n', line: 0 }]);
  });

  it("the README's first app is index.html, main.ts, tsconfig.json and vite.config.js", () => {
    assert.deepEqual(Object.keys(firstApp()).sort(), [
      'index.html',
      'main.ts',
      'tsconfig.json',
      'vite.config.js',
    ]);
    assert.match(firstApp()['index.html'], /src="\.\/main\.ts"/);
  });

  it('every section of test/e2e/readme-examples.ts is a code block of the page it names', () => {
    const source = readFileSync(new URL('test/e2e/readme-examples.ts', root), 'utf8');
    const parts = source.split(/^\/\/ --- (.+) ---$/m);
    const sections = [];
    for (let i = 1; i < parts.length; i += 2)
      sections.push({ title: parts[i], code: parts[i + 1] });
    const fromDocs = sections.filter((section) => !section.title.startsWith('test only'));
    assert.ok(fromDocs.length >= 25, `${fromDocs.length} sections name a page`);
    const strays = fromDocs.filter(({ title, code }) => {
      const page = blocksOf(title).filter((block) => block.kind === 'ts');
      return !page.some((block) => copies(normalize(code), normalize(block.code)));
    });
    assert.deepEqual(
      strays.map(({ title, code }) => `${title}:\n${normalize(code).join('\n')}`),
      [],
      'sections of readme-examples.ts that are not a block of the page they name ' +
        '(imports, export and indentation aside)',
    );
  });
});
