// `npm test`: every check, in order, stopping at the first failure, then one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const steps = [
  ['browser', ['node', 'scripts/ensure-browser.mjs']],
  ['typecheck', ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['lint', ['npx', 'eslint', '.']],
  ['format', ['npx', 'prettier', '--check', '--log-level', 'warn', '.']],
  ['node tests', ['node', 'scripts/test-node.mjs']],
  ['browser tests', ['npx', 'wtr', '--config', 'web-test-runner.config.mjs']],
  // The published package as a consumer gets it: built, packed, installed, type-checked and bundled.
  ['build', ['npm', 'run', 'build']],
  ['types', ['node', 'scripts/test-types-consumer.mjs']],
  ['consumer', ['node', 'scripts/test-consumer.mjs', '--skip-build']],
];

rmSync('.test-results/node.json', { force: true });
rmSync('.test-results/browser.json', { force: true });
rmSync('.test-results/consumer.json', { force: true });
rmSync('.test-results/types.json', { force: true });

function readCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
  return JSON.parse(readFileSync(file, 'utf8'));
}

function summary() {
  const node = readCounts('.test-results/node.json');
  const browser = readCounts('.test-results/browser.json');
  console.log(
    `\nnode: ${node.passed} passed, ${node.failed} failed; chromium: ${browser.passed} passed, ${browser.failed} failed`,
  );
  const types = readCounts('.test-results/types.json');
  const consumer = readCounts('.test-results/consumer.json');
  console.log(
    `types: ${types.passed} passed, ${types.failed} failed; consumer: ${consumer.passed} passed, ${consumer.failed} failed`,
  );
  const all = [node, browser, types, consumer];
  const passed = all.reduce((sum, counts) => sum + counts.passed, 0);
  const failed = all.reduce((sum, counts) => sum + counts.failed, 0);
  const skipped = all.reduce((sum, counts) => sum + (counts.skipped ?? 0), 0);
  console.log(`total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  return failed;
}

for (const [name, [command, ...args]] of steps) {
  console.log(`\n=== ${name}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(
      `\n${name} failed (exit ${result.status ?? result.signal}); later steps were not run.`,
    );
    summary();
    process.exit(1);
  }
}
process.exit(summary() === 0 ? 0 : 1);
