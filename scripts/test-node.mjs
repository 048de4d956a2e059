// Runs every Node test (*.test.ts, not *.browser.test.ts) with node's own test runner, TypeScript
// loaded through tsx. The "resource-elements-source" condition lets tests import the package by
// name (through its exports map) straight from src/. Counts go to .test-results/node.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['src', 'test', 'server'];
const files = [];
function walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (/\.test\.(ts|mjs)$/.test(entry.name) && !/\.browser\.test\.ts$/.test(entry.name))
      files.push(path);
  }
}
roots.forEach(walk);
files.sort();

mkdirSync('.test-results', { recursive: true });
const tap = '.test-results/node.tap';
const result = spawnSync(
  process.execPath,
  [
    '--conditions=resource-elements-source',
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...files,
  ],
  { stdio: 'inherit' },
);

const text = readFileSync(tap, 'utf8');
const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
const counts = {
  passed: count('pass'),
  failed: count('fail'),
  skipped: count('skipped') + count('todo'),
};
writeFileSync('.test-results/node.json', JSON.stringify(counts));
process.exit(result.status ?? 1);
