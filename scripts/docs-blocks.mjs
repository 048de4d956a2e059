// The code blocks of README.md, CONTRIBUTING.md and docs/**/*.md, read as files: what
// scripts/check-docs.mjs type-checks, what the first-app and FAST todos browser tests serve, and
// what test/docs-blocks.test.mjs compares test/e2e/readme-examples.ts with.
//
// A block is one fenced block. Its first line may name the file it is (`// main.ts`,
// `<!-- index.html -->`, `// tsconfig.json` in a jsonc block); other blocks are named after their
// page and line. `<!-- no-check: why -->` on the line before a fence (blank lines allowed) leaves
// that block out of every check.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** The languages checked, and how. */
export const CHECKED = {
  ts: 'ts',
  typescript: 'ts',
  js: 'js',
  javascript: 'js',
  html: 'html',
  json: 'json',
  jsonc: 'json',
};

/** The Markdown files whose blocks are checked, relative to the repository root. */
export function markdownFiles() {
  const files = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      // docs/api is TypeDoc's output (`npm run docs`), not written by hand.
      if (entry.isDirectory() && path !== join('docs', 'api')) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  return files.sort();
}

const NAME = {
  ts: /^\/\/ ([\w./-]+\.(?:ts|mts))\b/,
  js: /^\/\/ ([\w./-]+\.(?:js|mjs))\b/,
  html: /^<!-- ([\w./-]+\.html) -->/,
  json: /^\/\/ ([\w./-]+\.json)\b/,
};

/**
 * The fenced blocks of one Markdown text: `{ lang, kind, code, line, name, skip }`, `line` being
 * the 1-based line of the block's first code line, `kind` one of CHECKED's values or undefined,
 * `skip` the reason given by a `<!-- no-check: … -->` before it.
 */
export function extractBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end].trim().startsWith(fence)) end++;
    const code = lines
      .slice(i + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? /^\s*<!--\s*no-check:\s*(.*?)\s*-->/.exec(lines[before]) : null;
    const kind = CHECKED[lang.toLowerCase()];
    const name = kind ? NAME[kind].exec(code)?.[1] : undefined;
    blocks.push({ lang, kind, code, line: i + 2, name, skip: marker?.[1] });
    i = end;
  }
  return blocks;
}

/** The blocks of a file relative to the repository root. */
export function blocksOf(file) {
  return extractBlocks(readFileSync(join(root, file), 'utf8'));
}

/**
 * The inline module scripts of an HTML block (`<script type="module">…</script>`, no `src`):
 * `{ code, line }`, `line` counted from the block's first line (0-based).
 */
export function moduleScripts(html) {
  const scripts = [];
  const pattern = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
  for (const match of html.matchAll(pattern)) {
    const [, attributes, code] = match;
    if (!/type=["']module["']/.test(attributes) || /\bsrc=/.test(attributes)) continue;
    if (code.trim() === '') continue;
    const line = html.slice(0, match.index + match[0].indexOf('>') + 1).split('\n').length - 1;
    scripts.push({ code, line });
  }
  return scripts;
}

/** Where a page's blocks are written: the guide's pages share one folder, so they import each other. */
export function folderOf(file) {
  if (file.startsWith(join('docs', 'guide') + '/')) return 'guide';
  return relative('.', file)
    .replace(/\.md$/, '')
    .replace(/[^\w-]+/g, '_');
}

/** The first app of the README: its named blocks, by name (`index.html`, `main.ts`, …). */
export function firstApp() {
  const files = {};
  for (const block of blocksOf('README.md')) {
    if (block.name && !block.skip) files[block.name] = block.code;
  }
  return files;
}

/**
 * The named blocks of the guide's pages, by name (`fast-todos.html`, `resources.ts`, …): one folder,
 * as scripts/check-docs.mjs writes them, so one page's block imports another's.
 */
export function guideFiles() {
  const files = {};
  for (const file of markdownFiles().filter((path) => folderOf(path) === 'guide')) {
    for (const block of blocksOf(file)) {
      if (block.name && !block.skip) files[block.name] = block.code;
    }
  }
  return files;
}
